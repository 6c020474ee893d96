"""Intent classifier and importance scorer."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemex.analysis import importance, intent, lifetime
from mnemex.analysis.phrases import Phrases, detect
from mnemex.embed import load_embedder


def test_shipped_model_loads_with_every_intent() -> None:
    labels, models, meta = intent.load()
    assert labels == list(intent.INTENTS)
    assert set(models) == {"embed", "lexical"}
    assert meta["examples"] >= 2000


def test_probabilities_are_a_distribution_for_both_models() -> None:
    embedder = load_embedder("minilm-int8")
    assert embedder is not None
    text = "We decided to move the API to Rust"
    for vector in (None, embedder.embed([text])[0]):
        guess = intent.predict(text, vector)
        assert math.isclose(sum(guess.probabilities.values()), 1.0, abs_tol=1e-3)
        assert guess.confidence == max(guess.probabilities.values()) or math.isclose(
            guess.confidence, max(guess.probabilities.values()), abs_tol=1e-4
        )
        assert guess.intent == "SAVE_DECISION"


def test_clear_cases_of_each_intent() -> None:
    embedder = load_embedder("minilm-int8")
    assert embedder is not None
    cases = {
        "I can't stand cold showers": "SAVE_PREFERENCE",
        "Hi! How are you?": "GREETING",
        "What is the boiling point of water?": "QUESTION",
        "Do you remember which hotel I booked?": "RECALL_INFO",
    }
    vectors = embedder.embed(list(cases))
    for (text, expected), vector in zip(cases.items(), vectors, strict=True):
        assert intent.predict(text, vector).intent == expected


def test_strength_from_intent_base_and_strongest_keyword() -> None:
    plain = Phrases()
    assert importance.strength("SAVE_DECISION", plain) == 1.3
    assert importance.strength("SAVE_PREFERENCE", plain) == 1.1
    assert importance.strength("SAVE_FACT", plain) == 1.0
    assert importance.strength("GREETING", plain) == 1.0
    critical = detect("critical and important: remember the prod password rotates")
    assert importance.strength("SAVE_DECISION", critical) == 1.8  # 1.3 + strongest (0.5)
    assert importance.strength("SAVE_FACT", detect("not important: the cafe closes at 5")) == 0.7


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200), st.sampled_from([*intent.INTENTS, "NONE"]))
def test_strength_is_clamped_and_deterministic(text: str, kind: str) -> None:
    first = importance.strength(kind, detect(text))
    assert 0.0 <= first <= 2.0
    assert importance.strength(kind, detect(text)) == first


class _Sure:
    """A request check that is 0.995 sure of everything."""

    def read(self, texts: list[str]) -> list[float]:
        return [0.995 for _ in texts]


def test_a_message_not_said_to_the_assistant_needs_the_request_check_surer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Between the two cuts, "Log a migraine ..." (opens on a verb of keeping) and "could you
    hang onto ..." (names the assistant) are requests; a note to self is not."""
    monkeypatch.setattr(lifetime, "request_reader", lambda: (_Sure(), (0.99, 0.998)))
    vector = np.zeros(384, dtype=np.float32)

    def asks(text: str) -> bool:
        return lifetime.learned_request(text, detect(text), vector)

    assert asks("Log a migraine for today, started around 2pm")
    assert asks("reckon you could hang onto my gate code, 4471")
    assert not asks("hire van from Northgate till the new one comes")
    assert not asks("GP put my ramipril up to 10mg once a day")
    # A heading is not a verb said to anyone, and "U.S." does not name the assistant.
    assert not asks("Update: the standup moves to 9:30 on Mondays")
    assert not asks("moving to the U.S. in spring for the new job")
    assert asks("u mind keeping my locker number, 112")
    monkeypatch.setattr(lifetime, "request_reader", lambda: (_Sure(), (0.99, 0.99)))
    assert asks("hire van from Northgate till the new one comes")


class _Reads:
    """A lasting check that reads every text as `p`."""

    def __init__(self, p: float) -> None:
        self.p = p

    def read(self, texts: list[str]) -> list[float]:
        return [self.p for _ in texts]


def test_the_fine_tuned_check_adds_protection_and_never_takes_it_away(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lasting: the logistic model's P(lasting) at the floor whatever the check says, or the
    mean of the two at the floor; without the embedding model the logistic model decides."""
    floor = lifetime.LASTING_FLOOR
    vector = np.zeros(384, dtype=np.float32)
    text = "My sister's dog is called Pip."
    monkeypatch.setattr(lifetime, "lasting_reader", lambda: _Reads(0.0))
    assert lifetime.is_lasting(text, {"lasting": floor}, vector)  # the check cannot veto
    assert not lifetime.is_lasting(text, {"lasting": floor - 0.01}, vector)
    monkeypatch.setattr(lifetime, "lasting_reader", lambda: _Reads(floor + 0.2))
    assert lifetime.is_lasting(text, {"lasting": floor - 0.19}, vector)  # the mean reaches it
    assert not lifetime.is_lasting(text, {"lasting": floor - 0.21}, vector)
    assert not lifetime.is_lasting(text, {"lasting": floor - 0.19}, None)  # no embedding


def test_the_shipped_lasting_check_tells_a_lasting_fact_from_trivia() -> None:
    """Sentences written for this test, in no training file."""
    embedder = load_embedder("minilm-int8")
    assert embedder is not None
    cases = {
        "My partner is allergic to sesame, even a little sets her off.": "fact",
        "I'm vegetarian and have been for ten years.": "fact",
        "The parcel from the bike shop is stuck at the depot today.": "note",
        "Running ten minutes late, traffic on the ring road.": "note",
    }
    vectors = embedder.embed(list(cases))
    for (text, kind), vector in zip(cases.items(), vectors, strict=True):
        assert lifetime.lasting_reader() is not None
        got = lifetime.kind_of(text, intent=None, save_request=False, vector=vector)
        assert got == kind, text
