"""forget(id) takes a memory's facts out of the ledger; restore(id) puts them back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mnemex
from mnemex import MemoryStore, Settings
from tests.conftest import FakeClock, assert_fact_counts_kept

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def day(n: int) -> datetime:
    return T0 + timedelta(days=n)


def _editor(store: MemoryStore, value: str, when: int) -> str:
    text = f"Alice's editor is {value}."
    return store.save(
        text, subject="Alice", relation="editor", value=value, observed_at=day(when)
    ).id


def test_forgetting_the_current_value_brings_the_previous_one_back(
    store: MemoryStore, clock: FakeClock
) -> None:
    clock.now = day(0)
    vim = _editor(store, "Vim", 0)
    clock.now = day(10)
    helix = _editor(store, "Helix", 10)
    clock.now = day(20)
    store.forget(helix)
    assert [f.object for f in store.facts("Alice")] == ["Vim"]
    assert [f.object for f in store.facts("Alice", include_history=True)] == ["Vim"]
    assert store.get(vim).superseded_by is None
    hits = store.search("Which editor does Alice use?")
    assert [h.memory.id for h in hits] == [vim]
    assert store.facts("Alice", as_of=day(15))[0].object == "Helix"  # what the ledger said then
    clock.now = day(30)
    store.restore(helix)
    assert [f.object for f in store.facts("Alice")] == ["Helix"]
    assert store.get(vim).superseded_by == helix
    assert store.facts("Alice", as_of=day(25))[0].object == "Vim"
    with store.backend.read(store.tenant) as tx:
        kinds = [e["kind"] for e in tx.list_events(None, 100)]
    assert "fact_forgotten" in kinds and "fact_restored" in kinds


def test_forgetting_history_or_a_parked_fact_keeps_the_current_value(store: MemoryStore) -> None:
    vim = _editor(store, "Vim", 0)
    _editor(store, "Helix", 10)
    store.forget(vim)
    assert [f.object for f in store.facts("Alice", include_history=True)] == ["Helix"]
    parked = store.save("Alice's code editor is Zed", observed_at=day(20)).id  # alias review
    store.forget(parked)
    store.restore(parked)
    assert store.reviews()[0].payload["value"] == "Zed"
    assert [f.object for f in store.facts("Alice")] == ["Helix"]


def test_a_hard_forget_retracts_for_good(store: MemoryStore) -> None:
    _editor(store, "Vim", 0)
    helix = _editor(store, "Helix", 10)
    store.forget(helix, hard=True)
    assert [f.object for f in store.facts("Alice")] == ["Vim"]
    assert_fact_counts_kept(store)


memories = st.lists(
    st.tuples(st.sampled_from(["editor", "city"]), st.sampled_from(["Vim", "Helix", "Oslo"])),
    min_size=1,
    max_size=6,
)
actions = st.lists(
    st.tuples(st.sampled_from(["forget", "restore", "advance"]), st.integers(0, 5)), max_size=12
)


def _active_keys(store: MemoryStore) -> list[tuple[str, str]]:
    with store.backend.read(store.tenant) as tx:
        rows = tx.facts_for_key(None, None)
    return [(f.subject_id, f.relation) for f in rows if f.status == "active"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(said=memories, steps=actions)
def test_forget_restore_never_two_active_values_never_lost_history(
    said: list[tuple[str, str]], steps: list[tuple[str, int]]
) -> None:
    clock = FakeClock(T0)
    lexical = Settings.load(env={}, embed_model="none")
    with mnemex.open(":memory:", settings=lexical, clock=clock) as store:
        ids = []
        for index, (relation, value) in enumerate(said):
            clock.advance(days=1)
            text = f"Bob {relation} {value} {index}"
            ids.append(store.save(text, subject="Bob", relation=relation, value=value).id)
        before = {(f.id, f.status, f.valid_to) for f in store.facts(include_history=True)}
        snapshots: dict[datetime, set[str]] = {clock.now: {f.id for f in store.facts()}}
        forgotten: set[str] = set()
        for action, pick in steps:
            target = ids[pick % len(ids)]
            if action == "advance":
                clock.advance(days=1)
            elif action == "forget":
                store.forget(target)
                forgotten.add(target)
            else:
                store.restore(target)
                forgotten.discard(target)
            active = _active_keys(store)
            assert len(active) == len(set(active))
            snapshots[clock.now] = {f.id for f in store.facts()}
        for moment, seen in snapshots.items():
            assert {f.id for f in store.facts(as_of=moment)} == seen, moment
        for memory_id in list(forgotten):
            store.restore(memory_id)
        after = {(f.id, f.status, f.valid_to) for f in store.facts(include_history=True)}
        assert after == before  # every forget undone: the history is exactly as it was
        assert_fact_counts_kept(store)
