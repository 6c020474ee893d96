"""Clauses the patterns leave unread, read from their dependency parse (ledger/cores.py)."""

from __future__ import annotations

import dataclasses

import pytest

import mnemex
from mnemex import MemoryStore
from mnemex.analysis.parsing import dependencies
from mnemex.config import Settings
from mnemex.ledger import cores, resolve
from mnemex.ledger.extract import USER, extract
from mnemex.ledger.save import PARSED_CLAUSES, read_cores, statements


def _read(text: str) -> list[tuple[str, str | None, str]]:
    words = dependencies([text])[0]
    return [(t.subject, t.relation, t.value) for t in cores.read(words, text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # An aside after the value breaks the patterns, not the parse.
        (
            "I live in Austin, in the Mueller neighbourhood",
            [(USER, "city", "Austin"), (USER, "neighbourhood", "Mueller")],
        ),
        ("I drive a 2016 Honda Fit", [(USER, "car", "Honda Fit")]),
        ("I drive a used blue Toyota RAV4 these days", [(USER, "car", "Toyota RAV4")]),
        (
            "I work as a product designer at Copperline Health",
            [(USER, "role", "product designer"), (USER, "employer", "Copperline Health")],
        ),
        (
            "Owen is an electrician with Lonestar Grid",
            [("Owen", "role", "electrician"), ("Owen", "employer", "Lonestar Grid")],
        ),
        (
            "Zeynep is an architect at Kaplan & Roe now",
            [("Zeynep", "role", "architect"), ("Zeynep", "employer", "Kaplan & Roe")],
        ),
        # "my wife Elif Demir": the facts are Elif's, not a "wife" key holding her job.
        (
            "My wife Elif Demir is a pediatric nurse at Hillcrest",
            [("Elif Demir", "role", "pediatric nurse"), ("Elif Demir", "employer", "Hillcrest")],
        ),
        (
            "I am allergic to penicillin, please remember that if I ever ask about meds",
            [(USER, "allergy", "penicillin")],
        ),
        # The small parser reads an unknown drug after "allergic to" as an infinitive.
        ("Dana is allergic to cefalexin", [("Dana", "allergy", "cefalexin")]),
        ("I am allergic to ibuprofen", [(USER, "allergy", "ibuprofen")]),
        ("Remember that I am vegan", [(USER, "diet", "vegan")]),
        # The writer's name, then what they are: the appositive is the writer's role.
        (
            "I am Inés Vidal, a sonographer at Riverside Hospital",
            [(USER, "role", "sonographer"), (USER, "employer", "Riverside Hospital")],
        ),
        (
            "I am a beekeeper at Hollins Farm",
            [(USER, "role", "beekeeper"), (USER, "employer", "Hollins Farm")],
        ),
        ("We adopted a tabby cat named Simit", [(USER, "pet", "Simit")]),
        ("I guess I'm pescatarian now", [(USER, "diet", "pescatarian")]),  # the user's hedge
        ("At Corvid I'll be on the payments insights team", [(USER, "team", "payments insights")]),
        # "we" is the user's household; a move from one value to another is read as one change
        ("We moved from Mueller to Hyde Park last weekend", [(USER, None, "Hyde Park")]),
        ("We have a dog, Pasha, a three-year-old beagle", [(USER, "pet", "Pasha")]),
        ("I take bisoprolol every morning", [(USER, "medication", "bisoprolol")]),
        # a common medicine no INN stem names, a school by its name, a bank
        ("I take sertraline 50mg", [(USER, "medication", "sertraline")]),
        ("My daughter Maya goes to Oakfield Primary", [("Maya", "school", "Oakfield Primary")]),
        ("Maya started at Hillcrest Secondary", [("Maya", "school", "Hillcrest Secondary")]),
        # a name that is no school's is where a job starts, with the role it starts as
        (
            "Priya started at Stripe as a designer",
            [("Priya", "employer", "Stripe"), ("Priya", "role", "designer")],
        ),
        # "niece" parsed as a compound of the name, not an apposition: the name is the subject
        (
            "My niece Kerry goes to Hillcrest Secondary",
            [("Kerry", "school", "Hillcrest Secondary")],
        ),
        ("I bank with Barclays", [(USER, "bank", "Barclays")]),
        # a lasting condition said with "I am", its modifier kept
        ("I am lactose intolerant", [(USER, "condition", "lactose intolerant")]),
        ("Sam is coeliac", [("Sam", "condition", "coeliac")]),
        ("I am on the urban greening team", [(USER, "team", "urban greening")]),
        # A participle goes on with its clause's subject, a person's name after "reporting to".
        (
            "Ravi works at Globex now, reporting to Priya Nair",
            [("Ravi", "employer", "Globex"), ("Ravi", "manager", "Priya Nair")],
        ),
    ],
)
def test_cores_state_what_the_clause_states(
    text: str, expected: list[tuple[str, str | None, str]]
) -> None:
    assert _read(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "My friend Owen keeps telling me to get a Tesla Model 3",  # under another verb
        "I might get a dog called Rex",  # a plan
        "I will get a cat named Tom",  # "will be" states what is settled, "will get" a plan
        "Bob thinks I am vegan",  # reported, not the user's own
        "We adopted a second pet, a tabby cat named Simit",  # one more pet beside the first
        "I'm also allergic to penicillin",
        "I am eager to learn",  # an infinitive after an adjective that takes none as a value
        "My cousin got married and I am a bridesmaid",  # no trade
        "I am Declan Mercer, the one who called yesterday",
        "I don't drive a Volvo",  # the patterns' negations read this
        "We have a cat",  # a pet is known by its name
        "I am a big fan of Arsenal",
        "I am a beginner at chess",  # not an occupation
        "I'm Declan Mercer",  # a name, not a role
        "Wash Park is so much quieter than the Highlands",
        "I much prefer meetings before 3pm, my brain is toast after that",  # no key of anyone
        "The vet put Pasha on a grain-free diet",  # "the vet" is nobody's name
        "Jess moved the Orion demo to next Tuesday at 3pm",  # the demo moved, and to a time
        "Told Jo, moved the Harbor review to next Monday",  # nobody is called "Told Jo"
        "Abbu's appointment with Dr. Marsh moved to the 14th",
        # Conversation, not facts of a key: a common noun is no employer, an adjective no team,
        # an "-er" word that is no doer no role, a pronoun no value.
        "Good news, I joined a gym last week",
        "I just joined a new neighbourhood book club",
        "We make a great team, you and me",
        "Honestly, Pilates has been a lifesaver this year",
        "Work has been a rollercoaster lately",
        "I might join Acme, reporting to Sam Lee",  # the clause's plan is the participle's
        "I spent the morning reporting to the board",  # a manager is a person by name
        "I am intolerant of fools",  # intolerant of what, the modifier says
        "Maya goes to the gym on Fridays",  # a school is known by its name
        "I started at the shop in May",
        "The race started at Hyde Park",  # a race is nobody's name
        # a school may be named in any language: a job is said by the role it starts as
        "Defne started at Minik Adımlar Anaokulu this week",
        "I started at nine",
        # what was, not what is
        "Back when I was with CN I was a conductor out of Symington Yard",
        "Dean was at Cygnet Hardware for eight years",
    ],
)
def test_mentions_plans_and_idioms_state_nothing(text: str) -> None:
    assert _read(text) == []


