"""Chunks that follow structure: a chunk never crosses a heading, and fills up with whole
paragraphs, list items, tables and code blocks up to the size setting; the end of a chunk is
repeated at the start of the next (the overlap), so a passage cut between two chunks is whole
in one of them. A block longer than a chunk is cut between sentences, then between words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import datetime

from mnemex.ingest.document import Block, Chunk, date_in

_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|\n+")


def chunk_blocks(
    blocks: Sequence[Block], size: int, overlap: int, observed_at: datetime | None = None
) -> list[Chunk]:
    """Chunks of the content blocks, section by section (headings give the sections)."""
    chunks: list[Chunk] = []
    for path, section in _sections(blocks):
        when = _section_time(path) or observed_at
        for start, end, body in _pack(section, size, overlap):
            chunks.append(Chunk(body=body, start=start, end=end, path=path, observed_at=when))
    return chunks


def _sections(blocks: Sequence[Block]) -> Iterator[tuple[tuple[str, ...], list[Block]]]:
    current: list[Block] = []
    path: tuple[str, ...] | None = None
    for block in blocks:
        if block.kind == "heading":
            continue
        if path is not None and block.path != path and current:
            yield path, current
            current = []
        path = block.path
        current.append(block)
    if current and path is not None:
        yield path, current


def _section_time(path: tuple[str, ...]) -> datetime | None:
    """A dated heading ("### 2026-01-22", a journal's day) dates its section."""
    for heading in reversed(path):
        found = date_in(heading)
        if found is not None:
            return found
    return None


def _pack(section: list[Block], size: int, overlap: int) -> Iterator[tuple[int, int, str]]:
    pieces = [piece for block in section for piece in split_block(block, size)]
    current: list[Block] = []
    fresh = False  # whether `current` holds a piece not emitted yet
    for piece in pieces:
        if fresh and _length(current) + len(piece.text) > size:
            yield _joined(current)
            current = _tail(current, overlap)
            fresh = False
        current.append(piece)
        fresh = True
    if fresh:
        yield _joined(current)


def _length(blocks: Sequence[Block]) -> int:
    return sum(len(block.text) + 2 for block in blocks)


def _joined(blocks: Sequence[Block]) -> tuple[int, int, str]:
    parts: list[str] = []
    for index, block in enumerate(blocks):
        if index:
            together = block.kind == "item" and blocks[index - 1].kind == "item"
            parts.append("\n" if together else "\n\n")
        parts.append(block.text)
    return blocks[0].start, max(block.end for block in blocks), "".join(parts)


def _tail(blocks: Sequence[Block], overlap: int) -> list[Block]:
    """The end of a chunk to repeat: whole trailing blocks, else the last sentences of one."""
    if overlap <= 0 or not blocks:
        return []
    kept: list[Block] = []
    total = 0
    for block in reversed(blocks):
        if total + len(block.text) > overlap:
            break
        kept.insert(0, block)
        total += len(block.text) + 2
    if kept:
        return kept
    last = blocks[-1]
    if last.kind in ("code", "table"):
        return []  # half a table or half a program reads as noise
    cut = _cut_before(last.text, len(last.text) - overlap)
    if cut is None or cut >= len(last.text):
        return []
    return [_piece(last, cut, len(last.text))]


def _cut_before(text: str, offset: int) -> int | None:
    """The first sentence start at or after `offset` (None: no sentence ends there)."""
    for match in _SENTENCE_END.finditer(text):
        if match.end() >= offset:
            return match.end()
    return None


def split_block(block: Block, size: int) -> list[Block]:
    """A block cut into pieces of at most `size` characters, between sentences if it can."""
    if len(block.text) <= size:
        return [block]
    pieces: list[Block] = []
    start = 0
    text = block.text
    while len(text) - start > size:
        limit = start + size
        cut = None
        for match in _SENTENCE_END.finditer(text, start + 1, limit):
            cut = match.end()
        if cut is None or cut <= start:
            space = text.rfind(" ", start + 1, limit)
            cut = space + 1 if space > start else limit
        pieces.append(_piece(block, start, cut))
        start = cut
    pieces.append(_piece(block, start, len(text)))
    return [piece for piece in pieces if piece.text]


def _piece(block: Block, begin: int, end: int) -> Block:
    """Characters begin:end of a block, with the lines they span (when its text keeps the
    file's line breaks; otherwise, a page or an HTML element, the block's own range)."""
    text = block.text
    if text.count("\n") != block.end - block.start:
        first, last = block.start, block.end
    else:
        first = block.start + text.count("\n", 0, begin)
        last = block.start + text.count("\n", 0, max(begin, end - 1))
        last = min(last, block.end)
    return Block(block.kind, text[begin:end].strip(), first, last, block.path, block.level)
