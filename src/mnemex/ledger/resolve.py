"""Read-time resolution: among the statements a search found about one subject's attribute,
answer with the latest assertion (or, for a question about the past, the one before it).

The safety net for every statement the save side could not key. It needs no extraction:

1. **Subject**: the names the question shares with the candidates' entities (a first name
   matches a full name); a question in the first person is about the user.
2. **Seed and group**: the best-ranked candidate about the subject is the seed; the others join
   its group when their embeddings, *centred* on the subject's statements (so what they share,
   the person, cancels out and what is left is the attribute), point the same way as the seed's.
3. **Assertion, not mention**: a learned model on the embedding and the words (see
   `assertion.py`) says whether a statement sets the subject's own value or only mentions one;
   mentions never answer.
4. **Time**: the latest assertion answers a question about now; "before", "used to",
   "previously" ask for the assertion that set the value before the current one (skipping
   restatements of it); a named period or `as_of` asks for the latest assertion then.

Nothing is hidden: the answer moves to the top and every other hit keeps its place below it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt

from mnemex.ledger import assertion, attribute
from mnemex.ledger.attribute import names_in, tokens
from mnemex.text import STOPWORDS

CHANGE_FLOOR = 0.5  # P(change) a statement naming a value no earlier assertion named must have
ANCHOR_FLOOR = 0.5  # P(same attribute) at which a statement joins the ledger answer's group
ANCHOR_LINK = 0.4  # ... and the least centred cosine to it (templated notes look alike)
# P(assertion) below which the ledger's answer reads as a mention and stops being the anchor:
# the model's own boundary, lower than `floor`, for the write side already read it as a value.
ANCHOR_MENTION = 0.5
POOL = 20  # candidates read, best first
FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|my|me|mine|myself)\b", re.IGNORECASE)
_PAST = re.compile(
    r"\b(?:before|used\s+to|did\b[^?.]*\buse\s+to|previous(?:ly)?|prior\s+to|formerly|former|originally|"
    r"at\s+first|in\s+the\s+past|until|earlier|back\s+then|back\s+when|any\s?more|"
    r"no\s+longer|(?:the|his|her|their|my)\s+old|first\s+one|had\s+been)\b",
    re.IGNORECASE,
)
CALENDAR = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday "
    "saturday sunday".split()
)

Vector = npt.NDArray[np.float32]


class Mode(Enum):
    """What time a question asks about."""

    NOW = "now"
    PAST = "past"  # the value before the current one
    AT = "at"  # the value at a time (a named period, or as_of)


def mode_of(question: str, period_end: int | None) -> Mode:
    """The question's time: a named period, else a cue of the past, else now."""
    if period_end is not None:
        return Mode.AT
    return Mode.PAST if _PAST.search(question) else Mode.NOW


@dataclass(frozen=True, slots=True)
class Candidate:
    """One search candidate as resolution reads it (rank order is the list order)."""

    id: str
    text: str
    entities: Sequence[str]
    when: int  # microseconds: observed_at, else created_at
    vector: Vector | None


def subject_names(question: str, candidates: Sequence[Candidate]) -> set[str]:
    """The candidates' entity names the question names (whole, or by a first name)."""
    asked = set(tokens(question)) - STOPWORDS
    found: set[str] = set()
    for candidate in candidates:
        for name in candidate.entities:
            parts = tokens(name)
            if not parts:
                continue
            if " ".join(parts) in " ".join(tokens(question)) or parts[0] in asked:
                found.add(parts[0])
    return found


def about(candidate: Candidate, names: set[str], first_person: bool) -> bool:
    """True when the candidate speaks of one of the names (or of the user, in the first person)."""
    if names:
        return bool(names & set(tokens(candidate.text)))
    return first_person and FIRST_PERSON.search(candidate.text) is not None


def _value_words(text: str, ignore: set[str]) -> set[str]:
    """What a statement says the value is, roughly: its names (capitalised words, numbers), or
    else its content words, minus the subject, the question's and the group's common words."""
    named = names_in(text.strip()) - ignore
    if named:
        return named
    return {t for t in tokens(text) if t not in STOPWORDS and t not in ignore and len(t) > 1}


def _subject_words(members: Sequence[Candidate], names: set[str]) -> set[str]:
    """The subject's names and every word of its whole name ("ethan", "cole" for "Ethan Cole")."""
    return names | {
        part
        for c in members
        for name in c.entities
        if (parts := tokens(name)) and parts[0] in names
        for part in parts
    }


