"""A name written before anything recognised it joins the entity created later."""

from __future__ import annotations

from mnemex import MemoryStore
from mnemex.graph import backlink


def _entities(store: MemoryStore, memory_id: str) -> list[str]:
    memory = store.get(memory_id)
    assert memory is not None
    return memory.entities


def test_an_earlier_lowercase_name_is_linked_when_the_entity_appears(store: MemoryStore) -> None:
    first = store.save("Bernie put a note on healthroster about my nights").id
    later = store.save("Rota for March is up on HealthRoster: nights 4th to 7th").id
    assert "HealthRoster" in _entities(store, later)
    assert "HealthRoster" in _entities(store, first)
    found = {hit.memory.id for hit in store.search("rota", entity="HealthRoster", k=10)}
    assert first in found


def test_a_dictionary_word_in_another_case_stays_a_word(store: MemoryStore) -> None:
    first = store.save("We had a frank talk about the budget over lunch").id
    store.save("Frank Delaney is the new finance director at Corvid")
    store.save("Ask Frank about the Q3 numbers")
    assert not any("Frank" in name for name in _entities(store, first))


def test_a_word_of_a_longer_linked_name_is_not_that_name() -> None:
    text = "Lorraine is running the Breathe Easy VAP audit again"
    assert backlink._inside_linked(["Breathe", "Easy"], ["Breathe Easy VAP audit"])
    assert not backlink._inside_linked(["Breathe", "Easy"], ["Lorraine"])
    # a word of a longer capitalised name is not the shorter name
    assert not backlink._writes(text, ["Breathe", "Easy"], frozenset(), exact_only=True)
    assert backlink._writes("the Breathe Easy numbers", ["Breathe", "Easy"], frozenset(), True)
    assert not backlink._writes("Longmeadow Dairy", ["Longmeadow"], frozenset(), True)
    # another case counts only with a word no dictionary has
    assert not backlink._writes(
        "breathe easy", ["Breathe", "Easy"], frozenset({"breathe", "easy"}), exact_only=False
    )
    assert backlink._writes("zoe's shift", ["Zoë"], frozenset(), exact_only=False)
    assert not backlink._writes("zoe's shift", ["Zoë"], frozenset(), exact_only=True)
