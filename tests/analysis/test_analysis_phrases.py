"""Explicit phrases: save and recall requests, importance markers, negation."""

from __future__ import annotations

import pytest

from mnemex.analysis.phrases import clauses, detect


@pytest.mark.parametrize(
    "text",
    [
        "remember that I'm vegetarian",
        "REMEMBER: my badge number is 4412!!",
        "Please don't forget my wife's birthday is May 3",
        "keep in mind that I use vim",
        "make a note that Bob prefers email",
        "Write this down: Alice's phone is 555-0100",
        "note to self: renew the domain",
        "For future reference, the wifi password is on the fridge",
        "can you remember that the standup is at 10",
        "Oh, and please remember I hate olives",
        "I want you to remember my shoe size is 44",
        "save this to your memory: the vault code is 1234",
        "remind me to call the plumber on Monday",
        "Store my API key: abc123",
        "Just so you remember, my flight is at 6",
        "Add to memory: Sarah's birthday is 4 June",
        "remember, I'm on call next week",
        "Remember that this function is called by the nightly cron job",
        "Could you make a mental note that I'm out next week?",
        "Don't you forget that the demo is on Friday",
        "It's important that you remember my allergy to bees",
        "Save to memory: the gate code is 0451",
        "Can you keep track of the fact that Lars is on leave",
        "I need you to remember something: my PIN starts with 7",
        # Polite and indirect forms.
        "Would you be able to remember that our landlord is Mr Osei?",
        "I'd be grateful if you could note down my bike's frame number, WTU123",
        "it'd be handy if you kept my NHS number somewhere, 485 777 3456",
        "Mind noting that the boiler service is due in March?",
        "Some context to keep for later chats: I teach Year 6 in Bolton.",
        # Headings, and a whole message that points back.
        "Memory: the kids' swimming is on Thursdays",
        "Pin this: our staging database is read-only on Fridays",
        "Store a rule: never book me flights before 7am",
        "save it pls",
        "hang onto that",
        # What it is kept for, and what the agent keeps for the user.
        "I take my coffee black, just so you know going forward.",
        "As a standing rule, reply in British English.",
        "Set my default units to metric.",
        "Change the gym day you've got stored to Wednesday.",
        "Add oat milk to my shopping list",
        "Take the blue jumper off our packing list",
        "Keep a running tally of what I spend on coffee",
    ],
)
def test_explicit_save_requests_are_detected(text: str) -> None:
    found = detect(text)
    assert found.save_request and not found.recall_request


@pytest.mark.parametrize(
    "text",
    [
        "do you remember what I said?",
        "Do you recall my sister's name",
        "what did I tell you about the budget",
        "remind me what we decided about the logo",
        "What's my passport number?",
        "Remember what I told you about Berlin?",
        "can you remember what we decided?",
        "Refresh my memory on the budget",
        "What was it I told you about the landlord?",
    ],
)
def test_recall_requests_are_detected(text: str) -> None:
    found = detect(text)
    assert found.recall_request and not found.save_request


@pytest.mark.parametrize(
    "text",
    [
        "how do people remember vocabulary",
        "I remember my first computer fondly",
        "I'll keep it in mind",
        "I never forget a face",
        "save this file as main.py",
        "people write it down on paper",
        "Note that this function returns None",
        "Remember to handle the null case in this function",
        "remember, the function must return a list",
        "keep in mind the time complexity when you answer",
        "Don't forget the semicolon",
        "can you store the results in a csv",
        "I'll remember that for next time, cheers",
        "My physio told me to keep track of my knee pain",
        "The accountant said we should keep a record of every receipt",
        "Please update my address on the council form",
        "Pin the first column of this table",
    ],
)
def test_neither_save_nor_recall(text: str) -> None:
    found = detect(text)
    assert not found.save_request and not found.recall_request


@pytest.mark.parametrize(
    "text",
    [
        "No need to remember this.",
        "don't save this, it's just a test",
        "forget it",
        "you don't need to note any of this",
        "not worth remembering, but the build is green",
        "Don't carry this into future conversations, it's only for today",
        "Remove my old phone number from your memory",
    ],
)
def test_negation_cancels_a_save_request(text: str) -> None:
    found = detect(text)
    assert found.negated and not found.save_request


def test_case_and_punctuation_do_not_matter() -> None:
    variants = [
        "Remember that I'm vegetarian.",
        "remember that im vegetarian",
        "REMEMBER THAT I’M VEGETARIAN!!!",
    ]
    assert all(detect(v).save_request for v in variants)


def test_importance_markers_and_dampers() -> None:
    assert detect("This is critical: prod is read-only").boost == 0.5
    assert detect("really important: use the staging key").boost == 0.45
    assert detect("important, the demo is Friday").importance_marker
    not_important = detect("not important, but I like tea")
    assert not not_important.importance_marker and not_important.boost < 0


def test_clauses_split_on_punctuation_and_keep_questions() -> None:
    assert clauses("Hi. Remember this, please? Thanks!") == [
        "hi",
        "remember this",
        "please ?",
        "thanks",
    ]


def test_dismissal_alone_negates_but_a_correction_does_not() -> None:
    assert detect("forget it").negated
    assert detect("never mind").negated
    correction = detect("Forget what I said earlier, we're using Svelte")
    assert not correction.negated and not correction.save_request
    assert "correction: forget what i said" in correction.matches
