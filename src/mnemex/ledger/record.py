"""The bi-temporal fact ledger: one current value per (subject, relation) key, with its history.

Every write inserts one observation and then re-lays the key's windows from its facts
(ledger/history.py): a newer value closes the old window and supersedes it, an older one
(a late arrival) becomes history with the window it really had, a correction replaces the value
it corrects from that value's start. The store's unique partial index backs the one-active rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from mnemex.clock import to_micros
from mnemex.ledger.extract import USER
from mnemex.ledger.history import (
    LEDGER_STATUSES,
    Window,
    order_key,
    retractions_of,
    valid_at,
    windows,
)
from mnemex.models import Fact, FactStatus, new_id
from mnemex.store.base import Tx
from mnemex.text import names_value, same_value

FactAction = Literal["created", "superseded", "history", "unchanged", "pending", "retracted"]


@dataclass(slots=True)
class Claim:
    """A value to record for a key, with where it came from and when it was observed."""

    subject: str
    relation: str
    value: str
    statement: str
    observed_at: datetime
    temporal_form: str = "ongoing"
    correction: bool = False
    confidence: float = 1.0


@dataclass(slots=True)
class Outcome:
    """What one claim did to the ledger."""

    action: FactAction
    fact: Fact | None
    superseded: list[Fact] = field(default_factory=list)


def restated(facts: list[Fact], value: str, observed: datetime) -> Fact | None:
    """The history fact this observation only repeats (same value, inside its window), if any."""
    for fact in facts:
        if fact.status not in LEDGER_STATUSES or not same_value(fact.object, value):
            continue
        if fact.status == FactStatus.ACTIVE and observed >= fact.valid_from:
            return fact
        if valid_at(fact, observed):
            return fact
    return None


def repeats(tx: Tx, subject_id: str, relation: str, value: str, observed: datetime) -> Fact | None:
    """`restated` for one key, read from the one fact whose window can hold `observed` (the
    windows of a key do not overlap) instead of the key's whole history."""
    held = tx.fact_at(subject_id, relation, to_micros(observed))
    return None if held is None else restated([held], value, observed)


def current_of(facts: list[Fact]) -> Fact | None:
    """The active fact among a key's facts."""
    return next((f for f in facts if f.status == FactStatus.ACTIVE), None)


def record(
    tx: Tx, claim: Claim, now: datetime, memory_id: str | None, *, pending: bool = False
) -> Outcome:
    """Add one observation to its key; `pending` parks it for review instead (nothing changes)."""
    now_us = to_micros(now)
    # The first person's node is a person (a category set once, never over the user's own).
    category = "person" if claim.subject == USER else None
    subject_id = tx.upsert_entity(claim.subject, category=category, now=now_us)[0]
    if not pending:
        repeated = repeats(tx, subject_id, claim.relation, claim.value, claim.observed_at)
        if repeated is not None:
            return Outcome("unchanged", repeated)
    valid_from = claim.observed_at
    if claim.correction:
        current = current_of(tx.facts_for_key(subject_id, claim.relation, (FactStatus.ACTIVE,)))
        if current is not None and claim.observed_at >= current.valid_from:
            valid_from = current.valid_from  # the corrected value never held: replace it outright
    object_entity = tx.find_entity(claim.value)
    fact = Fact(
        id=new_id("fct"),
        tenant=tx.tenant,
        subject=claim.subject,
        subject_id=subject_id,
        relation=claim.relation,
        object=claim.value,
        object_id=None if object_entity is None else object_entity.id,
        statement=claim.statement,
        temporal_form=claim.temporal_form,
        observed_at=claim.observed_at,
        valid_from=valid_from,
        valid_to=None,
        recorded_at=now,
        status=FactStatus.PENDING if pending else FactStatus.SUPERSEDED,  # re-laid just below
        superseded_by=None,
        memory_id=memory_id,
        confidence=claim.confidence,
    )
    tx.insert_fact(fact)
    if pending:
        tx.log_event("fact_pending", now_us, fact.id, {"relation": fact.relation})
        return Outcome("pending", fact)
    return place(tx, fact, now, inserted=True)


def place(tx: Tx, fact: Fact, now: datetime, *, inserted: bool = False) -> Outcome:
    """Re-lay the key of a history fact just written and report what it did (`inserted`: the
    fact is new, so only its own window and its predecessor's change)."""
    demoted = _relay_inserted(tx, fact) if inserted else relay(tx, fact.subject_id, fact.relation)
    placed = tx.get_fact(fact.id)
    assert placed is not None  # inserted in this transaction
    superseded = [f for f in demoted if f.id != fact.id]
    action: FactAction = "history"
    if placed.status == FactStatus.ACTIVE:
        action = "superseded" if superseded else "created"
    tx.log_event(
        "fact_" + action,
        to_micros(now),
        placed.id,
        {"relation": placed.relation, "superseded": [f.id for f in superseded]},
    )
    sync_memories(tx, [f.memory_id for f in (placed, *superseded) if f.memory_id])
    return Outcome(action, placed, superseded)


