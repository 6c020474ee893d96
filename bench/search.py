"""`mnemex bench search`: search latency, ingest throughput and memory at 10k-100k memories.

For each size, on a store file filled with the synthetic corpus (bench/synthetic.py; vectors from
the on-disk cache, bench/vector_cache.py):

1. memory: a fresh process opens the store, loads the vector index (building the HNSW graph the
   first time) and searches; its RSS before, after and at peak gives the bytes per memory;
2. search: for each query, in a shuffled order, the same run times embedding the query alone,
   the full `store.search` (query embedding included), a lexical-only engine
   (`embed_model="none"` on the same file), plain FTS5 (every query word OR'ed, BM25 order),
   exact search over every vector (the engine's exact path) and the engine's vector index alone.
   Each query looks for one memory of the corpus; hit@10 says how often it came back. ANN
   recall@10 compares the vector index with exact search on the same query vectors;
3. ingest: single `save` calls, `save_many` and bare embedding of the same new texts,
   interleaved in rounds so all three see the same machine load. Enrichment (the analysis
   layer) is off for this table, so both write paths do the same work: check, embed, write.
   `save_many` skips enrichment for batches above `analysis_batch_limit` anyway, and a single
   enriched `save` is measured by `mnemex eval activation`. The store's final close (the last
   checkpoint, which a helper thread does during the run) is counted in `save_many`'s time.

Figures are medians (p50) and 95th percentiles of wall time; ratios are what to compare across
machines, since absolute times drift with load.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from bench import ROOT, seeded_store, synthetic
from bench.timing import percentile, timed
from mnemex.config import Settings
from mnemex.embed import MINILM, Embedder, Vectors, load_embedder
from mnemex.retrieval.vector import ExactVectors
from mnemex.text import words

Progress = Callable[[str], None]
_METHODS = ("embed", "search", "lexical", "fts5", "exact", "ann")


def run(
    sizes: list[int],
    *,
    queries: int = 200,
    seed: int = 11,
    ingest: int = 400,
    singles: int = 100,
    rounds: int = 4,
    workdir: Path | None = None,
    model: str = MINILM,
    keep: Path | None = None,
    progress: Progress = lambda _: None,
) -> dict[str, list[dict[str, Any]]]:
    """Tables "search", "memory" and "ingest", one row per size (`model`: tests use a tiny one;
    `keep`: a folder of filled stores to copy instead of filling them again)."""
    out: dict[str, list[dict[str, Any]]] = {"search": [], "memory": [], "ingest": []}
    for size in sizes:
        with tempfile.TemporaryDirectory(dir=workdir) as folder:
            settings = Settings.load(env={}, data_dir=Path(folder), embed_model=model)
            seeded = seeded_store.seed_store(
                Path(folder) / "bench.db",
                size,
                seed=seed,
                settings=settings,
                progress=partial(_tagged, progress, size),
                keep=keep,
            )
            rng = random.Random(seed)
            targets = [rng.randrange(size) for _ in range(queries)]
            progress(f"[{size:,}] memory probe (builds the vector index)")
            out["memory"].append(memory_row(seeded, targets, Path(folder), model))
            progress(f"[{size:,}] {queries} queries")
            out["search"].append(search_row(seeded, targets, settings, rng))
            progress(f"[{size:,}] ingest")
            out["ingest"].append(ingest_row(seeded, settings, seed, ingest, singles, rounds))
    return out


def _tagged(progress: Progress, size: int, text: str) -> None:
    progress(f"[{size:,}] {text}")


def memory_row(
    seeded: seeded_store.Seeded, targets: list[int], folder: Path, model: str
) -> dict[str, Any]:
    """RSS of a fresh process serving searches on the store, per memory."""
    spec = folder / "queries.json"
    spec.write_text(json.dumps([seeded.memories[t].query for t in targets[:50]]), "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "bench.memory", str(seeded.path), str(spec), model],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    size = len(seeded.memories)
    text_bytes = sum(len(m.text.encode("utf-8")) for m in seeded.memories)
    steady = probe["rss_steady"] - probe["rss_base"] if probe["rss_steady"] else None
    return {
        "size": size,
        "index": probe["index_kind"],
        "index_build_s": round(probe["first_search_s"], 2),
        "rss_model_mb": round(probe["rss_base"] / 2**20, 1),
        "rss_store_mb": None if steady is None else round(steady / 2**20, 1),
        "rss_peak_mb": round(probe["rss_peak"] / 2**20, 1),
        "bytes_per_memory": None if steady is None else round(steady / size),
        "index_bytes_per_memory": round(probe["index_bytes"] / size),
        "text_bytes_per_memory": round(text_bytes / size),
    }


def search_row(
    seeded: seeded_store.Seeded, targets: list[int], settings: Settings, rng: random.Random
) -> dict[str, Any]:
    """Latency percentiles and hit@10 of each way to search, measured side by side."""
    import sqlean

    import mnemex

    embedder = load_embedder(settings.embed_model)
    assert embedder is not None
    exact = ExactVectors(seeded.vectors.shape[1])
    exact.add_matrix([str(row) for row in range(len(seeded.ids))], seeded.vectors)
    row_of = {memory_id: row for row, memory_id in enumerate(seeded.ids)}
    times: dict[str, list[float]] = {name: [] for name in _METHODS}
    hits: dict[str, int] = {name: 0 for name in _METHODS if name not in ("embed", "ann")}
    recall: list[float] = []
    path = str(seeded.path)
    with (
        mnemex.open(path, settings=settings) as store,
        mnemex.open(path, settings=settings.replace(embed_model="none")) as lexical_store,
    ):
        conn = sqlean.connect(path)
        restore_s = timed(lambda: store.search("warm up"))[1] / 1000.0
        lexical_store.search("warm up")
        index = store.engine.vector_index(store.tenant)
        assert index is not None
        kind = index.kind
        for target in targets:
            memory = seeded.memories[target]
            vector = embedder.embed([memory.query])[0]
            calls = _calls(memory.query, vector, embedder, store, lexical_store, conn)
            calls["exact"] = partial(_exact, seeded, exact, vector)
            order = list(calls)
            rng.shuffle(order)
            for name in order:
                found, ms = timed(calls[name])
                times[name].append(ms)
                if name in hits:
                    hits[name] += memory.text in found
                elif name == "ann":
                    recall.append(_recall(seeded.vectors, vector, found, row_of))
        conn.close()
    return _search_summary(len(seeded.ids), times, hits, recall, restore_s, kind)


def _calls(
    query: str, vector: Vectors, embedder: Embedder, store: Any, lexical_store: Any, conn: Any
) -> dict[str, Callable[[], list[str]]]:
    """One query's timed calls; each returns what it found (contents, or ids for the index)."""
    index = store.engine.vector_index(store.tenant)
    return {
        "embed": lambda: _nothing(embedder.embed([query])),
        "search": lambda: [h.memory.content for h in store.search(query, k=10)],
        "lexical": lambda: [h.memory.content for h in lexical_store.search(query, k=10)],
        "fts5": lambda: _plain_fts(conn, query),
        "ann": lambda: [memory_id for memory_id, _ in index.search(vector, 10)],
    }


