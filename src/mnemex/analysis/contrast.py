"""Contrast cues: what makes two near-identical sentences say different things.

A sentence embedding scores "the freeze starts Thursday" and "the freeze ends Thursday" as almost
the same. These cues catch what a paraphrase never changes: a number, the polarity (a negation or
a "used to" on one side only), the word a negation applies to, who the sentence is about, an
antonym swapped in, or the direction of a relation ("A reports to B" vs "B reports to A").
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable

from mnemex.text import UPPER

_WORD = re.compile(r"[^\W_]+")
_DIGITS = re.compile(r"\d+(?:[.:]\d+)*")
NUMBER_WORDS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "twenty": "20",
    "first": "1st", "second": "2nd", "third": "3rd",
}  # fmt: skip
_CONTRACTION = re.compile(r"n't\b|'re\b|'m\b|'ve\b|'ll\b|'d\b")
_EXPANSIONS = {
    "n't": " not",
    "'re": " are",
    "'m": " am",
    "'ve": " have",
    "'ll": " will",
    "'d": " would",
}
_NEGATIONS = frozenset({"not", "no", "never", "dont", "doesnt", "didnt", "isnt", "cant", "cannot"})
# Markers of a past or changed state: "used to", "no longer", "was ... until", "old".
_STATE_CHANGE = re.compile(
    r"\b(?:used to|no longer|anymore|any more|formerly|previously|former|ex|until|old|stopped|"
    r"stop|quit|left|cancelled|canceled|is learning|rewriting)\b"
)
_SPEAKER = frozenset({"i", "me", "my", "mine", "im", "ive", "id", "myself"})
_PEOPLE = frozenset(
    """
    wife husband partner son daughter kids kid child children mother mum mom father dad brother
    sister aunt uncle cousin grandma grandpa grandmother grandfather friend boss manager colleague
    neighbour neighbor team accountant landlord doctor vet cat dog
    """.split()
)
# Opposites a paraphrase never swaps in; each pair is checked both ways on word stems.
_ANTONYMS = [
    ("start", "end"), ("start", "finish"), ("begin", "end"), ("begin", "finish"),
    ("open", "close"), ("like", "dislike"), ("love", "hate"), ("prefer", "avoid"),
    ("join", "leave"), ("join", "left"), ("add", "remove"), ("add", "drop"), ("keep", "remove"),
    ("keep", "drop"), ("enable", "disable"), ("enabled", "disabled"), ("arrive", "leave"),
    ("land", "leave"), ("lands", "leaves"), ("before", "after"), ("increase", "decrease"),
    ("more", "less"), ("allow", "block"), ("accept", "reject"), ("buy", "sell"), ("hire", "fire"),
    ("early", "late"), ("first", "last"), ("min", "max"), ("win", "lose"), ("on", "off"),
    ("up", "down"), ("in", "out"), ("short", "long"), ("short", "detailed"), ("cheap", "expensive"),
    ("home", "office"), ("opens", "closes"), ("starts", "finishes"), ("production", "staging"),
    ("weekly", "daily"), ("weekly", "nightly"), ("monthly", "weekly"), ("yes", "no"),
]  # fmt: skip
# Closed sets whose members exclude each other: "Wednesdays" and "Thursdays" are never paraphrases.
_EXCLUSIVE_SETS = [
    frozenset("monday tuesday wednesday thursday friday saturday sunday weekday weekend".split()),
    # "may" and "fall" are left out: far more often a modal verb and a verb than a month, a season.
    frozenset("january february march april june july august september".split())
    | frozenset("october november december".split()),
    frozenset("spring summer autumn winter".split()),
    frozenset("morning afternoon evening night midnight noon".split()),
    frozenset("red orange yellow green blue purple pink brown black white grey gray".split()),
    frozenset("north south east west".split()),
]
# Capitalised words that are not names: sentence openers and pronouns.
_COMMON_CAPITALS = frozenset(
    "i a an the on in at my our we you he she they it this that there when if our".split()
)
_DIRECTION = frozenset({"to", "instead", "over", "than", "from", "vs", "versus", "not"})


def fold(text: str) -> str:
    """Lowercase, accents removed, contractions spelled out ("we're" -> "we are")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("’", "'"))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _CONTRACTION.sub(lambda m: _EXPANSIONS[m.group(0)], plain).replace("'", "")


@functools.lru_cache(maxsize=4096)
def words(text: str) -> tuple[str, ...]:
    """Folded words, number words as digits (cached: a message meets many candidates)."""
    return tuple(NUMBER_WORDS.get(w, w) for w in _WORD.findall(fold(text)))


