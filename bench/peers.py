"""`mnemex bench peers`: Mnemex side by side with cortexgraph 1.2.1 on the same corpus and queries.

cortexgraph needs `mcp<2`, so it lives in its own venv (never installed with Mnemex):

    python3 -m venv /tmp/cgvenv && /tmp/cgvenv/bin/pip install cortexgraph==1.2.1 "mcp<2"

bench/cortexgraph_driver.py runs there as a subprocess: it saves every memory with cortexgraph's
`save_memory` tool and asks each question with its `search_memory` tool (defaults kept). Mnemex
answers the same questions on a store filled with the same texts, as configured by default
(hybrid: the query is embedded) and lexical-only (`embed_model="none"`: no model, like
cortexgraph without its optional sentence-transformers). Each row has search p50/p95 and hit@10:
a memory with the text each question was made from is in the top 10.
"""

from __future__ import annotations

import json
import random
import subprocess
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from bench import seeded_store
from bench.timing import percentile, timed
from mnemex.config import Settings
from mnemex.embed import MINILM

DRIVER = Path(__file__).with_name("cortexgraph_driver.py")


class PeerMissing(Exception):
    """The peer's venv is not there: the comparison is skipped with this message."""


def peer_python(venv: Path) -> Path:
    """The interpreter of a cortexgraph venv, or PeerMissing with how to make one."""
    python = venv / "bin" / "python"
    if not python.exists():
        raise PeerMissing(
            f"no cortexgraph venv at {venv}: create it with `python3 -m venv {venv} && "
            f'{venv}/bin/pip install cortexgraph==1.2.1 "mcp<2"`; comparison skipped'
        )
    return python


def run(
    venv: Path, *, size: int = 10_000, queries: int = 200, seed: int = 11, model: str = MINILM
) -> list[dict[str, Any]]:
    """One row per system: search p50/p95 (ms), hit@10, and cortexgraph's p50 over each one's."""
    import mnemex

    python = peer_python(venv)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings.load(env={}, data_dir=Path(folder), embed_model=model)
        seeded = seeded_store.seed_store(
            Path(folder) / "peers.db", size, seed=seed, settings=settings
        )
        rng = random.Random(seed)
        targets = [rng.randrange(size) for _ in range(queries)]
        path = str(seeded.path)
        with (
            _Peer(python, seeded, Path(folder)) as peer,
            mnemex.open(path, settings=settings) as hybrid,
            mnemex.open(path, settings=settings.replace(embed_model="none")) as lexical,
        ):
            systems: dict[str, Callable[[int], tuple[bool, float]]] = {
                "mnemex": partial(_ask_mnemex, hybrid, seeded),
                "mnemex (embed_model=none)": partial(_ask_mnemex, lexical, seeded),
                "cortexgraph 1.2.1": peer.ask,
            }
            rows = _interleaved(systems, targets, rng, seeded.ids)
    theirs = rows[-1]["search_p50_ms"]
    for row in rows:
        row["cortexgraph_p50_over_this"] = round(theirs / row["search_p50_ms"], 1)
    return rows


def _interleaved(
    systems: dict[str, Callable[[int], tuple[bool, float]]],
    targets: list[int],
    rng: random.Random,
    ids: list[str],
) -> list[dict[str, Any]]:
    """Each query asked of every system in a shuffled order, so all see the same load."""
    for ask in systems.values():
        ask(targets[0])  # warm up: models, indexes, caches
    latencies: dict[str, list[float]] = {name: [] for name in systems}
    found = dict.fromkeys(systems, 0)
    for target in targets:
        order = list(systems)
        rng.shuffle(order)
        for name in order:
            hit, ms = systems[name](target)
            latencies[name].append(ms)
            found[name] += hit
    return [_row(name, len(ids), latencies[name], found[name]) for name in systems]


def _ask_mnemex(store: Any, seeded: seeded_store.Seeded, target: int) -> tuple[bool, float]:
    memory = seeded.memories[target]
    hits, ms = timed(partial(store.search, memory.query, k=10))
    return any(hit.memory.content == memory.text for hit in hits), ms


class _Peer:
    """cortexgraph in its own interpreter, filled with the corpus, answering one query a line."""

    def __init__(self, python: Path, seeded: seeded_store.Seeded, folder: Path) -> None:
        spec = folder / "cortexgraph.json"
        body = {
            "storage": str(folder / "cortexgraph"),
            "memories": [m.text for m in seeded.memories],
        }
        spec.write_text(json.dumps(body), encoding="utf-8")
        self.seeded = seeded
        self.process = subprocess.Popen(
            [str(python), str(DRIVER), str(spec)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        if not self._read():
            raise PeerMissing("cortexgraph driver failed to load the corpus")

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            self.close()
            raise PeerMissing("cortexgraph driver stopped (is cortexgraph 1.2.1 installed?)")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, target: int) -> tuple[bool, float]:
        """Whether cortexgraph found the target, and its own timing of the search (ms)."""
        assert self.process.stdin is not None
        query = self.seeded.memories[target].query
        self.process.stdin.write(json.dumps([query, target]) + "\n")
        self.process.stdin.flush()
        answer = self._read()
        return bool(answer["found"]), float(answer["ms"])

    def close(self) -> None:
        """Stop the driver."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)

    def __enter__(self) -> _Peer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _row(system: str, saved: int, latencies: list[float], found: int) -> dict[str, Any]:
    return {
        "system": system,
        "memories": saved,
        "search_p50_ms": round(percentile(latencies, 50), 2),
        "search_p95_ms": round(percentile(latencies, 95), 2),
        "hit_at_10": round(found / len(latencies), 3),
    }
