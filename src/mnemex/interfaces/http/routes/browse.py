"""/v1/events, /v1/settings, /v1/memories/{id}/pin: the audit log, the configuration in use and
pins (what the console's Activity, Settings and Memories views read and write)."""

from __future__ import annotations

import sys
from typing import Any

from mnemex.interfaces.http.endpoint import Call, Endpoint
from mnemex.interfaces.http.schemas import (
    EventsQuery,
    KeysQuery,
    ObserveIn,
    PinIn,
    RelateIn,
    TouchIn,
)
from mnemex.models import to_jsonable
from mnemex.service import MemoryStore

# Model packages the engine loads lazily: loaded in this process, or not yet.
MODEL_MODULES = {"embeddings": "onnxruntime", "ner": "spacy"}


def events(call: Call) -> Any:
    """GET /v1/events."""
    query: EventsQuery = call.query
    return {"events": call.store.events(kind=query.kind, limit=query.limit)}


def models_loaded(store: MemoryStore) -> dict[str, str]:
    """Which models this process has loaded ("loaded", "lazy" or "off")."""
    models = {
        name: "loaded" if module in sys.modules else "lazy"
        for name, module in MODEL_MODULES.items()
    }
    if store.settings.embed_model == "none":
        models["embeddings"] = "off"
    return models


def settings(call: Call) -> Any:
    """GET /v1/settings: every setting in force, which models are loaded, the store."""
    store = call.store
    return {
        "tenant": store.tenant,
        "settings": to_jsonable(store.settings),
        "models": models_loaded(store),
        "store": store.stats()["store"],
    }


def touch(call: Call) -> Any:
    """POST /v1/memories/{id}/touch."""
    body: TouchIn = call.body
    return call.store.touch(call.path["id"], boost=body.boost)


def observe(call: Call) -> Any:
    """POST /v1/observe: memories used together in a conversation."""
    body: ObserveIn = call.body
    return {"items": call.store.observe(body.ids, context=body.context)}


def relate(call: Call) -> Any:
    """POST /v1/relations: one typed edge between two entities."""
    body: RelateIn = call.body
    return call.store.relate(
        body.from_entity,
        body.to_entity,
        body.relation_type,
        strength=body.strength,
        source_memory=body.source_memory,
    )


def keys(call: Call) -> Any:
    """GET /v1/keys: the current value of every key (of one subject)."""
    return {"facts": call.store.keys(call.query.subject)}


def resolve(call: Call) -> Any:
    """GET /v1/resolve/{kind}/{prefix}: the full id a unique prefix names."""
    return {"id": call.store.resolve_id(call.path["prefix"], call.path["kind"])}


def pin(call: Call) -> Any:
    """POST /v1/memories/{id}/pin."""
    body: PinIn = call.body
    return call.store.pin(call.path["id"], pinned=body.pinned)


ENDPOINTS = [
    Endpoint(
        "GET", "/v1/events", events, "The audit log, newest first", "upkeep", query=EventsQuery
    ),
    Endpoint("GET", "/v1/settings", settings, "The settings and models in use", "upkeep"),
    Endpoint("POST", "/v1/memories/{id}/pin", pin, "Pin or unpin a memory", "memories", body=PinIn),
    Endpoint("POST", "/v1/memories/{id}/touch", touch, "Count a use now", "memories", body=TouchIn),
    Endpoint("POST", "/v1/observe", observe, "Memories used together", "memories", body=ObserveIn),
    Endpoint("POST", "/v1/relations", relate, "Link two entities", "graph", body=RelateIn),
    Endpoint("GET", "/v1/keys", keys, "The current value of every key", "ledger", query=KeysQuery),
    Endpoint(
        "GET", "/v1/resolve/{kind}/{prefix}", resolve, "The id a unique prefix names", "memories"
    ),
]
