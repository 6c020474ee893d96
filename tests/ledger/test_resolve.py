"""Read-time resolution on hand-made candidates: which statement answers, at which time."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mnemex import MemoryStore, resolution
from mnemex.embed import Embedder
from mnemex.ledger import assertion, attribute, kept, resolve
from mnemex.ledger.resolve import Candidate, Mode
from mnemex.ledger.similarity import for_embedder
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


def answer(question: str, query: np.ndarray, candidates: list[Candidate], **kw: Any) -> str | None:
    """Resolution as search runs it: the subject's statements first, then the answer."""
    return resolve.resolve(question, query, resolve.about_subject(question, candidates), **kw)


@pytest.fixture
def mentions_are_not_assertions(monkeypatch: pytest.MonkeyPatch) -> None:
    """The assertion model as a rule, and grouping by the centred-cosine rule the models fall
    back to, so these cases (16 random dimensions, not MiniLM's) test resolution alone."""

    def probabilities(texts: list[str]) -> np.ndarray:
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
def test_where_someone_comes_from_answers_only_a_question_about_it() -> None:
    """ "Dana grew up in Leeds", said last, is no answer to where she lives now; it is to where
    she grew up."""
    city = unlike(CAR, 11)
    lives = [
        said(1, "Dana Whitfield lives in York", 3, city),
        said(2, "Dana moved to Bristol", 40, city),
        said(3, "Dana grew up in Leeds", 60, city),
    ]
    assert answer("Where does Dana live now?", PERSON + city, lives) == "m2"
    assert answer("Where did Dana grow up?", PERSON + city, lives) in (None, "m3")


@pytest.mark.usefixtures("mentions_are_not_assertions")
def test_the_past_skips_restatements_of_the_current_value() -> None:
    query = PERSON + CAR
    asked = "What did Dana drive before?"
    assert resolve.mode_of(asked, None) is Mode.PAST
    assert answer(asked, query, story()) == "m1"
    # "before the Mazda": the value before the first statement that names the Mazda.
    assert answer("What did Dana drive before the Mazda?", query, story()) == "m1"


@pytest.mark.usefixtures("mentions_are_not_assertions")
@pytest.mark.parametrize("asked", ["before the Mazda", "before the Mazdas", "until the Mazda"])
def test_the_value_counted_back_from_is_not_taken_for_the_subject(asked: str) -> None:
    dana = ("Dana Whitfield",)
    cars = [
        said(1, "Dana Whitfield drives a silver Corolla", 3, CAR, entities=(*dana, "Corolla")),
        said(2, "Dana Whitfield leased a Kia", 20, CAR, entities=(*dana, "Kia")),
        said(3, "Dana drives the Mazda now, she sold the Kia", 40, CAR, entities=("Mazda", "Kia")),
        said(4, "Dana took the Mazda up the coast", 55, CAR, entities=("Mazda",)),
        said(5, "Dana joined Globex as an analyst", 50, JOB),
        said(6, "Dana was promoted at Globex", 58, JOB),
        said(8, "Dana Whitfield leads the audit team", 52, JOB),
        said(9, "Dana moved desks to the third floor", 57, JOB),
        said(7, "Omar Haddad is waiting for the Mazda dealer to call", 30, CAR, entities=("Omar",)),
    ]
    # "Mazda" is an entity the question names, but Dana is its subject: the Kia held before
    # the statement that brought the Mazda (which names both), not the Corolla before that.
    assert answer(f"What did Dana drive {asked}?", PERSON + CAR, cars) == "m2"


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
def test_the_asked_attribute_named_as_an_entity_is_not_the_subject() -> None:
    """ "Which VPN am I paying for?": "VPN" is an entity of every VPN statement, but the asker is
    the subject; another person's later VPN never answers."""
    vpns = [
        said(1, "My VPN is Obscura VPN", 3, CAR, entities=("VPN", "Obscura VPN")),
        said(2, "I moved my VPN to Surfshark", 40, CAR, entities=("VPN", "Surfshark")),
        said(3, "Priya's VPN is TorGuard now", 50, CAR, entities=("Priya", "VPN", "TorGuard")),
    ]
    assert answer("Which VPN am I paying for?", PERSON + CAR, vpns) == "m2"


