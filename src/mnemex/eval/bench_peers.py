"""`mnemex bench peers`: Mnemex side by side with cortexgraph 1.2.1 on the same corpus and queries.

cortexgraph needs `mcp<2`, so it lives in its own venv (never installed with Mnemex):

    python3 -m venv /tmp/cgvenv && /tmp/cgvenv/bin/pip install cortexgraph==1.2.1 "mcp<2"

eval/cortexgraph_driver.py runs there as a subprocess: it saves every memory with cortexgraph's
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
from functools import partial
from pathlib import Path
from typing import Any

from mnemex.config import Settings
from mnemex.eval import seeded_store
from mnemex.eval.timing import percentile, timed
from mnemex.retrieval.embed import MINILM

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
    python = peer_python(venv)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings.load(env={}, data_dir=Path(folder), embed_model=model)
        seeded = seeded_store.seed_store(
            Path(folder) / "peers.db", size, seed=seed, settings=settings
        )
        rng = random.Random(seed)
        targets = [rng.randrange(size) for _ in range(queries)]
        ours = _mnemex_row(seeded, targets, settings, "mnemex")
        lexical = settings.replace(embed_model="none")
        ours_lexical = _mnemex_row(seeded, targets, lexical, "mnemex (embed_model=none)")
        theirs = _cortexgraph_row(python, seeded, targets, Path(folder))
    rows = [ours, ours_lexical, theirs]
    for row in rows:
        row["cortexgraph_p50_over_this"] = round(theirs["search_p50_ms"] / row["search_p50_ms"], 1)
    return rows


def _mnemex_row(
    seeded: seeded_store.Seeded, targets: list[int], settings: Settings, system: str
) -> dict[str, Any]:
    import mnemex

    latencies: list[float] = []
    found = 0
    with mnemex.open(str(seeded.path), settings=settings) as store:
        store.search("warm up")  # loads the model and the vector index once
        for target in targets:
            memory = seeded.memories[target]
            hits, ms = timed(partial(store.search, memory.query, k=10))
            latencies.append(ms)
            found += any(hit.memory.content == memory.text for hit in hits)
    return _row(system, len(seeded.ids), latencies, found)


def _cortexgraph_row(
    python: Path, seeded: seeded_store.Seeded, targets: list[int], folder: Path
) -> dict[str, Any]:
    spec = folder / "cortexgraph.json"
    spec.write_text(
        json.dumps(
            {
                "storage": str(folder / "cortexgraph"),
                "memories": [m.text for m in seeded.memories],
                "queries": [[seeded.memories[t].query, t] for t in targets],
            }
        ),
        encoding="utf-8",
    )
    done = subprocess.run(
        [str(python), str(DRIVER), str(spec)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise PeerMissing(f"cortexgraph driver failed: {done.stderr.strip()[-500:]}")
    result = json.loads(done.stdout)
    return _row("cortexgraph 1.2.1", result["saved"], result["latency_ms"], sum(result["found"]))


def _row(system: str, saved: int, latencies: list[float], found: int) -> dict[str, Any]:
    return {
        "system": system,
        "memories": saved,
        "search_p50_ms": round(percentile(latencies, 50), 2),
        "search_p95_ms": round(percentile(latencies, 95), 2),
        "hit_at_10": round(found / len(latencies), 3),
    }