def _before_current(group: list[Candidate], question: str, names: set[str]) -> Candidate | None:
    """The assertion that set the value before the current one (restatements skipped).

    Walking back from the latest assertion: one naming only the current value restates it; one
    naming it and more is the change to it (the more is the old value); the first naming the
    old value, or something else, answers. "before Y" starts from the first statement naming Y.
    """
    ordered = sorted(group, key=lambda c: c.when)
    every = set.intersection(*(set(tokens(c.text)) for c in ordered))
    asked = set(tokens(question)) - STOPWORDS - names
    # The subject's whole name ("Ethan Cole" for "ethan") and dates are no value ("in April").
    ignore = _subject_words(ordered, names) | every | asked | CALENDAR
    values = [_value_words(c.text, ignore) for c in ordered]
    start, current = len(ordered) - 1, values[-1]
    named = names_in(question) - names
    for i, c in enumerate(ordered):
        if named & names_in(c.text):
            start, current = i, named
            break
    old: set[str] = set()
    changed: Candidate | None = None
    for i in range(start - 1, -1, -1):
        words = values[i]
        if old and words & old:
            return ordered[i]
        if words <= current:
            continue  # a restatement of the current value
        if words & current and changed is None:
            changed, old = ordered[i], words - current  # the change to the current value
            continue
        if not old:
            return ordered[i]
    if changed is not None:
        return changed
    return ordered[start] if start < len(ordered) - 1 and start > 0 else None


def _settled(asserted: list[Candidate], subject: set[str]) -> list[Candidate]:
    """The assertions that may answer: a statement naming a value no earlier assertion named
    must read as a change (the change model); one restating a known value, or naming the old
    one, need not. The first assertion sets the first value and always stays."""
    ordered = sorted(asserted, key=lambda c: c.when)
    named = [names_in(c.text) - subject - CALENDAR for c in ordered]
    fresh = [
        i
        for i in range(1, len(ordered))
        if named[i] and not any(named[i] & named[j] for j in range(i))
    ]
    if not fresh:
        return ordered
    vectors = [v for i in fresh if (v := ordered[i].vector) is not None]
    if len(vectors) < len(fresh):
        return ordered  # resolve() passes only candidates with vectors
    changes = assertion.change_probabilities([ordered[i].text for i in fresh], np.stack(vectors))
    dropped = {i for i, p in zip(fresh, changes, strict=True) if p < CHANGE_FLOOR}
    return [c for i, c in enumerate(ordered) if i not in dropped]


def about_subject(question: str, candidates: Sequence[Candidate]) -> list[Candidate]:
    """The best `POOL` candidates that speak of the subject the question names (read before
    any vector is loaded: most questions name none, and resolution then costs nothing more)."""
    pool = list(candidates[:POOL])
    names = subject_names(question, pool)
    first_person = FIRST_PERSON.search(question) is not None
    return [c for c in pool if about(c, names, first_person)]


def resolve(
    question: str,
    query: Vector | None,
    members: Sequence[Candidate],
    *,
    period_end: int | None = None,
    floor: float = 0.7,
    anchor: str | None = None,
) -> str | None:
    """The id of the statement about the subject (`about_subject`'s, with their vectors) that
    answers the question's attribute at its time, or None.

    `anchor`: the memory stating the value the ledger read off plain text for the question. It
    is the seed, only statements much like it form its group, and only a later assertion among
    them answers instead (the ledger missed the change). An anchor that reads as a mention is
    no anchor: the question is resolved as if the ledger had no answer.
    """
    members = [c for c in members if c.vector is not None]
    if query is None or len(members) < 2:
        return None
    names = subject_names(question, members)
    seed = next((i for i, c in enumerate(members) if c.id == anchor), None)
    if anchor is not None and seed is None:
        return None  # the ledger's answer is not about the subject the question names
    if seed is not None:
        said = members[seed]
        assert said.vector is not None  # members without vectors were dropped above
        if assertion.probabilities([said.text], said.vector[None, :])[0] < ANCHOR_MENTION:
            seed = None  # read off a mention: resolve as if the ledger had no answer
    chosen = attribute.group(
        [c.text for c in members],
        np.stack([c.vector for c in members if c.vector is not None]).astype(np.float32),
        question,
        query,
        _subject_words(members, names),
        seed,
        attribute.FLOOR if seed is None else ANCHOR_FLOOR,
        attribute.LINK if seed is None else ANCHOR_LINK,
    )
    group = [members[i] for i in chosen]
    if len(group) < 2:
        return None
    scores = assertion.probabilities(
        [c.text for c in group], np.stack([c.vector for c in group if c.vector is not None])
    )
    asserted = _settled(
        [c for c, p in zip(group, scores, strict=True) if p >= floor], _subject_words(group, names)
    )
    if not asserted:
        return None
    mode = mode_of(question, period_end)
    if mode is Mode.AT and period_end is not None:
        held = [c for c in asserted if c.when < period_end]
        return max(held, key=lambda c: c.when).id if held else None
    if mode is Mode.PAST:
        before = _before_current(asserted, question, names)
        return before.id if before is not None else None
    latest = max(asserted, key=lambda c: c.when)
    if seed is not None and latest.when <= members[seed].when:
        return None  # the ledger's answer is the latest assertion: it stands
    return latest.id
