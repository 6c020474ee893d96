"""The ledger's facts whose value is an entity, as edges of the entity graph.

"My manager is now Raj Patel" keeps `user / manager = Raj Patel` in the ledger, its value linked
to the entity Raj Patel. The graph shows it as the edge user -manager-> Raj Patel, built when read
from the fact (never stored twice): its validity is the fact's (a superseded value is an edge
that expired when the next value began), its source the memory that stated it, and its
strength the ledger's confidence. Values that are not entities ("vegetarian") stay facts.
"""

from __future__ import annotations

from collections.abc import Sequence

from mnemex.analysis.relations import relation_name
from mnemex.models import Fact, FactStatus, Relation
from mnemex.store.base import Tx
from mnemex.text import value_key

SHOWN = (FactStatus.ACTIVE, FactStatus.SUPERSEDED)
SOURCE = "ledger"


def edge(fact: Fact) -> Relation:
    """The edge a fact between two entities draws (its id is the fact's)."""
    assert fact.object_id is not None
    return Relation(
        id=fact.id,
        from_kind="entity",
        from_id=fact.subject_id,
        to_kind="entity",
        to_id=fact.object_id,
        type=relation_name(fact.relation),
        strength=fact.confidence,
        source_memory=fact.memory_id,
        created_at=fact.valid_from,
        valid_from=fact.valid_from,
        valid_to=fact.valid_to,
        expired_at=fact.valid_to,
        meta={"source": SOURCE, "value": fact.object},
        tenant=fact.tenant,
    )


def edges(
    tx: Tx, entity_ids: Sequence[str], *, include_expired: bool, values: bool = True
) -> list[Relation]:
    """The fact edges from any of these entities and, with `values`, to any of them (a view
    that holds both ends needs only the first): the ones in force, and with `include_expired`
    the ones that ended too (a past view needs them)."""
    ids = list(dict.fromkeys(entity_ids))
    if not ids:
        return []
    names: list[str] = []
    if values:  # a fact's value is read by its key: the entity's names, folded
        for entity in tx.get_entities(ids).values():
            names += [value_key(name) for name in (entity.name, *entity.aliases)]
    statuses = SHOWN if include_expired else (FactStatus.ACTIVE,)
    wanted = set(ids)
    return [
        edge(fact)
        for fact in tx.entity_facts(ids, names, statuses)
        if fact.object_id != fact.subject_id
        and (fact.subject_id in wanted or fact.object_id in wanted)
        and (include_expired or fact.valid_to is None)
    ]
