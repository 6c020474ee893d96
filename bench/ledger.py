"""`mnemex eval ledger`: does search serve the current value of a changed fact, never a stale one?

Builds the world of bench/data/ledger_protocol.json for a seed, saves it in time order into
fresh stores in several ways (rows), asks every question and scores the top hits:

- current@1: the top hit names the person and the key's latest value;
- stale@1: the top hit names the person and an older value of the key (and not the latest);
- static recall@5 / two-hop recall@5: the answer is in one of the top five hits;
- p50: median search latency.
"""

from __future__ import annotations

import functools
import re
import statistics
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from bench import pg_server, wordings
from bench.ledger_world import START, UNSEEN, World, build, build_heldout
from bench.timing import percentile, timed
from mnemex.config import Settings
from mnemex.ledger.extract import USER

__all__ = ["build", "build_heldout", "rows", "run", "score"]


def _names(text: str, phrase: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text, re.IGNORECASE) is not None


Search = Callable[[str, int], list[str]]


def score(world: World, search: Search) -> dict[str, float]:
    """The metrics of one row: ask every question through `search` (texts of the top hits)."""
    counts = {"current": 0, "stale": 0, "static": 0, "two_hop": 0}
    totals = {"current": 0, "static": 0, "two_hop": 0}
    latencies: list[float] = []
    for question in world.questions:
        texts, ms = timed(functools.partial(search, question.text, 5))
        latencies.append(ms)
        totals[question.kind] += 1
        if question.kind == "current":
            top = texts[0] if texts else ""
            # A first-person statement names no one: "My editor is Vim" is about the user.
            about = question.person == USER or _names(top, question.person)
            if about and _names(top, question.answer):
                counts["current"] += 1
            elif about and any(_names(top, old) for old in question.stale):
                counts["stale"] += 1
        elif any(_names(t, question.answer) for t in texts[:5]):
            counts[question.kind] += 1
    return {
        "current@1": counts["current"] / max(totals["current"], 1),
        "stale@1": counts["stale"] / max(totals["current"], 1),
        "static@5": counts["static"] / max(totals["static"], 1),
        "two_hop@5": counts["two_hop"] / max(totals["two_hop"], 1),
        "p50_ms": percentile(latencies, 50),
    }


class _Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def _store_row(world: World, settings: Settings, keyed: bool) -> dict[str, float]:
    """Save the world into a fresh store (keyed or as plain text) and score its search."""
    import mnemex

    clock = _Clock()
    with mnemex.open(pg_server.fresh_target(), settings=settings, clock=clock) as store:
        for statement in world.statements:
            clock.now = statement.when
            if keyed and statement.key is not None:
                subject, relation, value = statement.key
                store.save(statement.content, subject=subject, relation=relation, value=value)
            else:
                store.save(statement.content)
        clock.now = world.statements[-1].when + timedelta(days=1)
        return score(world, lambda q, k: [h.memory.content for h in store.search(q, k=k)])


def _vector_row(world: World, settings: Settings) -> dict[str, float] | None:
    """Every statement embedded, questions answered by cosine alone (no ledger, no time)."""
    from mnemex.embed import load_embedder

    embedder = load_embedder(settings.embed_model)
    if embedder is None:
        return None
    texts = [s.content for s in world.statements]
    matrix = embedder.embed(texts)

    def search(query: str, k: int) -> list[str]:
        cosines = matrix @ embedder.embed([query])[0]
        return [texts[i] for i in np.argsort(-cosines)[:k]]

    return score(world, search)


def rows(seed: int, keys: int, base: Settings) -> list[dict[str, Any]]:
    """Every row (and ablation) for one seed."""
    world = build(seed, keys)
    plain = base.replace(ledger_extract=False)
    variants: list[tuple[str, Callable[[], dict[str, float] | None]]] = [
        ("vector only", lambda: _vector_row(world, base)),
        ("notes, no ledger", lambda: _store_row(world, plain, keyed=False)),
        ("keyed ledger", lambda: _store_row(world, base, keyed=True)),
        ("unkeyed + extraction", lambda: _store_row(world, base, keyed=False)),
        (
            "unkeyed + extraction, unseen wordings",
            lambda: _store_row(build(seed, keys, UNSEEN), base, keyed=False),
        ),
        (
            "unkeyed + extraction, held-out set",
            lambda: _store_row(build_heldout(seed), base, keyed=False),
        ),
        ("keyed ledger, held-out set", lambda: _store_row(build_heldout(seed), base, keyed=True)),
        (
            "unkeyed + extraction, dev set (tuned on)",
            lambda: _store_row(build_heldout(seed, wordings.load("ledger_dev")), base, keyed=False),
        ),
        (
            "unkeyed + extraction, fresh set",
            lambda: _store_row(
                build_heldout(seed, wordings.load("ledger_fresh")), base, keyed=False
            ),
        ),
        (
            "keyed ledger, fresh set",
            lambda: _store_row(
                build_heldout(seed, wordings.load("ledger_fresh")), base, keyed=True
            ),
        ),
        (
            "ablation: keyed, no ledger answers in search",
            lambda: _store_row(world, base.replace(ledger_search=False), keyed=True),
        ),
        (
            "ablation: extraction, no ledger answers in search",
            lambda: _store_row(world, base.replace(ledger_search=False), keyed=False),
        ),
        (
            "ablation: extraction, no relation mapping",
            lambda: _store_row(
                world,
                base.replace(relation_auto_threshold=1.0, relation_review_threshold=1.0),
                keyed=False,
            ),
        ),
    ]
    out = []
    for name, run in variants:
        result = run()
        if result is not None:
            out.append({"row": name, "seed": seed, **result})
    return out


def run(
    seeds: list[int], keys: int, data_dir: Path, embed_model: str | None = None
) -> list[dict[str, Any]]:
    """Rows averaged over seeds, with the min-max spread of each metric."""
    base = Settings.load(env={}, data_dir=data_dir)
    if embed_model is not None:
        base = base.replace(embed_model=embed_model)
    per_seed = [row for seed in seeds for row in rows(seed, keys, base)]
    names = list(dict.fromkeys(row["row"] for row in per_seed))
    summary = []
    for name in names:
        group = [row for row in per_seed if row["row"] == name]
        line: dict[str, Any] = {"row": name, "seeds": len(group)}
        for metric in ("current@1", "stale@1", "static@5", "two_hop@5", "p50_ms"):
            values = [row[metric] for row in group]
            mean = statistics.fmean(values)
            digits = 2 if metric == "p50_ms" else 3
            line[metric] = round(mean, digits)
            line[metric + " spread"] = f"{min(values):.{digits}f}-{max(values):.{digits}f}"
        line["embed_model"] = base.embed_model
        summary.append(line)
    return summary
