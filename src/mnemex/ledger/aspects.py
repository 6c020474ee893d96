"""Aspect vectors: which attribute a statement speaks of, whatever its wording.

"Tibber's app runs Magnus's power these days" and "Who does Magnus get his electricity from?"
share no word but the name, and the embedding model puts them no closer than Magnus's other
statements. The aspect encoder is MiniLM fine-tuned as a bi-encoder (by training/aspect/train.py,
on story statements none of the scored sets hold): a question and the statements of the
attribute it asks come close, the same person's statements of other attributes move away. Its
cosines are features of the same-attribute model (`attribute.py`).

It ships as data/aspect.onnx (int8, the six layers; the token vectors are the embedding
model's own, as for the statement reader). A save encodes its memory beside the statement
reading and keeps the vector in the store (`kept`, float16); a search encodes the question and
reads the store for the rest. Without the file, `vectors` gives None and the same-attribute
model reads the embedding model's cosines in their place.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import resources

import numpy as np
import numpy.typing as npt

from mnemex.embed import TunedModel
from mnemex.errors import ModelUnavailableError
from mnemex.ledger import kept
from mnemex.store.base import Tx

Vector = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float32]


class Encoder(TunedModel[Vector]):
    """The aspect encoder: a unit vector per text."""

    MAX_TOKENS = 64  # as trained
    READ_CACHE = 5_000  # 1.5 KB a vector: the store keeps them all, the process the latest

    def vectors(self, texts: Sequence[str]) -> Matrix:
        return np.stack(self.outputs(texts)).astype(np.float32)

    def _outputs(self, texts: list[str]) -> list[Vector]:
        return list(self._forward(texts))


@functools.cache
def encoder() -> Encoder | None:
    """The process's aspect encoder; None when its file or the embedding model is missing."""
    path = resources.files("mnemex.ledger").joinpath("data/aspect.onnx")
    if not path.is_file():
        return None
    try:
        return Encoder(path.read_bytes(), "aspect")
    except (ImportError, ModelUnavailableError):
        return None


def vectors(texts: Sequence[str]) -> Matrix | None:
    """The texts' aspect vectors (one row each), or None without the encoder."""
    found = encoder()
    if found is None or not texts:
        return None
    return found.vectors(texts)


def _vector(blob: bytes) -> Vector | None:
    return np.frombuffer(blob, dtype="<f2").astype(np.float32) if len(blob) > 4 else None


def _blob(vector: Vector) -> bytes:
    return np.asarray(vector, dtype="<f2").tobytes()


def load(tx: Tx, texts: Sequence[str]) -> None:
    """Bring the store's vectors of these texts into the process (those it lacks)."""
    found = encoder()
    if found is not None and texts:
        kept.load(tx, found, texts, _vector)


def keep(tx: Tx, texts: Sequence[str]) -> None:
    """Encode these texts (the model for what the process lacks) and keep the vectors in the
    store, in the caller's write transaction."""
    found = encoder()
    if found is None or not texts:
        return
    unique = list(dict.fromkeys(texts))
    kept.keep(tx, found, dict(zip(unique, found.outputs(unique), strict=True)), _blob)
