"""`mnemex bench http`: POST /v1/search latency and throughput against a real `mnemex serve`.

A store of synthetic memories is written to a temporary file, `mnemex serve` is started on a
free loopback port as its own process, and clients on keep-alive connections (stdlib
http.client) send searches with two words of a random memory: first one client in sequence
(latency), then N clients at once for a fixed time (requests per second). The server and the
clients share this machine's cores.
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
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.corpus import key_words, sentences
from bench.timing import percentile
from mnemex.config import Settings

_CLI = "from mnemex.interfaces.cli import main; main()"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def served(db: Path, data_dir: Path) -> Iterator[int]:
    """`mnemex serve` on `db` in a child process; yields its port, stops it afterwards."""
    port = _free_port()
    env = {**os.environ, "MNEMEX_DATA_DIR": str(data_dir)}
    command = [sys.executable, "-c", _CLI, "--db", str(db), "serve", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("mnemex serve did not start") from None
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)


def search(connection: http.client.HTTPConnection, query: str) -> float:
    """One POST /v1/search on a kept-alive connection; its wall time in milliseconds."""
    body = json.dumps({"query": query, "k": 10})
    start = time.perf_counter()
    connection.request("POST", "/v1/search", body, {"Content-Type": "application/json"})
    response = connection.getresponse()
    response.read()
    elapsed = (time.perf_counter() - start) * 1000.0
    if response.status != 200:
        raise RuntimeError(f"search answered {response.status}")
    return elapsed


def _load(port: int, queries: list[str], clients: int, seconds: float) -> tuple[int, list[float]]:
    """`clients` threads searching for `seconds`: requests done and their latencies."""
    stop = time.monotonic() + seconds
    latencies: list[list[float]] = [[] for _ in range(clients)]

    def client(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        rng = random.Random(index)
        while time.monotonic() < stop:
            latencies[index].append(search(connection, rng.choice(queries)))
        connection.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    flat = [ms for per_client in latencies for ms in per_client]
    return len(flat), flat


def run(
    size: int = 10_000,
    *,
    queries: int = 300,
    clients: int = 8,
    seconds: float = 5.0,
    seed: int = 11,
) -> list[dict[str, Any]]:
    """One row: sequential p50/p95 and N-client requests per second at `size` memories."""
    import mnemex

    texts = sentences(size, seed=seed)
    rng = random.Random(seed)
    asked = [" ".join(key_words(texts[rng.randrange(size)])) for _ in range(queries)]
    with tempfile.TemporaryDirectory() as folder:
        data_dir, db = Path(folder), Path(folder) / "bench.db"
        with mnemex.open(db, settings=Settings.load(data_dir=data_dir)) as store:
            for offset in range(0, size, 1000):
                store.save_many([{"content": t} for t in texts[offset : offset + 1000]])
        with served(db, data_dir) as port:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            for query in asked[:20]:  # warm-up: caches, thread pool, connection
                search(connection, query)
            latencies = [search(connection, query) for query in asked]
            connection.close()
            done, loaded = _load(port, asked, clients, seconds)
    return [
        {
            "size": size,
            "search_p50_ms": round(percentile(latencies, 50), 2),
            "search_p95_ms": round(percentile(latencies, 95), 2),
            "clients": clients,
            "requests_per_s": round(done / seconds, 1),
            "p50_under_load_ms": round(percentile(loaded, 50), 2),
        }
    ]
