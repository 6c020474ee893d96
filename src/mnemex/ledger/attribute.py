"""Same attribute: does a statement about the subject speak of the attribute the question asks?

Read-time resolution takes the subject's statement closest to the question as the seed; this
decides which of the subject's other statements belong with it. A small logistic model reads
fourteen numbers per statement, each a general signal rather than a wording:

- closeness to the question, raw and *centred* on the subject's statements (the shared part,
  the person, removed), and how far below the seed's it is; its rank among the statements;
- closeness to the seed, raw and centred;
- words shared with the seed (a name: a change names the value it replaces; other content
  words) and with the question (a name: "before PharmEasy");
- whether it is the seed;
- the aspect encoder's cosines (`aspects.py`: MiniLM tuned so that a question and the
  statements of its attribute come close whatever their words) to the question and to the
  seed, and how far below the seed's to the question it is (the embedding model's cosines in
  their place without the encoder).

Trained by training/same_attribute/train.py on story statements none of the scored sets hold
(folds keep whole attributes apart), shipped as data/same_attribute.npz. Without the file the
old rule stands: centred cosine to the seed at least `LINK`, closeness to the question within
`MARGIN` of the seed's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from mnemex.text import STOPWORDS, UPPER

CENTRE_PRIOR = 5.0  # the centre is the subject's mean shrunk as if 5 zero vectors joined
FLOOR = 0.5  # P(same attribute) at which a statement joins the seed's group
LINK = 0.0  # the least centred cosine to the seed a statement must have to join (model or rule)
MARGIN = 0.5  # ... and how far below the seed's centred cosine to the question it may be
ASKED_FLOOR = 0.05  # ... and the least centred cosine to the question it must have
FEATURES = 14
# With the aspect encoder, a statement also joins the gate when its aspect cosine to the
# question is within this of the seed's ("was given bay 3" for "Where does Pilar park?").
ASPECT_LINK = 0.1
_ASPECT = 11  # the column of the aspect cosine to the question
_TOKEN = re.compile(r"\w[\w.+-]*\w|\w")
_NAMED = re.compile(rf"(?<![.!?]\s)(?<!^)\b[{UPPER}0-9][\w.+-]*")  # capitalised, not first

Matrix = npt.NDArray[np.float32]


def tokens(text: str) -> list[str]:
    """The text's words, casefolded."""
    return [t.casefold() for t in _TOKEN.findall(text)]


def names_in(text: str) -> set[str]:
    """The capitalised words and numbers of a text past its first word, casefolded, without the
    full stop that ends a sentence ("Xfinity." is Xfinity; "Node.js" keeps its dot)."""
    return {t.casefold().rstrip(".") for t in _NAMED.findall(text.strip())} - {""}


def _words(text: str, subject: set[str]) -> tuple[set[str], set[str]]:
    """A statement's names and its other content words, the subject's own names left out."""
    named = names_in(text) - subject
    content = {t for t in tokens(text) if len(t) > 2 and t not in STOPWORDS} - subject - named
    return named, content


def _unit(matrix: Matrix) -> Matrix:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    unit: Matrix = matrix / np.maximum(norms, 1e-9)
    return unit


def closeness(vectors: Matrix, query: Matrix) -> tuple[Matrix, Matrix, Matrix]:
    """Centred statements, centred closeness to the question, raw closeness to it."""
    centre = vectors.sum(axis=0) / (len(vectors) + CENTRE_PRIOR)
    centred = _unit(vectors - centre)
    asked = query - centre
    asked = asked / max(float(np.linalg.norm(asked)), 1e-9)
    raw = _unit(vectors) @ (query / max(float(np.linalg.norm(query)), 1e-9))
    return centred, centred @ asked, raw


@dataclass(frozen=True, slots=True)
class Signals:
    """What the models read of one subject's statements for one question."""

    rows: Matrix  # FEATURES numbers per statement
    seed: int
    centred: Matrix  # the statements centred on the subject's mean, unit length
    names: list[set[str]]  # each statement's names, the subject's own left out


