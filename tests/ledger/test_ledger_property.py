"""Ledger invariants under any sequence of writes, late arrivals, retractions and review decisions.

- never more than one active value per key (the store's index, and the reads built on it);
- an `as_of` query never returns a fact recorded after it;
- `facts(as_of=T)` is exactly what `facts()` answered at time T;
- every key is stored exactly as its facts lay it out (a write re-lays only the windows it
  changes, so a stored window that drifted would never be repaired);
- the per-value fact counts the store keeps are what counting the facts gives.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mnemex
from mnemex import MemoryStore, Settings
from mnemex.ledger.history import by_key, retractions_of, windows
from tests.conftest import FakeClock, assert_fact_counts_kept

T0 = datetime(2026, 1, 1, tzinfo=UTC)
SUBJECTS = ["Alice", "Bob"]
RELATIONS = ["editor", "code editor", "city"]
VALUES = ["Vim", "Helix", "Emacs", "Lisbon"]

keyed = st.tuples(
    st.just("keyed"),
    st.sampled_from(SUBJECTS),
    st.sampled_from(RELATIONS),
    st.sampled_from(VALUES),
    st.integers(0, 40),  # observed this many days before now: late arrivals included
)
said = st.tuples(
    st.just("said"),
    st.sampled_from(SUBJECTS),
    st.sampled_from(
        [
            "{s}'s editor is {v}",
            "{s}'s code editor is {v}",
            "Actually, {s}'s editor is {v}",
            "{s} switched to {v}",
            "{s} doesn't use {v} anymore",
            "{s} moved to {v}",
        ]
    ),
    st.sampled_from(VALUES),
    st.integers(0, 40),
)
decide = st.tuples(st.just("decide"), st.sampled_from(["approve", "reject"]))
advance = st.tuples(st.just("advance"), st.integers(1, 30))
operations = st.lists(st.one_of(keyed, said, decide, advance), min_size=1, max_size=25)


def _apply(store: MemoryStore, clock: FakeClock, op: tuple[Any, ...]) -> None:
    kind = op[0]
    if kind == "advance":
        clock.advance(days=op[1])
    elif kind == "keyed":
        _, subject, relation, value, back = op
        store.save(
            f"{subject} {relation} {value}",
            subject=subject,
            relation=relation,
            value=value,
            observed_at=clock.now - timedelta(days=back),
        )
    elif kind == "said":
        _, subject, template, value, back = op
        observed = clock.now - timedelta(days=back)
        store.save(template.format(s=subject, v=value), observed_at=observed)
    else:
        reviews = store.reviews(limit=1)
        if reviews:
            store.resolve_review(reviews[0].id, op[1])


def _snapshot(store: MemoryStore) -> set[tuple[str, str, str]]:
    return {(f.subject_id, f.relation, f.id) for f in store.facts()}


def _check_one_active(store: MemoryStore) -> None:
    current = store.facts()
    assert len({(f.subject_id, f.relation) for f in current}) == len(current)
    with store.backend.read(store.tenant) as tx:
        rows = tx.facts_for_key(None, None)
    active = [(f.subject_id, f.relation) for f in rows if f.status == "active"]
    assert len(active) == len(set(active))


def _check_layout(store: MemoryStore) -> None:
    with store.backend.read(store.tenant) as tx:
        rows = tx.facts_for_key(None, None)
        retracted = retractions_of(tx, rows)
    for group in by_key(rows).values():
        laid = windows(group, retracted)
        for fact in group:
            if fact.id in laid:
                window = laid[fact.id]
                stored = (fact.status, fact.valid_to, fact.superseded_by)
                assert stored == (window.status, window.valid_to, window.superseded_by), fact


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=operations, probes=st.lists(st.integers(-5, 400), min_size=1, max_size=5))
def test_ledger_invariants(ops: list[tuple[Any, ...]], probes: list[int]) -> None:
    clock = FakeClock(T0)
    snapshots: dict[datetime, set[tuple[str, str, str]]] = {}
    lexical = Settings.load(env={}, embed_model="none")  # invariants hold whatever ranks hits
    with mnemex.open(":memory:", settings=lexical, clock=clock) as store:
        for op in ops:
            _apply(store, clock, op)
            _check_one_active(store)
            _check_layout(store)
            snapshots[clock.now] = _snapshot(store)
        assert_fact_counts_kept(store)
        for moment, seen in snapshots.items():
            as_of = {(f.subject_id, f.relation, f.id) for f in store.facts(as_of=moment)}
            assert as_of == seen, moment
        for offset in probes:
            moment = T0 + timedelta(days=offset)
            for history in (False, True):
                for fact in store.facts(as_of=moment, include_history=history):
                    assert fact.recorded_at <= moment
                    assert fact.valid_from <= moment
