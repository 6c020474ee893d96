"""Ingest: files and folders of notes, documents and chat transcripts, kept in sync.

`pipeline.run` finds the files (files.py), reads the changed ones (markdown.py, documents.py,
transcripts.py), cuts documents into chunks that follow their structure (chunking.py), and
writes what changed (plans.py, sync.py): the new chunks as memories, citations that moved,
archives of chunks that are gone, and the sync state of each file. `watch.follow` repeats a run
whenever a file under the given paths changes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from mnemex.engine import Engine
from mnemex.errors import InvalidInputError
from mnemex.ingest.pipeline import Progress, run
from mnemex.ingest.plans import Options
from mnemex.ingest.watch import follow
from mnemex.limits import check_positive
from mnemex.models import IngestReport

__all__ = ["Options", "Progress", "follow", "ingest", "run"]


def ingest(
    engine: Engine,
    tenant: str,
    paths: str | Path | Sequence[str | Path],
    *,
    chunk_chars: int | None = None,
    overlap_chars: int | None = None,
    enrich: bool = False,
    progress: Progress | None = None,
    watch: float | None = None,
    stop: threading.Event | None = None,
    on_report: Callable[[IngestReport], None] | None = None,
) -> IngestReport:
    """`MemoryStore.ingest`: checked settings, then one run, or runs on every change."""
    given = [paths] if isinstance(paths, str | Path) else list(paths)
    changes = {"ingest_chunk_chars": chunk_chars, "ingest_overlap_chars": overlap_chars}
    for name, value in changes.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise InvalidInputError(name.removeprefix("ingest_"), "must be an integer")
    try:
        settings = engine.settings.replace(**{k: v for k, v in changes.items() if v is not None})
    except InvalidInputError as exc:  # named as the caller named it
        field = exc.field.removeprefix("ingest_")
        raise InvalidInputError(field, exc.message.split(": ", 1)[-1], limit=exc.limit) from exc
    options = Options(settings.ingest_chunk_chars, settings.ingest_overlap_chars, bool(enrich))
    if watch is None:
        return run(engine, tenant, given, options, progress)
    reports: list[IngestReport] = []
    follow(
        engine,
        tenant,
        given,
        options,
        interval=check_positive(watch, "watch"),
        on_report=on_report or reports.append,
        stop=stop or threading.Event(),
        progress=progress,
    )
    return reports[-1] if reports else IngestReport()