def test_a_parse_never_reads_a_verb_as_a_subject(settings: Settings) -> None:
    """ "Kept the Fit" reads as "Kept" doing something to the patterns; the parse knows."""
    assert [t.subject for t in extract("Kept the Fit.").triples] == ["Kept"]
    with mnemex.open(":memory:", settings=settings) as store:
        store.save("I drive a Honda Fit.")
        store.save("Kept the Honda Fit.")
        assert store.facts("Kept") == []


def test_a_save_writes_what_the_cores_state(store: MemoryStore) -> None:
    store.save("I live in Austin, in the Mueller neighbourhood.")
    store.save("I drive a 2016 Honda Fit.")
    current = {(f.relation, f.object) for f in store.facts(USER)}
    assert current == {("city", "Austin"), ("neighbourhood", "Mueller"), ("car", "Honda Fit")}
    store.save("I drive a Subaru Outback now.")
    assert [f.object for f in store.facts(USER, "car")] == ["Subaru Outback"]


def test_without_the_parse_the_clause_stays_unread(settings: Settings) -> None:
    """The ablation: `ledger_parse` off leaves these statements to the anchors and search."""
    off = dataclasses.replace(settings, ledger_parse=False)
    with mnemex.open(":memory:", settings=off) as store:
        store.save("I live in Austin, in the Mueller neighbourhood.")
        store.save("I drive a 2016 Honda Fit.")
        assert store.facts(USER) == []


def test_a_long_document_parses_only_its_first_unread_clauses() -> None:
    calls: list[int] = []

    def parse(texts: list[str]) -> list[list[cores.Word]]:
        calls.append(len(texts))
        return dependencies(texts)

    text = " ".join(f"I drive a 20{n:02d} Honda Fit, in blue." for n in range(40))
    unread = extract(text).unread
    read = statements(text, None, Settings(), parse)
    assert read is not None and calls == [PARSED_CLAUSES]
    assert read.unread[-(40 - PARSED_CLAUSES) :] == unread[PARSED_CLAUSES:]
    assert [(t.relation, t.value) for t in read.triples] == [("car", "Honda Fit")]


