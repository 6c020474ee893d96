"""From a file as read to what must be written: its FilePlan (see sync.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from mnemex import saving
from mnemex.config import Settings
from mnemex.engine import Engine
from mnemex.errors import InvalidInputError
from mnemex.ingest import transcripts
from mnemex.ingest.document import Document
from mnemex.ingest.sync import FilePlan, NewChunk, citation_meta, match, retire
from mnemex.limits import normalize_tag
from mnemex.models import IngestProblem, Memory
from mnemex.store.base import SourceChunk, SourceRecord


@dataclass(frozen=True, slots=True)
class Options:
    """How a run reads files."""

    chunk_chars: int
    overlap_chars: int
    enrich: bool  # documents: run the analysis layer on every chunk (entities, tags, strength)


def new_record(
    path: str, kind: str, digest: str, parser: str, size: int, mtime: int
) -> SourceRecord:
    """The record a plan will write (chunks and time are filled in when it is written)."""
    return SourceRecord(path, kind, digest, parser, "present", size, mtime, 0, [])


def _tags(tags: list[str], settings: Settings) -> list[str]:
    out = [
        t
        for t in dict.fromkeys(normalize_tag(tag) for tag in tags)
        if 0 < len(t) <= settings.max_tag_chars
    ]
    return out[: settings.max_tags]


def _names(names: list[str], settings: Settings) -> list[str]:
    seen: dict[str, str] = {}
    for name in names:
        clean = " ".join(name.split())
        if clean and len(clean) <= settings.max_entity_chars:
            seen.setdefault(clean.casefold(), clean)
    return list(seen.values())[: settings.max_entities]


def document_plan(
    engine: Engine,
    record: SourceRecord,
    document: Document,
    previous: SourceRecord | None,
    memories: dict[str, Memory],
    options: Options,
    linked: set[str],
    problems: list[IngestProblem],
    fallback_time: Any,
) -> FilePlan:
    """Save what is new in a document, keep what is unchanged, archive what is gone."""
    settings = engine.settings
    plan = FilePlan(record=record)
    path = record.path
    wanted = [
        (
            c.hash,
            c.start,
            c.end,
            citation_meta(path, c.start, c.end, c.heading, document.unit, document.kind),
        )
        for c in document.chunks
    ]
    old = previous.chunks if previous is not None else []
    own = _own_note(document, memories)
    if own is not None:  # a note Mnemex promoted, read back into the store it came from
        chunk = document.chunks[0]
        plan.slots = [SourceChunk(chunk.hash, own.id, chunk.start, chunk.end)]
        if own.content.strip() != chunk.body.strip():
            plan.rewrites.append((own.id, chunk.body))
        plan.kept = 1
        for gone in old:
            if gone.memory_id != own.id:
                retire(plan, memories.get(gone.memory_id or ""))
        return plan
    missing = match(plan, old, memories, wanted)
    title = document.title
    in_graph = document.kind == "markdown" and (bool(document.links) or title.casefold() in linked)
    note = document.note or {}
    tags = _tags(document.tags + [str(t) for t in note.get("tags") or []], settings)
    for index in missing:
        chunk = document.chunks[index]
        names = _names(
            ([title] if in_graph else []) + chunk.entities + list(note.get("entities") or []),
            settings,
        )
        meta = dict(wanted[index][3])
        if note:
            meta["vault_id"] = note.get("id")
        item: dict[str, Any] = {
            "content": chunk.content,
            "tags": tags or (None if options.enrich else []),
            "entities": names or (None if options.enrich else []),
            "strength": _strength(note.get("strength"), options.enrich),
            "source": path[: saving.MAX_SOURCE_CHARS],
            "meta": meta,
            "observed_at": chunk.observed_at or document.observed_at or fallback_time,
        }
        if _checked(item, settings, path, chunk.start, problems, engine.clock()):
            plan.new.append(NewChunk(index, chunk.hash, chunk.start, chunk.end, item))
    if in_graph:
        plan.relations = [(title, kind, target) for kind, target in document.links]
        plan.aliases = [(title, alias) for alias in document.aliases]
    return plan


def _strength(value: Any, enrich: bool) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 2:
        return float(value)
    return None if enrich else 1.0


def _own_note(document: Document, memories: dict[str, Memory]) -> Memory | None:
    if document.kind != "note" or not document.chunks or document.note is None:
        return None
    return memories.get(str(document.note.get("id")))


def _checked(
    item: dict[str, Any],
    settings: Settings,
    path: str,
    line: int,
    problems: list[IngestProblem],
    now: datetime,
) -> bool:
    """Whether `save` will take the item; if not, the chunk is reported and left out."""
    try:
        saving.draft_from(item, settings, now=now)
    except InvalidInputError as exc:
        problems.append(IngestProblem(path, "bad_chunk", f"line {line}: {exc.message}"))
        return False
    return True


def transcript_plan(
    engine: Engine,
    tenant: str,
    record: SourceRecord,
    transcript: transcripts.Transcript,
    previous: SourceRecord | None,
    memories: dict[str, Memory],
    reasons: list[str],
    fallback_time: Any,
) -> FilePlan:
    """New user turns through the activation layer; turns seen before are not read again."""
    plan = FilePlan(record=record)
    path = record.path
    turns = transcript.turns
    wanted = [
        (
            t.hash,
            t.line,
            t.line,
            citation_meta(path, t.line, t.line, transcript.title, "line", transcript.kind),
        )
        for t in turns
    ]
    old = previous.chunks if previous is not None else []
    for index in match(plan, old, memories, wanted):
        turn = turns[index]
        reason = turn.skip
        if reason is None:
            reason = transcripts.decide(
                engine, tenant, turn, transcripts.context_before(turns, index)
            )
        if reason is not None:
            plan.slots[index] = SourceChunk(turn.hash, None, turn.line, turn.line)
            reasons.append(reason)
            continue
        meta = dict(wanted[index][3])
        meta["role"] = "user"
        if turn.session:
            meta["session_id"] = turn.session
        item = {
            "content": turn.text,
            "source": path[: saving.MAX_SOURCE_CHARS],
            "meta": meta,
            "observed_at": turn.timestamp or fallback_time,
            "skip_duplicate": True,
        }
        plan.new.append(NewChunk(index, turn.hash, turn.line, turn.line, item))
    return plan


def deleted_plan(previous: SourceRecord, memories: dict[str, Memory]) -> FilePlan:
    """A file that is gone: its record kept (marked deleted), its memories archived."""
    previous.status = "deleted"
    plan = FilePlan(record=previous, slots=list(previous.chunks))
    for chunk in previous.chunks:
        retire(plan, memories.get(chunk.memory_id or ""))
    return plan
