"""Duplicate checker: is a new text the same memory as one already stored?

similarity = w * cosine(embeddings) + (1 - w) * Dice(content words), minus a penalty for each
contrast cue (contrast.py: a different number, an opposite, a negation on one side, ...). Without
embeddings the lexical part stands alone. MERGE above `dedup_merge` (0.9), REVIEW above
`dedup_review` (0.85). The weights were chosen on bench/data/dedup_pairs.txt (the dev set);
`mnemex eval activation` reports the false-positive rate on bench/data/dedup_test.txt.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from mnemex.analysis import contrast
from mnemex.gazetteer import canonical_map
from mnemex.text import STOPWORDS

Vector = npt.NDArray[np.float32]
EMBED_WEIGHT = 0.6
CONTRAST_PENALTY = 0.15  # per contrast cue (a different number, an opposite, ...)
VARIANT_RATIO = 0.8  # "colour"/"color" 0.91, "standardise"/"standardize" 0.91, "cat"/"car" no
_EXTRA_STOP = frozenset({"im", "ive", "id", "ill", "re", "please", "also", "about", "remember"})


@dataclass(frozen=True, slots=True)
class Verdict:
    """The most similar stored memory and what to do about it."""

    memory_id: str
    similarity: float
    action: str  # "MERGE" | "REVIEW"


def tokens(text: str) -> list[str]:
    """Content words, accent-folded, numbers as digits, known aliases canonical."""
    aliases = _aliases()
    out = []
    for raw in contrast.words(text):
        word = aliases.get(raw, raw)
        if word in STOPWORDS or word in _EXTRA_STOP:
            continue
        out.append(contrast.stem(word))
    return out


_ALIASES: dict[str, str] = {}


def _aliases() -> dict[str, str]:
    if not _ALIASES:
        _ALIASES.update({k: v.casefold() for k, (v, _) in canonical_map().items()})
    return _ALIASES


def dice(a: Sequence[str], b: Sequence[str]) -> float:
    """Dice coefficient of two word sets; spelling variants ("colour", "color") count as equal."""
    sa, sb = set(a), set(b)
    if not sa and not sb:
        return 1.0
    shared = len(sa & sb)
    left, right = sorted(sa - sb), sorted(sb - sa)
    for word in left:
        match = next((w for w in right if _variant(word, w)), None)
        if match is not None:
            shared += 1
            right.remove(match)
    return 2 * shared / (len(sa) + len(sb))


def _variant(a: str, b: str) -> bool:
    """Two spellings of one word: same first letter, at most one edit apart in 5+ letters."""
    if a[:1] != b[:1] or min(len(a), len(b)) < 4:
        return False
    return difflib.SequenceMatcher(None, a, b).ratio() >= VARIANT_RATIO


def closeness(a: str, b: str, va: Vector | None = None, vb: Vector | None = None) -> float:
    """Similarity before contrast penalties: embedding cosine blended with word overlap."""
    lexical = dice(tokens(a), tokens(b))
    if va is None or vb is None:
        return lexical
    return EMBED_WEIGHT * float(np.dot(va, vb)) + (1 - EMBED_WEIGHT) * lexical


def similarity(a: str, b: str, va: Vector | None = None, vb: Vector | None = None) -> float:
    """How much `b` is the same memory as `a`, in [0, 1]."""
    score = closeness(a, b, va, vb) - CONTRAST_PENALTY * len(contrast.contrasts(a, b))
    return max(0.0, min(1.0, score))


def check(
    text: str,
    vector: Vector | None,
    candidates: Sequence[tuple[str, str, Vector | None]],
    *,
    merge: float,
    review: float,
) -> Verdict | None:
    """The best candidate (id, content, vector) at or above `review`, or None."""
    best: tuple[float, str] | None = None
    for memory_id, content, other in candidates:
        if closeness(content, text, other, vector) < review:
            continue  # penalties only lower a score: no need to look for contrasts
        score = similarity(content, text, other, vector)
        if best is None or score > best[0]:
            best = (score, memory_id)
    if best is None or best[0] < review:
        return None
    return Verdict(best[1], round(best[0], 4), "MERGE" if best[0] >= merge else "REVIEW")