def numbers(text: str) -> set[str]:
    """Every number of the text (digits and number words)."""
    found = set(_DIGITS.findall(fold(text)))
    found.update(w for w in words(text) if w[:1].isdigit())
    return found


def _polarity(text: str) -> tuple[bool, bool]:
    folded = " ".join(words(text))
    return bool(set(folded.split()) & _NEGATIONS), bool(_STATE_CHANGE.search(folded))


def _negated_word(text: str) -> str | None:
    seq = words(text)
    for i, word in enumerate(seq[:-1]):
        if word in _NEGATIONS:
            return seq[i + 1]
    return None


def _people(text: str) -> frozenset[str]:
    seq = {w[:-1] if w.endswith("s") and w[:-1] in _PEOPLE else w for w in words(text)}
    return frozenset(({"speaker"} if seq & _SPEAKER else set()) | (seq & _PEOPLE))


def _other_people(a: str, b: str) -> bool:
    """Both sentences are about someone, and not about the same people ("I" vs "my son")."""
    pa, pb = _people(a), _people(b)
    return bool(pa) and bool(pb) and pa != pb


_PRESENT = frozenset({"is", "are", "am", "s", "im", "re"})
_PAST = frozenset({"was", "were"})


def _tense(a: str, b: str) -> bool:
    """A present state on one side, the same state in the past on the other ("is" / "was")."""
    wa, wb = set(words(a)), set(words(b))
    return bool(
        (wa & _PRESENT and wb & _PAST and not wb & _PRESENT)
        or (wb & _PRESENT and wa & _PAST and not wa & _PRESENT)
    )


@functools.lru_cache(maxsize=16_384)
def stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


_STEMMED_ANTONYMS = [(stem(first), stem(second)) for first, second in _ANTONYMS]
_STEMMED_SETS = [frozenset(stem(w) for w in group) for group in _EXCLUSIVE_SETS]


def _antonym_swap(a: str, b: str) -> bool:
    wa, wb = {stem(w) for w in words(a)}, {stem(w) for w in words(b)}
    only_a, only_b = wa - wb, wb - wa
    return any(
        (x in only_a and y in only_b) or (y in only_a and x in only_b) for x, y in _STEMMED_ANTONYMS
    )


def _exclusive_swap(a: str, b: str) -> bool:
    """Each side names a different member of a closed set (a weekday, a month, a colour...)."""
    wa, wb = {stem(w) for w in words(a)}, {stem(w) for w in words(b)}
    return any((wa & members) - wb and (wb & members) - wa for members in _STEMMED_SETS)


def _around(text: str) -> set[tuple[str, str]]:
    seq = words(text)
    return {(seq[i - 1], seq[i + 1]) for i in range(1, len(seq) - 1) if seq[i] in _DIRECTION}


def _direction_swap(a: str, b: str) -> bool:
    pairs_a, pairs_b = _around(a), _around(b)
    return any((right, left) in pairs_b and left != right for left, right in pairs_a)


_CAPITALISED = re.compile(rf"\b[{UPPER}][\w-]*")


def _names(text: str) -> list[str]:
    return [w for w in _CAPITALISED.findall(text) if w.casefold() not in _COMMON_CAPITALS]


def _word_order_swap(a: str, b: str) -> bool:
    """Same words, two of them trading places ("A reports to B" / "B reports to A")."""
    if _direction_swap(a, b):
        return True
    if sorted(words(a)) != sorted(words(b)):
        return False
    names_a, names_b = _names(a), _names(b)
    swapped = len(names_a) >= 2 and sorted(names_a) == sorted(names_b) and names_a != names_b
    return (swapped and names_a[0] != names_b[0]) or _negated_word(a) != _negated_word(b)


CUES: dict[str, Callable[[str, str], bool]] = {
    "numbers": lambda a, b: numbers(a) != numbers(b),
    "polarity": lambda a, b: _polarity(a) != _polarity(b),
    "negated_word": lambda a, b: _negated_word(a) != _negated_word(b),
    "people": _other_people,
    "tense": _tense,
    "antonym": _antonym_swap,
    "exclusive": _exclusive_swap,
    "direction": _word_order_swap,
}


def contrasts(a: str, b: str) -> list[str]:
    """Names of the cues that say `a` and `b` differ."""
    return [name for name, cue in CUES.items() if cue(a, b)]
