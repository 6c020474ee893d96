"""Garbage collection: archive memories whose temporal score fell below the forget threshold."""

from __future__ import annotations

import numpy as np

from mnemex.clock import MICROS_PER_DAY
from mnemex.decay.curve import Decay
from mnemex.models import GcReport, ScoredMemory
from mnemex.store.base import MemoryFilter, TemporalRow, Tx
from mnemex.text import preview


def score_rows(rows: list[TemporalRow], decay: Decay, now: int) -> np.ndarray:
    """Temporal scores of many rows at `now` (microseconds)."""
    if not rows:
        return np.zeros(0)
    uses = np.fromiter((row.use_count for row in rows), float, len(rows))
    days = np.fromiter(((now - row.last_used) / MICROS_PER_DAY for row in rows), float, len(rows))
    strengths = np.fromiter((row.strength for row in rows), float, len(rows))
    return decay.scores(uses, days, strengths)


def collect(
    tx: Tx, decay: Decay, now: int, threshold: float, *, dry_run: bool, hard: bool
) -> GcReport:
    """Find active memories scoring below `threshold`; archive them (or delete, if `hard`)."""
    rows = tx.temporal_rows(MemoryFilter(statuses=("active",), include_superseded=True))
    scores = score_rows(rows, decay, now)
    candidates = [
        ScoredMemory(row.id, preview(row.content), float(score), row.use_count)
        for row, score in zip(rows, scores, strict=True)
        if score < threshold
    ]
    candidates.sort(key=lambda item: (item.score, item.id))
    affected = 0
    if not dry_run:
        for item in candidates:
            if hard:
                affected += tx.delete_memory(item.id)
            else:
                affected += tx.update_memory(item.id, {"status": "archived"})
    return GcReport(dry_run, hard, threshold, candidates, affected)
