"""Lexical features of a message for the intent classifier (shared by training and run time).

Two parts: a handful of cue flags (explicit phrases, preference / decision / update / greeting
words, question form, person) and hashed word unigrams and bigrams. The sentence embedding, when
the model is on, is concatenated in front by intent.py.
"""

from __future__ import annotations

import itertools
import re
import zlib

import numpy as np
import numpy.typing as npt

from mnemex.analysis import phrases

HASH_DIMS = 1024
Vector = npt.NDArray[np.float32]

_CUES: list[tuple[str, re.Pattern[str]]] = [
    (
        "preference",
        re.compile(
            r"\b(?:prefer|prefers|preferred|like|likes|love|loves|enjoy|enjoys|hate|hates|dislike|"
            r"dislikes|favou?rite|rather|fan of|cant stand|cant bear|allergic|vegan|vegetarian|"
            r"intolerant|avoid|into|please always|never suggest|i want|i need)\b"
        ),
    ),
    (
        "decision",
        re.compile(
            r"\b(?:decided|decide|decision|chose|choose|chosen|picked|pick|agreed|agree|settled|"
            r"going with|go with|opted|approved|voted|plan is|plan of record|were going to|"
            r"going to|lets|final|committing|adopt|adopting|signed|resolved|will be|well)\b"
        ),
    ),
    (
        "update",
        re.compile(
            r"\b(?:actually|correction|correcting|update|updated|changed|change|no longer|anymore|"
            r"any more|instead|switched|moved|renamed|replaced|scratch|wrong|used to|took over|"
            r"left|turns out|now|new|not [\w ]{1,20} but|reversed|since)\b"
        ),
    ),
    (
        "recall",
        re.compile(
            r"\b(?:remember|recall|remind|again|did i|did we|what did|what was|told you|"
            r"mentioned|my notes|i forget|i forgot)\b"
        ),
    ),
    (
        "wh_start",
        re.compile(
            r"^(?:what|whats|how|why|when|where|who|which|is|are|can|could|should|do|does|"
            r"did|will|would|explain|write|give|list|summari[sz]e|recommend|translate|generate|"
            r"help|tell|show|draft)\b"
        ),
    ),
    (
        "greeting",
        re.compile(
            r"\b(?:hi|hello|hey|heya|hiya|howdy|thanks|thank|thx|ty|cheers|bye|goodbye|morning|"
            r"evening|night|ciao|yo|greetings|appreciate|appreciated|welcome|later)\b"
        ),
    ),
    ("first_person", re.compile(r"\b(?:i|me|my|mine|myself|im|ive|id|ill)\b")),
    ("we", re.compile(r"\b(?:we|our|us|ours|weve|were|team)\b")),
    ("second_person", re.compile(r"\b(?:you|your|yours)\b")),
    ("question_mark", re.compile(r"\?")),
    ("number", re.compile(r"\d")),
]
FLAG_NAMES = [name for name, _ in _CUES] + [
    "save_request",
    "recall_request",
    "negated",
    "importance",
    "short",
    "length",
]
DIMS = len(FLAG_NAMES) + HASH_DIMS


def _tokens(norm: str) -> list[str]:
    return [token for token in norm.replace("|", " ").split() if token]


def lexical(text: str) -> Vector:
    """Cue flags followed by L2-normalised hashed unigrams and bigrams (float32, DIMS long)."""
    norm = phrases.normalize(text)
    flat = " ".join(_tokens(norm))
    found = phrases.detect(text)
    flags = [1.0 if pattern.search(flat) else 0.0 for _, pattern in _CUES]
    words = [t for t in _tokens(norm) if t not in {"?", ":"}]
    flags += [
        float(found.save_request),
        float(found.recall_request),
        float(found.negated),
        float(found.importance_marker),
        float(len(words) <= 3),
        min(len(words), 30) / 30.0,
    ]
    hashed = np.zeros(HASH_DIMS, dtype=np.float32)
    grams = words + [f"{a} {b}" for a, b in itertools.pairwise(words)]
    if words:
        grams.append(f"^{words[0]}")
    for gram in grams:
        hashed[zlib.crc32(gram.encode("utf-8")) % HASH_DIMS] = 1.0
    norm_value = float(np.linalg.norm(hashed))
    if norm_value > 0:
        hashed /= norm_value
    return np.concatenate([np.asarray(flags, dtype=np.float32), hashed])
