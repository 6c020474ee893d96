"""Test doubles: a tiny deterministic embedder, so scale tests exercise the engine in seconds."""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np

from mnemex.embed import Vectors, register_embedder
from mnemex.text import words

HASH_MODEL = "test-hash"


class HashEmbedder:
    """Bag of hashed words, normalised: shared words mean similar vectors (no semantics)."""

    model_id = "test-hash-64"
    dim = 64

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in words(text):
                out[row, zlib.crc32(word.encode()) % self.dim] += 1.0
            out[row, 0] += 1e-3
        out /= np.linalg.norm(out, axis=1, keepdims=True)
        return out


register_embedder(HASH_MODEL, HashEmbedder)