def _nothing(_: object) -> list[str]:
    return []


def _exact(seeded: seeded_store.Seeded, exact: ExactVectors, vector: Vectors) -> list[str]:
    return [seeded.memories[int(row)].text for row, _ in exact.search(vector, 10)]


def _plain_fts(conn: Any, query: str) -> list[str]:
    """What a plain FTS5 setup does: every query word OR'ed, ranked by BM25, top 10."""
    terms = list(dict.fromkeys(words(query)))
    if not terms:
        return []
    match = " OR ".join(f'"{term}"' for term in terms)
    rows = conn.execute(
        "SELECT m.content FROM memories_fts f JOIN memories m ON m.seq = f.rowid "
        "WHERE memories_fts MATCH ? ORDER BY f.rank LIMIT 10",
        (match,),
    ).fetchall()
    return [row[0] for row in rows]


def _recall(vectors: Vectors, query: Vectors, found: list[str], row_of: dict[str, int]) -> float:
    """Share of the graph's top 10 that exact search ranks in its top 10 (ties count as hits)."""
    sims = vectors @ query
    tenth = float(np.partition(-sims, 9)[9]) * -1.0
    rows = [row_of[memory_id] for memory_id in found if memory_id in row_of]
    return sum(1 for row in rows if sims[row] >= tenth - 1e-6) / 10.0


