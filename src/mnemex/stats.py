"""Store statistics: counts, the score distribution and the configuration in use."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import numpy.typing as npt

from mnemex.config import Settings
from mnemex.decay.curve import Decay
from mnemex.models import LIVE_STATUSES
from mnemex.store.base import MemoryFilter, Tx

MAX_COUNTED_REVIEWS = 10_000
STRENGTH_BINS = [round(0.2 * i, 1) for i in range(11)]  # [0, 2] in tenths of the range


def collect(tx: Tx, decay: Decay, settings: Settings, now_us: int) -> dict[str, Any]:
    """Everything `MemoryStore.stats()` reports except the tenant and the backend's own info."""
    counts = tx.count_memories()
    rows = tx.temporal_rows(MemoryFilter(statuses=LIVE_STATUSES))
    tables = tx.table_counts()
    open_reviews = len(tx.list_reviews("open", MAX_COUNTED_REVIEWS))
    scores = decay.row_scores(rows, now_us)
    tags = Counter(tag for row in rows for tag in row.tags)
    in_zone = (scores >= settings.danger_zone_low) & (scores <= settings.danger_zone_high)
    strengths = np.array([row.strength for row in rows], dtype=np.float64)
    score_edges = [0.0, settings.forget_threshold, settings.danger_zone_low]
    score_edges += [settings.danger_zone_high, settings.promote_threshold, 1.0, np.inf]
    return {
        "memories": {"total": sum(counts.values()), **counts},
        "entities": tables["entities"],
        "relations": tables["relations"],
        "facts": tables["facts"],
        "open_reviews": open_reviews,
        "score": {
            "mean": float(scores.mean()) if len(scores) else 0.0,
            "danger_zone": int(in_zone.sum()),
            "below_forget_threshold": int((scores < settings.forget_threshold).sum()),
            "histogram": _histogram(scores, score_edges),
        },
        "strength": {"histogram": _histogram(strengths, STRENGTH_BINS)},
        "top_tags": sorted(tags.items(), key=lambda item: (-item[1], item[0]))[:10],
        "decay_curve": settings.decay_curve,
        "embed_model": settings.embed_model,
    }


def _histogram(values: npt.NDArray[np.float64], edges: list[float]) -> list[dict[str, Any]]:
    """Counts per bin [low, high) (the last bin closed), as JSON-ready rows."""
    finite = [min(edge, 1e12) for edge in edges]  # an open last bin, as numpy wants finite edges
    counts, _ = np.histogram(values, bins=np.array(finite, dtype=np.float64))
    return [
        {"low": float(low), "high": None if np.isinf(high) else float(high), "count": int(n)}
        for low, high, n in zip(edges[:-1], edges[1:], counts, strict=True)
    ]