def features(
    texts: Sequence[str],
    vectors: Matrix,
    question: str,
    query: Matrix,
    subject: set[str],
    seed: int | None = None,
    aspect: tuple[Matrix, Matrix] | None = None,
) -> Signals:
    """One row of the first model's numbers per statement, and the seed (the statement closest
    to the question once centred, unless given). `aspect`: the statements' and the question's
    aspect vectors (unit length), None without the encoder."""
    centred, close, raw = closeness(vectors, query)
    seed = int(np.argmax(close)) if seed is None else seed
    unit = _unit(vectors)
    said, asked = (unit, query / max(float(np.linalg.norm(query)), 1e-9))
    if aspect is not None:
        said, asked = aspect
    to_question = said @ asked.reshape(-1)
    to_seed = said @ said[seed]
    rank = np.empty(len(texts))
    rank[np.argsort(-close, kind="stable")] = np.arange(len(texts))
    words = [_words(text, subject) for text in texts]
    asked_names, asked_words = _words(question, subject)
    seed_names, seed_words = words[seed]
    rows = np.zeros((len(texts), FEATURES), dtype=np.float32)
    for i, (named, content) in enumerate(words):
        shared = len(content & seed_words) / max(1, min(len(content), len(seed_words)))
        rows[i] = (
            raw[i],
            close[i],
            close[seed] - close[i],
            unit[i] @ unit[seed],
            centred[i] @ centred[seed],
            float(bool(named & seed_names)),
            shared,
            float(bool(named & asked_names)),
            float(bool(content & asked_words)),
            rank[i] / len(texts),
            float(i == seed),
            to_question[i],
            to_seed[i],
            to_question[seed] - to_question[i],
        )
    return Signals(rows, seed, centred, [named for named, _ in words])


def chained(signals: Signals, first: npt.NDArray[np.float64]) -> Matrix:
    """The second model's numbers: the first model's logit, and how strongly the statement is
    tied to the others the first model put with the seed (a shared name, weighted by their
    probability: a change names the value it replaces; and their centred cosine)."""
    probability = 1.0 / (1.0 + np.exp(-first))
    n = len(first)
    rows = np.zeros((n, 3), dtype=np.float32)
    links = signals.centred @ signals.centred.T
    for i in range(n):
        others = [j for j in range(n) if j != i]
        named = [probability[j] for j in others if signals.names[i] & signals.names[j]]
        close = [probability[j] * links[i, j] for j in others]
        rows[i] = (first[i], max(named, default=0.0), max(close, default=0.0))
    return rows


@cache
def _model() -> tuple[Matrix, float, Matrix, float] | None:
    path = resources.files("mnemex.ledger").joinpath("data/same_attribute.npz")
    if not path.is_file():
        return None
    with path.open("rb") as handle, np.load(handle) as saved:
        return (
            saved["weights"].astype(np.float32),
            float(saved["bias"]),
            saved["chain_weights"].astype(np.float32),
            float(saved["chain_bias"]),
        )


def probabilities(
    texts: Sequence[str],
    vectors: Matrix,
    question: str,
    query: Matrix,
    subject: set[str],
    seed: int | None = None,
    link: float = LINK,
    aspect: tuple[Matrix, Matrix] | None = None,
) -> tuple[npt.NDArray[np.float64], int]:
    """P(the statement speaks of the attribute the question asks) for each statement, and the
    seed (1.0 for it); without the model file, the old rule's 0 or 1. `link`: the least centred
    cosine to the seed a statement must have (below it, 0) unless it names a name the seed
    names (a change names the value it replaces) or, with `aspect` (as for `features`), its
    aspect cosine to the question is within `ASPECT_LINK` of the seed's."""
    signals = features(texts, vectors, question, query, subject, seed, aspect)
    rows, seed = signals.rows, signals.seed
    model = _model()
    if model is None:
        least = max(float(rows[seed, 1]) - MARGIN, ASKED_FLOOR)
        joined = ((rows[:, 4] >= link) & (rows[:, 1] >= least)).astype(np.float64)
    else:
        weights, bias, chain_weights, chain_bias = model
        first = (rows @ weights + bias).astype(np.float64)
        logits = (chained(signals, first) @ chain_weights + chain_bias).astype(np.float64)
        linked = (rows[:, 4] >= link) | (rows[:, 5] > 0)  # close enough, or naming its value
        if aspect is not None:
            linked |= rows[:, _ASPECT] >= rows[seed, _ASPECT] - ASPECT_LINK
        joined = np.where(linked, 1.0 / (1.0 + np.exp(-logits)), 0.0)
    joined[seed] = 1.0
    return joined, seed
