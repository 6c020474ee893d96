"""An entity's summary (one line, at most 200 characters) and details (Markdown), rebuilt from
what the store holds about it: its category, the attributes statements gave it, its current
facts, its relations and the memories behind them. Deterministic (sorted, no model), refreshed
whenever a save changes one of these; a summary a person wrote is kept."""

from __future__ import annotations

from typing import Any

from mnemex.models import Entity, Fact, Relation
from mnemex.store.base import Tx
from mnemex.text import preview

SUMMARY_CHARS = 200
MAX_ATTRIBUTES = 12
MAX_LINES = 20  # facts and relations listed in the details
MAX_MEMORIES = 5


def _clip(text: str, limit: int = SUMMARY_CHARS) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;.")
    return cut + "…"


def _relation_lines(entity: Entity, relations: list[Relation], names: dict[str, str]) -> list[str]:
    lines = []
    for r in relations:
        if r.from_id == entity.id:
            lines.append(f"{r.type.replace('_', ' ')} {names.get(r.to_id, r.to_id)}")
        else:
            lines.append(f"{names.get(r.from_id, r.from_id)} {r.type.replace('_', ' ')} it")
    return sorted(dict.fromkeys(lines))


def summary(
    entity: Entity, facts: list[Fact], relations: list[Relation], names: dict[str, str]
) -> str:
    """One line: the attributes, then current facts, then outgoing relations."""
    parts = [str(a) for a in entity.details.get("attributes", [])]
    parts += [f"{f.relation.replace('_', ' ')}: {f.object}" for f in facts]
    parts += [
        line for line in _relation_lines(entity, relations, names) if not line.endswith(" it")
    ]
    head = entity.category.capitalize() if entity.category else "Entity"
    return _clip(f"{head}. " + "; ".join(parts) if parts else head)


def details(
    entity: Entity,
    facts: list[Fact],
    relations: list[Relation],
    names: dict[str, str],
    memories: list[tuple[str, str]],
) -> str:
    """Markdown of what is known, in a fixed order."""
    lines = [f"# {entity.name}", "", f"Category: {entity.category or 'unknown'}"]
    if entity.aliases:
        lines.append(f"Also: {', '.join(sorted(entity.aliases, key=str.casefold))}")
    attributes = entity.details.get("attributes", [])
    if attributes:
        lines += ["", "## About", *(f"- {a}" for a in attributes)]
    if facts:
        lines += ["", "## Facts"]
        for f in facts[:MAX_LINES]:
            since = f.valid_from.date().isoformat()
            lines.append(f"- {f.relation.replace('_', ' ')}: {f.object} (since {since})")
    rel = _relation_lines(entity, relations, names)[:MAX_LINES]
    if rel:
        lines += ["", "## Relations", *(f"- {line}" for line in rel)]
    if memories:
        lines += ["", "## Memories", *(f"- {text} ({mid})" for mid, text in memories)]
    return "\n".join(lines) + "\n"


def refresh(tx: Tx, entity_id: str) -> None:
    """Rebuild one entity's summary and details from the store."""
    entity = tx.get_entities([entity_id]).get(entity_id)
    if entity is None:
        return
    facts = sorted(
        tx.facts_for_key(entity_id, None, ("active",)), key=lambda f: (f.relation, f.object)
    )
    relations = sorted(tx.graph_edges([entity_id]), key=lambda r: (r.type, r.from_id, r.to_id))
    ends = {r.to_id for r in relations} | {r.from_id for r in relations}
    names = {e.id: e.name for e in tx.get_entities(sorted(ends - {entity_id})).values()}
    sources = sorted(
        {r.source_memory for r in relations if r.source_memory}
        | {f.memory_id for f in facts if f.memory_id}
    )[:MAX_MEMORIES]
    found = tx.get_memories(sources)
    memories = [(m, preview(found[m].content, 80)) for m in sources if m in found]
    changes: dict[str, Any] = {
        "details": {
            **entity.details,
            "markdown": details(entity, facts, relations, names, memories),
        }
    }
    if entity.details.get("summary_set_by") != "user":
        changes["summary"] = summary(entity, facts, relations, names)
    tx.update_entity(entity_id, changes)
