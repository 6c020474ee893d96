"""The enrichment scorer (bench/enrich.py) on a small hand-made set: every figure is computed
and each of its rules bites on a case built for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import enrich
from mnemex.config import Settings

SET = {
    "description": "scorer test",
    "messages": [
        {
            "text": "Tomas Berg moved the billing service to Postgres",
            "entities": [
                {"name": "Tomas Berg", "category": "person", "mentions": ["Tomas Berg"]},
                {"name": "PostgreSQL", "category": "technology", "mentions": ["Postgres"]},
            ],
            "tags": ["database", "billing", "migration"],
        },
        {
            "text": "Tomas prefers tea over coffee",
            "entities": [{"name": "Tomas Berg", "category": "person", "mentions": ["Tomas"]}],
            "tags": ["tea", "drinks", "preferences"],
        },
    ],
    "pairs": [
        {
            "a": "Tomas",
            "b": "Tomas Berg",
            "same": True,
            "kind": "first_last",
            "context": ["Tomas Berg joined the data team", "Tomas fixed the flaky build"],
        },
        {
            "a": "Java",
            "b": "JavaScript",
            "same": False,
            "kind": "lookalike",
            "context": ["The backend is written in Java", "The widget is written in JavaScript"],
        },
    ],
    "walkthrough": {
        "memories": ["Tomas Berg works at Initech", "My editor is Helix"],
        "facts": [
            {"subject": "Tomas Berg", "attribute": "employer", "value": "Initech"},
            {"subject": "user", "attribute": "editor", "value": "Helix"},
        ],
    },
}


def test_tag_rules() -> None:
    assert enrich.tag_key("Databases") == enrich.tag_key("database")
    assert enrich.tag_key("one-on-one") == enrich.tag_key("one on one")
    assert enrich.tag_key("postgres") == enrich.tag_key("PostgreSQL")  # an alias of the name
    assert enrich.tag_key("k8s") == enrich.tag_key("kubernetes") != enrich.tag_key("kafka")
    text = "Alice switched her laptop to Fedora last week"
    assert enrich.fragment("alice-switched", text, [])
    assert enrich.fragment("laptop-to-fedora", text, [])
    assert not enrich.fragment("laptop", text, [])
    assert not enrich.fragment("alice-switched", text, ["alice switched"])


def test_a_tag_the_labeller_used_anywhere_in_the_set_is_no_fragment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tagger reuses the tenant's tags: "on-call", filed by the labeller under one message,
    given to another is a topic that does not fit there (not acceptable), never a fragment;
    "alice-switched" stays one."""
    from types import SimpleNamespace

    messages = [
        {"text": "Ines asked for a buddy for on-call shadowing", "tags": ["on-call", "team"]},
        {"text": "Alice switched shifts, so she is on call this weekend", "tags": ["work"]},
    ]
    given = [["on-call"], ["on-call", "alice-switched"]]
    rows = [
        (item, SimpleNamespace(tags=tags, entities=[]), [])
        for item, tags in zip(messages, given, strict=True)
    ]
    monkeypatch.setattr(enrich, "_saved", lambda *_: rows)
    m = enrich.score_messages(messages, Settings.load(env={}))
    assert m["fragment_tags"] == 1  # alice-switched alone
    assert m["tags_suggested"] == 3 and m["tags_acceptable"] == round(1 / 3, 4)


def test_every_figure_is_scored(tmp_path: Path) -> None:
    path = tmp_path / "set.json"
    path.write_text(json.dumps(SET), encoding="utf-8")
    report = enrich.run(path, embed_model="none", details=True)
    m = report["messages"]
    assert m["messages"] == 2 and m["entities_labelled"] == 3
    for name in ("entity_precision", "entity_recall", "category_accuracy", "tags_acceptable"):
        assert 0.0 <= m[name] <= 1.0
    assert report["pairs"]["pairs"] == 2
    assert report["walkthrough"]["profile_facts"] >= 1
    rows = {row["figure"]: row["value"] for row in enrich.summary_rows(report)}
    assert rows["entity precision"] == m["entity_precision"]
    assert "profile precision" in rows


def test_several_walkthroughs_pool_and_wrong_facts_stay_hidden(tmp_path: Path) -> None:
    walk = SET["walkthrough"]
    path = tmp_path / "walks.json"
    path.write_text(json.dumps({"walkthroughs": [walk, walk]}), encoding="utf-8")
    report = enrich.run(path, embed_model="none")
    walks = report["walkthroughs"]
    assert walks["people"] == 2 and walks["profile_facts"] == 2 * walks["each"][0]["profile_facts"]
    right = sum(w["profile_right"] for w in walks["each"])
    assert walks["profile_precision"] == round(right / max(walks["profile_facts"], 1), 4)
    assert all("wrong_facts" not in w for w in walks["each"])  # errors only with details
    detailed = enrich.run(path, embed_model="none", details=True)
    assert all("wrong_facts" in w for w in detailed["walkthroughs"]["each"])
    rows = {row["figure"] for row in enrich.summary_rows(report)}
    assert "profile precision, 2 people pooled" in rows
    # A set of walk-throughs alone shows no entity or merge figure it never measured.
    assert not rows & {"entity precision", "merge precision"}


@pytest.mark.parametrize("category", ["organization", "Organisation"])
def test_category_spellings(category: str) -> None:
    assert enrich.category_key(category) == "organisation"


def test_settings_pick_the_model() -> None:
    assert enrich._settings("none").embed_model == "none"
    assert enrich._settings(None).embed_model == Settings.load().embed_model


def test_a_profile_fact_matches_a_label_of_a_synonymous_attribute() -> None:
    """The engine's "user / wife / Elif Demir" is the labeller's "Yusuf / spouse / Elif
    Demir" (the user's aliases given), "boss" is "manager"; a sister is no spouse."""
    from types import SimpleNamespace

    label = {"subject": "Yusuf Demir", "attribute": "spouse", "value": "Elif Demir"}
    aliases = {enrich.fold("Yusuf Demir"): {"user"}}

    def fact(relation: str) -> SimpleNamespace:
        return SimpleNamespace(subject="user", relation=relation, object="Elif Demir")

    assert enrich._fact_matches(fact("wife"), label, aliases)
    assert enrich._fact_matches(fact("husband"), label, aliases)
    assert not enrich._fact_matches(fact("sister"), label, aliases)
    boss = {"subject": "Yusuf Demir", "attribute": "boss", "value": "Selin Kaya"}
    manager = SimpleNamespace(subject="user", relation="manager", object="Selin Kaya")
    assert enrich._fact_matches(manager, boss, aliases)
