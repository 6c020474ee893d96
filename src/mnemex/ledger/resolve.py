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

from mnemex.ledger import assertion
from mnemex.text import STOPWORDS

CENTRE_PRIOR = 5.0  # the centre is the subject's mean shrunk as if 5 zero vectors joined
LINK = 0.2  # centred cosine to the seed at which a statement joins the seed's group
MARGIN = 0.25  # ... and how far below the seed's question cosine it may be
POOL = 20  # candidates read, best first
FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|my|me|mine|myself)\b", re.IGNORECASE)
_PAST = re.compile(
    r"\b(?:before|used\s+to|previous(?:ly)?|prior\s+to|formerly|former|originally|"
    r"at\s+first|in\s+the\s+past|until|earlier|back\s+then|back\s+when|any\s?more|"
    r"no\s+longer|(?:the|his|her|their|my)\s+old|first\s+one|had\s+been)\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[\w][\w'.+-]*\w|\w")

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


def _tokens(text: str) -> list[str]:
    return [t.casefold() for t in _TOKEN.findall(text)]


def subject_names(question: str, candidates: Sequence[Candidate]) -> set[str]:
    """The candidates' entity names the question names (whole, or by a first name)."""
    asked = set(_tokens(question)) - STOPWORDS
    found: set[str] = set()
    for candidate in candidates:
        for name in candidate.entities:
            parts = _tokens(name)
            if not parts:
                continue
            if " ".join(parts) in " ".join(_tokens(question)) or parts[0] in asked:
                found.add(parts[0])
    return found


def about(candidate: Candidate, names: set[str], first_person: bool) -> bool:
    """True when the candidate speaks of one of the names (or of the user, in the first person)."""
    if names:
        return bool(names & set(_tokens(candidate.text)))
    return first_person and FIRST_PERSON.search(candidate.text) is not None


def _unit(matrix: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: npt.NDArray[np.float32] = matrix / np.maximum(norms, 1e-9)
    return unit


def _group(members: list[Candidate], query: Vector) -> list[int]:
    """Indexes (into members; 0 is the seed) of the statements about the seed's attribute."""
    matrix = np.stack([m.vector for m in members if m.vector is not None]).astype(np.float32)
    centre = matrix.sum(axis=0) / (len(matrix) + CENTRE_PRIOR)
    centred = _unit(matrix - centre)
    link = centred @ centred[0]
    closeness = _unit(matrix) @ (query / max(float(np.linalg.norm(query)), 1e-9))
    floor = float(closeness[0]) - MARGIN
    return [i for i in range(len(members)) if i == 0 or (link[i] >= LINK and closeness[i] >= floor)]


def _value_words(text: str, shared: set[str]) -> set[str]:
    """What a statement says the value is, roughly: its words minus the group's common ones."""
    return {t for t in _tokens(text) if t not in STOPWORDS and t not in shared and len(t) > 1}


def _before_current(group: list[Candidate], question: str, names: set[str]) -> Candidate | None:
    """The assertion that set the value before the current one (restatements skipped)."""
    ordered = sorted(group, key=lambda c: c.when)
    counts: dict[str, int] = {}
    for c in ordered:
        for t in set(_tokens(c.text)):
            counts[t] = counts.get(t, 0) + 1
    shared = {t for t, n in counts.items() if n * 2 > len(ordered)} | names
    values = [_value_words(c.text, shared) for c in ordered]
    asked = set(_tokens(question)) - STOPWORDS - names
    # "before Y": start from the first statement naming Y, else from the latest one.
    start = len(ordered) - 1
    for i, words in enumerate(values):
        if words & asked:
            start = i
            break
    current = values[start]
    for i in range(start - 1, -1, -1):
        if not values[i] & current:
            return ordered[i]
        current = current | values[i]  # a restatement: its words are the current value's too
    return None


def resolve(
    question: str,
    query: Vector | None,
    candidates: Sequence[Candidate],
    *,
    period_end: int | None = None,
    floor: float = 0.5,
) -> str | None:
    """The id of the candidate that answers the question's attribute at its time, or None."""
    if query is None or len(candidates) < 2:
        return None
    pool = [c for c in candidates[:POOL] if c.vector is not None]
    names = subject_names(question, pool)
    members = [c for c in pool if about(c, names, FIRST_PERSON.search(question) is not None)]
    if len(members) < 2:
        return None
    group = [members[i] for i in _group(members, query)]
    if len(group) < 2:
        return None
    scores = assertion.probabilities(
        [c.text for c in group], np.stack([c.vector for c in group if c.vector is not None])
    )
    asserted = [c for c, p in zip(group, scores, strict=True) if p >= floor]
    if not asserted:
        return None
    mode = mode_of(question, period_end)
    if mode is Mode.AT and period_end is not None:
        held = [c for c in asserted if c.when < period_end]
        return max(held, key=lambda c: c.when).id if held else None
    if mode is Mode.PAST:
        before = _before_current(asserted, question, names)
        return before.id if before is not None else None
    return max(asserted, key=lambda c: c.when).id
