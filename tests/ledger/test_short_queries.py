"""A query of one or two words that names a key, and no subject, finds the memories stating that
key's current values (the README's own REST example: "editor" after "Alice switched to Neovim")."""

from __future__ import annotations

import pytest

from mnemex import MemoryStore
from mnemex.ledger import search as ledger_search


def test_a_one_word_query_finds_what_its_word_names(mem_store: MemoryStore) -> None:
    saved = mem_store.save("Alice switched to Neovim", tags=["tools"], entities=["Alice"])
    mem_store.save("The quarterly report is due on Friday")
    for query in ("editor", "editors", "Editor?"):
        hits = mem_store.search(query, k=5)
        assert hits and hits[0].memory.id == saved.id, query


def test_a_short_query_lists_every_subjects_current_value(mem_store: MemoryStore) -> None:
    alice = mem_store.save("Alice uses Vim", subject="Alice", relation="editor", value="Vim")
    mem_store.save("Alice uses Helix now", subject="Alice", relation="editor", value="Helix")
    bob = mem_store.save("Bob's editor is Emacs", subject="Bob", relation="editor", value="Emacs")
    mem_store.save("Bob lives in Lisbon", subject="Bob", relation="city", value="Lisbon")
    found = [hit.memory.content for hit in mem_store.search("editor", k=5)]
    assert set(found[:2]) == {"Alice uses Helix now", "Bob's editor is Emacs"}
    assert alice.memory.content not in found  # superseded: hidden as in every search
    assert bob.id in {hit.memory.id for hit in mem_store.search("editor", k=2)}


def test_a_short_query_naming_no_key_is_left_to_the_channels(mem_store: MemoryStore) -> None:
    mem_store.save("Alice switched to Neovim")
    assert mem_store.search("weather", k=5) == []


def test_a_first_name_finds_the_one_person_named_like_it(mem_store: MemoryStore) -> None:
    """ "Owen" is Owen Gallagher although NER read "Owen to Iyengar Institute" as a person, and
    "Lucas" is Lucas Moreau although it took him for an organisation."""
    owen = mem_store.save(
        "Owen's mentor is Siobhan Kelly.",
        subject="Owen Gallagher",
        relation="mentor",
        value="Siobhan Kelly",
    )
    lucas = mem_store.save(
        "Lucas Moreau picks up his prescriptions at Boots.",
        subject="Lucas Moreau",
        relation="pharmacy",
        value="Boots",
    )
    mem_store.save("Yoga Loft lost Owen to Iyengar Institute after his back injury.")
    mem_store.save("Lucas gave up on Canal+ and went with Prime Video.")
    assert mem_store.search("Who is Owen's mentor at the moment?", k=3)[0].memory.id == owen.id
    assert mem_store.search("Which pharmacy does Lucas use?", k=3)[0].memory.id == lucas.id


def test_a_keyed_fact_answers_a_question_that_names_its_statement_not_its_key(
    mem_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "How does Amara get to work?" names no word of `commute_mode`, and the relation name's
    embedding is far from it (0.15): the statement of the key is close."""
    commute = mem_store.save(
        "Amara Nwosu cycles to the office now.",
        subject="Amara Nwosu",
        relation="commute_mode",
        value="cycling",
    )
    mem_store.save(
        "Amara Nwosu does all her mockups in Sketch.",
        subject="Amara Nwosu",
        relation="design_tool",
        value="Sketch",
    )
    mem_store.save("Amara's flatmate drives in, which Amara thinks is madness.")
    mem_store.save("Amara's team migrated to Figma in April and she went with them.")
    question = "How does Amara get to work these days?"
    top = mem_store.search(question, k=3, explain=True)[0]
    assert top.memory.id == commute.id and "ledger" in top.channels
    monkeypatch.setattr(ledger_search, "STATEMENT_FLOOR", 2.0)  # the step off: no answer
    assert "ledger" not in mem_store.search(question, k=3, explain=True)[0].channels


def _save_keyed(store: MemoryStore, subject: str, *said: tuple[str, str, str]) -> None:
    """Save each (text, relation, value) keyed to `subject`, in order."""
    for text, relation, value in said:
        store.save(text, subject=subject, relation=relation, value=value)


def test_an_earlier_statement_of_a_key_names_it_for_its_current_value(
    mem_store: MemoryStore,
) -> None:
    """The latest statement of Noor's word processor names only the app and her spreadsheet's
    mentions essays (question / statement cosine 0.48 against 0.54); the word processor's first
    statement says what she does with it, as the question does (0.83): its key answers."""
    _save_keyed(
        mem_store,
        "Noor Haddad",
        ("Noor drafts all her essays in Scrivener.", "word_processor", "Scrivener"),
        ("Noor keeps her monthly budget in an Excel sheet.", "spreadsheet_app", "Excel"),
        ("Noor gave in and moved to Google Docs.", "word_processor", "Google Docs"),
        ("Noor logs the word count of every essay in Numbers now.", "spreadsheet_app", "Numbers"),
    )
    top = mem_store.search("What does Noor draft her essays in these days?", k=3, explain=True)
    assert top[0].memory.content == "Noor gave in and moved to Google Docs."
    assert "ledger" in top[0].channels


def test_without_a_lead_in_meaning_the_key_sharing_the_questions_words_answers(
    mem_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When no key's statements lead in meaning (the margin is raised out of reach here), the key
    whose statements share the most words with the question answers; with no shared words, none
    does."""
    _save_keyed(
        mem_store,
        "Imani Okafor",
        ("Imani writes her grant reports in LibreOffice Writer.", "word_processor", "Writer"),
        ("Imani does the grant maths in LibreOffice Calc.", "spreadsheet_app", "Calc"),
        ("Imani caved and moved to Microsoft Word.", "word_processor", "Microsoft Word"),
        ("The grant maths moved to Excel for Imani.", "spreadsheet_app", "Excel"),
    )
    monkeypatch.setattr(ledger_search, "STATEMENT_MARGIN", 1.0)
    question = "What does Imani write her grant reports in these days?"
    top = mem_store.search(question, k=3, explain=True)[0]
    assert top.memory.content == "Imani caved and moved to Microsoft Word."
    assert "ledger" in top.channels
    monkeypatch.setattr(ledger_search, "_content_words", lambda text: set())
    assert all("ledger" not in hit.channels for hit in mem_store.search(question, explain=True))
