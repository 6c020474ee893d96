"""Breadth-first neighbourhood of an entity: mentions (memory -> entity) and typed relations."""

from __future__ import annotations

from collections.abc import Iterable

from mnemex.graph import facts
from mnemex.models import LIVE_STATUSES, Entity, Graph, GraphNode, Relation
from mnemex.store.base import Tx
from mnemex.text import preview

MAX_NODES = 300


def _mention(memory_id: str, entity: Entity) -> Relation:
    return Relation(
        id=f"{memory_id}>{entity.id}",
        from_kind="memory",
        from_id=memory_id,
        to_kind="entity",
        to_id=entity.id,
        type="mentions",
        strength=1.0,
        source_memory=memory_id,
        created_at=entity.created_at,
        tenant=entity.tenant,
    )


def _add_nodes(tx: Tx, nodes: dict[str, GraphNode], ids: Iterable[str]) -> None:
    missing = [i for i in ids if i not in nodes]
    for entity in tx.get_entities([i for i in missing if i.startswith("ent_")]).values():
        nodes[entity.id] = GraphNode(entity.id, "entity", entity.name, entity.category)
    for memory in tx.get_memories([i for i in missing if i.startswith("mem_")]).values():
        if memory.status in LIVE_STATUSES:
            nodes[memory.id] = GraphNode(memory.id, "memory", preview(memory.content, 60))


def neighbourhood(tx: Tx, root: Entity, depth: int, max_nodes: int = MAX_NODES) -> Graph:
    """Nodes and edges within `depth` hops of `root`, capped at `max_nodes` nodes."""
    nodes: dict[str, GraphNode] = {root.id: GraphNode(root.id, "entity", root.name, root.category)}
    entities: dict[str, Entity] = {root.id: root}
    edges: dict[str, Relation] = {}
    frontier = [root.id]
    for _ in range(depth):
        reached: set[str] = set()
        entity_ids = [n for n in frontier if n.startswith("ent_")]
        memory_ids = [n for n in frontier if n.startswith("mem_")]
        for entity_id, mentioned_by in tx.entity_memory_ids(entity_ids).items():
            reached.update(mentioned_by)
            for memory_id in mentioned_by:
                edges[f"{memory_id}>{entity_id}"] = _mention(memory_id, entities[entity_id])
        links = tx.memory_entity_ids(memory_ids)
        new_entities = tx.get_entities(
            [e for ids in links.values() for e in ids if e not in entities]
        )
        entities.update(new_entities)
        for memory_id, linked in links.items():
            reached.update(linked)
            for entity_id in linked:
                if entity_id in entities:
                    edges[f"{memory_id}>{entity_id}"] = _mention(memory_id, entities[entity_id])
        shown = facts.edges(tx, entity_ids, include_expired=False)
        for relation in [*tx.relations_of(frontier), *shown]:
            edges[relation.id] = relation
            reached.update({relation.from_id, relation.to_id})
        room = max_nodes - len(nodes)
        fresh = sorted(reached - set(nodes))[: max(room, 0)]
        _add_nodes(tx, nodes, fresh)
        entities.update(
            tx.get_entities([n for n in fresh if n.startswith("ent_") and n not in entities])
        )
        frontier = [n for n in fresh if n in nodes]
        if not frontier:
            break
    kept = [e for e in edges.values() if e.from_id in nodes and e.to_id in nodes]
    return Graph(nodes=list(nodes.values()), edges=kept)


def overview(tx: Tx, limit: int) -> Graph:
    """Every entity (up to `limit`, most mentioned first), expired ones included, with its
    dates and mention count, and the edges between them: the store's graph at any time."""
    entities: list[Entity] = []
    offset = 0
    while True:  # entities are few next to memories; read them all, keep the most mentioned
        page = tx.list_entities(1_000, offset)
        entities += page
        offset += len(page)
        if len(page) < 1_000:
            break
    counts = tx.mention_counts([e.id for e in entities])
    entities.sort(key=lambda e: (-counts.get(e.id, 0), e.name.casefold()))
    nodes = [
        GraphNode(
            e.id,
            "entity",
            e.name,
            e.category,
            created_at=e.created_at,
            expired_at=e.expired_at,
            mentions=counts.get(e.id, 0),
        )
        for e in entities[:limit]
    ]
    kept = {node.id for node in nodes}
    every = [
        *tx.entity_edges(10 * limit),
        *facts.edges(tx, [node.id for node in nodes], include_expired=True, values=False),
    ]
    edges = [r for r in every if r.from_id in kept and r.to_id in kept]
    return Graph(nodes=nodes, edges=edges)
