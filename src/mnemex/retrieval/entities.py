"""A light, model-free entity source for the graph: capitalised names and speaker labels.

The analysis layer (spaCy NER) links entities to memories when they are saved; the graph reads
those links. Until a memory has them, or when analysis is off, this extractor stands in: names
written with capitals that are not a sentence's first word (which is capitalised anyway), and
the speaker label of a chat line ("Alice: ..."). The first name a memory gives is its subject.
"""

from __future__ import annotations

import re

from mnemex.text import ALNUM, STOPWORDS, UPPER, normalize_name

_SPEAKER = re.compile(rf"^\s*([{UPPER}][\w'’-]*(?:\s+[{UPPER}][\w'’-]*){{0,2}})\s*:\s")
_SENTENCE = re.compile(r"(?<=[.!?…])\s+|\n+")
_NAME = re.compile(rf"\b[{UPPER}][\w'’-]*{ALNUM}(?:\s+[{UPPER}][\w'’-]*{ALNUM})*")
_POSSESSIVE = re.compile(r"(?:'s|’s|'|’)$")
# Capitalised words that are not names: greetings, time words, pronoun contractions.
_NOT_NAMES = frozenset(
    """
    monday tuesday wednesday thursday friday saturday sunday january february march april may
    june july august september october november december today tomorrow yesterday tonight ok
    okay please thanks thank hi hello hey yes yeah no wow oh omg lol haha btw i'm i've i'd i'll
    mr mrs ms dr
    """.split()
)
MAX_NAMES = 16  # a long memory names many things; the first few carry its topic


def _clean(name: str) -> str | None:
    """A candidate name without leading greetings or stopwords, normalised; None if nothing left."""
    words = [_POSSESSIVE.sub("", word) for word in name.split()]
    while words and (words[0].casefold() in _NOT_NAMES or words[0].casefold() in STOPWORDS):
        words = words[1:]
    if not words or len(words[0]) < 2:
        return None
    norm = normalize_name(" ".join(words))
    return None if norm in _NOT_NAMES or norm in STOPWORDS else norm


def names(text: str) -> list[tuple[str, bool]]:
    """(normalised name, certain) in first-occurrence order; the first is the subject.

    `certain` is False for a lone capitalised word opening a sentence ("Thanks", "Alice").
    """
    found: dict[str, bool] = {}
    speaker = _SPEAKER.match(text)
    if speaker:
        label = _clean(speaker.group(1))
        if label:
            found[label] = True
        text = text[speaker.end() :]
    for sentence in _SENTENCE.split(text):
        opening = len(sentence) - len(sentence.lstrip())
        for match in _NAME.finditer(sentence):
            candidate = match.group(0)
            certain = match.start() != opening or " " in candidate
            if not certain and candidate.endswith(("'s", "’s")):
                certain = True  # "Alice's plan": a possessive opening a sentence is a name
            name = _clean(candidate)
            if name:
                found[name] = found.get(name, False) or certain
            if len(found) >= MAX_NAMES:
                return list(found.items())
    return list(found.items())