def relay(tx: Tx, subject_id: str, relation: str) -> list[Fact]:
    """Store the window layout of one key; returns the facts that stopped being current."""
    facts = tx.facts_for_key(subject_id, relation)
    return _store_layout(tx, facts, windows(facts, retractions_of(tx, facts)))


def _relay_inserted(tx: Tx, fact: Fact) -> list[Fact]:
    """`relay` after inserting one history fact, reading only its neighbours: a window ends
    where the next fact's starts (or at its retraction), so the new fact changes only its own
    window and its predecessor's; the rest of a long history stays as it was laid."""
    before, after = tx.key_neighbours(fact.id)
    near = [f for f in (before, fact, after) if f is not None]
    layout = windows(near, retractions_of(tx, near))  # `after` is laid as if last: not stored
    return _store_layout(tx, [f for f in (before, fact) if f is not None], layout)


def _store_layout(tx: Tx, facts: list[Fact], layout: dict[str, Window]) -> list[Fact]:
    """Write the windows of `facts` that changed; returns the facts that stopped being current."""
    changes = [(f, layout[f.id]) for f in facts if f.id in layout and _differs(f, layout[f.id])]
    # Demote before promoting, so the unique index never sees two active values at once.
    changes.sort(key=lambda change: change[1].status == FactStatus.ACTIVE)
    for fact, window in changes:
        tx.update_fact(
            fact.id,
            {
                "status": window.status,
                "valid_to": window.valid_to,
                "superseded_by": window.superseded_by,
            },
        )
    return [
        f for f, w in changes if f.status == FactStatus.ACTIVE and w.status != FactStatus.ACTIVE
    ]


def _differs(fact: Fact, window: Window) -> bool:
    return (fact.status, fact.valid_to, fact.superseded_by) != (
        window.status,
        window.valid_to,
        window.superseded_by,
    )


def retract(
    tx: Tx,
    subject: str,
    relation: str | None,
    value: str,
    observed: datetime,
    now: datetime,
    memory_id: str | None,
) -> Outcome:
    """End the current value `value` of a subject ("Alice doesn't use Vim anymore")."""
    found = tx.find_entity(subject)
    if found is None:
        return Outcome("unchanged", None)
    named = tx.find_entity(value)
    facts = [
        f
        for f in tx.facts_for_key(found.id, relation)
        if f.status == FactStatus.ACTIVE
        and (names_value(value, f.object) or (named is not None and f.object_id == named.id))
    ]
    for fact in facts:
        ended = max(observed, fact.valid_from)
        tx.set_retraction(fact.id, to_micros(ended), to_micros(now))
        relay(tx, fact.subject_id, fact.relation)
        tx.log_event("fact_retracted", to_micros(now), fact.id, {"by": memory_id})
    sync_memories(tx, [f.memory_id for f in facts if f.memory_id], fallback=memory_id)
    if not facts:
        return Outcome("unchanged", None)
    return Outcome("retracted", None, facts)


def move_facts(tx: Tx, from_ids: list[str], to_id: str) -> None:
    """The facts some memories stated become the facts of another (a consolidation's merged
    memory states what its sources stated): each keeps its place in its key's history."""
    for facts in tx.facts_for_memories(from_ids).values():
        for fact in facts:
            tx.update_fact(fact.id, {"memory_id": to_id})
    sync_memories(tx, [to_id])


def sync_memories(tx: Tx, memory_ids: list[str], *, fallback: str | None = None) -> None:
    """Hide a memory from search once none of its facts is current; show it again otherwise.

    A hidden memory points at the memory that replaced its last value (`superseded_by`), or at
    `fallback` (the retracting statement) when the value was retracted with no successor.
    """
    if not memory_ids:
        return
    stated = tx.facts_for_memories(memory_ids)
    memories = tx.get_memories(memory_ids)
    for memory_id, facts in stated.items():
        memory = memories.get(memory_id)
        if memory is None:
            continue
        live = [f for f in facts if f.status in (FactStatus.ACTIVE, FactStatus.PENDING)]
        target: str | None = None
        if not live and any(f.status == FactStatus.SUPERSEDED for f in facts):
            last = sorted((f for f in facts if f.status == FactStatus.SUPERSEDED), key=order_key)[
                -1
            ]
            target = _successor_memory(tx, last) or memory.superseded_by or fallback
            if target == memory_id:
                target = None
        if target != memory.superseded_by:
            tx.update_memory(memory_id, {"superseded_by": target})


def _successor_memory(tx: Tx, fact: Fact) -> str | None:
    if fact.superseded_by is None:
        return None
    successor = tx.get_fact(fact.superseded_by)
    return None if successor is None else successor.memory_id
