"""What a reader makes of a file: blocks of text with their lines, then chunks to remember."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from mnemex.limits import content_hash

HEADING_SEPARATOR = " > "
_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


@dataclass(slots=True)
class Block:
    """A paragraph, list item, code block, table or heading, and the lines it spans."""

    kind: str  # heading, paragraph, item, code, table
    text: str
    start: int
    end: int
    path: tuple[str, ...] = ()  # the headings above it, outermost first
    level: int = 0  # a heading's level


@dataclass(slots=True)
class Chunk:
    """One piece of a file to remember: its text, where it sits, its heading and its time."""

    body: str
    start: int
    end: int
    path: tuple[str, ...] = ()
    observed_at: datetime | None = None
    entities: list[str] = field(default_factory=list)  # names it links to ([[wikilinks]])

    @property
    def heading(self) -> str | None:
        """The heading path, outermost first ("Atlas > Decisions")."""
        return HEADING_SEPARATOR.join(self.path) or None

    @property
    def content(self) -> str:
        """The memory's text: the heading path on the first line, then the body."""
        heading = self.heading
        return f"{heading}\n{self.body}" if heading else self.body

    @property
    def hash(self) -> str:
        """The chunk's identity across runs: the hash of its text and its heading path."""
        return content_hash(self.content)


@dataclass(slots=True)
class Document:
    """A file as read: its chunks plus what holds for all of them (tags, links, time)."""

    kind: str  # markdown, text, html, pdf, note (a Mnemex vault note)
    title: str
    chunks: list[Chunk] = field(default_factory=list)
    unit: str = "line"  # what chunk ranges count: lines, or pages of a PDF
    tags: list[str] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)  # (relation, target name)
    aliases: list[str] = field(default_factory=list)
    observed_at: datetime | None = None
    note: dict[str, Any] | None = None  # the front matter of a note Mnemex promoted


def as_time(value: object) -> datetime | None:
    """A front-matter or metadata value as an aware UTC datetime, when it reads as one."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return date_in(value)
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return None


def date_in(text: str) -> datetime | None:
    """The first YYYY-MM-DD date in a text (a daily note's name, a dated heading)."""
    match = _DATE.search(text)
    if match is None:
        return None
    year, month, day = (int(part) for part in match.groups())
    try:
        return datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None
