"""Garbage collection: archive memories whose temporal score fell below the forget threshold."""

from __future__ import annotations

from mnemex.decay.curve import Decay
from mnemex.models import PIN_TAG, GcReport, ScoredMemory
from mnemex.store.base import MemoryFilter, Tx
from mnemex.text import preview

NEARING = 20  # memories just above the threshold a report lists (the console's decay view)


def collect(
    tx: Tx,
    decay: Decay,
    now: int,
    threshold: float,
    *,
    dry_run: bool,
    hard: bool,
    near: float | None = None,
) -> GcReport:
    """Find active memories scoring below `threshold`; archive them (or delete, if `hard`).

    Pinned memories are never candidates. `near`: also list the lowest-scoring memories whose
    score is at least `threshold` and below `near` (the next to go)."""
    rows = tx.temporal_rows(MemoryFilter(statuses=("active",), include_superseded=True))
    scores = decay.row_scores(rows, now)
    scored = [
        ScoredMemory(row.id, preview(row.content), float(score), row.use_count)
        for row, score in zip(rows, scores, strict=True)
        if PIN_TAG not in row.tags
    ]
    scored.sort(key=lambda item: (item.score, item.id))
    candidates = [item for item in scored if item.score < threshold]
    nearing = [] if near is None else [i for i in scored if threshold <= i.score < near]
    affected = 0
    if not dry_run:
        for item in candidates:
            if hard:
                affected += tx.delete_memory(item.id)
            else:
                affected += tx.update_memory(item.id, {"status": "archived"})
    return GcReport(dry_run, hard, threshold, candidates, affected, nearing[:NEARING])
