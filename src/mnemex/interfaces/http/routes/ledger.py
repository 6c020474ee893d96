"""/v1/profile, /v1/facts, /v1/timeline and /v1/reviews: the fact ledger and its review queue."""

from __future__ import annotations

from typing import Any

from mnemex.interfaces.http.endpoint import Call, Endpoint
from mnemex.interfaces.http.schemas import (
    FactsQuery,
    ProfileQuery,
    ReviewDecision,
    ReviewsQuery,
    TimelineQuery,
)


def profile(call: Call) -> Any:
    """GET /v1/profile."""
    return {"facts": call.store.profile(limit=call.query.limit)}


def facts(call: Call) -> Any:
    """GET /v1/facts."""
    query: FactsQuery = call.query
    found = call.store.facts(
        query.subject, query.relation, as_of=query.as_of, include_history=query.include_history
    )
    return {"facts": found}


def timeline(call: Call) -> Any:
    """GET /v1/timeline."""
    return {"facts": call.store.timeline(call.query.subject)}


def reviews(call: Call) -> Any:
    """GET /v1/reviews."""
    query: ReviewsQuery = call.query
    return {"reviews": call.store.reviews(status=query.status, limit=query.limit)}


def resolve(call: Call) -> Any:
    """POST /v1/reviews/{id}."""
    body: ReviewDecision = call.body
    return call.store.resolve_review(call.path["id"], body.decision, note=body.note)


ENDPOINTS = [
    Endpoint(
        "GET", "/v1/profile", profile, "The current profile facts", "ledger", query=ProfileQuery
    ),
    Endpoint(
        "GET", "/v1/facts", facts, "Facts by key, now or as of a time", "ledger", query=FactsQuery
    ),
    Endpoint(
        "GET",
        "/v1/timeline",
        timeline,
        "How a subject's facts changed over time",
        "ledger",
        query=TimelineQuery,
    ),
    Endpoint(
        "GET",
        "/v1/reviews",
        reviews,
        "Reviews waiting for a decision",
        "ledger",
        query=ReviewsQuery,
    ),
    Endpoint(
        "POST",
        "/v1/reviews/{id}",
        resolve,
        "Approve or reject a review",
        "ledger",
        body=ReviewDecision,
    ),
]