@pytest.mark.usefixtures("mentions_are_not_assertions")
def test_a_word_the_question_writes_in_lowercase_names_no_subject() -> None:
    """ "Where does Dana do her yoga classes?": "yoga" is the first word of Yoga Loft, but a
    question that writes Dana with a capital writes no name in lowercase, so Owen's later move
    away from Yoga Loft is no statement about the subject and never answers."""
    yoga = [
        said(1, "Dana Whitfield does yoga at CorePower Yoga", 3, CAR,
             entities=("Dana Whitfield", "CorePower Yoga")),
        said(2, "Dana switched to Modo Yoga", 40, CAR, entities=("Dana Whitfield", "Modo Yoga")),
        said(3, "Yoga Loft lost Owen to the Iyengar Institute", 60, CAR,
             entities=("Yoga Loft", "Owen", "Iyengar Institute")),
    ]  # fmt: skip
    assert resolve.subject_names("Where does Dana do her yoga classes?", yoga) == {"dana"}
    assert answer("Where does Dana do her yoga classes?", PERSON + CAR, yoga) == "m2"
    # written all in lowercase, any word may be a name
    assert resolve.subject_names("where does dana do her yoga?", yoga) == {"dana", "yoga"}
    # a capital outside ASCII is a capital
    accented = [said(4, "Élodie does yoga at Yoga Loft", 70, CAR, entities=("Élodie", "Yoga Loft"))]
    assert resolve.subject_names("Where does Élodie do her yoga?", accented) == {"élodie"}


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
def test_a_statement_of_a_value_held_under_another_key_stays_out_of_the_anchors_group() -> None:
    """m5's value is known only under another key: the car answer is the trade-in before it."""
    query = PERSON + CAR
    assert answer("What car does Dana have?", query, story(), anchor="m1", elsewhere={"m5"}) == "m3"


def test_values_known_under_another_key_are_held_elsewhere(mem_store: MemoryStore) -> None:
    """ "Amara has moved on to VS Code" may read like a deploy-tool change, but VS Code is an
    editor wherever the ledger holds it; Kamal, a value of a key named like the asked one
    ("deployment tool"), and a value the ledger has never seen stay candidates."""
    saved = {
        text: mem_store.save(text).id
        for text in [
            "Noor's editor is VS Code.",
            "Amara's deploy tool is Capistrano.",
            "Priya's deployment tool is Kamal.",
            "Amara has moved on to Kamal.",
            "Amara has moved on to VS Code.",
            "Amara has moved on to Zorblax.",
        ]
    }
    members = [
        Candidate(memory_id, text, ["Amara"], 0, None)
        for text, memory_id in saved.items()
        if text.startswith("Amara")  # the anchor among them, as search hands them over
    ]
    anchor = saved["Amara's deploy tool is Capistrano."]
    similarity = for_embedder(mem_store.engine.embedder)
    with mem_store._read() as tx:
        held = resolution._held_elsewhere(tx, similarity, anchor, members)
    assert held == {saved["Amara has moved on to VS Code."]}


def test_other_key_is_the_highest_cut_that_keeps_every_labelled_same_key_pair_alike(
    mem_store: MemoryStore,
) -> None:
    """OTHER_KEY is calibrated on the labelled relation-name pairs: no pair naming one key falls
    below it (it would hide a real change), and it sits within 0.01 of the least of them (so
    different keys as close as "operating_system" and "programming_language" stay apart)."""
    pairs = json.loads((Path(__file__).parents[2] / "bench/data/relation_pairs.json").read_text())
    similarity = for_embedder(mem_store.engine.embedder)
    same = [similarity.relations(a, [b])[0] for a, b, *_ in pairs["same"]]
    assert min(same) >= resolution.OTHER_KEY > min(same) - 0.01
    assert similarity.relations("operating_system", ["programming_language"])[0] < (
        resolution.OTHER_KEY
    )


@pytest.mark.usefixtures("mentions_are_not_assertions")
def test_an_answer_read_off_a_mention_gives_way_to_the_latest_assertion() -> None:
    """The ledger read a value off "Her brother tells Dana to get a Tesla" (m2, the latest
    statement): the mention never answers, the latest assertion before it does."""
    query = PERSON + CAR
    assert answer("What car does Dana have?", query, story(), anchor="m2") == "m5"


