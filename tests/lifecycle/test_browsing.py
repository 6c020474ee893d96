"""The browsing side of the facade: filtered pages, id prefixes, the audit log, one entity, the
whole-store graph with its dates, pins that gc respects, and what gc says is nearing."""

from __future__ import annotations

import pytest

from mnemex import InvalidInputError, MemoryStore, NotFoundError
from tests.conftest import FakeClock


def test_memories_filter_by_entity_source_strength_and_order(
    mem_store: MemoryStore, clock: FakeClock
) -> None:
    old = mem_store.save("Old note about Atlas", entities=["Atlas"], source="chat", strength=0.4)
    clock.advance(days=1)
    new = mem_store.save("New note", source="notes", strength=1.6, observed_at="2025-06-01")
    clock.advance(hours=1)
    mem_store.touch(old.id)
    assert [m.id for m in mem_store.memories()] == [old.id, new.id]  # last used first
    assert [m.id for m in mem_store.memories(order="created")] == [old.id, new.id]
    assert [m.id for m in mem_store.memories(entity="atlas")] == [old.id]
    assert mem_store.memories(entity="Nobody") == []
    assert [m.id for m in mem_store.memories(source="notes")] == [new.id]
    assert [m.id for m in mem_store.memories(min_strength=1.0)] == [new.id]
    assert [m.id for m in mem_store.memories(max_strength=1.0)] == [old.id]
    with pytest.raises(InvalidInputError, match="order"):
        mem_store.memories(order="random")
    with pytest.raises(InvalidInputError, match="min_strength"):
        mem_store.memories(min_strength=5)


def test_resolve_id_by_unique_prefix(mem_store: MemoryStore) -> None:
    a = mem_store.save("first").id
    b = mem_store.save("second").id
    shared = next(i for i in range(len(a)) if a[i] != b[i])
    assert mem_store.resolve_id(a[: shared + 1]) == a
    assert mem_store.resolve_id(a) == a
    with pytest.raises(InvalidInputError, match="several memories"):
        mem_store.resolve_id(a[:shared])
    with pytest.raises(NotFoundError):
        mem_store.resolve_id("mem_zzz")
    assert mem_store.for_tenant("other").memories() == []
    with pytest.raises(NotFoundError):  # another tenant's ids are not found by prefix
        mem_store.for_tenant("other").resolve_id(a)


def test_pinned_memories_are_never_collected(mem_store: MemoryStore, clock: FakeClock) -> None:
    kept = mem_store.save("Carol is allergic to peanuts")
    gone = mem_store.save("Lunch was a falafel wrap")
    fading = mem_store.save("The printer on floor 3 jams")
    mem_store.pin(kept.id)
    clock.advance(days=400)
    mem_store.touch(fading.id)
    # One use, 30 days ago (a use after 400 days stretched its half-life x2.5): in the danger
    # zone, not yet below it.
    clock.advance(days=30)
    report = mem_store.gc()
    assert [c.id for c in report.candidates] == [gone.id]
    assert fading.id in [c.id for c in report.nearing]
    assert kept.id not in [c.id for c in report.candidates + report.nearing]
    mem_store.gc(dry_run=False)
    assert mem_store.get(kept.id).status == "active"
    assert mem_store.get(gone.id).status == "archived"
    assert "pinned" not in mem_store.pin(kept.id, pinned=False).tags
    kinds = [e.kind for e in mem_store.events(limit=20)]
    assert kinds[0] == "unpin" and "pin" in kinds and "gc" in kinds
    assert [e.kind for e in mem_store.events(kind="pin")] == ["pin"]


def test_the_whole_graph_keeps_expired_entities_with_their_dates(mem_store: MemoryStore) -> None:
    mem_store.save("Mateo leads Atlas", entities=["Mateo", "Atlas"])
    mem_store.save("Mateo reviewed Atlas again", entities=["Mateo", "Atlas"])
    mem_store.relate("Mateo", "Atlas", "leads")
    whole = mem_store.graph()
    nodes = {n.label: n for n in whole.nodes}
    assert nodes["Mateo"].mentions == 2 and nodes["Mateo"].created_at is not None
    assert [e.type for e in whole.edges] == ["leads"]
    assert mem_store.entity("mateo").name == "Mateo"
    with pytest.raises(NotFoundError):
        mem_store.entity("Nobody")
    with pytest.raises(InvalidInputError, match="limit"):
        mem_store.graph(limit=0)
    assert len(mem_store.graph(limit=1).nodes) == 1
    atlas = mem_store.entity("Atlas")
    with mem_store.backend.write(mem_store.tenant) as tx:  # as graph upkeep expires one
        tx.update_entity(atlas.id, {"expired_at": mem_store.now()})
    expired = {n.label: n for n in mem_store.graph().nodes}["Atlas"]
    assert expired.expired_at == mem_store.now()
