"""Intent classifier: multinomial logistic regression on [sentence embedding, lexical features].

The weights ship in the package (data/intent.npz, data/intent.json), trained by
training/intent/train.py; nothing is trained at run time. Two models are shipped: "embed" uses the
MiniLM sentence embedding plus lexical features, "lexical" uses lexical features only and serves
when the embedding model is off or fails. Probabilities are temperature-scaled (calibrated on a
dev split held out by template).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from mnemex.analysis import features

INTENTS = (
    "SAVE_PREFERENCE",
    "SAVE_DECISION",
    "SAVE_FACT",
    "RECALL_INFO",
    "UPDATE_INFO",
    "QUESTION",
    "GREETING",
)
SAVE_INTENTS = frozenset({"SAVE_PREFERENCE", "SAVE_DECISION", "SAVE_FACT", "UPDATE_INFO"})
Matrix = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Weights:
    """One linear model: logits = (x @ w + b) / temperature."""

    w: Matrix
    b: Matrix
    temperature: float

    def probabilities(self, x: Matrix) -> Matrix:
        """Softmax of the scaled logits (rows of x are examples)."""
        logits = (x @ self.w + self.b) / self.temperature
        logits -= logits.max(axis=-1, keepdims=True)
        exp = np.exp(logits)
        return np.asarray(exp / exp.sum(axis=-1, keepdims=True), dtype=np.float32)


@dataclass(frozen=True, slots=True)
class Prediction:
    """The most likely intent, its probability and every class's probability."""

    intent: str
    confidence: float
    probabilities: dict[str, float]
    model: str


@functools.cache
def load() -> tuple[list[str], dict[str, Weights], dict[str, Any]]:
    """Labels, the shipped models and their metadata (read once per process)."""
    folder = resources.files("mnemex") / "analysis" / "data"
    meta = json.loads((folder / "intent.json").read_text(encoding="utf-8"))
    with (folder / "intent.npz").open("rb") as handle:
        arrays = np.load(handle)
        models = {
            name: Weights(
                np.asarray(arrays[f"{name}_w"], dtype=np.float32),
                np.asarray(arrays[f"{name}_b"], dtype=np.float32),
                float(meta["temperature"][name]),
            )
            for name in ("embed", "lexical")
        }
    return list(meta["labels"]), models, meta


def featurize(text: str, vector: Matrix | None) -> tuple[str, Matrix]:
    """The model name and the feature row for a message (embedding first when there is one)."""
    lexical = features.lexical(text)
    if vector is None:
        return "lexical", lexical
    return "embed", np.concatenate([np.asarray(vector, dtype=np.float32), lexical])


def restrict(guess: Prediction, allowed: frozenset[str]) -> Prediction:
    """The prediction renormalised over the `allowed` intents only."""
    kept = {k: v for k, v in guess.probabilities.items() if k in allowed}
    total = sum(kept.values()) or 1.0
    table = {
        k: round(v / total, 4) if k in allowed else 0.0 for k, v in guess.probabilities.items()
    }
    best = max(kept, key=lambda k: kept[k])
    return Prediction(best, table[best], table, guess.model)


def predict(text: str, vector: Matrix | None = None) -> Prediction:
    """Intent probabilities of one message; `vector` is its sentence embedding, if any."""
    labels, models, _ = load()
    name, row = featurize(text, vector)
    if row.shape[0] != models[name].w.shape[0]:
        # A vector from another embedding model (a plug-in, a test double): the shipped weights
        # were trained on MiniLM, so fall back to the lexical model rather than fail.
        name, row = featurize(text, None)
    probs = models[name].probabilities(row[None, :])[0]
    best = int(np.argmax(probs))
    table = {label: round(float(p), 4) for label, p in zip(labels, probs, strict=True)}
    return Prediction(labels[best], float(probs[best]), table, name)
