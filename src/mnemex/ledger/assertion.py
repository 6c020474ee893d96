"""Assertion or mention: does a sentence set its subject's own value, or only name a value?

"Dana traded the Corolla in for a Mazda" sets Dana's car; "Dana's brother keeps telling her to
get a Tesla" only mentions one. The statement reader is MiniLM fine-tuned with one head (by
training/reading/train.py, on labelled story statements none of the scored sets hold): P(the
sentence sets its subject's own value, as a fact or a change) rather than mention a value. It
ships as data/reading.onnx (int8, the six layers and the head); its token vectors are the
embedding model's own, read from the installed model file (`mnemex.embed.word_table`).

A reading costs one pass of the model (about 3 ms for a short sentence on one core), so it is
made once per text: a save reads its memory and keeps the result in the store
(`ReadingStore`); a search reads the store, and the model only for what the store lacks. The
process keeps the last `TunedReader.READ_CACHE` readings.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Sequence
from importlib import resources

import numpy as np
import numpy.typing as npt

from mnemex.embed import TunedReader
from mnemex.errors import ModelUnavailableError
from mnemex.ledger import kept
from mnemex.store.base import Tx
from mnemex.text import UPPER

QUESTION = 0.1  # the most a question reads
# "My partner Sam is allergic to peanuts" sets Sam's own value, but the reader, trained to read
# a relative's value as a mention of the subject's ("Dana's brother wants a Tesla"), reads
# 0.002: a save would write no fact. A first-person "my" / "our" with one or two words before a
# capitalised name names the subject of what the save writes, so the save's veto reads from the
# name ("Sam is allergic to peanuts": 0.98). Read-time resolution keeps the whole sentence: a
# question about the user asks nothing of "My mom Linda watches the kids".
_NAMED_BY_THE_USER = re.compile(
    rf"^\s*(?:[Mm]y|[Oo]ur)\s+(?:[a-z][\w-]*\s+){{1,2}}(?=[{UPPER}][^\W\d_])"
)
READ_CHANGE = 0.9  # the least reading of a statement the ledger read a change or correction in
Probabilities = npt.NDArray[np.float64]


class Reader(TunedReader):
    """The statement reader, loaded on first use (None from `reader()` without its file)."""

    def _run(self, texts: list[str]) -> Probabilities:
        read = super()._run(texts)
        # A question states nothing (the extractor's rule too): the training stories hold
        # four questions, too few for the model to learn it.
        asked = np.array([t.rstrip().endswith("?") for t in texts])
        return np.where(asked, np.minimum(read, QUESTION), read)


def own_subject(text: str) -> str:
    """The sentence from the name the user introduces ("My partner Sam is ..." -> "Sam is
    ..."), as the save's veto reads it."""
    found = _NAMED_BY_THE_USER.match(text)
    return text if found is None else text[found.end() :]


@functools.cache
def reader() -> Reader | None:
    """The process's statement reader; None when its file or the embedding model is missing
    (then every sentence counts as an assertion: resolution goes by time alone)."""
    path = resources.files("mnemex.ledger").joinpath("data/reading.onnx")
    if not path.is_file():
        return None
    try:
        return Reader(path.read_bytes(), "reading")
    except (ImportError, ModelUnavailableError):
        return None


def probabilities(texts: Sequence[str]) -> Probabilities:
    """P(the sentence sets its subject's own value) for each sentence (ones without the
    reader)."""
    found = reader()
    if found is None or not texts:
        return np.ones(len(texts), dtype=np.float64)
    return found.read(texts)


def _reading(blob: bytes) -> float | None:
    return float(np.frombuffer(blob, dtype="<f4")[0]) if len(blob) == 4 else None


def _blob(reading: float) -> bytes:
    return np.asarray([reading], dtype="<f4").tobytes()


class ReadingStore:
    """Readings kept in the store (`kept`), so a new process reads them instead of running the
    model again."""

    @staticmethod
    def load(tx: Tx, texts: Sequence[str]) -> None:
        """Bring the store's readings of these texts into the process (those it lacks)."""
        found = reader()
        if found is not None and texts:
            kept.load(tx, found, texts, _reading)

    @staticmethod
    def keep(tx: Tx, texts: Sequence[str], changes: Collection[str] = ()) -> None:
        """Read these texts (the model for what the process lacks) and keep the readings in
        the store, in the caller's write transaction. `changes`: texts the ledger read a change
        from one value to another or a correction in ("X's Y is Z, not W"), forms whose
        patterns say the statement sets a value; they read at least `READ_CHANGE`."""
        found = reader()
        if found is None or not texts:
            return
        unique = list(dict.fromkeys(texts))
        values = {
            t: max(float(v), READ_CHANGE) if t in changes else float(v)
            for t, v in zip(unique, found.read(unique), strict=True)
        }
        kept.keep(tx, found, values, _blob)
