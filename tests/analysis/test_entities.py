"""The light entity source: speaker labels, capitalised names, uncertain sentence openers."""

from __future__ import annotations

from mnemex.retrieval.entities import names


def test_speaker_label_is_the_certain_subject() -> None:
    found = names("Caroline: Hey Mel! I went to a LGBTQ support group yesterday.")
    assert found[0] == ("caroline", True)
    assert ("mel", True) in found and ("lgbtq", True) in found


def test_names_inside_sentences_are_certain_and_openers_are_not() -> None:
    found = dict(names("Alice switched to Neovim after the Berlin offsite with Bob Smith."))
    assert found == {"alice": False, "neovim": True, "berlin": True, "bob smith": True}


def test_greetings_time_words_and_pronouns_are_not_names() -> None:
    found = dict(names("Thanks, Melanie! Yesterday was great. On Monday I'll call Dr Quinn."))
    assert "thanks" not in found and "yesterday" not in found and "monday" not in found
    assert found["melanie"] is True and found["quinn"] is True


def test_possessives_fold_into_the_name() -> None:
    assert names("We met at Jordan's place, then Jordan left.") == [("jordan", True)]


def test_plain_lowercase_text_names_nothing() -> None:
    assert names("the deploy moved to friday because of the outage") == []
    assert names("") == []
