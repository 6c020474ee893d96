"""Who a message says a person is (analysis/described.py), and when two descriptions are two
people."""

from __future__ import annotations

import pytest

from mnemex.analysis import described


def _said(text: str, name: str) -> dict[str, str]:
    start = text.index(name)
    return described.said_of(text, start, start + len(name))


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        (
            "Mr Campbell the janitor says the boiler is dying",
            "Mr Campbell",
            {"who": "janitor", "gender": "m"},
        ),
        ("Travis (night driver, truck 305) swapped shifts", "Travis", {"who": "driver"}),
        (
            "Travis Keller, freight broker in Louisville, keeps calling",
            "Travis Keller",
            {"who": "broker"},
        ),
        (
            "Kavitha Naidoo is the new honours student. She's 22",
            "Kavitha Naidoo",
            {"who": "student", "gender": "f"},
        ),
        ("Farah Hendricks, a nurse moving down from Joburg", "Farah Hendricks", {"who": "nurse"}),
        ("Mrs Ferguson runs the Paris trip", "Mrs Ferguson", {"gender": "f"}),
        ("my nephew Amir turns seven", "Amir", {"kin": "nephew"}),
        # The user's kin is the kin word's, not also a description that could disagree.
        ("my wife Elif starts nights on Monday", "Elif", {"kin": "wife"}),
        # An object or a possessive pronoun may be anyone's: "her" is the sourdough starter.
        ("Bertha went sour. Dario refreshed her twice", "Dario", {}),
        # Someone named in between may be the one the pronoun means.
        ("Priya emailed my husband, he says hi", "Priya", {}),
        ("Priya met Tom on Friday and he liked her", "Priya", {}),
        # A place after "at the" is nobody.
        ("Dr Naidoo at the Rondebosch practice says - he wants rest", "Dr Naidoo", {"gender": "m"}),
        ("Orion is the new project, one of many", "Orion", {"who": "project"}),
        ("Sam, the same as always", "Sam", {}),
    ],
)
def test_what_a_message_says_of_a_person(text: str, name: str, expected: dict[str, str]) -> None:
    assert _said(text, name) == expected


def test_two_descriptions_are_two_people_only_when_they_disagree() -> None:
    apart = described.told_apart
    assert apart({"who": "driver"}, {"who": "broker"})
    assert apart({"gender": "m"}, {"gender": "f", "who": "student"})
    assert apart({"kin": "nephew"}, {})  # a kin word the known person was never called
    assert not apart({}, {"kin": "sister"})  # "Amina" alone is still my sister Amina Siddiqui
    assert not apart({"who": "driver"}, {})
    assert not apart({"who": "boss"}, {"who": "manager"})  # one standing in two words
    assert not apart({"who": "gp"}, {"who": "doctor", "gender": "f"})
    assert not apart({"who": "hubby"}, {"who": "husband"})  # the ledger's everyday words too
    assert not apart({"who": "mom"}, {"who": "mother"})
    assert not apart({"gender": "f"}, {"gender": "f", "who": "nurse"})


def test_a_name_after_a_verb_takes_no_title_from_its_object() -> None:
    assert _said("Offered Kirsty the job, 20 hrs a week", "Kirsty") == {}
    text = "Offered Tom the job. Tom the plumber says Thursday"
    second = text.index("Tom the plumber")
    assert described.said_of(text, second, second + 3) == {"who": "plumber"}
    assert _said(text, "Tom") == {}
