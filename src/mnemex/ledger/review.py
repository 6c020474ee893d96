"""The review queue's decisions: approve adopts the proposed key, reject restores the fact.

An alias review holds a fact parked as pending under the key it probably belongs to. Approving
records it under that key (superseding the old value if it is newer, as history if older) and
teaches the engine the alias; rejecting restores the fact under its own stated relation, as a
key of its own. Both are written to the audit log, and later statements follow the ruling.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from mnemex.clock import to_micros
from mnemex.errors import ConflictError, InvalidInputError, NotFoundError
from mnemex.ledger.record import place, restated
from mnemex.models import FactStatus, Review
from mnemex.store.base import Tx

DECISIONS = {"approve": "approved", "reject": "rejected"}


def resolve(tx: Tx, review_id: str, decision: str, note: str | None, now: datetime) -> Review:
    """Apply a person's decision on an open review, in the caller's transaction."""
    if decision not in DECISIONS:
        raise InvalidInputError("decision", "must be 'approve' or 'reject'")
    review = tx.get_review(review_id)
    if review is None:
        raise NotFoundError("review", review_id)
    if review.status != "open":
        raise ConflictError(f"review {review_id!r} is already {review.status}", id=review_id)
    effect = _adopt(tx, review, approve=decision == "approve", now=now)
    status = DECISIONS[decision]
    resolution = note or decision
    tx.update_review(review_id, {"status": status, "resolved_at": now, "resolution": resolution})
    tx.log_event(
        "review_" + status,
        to_micros(now),
        review_id,
        {"kind": review.kind, "note": note, **effect},
    )
    return dataclasses.replace(review, status=status, resolved_at=now, resolution=resolution)


def _adopt(tx: Tx, review: Review, *, approve: bool, now: datetime) -> dict[str, str | None]:
    """Move the parked fact to the proposed key (approve) or to its own key (reject)."""
    fact = tx.get_fact(str(review.payload.get("fact_id")))
    if fact is None or fact.status != FactStatus.PENDING:
        return {"fact_id": None, "action": "none"}
    stated = review.payload.get("relation")
    if not approve and stated is None:
        # A guessed key (`supersede`) turned down: the statement named no key of its own, so it
        # stays out of the ledger (archived), and its memory is searchable as a plain note.
        tx.update_fact(fact.id, {"status": FactStatus.ARCHIVED})
        return {"fact_id": fact.id, "action": "archived"}
    relation = str(review.payload["proposed"] if approve else stated)
    same_key = tx.facts_for_key(fact.subject_id, relation)
    if restated(same_key, fact.object, fact.observed_at) is not None:
        tx.update_fact(fact.id, {"status": "archived", "relation": relation})
        return {"fact_id": fact.id, "action": "unchanged"}
    # The fact joins the ledger now: it was not known as a value of any key until this decision.
    tx.update_fact(
        fact.id, {"status": FactStatus.SUPERSEDED, "relation": relation, "recorded_at": now}
    )
    moved = tx.get_fact(fact.id)
    assert moved is not None
    outcome = place(tx, moved, now)
    return {"fact_id": fact.id, "action": outcome.action, "relation": relation}
