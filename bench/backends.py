"""`mnemex bench search --backend postgresql`: PostgreSQL beside SQLite, in one run.

For each size, the synthetic corpus fills a SQLite file (bench/seeded_store.py, cached vectors),
which `migrate_store` copies into a fresh PostgreSQL database (its time is reported). Then, on
the same machine load:

1. search: each query (one memory of the corpus to find) runs on both stores, full search and
   lexical-only, in a shuffled order; p50/p95, hit@10, the first search of a new process (SQLite
   loads its in-memory indexes, PostgreSQL has none) and how often the two backends return the
   same top 10 (the agreement of their rankings);
2. ingest: `save_many` and single `save` of the same new texts on both, interleaved in rounds
   (enrichment off, as in bench/search.py);
3. http: 1, 2 and 4 `mnemex serve` processes on one store, clients spread over them round-robin
   (a load balancer's job) for a fixed time; requests per second, latency under load, and the
   share of the machine's cores the load generator (this process) used meanwhile.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from bench import pg_server, seeded_store
from bench.http_load import search as http_search
from bench.synthetic import memory as synthetic_memory
from bench.timing import percentile, timed
from mnemex.config import Settings
from mnemex.embed import MINILM

Progress = Callable[[str], None]
BACKENDS = ("sqlite", "postgresql")
_CLI = "from mnemex.interfaces.cli import main; main()"


def run(
    sizes: list[int],
    *,
    postgres: str | None = None,
    queries: int = 200,
    seed: int = 11,
    ingest: int = 200,
    singles: int = 50,
    rounds: int = 4,
    workers: Sequence[int] = (1, 2, 4),
    clients: int = 8,
    seconds: float = 8.0,
    model: str = MINILM,
    keep: Path | None = None,
    progress: Progress = lambda _: None,
) -> dict[str, list[dict[str, Any]]]:
    """Tables "search", "ingest" and "http", rows per size and backend."""
    from mnemex.service import migrate_store

    out: dict[str, list[dict[str, Any]]] = {"search": [], "ingest": [], "http": []}
    with pg_server.backend("postgresql", postgres) as server:
        assert server is not None
        for size in sizes:
            with tempfile.TemporaryDirectory() as folder:
                settings = Settings.load(env={}, data_dir=Path(folder), embed_model=model)
                seeded = seeded_store.seed_store(
                    Path(folder) / "bench.db",
                    size,
                    seed=seed,
                    settings=settings,
                    progress=partial(_tagged, progress, size),
                    keep=keep,
                )
                uri = server.database()
                progress(f"[{size:,}] copying the store into PostgreSQL {server.version}")
                copy_ms = timed(partial(migrate_store, str(seeded.path), uri, settings=settings))[1]
                targets = {"sqlite": str(seeded.path), "postgresql": uri}
                rng = random.Random(seed)
                asked = [seeded.memories[rng.randrange(size)] for _ in range(queries)]
                progress(f"[{size:,}] {queries} queries on both")
                out["search"] += search_rows(size, targets, asked, settings, rng, copy_ms / 1000.0)
                progress(f"[{size:,}] ingest on both")
                out["ingest"] += ingest_rows(targets, settings, seed, size, ingest, singles, rounds)
                for backend in BACKENDS:
                    for count in workers:
                        progress(f"[{size:,}] http: {count} {backend} server(s), {clients} clients")
                        row = http_row(
                            targets[backend], Path(folder), asked, count, clients, seconds
                        )
                        out["http"].append({"size": size, "backend": backend, **row})
                done = {name: [r for r in rows if r["size"] == size] for name, rows in out.items()}
                progress(f"[{size:,}] done: {json.dumps(done)}")  # kept should a later size fail
    return out


def _tagged(progress: Progress, size: int, text: str) -> None:
    progress(f"[{size:,}] {text}")


def search_rows(
    size: int,
    targets: dict[str, str],
    asked: Sequence[Any],
    settings: Settings,
    rng: random.Random,
    copy_s: float,
) -> list[dict[str, Any]]:
    """Per backend: full and lexical search latency, hit@10, first search; their agreement."""
    import mnemex

    times: dict[str, list[float]] = {}
    hits: dict[str, int] = {}
    first: dict[str, float] = {}
    same_top = 0
    overlap = 0.0
    with ExitStack() as stack:
        stores: dict[str, Any] = {}
        for backend, target in targets.items():
            full = stack.enter_context(mnemex.open(target, settings=settings))
            lexical = stack.enter_context(
                mnemex.open(target, settings=settings.replace(embed_model="none"))
            )
            first[backend] = timed(partial(full.search, "warm up"))[1] / 1000.0
            lexical.search("warm up")
            stores[backend], stores[f"{backend}_lexical"] = full, lexical
        for name in stores:
            times[name], hits[name] = [], 0
        for memory in asked:
            order = list(stores)
            rng.shuffle(order)
            found: dict[str, list[str]] = {}
            for name in order:
                result, ms = timed(partial(stores[name].search, memory.query, k=10))
                times[name].append(ms)
                found[name] = [hit.memory.content for hit in result]
                hits[name] += memory.text in found[name]
            same_top += found["sqlite"] == found["postgresql"]
            overlap += len(set(found["sqlite"]) & set(found["postgresql"])) / 10.0
    count = len(asked)
    rows = []
    for backend in targets:
        rows.append(
            {
                "size": size,
                "backend": backend,
                "search_p50_ms": round(percentile(times[backend], 50), 2),
                "search_p95_ms": round(percentile(times[backend], 95), 2),
                "lexical_p50_ms": round(percentile(times[f"{backend}_lexical"], 50), 2),
                "lexical_p95_ms": round(percentile(times[f"{backend}_lexical"], 95), 2),
                "hit10": round(hits[backend] / count, 3),
                "lexical_hit10": round(hits[f"{backend}_lexical"] / count, 3),
                "first_search_s": round(first[backend], 2),
                "same_top10": round(same_top / count, 3),
                "overlap10": round(overlap / count, 3),
                "copy_s": round(copy_s, 1) if backend == "postgresql" else None,
            }
        )
    return rows


def ingest_rows(
    targets: dict[str, str],
    settings: Settings,
    seed: int,
    size: int,
    batch_total: int,
    singles: int,
    rounds: int,
) -> list[dict[str, Any]]:
    """save_many and save throughput of the same new texts on both, interleaved in rounds."""
    import mnemex

    settings = settings.replace(analysis_enrich=False)
    fresh = [synthetic_memory(i, seed).text for i in range(size, size + batch_total + singles)]
    many, single = fresh[:batch_total], fresh[batch_total:]
    spent = {(b, kind): 0.0 for b in targets for kind in ("save_many", "save")}
    with ExitStack() as stack:
        stores = {
            b: stack.enter_context(mnemex.open(t, settings=settings)) for b, t in targets.items()
        }
        for r in range(rounds):
            for backend, store in stores.items():
                items = [{"content": text} for text in many[r::rounds]]
                spent[backend, "save_many"] += timed(partial(store.save_many, items))[1]
                for text in single[r::rounds]:
                    spent[backend, "save"] += timed(partial(store.save, text))[1]
    return [
        {
            "size": size,
            "backend": backend,
            "save_many_per_s": round(batch_total / (spent[backend, "save_many"] / 1000.0), 1),
            "save_per_s": round(singles / (spent[backend, "save"] / 1000.0), 1),
        }
        for backend in targets
    ]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def servers(target: str, data_dir: Path, count: int) -> Iterator[list[int]]:
    """`count` `mnemex serve` processes on one store (MNEMEX_DB); yields their ports."""
    env = {**os.environ, "MNEMEX_DATA_DIR": str(data_dir), "MNEMEX_DB": target}
    ports = [_free_port() for _ in range(count)]
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _CLI, "serve", "--port", str(port)],
            env=env,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        deadline = time.monotonic() + 120
        for port, process in zip(ports, processes, strict=True):
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                    break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError("mnemex serve did not start") from None
                    time.sleep(0.1)
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)


def http_row(
    target: str, data_dir: Path, asked: Sequence[Any], count: int, clients: int, seconds: float
) -> dict[str, Any]:
    """Requests per second of `clients` keep-alive clients spread over `count` servers."""
    queries = [memory.query for memory in asked]
    with servers(target, data_dir, count) as ports:
        for port in ports:  # warm-up: the model, the indexes (SQLite), connections
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            for query in queries[:10]:
                http_search(connection, query)
            connection.close()
        latencies: list[list[float]] = [[] for _ in range(clients)]
        stop = time.monotonic() + seconds

        def client(index: int) -> None:
            connection = http.client.HTTPConnection("127.0.0.1", ports[index % count], timeout=60)
            rng = random.Random(index)
            while time.monotonic() < stop:
                latencies[index].append(http_search(connection, rng.choice(queries)))
            connection.close()

        threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
        cpu, wall = time.process_time(), time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    flat = [ms for per_client in latencies for ms in per_client]
    return {
        "workers": count,
        "clients": clients,
        "requests_per_s": round(len(flat) / wall, 1),
        "p50_ms": round(percentile(flat, 50), 1),
        "p95_ms": round(percentile(flat, 95), 1),
        "loadgen_core_share": round(cpu / (wall * (os.cpu_count() or 1)), 3),
    }
