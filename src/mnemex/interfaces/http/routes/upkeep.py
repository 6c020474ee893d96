"""/v1/decay, /v1/stats and /v1/export: the store's health, lifecycle and a full copy."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from mnemex.interfaces.http.endpoint import Call, Endpoint
from mnemex.interfaces.http.schemas import DecayRun


def decay_status(call: Call) -> Any:
    """GET /v1/decay/status: the forgetting curve and where the memories stand on it."""
    settings = call.store.settings
    stats = call.store.stats()
    return {
        "curve": settings.decay_curve,
        "half_life_days": settings.half_life_days,
        "forget_threshold": settings.forget_threshold,
        "danger_zone": [settings.danger_zone_low, settings.danger_zone_high],
        "memories": stats["memories"],
        "score": stats["score"],
    }


def decay_run(call: Call) -> Any:
    """POST /v1/decay/run: list memories below the threshold; archive them only with
    `dry_run: false` and `confirm: true` (else the answer is the preview)."""
    body: DecayRun = call.body
    return call.store.gc(dry_run=body.dry_run or not body.confirm, hard=body.hard)


def stats(call: Call) -> Any:
    """GET /v1/stats."""
    return call.store.stats()


def export(call: Call) -> Any:
    """GET /v1/export: this tenant as JSONL, importable with `mnemex import`."""
    body = "".join(line + "\n" for line in call.store.export())
    return Response(body, media_type="application/x-ndjson")


ENDPOINTS = [
    Endpoint("GET", "/v1/decay/status", decay_status, "Decay settings and score spread", "upkeep"),
    Endpoint(
        "POST", "/v1/decay/run", decay_run, "Archive memories that faded", "upkeep", body=DecayRun
    ),
    Endpoint("GET", "/v1/stats", stats, "Counts and score distribution", "upkeep"),
    Endpoint(
        "GET",
        "/v1/export",
        export,
        "Export this tenant as JSONL",
        "upkeep",
        media_type="application/x-ndjson",
    ),
]
