"""/v1/promote, /v1/clusters, /v1/reindex and /v1/import: the memory lifecycle and bulk upkeep."""

from __future__ import annotations

from typing import Any

from mnemex.interfaces.http.endpoint import Call, Endpoint
from mnemex.interfaces.http.schemas import ClusterQuery, ConsolidateIn, ImportIn, PromoteIn


def promote(call: Call) -> Any:
    """POST /v1/promote."""
    body: PromoteIn = call.body
    return call.store.promote(body.id, auto=body.auto, dry_run=body.dry_run)


def clusters(call: Call) -> Any:
    """GET /v1/clusters."""
    query: ClusterQuery = call.query
    return {"clusters": call.store.cluster(threshold=query.threshold, limit=query.limit)}


def consolidate(call: Call) -> Any:
    """POST /v1/clusters/{id}/consolidate."""
    body: ConsolidateIn = call.body
    return call.store.consolidate(call.path["id"], dry_run=body.dry_run, threshold=body.threshold)


def reindex(call: Call) -> Any:
    """POST /v1/reindex: embed what a model change left behind (can take minutes)."""
    return call.store.reindex()


def import_lines(call: Call) -> Any:
    """POST /v1/import: the lines of a JSONL export (GET /v1/export), all or nothing."""
    body: ImportIn = call.body
    return call.store.import_lines(body.lines)


ENDPOINTS = [
    Endpoint(
        "POST",
        "/v1/promote",
        promote,
        "Write lasting memories to the vault",
        "upkeep",
        body=PromoteIn,
    ),
    Endpoint(
        "GET", "/v1/clusters", clusters, "Groups of similar memories", "upkeep", query=ClusterQuery
    ),
    Endpoint(
        "POST",
        "/v1/clusters/{id}/consolidate",
        consolidate,
        "Preview or merge a cluster",
        "upkeep",
        body=ConsolidateIn,
    ),
    Endpoint("POST", "/v1/reindex", reindex, "Embed memories a model change left behind", "upkeep"),
    Endpoint(
        "POST",
        "/v1/import",
        import_lines,
        "Import the lines of a JSONL export, all or nothing",
        "upkeep",
        body=ImportIn,
    ),
]
