"""Read-time resolution on hand-made candidates: which statement answers, at which time."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from mnemex import MemoryStore
from mnemex.embed import Embedder
from mnemex.ledger import assertion, attribute, resolve
from mnemex.ledger.resolve import Candidate, Mode
from tests.conftest import FakeClock

DAY = 86_400_000_000
RNG = np.random.default_rng(3)
PERSON = RNG.normal(size=16).astype(np.float32)  # what every statement about Dana shares
CAR, JOB = (RNG.normal(size=16).astype(np.float32) for _ in range(2))


def said(
    n: int,
    text: str,
    day: int,
    attribute: np.ndarray,
    *,
    entities: Sequence[str] = ("Dana Whitfield",),
) -> Candidate:
    noise = RNG.normal(scale=0.2, size=16).astype(np.float32)
    return Candidate(f"m{n}", text, list(entities), day * DAY, PERSON + attribute + noise)


def unlike(attribute: np.ndarray, seed: int) -> np.ndarray:
    """Another attribute: a direction with no part of `attribute` (16 random dimensions alone
    are often as close as two wordings of one attribute)."""
    other = np.random.default_rng(seed).normal(size=16).astype(np.float32)
    unit = attribute / np.linalg.norm(attribute)
    return (other - (other @ unit) * unit).astype(np.float32)


def answer(
    question: str, query: np.ndarray, candidates: list[Candidate], **kw: int | str
) -> str | None:
    """Resolution as search runs it: the subject's statements first, then the answer."""
    return resolve.resolve(question, query, resolve.about_subject(question, candidates), **kw)


