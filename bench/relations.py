"""`mnemex eval relations`: calibrate the relation-mapping thresholds on labelled name pairs.

The pairs (bench/data/relation_pairs.json) are split in two by position: thresholds are fitted on
one half and reported on the other. A wrong automatic mapping supersedes a value that still holds,
so the auto threshold sits above every different-key pair of the fitting half. The review threshold
is the cut below it that best separates same-key from different-key pairs (Youden's J: share of
same-key pairs kept minus share of different-key pairs kept), so the queue sees the likely aliases
without every new relation name of a subject.
"""

from __future__ import annotations

import json
import math
from typing import Any

from bench import DATA
from mnemex.embed import load_embedder
from mnemex.ledger.similarity import Similarity, for_embedder

Pair = tuple[str, str, bool]


def pairs() -> list[Pair]:
    """Every labelled pair, same-key ones first."""
    pairs = json.loads((DATA / "relation_pairs.json").read_text(encoding="utf-8"))
    same, different = pairs["same"], pairs["different"]
    return [(a, b, True) for a, b in same] + [(a, b, False) for a, b in different]


def split(items: list[Pair]) -> tuple[list[Pair], list[Pair]]:
    """(fit, held out): alternate pairs of each label go to each half."""
    fit = [p for i, p in enumerate(items) if i % 2 == 0]
    held = [p for i, p in enumerate(items) if i % 2 == 1]
    return fit, held


def scored(items: list[Pair], similarity: Similarity) -> list[tuple[float, bool]]:
    """(score, label) of each pair."""
    return [(similarity.relations(a, [b])[0], same) for a, b, same in items]


def fit(points: list[tuple[float, bool]]) -> tuple[float, float]:
    """(auto, review) thresholds on a 0.01 grid."""
    worst_false = max((s for s, same in points if not same), default=0.0)
    auto = min(1.0, math.floor(worst_false * 100 + 1) / 100)
    trues = [s for s, same in points if same]
    falses = [s for s, same in points if not same]

    def youden(cut: float) -> float:
        kept = sum(s >= cut for s in trues) / max(len(trues), 1)
        return kept - sum(s >= cut for s in falses) / max(len(falses), 1)

    grid = [step / 100 for step in range(1, round(auto * 100) + 1)]
    review = max(grid, key=lambda cut: (youden(cut), cut)) if grid else auto
    return auto, review


def report(points: list[tuple[float, bool]], auto: float, review: float) -> dict[str, Any]:
    """What the thresholds do on a set of pairs."""
    trues = [s for s, same in points if same]
    falses = [s for s, same in points if not same]
    automatic = [same for s, same in points if s >= auto]
    return {
        "pairs": len(points),
        "auto_precision": round(sum(automatic) / len(automatic), 3) if automatic else 1.0,
        "same_auto": round(sum(s >= auto for s in trues) / max(len(trues), 1), 3),
        "same_review": round(sum(review <= s < auto for s in trues) / max(len(trues), 1), 3),
        "same_missed": round(sum(s < review for s in trues) / max(len(trues), 1), 3),
        "different_auto": round(sum(s >= auto for s in falses) / max(len(falses), 1), 3),
        "different_review": round(sum(review <= s < auto for s in falses) / max(len(falses), 1), 3),
    }


def run(similarity: Similarity) -> list[dict[str, Any]]:
    """Thresholds fitted on one half, figures on both halves, for one similarity mode."""
    fitting, held = split(pairs())
    auto, review = fit(scored(fitting, similarity))
    rows = []
    for name, part in (("fit", fitting), ("held out", held)):
        rows.append(
            {
                "mode": similarity.mode,
                "set": name,
                "auto_threshold": auto,
                "review_threshold": review,
                **report(scored(part, similarity), auto, review),
            }
        )
    return rows


def run_model(embed_model: str) -> list[dict[str, Any]]:
    """`run` with the similarity an `embed_model` setting gives."""
    return run(for_embedder(load_embedder(embed_model)))
