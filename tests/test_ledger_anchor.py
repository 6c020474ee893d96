"""Statements no pattern reads, anchored on the subjects, relations and values the ledger knows."""

from __future__ import annotations

import pytest

from mnemex import MemoryStore

KNOWN = ["Carol's editor is Vim.", "Dave's editor is Emacs.", "Dave's city is Oslo."]


@pytest.fixture
def known(store: MemoryStore) -> MemoryStore:
    for text in KNOWN:
        store.save(text)
    return store


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Word around the office: Carol went all-in on Emacs.", "Emacs"),
        ("Carol, who never warmed to Vim, settled for Helix as her daily editor tool.", "Helix"),
        ("Turns out Carol traded Vim in favour of Zed for editing.", "Zed"),
        ("Honestly Carol never liked Vim and now Emacs is back.", "Emacs"),
    ],
)
def test_a_known_subject_and_value_change_the_key(
    known: MemoryStore, text: str, value: str
) -> None:
    saved = known.save(text)
    assert saved.action == "superseded"
    assert known.facts("Carol", "editor")[0].object == value


@pytest.mark.parametrize(
    "text",
    [
        "Carol might try Emacs next year.",
        "Is Carol still on Emacs?",
        "Carol keeps using Vim",  # the value she holds: nothing changes
        "Someone mentioned Emacs at lunch.",  # no known subject
        "Looks like Carol fixed the build",  # no known value, no relation named
        "Carol and Dave argued about Emacs",  # two known subjects: whose editor?
    ],
)
def test_no_change_without_a_stated_new_value(known: MemoryStore, text: str) -> None:
    known.save(text)
    assert known.facts("Carol", "editor")[0].object == "Vim"
    assert len(known.facts("Carol")) == 1


def test_an_unseen_value_needs_the_relation_named(known: MemoryStore) -> None:
    known.save("Dave hops between Emacs and Kakoune")  # Kakoune: unseen, no relation named
    assert known.facts("Dave", "editor")[0].object == "Emacs"
    known.save("These days Dave has Kakoune as his go-to editor")
    assert known.facts("Dave", "editor")[0].object == "Kakoune"


def test_a_statement_of_an_unknown_value_joins_its_key_once_the_value_is_known(
    store: MemoryStore,
) -> None:
    from datetime import UTC, datetime

    store.save("Gina's editor is Vim.", observed_at=datetime(2026, 1, 1, tzinfo=UTC))
    store.save("Gina has started using Quillpad.", observed_at=datetime(2026, 2, 1, tzinfo=UTC))
    assert store.facts("Gina", "editor")[0].object == "Vim"  # Quillpad: which key? not known yet
    store.save("Hugo's editor is Quillpad.", observed_at=datetime(2026, 3, 1, tzinfo=UTC))
    [current] = store.facts("Gina", "editor")
    assert current.object == "Quillpad" and current.valid_from == datetime(2026, 2, 1, tzinfo=UTC)
