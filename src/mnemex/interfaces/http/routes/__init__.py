"""The REST routes, one module per noun; ENDPOINTS lists them all in a stable order."""

from __future__ import annotations

from mnemex.interfaces.http.endpoint import Endpoint
from mnemex.interfaces.http.routes import (
    browse,
    graph,
    ledger,
    lifecycle,
    memories,
    retrieval,
    upkeep,
)

ENDPOINTS: list[Endpoint] = [
    *memories.ENDPOINTS,
    *retrieval.ENDPOINTS,
    *ledger.ENDPOINTS,
    *graph.ENDPOINTS,
    *upkeep.ENDPOINTS,
    *browse.ENDPOINTS,
    *lifecycle.ENDPOINTS,
]
