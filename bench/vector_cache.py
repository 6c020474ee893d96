"""Embeddings of benchmark corpora, cached on disk so a 100k-memory benchmark can be rerun.

Embedding 100,000 memories takes many minutes on a small CPU; the benchmark measures embedding
throughput on a sample and loads the rest of the corpus with these cached vectors (the same
model's output, so the store is exactly what saving each text would have made).

Layout: `<cache dir>/<model id>/<corpus name>/chunk-<start>.npy`, one float32 matrix per
10,000 consecutive memories, with `chunk-<start>.sha256` holding the hash of the chunk's texts.
A chunk is reused only when that hash matches, so a changed generator or model never serves
stale vectors. The cache dir is `$MNEMEX_BENCH_CACHE`, else the user cache dir
(`~/.cache/mnemex/bench-vectors` on Linux); delete it to start over.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import platformdirs

from mnemex.embed import Embedder, Vectors

CHUNK = 10_000


def cache_dir() -> Path:
    """Where cached corpus vectors live."""
    configured = os.environ.get("MNEMEX_BENCH_CACHE")
    if configured:
        return Path(configured).expanduser()
    return Path(platformdirs.user_cache_dir("mnemex", appauthor=False)) / "bench-vectors"


def texts_hash(texts: Sequence[str]) -> str:
    """sha256 of the texts, one per line: what a chunk's vectors were computed from."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def corpus_vectors(
    texts: Sequence[str],
    corpus_name: str,
    embedder: Embedder,
    *,
    root: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Vectors:
    """Vectors of `texts` (a corpus prefix), from the cache where valid, embedded otherwise."""
    folder = (root or cache_dir()) / _safe(embedder.model_id) / _safe(corpus_name)
    out = np.empty((len(texts), embedder.dim), dtype=np.float32)
    for start in range(0, len(texts), CHUNK):
        chunk = texts[start : start + CHUNK]
        out[start : start + len(chunk)] = _chunk(folder, start, chunk, embedder)
        if progress is not None:
            progress(start + len(chunk), len(texts))
    return out


def _chunk(folder: Path, start: int, texts: Sequence[str], embedder: Embedder) -> Vectors:
    """One chunk's vectors; a smaller corpus reads the head of a chunk cached for a larger one."""
    matrix_path = folder / f"chunk-{start:08d}.npy"
    hash_path = folder / f"chunk-{start:08d}.sha256"
    if matrix_path.exists() and hash_path.exists():
        known = dict(
            line.split(" ", 1) for line in hash_path.read_text(encoding="utf-8").splitlines()
        )
        if known.get(str(len(texts))) == texts_hash(texts):
            cached = np.load(matrix_path, mmap_mode="r")
            return np.array(cached[: len(texts)], dtype=np.float32)
    vectors = embedder.embed(list(texts))
    folder.mkdir(parents=True, exist_ok=True)
    temporary = folder / f"chunk-{start:08d}.partial.npy"
    np.save(temporary, vectors)
    temporary.replace(matrix_path)
    # Hashes of a few prefixes too, so a smaller corpus of the same seed reuses this chunk.
    sizes = [n for n in (100, 200, 500, 1_000, 2_000, 5_000) if n < len(texts)] + [len(texts)]
    lines = [f"{n} {texts_hash(texts[:n])}" for n in sizes]
    hash_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return vectors


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