@pytest.mark.usefixtures("mentions_are_not_assertions")
def test_what_reads_as_a_mention_never_answers_however_late(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The latest statement answers only when it likely sets the value: read as a mention
    (below the floor) it never does, read as an assertion it does."""
    query = PERSON + CAR
    later = [*story(), said(6, "Dana drove a Kia Picanto around town", 70, CAR)]
    kia = {"Dana drove a Kia Picanto around town": 0.3}
    rule = assertion.probabilities  # the fixture's: "tells" reads as a mention
    monkeypatch.setattr(
        assertion,
        "probabilities",
        lambda texts: np.array([kia.get(t, p) for t, p in zip(texts, rule(texts), strict=True)]),
    )
    assert answer("What car does Dana have?", query, later) == "m5"
    kia["Dana drove a Kia Picanto around town"] = 0.8
    assert answer("What car does Dana have?", query, later) == "m6"


@pytest.mark.usefixtures("mentions_are_not_assertions")
def test_statements_of_one_moment_leave_the_ranking_alone() -> None:
    """Three facts saved at once, about three attributes: no time order to read, so the
    search's own ranking stands."""
    query = PERSON + CAR
    same_day = [
        said(1, "Dana drives a silver Corolla", 3, CAR),
        said(2, "Dana's employer is Globex", 3, JOB),
        said(3, "Dana's car is a Corolla", 3, CAR),
    ]
    assert answer("What car does Dana have?", query, same_day) is None


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


def test_the_shipped_reader_tells_a_mention_from_an_assertion() -> None:
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
    p = assertion.probabilities(assertions + mentions)
    assert p[:3].min() > 0.5 > p[3:].max(), p


def test_a_person_the_user_introduces_is_the_subject_of_the_sentence(
    mem_store: MemoryStore,
) -> None:
    """ "My partner Sam is allergic to peanuts" sets Sam's own value: the save's veto reads it
    from the name, so the save writes Sam's allergy and who Sam is; a relative's advice still
    reads as a mention and writes nothing of the user's."""
    said = [
        "My partner Sam is allergic to peanuts.",
        "My sister Ana Ruiz lives in Lisbon.",
        "Our dog Biscuit is on Apoquel for his itching.",
        "My colleague Øyvind drives a Leaf.",
    ]
    advice = ["My brother Tom recommended Monzo to me.", "My wife says I should try Neovim."]
    p = assertion.probabilities([assertion.own_subject(t) for t in said + advice])
    assert p[:4].min() > 0.5 > p[4:].max(), p
    assert assertion.own_subject(said[3]) == "Øyvind drives a Leaf."
    for text in said + advice:
        mem_store.save(text)
    facts = {(f.subject, f.relation, f.object) for f in mem_store.facts()}
    assert {("Sam", "allergy", "peanuts"), ("user", "partner", "Sam")} <= facts
    assert not {f for f in facts if f[2] in ("Monzo", "Neovim")}


def test_a_key_the_writer_names_as_their_own_passes_the_veto(mem_store: MemoryStore) -> None:
    """The reader takes "My husband's name is Antoine" for a relative's statement (P < 0.15);
    the words "my <key> is" say it is the writer's own, so the save writes it."""
    said = ["My husband's name is Antoine.", "My council tax reference is 4410298821, file it."]
    assert assertion.probabilities([assertion.own_subject(said[0])])[0] < 0.15
    for text in [*said, "My wife says I should try Neovim."]:
        mem_store.save(text)
    facts = {(f.subject, f.relation, f.object) for f in mem_store.facts()}
    assert {("user", "husband", "Antoine"), ("user", "council_tax_reference", "4410298821")} <= (
        facts
    )
    assert not {f for f in facts if f[2] == "Neovim"}


def test_the_reader_keeps_its_readings_in_the_store(mem_store: MemoryStore) -> None:
    """A save reads its memory and keeps the reading under the reader's model id, so another
    process reads it from the store; a search reads it back without running the model."""
    found = assertion.reader()
    assert found is not None
    text = "Priya Raman flies Lufthansa for every client visit."
    mem_store.save(text)
    with mem_store.engine.backend.read(mem_store.tenant) as tx:
        digest = kept.digest(text)
        stored = tx.phrase_vectors(found.model_id, [digest])
    assert set(stored) == {digest}
    assert float(np.frombuffer(stored[digest], dtype="<f4")[0]) == pytest.approx(
        assertion.probabilities([text])[0], abs=1e-6
    )


def test_the_shipped_model_groups_statements_of_one_attribute(embedder: Embedder) -> None:
    """Two wordings of Dana's car (no word in common but her name) speak of the asked
    attribute; her job statements do not, though they are about her too."""
    texts = [
        "Dana Whitfield drives a silver Corolla.",
        "Dana works as an analyst at Globex.",
        "Dana finally got rid of the hatchback and picked up a Mazda.",
        "Dana's dentist is Dr Patel on Hill Street.",
        "Dana moved over to Initech as a data engineer in June.",
    ]
    question = "What car does Dana drive?"
    relevant, _ = attribute.probabilities(
        texts, embedder.embed(texts), question, embedder.embed([question])[0], {"dana"}
    )
    assert min(relevant[0], relevant[2]) >= attribute.FLOOR > max(relevant[1], relevant[4])


def test_names_end_without_the_full_stop() -> None:
    """ "Xfinity." is the value Xfinity: with the stop, "April." and "Mbps." made the fibre
    installation look like a change away from another value and answer "before fibre"."""
    texts = [
        "Ethan Cole's home broadband comes from Comcast Xfinity.",
        "Ethan finally got fibre: Google Fiber was installed in April.",
        "Ethan ran a speed test on Google Fiber and got 940 Mbps.",
    ]
    values = resolve._values(texts, {"ethan", "cole"} | resolve.CALENDAR)
    assert values[0] == {frozenset({"comcast", "xfinity"})}
    assert values[1] == {frozenset({"google", "fiber"})}
    sure = np.array([0.9, 0.9, 0.9])
    assert resolve._before(sure, values, 2, resolve._asked_value("before fibre?", set())) == 0


def test_before_a_value_is_the_value_its_change_replaced() -> None:
    """The change to Obsidian opens with the value it replaced (a first word, a name because
    another statement writes it as one): that value answers "before Obsidian", not the first
    value, which a likelier reading would otherwise pick."""
    texts = [
        "Fatima Al-Sayed takes her lecture notes in OneNote.",
        "Fatima switched her note-taking to Notion at the start of March.",
        "Notion got too slow for Fatima's thesis notes; she's been writing them in Obsidian.",
        "Fatima's Obsidian graph view has become her favourite way to procrastinate.",
    ]
    values = resolve._values(texts, {"fatima", "al-sayed"} | resolve.CALENDAR)
    assert values[2] == {frozenset({"notion"}), frozenset({"obsidian"})}
    likely = np.array([0.95, 0.4, 1.0, 1.0])
    assert resolve._before(likely, values, 3, {frozenset({"obsidian"})}) == 1
    # Written without capitals, a statement still names the values others write as names; one
    # with capitals does not lend a lowercase word the name of a longer one ("Apple Notes").
    lower = resolve._values(
        [
            "Ama writes her blog posts in Pages.",
            "ama's writing in ulysses these days",
            "Ama keeps her notes in Apple Notes.",
            "Ama moved her notes into Ulysses too.",
        ],
        {"ama"},
    )
    assert lower[1] == {frozenset({"ulysse"})} == lower[3]  # (compared without a plural s)
    assert lower[2] == {frozenset({"apple", "note"})}


def test_a_value_is_a_whole_name() -> None:
    """A value is the whole name: the "Airways" of "Qatar Airways" is no "British Airways", so
    the change to Qatar Airways does not send "before she moved to Qatar" to the first airline
    but to the one set in between (written without capitals, and named nowhere else)."""
    texts = [
        "Aisha Bello always takes British Airways out of Heathrow.",
        "fyi aisha switched to virgin atlantic for the lagos route",
        "These days it's Qatar Airways for Aisha, the Doha connection works out better.",
    ]
    subject = {"aisha", "bello"} | resolve.CALENDAR
    values = resolve._values(texts, subject)
    assert values[2] == {frozenset({"qatar", "airway"}), frozenset({"doha"})}
    asked = resolve._asked_value("What did Aisha fly before she moved to Qatar?", subject)
    assert asked == {frozenset({"qatar"})}
    assert resolve._before(np.array([0.9, 0.6, 0.95]), values, 2, asked) == 1
    # A name opening a sentence is a value only when another statement writes it as one.
    opening = resolve._values(["Aisha flies KLM.", "Klm lost Aisha to Delta. Delays!"], subject)
    assert opening == [{frozenset({"klm"})}, {frozenset({"klm"}), frozenset({"delta"})}]


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
