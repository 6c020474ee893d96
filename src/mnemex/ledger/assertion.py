"""Assertion or mention: does a sentence set its subject's own value, or only name a value?

"Dana traded the Corolla in for a Mazda" sets Dana's car; "Dana's brother keeps telling her to
get a Tesla" only mentions one. A logistic model reads the sentence embedding (MiniLM, 384
numbers) and hashed word 1-2-grams (so "keeps telling her to", "thinking about", "?" count); it
was trained by training/assertion/train.py on labelled story statements (none of the sets it is
scored on) and ships as data/assertion.npz. Scoring is one matrix product: microseconds.
"""

from __future__ import annotations

import itertools
import re
import zlib
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

BUCKETS = 4096  # hashed n-gram features
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|[?!]")


def ngrams(text: str) -> list[str]:
    """The sentence's words (lowercase, names and numbers dropped) and their pairs."""
    tokens = _WORD.findall(text.casefold())
    return tokens + [f"{a} {b}" for a, b in itertools.pairwise(tokens)]


def hashed(texts: list[str]) -> npt.NDArray[np.float32]:
    """Hashed n-gram counts, each row scaled to unit length."""
    out = np.zeros((len(texts), BUCKETS), dtype=np.float32)
    for row, text in enumerate(texts):
        for gram in ngrams(text):
            out[row, zlib.crc32(gram.encode()) % BUCKETS] += 1.0
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    scaled: npt.NDArray[np.float32] = out / np.maximum(norms, 1.0)
    return scaled


def features(texts: list[str], vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The model's input: embedding and hashed n-grams side by side."""
    return np.hstack([vectors.astype(np.float32), hashed(texts)])


@cache
def _model() -> tuple[npt.NDArray[np.float32], float] | None:
    path = resources.files("mnemex.ledger").joinpath("data/assertion.npz")
    if not path.is_file():
        return None
    with path.open("rb") as handle, np.load(handle) as saved:
        return saved["weights"].astype(np.float32), float(saved["bias"])


def probabilities(texts: list[str], vectors: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """P(the sentence sets its subject's own value) for each sentence.

    Without the model file, or for vectors of another embedding model than the one it was
    trained on, every sentence counts as an assertion (resolution then goes by time alone).
    """
    model = _model()
    if model is None or len(texts) == 0 or vectors.shape[1] + BUCKETS != len(model[0]):
        return np.ones(len(texts))  # no model, or vectors of another embedding model
    weights, bias = model
    logits = features(texts, vectors) @ weights + bias
    return 1.0 / (1.0 + np.exp(-logits.astype(np.float64)))
