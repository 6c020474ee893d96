"""Resident memory of a process that opens a store and searches it (run in a fresh interpreter).

`python -m bench.memory STORE QUERIES.json` loads the model and embeds once (the
baseline), opens the store, runs the queries (the first one loads the vector index: a graph
restored from its snapshot or built), and prints JSON: RSS before and after, the peak, the
first search's time and what the vector index holds. Linux /proc figures; elsewhere only the
peak (getrusage) is known.
"""

from __future__ import annotations

import gc
import json
import resource
import sys
import time
from importlib import import_module
from pathlib import Path
from typing import Any


def rss() -> tuple[int | None, int]:
    """(current, peak) resident set size in bytes."""
    current = peak = None
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text(encoding="utf-8").splitlines():
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                size = int(value.split()[0]) * 1024
                current, peak = (size, peak) if name == "VmRSS" else (current, size)
    if peak is None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return current, peak


def probe(path: str, queries: list[str], model: str) -> dict[str, Any]:
    """Open the store at `path`, search `queries`, and account for the memory it took."""
    import mnemex
    from mnemex.embed import load_embedder

    if model == "test-hash":  # the test suite's tiny embedder lives in tests/fakes.py
        import_module("tests.fakes")
    settings = mnemex.Settings.load(env={}, embed_model=model)
    embedder = load_embedder(settings.embed_model)
    assert embedder is not None
    embedder.embed(["warm up the model"])
    gc.collect()
    base, _ = rss()
    with mnemex.open(path, settings=settings) as store:
        started = time.perf_counter()
        store.search(queries[0])
        first = time.perf_counter() - started
        for query in queries[1:]:
            store.search(query)
        gc.collect()
        steady, peak = rss()
        index = store.engine.vector_index(store.tenant)
        assert index is not None
        return {
            "rss_base": base,
            "rss_steady": steady,
            "rss_peak": peak,
            "first_search_s": first,
            "index_kind": index.kind,
            "index_restored": index.restored,
            "index_bytes": index.nbytes(),
            "vectors": len(index),
        }


if __name__ == "__main__":
    with open(sys.argv[2], encoding="utf-8") as handle:
        print(json.dumps(probe(sys.argv[1], json.load(handle), sys.argv[3])))
