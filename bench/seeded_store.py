"""A store file filled with the synthetic corpus, its vectors taken from the on-disk cache.

Loading goes through the public `save_many`, with an embedder that answers from the cached
vectors of the real model (same model id, same vectors), so the file is exactly what saving
every memory would have produced, minus the minutes of embedding.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench import synthetic, vector_cache
from mnemex.config import Settings
from mnemex.embed import Embedder, Vectors, load_embedder, register_embedder

CACHED = "bench-cached"
_LOAD_BATCH = 2_000


class CachedEmbedder:
    """The real model's vectors for texts of the cache; anything else goes to the model."""

    def __init__(self) -> None:
        self.model: Embedder | None = None
        self.model_id = ""
        self.dim = 0
        self.rows: dict[str, int] = {}
        self.vectors: Vectors = np.zeros((0, 0), dtype=np.float32)

    def use(self, name: str, texts: Sequence[str], vectors: Vectors) -> None:
        """Stand in for the model `name`, knowing `vectors` of `texts`."""
        model = load_embedder(name)
        assert model is not None
        self.model, self.model_id, self.dim = model, model.model_id, model.dim
        self.rows = {text: row for row, text in enumerate(texts)}
        self.vectors = vectors

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Cached vectors where known, model output otherwise."""
        assert self.model is not None
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        missing = [text for text in texts if text not in self.rows]
        fresh = dict(zip(missing, self.model.embed(missing), strict=True)) if missing else {}
        return np.stack([fresh[t] if t in fresh else self.vectors[self.rows[t]] for t in texts])


_CACHED = CachedEmbedder()
# Registered at import, before anything loads a model: registering clears the embedder cache.
register_embedder(CACHED, lambda: _CACHED)


@dataclass(frozen=True, slots=True)
class Seeded:
    """A filled store: where it is, its memories and queries, and the corpus vectors."""

    path: Path
    memories: list[synthetic.Memory]
    ids: list[str]
    vectors: Vectors
    load_seconds: float


def corpus_name(seed: int) -> str:
    """The cache key of a synthetic corpus."""
    return f"synthetic-v{synthetic.VERSION}-seed{seed}"


def seed_store(
    path: Path,
    size: int,
    *,
    seed: int,
    settings: Settings,
    progress: Callable[[str], None] = lambda _: None,
    keep: Path | None = None,
) -> Seeded:
    """Fill a new store file with the first `size` memories of the corpus.

    `keep`: a folder where the filled file is kept, and copied from on the next call with the
    same corpus and size (loading 100,000 memories takes ~30 minutes here). The copy is only as
    new as the code that filled it: empty the folder after changing how memories are saved.
    """
    import mnemex

    memories = synthetic.corpus(size, seed)
    texts = [m.text for m in memories]
    model = load_embedder(settings.embed_model)
    assert model is not None
    vectors = vector_cache.corpus_vectors(
        texts,
        corpus_name(seed),
        model,
        progress=lambda done, total: progress(f"corpus vectors {done:,}/{total:,}"),
    )
    _CACHED.use(settings.embed_model, texts, vectors)
    kept = None if keep is None else keep / f"{corpus_name(seed)}-{size}-{model.model_id}.db"
    started = time.perf_counter()
    listed = None if kept is None else kept.with_name(kept.name + ".ids.json")
    if kept is not None and listed is not None and kept.exists() and listed.exists():
        _copy(kept, path)
        # Migrated here, once: a kept file from an older schema would otherwise migrate inside
        # the memory probe and the first search, which measure a store already current.
        mnemex.open(str(path), settings=settings.replace(embed_model=CACHED)).close()
        ids: list[str] = json.loads(listed.read_text(encoding="utf-8"))  # what save_many said
        progress(f"copied {len(ids):,} memories from {kept}")
        return Seeded(path, memories, ids, vectors, time.perf_counter() - started)
    ids = []
    with mnemex.open(str(path), settings=settings.replace(embed_model=CACHED)) as store:
        for start in range(0, size, _LOAD_BATCH):
            batch = [{"content": text} for text in texts[start : start + _LOAD_BATCH]]
            ids.extend(result.id for result in store.save_many(batch))
            progress(f"loaded {len(ids):,}/{size:,}")
    if kept is not None and listed is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        _copy(path, kept)
        listed.write_text(json.dumps(ids), encoding="utf-8")
    return Seeded(path, memories, ids, vectors, time.perf_counter() - started)


def _copy(source: Path, target: Path) -> None:
    """A consistent copy of a store file (SQLite's backup: the WAL's pages included)."""
    import sqlean

    partial = target.with_name(target.name + ".part")
    with (
        contextlib.closing(sqlean.connect(str(source))) as src,
        contextlib.closing(sqlean.connect(str(partial))) as dst,
    ):
        src.backup(dst)
    os.replace(partial, target)
