"""The store contract: every test here runs on ':memory:' and on a SQLite file."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from mnemex import InvalidInputError, MemoryStore, NotFoundError
from tests.conftest import FakeClock


def test_save_and_get_round_trip(store: MemoryStore, clock: FakeClock) -> None:
    result = store.save(
        "Alice prefers dark roast coffee",
        tags=["Coffee", "preferences"],
        entities=["Alice"],
        strength=1.4,
        source="chat",
        meta={"channel": "slack"},
        observed_at="2025-12-31T09:00:00Z",
    )
    assert result.action == "created"
    memory = store.get(result.id)
    assert memory.content == "Alice prefers dark roast coffee"
    assert memory.tags == ["coffee", "preferences"]
    assert memory.entities == ["Alice"]
    assert memory.strength == 1.4
    assert memory.meta == {"channel": "slack"}
    assert memory.observed_at == datetime(2025, 12, 31, 9, tzinfo=UTC)
    assert memory.created_at == clock.now
    assert memory.status == "active"
    assert memory.score == pytest.approx(1.4)


def test_save_many_saves_all_in_order(store: MemoryStore) -> None:
    results = store.save_many([{"content": f"note number {i}", "tags": ["n"]} for i in range(50)])
    assert [store.get(r.id).content for r in results] == [f"note number {i}" for i in range(50)]


def test_save_many_checks_everything_before_writing(store: MemoryStore) -> None:
    with pytest.raises(InvalidInputError) as info:
        store.save_many([{"content": "fine"}, {"content": ""}])
    assert info.value.field == "items[1].content"
    assert store.stats()["memories"]["total"] == 0


def test_exact_duplicate_is_stored_and_marked(store: MemoryStore) -> None:
    first = store.save("The deploy key rotates every Monday")
    second = store.save("The deploy key rotates every Monday  ")
    assert second.action == "duplicate"
    assert second.duplicate_of == first.id
    assert second.id != first.id
    skipped = store.save("The deploy key rotates every Monday", skip_duplicate=True)
    assert skipped.id == first.id
    assert store.stats()["memories"]["total"] == 2


def test_update_changes_fields_and_search_follows(store: MemoryStore) -> None:
    saved = store.save("Standup is at nine", tags=["work"])
    store.update(saved.id, content="Standup moved to ten thirty", tags=["work", "meetings"])
    memory = store.get(saved.id)
    assert memory.content == "Standup moved to ten thirty"
    assert memory.tags == ["work", "meetings"]
    assert [h.memory.id for h in store.search("thirty")] == [saved.id]
    assert all("bm25" not in h.channels for h in store.search("nine", explain=True))


def test_update_rejects_unknown_fields(store: MemoryStore) -> None:
    saved = store.save("x marks the spot")
    with pytest.raises(InvalidInputError) as info:
        store.update(saved.id, use_count=99)
    assert info.value.field == "use_count"


def test_forget_is_soft_and_restorable(store: MemoryStore) -> None:
    saved = store.save("The wifi password is on the fridge")
    assert store.forget(saved.id) is not None
    assert store.get(saved.id).status == "deleted"
    assert store.search("wifi password") == []
    assert store.restore(saved.id).status == "active"
    assert [h.memory.id for h in store.search("wifi password")] == [saved.id]


def test_hard_forget_removes_for_good(store: MemoryStore) -> None:
    saved = store.save("temporary scratch note")
    store.forget(saved.id, hard=True)
    with pytest.raises(NotFoundError):
        store.get(saved.id)


def test_touch_counts_a_use_and_boost_is_capped(store: MemoryStore, clock: FakeClock) -> None:
    saved = store.save("Bob's birthday is in March", strength=1.95)
    clock.advance(days=2)
    touched = store.touch(saved.id, boost=True)
    assert touched.use_count == 1
    assert touched.last_used == clock.now
    assert touched.strength == 2.0
    assert store.touch(saved.id).strength == 2.0


def test_observe_reinforces_and_cross_domain_use_adds_strength(
    store: MemoryStore, clock: FakeClock
) -> None:
    same = store.save("Use ruff for linting", tags=["python", "tooling"], strength=1.0)
    other = store.save("The office plant needs water", tags=["office"], strength=1.0)
    clock.advance(days=1)
    observed = store.observe([same.id, other.id], context=["python", "tooling", "ci"])
    by_id = {m.id: m for m in observed}
    assert by_id[same.id].use_count == 1 and by_id[same.id].review_count == 1
    assert by_id[same.id].strength == 1.0  # same domain: Jaccard 2/3
    assert by_id[other.id].strength == pytest.approx(1.05)  # cross-domain: Jaccard 0
    assert by_id[other.id].last_review == clock.now


def test_observe_unknown_id_fails_without_partial_writes(store: MemoryStore) -> None:
    saved = store.save("a real memory")
    with pytest.raises(NotFoundError):
        store.observe([saved.id, "mem_missing"])
    assert store.get(saved.id).use_count == 0


def test_score_is_computed_when_read(store: MemoryStore, clock: FakeClock) -> None:
    saved = store.save("fades with time")
    store.update(saved.id, kind="note")  # a plain note: half-life_days (3)
    first = store.get(saved.id).score
    clock.advance(days=3)
    assert store.get(saved.id).score == pytest.approx(first / 2)


def test_not_found_is_typed(store: MemoryStore) -> None:
    with pytest.raises(NotFoundError) as info:
        store.get("mem_nope")
    assert info.value.code == "not_found"


@pytest.mark.parametrize(
    ("kwargs", "field", "limit"),
    [
        ({"content": "x" * 50_001}, "content", 50_000),
        ({"content": "ok", "tags": [f"t{i}" for i in range(33)]}, "tags", 32),
        ({"content": "ok", "tags": ["x" * 65]}, "tags", 64),
        ({"content": "ok", "meta": {"blob": "x" * 20_000}}, "meta", 16_384),
        ({"content": "ok", "strength": 2.5}, "strength", 2.0),
        ({"content": "ok", "observed_at": "yesterday-ish"}, "observed_at", None),
        ({"content": "   "}, "content", None),
    ],
)
def test_bad_input_names_field_and_limit(
    store: MemoryStore, kwargs: dict[str, object], field: str, limit: object
) -> None:
    kwargs = dict(kwargs)
    content = kwargs.pop("content")
    with pytest.raises(InvalidInputError) as info:
        store.save(content, **kwargs)  # type: ignore[arg-type]
    assert info.value.field == field
    assert info.value.limit == limit
    assert info.value.to_dict()["code"] == "invalid_input"
    assert store.stats()["memories"]["total"] == 0


def test_stats_counts_statuses(store: MemoryStore) -> None:
    a = store.save("one")
    store.save("two")
    store.forget(a.id)
    stats = store.stats()
    assert stats["memories"] == {"total": 2, "active": 1, "deleted": 1}
    assert stats["decay_curve"] == "power_law"


def test_tenants_do_not_see_each_other(store: MemoryStore) -> None:
    mine = store.save("acme secret roadmap")
    other = store.for_tenant("globex")
    assert other.search("roadmap") == []
    with pytest.raises(NotFoundError):
        other.get(mine.id)
    theirs = other.save("globex roadmap")
    assert [h.memory.id for h in store.search("roadmap")] == [mine.id]
    assert [h.memory.id for h in other.search("roadmap")] == [theirs.id]
    assert other.stats()["memories"]["total"] == 1


def test_graph_links_memories_to_entities(store: MemoryStore) -> None:
    saved = store.save("Dana leads the Atlas project", entities=["Dana", "Atlas"])
    store.relate("Dana", "Atlas", "leads")
    graph = store.graph("dana")
    labels = {n.label for n in graph.nodes}
    assert {"Dana", "Atlas"} <= labels
    assert any(n.id == saved.id for n in graph.nodes)
    assert {e.type for e in graph.edges} >= {"mentions", "leads"}
    with pytest.raises(NotFoundError):
        store.graph("Nobody")
