"""Consolidation: a cluster of similar memories becomes one memory that keeps its provenance."""

from __future__ import annotations

from datetime import datetime

from mnemex import saving
from mnemex.clock import to_micros
from mnemex.engine import Engine
from mnemex.ledger.record import move_facts
from mnemex.limits import content_hash
from mnemex.models import Cluster, ConsolidateResult, Memory, MemoryStatus, Relation, new_id
from mnemex.store.base import Tx


def merge_text(members: list[Memory]) -> str:
    """Each distinct text once, oldest first: nothing said by a member is lost."""
    seen: set[str] = set()
    parts: list[str] = []
    for memory in sorted(members, key=lambda m: (m.created_at, m.id)):
        key = content_hash(memory.content)
        if key not in seen:
            seen.add(key)
            parts.append(memory.content.strip())
    return "\n".join(parts)


def union(lists: list[list[str]]) -> list[str]:
    """Items of several lists, each once (case-insensitively), in first-seen order."""
    seen: set[str] = set()
    result: list[str] = []
    for items in lists:
        for item in items:
            if item.casefold() not in seen:
                seen.add(item.casefold())
                result.append(item)
    return result


def run(engine: Engine, tenant: str, cluster: Cluster, *, dry_run: bool) -> ConsolidateResult:
    """Preview, or (not `dry_run`) merge, a cluster into one memory linked to its sources."""
    settings = engine.settings
    with engine.backend.read(tenant) as tx:
        found = tx.get_memories(cluster.member_ids)
        text = merge_text([found[m] for m in cluster.member_ids if m in found])
        vector = None if dry_run else engine.vectors_for(tx, [text], [content_hash(text)])[0]
    now = engine.clock()
    with engine.backend.write(tenant) as tx:
        found = tx.get_memories(cluster.member_ids)
        members = [found[m] for m in cluster.member_ids if m in found]
        result = ConsolidateResult(
            cluster_id=cluster.id,
            dry_run=dry_run,
            content=merge_text(members),
            tags=union([m.tags for m in members])[: settings.max_tags],
            entities=union([m.entities for m in members])[: settings.max_entities],
            source_ids=[m.id for m in members],
        )
        if not dry_run:
            result.memory_id = _merge(engine, tenant, tx, members, result, now, vector)
    return result


def _merge(
    engine: Engine,
    tenant: str,
    tx: Tx,
    members: list[Memory],
    result: ConsolidateResult,
    now: datetime,
    vector: bytes | None,
) -> str:
    """Write the merged memory, link it to each source and archive the sources."""
    now_us = to_micros(now)
    observed = [m.observed_at for m in members if m.observed_at is not None]
    draft = saving.draft_from(
        {
            "content": result.content,
            "tags": result.tags,
            "entities": result.entities,
            "strength": max(m.strength for m in members),
            "source": "consolidation",
            "meta": {"consolidated_from": result.source_ids},
            "observed_at": min(observed) if observed else None,
        },
        engine.settings,
        now=now,
    )
    merged = saving.new_memory(
        tenant,
        draft,
        now,
        use_count=sum(m.use_count for m in members),
        review_count=sum(m.review_count for m in members),
        last_used=max(m.last_used for m in members),
    )
    tx.insert_memory(merged)
    saving.store_vector(engine, tx, merged.id, merged.content_hash, vector)
    saving.link_entities(tx, merged.id, merged.entities, now_us)
    for member in members:
        tx.insert_relation(
            Relation(
                id=new_id("rel"),
                from_kind="memory",
                from_id=merged.id,
                to_kind="memory",
                to_id=member.id,
                type="consolidated_from",
                strength=1.0,
                source_memory=merged.id,
                created_at=now,
                tenant=tenant,
            )
        )
        archived = {**member.meta, "consolidated_into": merged.id}
        tx.update_memory(
            member.id,
            {"status": MemoryStatus.ARCHIVED.value, "meta": archived, "updated_at": now},
        )
    move_facts(tx, result.source_ids, merged.id)  # the merged memory states what they stated
    tx.log_event("consolidate", now_us, merged.id, {"from": result.source_ids})
    return merged.id
