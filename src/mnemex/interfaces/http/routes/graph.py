"""/v1/graph and /v1/entities: the entity graph, entities and direct entity upkeep."""

from __future__ import annotations

from typing import Any

from mnemex.interfaces.http.endpoint import Call, Endpoint
from mnemex.interfaces.http.schemas import EntitiesIn, EntityList, GraphQuery, MaintFixIn, PathQuery


def graph(call: Call) -> Any:
    """GET /v1/graph."""
    query: GraphQuery = call.query
    return call.store.graph(
        query.entity,
        depth=query.depth,
        limit=query.limit,
        categories=query.category,
        relation_types=query.relation,
        as_of=query.as_of,
        memories=query.memories,
    )


def path(call: Call) -> Any:
    """GET /v1/graph/path."""
    query: PathQuery = call.query
    return call.store.path(
        query.from_entity, query.to_entity, relation_types=query.relation, as_of=query.as_of
    )


def entity(call: Call) -> Any:
    """GET /v1/entities/{name}: one entity by name or alias."""
    return call.store.entity(call.path["name"])


def list_entities(call: Call) -> Any:
    """GET /v1/entities."""
    query: EntityList = call.query
    found = call.store.entities(limit=query.limit, offset=query.offset)
    more = len(found) == query.limit
    return {"items": found, "next_offset": query.offset + query.limit if more else None}


def upsert(call: Call) -> Any:
    """POST /v1/entities: up to 100 entities and their relationships, as given."""
    body: EntitiesIn = call.body
    return call.store.upsert_entities(
        [item.model_dump(exclude_none=True) for item in body.entities],
        [item.model_dump(exclude_none=True) for item in body.relationships],
    )


def maint_scan(call: Call) -> Any:
    """GET /v1/maint/scan."""
    return call.store.maint_scan()


def maint_fix(call: Call) -> Any:
    """POST /v1/maint/fix."""
    body: MaintFixIn = call.body
    return call.store.maint_fix(dry_run=body.dry_run, kinds=body.kinds)


def maint_undo(call: Call) -> Any:
    """POST /v1/maint/undo/{fix_id}."""
    return call.store.maint_undo(call.path["fix_id"])


ENDPOINTS = [
    Endpoint("GET", "/v1/maint/scan", maint_scan, "What is wrong with the graph", "graph"),
    Endpoint(
        "POST",
        "/v1/maint/fix",
        maint_fix,
        "Fix the graph (dry run by default)",
        "graph",
        body=MaintFixIn,
    ),
    Endpoint("POST", "/v1/maint/undo/{fix_id}", maint_undo, "Reverse one fix", "graph"),
    Endpoint("GET", "/v1/graph", graph, "An entity's neighbourhood", "graph", query=GraphQuery),
    Endpoint(
        "GET",
        "/v1/graph/path",
        path,
        "The shortest path between two entities",
        "graph",
        query=PathQuery,
    ),
    Endpoint("GET", "/v1/entities", list_entities, "List entities", "graph", query=EntityList),
    Endpoint("GET", "/v1/entities/{name}", entity, "Read one entity", "graph"),
    Endpoint(
        "POST",
        "/v1/entities",
        upsert,
        "Create or update up to 100 entities and relationships (no analysis)",
        "graph",
        body=EntitiesIn,
    ),
]
