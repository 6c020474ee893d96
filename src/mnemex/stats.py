"""Store statistics: counts, the score distribution and the configuration in use."""

from __future__ import annotations

from collections import Counter
from typing import Any

from mnemex.config import Settings
from mnemex.decay.curve import Decay
from mnemex.models import LIVE_STATUSES
from mnemex.store.base import MemoryFilter, Tx

MAX_COUNTED_REVIEWS = 10_000


def collect(tx: Tx, decay: Decay, settings: Settings, now_us: int) -> dict[str, Any]:
    """Everything `MemoryStore.stats()` reports except the tenant and the backend's own info."""
    counts = tx.count_memories()
    rows = tx.temporal_rows(MemoryFilter(statuses=LIVE_STATUSES))
    tables = tx.table_counts()
    open_reviews = len(tx.list_reviews("open", MAX_COUNTED_REVIEWS))
    scores = decay.row_scores(rows, now_us)
    tags = Counter(tag for row in rows for tag in row.tags)
    in_zone = (scores >= settings.danger_zone_low) & (scores <= settings.danger_zone_high)
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
        },
        "top_tags": sorted(tags.items(), key=lambda item: (-item[1], item[0]))[:10],
        "decay_curve": settings.decay_curve,
        "embed_model": settings.embed_model,
    }
