"""Search (lexical first cut): plain words only, every live memory, filters, temporal blend."""

from __future__ import annotations

import pytest

import mnemex
from bench.corpus import sentences
from mnemex import MemoryStore, Settings
from tests.conftest import FakeClock
from tests.fakes import HASH_MODEL

HOSTILE = [
    '"unbalanced quote',
    "wild*card*",
    "cats AND dogs",
    "NEAR(cats dogs",
    "((((",
    ")",
    "OR",
    "NOT cats",
    "col:umn",
    "^start",
    "🙂🚀 cats",
    "🙂",
    "-",
    "cats + dogs - fish",
    "'single' \"double\"",
    "a" * 500,
    "",
    "   ",
]


@pytest.mark.parametrize("query", HOSTILE)
def test_user_text_never_raises_an_fts_error(store: MemoryStore, query: str) -> None:
    store.save("cats and dogs live together; NEAR the fish tank (not really)")
    store.search(query)  # must not raise


def test_operators_search_as_plain_words(store: MemoryStore) -> None:
    saved = store.save("NEAR is a word and AND is too")
    assert [h.memory.id for h in store.search("NEAR(")] == [saved.id]
    assert [h.memory.id for h in store.search('"AND"')] == [saved.id]


def test_emoji_and_punctuation_around_words_still_match(store: MemoryStore) -> None:
    saved = store.save("Deploy window is Friday 🚀")
    assert [h.memory.id for h in store.search("🚀 friday!!!")] == [saved.id]


def test_stemming_matches_word_forms(store: MemoryStore) -> None:
    saved = store.save("She was running the migrations")
    assert [h.memory.id for h in store.search("run migration")] == [saved.id]


@pytest.mark.parametrize("model", [HASH_MODEL, "none"])
def test_a_memory_saved_a_second_ago_is_found_among_10000(
    settings: Settings, clock: FakeClock, model: str
) -> None:
    """The whole retrieval engine (fusion, vector channel, filters) at 10k; a cheap model keeps
    it fast, and the ledger's reading of each sentence (its parse, the statement reader: about
    10 ms a sentence here, tested in tests/ledger) is left out."""
    quick = settings.replace(
        embed_model=model, ledger_parse=False, ledger_resolve=False, assertion_veto=0.0
    )
    with mnemex.open(":memory:", settings=quick, clock=clock) as store:
        texts = sentences(10_000, seed=3)
        for offset in range(0, len(texts), 2_000):
            store.save_many([{"content": t} for t in texts[offset : offset + 2_000]])
        clock.advance(days=30)  # the corpus is old and unused; the new memory is not special
        target = store.save("The staging database password rotates on quokkaday")
        clock.advance(seconds=1)
        hits = store.search("quokkaday", k=10)
        assert hits and hits[0].memory.id == target.id


def test_old_memories_are_found_too_not_just_a_recent_window(
    mem_store: MemoryStore, clock: FakeClock
) -> None:
    old = mem_store.save("The original office was in Lisbon")
    clock.advance(days=400)
    mem_store.save_many([{"content": f"recent note {i}"} for i in range(300)])
    assert [h.memory.id for h in mem_store.search("lisbon")] == [old.id]


def test_filters_tags_status_and_window(mem_store: MemoryStore, clock: FakeClock) -> None:
    old = mem_store.save("quarterly budget review", tags=["finance"])
    clock.advance(days=10)
    new = mem_store.save("budget for the offsite", tags=["events"])
    assert [h.memory.id for h in mem_store.search("budget", tags=["finance"])] == [old.id]
    assert [h.memory.id for h in mem_store.search("budget", window_days=5)] == [new.id]
    mem_store.forget(old.id)
    assert [h.memory.id for h in mem_store.search("budget")] == [new.id]
    assert [h.memory.id for h in mem_store.search("budget", status="deleted")] == [old.id]


def test_entity_filter(mem_store: MemoryStore) -> None:
    a = mem_store.save("Priya reviewed the design", entities=["Priya"])
    mem_store.save("Omar reviewed the design", entities=["Omar"])
    assert [h.memory.id for h in mem_store.search("design", entity="priya")] == [a.id]
    assert mem_store.search("design", entity="Nobody") == []


def test_temporal_score_breaks_ties_between_equal_matches(
    mem_store: MemoryStore, clock: FakeClock
) -> None:
    stale = mem_store.save("the release checklist lives in the wiki")
    clock.advance(days=1)
    fresh = mem_store.save("the release checklist lives in the handbook")  # not a duplicate
    clock.advance(days=20)
    mem_store.touch(fresh.id)
    hits = mem_store.search("release checklist", explain=True)
    assert [h.memory.id for h in hits] == [fresh.id, stale.id]
    assert {"bm25", "temporal"} <= set(hits[0].channels)
    assert hits[0].memory.score > hits[1].memory.score


def test_more_relevant_beats_more_recent(mem_store: MemoryStore, clock: FakeClock) -> None:
    relevant = mem_store.save("kubernetes upgrade plan: kubernetes 1.31 then kubernetes 1.32")
    clock.advance(days=30)
    mem_store.save("lunch menu; someone mentioned kubernetes once among many other words here")
    assert mem_store.search("kubernetes upgrade")[0].memory.id == relevant.id


def test_k_is_bounded(mem_store: MemoryStore) -> None:
    from mnemex import InvalidInputError

    with pytest.raises(InvalidInputError) as info:
        mem_store.search("x", k=0)
    assert info.value.field == "k"


