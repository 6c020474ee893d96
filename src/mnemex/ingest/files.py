"""Which files a path holds and how each is read; bad files become problems, never errors."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

KINDS = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdown": "markdown",
    ".txt": "text",
    ".text": "text",
    ".rst": "text",
    ".org": "text",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".pdf": "pdf",
    ".jsonl": "transcript",
    ".ndjson": "transcript",
}
# Folders no one means to ingest: version control, editors' settings, trash, dependencies.
SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "venv", ".venv"})
_SNIFF = 8_192


class FileProblem(Exception):
    """A file that cannot be read as text: `code` says why (binary, encoding, too_large, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Found:
    """A file to ingest, or one skipped while walking a folder (`kind` None: unsupported)."""

    path: Path
    kind: str | None
    size: int
    modified_ns: int


def kind_of(path: Path) -> str | None:
    """The reader for a file name, or None when no reader takes it."""
    return KINDS.get(path.suffix.casefold())


def walk(root: Path) -> Iterator[Found]:
    """Every file under `root` (or `root` itself), hidden files and folders left out, symlinked
    folders not followed (no loops), in a stable order."""
    if not root.is_dir():
        yield _found(root)
        return
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_FOLDERS)
        for name in sorted(files):
            if not name.startswith(".") and not name.endswith((".tmp", "~")):
                yield _found(Path(folder) / name)


def _found(path: Path) -> Found:
    try:
        stat = path.stat()
    except OSError:
        return Found(path, kind_of(path), 0, 0)
    return Found(path, kind_of(path), stat.st_size, stat.st_mtime_ns)


def load(path: Path, max_bytes: int) -> bytes:
    """The file's bytes, or a FileProblem (too large, unreadable)."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise FileProblem(
                "too_large",
                f"{size:,} bytes, over the limit of {max_bytes:,} (ingest_max_file_bytes)",
            )
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise FileProblem("unreadable", exc.strerror or str(exc)) from exc
    if len(data) > max_bytes:
        raise FileProblem(
            "too_large", f"over the limit of {max_bytes:,} bytes (ingest_max_file_bytes)"
        )
    return data


def decode(data: bytes) -> str:
    """UTF-8 text (a BOM is dropped; UTF-16 with a BOM is read too), or a FileProblem."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise FileProblem("encoding", f"not valid UTF-16 at byte {exc.start}") from exc
    if b"\x00" in data[:_SNIFF]:
        raise FileProblem("binary", "holds NUL bytes: a binary file, not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileProblem(
            "encoding",
            f"not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "convert it to UTF-8 first",
        ) from exc
