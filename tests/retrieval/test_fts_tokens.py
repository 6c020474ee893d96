"""FTS5's tokenizer for Python: the store's terms for query words and for memories' fields."""

from __future__ import annotations

from mnemex.store.fts_tokens import Tokenizer


def test_query_words_get_the_terms_the_store_indexes() -> None:
    tokens = Tokenizer()
    assert tokens.terms(["Running", "cafés", "naïve", "migrations", "42"]) == [
        ("run",),
        ("cafe",),
        ("naiv",),
        ("migrat",),
        ("42",),
    ]
    assert tokens.terms(["running", "Running"]) == [("run",), ("run",)]  # cached or not alike


def test_fields_are_cut_into_tokens_with_their_row_and_field() -> None:
    terms, rows, in_content = Tokenizer().tokens(
        [("Deploys on Friday", '["ops"]', "[]"), ("", "[]", '["Alice"]')]
    )
    assert sorted(zip(terms, rows, in_content, strict=True)) == [
        ("alic", 1, 0),
        ("deploi", 0, 1),
        ("fridai", 0, 1),
        ("on", 0, 1),
        ("op", 0, 0),
    ]
    assert Tokenizer().tokens([]) == ((), (), ())
