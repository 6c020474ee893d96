"""Direct entity upkeep: a batch of entities and relations written as given, with no analysis.

Names are matched case- and accent-insensitively (and through aliases), so "alice" updates
"Alice"; tags and aliases are merged, details are merged key by key, category and summary are
replaced when given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from mnemex import limits
from mnemex.analysis.relations import relation_name
from mnemex.clock import to_micros
from mnemex.config import Settings
from mnemex.errors import InvalidInputError
from mnemex.models import Entity, Relation, new_id
from mnemex.store.base import Tx

MAX_ENTITIES = 100
MAX_RELATIONSHIPS = 500
_ENTITY_FIELDS = frozenset({"name", "category", "aliases", "tags", "summary", "details"})
_RELATION_FIELDS = frozenset({"from_entity", "to_entity", "relation_type", "strength"})


@dataclass(slots=True)
class EntityUpsert:
    """What a batch upsert wrote: the entities as they now are and the relations it touched."""

    entities: list[Entity] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)


def _items(value: object, name: str, limit: int) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, Sequence) or isinstance(value, str | bytes):
        raise InvalidInputError(name, "must be a list of objects")
    if len(value) > limit:
        raise InvalidInputError(name, f"{len(value)} items, over the limit", limit=limit)
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise InvalidInputError(f"{name}[{index}]", "must be an object")
    return list(value)


def check_entity(item: dict[str, Any], prefix: str, settings: Settings) -> dict[str, Any]:
    """One entity of a batch, checked: unknown fields and broken limits name their field."""
    unknown = set(item) - _ENTITY_FIELDS
    if unknown:
        raise InvalidInputError(f"{prefix}{sorted(unknown)[0]}", "unknown field")
    return {
        "name": limits.check_text(item.get("name"), f"{prefix}name", settings.max_entity_chars),
        "category": limits.check_optional_text(item.get("category"), f"{prefix}category", 100),
        "aliases": limits.check_entities(item.get("aliases"), settings, f"{prefix}aliases"),
        "tags": limits.check_tags(item.get("tags"), settings, f"{prefix}tags"),
        "summary": limits.check_optional_text(item.get("summary"), f"{prefix}summary", 2_000),
        "details": limits.check_meta(item.get("details"), settings, f"{prefix}details"),
    }


def check_relation(item: dict[str, Any], prefix: str, settings: Settings) -> dict[str, Any]:
    """One relationship of a batch, checked."""
    unknown = set(item) - _RELATION_FIELDS
    if unknown:
        raise InvalidInputError(f"{prefix}{sorted(unknown)[0]}", "unknown field")
    strength = item.get("strength")
    return {
        "from_entity": limits.check_text(
            item.get("from_entity"), f"{prefix}from_entity", settings.max_entity_chars
        ),
        "to_entity": limits.check_text(
            item.get("to_entity"), f"{prefix}to_entity", settings.max_entity_chars
        ),
        "relation_type": relation_name(
            limits.check_text(item.get("relation_type"), f"{prefix}relation_type", 100)
        ),
        "strength": 1.0
        if strength is None
        else limits.check_strength(strength, f"{prefix}strength"),
    }


def check_batch(
    entities: object, relationships: object, settings: Settings
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The checked batch; nothing is written when any item is invalid."""
    checked = [
        check_entity(item, f"entities[{i}].", settings)
        for i, item in enumerate(_items(entities, "entities", MAX_ENTITIES))
    ]
    relations = [
        check_relation(item, f"relationships[{i}].", settings)
        for i, item in enumerate(_items(relationships, "relationships", MAX_RELATIONSHIPS))
    ]
    if not checked and not relations:
        raise InvalidInputError("entities", "give at least one entity or relationship")
    return checked, relations


def _merge(tx: Tx, entity_id: str, item: dict[str, Any]) -> None:
    current = tx.get_entities([entity_id])[entity_id]
    changes: dict[str, Any] = {}
    marks: dict[str, Any] = {}
    if item["category"] is not None:
        changes["category"] = item["category"]
        marks["category_set_by"] = "user"  # enrichment never overrides a person's category
    if item["summary"] is not None:
        changes["summary"] = item["summary"]
        marks["summary_set_by"] = "user"
    tags = list(dict.fromkeys([*current.tags, *item["tags"]]))
    if tags != current.tags:
        changes["tags"] = tags
    if item["details"] or marks:
        changes["details"] = {**current.details, **item["details"], **marks}
    if changes:
        tx.update_entity(entity_id, changes)
    for alias in item["aliases"]:
        tx.add_alias(entity_id, alias)


def apply(
    tx: Tx,
    entities: list[dict[str, Any]],
    relations: list[dict[str, Any]],
    now: datetime,
    tenant: str,
) -> EntityUpsert:
    """Write a checked batch in the caller's transaction."""
    now_us = to_micros(now)
    report = EntityUpsert()
    touched: list[str] = []
    for item in entities:
        entity_id, created = tx.upsert_entity(item["name"], category=item["category"], now=now_us)
        _merge(tx, entity_id, item)
        if created:
            report.created.append(entity_id)
        if entity_id not in touched:
            touched.append(entity_id)
    for item in relations:
        a = tx.upsert_entity(item["from_entity"], now=now_us)
        b = tx.upsert_entity(item["to_entity"], now=now_us)
        report.created.extend(entity_id for entity_id, created in (a, b) if created)
        relation = Relation(
            id=new_id("rel"),
            from_kind="entity",
            from_id=a[0],
            to_kind="entity",
            to_id=b[0],
            type=item["relation_type"],
            strength=item["strength"],
            source_memory=None,
            created_at=now,
            tenant=tenant,
        )
        relation.id = tx.insert_relation(relation)
        report.relations.append(relation)
    found = tx.get_entities(touched)
    report.entities = [found[entity_id] for entity_id in touched if entity_id in found]
    return report


def relate(
    tx: Tx,
    tenant: str,
    from_entity: str,
    to_entity: str,
    kind: str,
    strength: float,
    source_memory: str | None,
    now: datetime,
) -> Relation:
    """Create (or strengthen) a typed edge between two entities, creating them if new."""
    now_us = to_micros(now)
    relation = Relation(
        id=new_id("rel"),
        from_kind="entity",
        from_id=tx.upsert_entity(from_entity, now=now_us)[0],
        to_kind="entity",
        to_id=tx.upsert_entity(to_entity, now=now_us)[0],
        type=relation_name(kind),
        strength=strength,
        source_memory=source_memory,
        created_at=now,
        tenant=tenant,
    )
    relation.id = tx.insert_relation(relation)
    tx.log_event("relate", now_us, relation.id, {"type": relation.type})
    return relation