def test_a_batch_is_parsed_in_one_pass_and_reads_as_one_text_at_a_time() -> None:
    texts = [
        "I live in Austin, in the Mueller neighbourhood.",
        "Ravi works at Globex now, reporting to Priya Nair",
        "I live in Austin, in the Mueller neighbourhood.",  # the same clause is parsed once
        "I might get a dog called Rex",
        "Lovely weather today.",
    ]
    calls: list[list[str]] = []

    def parse(clauses: list[str]) -> list[list[cores.Word]]:
        calls.append(clauses)
        return dependencies(clauses)

    batch = [statements(text, None, Settings()) for text in texts]
    read_cores([b for b in batch if b is not None], parse)
    assert len(calls) == 1 and len(calls[0]) == len(set(calls[0]))
    alone = [statements(text, None, Settings(), dependencies) for text in texts]
    assert batch == alone


@pytest.mark.parametrize(
    ("first", "change", "relation", "value"),
    [
        # A note that opens with its verb is the user's; the anchors read the held value it
        # leaves ("the Jazz" names the Honda Jazz) and the name after it.
        (
            "I drive a 2015 Honda Jazz.",
            "Sold the Jazz. Ended up buying a Kia Niro.",
            "car",
            "Kia Niro",
        ),
        # "Leaving X!" leaves the held X; "an offer from Greenway" is no value being left.
        (
            "I work as a landscape architect at Fernleaf Design.",
            "Leaving Fernleaf! I've accepted an offer from Greenway Studio, starting in March.",
            "employer",
            "Greenway Studio",
        ),
        # The replaced value names the key, though the place fits the city too.
        (
            "I live in Austin, in the Mueller neighbourhood.",
            "We moved from Mueller to Hyde Park last weekend.",
            "neighbourhood",
            "Hyde Park",
        ),
    ],
)
def test_a_change_after_a_parsed_first_statement_supersedes_it(
    settings: Settings, first: str, change: str, relation: str, value: str
) -> None:
    with mnemex.open(":memory:", settings=settings) as store:
        store.save(first)
        store.save(change)
        assert [f.object for f in store.facts(USER, relation)] == [value]
        if relation == "neighbourhood":
            assert [f.object for f in store.facts(USER, "city")] == ["Austin"]


def test_an_addition_replaces_nothing(settings: Settings) -> None:
    with mnemex.open(":memory:", settings=settings) as store:
        store.save("My VPN provider is ExpressVPN.")
        store.save("Signed up for ProtonVPN this week too, same account.")
        assert [f.object for f in store.facts(USER)] == ["ExpressVPN"]


def test_search_answers_with_the_later_household_statement(settings: Settings) -> None:
    """Read-time resolution counts "we" and a note opening with its verb as the user's: the
    ledger's first car gives way to the later purchase it could not read."""
    with mnemex.open(":memory:", settings=settings) as store:
        store.save("I drive a 2016 Honda Fit.")
        store.save("My phone is a Pixel 7.")
        store.save("Sold the Fit. We bought a used Subaru Outback.")
        top = store.search("What is my car?", k=3)[0].memory.content
        assert "Subaru Outback" in top


@pytest.mark.parametrize(
    ("text", "mine"),
    [
        ("We bought a used Subaru Outback.", True),
        ("Sold the Yaris and bought a second-hand Nissan Leaf.", True),
        ("Our vet is Northgate.", True),
        ("Priya bought a Subaru Outback.", False),
    ],
)
def test_a_household_statement_is_about_the_user(text: str, mine: bool) -> None:
    """For a question in the first person, read-time resolution reads the user's statements:
    "we", "our" and a note that opens with its verb are the user's too."""
    candidate = resolve.Candidate(id="m", text=text, entities=[], when=0, vector=None)
    assert resolve.about(candidate, set(), first_person=True) is mine


def test_a_parsed_restatement_keeps_its_memory(settings: Settings) -> None:
    """A core is part of a clause: a save it restates is still a memory of its own (a
    conversation's turn that repeats a value says more than the value)."""
    with mnemex.open(":memory:", settings=settings) as store:
        store.save("I drive a 2016 Honda Fit.")
        again = store.save("I drive a Honda Fit, still the best car I've had, honestly.")
        assert again.action != "unchanged"
        assert [f.object for f in store.facts(USER, "car")] == ["Honda Fit"]
