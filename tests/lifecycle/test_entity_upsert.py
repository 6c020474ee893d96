"""MemoryStore.upsert_entities (direct entity upkeep) and MemoryStore.memories (listing)."""

from __future__ import annotations

import pytest

from mnemex import InvalidInputError, MemoryStore
from tests.conftest import FakeClock


def test_upsert_matches_names_ignoring_case_and_merges(store: MemoryStore) -> None:
    first = store.upsert_entities([{"name": "Atlas", "tags": ["q3"], "details": {"owner": "A"}}])
    assert first.created == [first.entities[0].id]
    again = store.upsert_entities(
        [{"name": "ATLAS", "category": "project", "tags": ["crm"], "details": {"repo": "x"}}]
    )
    (atlas,) = again.entities
    assert again.created == [] and atlas.id == first.entities[0].id
    assert atlas.name == "Atlas" and atlas.category == "project"
    assert atlas.tags == ["q3", "crm"]
    # a category given here is a person's: enrichment never overrides it (the mark says so)
    assert atlas.details == {"owner": "A", "repo": "x", "category_set_by": "user"}


def test_upsert_adds_aliases_and_relationships(store: MemoryStore) -> None:
    report = store.upsert_entities(
        [{"name": "Atlas", "aliases": ["Project Atlas"]}],
        [{"from_entity": "Mateo", "to_entity": "project atlas", "relation_type": "Leads Team"}],
    )
    (relation,) = report.relations
    assert relation.type == "leads_team" and relation.to_id == report.entities[0].id
    assert len(report.created) == 2  # Atlas, and Mateo created by the relationship
    graph = store.graph("Project Atlas", depth=1)
    assert {node.label for node in graph.nodes} == {"Atlas", "Mateo"}
    with store.backend.read(store.tenant) as tx:  # names and aliases in one lookup
        found = tx.entity_ids(["PROJECT ATLAS", "atlas", "Mateo", "Nobody"])
    atlas = report.entities[0].id
    assert found == {"PROJECT ATLAS": atlas, "atlas": atlas, "Mateo": found["Mateo"]}
    assert found["Mateo"] != atlas


@pytest.mark.parametrize(
    ("entities", "relationships", "field"),
    [
        ([{"name": "x"}] * 101, None, "entities"),
        ([{"name": "x", "colour": "red"}], None, "entities[0].colour"),
        ([{"name": ""}], None, "entities[0].name"),
        ([], [{"from_entity": "a", "to_entity": "b"}], "relationships[0].relation_type"),
        ([], [], "entities"),
        ("Atlas", None, "entities"),
    ],
)
def test_upsert_checks_everything_before_writing(
    store: MemoryStore, entities: object, relationships: object, field: str
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        store.upsert_entities(entities, relationships)  # type: ignore[arg-type]
    assert caught.value.field == field
    assert store.entities() == []


def test_memories_lists_recently_used_first_a_page_at_a_time(
    store: MemoryStore, clock: FakeClock
) -> None:
    ids = [r.id for r in store.save_many([{"content": f"note {i}"} for i in range(5)])]
    clock.advance(hours=1)
    store.touch(ids[0])
    first = store.memories(limit=2)
    assert first[0].id == ids[0] and len(first) == 2
    rest = store.memories(limit=10, offset=2)
    assert len(rest) == 3 and not {m.id for m in first} & {m.id for m in rest}
    store.forget(ids[1])
    assert [m.id for m in store.memories(status="deleted")] == [ids[1]]
    with pytest.raises(InvalidInputError):
        store.memories(offset=-1)
