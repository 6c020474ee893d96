"""An on-disk embedding cache for evaluations, so reruns never embed the same text twice.

Vectors are keyed by model id and a hash of the text and kept in one SQLite file outside the
repository (the user cache directory by default). The wrapper reports the wrapped model's id,
so a store filled through it holds exactly what the model itself would have produced.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import platformdirs

from mnemex.embed import Embedder, Vectors, load_embedder, register_embedder


def default_path() -> Path:
    """Where the evaluation cache lives unless told otherwise."""
    return Path(platformdirs.user_cache_dir("mnemex", appauthor=False)) / "eval-embeddings.db"


class CachedEmbedder:
    """Delegates to `inner` for texts it has not seen; answers the rest from the cache file."""

    def __init__(self, inner: Embedder, path: Path) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(path), check_same_thread=False)
        self._conn.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, v BLOB)")
        self._lock = threading.Lock()

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self.model_id}\x00{text}".encode()).hexdigest()

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors for `texts`, in order; only unseen texts reach the model."""
        keys = [self._key(text) for text in texts]
        found = self._lookup(keys)
        missing = [i for i, key in enumerate(keys) if key not in found]
        if missing:
            fresh = self.inner.embed([texts[i] for i in missing])
            rows = [(keys[i], fresh[n].astype("<f4").tobytes()) for n, i in enumerate(missing)]
            with self._lock:
                self._conn.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows)
                self._conn.commit()
            found.update(rows)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for row, key in enumerate(keys):
            out[row] = np.frombuffer(found[key], dtype="<f4")
        return out

    def _lookup(self, keys: Sequence[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        unique = list(dict.fromkeys(keys))
        with self._lock:
            for start in range(0, len(unique), 500):
                chunk = unique[start : start + 500]
                rows = self._conn.execute(
                    f"SELECT key, v FROM vectors WHERE key IN ({','.join('?' * len(chunk))})",
                    chunk,
                ).fetchall()
                found.update((str(key), bytes(blob)) for key, blob in rows)
        return found


def register_cached(model: str, path: Path) -> str:
    """Register `model` behind the cache; returns the `embed_model` setting that selects it."""
    inner = load_embedder(model)
    if inner is None:
        return model
    name = f"cached:{model}"
    cached = CachedEmbedder(inner, path)
    register_embedder(name, lambda: cached)
    return name
