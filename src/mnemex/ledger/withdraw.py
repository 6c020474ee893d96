"""Forgetting a memory takes its facts out of the ledger; restoring it puts them back.

`forget` marks every fact the memory stated `deleted` and re-lays each key: when the forgotten
fact was the current value, the value it had superseded is current again (it only ended because
of the forgotten statement). `restore` undoes exactly that: the facts take their place in their
keys again, as if never forgotten (a newer value stated since still wins, by time order).

Both are bi-temporal: each fact keeps the spans of record time during which its memory was
forgotten, so `as_of` a moment before the forget still shows what the ledger said then, and a
moment inside a span does not. Both are in the audit log (`fact_forgotten`, `fact_restored`).
A forgotten retraction ("Bob doesn't use Vim anymore") does not bring the value back: the
retraction is kept on the retracted fact (restate the value to bring it back).
"""

from __future__ import annotations

from datetime import datetime

from mnemex.clock import to_micros
from mnemex.ledger.history import LEDGER_STATUSES
from mnemex.ledger.record import relay, sync_memories
from mnemex.models import Fact, FactStatus
from mnemex.store.base import Tx


def forget(tx: Tx, memory_id: str, now: datetime) -> list[Fact]:
    """Take the facts `memory_id` stated out of the ledger; returns the facts withdrawn."""
    stated = [
        f
        for f in tx.facts_for_memories([memory_id]).get(memory_id, [])
        if f.status in (*LEDGER_STATUSES, FactStatus.PENDING)
    ]
    spans = tx.withdrawals([f.id for f in stated])
    now_us = to_micros(now)
    for fact in stated:
        tx.set_withdrawals(fact.id, [*spans.get(fact.id, []), (now_us, None, fact.status)])
        tx.update_fact(fact.id, {"status": FactStatus.DELETED})
        tx.log_event("fact_forgotten", now_us, fact.id, {"memory_id": memory_id})
    _relay_keys(tx, [f for f in stated if f.status != FactStatus.PENDING])
    return stated


def restore(tx: Tx, memory_id: str, now: datetime) -> list[Fact]:
    """Put back the facts a forgotten `memory_id` stated; returns the facts restored."""
    stated = [
        f
        for f in tx.facts_for_memories([memory_id]).get(memory_id, [])
        if f.status == FactStatus.DELETED
    ]
    spans = tx.withdrawals([f.id for f in stated])
    now_us = to_micros(now)
    restored = []
    for fact in stated:
        open_spans = spans.get(fact.id, [])
        if not open_spans or open_spans[-1][1] is not None:
            continue  # deleted some other way: not this module's to bring back
        start, _, prior = open_spans[-1]
        tx.set_withdrawals(fact.id, [*open_spans[:-1], (start, now_us, prior)])
        # Placed as history first: the key's re-lay decides whether it is current again.
        tx.update_fact(
            fact.id, {"status": FactStatus.PENDING if prior == FactStatus.PENDING else "superseded"}
        )
        tx.log_event("fact_restored", now_us, fact.id, {"memory_id": memory_id})
        restored.append(fact)
    _relay_keys(tx, [f for f in restored if _prior(spans, f) != FactStatus.PENDING])
    return restored


def _prior(spans: dict[str, list[tuple[int, int | None, str]]], fact: Fact) -> str:
    return spans[fact.id][-1][2]


def _relay_keys(tx: Tx, facts: list[Fact]) -> None:
    """Re-lay the keys of some facts and re-sync every memory stating a value of those keys."""
    keys = {(f.subject_id, f.relation) for f in facts}
    memory_ids: list[str] = []
    for subject_id, relation in sorted(keys):
        relay(tx, subject_id, relation)
        stated = tx.facts_for_key(subject_id, relation)
        memory_ids.extend(f.memory_id for f in stated if f.memory_id)
    sync_memories(tx, list(dict.fromkeys(memory_ids)))
