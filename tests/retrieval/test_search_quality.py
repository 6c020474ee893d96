"""Ranking signals end to end: entities, named periods, when-questions, episodes, context."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import mnemex
from mnemex import MemoryStore, Settings
from tests.conftest import FakeClock
from tests.fakes import HASH_MODEL


@pytest.fixture
def store(settings: Settings, clock: FakeClock) -> Iterator[MemoryStore]:
    """Ranking signals in isolation: no enrichment (its tags would be matched lexically too)."""
    isolated = settings.replace(embed_model=HASH_MODEL, analysis_enrich=False)
    with mnemex.open(":memory:", settings=isolated, clock=clock) as s:
        yield s


def _ids(hits: list[mnemex.SearchHit]) -> list[str]:
    return [hit.memory.id for hit in hits]


def test_the_entity_a_query_names_wins_a_tie(store: MemoryStore, clock: FakeClock) -> None:
    bob = store.save("Bob: the build broke on the release branch").id
    clock.advance(hours=2)
    alice = store.save("Alice: the build broke on the release branch").id
    clock.advance(hours=2)
    assert _ids(store.search("what broke for bob"))[0] == bob
    hits = store.search("what broke for Alice", explain=True)
    assert hits[0].memory.id == alice and "graph" in hits[0].channels


def test_a_named_date_favours_memories_observed_then(store: MemoryStore, clock: FakeClock) -> None:
    may = store.save("standup: the parser refactor is done", observed_at="2023-05-08T10:00:00Z").id
    clock.advance(hours=2)
    store.save("standup: the parser refactor is done!", observed_at="2023-09-20T10:00:00Z")
    clock.advance(hours=2)
    hits = store.search("parser refactor on 8 May, 2023", explain=True)
    assert hits[0].memory.id == may and "period" in hits[0].channels


def test_a_when_question_favours_memories_that_say_when(
    store: MemoryStore, clock: FakeClock
) -> None:
    store.save("Alice: my Oslo trip was wonderful")
    clock.advance(hours=2)
    dated = store.save("Alice: my Oslo trip was last weekend").id
    clock.advance(hours=2)
    assert _ids(store.search("When was Alice's Oslo trip?"))[0] == dated


def test_the_reply_next_to_a_match_is_found(store: MemoryStore, clock: FakeClock) -> None:
    question = store.save("Bob: which text editor do you use these days?").id
    answer = store.save("Alice: Neovim, every day").id
    clock.advance(hours=2)
    store.save_many([{"content": f"Carol: unrelated note {n}"} for n in range(20)])
    hits = store.search("text editor", explain=True)
    assert _ids(hits)[:2] == [question, answer]
    assert "episode" in hits[1].channels and "bm25" not in hits[1].channels


def test_memories_joining_through_context_still_obey_filters(
    store: MemoryStore, clock: FakeClock
) -> None:
    question = store.save("Bob: which text editor do you use?", tags=["tools"]).id
    store.save("Alice: Neovim, every day", tags=["chat"])
    assert _ids(store.search("text editor", tags=["tools"])) == [question]
    assert _ids(store.search("text editor", window_days=1, as_of=clock.now)) != []


def test_conversation_context_biases_the_ranking(settings: Settings, clock: FakeClock) -> None:
    config = settings.replace(embed_model=HASH_MODEL, context_weight=2.0, neighbour_weight=0.0)
    with mnemex.open(":memory:", settings=config, clock=clock) as store:
        garden = store.save("the plan: prune roses, water tomatoes").id
        clock.advance(hours=2)
        deploy = store.save("the plan: deploy friday, freeze monday").id
        clock.advance(hours=2)
        assert _ids(store.search("the plan", context="roses tomatoes garden beds"))[0] == garden
        assert _ids(store.search("the plan", context="deploy freeze release"))[0] == deploy


def test_mmr_diversity_skips_near_repeats(settings: Settings, clock: FakeClock) -> None:
    config = settings.replace(embed_model="none", mmr_trade_off=0.3, neighbour_weight=0.0)
    with mnemex.open(":memory:", settings=config, clock=clock) as store:
        first = store.save("kubernetes upgrade plan for the cluster").id
        store.save("kubernetes upgrade plan for the cluster!")
        other = store.save("kubernetes upgrade done, thanks").id
        assert _ids(store.search("kubernetes upgrade plan", k=2)) == [first, other]
