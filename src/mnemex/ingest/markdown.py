"""Markdown and Obsidian notes: front matter, headings, paragraphs, list items, code, tables;
`#tags` and front-matter tags become tags, `[[wikilinks]]` entities and relations, and a note
Mnemex promoted (its front matter names a memory) is read back as that memory.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from mnemex.ingest.chunking import chunk_blocks
from mnemex.ingest.document import Block, Chunk, Document, as_time, date_in

_FENCE = re.compile(r"^\s{0,8}(`{3,}|~{3,})")
_ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
WIKILINK = re.compile(r"(!?)\[\[([^\[\]|#^]*)(?:[#^]([^\[\]|]*))?(?:\|([^\[\]]*))?\]\]")
_TAG = re.compile(r"(?<![^\s(])#([\w/-]*[^\W\d][\w/-]*)")
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_URL = re.compile(r"\bhttps?://\S+")
_ATTACHMENT = re.compile(r"\.(?!md$)[A-Za-z0-9]{1,5}$")
_DATE_KEYS = ("date", "updated", "modified", "created")
_NOT_LINKS = frozenset({"tags", "tag", "aliases", "alias", "title", "cssclasses"})
_NOTE_SECTION = "## Entities"  # what lifecycle/promote.py writes below a memory's text


def read(text: str, stem: str, size: int, overlap: int) -> Document:
    """A Markdown file as a Document (`stem`: the file name without its extension)."""
    lines = text.splitlines()
    front, body_start = front_matter(lines)
    title = " ".join(str(front.get("title") or stem).split()) or stem
    if _is_mnemex_note(front):
        return _mnemex_note(lines, body_start, front, title)
    blocks = parse_blocks(lines, body_start, title)
    tags = _strings(front.get("tags", front.get("tag")))
    names: list[str] = []
    for block in blocks:
        if block.kind != "code":
            tags += inline_tags(block.text)
            names += link_names(block.text)
    links = [
        (str(key), name)
        for key, value in front.items()
        if str(key).casefold() not in _NOT_LINKS
        for name in _link_targets(value)
    ]
    links += [
        ("links_to", name) for name in dict.fromkeys(names) if name.casefold() != title.casefold()
    ]
    when = next((as_time(front[k]) for k in _DATE_KEYS if front.get(k) is not None), None)
    when = when or date_in(stem)
    chunks = [_linked(chunk) for chunk in chunk_blocks(blocks, size, overlap, when)]
    return Document(
        kind="markdown",
        title=title,
        chunks=[chunk for chunk in chunks if chunk.body.strip()],
        tags=list(dict.fromkeys(tag.strip("#/") for tag in tags if tag.strip("#/"))),
        links=links,
        aliases=_strings(front.get("aliases", front.get("alias")), ","),
        observed_at=when,
    )


def front_matter(lines: list[str]) -> tuple[dict[str, Any], int]:
    """The YAML front matter (empty when absent or unreadable) and the body's first line index."""
    if not lines or lines[0].strip() != "---":
        return {}, 0
    for index in range(1, len(lines)):
        if lines[index].strip() in ("---", "..."):
            try:
                value = yaml.safe_load("\n".join(lines[1:index]))
            except yaml.YAMLError:
                value = None
            return (value if isinstance(value, dict) else {}), index + 1
    return {}, 0


def parse_blocks(lines: list[str], first: int, title: str) -> list[Block]:
    """Headings and content blocks with 1-based line numbers and their heading paths."""
    reader = _BlockReader(title)
    for index in range(first, len(lines)):
        reader.feed(lines[index], index + 1)
    reader.close(len(lines))
    return reader.blocks


