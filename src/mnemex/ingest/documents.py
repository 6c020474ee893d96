"""Plain text, HTML and PDF files as Documents.

HTML goes through BeautifulSoup 4 with the standard library's parser (pure Python, MIT, the
most used HTML library on PyPI, tolerant of broken markup, and it keeps each tag's source line
for citations); navigation, headers, footers, scripts and styles are dropped. PDF goes through
pypdf (pure Python, BSD, maintained by the py-pdf organisation, no native code to build); a
chunk of a PDF cites pages. Both are imported only when such a file is read.
"""

from __future__ import annotations

import io
import logging
import re
import warnings
from datetime import datetime
from typing import Any

from mnemex.ingest.chunking import chunk_blocks
from mnemex.ingest.document import Block, Document, as_time, date_in
from mnemex.ingest.markdown import parse_blocks

_DROPPED = ("script", "style", "noscript", "template", "nav", "header", "footer", "aside", "form",
            "svg", "iframe", "button", "select")  # fmt: skip
_BLOCKS = frozenset({"p", "li", "pre", "blockquote", "tr", "dt", "dd", "figcaption", "caption",
                     "h1", "h2", "h3", "h4", "h5", "h6"})  # fmt: skip
_CONTAINERS = frozenset({"div", "section", "article", "main", "body", "td", "th"})
_HTML_DATES = ("article:modified_time", "article:published_time", "dcterms.modified", "date",
               "dc.date", "last-modified")  # fmt: skip
_SENTENCE_END = re.compile(r"[.!?:;)\"']$")


class ReadError(Exception):
    """A file that a reader cannot make sense of (a broken PDF): reported, then skipped."""


def read_text(text: str, stem: str, size: int, overlap: int) -> Document:
    """A plain-text file: paragraphs and list items, under the file's name."""
    blocks = parse_blocks(text.splitlines(), 0, stem)
    when = date_in(stem)
    return Document("text", stem, chunk_blocks(blocks, size, overlap, when), observed_at=when)


class _Headings:
    """The headings above the current position, with the document's title when it has no h1."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.stack: list[tuple[int, str]] = []

    def enter(self, level: int, name: str) -> None:
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, name))

    @property
    def path(self) -> tuple[str, ...]:
        names = [name for _, name in self.stack]
        if not self.stack or self.stack[0][0] != 1:
            names.insert(0, self.title)
        return tuple(names)


def read_html(text: str, stem: str, size: int, overlap: int) -> Document:
    """An HTML page: its headings, paragraphs, list items, table rows and preformatted text."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(text, "html.parser")
    title_tag = soup.find("title")
    title = " ".join(title_tag.get_text(" ").split()) if title_tag else ""
    when = _html_date(soup)
    for tag in soup.find_all(_DROPPED):
        tag.decompose()
    heading1 = soup.find("h1")
    if heading1 is not None and not title:
        title = " ".join(heading1.get_text(" ").split())
    headings = _Headings(title or stem)
    blocks: list[Block] = []
    root = soup.body or soup
    for element in root.find_all(True):
        name = element.name
        if name not in _BLOCKS and name not in _CONTAINERS:
            continue
        if any(parent.name in _BLOCKS for parent in element.parents):
            continue
        start = element.sourceline or 1
        end = start + str(element).count("\n")
        if name in _CONTAINERS:
            words = " ".join(s for s in element.find_all(string=True, recursive=False))
            words = " ".join(words.split())
            if words:
                blocks.append(Block("paragraph", words, start, end, headings.path))
            continue
        if name == "pre":
            body = element.get_text().strip("\n")
        elif name == "tr":
            cells = [" ".join(c.get_text(" ").split()) for c in element.find_all(["td", "th"])]
            body = " | ".join(cell for cell in cells if cell)
        else:  # inline tags (<code>, <em>) sit inside words: no separator added
            body = " ".join(element.get_text().split())
        if not body:
            continue
        if name[0] == "h" and name[1:].isdigit():
            headings.enter(int(name[1:]), body)
            continue
        kind = {"li": "item", "pre": "code", "tr": "item"}.get(name, "paragraph")
        blocks.append(Block(kind, body, start, end, headings.path))
    chunks = chunk_blocks(blocks, size, overlap, when or date_in(stem))
    return Document("html", title or stem, chunks, observed_at=when or date_in(stem))


def _html_date(soup: Any) -> datetime | None:
    for meta in soup.find_all("meta"):
        key = (meta.get("name") or meta.get("property") or meta.get("http-equiv") or "").lower()
        if key in _HTML_DATES and meta.get("content"):
            found = as_time(meta["content"])
            if found is not None:
                return found
    return None


def read_pdf(data: bytes, stem: str, size: int, overlap: int) -> Document:
    """A PDF's text, page by page; a short line without final punctuation reads as a heading."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    log = logging.getLogger("pypdf")
    level = log.level
    log.setLevel(logging.CRITICAL)  # a broken file is reported as a problem, not logged twice
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader = PdfReader(io.BytesIO(data))
            if reader.is_encrypted:
                raise ReadError("the PDF is encrypted")
            pages = [page.extract_text() or "" for page in reader.pages]
            info = reader.metadata
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as exc:
        raise ReadError(f"not a readable PDF: {exc}") from exc
    finally:
        log.setLevel(level)
    title = " ".join(str(info.title).split()) if info is not None and info.title else stem
    when = _pdf_date(info) or date_in(stem)
    headings = _Headings(title)
    blocks: list[Block] = []
    for number, page in enumerate(pages, start=1):
        for kind, text in _pdf_paragraphs(page, title):
            if kind == "heading":
                headings.enter(2, text)
            else:
                blocks.append(Block("paragraph", text, number, number, headings.path))
    if not blocks:
        raise ReadError("the PDF has no text (a scan needs OCR first)")
    return Document("pdf", title, chunk_blocks(blocks, size, overlap, when), unit="page",
                    observed_at=when)  # fmt: skip


def _pdf_date(info: Any) -> datetime | None:
    try:
        made = info.modification_date or info.creation_date if info is not None else None
    except (ValueError, TypeError):
        return None
    return as_time(made)


def _pdf_paragraphs(page: str, title: str) -> list[tuple[str, str]]:
    """Lines of a page joined into paragraphs; lines alone and unpunctuated are headings."""
    lines = [" ".join(line.split()) for line in page.splitlines()]
    widest = max((len(line) for line in lines), default=0)
    found: list[tuple[str, str]] = []
    current: list[str] = []
    for line in lines:
        if not line:
            if current:
                found.append(("paragraph", " ".join(current)))
                current = []
            continue
        short = len(line) < 0.6 * widest
        if short and not current and not _SENTENCE_END.search(line) and len(line) < 80:
            if line.casefold() != title.casefold():
                found.append(("heading", line))
            continue
        current.append(line)
        if short and _SENTENCE_END.search(line):
            found.append(("paragraph", " ".join(current)))
            current = []
    if current:
        found.append(("paragraph", " ".join(current)))
    return found
