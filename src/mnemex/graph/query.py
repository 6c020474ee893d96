"""Entity graph queries: a neighbourhood filtered by category and relation type, as it stood at
a date, and the shortest path between two entities.

Traversal follows entity-to-entity relations in both directions, a hop at a time, two indexed
reads per hop (edges, then the entities they reach). `as_of` replays the graph at a moment: an
entity or edge created later is absent; one expired by then is shown expired (`expired_at`
kept); one expired later is shown live, as it was.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime

from mnemex.graph import facts
from mnemex.models import Entity, Graph, GraphNode, Relation
from mnemex.store.base import Tx

MAX_NODES = 300
MAX_PATH = 6


@dataclasses.dataclass(frozen=True, slots=True)
class GraphFilter:
    """Which neighbours and edges a query keeps."""

    categories: frozenset[str] = frozenset()
    relation_types: frozenset[str] = frozenset()
    as_of: datetime | None = None
    include_expired: bool = False


def _at(relation: Relation, flt: GraphFilter) -> Relation | None:
    """The edge as it stood at `flt.as_of` (None: absent then), or as it is."""
    if flt.as_of is None:
        if relation.expired_at is not None and not flt.include_expired:
            return None
        return relation
    if relation.created_at > flt.as_of:
        return None
    if relation.expired_at is not None and relation.expired_at > flt.as_of:
        return dataclasses.replace(relation, expired_at=None)
    return relation


def _entity_at(entity: Entity, flt: GraphFilter) -> Entity | None:
    if flt.as_of is None:
        return entity if entity.expired_at is None or flt.include_expired else None
    if entity.created_at > flt.as_of:
        return None
    if entity.expired_at is not None and entity.expired_at > flt.as_of:
        return dataclasses.replace(entity, expired_at=None)
    return entity


def _node(entity: Entity) -> GraphNode:
    return GraphNode(
        entity.id,
        "entity",
        entity.name,
        entity.category,
        created_at=entity.created_at,
        expired_at=entity.expired_at,
    )


def _edges(tx: Tx, ids: Sequence[str], flt: GraphFilter) -> list[Relation]:
    past = flt.as_of is not None or flt.include_expired
    found = []
    for relation in [
        *tx.graph_edges(ids, include_expired=past),
        *facts.edges(tx, ids, include_expired=past),
    ]:
        if flt.relation_types and relation.type not in flt.relation_types:
            continue
        seen = _at(relation, flt)
        if seen is not None:
            found.append(seen)
    return found


def neighbours(
    tx: Tx, root: Entity, depth: int, flt: GraphFilter, max_nodes: int = MAX_NODES
) -> Graph:
    """Entities within `depth` hops of `root` and the edges between them (each edge carries
    its source memory), kept by the filter; the root is always in."""
    start = _entity_at(root, flt)
    if start is None:
        return Graph(nodes=[], edges=[])
    entities: dict[str, Entity] = {root.id: start}
    edges: dict[str, Relation] = {}
    frontier = [root.id]
    for _ in range(depth):
        reached: dict[str, list[Relation]] = {}
        for relation in _edges(tx, frontier, flt):
            for end in (relation.from_id, relation.to_id):
                if end not in entities:
                    reached.setdefault(end, []).append(relation)
            if relation.from_id in entities and relation.to_id in entities:
                edges[relation.id] = relation
        room = max(max_nodes - len(entities), 0)
        fresh = tx.get_entities(sorted(reached)[: room * 2])
        frontier = []
        for entity_id in sorted(fresh):
            entity = _entity_at(fresh[entity_id], flt)
            if entity is None or (flt.categories and entity.category not in flt.categories):
                continue
            if len(entities) >= max_nodes:
                break
            entities[entity_id] = entity
            frontier.append(entity_id)
            for relation in reached[entity_id]:
                edges[relation.id] = relation
        if not frontier:
            break
    kept = [e for e in edges.values() if e.from_id in entities and e.to_id in entities]
    kept.sort(key=lambda r: (r.created_at, r.id))
    return Graph(nodes=[_node(e) for e in entities.values()], edges=kept)


def shortest_path(
    tx: Tx, a: Entity, b: Entity, flt: GraphFilter, max_hops: int = MAX_PATH
) -> Graph:
    """The fewest-hop chain of edges from `a` to `b` (either direction), or an empty graph.

    Breadth-first from both ends at once, so a path of n hops reads about 2 * n/2 hops."""
    if a.id == b.id:
        return Graph(nodes=[_node(a)], edges=[])
    parents: list[dict[str, tuple[str, Relation] | None]] = [{a.id: None}, {b.id: None}]
    frontiers = [[a.id], [b.id]]
    meet: str | None = None
    for hop in range(max_hops):
        side = 0 if len(frontiers[0]) <= len(frontiers[1]) else 1
        nxt: list[str] = []
        for relation in _edges(tx, frontiers[side], flt):
            for here, there in (
                (relation.from_id, relation.to_id),
                (relation.to_id, relation.from_id),
            ):
                if here in parents[side] and there not in parents[side]:
                    parents[side][there] = (here, relation)
                    nxt.append(there)
                    if there in parents[1 - side]:
                        meet = there
        frontiers[side] = sorted(set(nxt))
        if meet is not None or not frontiers[side] or hop + 1 >= max_hops:
            break
    if meet is None:
        return Graph(nodes=[], edges=[])
    chain: list[Relation] = []
    order = [meet]
    for side in (0, 1):
        node = meet
        steps = []
        while parents[side][node] is not None:
            parent, relation = parents[side][node]  # type: ignore[misc]
            steps.append(relation)
            node = parent
            if side == 0:
                order.insert(0, node)
            else:
                order.append(node)
        chain = list(reversed(steps)) + chain if side == 0 else chain + steps
    found = tx.get_entities(order)
    return Graph(nodes=[_node(found[i]) for i in order if i in found], edges=chain)