class _BlockReader:
    """A line-by-line reader of Markdown structure (CommonMark's block rules, simplified)."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.blocks: list[Block] = []
        self.stack: list[tuple[int, str]] = []
        self.current: list[str] = []
        self.kind = "paragraph"
        self.start = 0
        self.fence: str | None = None

    def path(self) -> tuple[str, ...]:
        names = [name for _, name in self.stack]
        if not self.stack or self.stack[0][0] != 1:
            names.insert(0, self.title)
        return tuple(names)

    def close(self, end: int) -> None:
        text = "\n".join(self.current).strip("\n")
        if text.strip():
            self.blocks.append(Block(self.kind, text, self.start, end, self.path()))
        self.current = []
        self.fence = None

    def heading(self, level: int, name: str, number: int) -> None:
        self.close(number - 1)
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, " ".join(WIKILINK.sub(_display, name).split())))
        self.blocks.append(Block("heading", name, number, number, self.path(), level))

    def begin(self, kind: str, number: int, line: str) -> None:
        self.close(number - 1)
        self.kind, self.start, self.current = kind, number, [line]

    def feed(self, line: str, number: int) -> None:
        if self.fence is not None:
            self.current.append(line)
            if line.strip().startswith(self.fence):
                self.close(number)
            return
        opening = _FENCE.match(line)
        if opening:
            self.begin("code", number, line)
            self.fence = opening.group(1)
            return
        if not line.strip() or (_RULE.match(line) and not self._underlines(line)):
            self.close(number - 1)
            return
        atx = _ATX.match(line)
        if atx:
            self.heading(len(atx.group(1)), atx.group(2), number)
        elif self._underlines(line):
            name = self.current[0].strip()
            self.current = []
            self.heading(1 if "=" in line else 2, name, number - 1)
        elif _ITEM.match(line) and not self._continues_item(line):
            self.begin("item", number, line)
        elif line.lstrip().startswith("|") and self.kind != "table":
            self.begin("table", number, line)
        elif not self.current:
            self.begin("paragraph", number, line)
        else:
            self.current.append(line)

    def _underlines(self, line: str) -> bool:
        """A setext heading's underline: "===" or "---" right below one line of paragraph."""
        return bool(_SETEXT.match(line) and self.kind == "paragraph" and len(self.current) == 1)

    def _continues_item(self, line: str) -> bool:
        """A nested item stays with the item above it."""
        return (
            bool(self.current) and self.kind == "item" and _indent(line) > _indent(self.current[0])
        )


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def inline_tags(text: str) -> list[str]:
    """Obsidian `#tags` in a text (not in code spans, links or URLs; not `#123`)."""
    plain = _URL.sub(" ", WIKILINK.sub(" ", _CODE_SPAN.sub(" ", text)))
    return [match.group(1) for match in _TAG.finditer(plain)]


def link_names(text: str) -> list[str]:
    """The notes a text links to with `[[wikilinks]]` (embedded attachments left out)."""
    names: list[str] = []
    for match in WIKILINK.finditer(text):
        target = _target(match)
        if target:
            names.append(target)
    return names


def _target(match: re.Match[str]) -> str | None:
    raw = match.group(2).strip()
    if not raw or (match.group(1) and _ATTACHMENT.search(raw)):
        return None
    name = raw.rsplit("/", 1)[-1]
    name = name[:-3] if name.casefold().endswith(".md") else name
    return " ".join(name.split()) or None


def _display(match: re.Match[str]) -> str:
    """What a reader sees of a wikilink: its alias, else its target (an embed: nothing)."""
    if match.group(1) and _ATTACHMENT.search(match.group(2).strip()):
        return ""
    alias = (match.group(4) or "").strip()
    return alias or _target(match) or (match.group(3) or "").strip()


def _linked(chunk: Chunk) -> Chunk:
    """A chunk whose wikilinks read as text, with the names they link to as its entities."""
    chunk.entities = list(dict.fromkeys(link_names(chunk.body)))
    chunk.body = WIKILINK.sub(_display, chunk.body)
    return chunk


def _link_targets(value: object) -> list[str]:
    """Wikilinks in a front-matter value ("owner: [[Priya]]", lists of them)."""
    values = value if isinstance(value, list) else [value]
    return [name for item in values if isinstance(item, str) for name in link_names(item)]


def _strings(value: object, separators: str = r"[,\s]+") -> list[str]:
    """A front-matter list or a separated string (tags: commas or spaces), as strings."""
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in re.split(separators, value) if part.strip()]
    if isinstance(value, list):
        return [
            " ".join(str(item).split()) for item in value if item is not None and str(item).strip()
        ]
    return [str(value)]


def _is_mnemex_note(front: dict[str, Any]) -> bool:
    memory_id = front.get("id")
    return (
        isinstance(memory_id, str)
        and memory_id.startswith("mem_")
        and "score_at_promotion" in front
    )


def _mnemex_note(lines: list[str], first: int, front: dict[str, Any], title: str) -> Document:
    """A promoted memory's note: one chunk, the memory's text without the entity links."""
    body = lines[first:]
    end = len(lines)
    for index, line in enumerate(body):
        if line.strip() == _NOTE_SECTION:
            body, end = body[:index], first + index
            break
    text = "\n".join(body).strip()
    start = first + 1 + next((i for i, line in enumerate(body) if line.strip()), 0)
    when = as_time(front.get("observed")) or as_time(front.get("created"))
    chunk = Chunk(body=text, start=start, end=max(start, end), observed_at=when)
    return Document(
        kind="note",
        title=title,
        chunks=[chunk] if text else [],
        tags=_strings(front.get("tags")),
        observed_at=when,
        note=front,
    )
