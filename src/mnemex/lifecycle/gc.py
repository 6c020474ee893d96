"""Garbage collection: archive memories whose temporal score fell below the forget threshold."""

from __future__ import annotations

from mnemex.decay.curve import Decay
from mnemex.models import GcReport, ScoredMemory
from mnemex.store.base import MemoryFilter, Tx
from mnemex.text import preview


def collect(
    tx: Tx, decay: Decay, now: int, threshold: float, *, dry_run: bool, hard: bool
) -> GcReport:
    """Find active memories scoring below `threshold`; archive them (or delete, if `hard`)."""
    rows = tx.temporal_rows(MemoryFilter(statuses=("active",), include_superseded=True))
    scores = decay.row_scores(rows, now)
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