def test_recall_returns_an_injectable_block(mem_store: MemoryStore) -> None:
    mem_store.save("Prefers tabs over spaces", tags=["style"])
    recall = mem_store.recall("tabs or spaces?")
    assert recall.block.startswith("<recalled-memory>")
    assert "Prefers tabs over spaces" in recall.block
    assert recall.block.endswith("</recalled-memory>")
    assert mem_store.recall("zebra").block == ""


def test_review_blend_gives_slots_to_danger_zone_memories(
    settings: Settings, clock: FakeClock
) -> None:
    blended = settings.replace(review_blend=0.5)
    with mnemex.open(":memory:", settings=blended, clock=clock) as store:
        fading = store.save("garden notes: prune the roses", strength=1.0)
        store.update(
            fading.id, kind="note"
        )  # a plain note's half-life, whatever the kind model says
        clock.advance(days=9)  # power law: score ~0.24, inside the danger zone
        fresh = [store.save(f"garden notes: water bed {i} daily garden notes").id for i in range(4)]
        assert store.decay.in_danger_zone(store.get(fading.id).score)
        ids = [h.memory.id for h in store.search("garden notes", k=2)]
        assert ids[0] in fresh and ids[1] == fading.id
    with mnemex.open(":memory:", settings=settings, clock=clock) as plain:
        plain.save("garden notes: prune the roses")
        assert len(plain.search("garden notes", k=2)) == 1


def test_recall_leaves_out_what_only_context_pulled_in(mem_store: MemoryStore) -> None:
    saved = mem_store.save("The VPN certificate expires in March")
    neighbour = mem_store.save("Lunch options near the office")
    hits = mem_store.search("vpn certificate")
    assert hits[0].memory.id == saved.id
    block = mem_store.recall("vpn certificate?").block
    assert saved.id in block and neighbour.id not in block


def test_live_matches_are_found_behind_many_stronger_forgotten_ones(mem_store: MemoryStore) -> None:
    # More forgotten memories outrank the live ones than the fast path's window holds (4 x the
    # 100 candidates): the ranking must still reach the live ones, in BM25 order.
    gone = mem_store.save_many([{"content": f"rollout rollout rollout {i}"} for i in range(450)])
    for result in gone:
        mem_store.forget(result.id)
    texts = (  # distinct enough not to fold as duplicates of one another
        "rollout notes for the billing team and more words",
        "the search squad wrote a rollout plan last spring",
        "mobile folks keep their rollout review in a shared doc",
    )
    live = [mem_store.save(text).id for text in texts]
    best = mem_store.save("rollout rollout notes").id
    found = [hit.memory.id for hit in mem_store.search("rollout", k=10)]
    assert found[0] == best and sorted(found[1:]) == sorted(live)


def test_search_fills_a_short_list_when_nothing_is_close_in_meaning(
    mem_store: MemoryStore, clock: FakeClock
) -> None:
    """A question that shares no word with its answer, whose cosine sits just under the vector
    floor (0.247 here), is still answered by search, ranked after every hit that passed the
    floors and marked as a fill; recall, which injects into a prompt, takes no fill."""
    language = mem_store.save("I'm learning Tamil on Duolingo so I can talk to Paati properly.")
    clock.advance(days=1)  # apart, so no episode links the two
    job = mem_store.save("Jonah started his new job as a practice nurse at a GP surgery.")
    question = "Why did I start that language app?"  # "start" finds the job by its word
    hits = mem_store.search(question, k=5, explain=True)
    assert [h.memory.id for h in hits] == [job.id, language.id]
    assert "fill" in hits[1].channels and "fill" not in hits[0].channels
    assert hits[1].score <= hits[0].score
    assert [h.memory.id for h in mem_store.search(question, fill=False)] == [job.id]
    assert [h.memory.id for h in mem_store.recall(question).hits] == [job.id]
    alone = mem_store.search("Why did I begin that language app?", k=5)
    assert [h.memory.id for h in alone] == [language.id]
    assert mem_store.search("quantum chromodynamics lecture") == []  # nothing near: no fill


def test_a_query_that_found_something_close_takes_no_fill(
    settings: Settings, clock: FakeClock
) -> None:
    """The fill is for a query the embeddings found nothing close to: with a hit above the
    floor the list stays short; and at fill_floor = vector_floor there is no fill at all."""
    with mnemex.open(":memory:", settings=settings, clock=clock) as store:
        office = store.save("The original office was in Lisbon")
        clock.advance(days=1)  # apart, so no episode links the two
        store.save("I'm learning Tamil on Duolingo so I can talk to Paati properly.")
        assert [h.memory.id for h in store.search("Which city was the first office in?")] == [
            office.id
        ]
    off = settings.replace(fill_floor=settings.vector_floor)
    with mnemex.open(":memory:", settings=off, clock=clock) as store:
        store.save("I'm learning Tamil on Duolingo so I can talk to Paati properly.")
        assert store.search("Why did I begin that language app?") == []


def test_the_answer_read_time_resolution_puts_first_says_so_and_scores_first(
    mem_store: MemoryStore,
) -> None:
    """An older statement closer in wording to the question scores higher; read-time
    resolution answers with the later one: it comes first with the list's best score, and
    explain names `resolution` as the reason."""
    mem_store.save("Tom drives a Volkswagen Golf.", observed_at="2025-01-10")
    later = mem_store.save(
        "Tom traded the hatchback in for a Tesla Model 3.", observed_at="2025-09-02"
    )
    hits = mem_store.search("What car does Tom drive?", k=3, explain=True)
    assert hits[0].memory.id == later.id and "resolution" in hits[0].channels
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    assert all("resolution" not in h.channels for h in hits[1:])