def _search_summary(
    size: int,
    times: dict[str, list[float]],
    hits: dict[str, int],
    recall: list[float],
    restore_s: float,
    kind: str,
) -> dict[str, Any]:
    count = len(times["embed"])
    p50 = {name: percentile(values, 50) for name, values in times.items()}
    row: dict[str, Any] = {"size": size, "queries": count, "vector_index": kind}
    for name in _METHODS:
        row[f"{name}_p50_ms"] = round(p50[name], 2)
        row[f"{name}_p95_ms"] = round(percentile(times[name], 95), 2)
    for name, value in hits.items():
        row[f"{name}_hit10"] = round(value / count, 3)
    row["ann_recall10"] = round(float(np.mean(recall)), 4)
    row["search_over_embed"] = round(p50["search"] / p50["embed"], 2)
    row["lexical_over_embed"] = round(p50["lexical"] / p50["embed"], 3)
    row["index_open_s"] = round(restore_s, 2)
    return row


def ingest_row(
    seeded: seeded_store.Seeded,
    settings: Settings,
    seed: int,
    batch_total: int,
    singles: int,
    rounds: int,
) -> dict[str, Any]:
    """Throughput of single saves, save_many and bare embedding of new texts, in one run."""
    import mnemex

    settings = settings.replace(analysis_enrich=False)  # the same work on both write paths
    embedder = load_embedder(settings.embed_model)
    assert embedder is not None
    size = len(seeded.memories)
    fresh = [synthetic.memory(i, seed).text for i in range(size, size + batch_total + singles)]
    many_texts, single_texts = fresh[:batch_total], fresh[batch_total:]
    spent = {"embed": 0.0, "save_many": 0.0, "save": 0.0}
    store = mnemex.open(str(seeded.path), settings=settings)
    try:
        for r in range(rounds):
            chunk = many_texts[r::rounds]
            spent["embed"] += timed(partial(embedder.embed, chunk))[1]
            items = [{"content": text} for text in chunk]
            spent["save_many"] += timed(partial(store.save_many, items))[1]
            for text in single_texts[r::rounds]:
                spent["save"] += timed(partial(store.save, text))[1]
    finally:
        # Closing finishes what the background checkpoint had left: counted as batch time.
        spent["save_many"] += timed(store.close)[1]
    return _ingest_summary(size, embedder, spent, batch_total, singles)


def _ingest_summary(
    size: int, embedder: Embedder, spent: dict[str, float], batch_total: int, singles: int
) -> dict[str, Any]:
    embed_rate = batch_total / (spent["embed"] / 1000.0)
    many_rate = batch_total / (spent["save_many"] / 1000.0)
    single_rate = singles / (spent["save"] / 1000.0)
    return {
        "size": size,
        "model": embedder.model_id,
        "embed_per_s": round(embed_rate, 1),
        "save_many_per_s": round(many_rate, 1),
        "save_per_s": round(single_rate, 1),
        "save_many_over_save": round(many_rate / single_rate, 2),
        "embed_over_save_many": round(embed_rate / many_rate, 2),
    }
