"""`mnemex bench core`: save throughput and search latency of the store at a few sizes."""

from __future__ import annotations

import functools
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.corpus import key_words, sentences
from bench.timing import percentile, timed
from mnemex.config import Settings


def run(
    sizes: list[int], *, queries: int = 200, single_saves: int = 300, seed: int = 11
) -> list[dict[str, Any]]:
    """One row per size: saves/s (single and batched), search p50/p95, hit@10."""
    import mnemex

    rows = []
    for size in sizes:
        texts = sentences(size, seed=seed)
        with tempfile.TemporaryDirectory() as folder:
            settings = Settings.load(data_dir=Path(folder))
            with mnemex.open(Path(folder) / "bench.db", settings=settings) as store:
                single = min(single_saves, size)
                start = time.perf_counter()
                for text in texts[:single]:
                    store.save(text)
                single_rate = single / (time.perf_counter() - start)
                start = time.perf_counter()
                for offset in range(single, size, 1000):
                    store.save_many([{"content": t} for t in texts[offset : offset + 1000]])
                batched = size - single
                batch_rate = batched / (time.perf_counter() - start) if batched else 0.0
                rng = random.Random(seed)
                latencies: list[float] = []
                found = 0
                for _ in range(queries):
                    target = rng.randrange(size)
                    # Two of the memory's own words, as an agent would search for it.
                    words = " ".join(key_words(texts[target]))
                    hits, ms = timed(functools.partial(store.search, words, k=10))
                    latencies.append(ms)
                    found += any(texts[target] == hit.memory.content for hit in hits)
        rows.append(
            {
                "size": size,
                "save_per_s": round(single_rate, 1),
                "save_many_per_s": round(batch_rate, 1),
                "search_p50_ms": round(percentile(latencies, 50), 3),
                "search_p95_ms": round(percentile(latencies, 95), 3),
                "hit_at_10": round(found / queries, 3),
            }
        )
    return rows
