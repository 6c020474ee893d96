"""gc, promotion to a Markdown vault, deterministic clusters and consolidation with provenance."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from mnemex import MemoryStore, NotFoundError
from tests.conftest import FakeClock


def test_gc_dry_run_lists_and_apply_archives(mem_store: MemoryStore, clock: FakeClock) -> None:
    faded = mem_store.save("a passing thought", strength=0.5)
    clock.advance(days=60)
    kept = mem_store.save("a fresh thought")
    report = mem_store.gc()
    assert report.dry_run and [c.id for c in report.candidates] == [faded.id]
    assert mem_store.get(faded.id).status == "active"
    applied = mem_store.gc(dry_run=False)
    assert applied.affected == 1
    assert mem_store.get(faded.id).status == "archived"
    assert mem_store.get(kept.id).status == "active"
    assert mem_store.restore(faded.id).status == "active"


def test_gc_hard_deletes_only_when_asked(mem_store: MemoryStore, clock: FakeClock) -> None:
    faded = mem_store.save("gone soon", strength=0.2)
    clock.advance(days=90)
    mem_store.gc(dry_run=False, hard=True)
    with pytest.raises(NotFoundError):
        mem_store.get(faded.id)


def test_fresh_never_used_memory_does_not_qualify_for_promotion(mem_store: MemoryStore) -> None:
    mem_store.save("brand new and strong", strength=2.0)
    assert mem_store.promote(auto=True).candidates == []


def test_promotion_criteria(mem_store: MemoryStore, clock: FakeClock) -> None:
    strong = mem_store.save("strong and used once", strength=1.5)
    mem_store.touch(strong.id)
    busy = mem_store.save("weak but used a lot", strength=0.3)
    for _ in range(5):
        clock.advance(days=1)
        mem_store.touch(busy.id)
    weak = mem_store.save("weak and used once", strength=0.3)
    mem_store.touch(weak.id)
    ids = {c.id for c in mem_store.promote(auto=True).candidates}
    assert ids == {strong.id, busy.id}


def test_promote_writes_a_note_with_yaml_front_matter_and_wikilinks(
    mem_store: MemoryStore,
) -> None:
    saved = mem_store.save(
        'Decision: "Postgres: yes" --- use it for #billing',
        tags=["decision", "db"],
        entities=["Postgres", "Billing [v2]"],
        strength=1.8,
    )
    mem_store.touch(saved.id)
    report = mem_store.promote(saved.id, dry_run=False)
    path = report.notes[saved.id]
    text = Path(path).read_text(encoding="utf-8")
    _, front, body = text.split("---\n", 2)
    meta = yaml.safe_load(front)
    assert meta["id"] == saved.id
    assert meta["tags"] == ["decision", "db"]
    assert 'Decision: "Postgres: yes" --- use it for #billing' in body
    assert "[[Postgres]]" in body and "[[Billing  v2]]" in body
    memory = mem_store.get(saved.id)
    assert memory.status == "promoted" and memory.vault_path == path
    assert [h.memory.id for h in mem_store.search("postgres")] == [saved.id]


def test_cluster_ids_are_deterministic_and_consolidate_keeps_provenance(
    mem_store: MemoryStore,
) -> None:
    a = mem_store.save(
        "The team standup is at 9:30 every weekday", tags=["team"], entities=["Standup"]
    )
    b = mem_store.save("Team standup is at 9:30 every weekday morning", tags=["schedule"])
    mem_store.save("Completely unrelated note about gardening tomatoes")
    first = mem_store.cluster(threshold=0.6)
    again = mem_store.cluster(threshold=0.6)
    assert [c.id for c in first] == [c.id for c in again]
    cluster = first[0]
    assert set(cluster.member_ids) == {a.id, b.id}
    preview = mem_store.consolidate(cluster.id, threshold=0.6)
    assert preview.dry_run and preview.memory_id is None
    assert mem_store.get(a.id).status == "active"
    merged = mem_store.consolidate(cluster.id, threshold=0.6, dry_run=False)
    assert merged.memory_id is not None
    new = mem_store.get(merged.memory_id)
    assert "9:30 every weekday" in new.content
    assert set(new.tags) == {"team", "schedule"} and new.entities == ["Standup"]
    assert new.meta["consolidated_from"] == sorted([a.id, b.id])
    assert {mem_store.get(a.id).status, mem_store.get(b.id).status} == {"archived"}
    with mem_store.backend.read(mem_store.tenant) as tx:
        edges = tx.relations_of([merged.memory_id])
    assert {(e.type, e.to_id) for e in edges} == {
        ("consolidated_from", a.id),
        ("consolidated_from", b.id),
    }


def test_consolidate_unknown_cluster_is_not_found(mem_store: MemoryStore) -> None:
    with pytest.raises(NotFoundError):
        mem_store.consolidate("cl_0000000000000000")


def test_consolidate_hands_the_sources_facts_to_the_merged_memory(mem_store: MemoryStore) -> None:
    a = mem_store.save(
        "Dana's editor is Helix, says the team wiki",
        subject="Dana",
        relation="editor",
        value="Helix",
    )
    # (a clause that restates nothing, so the save is a memory of its own, not a restatement)
    b = mem_store.save("Dana's editor is Helix, the team wiki says; ask her about it")
    cluster = next(c for c in mem_store.cluster(threshold=0.6) if a.id in c.member_ids)
    assert b.id in cluster.member_ids
    merged = mem_store.consolidate(cluster.id, threshold=0.6, dry_run=False)
    (fact,) = mem_store.facts("Dana", "editor")
    assert fact.object == "Helix" and fact.memory_id == merged.memory_id
    hits = mem_store.search("Which editor does Dana use?", k=3)
    assert hits[0].memory.id == merged.memory_id
