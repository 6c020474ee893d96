"""`mnemex eval activation`: how well analyze() and save enrichment do on held-out messages.

Data (hand-written): bench/data/activation_test.txt (messages labelled with intent and explicit
save / recall requests; never used for training or tuning), bench/data/dedup_test.txt (near
duplicates and related-but-different pairs, never used for tuning) and bench/data/dedup_pairs.txt
(the duplicate checker's dev set: its weights and contrast cues were chosen on it, so its figures
are reported as "dev", not as a result).
"""

from __future__ import annotations

import functools
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from bench import DATA
from bench.corpus import sentences
from bench.timing import percentile, timed
from mnemex.config import Settings

T = TypeVar("T")
BACKGROUND_MEMORIES = 500  # a store with some content, so duplicate checks have candidates


@dataclass(frozen=True, slots=True)
class Message:
    """One labelled test message."""

    intent: str
    flag: str  # "S" explicit save request, "R" explicit recall request, "-" neither
    text: str


def _lines(name: str) -> Iterator[list[str]]:
    text = (DATA / name).read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            yield [part.strip() for part in line.split("|")]


def messages() -> list[Message]:
    """The held-out activation test set."""
    return [
        Message(parts[0], parts[1], "|".join(parts[2:])) for parts in _lines("activation_test.txt")
    ]


def dedup_pairs(name: str = "test") -> list[tuple[str, str, str]]:
    """(label, existing, new) pairs: held-out "test", "fresh" and "final" sets, or the "dev" set."""
    files = {
        "test": "dedup_test.txt",
        "fresh": "dedup_fresh.txt",
        "final": "dedup_final.txt",
        "dev": "dedup_pairs.txt",
    }
    return [(p[0], p[1], p[2]) for p in _lines(files[name])]


def per_class(truth: list[str], guess: list[str], labels: list[str]) -> dict[str, dict[str, float]]:
    """Precision, recall and support of each class."""
    table = {}
    for label in labels:
        tp = sum(t == g == label for t, g in zip(truth, guess, strict=True))
        predicted = sum(g == label for g in guess)
        actual = sum(t == label for t in truth)
        table[label] = {
            "precision": round(tp / predicted, 4) if predicted else 0.0,
            "recall": round(tp / actual, 4) if actual else 0.0,
            "support": actual,
        }
    return table


def intent_figures(rows: list[Message], guesses: list[str]) -> dict[str, Any]:
    """Accuracy, per-class figures and the lowest class recall."""
    from mnemex.analysis.intent import INTENTS

    truth = [m.intent for m in rows]
    classes = per_class(truth, guesses, list(INTENTS))
    accuracy = sum(t == g for t, g in zip(truth, guesses, strict=True)) / len(rows)
    return {
        "accuracy": round(accuracy, 4),
        "min_class_recall": min(c["recall"] for c in classes.values()),
        "per_class": classes,
    }


def dedup_figures(settings: Settings, embed: Any) -> dict[str, Any]:
    """False positives (related pairs flagged) and duplicate recall at the review/merge cuts."""
    from mnemex.analysis import dedup

    report: dict[str, Any] = {}
    for half in ("test", "fresh", "final", "dev"):
        pairs = dedup_pairs(half)
        a = embed([p[1] for p in pairs]) if embed else [None] * len(pairs)
        b = embed([p[2] for p in pairs]) if embed else [None] * len(pairs)
        scores = [dedup.similarity(p[1], p[2], x, y) for p, x, y in zip(pairs, a, b, strict=True)]
        related = [s for s, p in zip(scores, pairs, strict=True) if p[0] == "REL"]
        dups = [s for s, p in zip(scores, pairs, strict=True) if p[0] == "DUP"]
        report[half] = {
            "pairs": len(pairs),
            "false_positive_rate": round(
                sum(s >= settings.dedup_review for s in related) / len(related), 4
            ),
            "duplicate_recall_review": round(
                sum(s >= settings.dedup_review for s in dups) / len(dups), 4
            ),
            "duplicate_recall_merge": round(
                sum(s >= settings.dedup_merge for s in dups) / len(dups), 4
            ),
        }
    return report


def _cpu_timed(func: Callable[[], T]) -> tuple[T, float, float]:
    """func's result, its wall time and its process CPU time, in milliseconds."""
    cpu = time.process_time()
    result, wall = timed(func)
    return result, wall, (time.process_time() - cpu) * 1000.0


def _measure(store: Any, rows: list[Message], saves: bool) -> tuple[list[Any], dict[str, float]]:
    """Analyses of every message and the latency figures, embedding timed beside each analyze."""
    embedder = store.engine.embedder
    analyses, analyze_ms, analyze_cpu, embed_ms, save_ms = [], [], [], [], []
    for row in rows:
        if embedder is not None:
            embed_ms.append(timed(functools.partial(embedder.embed, [row.text]))[1])
        result, wall, cpu = _cpu_timed(functools.partial(store.analyze, row.text))
        analyses.append(result)
        analyze_ms.append(wall)
        analyze_cpu.append(cpu)
    if saves:
        save_ms = [timed(functools.partial(store.save, r.text))[1] for r in rows]
    return analyses, {
        "analyze_p50": round(percentile(analyze_ms, 50), 2),
        "analyze_p95": round(percentile(analyze_ms, 95), 2),
        "analyze_cpu_p50": round(percentile(analyze_cpu, 50), 2),
        "embed_one_p50": round(percentile(embed_ms, 50), 2),
        "enriched_save_p50": round(percentile(save_ms, 50), 2),
        "enriched_save_p95": round(percentile(save_ms, 95), 2),
    }


def _rate(hits: list[bool]) -> float:
    return round(sum(hits) / len(hits), 4) if hits else 0.0


def run(*, embed_model: str = "minilm-int8", saves: bool = True) -> dict[str, Any]:
    """Every activation figure in one dict (see the module docstring for the data)."""
    import mnemex
    from mnemex.analysis import intent

    rows = messages()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings.load(env={}, data_dir=Path(folder), embed_model=embed_model)
        with mnemex.open(Path(folder) / "activation.db", settings=settings) as store:
            # Cold: the first call loads spaCy, the embedding model and the intent weights.
            _, load_ms = timed(functools.partial(store.analyze, "Hello there, remember that."))
            store.save_many([{"content": t} for t in sentences(BACKGROUND_MEMORIES, seed=5)])
            analyses, latency = _measure(store, rows, saves)
            embedder = store.engine.embedder
    actions = [(a.action, r.flag) for a, r in zip(analyses, rows, strict=True)]
    return {
        "messages": len(rows),
        "embed_model": embed_model,
        "explicit_save_recall": _rate([a == "MUST_SAVE" for a, f in actions if f == "S"]),
        "recall_request_recall": _rate([a == "SHOULD_SEARCH" for a, f in actions if f == "R"]),
        "must_save_false_positive_rate": _rate([a == "MUST_SAVE" for a, f in actions if f != "S"]),
        "explicit_saves": sum(f == "S" for _, f in actions),
        "recall_requests": sum(f == "R" for _, f in actions),
        "messages_without_save_request": sum(f != "S" for _, f in actions),
        "intent": intent_figures(rows, [a.intent for a in analyses]),
        "intent_lexical_fallback": intent_figures(
            rows, [intent.predict(r.text, None).intent for r in rows]
        ),
        "dedup": dedup_figures(settings, embedder.embed if embedder else None),
        "latency_ms": {"model_load": round(load_ms, 1), **latency},
        "load_average": round(os.getloadavg()[0], 2),
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
