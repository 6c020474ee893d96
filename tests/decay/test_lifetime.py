"""Memory that lasts: kinds, spaced reinforcement, what gc may archive, duplicates folding."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

import mnemex
from mnemex import MemoryStore, Settings
from mnemex.analysis import phrases
from mnemex.decay import reinforce
from mnemex.decay.curve import Decay
from mnemex.decay.kinds import KINDS, LASTING_KINDS
from tests.conftest import FakeClock

NOTE = "The staging database password rotates every Monday morning"
PROMPT = "when does the staging database password rotate?"


def _year_of_daily_recalls(settings: Settings, clock: FakeClock) -> str:
    with mnemex.open(":memory:", settings=settings, clock=clock) as store:
        saved = store.save(NOTE)
        store.update(saved.id, kind="note")  # a plain note: the 3-day half-life
        for day in range(1, 366):
            clock.advance(days=1)
            assert [hit.memory.id for hit in store.recall(PROMPT).hits] == [saved.id]
            if day % 30 == 0:
                store.gc(dry_run=False)
        return store.get(saved.id).status


def test_a_memory_recalled_daily_survives_a_year_of_monthly_gc(
    settings: Settings, clock: FakeClock
) -> None:
    assert _year_of_daily_recalls(settings, clock) == "active"


def test_without_reinforcement_the_same_memory_is_archived(
    settings: Settings, clock: FakeClock
) -> None:
    with pytest.raises(AssertionError):  # recall stops finding it once gc archived it
        _year_of_daily_recalls(settings.replace(reinforcement=False), clock)


def test_recalls_count_lighter_than_observe_and_bursts_count_once(
    mem_store: MemoryStore, clock: FakeClock
) -> None:
    recalled = mem_store.save(NOTE)
    observed = mem_store.save("The staging database lives on host db-7 in rack 12")
    for memory_id in (recalled.id, observed.id):
        mem_store.update(memory_id, kind="note")
    clock.advance(days=3)
    mem_store.observe([observed.id])
    mem_store.recall(PROMPT)  # injects both; the observed one is inside its burst
    a, b = mem_store.get(recalled.id), mem_store.get(observed.id)
    assert 1.0 < a.stability < b.stability  # half a use against a whole one, same spacing
    clock.advance(minutes=5)
    mem_store.recall(PROMPT)  # within the 10-minute burst: counted once
    assert mem_store.get(recalled.id).use_count == a.use_count
    clock.advance(minutes=10)
    mem_store.recall(PROMPT)
    assert mem_store.get(recalled.id).use_count == a.use_count + 1


def test_gc_spares_requests_pins_and_current_values_and_logs_each_archive(
    mem_store: MemoryStore, clock: FakeClock
) -> None:
    request = mem_store.save("Remember that the on-call rotation swaps on Fridays")
    pinned = mem_store.save("the plumber is coming at 3 today")
    keyed = mem_store.save(
        "Dana's editor is Helix", subject="Dana", relation="editor", value="Helix"
    )
    trivia = mem_store.save("the coffee machine on floor 3 is broken again")
    for memory in (request, keyed, trivia):
        assert memory.memory.kind != "chatter"
    mem_store.pin(pinned.id)
    mem_store.update(keyed.id, kind="note")
    mem_store.update(trivia.id, kind="note")
    assert mem_store.get(request.id).kind == "request"
    assert mem_store.get(pinned.id).pinned
    clock.advance(days=40_000)  # every one of them far below the threshold
    report = mem_store.gc(dry_run=False)
    assert [c.id for c in report.candidates] == [trivia.id]
    assert report.spared == {"request": 1, "pinned": 1, "ledger": 1}
    archived = mem_store.events(kind="gc_archive")
    assert [(e.subject_id, e.payload["score"] < 0.05) for e in archived] == [(trivia.id, True)]


def test_gc_keeps_a_lasting_memory_until_something_supersedes_it(
    mem_store: MemoryStore, clock: FakeClock
) -> None:
    fact = mem_store.save("My sister is terrified of flying, so we always take the train")
    keys = {"subject": "team", "relation": "release_day"}
    decision = mem_store.save("We decided to keep the release train on Tuesdays")
    mem_store.update(fact.id, kind="fact", strength=0.05)  # weak, and a century old below
    mem_store.update(decision.id, kind="decision")
    clock.advance(days=36_500)
    report = mem_store.gc(dry_run=False)
    assert report.candidates == [] and report.spared == {"lasting": 2}
    old = mem_store.save("We ship on Tuesdays", value="Tuesday", **keys)
    new = mem_store.save("We ship on Thursdays now", value="Thursday", **keys)
    for memory in (old, new):
        mem_store.update(memory.id, kind="decision")
    clock.advance(days=36_500)
    report = mem_store.gc(dry_run=False)
    assert [c.id for c in report.candidates] == [old.id]  # its value was replaced: it may go
    assert report.spared == {"lasting": 2, "ledger": 1}


def test_the_same_sentence_saved_three_times_is_one_hit_with_its_repeats(
    mem_store: MemoryStore,
) -> None:
    first = mem_store.save("I'm vegetarian and have been for ten years")
    again = [mem_store.save("I'm vegetarian and have been for ten years") for _ in range(2)]
    assert {r.duplicate_of for r in again} == {first.id}
    hits = mem_store.search("am I vegetarian?", k=3)
    assert [hit.memory.id for hit in hits].count(first.id) == 1
    assert all(hit.memory.id not in {r.id for r in again} for hit in hits)
    assert hits[0].memory.id == first.id and hits[0].memory.repeat_count == 2


def test_a_pinned_tag_and_the_pinned_column_agree(mem_store: MemoryStore) -> None:
    saved = mem_store.save("the boiler code is 4471", tags=["pinned"])
    assert mem_store.get(saved.id).pinned
    assert not mem_store.update(saved.id, tags=["home"]).pinned
    assert mem_store.pin(saved.id).pinned and "pinned" in mem_store.get(saved.id).tags


@hsettings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    stability=st.floats(1.0, 50.0),
    uses=st.integers(0, 30),
    strength=st.floats(0.0, 2.0),
    days=st.floats(0.0, 2000.0),
    later=st.floats(0.0, 2000.0),
)
def test_decay_never_raises_a_score_without_use(
    kind: str, stability: float, uses: int, strength: float, days: float, later: float
) -> None:
    decay = Decay.from_settings(Settings.load(env={}))
    now = decay.score(uses, days, strength, kind, stability)
    assert decay.score(uses, days + later, strength, kind, stability) <= now + 1e-12


@hsettings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    stability=st.floats(1.0, 50.0),
    uses=st.integers(0, 30),
    gap_minutes=st.floats(0.0, 60 * 24 * 400),
    weight=st.sampled_from(["touch", "observe", "recall", "repeat"]),
)
def test_reinforcement_never_lowers_a_score(
    kind: str, stability: float, uses: int, gap_minutes: float, weight: str
) -> None:
    settings = Settings.load(env={})
    decay = Decay.from_settings(settings)
    clock = FakeClock()
    store = mnemex.open(":memory:", settings=settings.replace(embed_model="none"), clock=clock)
    with store:
        saved = store.save("a memory to reinforce").memory
        store.update(saved.id, kind=kind)
        memory = store.get(saved.id)
        memory.stability, memory.use_count = stability, uses
        clock.advance(minutes=gap_minutes)
        now = clock()
        before = decay.score(uses, gap_minutes / 1440.0, memory.strength, kind, stability)
        change = {
            "touch": lambda: reinforce.touched(memory, now, settings, boost=False),
            "observe": lambda: reinforce.observed(memory, set(), now, settings),
            "recall": lambda: reinforce.recalled(memory, now, settings),
            "repeat": lambda: reinforce.repeated(memory, now, settings),
        }[weight]()
        after_uses = change.get("use_count", uses)
        last = change.get("last_used", memory.last_used)
        age = (now - last) / timedelta(days=1)
        after = decay.score(
            after_uses, age, change.get("strength", memory.strength), kind,
            change.get("stability", stability),
        )  # fmt: skip
        # `before` reads the gap in float minutes, `after` from microsecond-rounded datetimes
        assert after >= before * (1 - 1e-9)


@hsettings(max_examples=25, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=6),
    pins=st.lists(st.booleans(), min_size=6, max_size=6),
    days=st.floats(0.0, 5000.0),
)
def test_a_protected_memory_is_never_archived(
    kinds: list[str], pins: list[bool], days: float
) -> None:
    clock = FakeClock()
    settings = Settings.load(env={}, embed_model="none")
    with mnemex.open(":memory:", settings=settings, clock=clock) as store:
        protected = set()
        for index, kind in enumerate(kinds):
            memory = store.save(f"memory number {index} about topic {index * 7}").memory
            store.update(memory.id, kind=kind)
            if pins[index]:
                store.pin(memory.id)
            if kind in LASTING_KINDS or pins[index]:  # lasting: nothing superseded them
                protected.add(memory.id)
        clock.advance(days=days)
        store.gc(dry_run=False)
        assert all(store.get(memory_id).status == "active" for memory_id in protected)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Please remember my mum's birthday is 14 March.", "request"),
        ("Log that we decided to move the retro to Thursdays.", "request"),
        ("My son is allergic to sesame.", "fact"),
        ("ok thanks", "chatter"),
        ("The coffee machine on floor 2 is broken again today.", "note"),
    ],
)
def test_a_saved_memory_gets_its_kind(mem_store: MemoryStore, text: str, kind: str) -> None:
    assert mem_store.save(text).memory.kind == kind


def test_look_alikes_are_not_requests(mem_store: MemoryStore) -> None:
    for text in (
        "I forgot to record the meeting yesterday.",
        "Remember when we went to Rome?",
        "Don't forget your umbrella is what my mum always says.",
        "We'll log the decision in Confluence.",
    ):
        assert not mem_store.analyze(text).save_request, text


def test_the_tuned_check_keeps_a_request_the_phrase_rules_miss(mem_store: MemoryStore) -> None:
    text = "Stick this somewhere safe: the boiler code is 4471."
    assert not phrases.detect(text).save_request
    assert mem_store.save(text).memory.kind == "request"


def test_a_request_asked_as_a_question_is_a_request_and_a_question_about_memory_is_not(
    mem_store: MemoryStore,
) -> None:
    """A question asking the assistant to keep something is read by the tuned check; one that
    asks about a memory, or asks nothing of the assistant, is not a request."""
    text = "Would you hang onto the fact that my gate code is 4521?"
    assert not phrases.detect(text).save_request
    assert mem_store.save(text).memory.kind == "request"
    for asked in (
        "Remember that time we missed the ferry to Skye?",
        "Can you remind me what my gate code is?",
        "Would you recommend Notion or Obsidian?",
    ):
        assert mem_store.save(asked).memory.kind != "request", asked


def test_spaced_uses_make_a_memory_last_and_promote_it(
    mem_store: MemoryStore, clock: FakeClock
) -> None:
    saved = mem_store.save("Juno's school is St Mary's on Park Lane")
    mem_store.update(saved.id, kind="note")
    for gap in (3, 7, 18):  # each use about when the memory would have halved
        clock.advance(days=gap)
        mem_store.observe([saved.id])
    memory = mem_store.get(saved.id)
    assert memory.stability >= mem_store.settings.reinforced_stability
    clock.advance(days=5000)  # far below the threshold by now, but reinforced
    report = mem_store.gc()
    assert saved.id not in [c.id for c in report.candidates] and report.spared == {"reinforced": 1}
    assert [c.id for c in mem_store.promote(auto=True).candidates] == [saved.id]
