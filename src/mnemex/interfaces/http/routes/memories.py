"""/v1/memories: save (one or a batch), list, read, change, forget and restore memories."""

from __future__ import annotations

from typing import Any

from mnemex.interfaces.http.endpoint import Call, Endpoint
from mnemex.interfaces.http.schemas import Forget, MemoryBatch, MemoryIn, MemoryList, MemoryPatch


def save(call: Call) -> Any:
    """POST /v1/memories."""
    return call.store.save(**call.body.model_dump())


def save_batch(call: Call) -> Any:
    """POST /v1/memories/batch."""
    items = [item.model_dump() for item in call.body.items]
    return {"results": call.store.save_many(items)}


def list_memories(call: Call) -> Any:
    """GET /v1/memories."""
    query: MemoryList = call.query
    found = call.store.memories(
        limit=query.limit,
        offset=query.offset,
        status=query.status,
        tags=query.tags,
        entity=query.entity,
        source=query.source,
        min_strength=query.min_strength,
        max_strength=query.max_strength,
        order=query.order,
    )
    more = len(found) == query.limit
    return {"items": found, "next_offset": query.offset + query.limit if more else None}


def get(call: Call) -> Any:
    """GET /v1/memories/{id}."""
    return call.store.get(call.path["id"])


def update(call: Call) -> Any:
    """PATCH /v1/memories/{id}: only the fields sent change."""
    return call.store.update(call.path["id"], **call.body.model_dump(exclude_unset=True))


def forget(call: Call) -> Any:
    """DELETE /v1/memories/{id}: soft by default, ?hard=true for good."""
    hard = call.query.hard
    call.store.forget(call.path["id"], hard=hard)
    return {"id": call.path["id"], "status": "purged" if hard else "deleted"}


def restore(call: Call) -> Any:
    """POST /v1/restore/{id}."""
    return call.store.restore(call.path["id"])


ENDPOINTS = [
    Endpoint("POST", "/v1/memories", save, "Save a memory", "memories", body=MemoryIn, status=201),
    Endpoint(
        "POST",
        "/v1/memories/batch",
        save_batch,
        "Save up to 1,000 memories in one transaction",
        "memories",
        body=MemoryBatch,
        status=201,
    ),
    Endpoint("GET", "/v1/memories", list_memories, "List memories", "memories", query=MemoryList),
    Endpoint("GET", "/v1/memories/{id}", get, "Read one memory", "memories"),
    Endpoint("PATCH", "/v1/memories/{id}", update, "Change a memory", "memories", body=MemoryPatch),
    Endpoint("DELETE", "/v1/memories/{id}", forget, "Forget a memory", "memories", query=Forget),
    Endpoint("POST", "/v1/restore/{id}", restore, "Restore a forgotten memory", "memories"),
]
