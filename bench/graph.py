"""`mnemex bench graph`: graph query latency on a large entity graph.

A file store gets `entities` entities and `edges` random typed relations (written straight
through the storage transaction: this measures reads, not enrichment), then `store.graph(name,
depth=2)` (memories included, the default call) and `store.path(a, b)` run from random roots.
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path
from typing import Any

import mnemex
from bench.timing import percentile
from mnemex.clock import to_micros
from mnemex.config import Settings
from mnemex.models import Relation, new_id

TYPES = ("works_on", "uses", "depends_on", "manages", "member_of", "related_to", "leads", "owns")
CATEGORIES = ("person", "project", "technology", "organization", "place")


def build(store: mnemex.MemoryStore, entities: int, edges: int, seed: int) -> list[str]:
    """Fill the store; returns the entity names."""
    rng = random.Random(seed)
    names = [f"entity-{i:06d}" for i in range(entities)]
    now = store.now()
    now_us = to_micros(now)
    ids: list[str] = []
    with store.backend.write(store.tenant) as tx:
        for i, name in enumerate(names):
            ids.append(
                tx.upsert_entity(name, category=CATEGORIES[i % len(CATEGORIES)], now=now_us)[0]
            )
        made = 0
        while made < edges:
            a, b = rng.randrange(entities), rng.randrange(entities)
            if a == b:
                continue
            tx.insert_relation(
                Relation(
                    id=new_id("rel"),
                    from_kind="entity",
                    from_id=ids[a],
                    to_kind="entity",
                    to_id=ids[b],
                    type=rng.choice(TYPES),
                    strength=1.0,
                    source_memory=None,
                    created_at=now,
                    tenant=store.tenant,
                )
            )
            made += 1
    return names


def run(
    entities: int = 50_000, edges: int = 200_000, queries: int = 200, seed: int = 7
) -> dict[str, Any]:
    """Build the store, then time depth-2 neighbourhoods and shortest paths."""
    rng = random.Random(seed + 1)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings.load(env={}, data_dir=Path(folder), embed_model="none")
        with mnemex.open(str(Path(folder) / "graph.db"), settings=settings) as store:
            started = time.perf_counter()
            names = build(store, entities, edges, seed)
            built = time.perf_counter() - started
            depth2, sizes, paths = [], [], []
            for _ in range(queries):
                name = rng.choice(names)
                t0 = time.perf_counter()
                graph = store.graph(name, depth=2)
                depth2.append((time.perf_counter() - t0) * 1000)
                sizes.append(len(graph.nodes))
            for _ in range(max(queries // 4, 1)):
                a, b = rng.choice(names), rng.choice(names)
                t0 = time.perf_counter()
                store.path(a, b)
                paths.append((time.perf_counter() - t0) * 1000)
    return {
        "entities": entities,
        "edges": edges,
        "build_s": round(built, 1),
        "depth2_p50_ms": round(percentile(depth2, 50), 2),
        "depth2_p95_ms": round(percentile(depth2, 95), 2),
        "depth2_nodes_p50": percentile([float(s) for s in sizes], 50),
        "path_p50_ms": round(percentile(paths, 50), 2),
        "path_p95_ms": round(percentile(paths, 95), 2),
    }
