"""Property tests of the entity graph: a merge never loses an edge or a memory link (and undo
gives the graph back exactly); `as_of` never shows an edge created after the date."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mnemex
from mnemex import Settings
from mnemex.graph import upkeep
from tests.conftest import FakeClock

NAMES = [f"node{i}" for i in range(6)]
TYPES = ["uses", "works_on", "depends_on"]
edges = st.lists(
    st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(TYPES)),
    min_size=1,
    max_size=20,
)
mentions = st.lists(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3), max_size=8)


def _open(clock: FakeClock | None = None) -> mnemex.MemoryStore:
    config = Settings.load(env={}, embed_model="none", analysis_enrich=False, ledger_extract=False)
    return mnemex.open(":memory:", settings=config, clock=clock)


def _state(store: mnemex.MemoryStore) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """Every relation row (endpoints, type, expired or not) and every memory's entity links."""
    with store.backend.read(store.tenant) as tx:
        rows = {r.id: (r.from_id, r.to_id, r.type, r.expired_at is None) for r in
                tx.entity_relations(10_000, 0)}  # fmt: skip
        memories = [m.id for m in store.memories(limit=1_000)]
        links = {k: sorted(v) for k, v in tx.memory_entity_ids(memories).items()}
    return rows, links


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=edges, said=mentions, pair=st.sampled_from([(0, 1), (1, 2), (0, 5), (3, 4)]))
def test_a_merge_loses_no_edge_and_no_memory_link(
    plan: list[tuple[str, str, str]], said: list[list[str]], pair: tuple[int, int]
) -> None:
    with _open() as store:
        store.upsert_entities([{"name": n} for n in NAMES], [])
        for a, b, kind in plan:
            store.relate(a, b, kind)
        for names in said:
            store.save(f"a memory about {' and '.join(names)}", entities=names)
        ids = {n: store.entity(n).id for n in NAMES}
        keep, drop = ids[NAMES[pair[0]]], ids[NAMES[pair[1]]]
        before_rows, before_links = _state(store)
        with store.backend.write(store.tenant) as tx:
            undo = upkeep.merge(tx, keep, drop, store.now())
        rows, links = _state(store)

        def mapped(node: str) -> str:
            return keep if node == drop else node

        assert set(rows) == set(before_rows)  # no relation row is ever deleted
        live = {(f, t, k) for f, t, k, alive in rows.values() if alive}
        for f, t, k, alive in before_rows.values():
            if alive and mapped(f) != mapped(t):
                assert (mapped(f), mapped(t), k) in live  # the edge, or its twin, is live
        for memory_id, linked in before_links.items():
            assert {mapped(e) for e in linked} <= set(links[memory_id])
        assert store.entity(NAMES[pair[1]]).id == keep  # the merged name finds the kept node
        with store.backend.write(store.tenant) as tx:
            upkeep._unmerge(tx, undo)
        assert _state(store) == (before_rows, before_links)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    plan=st.lists(
        st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES), st.floats(0.0, 10.0)),
        min_size=1,
        max_size=15,
    ),
    ends=st.lists(st.integers(0, 14), max_size=5),
    at=st.floats(0.0, 120.0),
)
def test_as_of_never_shows_an_edge_created_after_the_date(
    plan: list[tuple[str, str, float]], ends: list[int], at: float
) -> None:
    clock = FakeClock()
    start = clock()
    with _open(clock) as store:
        store.upsert_entities([{"name": n} for n in NAMES], [])
        made = []
        for a, b, days in plan:
            clock.advance(days=days)
            if a != b:
                made.append(store.relate(a, b, "uses").id)
        for index in ends:  # expire some edges, later still
            if index < len(made):
                clock.advance(days=1)
                with store.backend.write(store.tenant) as tx:
                    tx.update_relation(made[index], {"expired_at": clock()})
        moment = start + timedelta(days=at)
        with store.backend.read(store.tenant) as tx:
            truth = {r.id: r for r in tx.entity_relations(10_000, 0)}
        for name in NAMES:
            graph = store.graph(name, depth=2, as_of=moment)
            for edge in graph.edges:
                real = truth[edge.id]
                assert real.created_at <= moment
                expired_then = real.expired_at is not None and real.expired_at <= moment
                assert (edge.expired_at is not None) == expired_then
            for node in graph.nodes:
                assert node.created_at is not None and node.created_at <= moment
