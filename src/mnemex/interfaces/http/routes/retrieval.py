"""/v1/search, /v1/recall and /v1/analyze: finding memories and judging messages."""

from __future__ import annotations

from typing import Any

from mnemex.interfaces.http.endpoint import Call, Endpoint
from mnemex.interfaces.http.schemas import AnalyzeIn, RecallIn, SearchIn


def search(call: Call) -> Any:
    """POST /v1/search."""
    body = call.body.model_dump()
    return {"hits": call.store.search(body.pop("query"), **body)}


def recall(call: Call) -> Any:
    """POST /v1/recall."""
    body: RecallIn = call.body
    return call.store.recall(body.prompt, k=body.k, context=body.context)


def analyze(call: Call) -> Any:
    """POST /v1/analyze."""
    body: AnalyzeIn = call.body
    analyze_ = call.store.analyze
    return analyze_(body.message, context=body.context, session_id=body.session_id)


ENDPOINTS = [
    Endpoint("POST", "/v1/search", search, "Search memories", "retrieval", body=SearchIn),
    Endpoint(
        "POST",
        "/v1/recall",
        recall,
        "Recall memories for a prompt, with a block ready to inject",
        "retrieval",
        body=RecallIn,
    ),
    Endpoint(
        "POST",
        "/v1/analyze",
        analyze,
        "Analyse a message: save, search or nothing",
        "retrieval",
        body=AnalyzeIn,
    ),
]
