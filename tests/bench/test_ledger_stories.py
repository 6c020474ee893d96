"""The story-set scorer of `mnemex eval ledger`: how a top hit is judged, and set loading."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from bench import ledger_stories as ls

SET = {
    "description": "two stories",
    "stories": [
        {
            "id": "a",
            "subject": "Dana Whitfield",
            "attribute": "car",
            "statements": [
                {
                    "day": 3,
                    "text": "Dana Whitfield drives a Corolla.",
                    "kind": "assert",
                    "value": "Corolla",
                },
                {
                    "day": 41,
                    "text": "Dana traded the Corolla in for a Mazda.",
                    "kind": "change",
                    "value": "Mazda",
                },
                {
                    "day": 55,
                    "text": "Dana's brother wants a Tesla.",
                    "kind": "mention",
                    "value": "Tesla",
                },
            ],
            "questions": {
                "current": ["What car does Dana drive?"],
                "past": [{"q": "What did Dana drive before?", "value": "Corolla"}],
            },
        },
        {
            "id": "b",
            "subject": "Omar Haddad",
            "attribute": "commute",
            "statements": [
                {"day": 5, "text": "Omar Haddad takes the bus.", "kind": "assert", "value": "bus"},
                {"day": 60, "text": "Omar cycles to work now.", "kind": "change", "value": "bike"},
            ],
            "questions": {"current": ["How does Omar commute?"]},
        },
    ],
}


def _sibling(text: str) -> dict[str, object]:
    """A story of Dana's about another attribute whose one mention is `text`."""
    return {
        "id": "c",
        "subject": "Dana Whitfield",
        "attribute": "gym",
        "statements": [
            {"day": 2, "text": "Dana trains at PureGym.", "kind": "assert", "value": "PureGym"},
            {"day": 50, "text": text, "kind": "mention", "value": "x"},
        ],
    }


@pytest.fixture
def stories(tmp_path: Path) -> list[ls.Story]:
    path = tmp_path / "set.json"
    path.write_text(json.dumps(SET))
    return ls.load(path)


def test_the_top_hit_is_judged_by_the_statement_it_is(stories: list[ls.Story]) -> None:
    where = {f"{n}:{i}": (n, i) for n, s in enumerate(stories) for i in range(len(s.said))}
    answers = {
        "What car does Dana drive?": "0:2",  # the brother's Tesla: a trap
        "What did Dana drive before?": "0:1",  # the change names the Corolla: right
        "How does Omar commute?": "1:0",  # the bus: stale
    }

    def search(question: str, k: int, as_of: datetime | None) -> list[str]:
        return [answers[question]]

    tally = ls.score(stories, where, search)
    metrics = tally.metrics()
    assert metrics["current@1"] == 0.0
    assert metrics["trap@1"] == 0.5 and metrics["stale@1"] == 0.5
    assert metrics["past@1"] == 1.0
    assert {m["got"] for m in tally.misses} == {"trap", "stale"}
    answers["How does Omar commute?"] = "1:1"
    answers["What car does Dana drive?"] = "1:1"  # another story's statement: neither
    metrics = ls.score(stories, where, search).metrics()
    assert (metrics["current@1"], metrics["stale@1"], metrics["trap@1"]) == (0.5, 0.0, 0.0)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Dana parks the Mazda at the gym now.", "current"),
        ("Dana still misses her old Corolla at the gym.", "stale"),
        ("Dana's gym has a car park.", "other"),
    ],
)
def test_another_story_of_the_subject_is_judged_by_the_values_it_names(
    tmp_path: Path, text: str, verdict: str
) -> None:
    raw = json.loads(json.dumps(SET))
    raw["stories"].append(_sibling(text))
    path = tmp_path / "set.json"
    path.write_text(json.dumps(raw))
    stories = ls.load(path)
    where = {"sibling": (2, 1), "omar": (1, 0)}

    def search(question: str, k: int, as_of: datetime | None) -> list[str]:
        return ["sibling"] if "Dana" in question else ["omar"]

    tally = ls.score(stories, where, search)
    asked = {(m["q"], m["got"]) for m in tally.misses}
    current = "What car does Dana drive?"
    assert ((current, verdict) in asked) == (verdict != "current")
    assert tally.hits["current"] == (1 if verdict == "current" else 0)
    assert ("How does Omar commute?", "stale") in asked


def test_statements_interleave_in_day_order_with_filler(stories: list[ls.Story]) -> None:
    entries = ls.timeline(stories, seed=3)
    told = [e for e in entries if e.story is not None]
    assert len(told) == 5 and len(entries) == 5 + ls.FILLER_NOTES
    assert [e.when for e in entries] == sorted(e.when for e in entries)
    assert stories[0].latest == "Mazda" and stories[1].latest == "bike"


def test_a_set_off_the_schema_names_the_story(tmp_path: Path) -> None:
    bad = json.loads(json.dumps(SET))
    bad["stories"][1]["statements"][0]["kind"] = "rumour"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(ls.StoryError, match="story b"):
        ls.load(path)
    with pytest.raises(ls.StoryError, match="no story set"):
        ls.paths(["no_such_set"])
