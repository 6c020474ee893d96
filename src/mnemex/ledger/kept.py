"""Model outputs kept in the store: the phrase-vector table, under the model's id and a digest of
the text, so a new process reads them instead of running the model again (the statement
reader's readings, the aspect encoder's vectors)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import TypeVar

from mnemex.embed import TunedModel
from mnemex.store.base import Tx

Out = TypeVar("Out")


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def load(
    tx: Tx, model: TunedModel[Out], texts: Sequence[str], decode: Callable[[bytes], Out | None]
) -> None:
    """Bring the store's outputs for these texts into the process (those it lacks); `decode`
    gives None for a blob of another shape."""
    known = model.known(texts)
    missing = [t for t in dict.fromkeys(texts) if t not in known]
    if not missing:
        return
    digests = {digest(t): t for t in missing}
    found = {}
    for key, blob in tx.phrase_vectors(model.model_id, list(digests)).items():
        value = decode(blob)
        if value is not None:
            found[digests[key]] = value
    model.remember(found)


def keep(
    tx: Tx,
    model: TunedModel[Out],
    outputs: dict[str, Out],
    encode: Callable[[Out], bytes],
) -> None:
    """Keep these outputs in the process and in the store, in the caller's write transaction."""
    model.remember(outputs)
    tx.put_phrase_vectors(model.model_id, [(digest(t), encode(v)) for t, v in outputs.items()])
