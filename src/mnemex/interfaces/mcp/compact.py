"""Compact views of records for agent contexts: previews instead of full text, pages, no nulls."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from mnemex.models import Entity, Graph, Memory, SaveResult, SearchHit, to_jsonable
from mnemex.text import preview

T = TypeVar("T")
PREVIEW_CHARS = 200


def pruned(value: dict[str, Any]) -> dict[str, Any]:
    """The dict without None, empty lists and empty dicts (agents pay for every token)."""
    return {k: v for k, v in value.items() if v is not None and v not in ([], {})}


def dumps(value: Any) -> str:
    """Compact JSON text for a tool result."""
    return json.dumps(to_jsonable(value), ensure_ascii=False, separators=(",", ":"))


def day(moment: datetime | None) -> str | None:
    """A date as YYYY-MM-DD (enough for an agent to place a memory in time)."""
    return None if moment is None else moment.date().isoformat()


def memory_brief(memory: Memory, chars: int = PREVIEW_CHARS) -> dict[str, Any]:
    """A memory as an agent first sees it: id, preview, date, tags, score."""
    return pruned(
        {
            "id": memory.id,
            "preview": preview(memory.content, chars),
            "when": day(memory.observed_at or memory.created_at),
            "tags": memory.tags,
            "score": round(memory.score, 3),
            "status": None if memory.status == "active" else memory.status,
            "repeats": memory.repeat_count or None,  # said again this many times (folded)
        }
    )


def memory_full(memory: Memory) -> dict[str, Any]:
    """A memory opened in full: all of its text and the fields worth reading."""
    return pruned(
        {
            "id": memory.id,
            "content": memory.content,
            "tags": memory.tags,
            "entities": memory.entities,
            "source": memory.source,
            "meta": memory.meta,
            "status": memory.status,
            "created_at": memory.created_at.isoformat(timespec="seconds"),
            "observed_at": None
            if memory.observed_at is None
            else memory.observed_at.isoformat(timespec="seconds"),
            "last_used": memory.last_used.isoformat(timespec="seconds"),
            "use_count": memory.use_count,
            "strength": memory.strength,
            "score": round(memory.score, 3),
            "superseded_by": memory.superseded_by,
            "kind": memory.kind,
            "pinned": memory.pinned or None,
            "repeats": memory.repeat_count or None,
            "duplicate_of": memory.duplicate_of,
        }
    )


def hit_brief(hit: SearchHit) -> dict[str, Any]:
    """A search hit: the memory's brief, the fused relevance score, `"nearest_only": true` for
    a memory search filled a short list with (nothing was close in meaning to the query) and,
    for a memory from an ingested file, where it came from ("cite": "path:start-end", and its
    heading)."""
    brief = {**memory_brief(hit.memory), "relevance": round(hit.score, 3)}
    if "fill" in hit.channels:
        brief["nearest_only"] = True
    if hit.citation is not None:
        brief["cite"] = hit.citation.ref
        if hit.citation.heading:
            brief["heading"] = hit.citation.heading
    return brief


def save_brief(result: SaveResult) -> dict[str, Any]:
    """What a save did, without echoing the content back."""
    return pruned(
        {
            "id": result.id,
            "action": result.action,
            "duplicate_of": result.duplicate_of,
            "superseded": result.superseded,
            "tags": result.memory.tags,
            "entities": result.memory.entities,
            "facts": [fact_brief(fact) for fact in result.facts],
        }
    )


def fact_brief(fact: Any) -> dict[str, Any]:
    """A ledger fact: key, value and validity window."""
    return pruned(
        {
            "id": fact.id,
            "subject": fact.subject,
            "relation": fact.relation,
            "value": fact.object,
            "valid_from": fact.valid_from.isoformat(timespec="seconds"),
            "valid_to": None if fact.valid_to is None else fact.valid_to.isoformat(),
            "status": None if fact.status == "active" else fact.status,
            "memory_id": fact.memory_id,
        }
    )


def review_brief(review: Any) -> dict[str, Any]:
    """A review waiting for a decision."""
    return pruned(
        {
            "id": review.id,
            "kind": review.kind,
            "confidence": round(review.confidence, 3),
            "status": review.status,
            "payload": review.payload,
            "resolution": review.resolution,
        }
    )


def entity_brief(entity: Entity) -> dict[str, Any]:
    """An entity's name, category and aliases."""
    return pruned(
        {
            "id": entity.id,
            "name": entity.name,
            "category": entity.category,
            "aliases": entity.aliases,
        }
    )


def graph_brief(graph: Graph) -> dict[str, Any]:
    """Nodes with labels and edges as (from, type, to) triples."""
    return {
        "nodes": [pruned({"id": n.id, "kind": n.kind, "label": n.label}) for n in graph.nodes],
        "edges": [
            pruned(
                {
                    "from": e.from_id,
                    "type": e.type,
                    "to": e.to_id,
                    "source_memory": e.source_memory,
                    "expired": e.expired_at is not None or None,
                }
            )
            for e in graph.edges
        ],
    }


def page(items: Sequence[T], offset: int, limit: int, render: Callable[[T], Any]) -> dict[str, Any]:
    """One page of `items` (fetched with one extra to know whether more follow)."""
    shown = items[offset : offset + limit]
    more = len(items) > offset + limit
    result: dict[str, Any] = {"items": [render(item) for item in shown]}
    if more:
        result["next_offset"] = offset + limit
    return result


def finding_brief(finding: Any) -> dict[str, Any]:
    """One upkeep finding: kind, names, the fix, and its id once made."""
    return pruned(
        {
            "kind": finding.kind,
            "names": finding.names,
            "fix": finding.fix,
            "fix_id": finding.fix_id,
            "fixed": finding.fixed or None,
        }
    )
