"""The memory graph: entity links kept in step with the store, and Personalized PageRank."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import mnemex
from mnemex import MemoryStore, Settings
from mnemex.retrieval.ppr import MemoryGraph, Neighbourhood, ppr
from tests.conftest import FakeClock


@pytest.fixture
def lexical_store(settings: Settings, clock: FakeClock) -> Iterator[MemoryStore]:
    with mnemex.open(":memory:", settings=settings.replace(embed_model="none"), clock=clock) as s:
        yield s


def _graph(store: MemoryStore) -> MemoryGraph:
    graph = store.engine.memory_graph(store.tenant)
    with store.backend.read(store.tenant) as tx:
        graph.sync(tx)
    return graph


def test_query_entities_are_found_in_any_case(lexical_store: MemoryStore) -> None:
    lexical_store.save("Alice: I moved to Lisbon with Bob Smith last year")
    graph = _graph(lexical_store)
    seeds = graph.query_entities("where does bob smith live, and alice?")
    names = {name for name, index in graph.entity_index.items() if index in seeds}
    assert names == {"bob smith", "alice"}
    assert graph.query_entities("where is the office") == []


def test_saved_entities_count_and_openers_need_confirmation(lexical_store: MemoryStore) -> None:
    lexical_store.save("Wombat deploys are on Fridays")  # a word opening a sentence: unsure
    graph = _graph(lexical_store)
    assert graph.query_entities("wombat") == []
    lexical_store.save("ops note", entities=["Wombat"])  # named with certainty elsewhere
    graph = _graph(lexical_store)
    assert len(graph.query_entities("wombat")) == 1


def test_ppr_prefers_the_subject_then_mentions_then_strangers(lexical_store: MemoryStore) -> None:
    subject = lexical_store.save("Alice: the build is green again").id
    mention = lexical_store.save("Bob: I asked Alice about the build").id
    stranger = lexical_store.save("Bob: lunch at noon").id
    graph = _graph(lexical_store)
    seeds = graph.query_entities("what did Alice say")
    mass = ppr(graph, seeds, _reach(graph, [subject, mention, stranger]), alpha=0.3, steps=3)
    assert mass[0] > mass[1] > mass[2] >= 0
    assert np.all(ppr(graph, [], _reach(graph, [subject]), alpha=0.3, steps=3) == 0)


def _reach(graph: MemoryGraph, *steps: list[str]) -> Neighbourhood:
    reach = Neighbourhood(graph)
    for ids in steps:
        reach.add(ids)
    return reach


def test_a_neighbourhood_gathered_in_steps_walks_like_one_gathered_at_once(
    lexical_store: MemoryStore,
) -> None:
    ids = [
        lexical_store.save(text).id
        for text in (
            "Alice: the build is green again",
            "Bob: I asked Alice about the build",
            "Carol and Bob moved the build to Jenkins",
            "Bob: lunch at noon",
        )
    ]
    graph = _graph(lexical_store)
    seeds = graph.query_entities("what did Alice say to Bob")
    whole = ppr(graph, seeds, _reach(graph, ids), alpha=0.3, steps=3)
    stepwise = _reach(graph, ids[:2], [ids[1], ids[3]], ids)  # repeats are taken once
    assert stepwise.ids == [ids[0], ids[1], ids[3], ids[2]]
    mass = ppr(graph, seeds, stepwise, alpha=0.3, steps=3)
    by_id = dict(zip(stepwise.ids, mass.tolist(), strict=True))
    assert [by_id[m] for m in ids] == pytest.approx(whole.tolist())
    assert whole.max() > 0


def test_forget_and_update_reach_the_graph(lexical_store: MemoryStore) -> None:
    saved = lexical_store.save("Met Carmen at the Porto meetup")
    graph = _graph(lexical_store)
    porto = graph.query_entities("porto")
    assert graph.expansion(porto) == [saved.id]
    lexical_store.update(saved.id, content="Met Carmen at the Vigo meetup")
    graph = _graph(lexical_store)
    assert graph.expansion(graph.query_entities("porto")) == []
    assert graph.expansion(graph.query_entities("vigo")) == [saved.id]
    lexical_store.forget(saved.id)
    graph = _graph(lexical_store)
    assert graph.expansion(graph.query_entities("vigo")) == []


def test_another_process_writes_are_seen(tmp_path: Path, clock: FakeClock) -> None:
    settings = Settings.load(env={}, data_dir=tmp_path, embed_model="none")
    path = str(tmp_path / "shared.db")
    with (
        mnemex.open(path, settings=settings, clock=clock) as reader,
        mnemex.open(path, settings=settings, clock=clock) as writer,
    ):
        writer.save("Talked to Farid about the Oslo trip")
        graph = _graph(reader)
        assert len(graph.expansion(graph.query_entities("oslo"))) == 1
        writer.save("Farid booked Oslo hotels")
        graph = _graph(reader)
        assert len(graph.expansion(graph.query_entities("oslo"))) == 2


def test_degrees_stay_the_sum_of_live_members_through_edits_and_forgets(
    lexical_store: MemoryStore,
) -> None:
    saved = [
        lexical_store.save(text, entities=names)
        for text, names in [
            ("Alice met Bob in Lisbon", ["Alice", "Bob"]),
            ("Bob moved to Porto", ["Bob"]),
            ("Alice and Carol run the Lisbon office", ["Alice", "Carol"]),
            ("Carol likes Porto", ["Carol"]),
        ]
    ]
    _graph(lexical_store)
    lexical_store.update(saved[0].id, content="Carol met Dan in Faro", entities=["Carol"])
    lexical_store.forget(saved[1].id)
    lexical_store.forget(saved[3].id, hard=True)
    graph = _graph(lexical_store)
    for index, members in enumerate(graph.members):
        assert graph.degree[index] == pytest.approx(sum(members.values()))
    bob = graph.entity_index["bob"]
    assert graph.members[bob] == {}  # the edit dropped Bob, the forget his other memory
