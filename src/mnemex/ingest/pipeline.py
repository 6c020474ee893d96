"""One ingest run: find the files, read the changed ones, plan, write in batches, report.

Two passes: the first reads and hashes every file and parses the changed ones (cheap next to
embedding), so the link targets of the whole run are known before any note is planned; the
second plans and writes, batch by batch, with progress counted in chunks.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mnemex.clock import from_micros
from mnemex.engine import Engine
from mnemex.errors import InvalidInputError
from mnemex.ingest import documents, files, markdown, transcripts
from mnemex.ingest.document import Document
from mnemex.ingest.plans import Options, deleted_plan, document_plan, new_record, transcript_plan
from mnemex.ingest.sync import FilePlan, write
from mnemex.models import IngestProblem, IngestReport, Memory
from mnemex.store.base import SourceRecord

Progress = Callable[[IngestReport, int, int], None]  # (report so far, units done, units in all)
BATCH = 256  # chunks per write transaction: one embedding batch, one commit
READER_VERSION = 1  # raise when a reader changes what it makes of a file: files are read again


@dataclass(slots=True)
class _Read:
    """A changed file, read: its record to be, the previous one, and what it holds."""

    record: SourceRecord
    previous: SourceRecord | None
    parsed: Document | transcripts.Transcript

    @property
    def units(self) -> int:
        if isinstance(self.parsed, Document):
            return len(self.parsed.chunks)
        return len(self.parsed.turns)


def parser_key(kind: str, options: Options) -> str:
    """What decides how a file is cut: its reader and, for documents, the chunk settings."""
    if kind == "transcript":
        return f"transcript/{READER_VERSION}"
    return f"{kind}/{READER_VERSION} chunk={options.chunk_chars} overlap={options.overlap_chars}"


def run(
    engine: Engine,
    tenant: str,
    paths: Sequence[str | Path],
    options: Options,
    progress: Progress | None = None,
) -> IngestReport:
    """Ingest files and folders; see the module and sync.py for what is written."""
    started = time.monotonic()
    report = IngestReport()
    found, previous, gone = _discover(engine, tenant, paths, report)
    read: list[_Read] = []
    linked: set[str] = set()
    for item in found:
        report.files += 1
        parsed = _read(engine, item, previous.get(str(item.path)), options, report)
        if parsed is not None:
            read.append(parsed)
            if isinstance(parsed.parsed, Document):
                linked.update(target.casefold() for _, target in parsed.parsed.links)
    total = sum(entry.units for entry in read) + len(gone)
    done = 0
    batch: list[FilePlan] = []
    reasons: list[str] = []
    known = _memories(engine, tenant, [entry.previous for entry in read], read)
    if progress is not None:
        progress(report, 0, total)
    for entry in read:
        plan = _plan(engine, tenant, entry, known, options, linked, report, reasons)
        if entry.previous is None:
            report.added += 1
        else:
            report.updated += 1
        _count(report, plan)
        small = options.enrich or isinstance(entry.parsed, transcripts.Transcript)
        limit = engine.settings.analysis_batch_limit if small else BATCH
        if batch and sum(len(p.new) for p in batch) + len(plan.new) > limit:
            write(engine, tenant, batch)
            batch = []
        batch.append(plan)
        done += entry.units
        if small:  # enrichment runs on batches of at most analysis_batch_limit saves
            write(engine, tenant, batch)
            batch = []
        if progress is not None:
            progress(report, done, total)
    deleted = _memories(engine, tenant, gone, [])
    for record in gone:
        plan = deleted_plan(record, deleted)
        report.deleted += 1
        report.chunks_archived += len(plan.archive)
        batch.append(plan)
        done += 1
    if batch:
        write(engine, tenant, batch)
    for reason in reasons:
        report.skipped[reason] = report.skipped.get(reason, 0) + 1
    report.seconds = round(time.monotonic() - started, 3)
    if progress is not None:
        progress(report, total, total)
    return report


def _count(report: IngestReport, plan: FilePlan) -> None:
    is_turns = plan.record.kind == "transcript"
    if is_turns:
        report.turns_kept += len(plan.new)
    else:
        report.chunks_added += len(plan.new)
    report.chunks_kept += plan.kept
    report.chunks_archived += len(plan.archive)


def _discover(
    engine: Engine, tenant: str, paths: Sequence[str | Path], report: IngestReport
) -> tuple[list[files.Found], dict[str, SourceRecord], list[SourceRecord]]:
    """The files to look at, what the store knows of them, and known files that are gone."""
    if isinstance(paths, str | Path) or not paths:
        raise InvalidInputError("paths", "give at least one file or folder")
    found: dict[str, files.Found] = {}
    previous: dict[str, SourceRecord] = {}
    gone: dict[str, SourceRecord] = {}
    with engine.backend.read(tenant) as tx:
        for given in paths:
            root = Path(given).expanduser().resolve()
            known = tx.sources(str(root))
            previous.update(known)
            if not root.exists() and not known:
                raise InvalidInputError("paths", f"{given}: no such file or folder")
            seen: set[str] = set()
            for item in files.walk(root) if root.exists() else ():
                if item.kind is None:
                    if item.path == root:
                        report.problems.append(
                            IngestProblem(
                                str(root), "unsupported", "no reader for this kind of file"
                            )
                        )
                    else:
                        report.skipped["unsupported file"] = (
                            report.skipped.get("unsupported file", 0) + 1
                        )
                    continue
                seen.add(str(item.path))
                found.setdefault(str(item.path), item)
            for path, record in known.items():
                if path not in seen and record.status == "present":
                    gone[path] = record
    return list(found.values()), previous, [r for p, r in gone.items() if p not in found]


def _read(
    engine: Engine,
    item: files.Found,
    previous: SourceRecord | None,
    options: Options,
    report: IngestReport,
) -> _Read | None:
    """A changed file, read and parsed; None when unchanged or unreadable (then reported)."""
    path = str(item.path)
    kind = str(item.kind)
    parser = parser_key(kind, options)
    try:
        data = files.load(item.path, engine.settings.ingest_max_file_bytes)
        digest = hashlib.sha256(data).hexdigest()
        if (
            previous is not None
            and previous.content_hash == digest
            and previous.parser == parser
            and previous.status == "present"
        ):
            report.unchanged += 1
            return None
        parsed = _parse(kind, data, item.path, options)
    except files.FileProblem as exc:
        report.problems.append(IngestProblem(path, exc.code, exc.message))
        return None
    except (documents.ReadError, transcripts.TranscriptError) as exc:
        report.problems.append(IngestProblem(path, "parse_error", str(exc)))
        return None
    if isinstance(parsed, transcripts.Transcript) and parsed.bad_lines:
        lines = ", ".join(str(n) for n in parsed.bad_lines[:5])
        more = "..." if len(parsed.bad_lines) > 5 else ""
        report.problems.append(
            IngestProblem(
                path,
                "bad_line",
                f"{len(parsed.bad_lines)} lines are not JSON objects (lines {lines}{more}); "
                "the rest was read",
            )
        )
    mtime = item.modified_ns // 1000
    return _Read(new_record(path, kind, digest, parser, len(data), mtime), previous, parsed)


def _parse(
    kind: str, data: bytes, path: Path, options: Options
) -> Document | transcripts.Transcript:
    size, overlap = options.chunk_chars, options.overlap_chars
    if kind == "pdf":
        return documents.read_pdf(data, path.stem, size, overlap)
    text = files.decode(data)
    if kind == "markdown":
        return markdown.read(text, path.stem, size, overlap)
    if kind == "html":
        return documents.read_html(text, path.stem, size, overlap)
    if kind == "transcript":
        return transcripts.read(text)
    return documents.read_text(text, path.stem, size, overlap)


def _memories(
    engine: Engine, tenant: str, records: Sequence[SourceRecord | None], read: Sequence[_Read]
) -> dict[str, Memory]:
    """The memories the previous chunks point to, and the memories promoted notes name."""
    ids = [c.memory_id for r in records if r is not None for c in r.chunks if c.memory_id]
    for entry in read:
        if isinstance(entry.parsed, Document) and entry.parsed.note is not None:
            ids.append(str(entry.parsed.note.get("id")))
    if not ids:
        return {}
    found: dict[str, Memory] = {}
    with engine.backend.read(tenant) as tx:
        for start in range(0, len(ids), 500):
            found.update(tx.get_memories(ids[start : start + 500]))
    return found


def _plan(
    engine: Engine,
    tenant: str,
    entry: _Read,
    known: dict[str, Memory],
    options: Options,
    linked: set[str],
    report: IngestReport,
    reasons: list[str],
) -> FilePlan:
    fallback = from_micros(entry.record.modified_at)
    if isinstance(entry.parsed, transcripts.Transcript):
        return transcript_plan(
            engine, tenant, entry.record, entry.parsed, entry.previous, known, reasons, fallback
        )
    return document_plan(
        engine,
        entry.record,
        entry.parsed,
        entry.previous,
        known,
        options,
        linked,
        report.problems,
        fallback,
    )
