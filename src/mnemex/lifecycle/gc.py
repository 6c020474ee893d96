"""Garbage collection: archive memories whose temporal score fell below the forget threshold,
unless something says they matter.

Spared whatever their score: explicit save requests (kind `request`), pinned memories, memories
stating a current value of the ledger (superseded ones may go), reinforced ones (spaced uses
stretched their half-life to `reinforced_stability` or more), and lasting kinds (a fact,
preference or decision) until something supersedes them: a newer memory replaced it, or every
ledger value it stated has been replaced. Their score still ranks them; gc forgets only what a
person would not miss. Promoted memories are not candidates (gc looks at active ones only).
Every archive is in the audit log with its score.
"""

from __future__ import annotations

from collections.abc import Sequence

from mnemex.decay.curve import Decay
from mnemex.decay.kinds import LASTING_KINDS, PROTECTED_KINDS
from mnemex.models import FactStatus, GcReport, ScoredMemory
from mnemex.store.base import MemoryFilter, TemporalRow, Tx
from mnemex.text import preview

NEARING = 20  # memories just above the threshold a report lists (the console's decay view)


def spared_because(
    tx: Tx, rows: Sequence[TemporalRow], reinforced_stability: float
) -> dict[str, str]:
    """Why each of `rows` must stay whatever its score (memory id -> reason), if it must."""
    reasons: dict[str, str] = {}
    for row in rows:
        if row.kind in PROTECTED_KINDS:
            reasons[row.id] = "request"
        elif row.pinned:
            reasons[row.id] = "pinned"
        elif row.stability >= reinforced_stability:
            reasons[row.id] = "reinforced"
    rest = [row.id for row in rows if row.id not in reasons]
    lasting = [row.id for row in rows if row.id not in reasons and row.kind in LASTING_KINDS]
    unreplaced = set(tx.filter_ids(lasting, MemoryFilter(statuses=("active",))))
    stated = tx.facts_for_memories(rest)
    for memory_id in rest:
        facts = stated.get(memory_id, [])
        if any(fact.status == FactStatus.ACTIVE.value for fact in facts):
            reasons[memory_id] = "ledger"
        elif memory_id in unreplaced and not facts:
            reasons[memory_id] = "lasting"
    return reasons


def collect(
    tx: Tx,
    decay: Decay,
    now: int,
    threshold: float,
    *,
    dry_run: bool,
    hard: bool,
    near: float | None = None,
    reinforced_stability: float = float("inf"),
) -> GcReport:
    """Find active memories scoring below `threshold` that nothing spares; archive them (or
    delete, if `hard`), each with an audit event carrying its score.

    `near`: also list the lowest-scoring memories whose score is at least `threshold` and below
    `near` (the next to go)."""
    rows = tx.temporal_rows(MemoryFilter(statuses=("active",), include_superseded=True))
    scores = decay.row_scores(rows, now)
    below = [row for row, score in zip(rows, scores, strict=True) if score < threshold]
    reasons = spared_because(tx, below, reinforced_stability)
    scored = [
        ScoredMemory(row.id, preview(row.content), float(score), row.use_count)
        for row, score in zip(rows, scores, strict=True)
        if not row.pinned
    ]
    scored.sort(key=lambda item: (item.score, item.id))
    candidates = [i for i in scored if i.score < threshold and i.id not in reasons]
    nearing = [] if near is None else [i for i in scored if threshold <= i.score < near]
    spared: dict[str, int] = {}
    for reason in reasons.values():
        spared[reason] = spared.get(reason, 0) + 1
    affected = 0
    if not dry_run:
        for item in candidates:
            done = (
                tx.delete_memory(item.id)
                if hard
                else tx.update_memory(item.id, {"status": "archived"})
            )
            if done:
                affected += 1
                payload = {"score": round(item.score, 6), "threshold": threshold, "hard": hard}
                tx.log_event("gc_delete" if hard else "gc_archive", now, item.id, payload)
    return GcReport(dry_run, hard, threshold, candidates, affected, nearing[:NEARING], spared)
