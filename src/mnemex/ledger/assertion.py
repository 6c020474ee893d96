"""Assertion or mention: does a sentence set its subject's own value, or only name a value?

"Dana traded the Corolla in for a Mazda" sets Dana's car; "Dana's brother keeps telling her to
get a Tesla" only mentions one. A logistic model reads the sentence embedding (MiniLM, 384
numbers) and hashed word 1-2-grams (so "keeps telling her to", "thinking about", "?" count); it
was trained by training/assertion/train.py on labelled story statements (none of the sets it is
scored on) and ships as data/assertion.npz. Scoring is the embedding's dot product plus the
weights of the text's n-gram buckets (counted once per text and cached): microseconds.
"""

from __future__ import annotations

import itertools
import re
import zlib
from functools import cache, lru_cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from mnemex.text import STOPWORDS

BUCKETS = 4096  # hashed n-gram features
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|[?!]")
# A capitalised word past the first: a name, which says who or what, never how it is said.
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][\w.+-]*")
_FIRST = re.compile(r"^[A-Z][\w.+-]*")
# The first word is a name too (most sentences open with their subject), unless it is a
# function word: the stopwords and the conjunctions and prepositions that open a clause.
_OPENERS = STOPWORDS | {"since", "according", "whenever", "once", "until", "because", "back"}


def ngrams(text: str) -> list[str]:
    """The sentence's words (lowercase; names become one placeholder, so the model learns
    "xname's sister joined xname", not who the sister is; numbers dropped) and their pairs."""
    text = _NAME.sub("Xname", text.strip())
    first = _FIRST.match(text)
    if first and first.group().casefold() not in _OPENERS:
        text = "Xname" + text[first.end() :]
    tokens = _WORD.findall(text.casefold())
    return tokens + [f"{a} {b}" for a, b in itertools.pairwise(tokens)]


def counts(text: str, vocabulary: frozenset[str] | None = None) -> dict[int, float]:
    """The text's n-gram counts by hash bucket, scaled to unit length; with a vocabulary, only
    its grams count (the shipped model's: those seen with at least three attributes in
    training, so a word of one attribute's sentences, "password" or "inhaler", says nothing
    either way)."""
    found: dict[int, float] = {}
    for gram in ngrams(text):
        if vocabulary is None or gram in vocabulary:
            bucket = zlib.crc32(gram.encode()) % BUCKETS
            found[bucket] = found.get(bucket, 0.0) + 1.0
    norm = max(1.0, float(np.sqrt(sum(c * c for c in found.values()))))
    return {bucket: c / norm for bucket, c in found.items()}


def hashed(texts: list[str], vocabulary: frozenset[str] | None = None) -> npt.NDArray[np.float32]:
    """`counts` of each text as the rows of a matrix."""
    out = np.zeros((len(texts), BUCKETS), dtype=np.float32)
    for row, text in enumerate(texts):
        for bucket, value in counts(text, vocabulary).items():
            out[row, bucket] = value
    return out


@lru_cache(maxsize=8192)
def _counted(text: str) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]:
    """The shipped vocabulary's `counts` of a text, as arrays (cached: a search scores the same
    memories again and again, twice each when the change model is asked too)."""
    found = counts(text, _vocabulary())
    return np.fromiter(found, np.intp, len(found)), np.fromiter(found.values(), np.float32)


def features(
    texts: list[str],
    vectors: npt.NDArray[np.float32],
    vocabulary: frozenset[str] | None = None,
) -> npt.NDArray[np.float32]:
    """The model's input: embedding and hashed n-grams side by side."""
    return np.hstack([vectors.astype(np.float32), hashed(texts, vocabulary)])


@cache
def _saved() -> dict[str, npt.NDArray[np.generic]] | None:
    """Every array of the shipped data/assertion.npz, read once (None without the file)."""
    path = resources.files("mnemex.ledger").joinpath("data/assertion.npz")
    if not path.is_file():
        return None
    with path.open("rb") as handle, np.load(handle) as saved:
        return {key: saved[key] for key in saved.files}


@cache
def _vocabulary() -> frozenset[str] | None:
    """The n-grams the shipped model reads (None: every gram, for a model saved without)."""
    saved = _saved()
    if saved is None or "grams" not in saved:
        return None
    return frozenset(saved["grams"].tolist())


@cache
def _model(which: str) -> tuple[npt.NDArray[np.float32], float] | None:
    saved = _saved()
    prefix = "" if which == "assertion" else f"{which}_"
    if saved is None or f"{prefix}weights" not in saved:
        return None
    return saved[f"{prefix}weights"].astype(np.float32), float(saved[f"{prefix}bias"])


def _scores(
    which: str, texts: list[str], vectors: npt.NDArray[np.float32]
) -> npt.NDArray[np.float64]:
    model = _model(which)
    if model is None or len(texts) == 0 or vectors.shape[1] + BUCKETS != len(model[0]):
        return np.ones(len(texts))  # no model, or vectors of another embedding model
    weights, bias = model
    dims = vectors.shape[1]  # the same numbers as features() @ weights, the n-grams sparse
    grams = weights[dims:]
    logits = vectors.astype(np.float32) @ weights[:dims] + bias
    for row, text in enumerate(texts):
        buckets, values = _counted(text)
        logits[row] += float(grams[buckets] @ values)
    return 1.0 / (1.0 + np.exp(-logits.astype(np.float64)))


def probabilities(texts: list[str], vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """P(the sentence sets its subject's own value) for each sentence.

    Without the model file, or for vectors of another embedding model than the one it was
    trained on, every sentence counts as an assertion (resolution then goes by time alone).
    """
    return _scores("assertion", texts, vectors)


def change_probabilities(
    texts: list[str], vectors: npt.NDArray[np.float32]
) -> npt.NDArray[np.float64]:
    """P(the sentence tells of a change of the subject's value rather than mention a value),
    from a second model trained on changes against mentions alone: a value no earlier statement
    named must come with a change, where a restatement of a known one need not (1.0 for every
    sentence without the model)."""
    return _scores("change", texts, vectors)