@pytest.fixture
def mentions_are_not_assertions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The assertion model as a rule, and grouping by the centred-cosine rule the models fall
    back to, so these cases (16 random dimensions, not MiniLM's) test resolution alone."""

    def probabilities(texts: list[str], _vectors: np.ndarray) -> np.ndarray:
        return np.array([0.1 if "tells" in t or "?" in t else 0.9 for t in texts])

    monkeypatch.setattr(assertion, "probabilities", probabilities)
    monkeypatch.setattr(attribute, "_model", lambda: None)


def story() -> list[Candidate]:
    return [  # best ranked first, as search hands them over
        said(1, "Dana Whitfield drives a silver Corolla", 3, CAR),
        said(2, "Her brother tells Dana to get a Tesla", 60, CAR),
        said(3, "Dana traded the Corolla in for a Mazda", 40, CAR),
        said(4, "Dana joined Globex as an analyst", 50, JOB),
        said(5, "Dana took the Mazda up the coast", 55, CAR),
    ]


@pytest.mark.usefixtures("mentions_are_not_assertions")
def test_the_latest_assertion_of_the_seed_attribute_answers_now() -> None:
    query = PERSON + CAR
    # Not the mention (day 60), not the job (day 50, another attribute): the restatement.
    assert answer("What car does Dana have?", query, story()) == "m5"


@pytest.mark.usefixtures("mentions_are_not_assertions")
def test_the_past_skips_restatements_of_the_current_value() -> None:
    query = PERSON + CAR
    asked = "What did Dana drive before?"
    assert resolve.mode_of(asked, None) is Mode.PAST
    assert answer(asked, query, story()) == "m1"
    # "before the Mazda": the value before the first statement that names the Mazda.
    assert answer("What did Dana drive before the Mazda?", query, story()) == "m1"


@pytest.mark.usefixtures("mentions_are_not_assertions")
def test_a_time_asks_for_the_latest_assertion_then() -> None:
    query = PERSON + CAR
    assert answer("Dana's car?", query, story(), period_end=30 * DAY) == "m1"
    assert answer("Dana's car?", query, story(), period_end=2 * DAY) is None


@pytest.mark.usefixtures("mentions_are_not_assertions")
def test_no_subject_no_answer_and_first_person_is_the_user() -> None:
    query = PERSON + CAR
    assert answer("What car does Omar drive?", query, story()) is None
    mine = [
        said(1, "I drive a Corolla", 3, CAR, entities=()),
        said(2, "I switched to a Mazda", 40, CAR, entities=()),
        said(3, "Dana drives a Tesla", 50, CAR),
    ]
    assert answer("what car do I drive", query, mine) == "m2"


@pytest.mark.usefixtures("mentions_are_not_assertions")
def test_a_later_assertion_overrides_what_the_ledger_read_only_of_its_own_attribute() -> None:
    """The ledger read "Dana drives a silver Corolla" (m1) and missed the trade-in: the later
    car statement answers, never the later job one, nor a car statement older than m1."""
    query = PERSON + CAR
    candidates = story()
    assert answer("What car does Dana have?", query, candidates, anchor="m1") == "m5"
    others = [  # what else a store says of Dana: centring needs a few statements to remove her
        said(6 + n, f"Dana's {what} is new", 45 + n, unlike(CAR, n))
        for n, what in enumerate(("gym", "city", "dentist"))
    ]
    no_car_since = [c for c in candidates if c.id not in ("m3", "m5")] + others
    assert answer("What car does Dana have?", query, no_car_since, anchor="m1") is None
    assert answer("What car does Dana have?", query, candidates, anchor="m5") is None
    assert answer("What car does Omar have?", query, candidates, anchor="m1") is None


@pytest.mark.usefixtures("mentions_are_not_assertions")
def test_an_answer_read_off_a_mention_gives_way_to_the_latest_assertion() -> None:
    """The ledger read a value off "Her brother tells Dana to get a Tesla" (m2, the latest
    statement): the mention never answers, the latest assertion before it does."""
    query = PERSON + CAR
    assert answer("What car does Dana have?", query, story(), anchor="m2") == "m5"


@pytest.mark.usefixtures("mentions_are_not_assertions")
def test_a_value_no_earlier_assertion_named_must_read_as_a_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A later statement giving a new value answers only when it reads as a change; one
    restating a known value (or naming the old one) needs no change."""
    query = PERSON + CAR
    later = [*story(), said(6, "Dana drove a Kia Picanto around town", 70, CAR)]
    monkeypatch.setattr(assertion, "change_probabilities", lambda t, _v: np.full(len(t), 0.2))
    assert answer("What car does Dana have?", query, later) == "m5"
    monkeypatch.setattr(assertion, "change_probabilities", lambda t, _v: np.full(len(t), 0.9))
    assert answer("What car does Dana have?", query, later) == "m6"


def test_question_time() -> None:
    for past in (
        "What did Dana use before Zed?",
        "Which bank did Omar use to have?",
        "What was her previous team?",
        "Where did Lena work originally?",
    ):
        assert resolve.mode_of(past, None) is Mode.PAST, past
    for now in (
        "What does Dana drive?",
        "Which team is Lena on these days?",
        "Who is Omar's boss?",
    ):
        assert resolve.mode_of(now, None) is Mode.NOW, now
    assert resolve.mode_of("What did Dana drive?", 5) is Mode.AT


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    from mnemex.embed import load_embedder

    loaded = load_embedder("minilm-int8")
    assert loaded is not None
    return loaded


def test_the_shipped_model_tells_a_mention_from_an_assertion(embedder: Embedder) -> None:
    assertions = [
        "Dana traded the hatchback in for a Mazda.",
        "Omar's salary goes to Monzo these days.",
        "Lena was moved over to the Search squad.",
    ]
    mentions = [
        "Dana's brother keeps telling her to buy a Tesla.",
        "Omar saw an ad for Monzo on the train.",
        "Is the Search squad hiring?",
    ]
    texts = assertions + mentions
    p = assertion.probabilities(texts, embedder.embed(texts))
    assert p[:3].min() > p[3:].max(), p


def test_the_shipped_change_model_tells_a_change_from_a_mention(embedder: Embedder) -> None:
    changes = [
        "Omar moved his current account over to Starling in May.",
        "These days Lena's team is Payments.",
        "Dana finally got rid of the hatchback and picked up a Mazda.",
    ]
    mentions = [
        "Omar's sister swears by Monzo.",
        "Dana test-drove a Tesla at the weekend but kept her car.",
        "Lena wondered whether the Payments team has a free seat.",
    ]
    texts = changes + mentions
    p = assertion.change_probabilities(texts, embedder.embed(texts))
    assert p[:3].min() > 0.5 > p[3:].max(), p


def test_the_shipped_model_groups_statements_of_one_attribute(embedder: Embedder) -> None:
    """Two wordings of Dana's car (no word in common but her name) are grouped for a car
    question; her job statements are not, though they are about her too."""
    texts = [
        "Dana Whitfield drives a silver Corolla.",
        "Dana works as an analyst at Globex.",
        "Dana finally got rid of the hatchback and picked up a Mazda.",
        "Dana's dentist is Dr Patel on Hill Street.",
        "Dana moved over to Initech as a data engineer in June.",
    ]
    question = "What car does Dana drive?"
    chosen = attribute.group(
        texts, embedder.embed(texts), question, embedder.embed([question])[0], {"dana"}
    )
    assert {0, 2} <= set(chosen) and not {1, 4} & set(chosen), chosen


def test_the_assertion_model_reads_no_names_and_no_one_attribute_words() -> None:
    """Who is named says nothing about how a value is stated: two sentences alike but for the
    names give the same n-grams. And a gram outside the shipped vocabulary (seen with fewer than
    three training attributes) adds nothing to the features."""
    assert assertion.ngrams("Carol's sister joined Fitness First.") == assertion.ngrams(
        "Priya's sister joined Anytime Fitness."
    )
    vocabulary = assertion._vocabulary()
    assert vocabulary is not None and "sister" in vocabulary
    assert not assertion.hashed(["plugh xyzzy"], vocabulary).any()
    assert assertion.hashed(["her sister"], vocabulary).any()


def test_names_end_without_the_full_stop() -> None:
    """ "Xfinity." is the value Xfinity: with the stop, "April." and "Mbps." made the fibre
    installation look like a change away from another value and answer "before fibre"."""
    group = [
        Candidate("a", "Ethan Cole's home broadband comes from Comcast Xfinity.", [], 1, None),
        Candidate(
            "b", "Ethan finally got fibre: Google Fiber was installed in April.", [], 2, None
        ),
        Candidate("c", "Ethan ran a speed test on Google Fiber and got 940 Mbps.", [], 3, None),
    ]
    before = resolve._before_current(group, "What internet did Ethan have before fibre?", {"ethan"})
    assert before is not None and before.id == "a"


def test_an_earlier_value_is_found_whatever_k(mem_store: MemoryStore, clock: FakeClock) -> None:
    """Resolution reads the best 20 candidates even when one hit is asked for: the statement
    that set the earlier value ranks low (old, and other statements name the subject)."""
    first = mem_store.save("Rosa Delgado takes the 38 bus to the hospital.")
    for text in [
        "Rosa Delgado's parrot eats Harrison's Bird Foods pellets.",
        "Rosa ended up going with ZuPreem for the parrot, half the price.",
        "Rosa walks to work now that she moved three blocks away.",
        "Rosa picks up the parrot's ZuPreem at the pet shop on her walk home.",
        "Rosa's husband still takes the bus every day.",
        "Rosa wondered whether Kaytee would be better for the new budgie.",
    ]:
        clock.advance(days=30)
        mem_store.save(text)
    hits = mem_store.search("How did Rosa get to work before the move?", k=1)
    assert [hit.memory.id for hit in hits] == [first.id]
