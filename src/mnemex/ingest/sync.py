"""Keeping a file's memories in step with the file, by content hash.

A chunk's identity is the hash of its text (heading path included). Re-reading a changed file
keeps every memory whose chunk is still there (its use count, strength and history untouched;
only its citation moves with its lines), saves the new chunks and archives the memories of
chunks that are gone, taking their facts out of the ledger (`withdraw.forget`, undone if the
chunk comes back). A deleted file's memories are archived the same way. Memories ingest did not
create (a note Mnemex promoted, read back into its own store) are never archived by it.
Each batch is one write transaction: the new memories, the changes and the sync state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from mnemex import limits, saving
from mnemex.clock import to_micros
from mnemex.engine import Engine
from mnemex.graph import upsert
from mnemex.ledger import withdraw
from mnemex.models import LIVE_STATUSES, Memory, MemoryStatus, SaveResult
from mnemex.store.base import SourceChunk, SourceRecord, Tx


@dataclass(slots=True)
class NewChunk:
    """A chunk to save: its slot in the file's record and the `save` fields."""

    slot: int
    hash: str
    start: int
    end: int
    item: dict[str, Any]


@dataclass(slots=True)
class FilePlan:
    """What one file needs written: new memories, moved citations, archives, its record."""

    record: SourceRecord  # the record to write; its chunk slots are filled by the saves
    slots: list[SourceChunk | None] = field(default_factory=list)
    new: list[NewChunk] = field(default_factory=list)
    updates: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    rewrites: list[tuple[str, str]] = field(default_factory=list)  # (memory id, new text)
    archive: list[str] = field(default_factory=list)
    restore: list[str] = field(default_factory=list)
    relations: list[tuple[str, str, str]] = field(default_factory=list)  # (from, type, to)
    aliases: list[tuple[str, str]] = field(default_factory=list)  # (entity, alias)
    kept: int = 0


def citation_meta(
    path: str, start: int, end: int, heading: str | None, unit: str, kind: str
) -> dict[str, Any]:
    """The `meta["ingest"]` of a memory made from a file (models.Citation reads it)."""
    source: dict[str, Any] = {"path": path, "lines": [start, end], "kind": kind}
    if heading:
        source["heading"] = heading
    if unit != "line":
        source["unit"] = unit
    return {"ingest": source}


def _moved(memory: Memory, meta: dict[str, Any]) -> dict[str, Any] | None:
    """The memory's meta with its new citation, or None when the citation did not move."""
    current = memory.meta.get("ingest") if isinstance(memory.meta, dict) else None
    wanted = meta["ingest"]
    if (
        isinstance(current, dict)
        and {k: v for k, v in current.items() if k != "archived"} == wanted
    ):
        return None
    return {**memory.meta, "ingest": wanted}


def match(
    plan: FilePlan,
    old: Sequence[SourceChunk],
    memories: dict[str, Memory],
    wanted: Sequence[tuple[str, int, int, dict[str, Any]]],
) -> list[int]:
    """Fill the plan's slots from the previous chunks with the same hashes; returns the indexes
    of `wanted` (hash, start, end, meta) that have none and must be saved (or decided)."""
    pool: dict[str, list[SourceChunk]] = {}
    for chunk in old:
        pool.setdefault(chunk.hash, []).append(chunk)
    missing: list[int] = []
    plan.slots = [None] * len(wanted)
    for index, (digest, start, end, meta) in enumerate(wanted):
        previous = pool.get(digest)
        if not previous:
            missing.append(index)
            continue
        chunk = previous.pop(0)
        plan.slots[index] = SourceChunk(digest, chunk.memory_id, start, end)
        memory = memories.get(chunk.memory_id or "")
        if memory is None:
            continue  # a skipped turn, or a memory purged by hand: it stays as it is
        plan.kept += 1
        moved = _moved(memory, meta)
        if moved is not None:
            plan.updates.append((memory.id, {"meta": moved}))
        if memory.status == MemoryStatus.ARCHIVED.value and _archived_by_ingest(memory):
            plan.restore.append(memory.id)
    for leftovers in pool.values():
        for chunk in leftovers:
            retire(plan, memories.get(chunk.memory_id or ""))
    return missing


