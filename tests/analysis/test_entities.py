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


def test_accented_letters_belong_to_names() -> None:
    # `[A-Z]` read "Chloé" as "Chlo" and no name at all in "Élodie" (names are
    # compared without their accents).
    found = dict(names("Chloé skied near Kraków with Élodie Dupont and Zoë."))
    assert found == {"chloe": False, "krakow": True, "elodie dupont": True, "zoe": True}


def test_an_acronym_may_skip_linking_words_and_join_with_an_ampersand() -> None:
    from mnemex.analysis.canon import acronym_of

    assert acronym_of("AWS", "Amazon Web Services")
    assert acronym_of("NCAR", "National Center for Atmospheric Research")
    assert acronym_of("RSPB", "Royal Society for the Protection of Birds")
    assert acronym_of("H&F", "Hammersmith & Fulham")
    assert not acronym_of("NCAR", "National Centre")
    assert not acronym_of("Ab", "Alpha Beta")  # not capitals
    assert not acronym_of("A&", "Alpha Beta")