def retire(plan: FilePlan, memory: Memory | None) -> None:
    """Archive a memory whose chunk is gone, if ingest made it and it is still live."""
    if memory is not None and memory.status in LIVE_STATUSES and "ingest" in memory.meta:
        plan.archive.append(memory.id)


def _archived_by_ingest(memory: Memory) -> bool:
    source = memory.meta.get("ingest")
    return isinstance(source, dict) and bool(source.get("archived"))


def write(engine: Engine, tenant: str, plans: Sequence[FilePlan]) -> list[SaveResult]:
    """Write a batch of plans in one transaction: saves, changes, archives, sync records."""
    items = [new.item for plan in plans for new in plan.new]
    rewrites = [(m, text) for plan in plans for m, text in plan.rewrites]
    vectors: list[bytes | None] = []
    if rewrites:
        with engine.backend.read(tenant) as tx:
            hashes = [limits.content_hash(text) for _, text in rewrites]
            vectors = engine.vectors_for(tx, [text for _, text in rewrites], hashes)

    def finish(tx: Tx, results: list[SaveResult]) -> None:
        now = engine.clock()
        done = iter(results)
        for plan in plans:
            for new in plan.new:
                result = next(done)
                plan.slots[new.slot] = SourceChunk(new.hash, result.id, new.start, new.end)
            _apply(engine, tx, plan, now)
        for (memory_id, text), vector in zip(rewrites, vectors, strict=True):
            digest = limits.content_hash(text)
            tx.update_memory(
                memory_id, {"content": text, "content_hash": digest, "updated_at": now}
            )
            saving.store_vector(engine, tx, memory_id, digest, vector)

    if items:
        return saving.save_many(engine, tenant, items, after=finish)
    with engine.backend.write(tenant) as tx:
        finish(tx, [])
    return []


def _apply(engine: Engine, tx: Tx, plan: FilePlan, now: datetime) -> None:
    now_us = to_micros(now)
    for memory_id, fields in plan.updates:
        tx.update_memory(memory_id, {**fields, "updated_at": now})
    if plan.archive:
        found = tx.get_memories(plan.archive)
        for memory in found.values():
            source = {**memory.meta["ingest"], "archived": True}
            meta = {**memory.meta, "ingest": source}
            tx.update_memory(memory.id, {"status": "archived", "meta": meta, "updated_at": now})
            withdraw.forget(tx, memory.id, now)
    if plan.restore:
        for memory in tx.get_memories(plan.restore).values():
            source = {k: v for k, v in memory.meta["ingest"].items() if k != "archived"}
            status = MemoryStatus.PROMOTED if memory.vault_path else MemoryStatus.ACTIVE
            meta = {**memory.meta, "ingest": source}
            tx.update_memory(memory.id, {"status": status.value, "meta": meta, "updated_at": now})
            withdraw.restore(tx, memory.id, now)
    source_memory = next((s.memory_id for s in plan.slots if s and s.memory_id), None)
    for start, kind, end in plan.relations:
        upsert.relate(tx, tx.tenant, start, end, kind, 1.0, source_memory, now)
    for name, alias in plan.aliases:
        tx.add_alias(tx.upsert_entity(name, now=now_us)[0], alias)
    record = plan.record
    record.chunks = [slot for slot in plan.slots if slot is not None]
    record.ingested_at = now_us
    tx.put_source(record)
    tx.log_event(
        "ingest",
        now_us,
        None,
        {
            "path": record.path,
            "status": record.status,
            "added": len(plan.new),
            "kept": plan.kept,
            "archived": len(plan.archive),
            "restored": len(plan.restore),
        },
    )


def skipped_counts(reasons: Sequence[str]) -> dict[str, int]:
    """Reasons, counted."""
    return dict(Counter(reasons))
