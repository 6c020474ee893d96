"""A team merge: two stores' memories in one (Cortex Memory's merge, done by the ledger's rules).

Each source's export is imported into the target (entities unified by name, ids another tenant
holds moved), its facts entering as history; then memories with the same text are folded into
the oldest (use count, last use and strength at the max of the copies), and every key is laid
again by the ledger's time rules, so the result has one current value per key: the latest one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from mnemex.engine import Engine
from mnemex.ledger import reads
from mnemex.ledger.record import relay
from mnemex.models import LIVE_STATUSES
from mnemex.store import export as export_mod
from mnemex.store.base import MemoryFilter


def _as_history(lines: Iterable[str]) -> Iterator[str]:
    """Export lines whose current facts become history (the re-lay decides what is current)."""
    for line in lines:
        record: Any = json.loads(line) if '"facts"' in line[:40] else None
        if isinstance(record, dict) and record.get("table") == "facts":
            row = record["row"]
            if row.get("status") == "active":
                row["status"] = "superseded"
            yield json.dumps(record, ensure_ascii=False)
        else:
            yield line


def run(engine: Engine, tenant: str, sources: list[list[str]]) -> dict[str, Any]:
    """Merge the export lines of each source into the tenant; counts of what happened."""
    report: dict[str, Any] = {"imported": 0, "skipped": 0, "rejected": 0, "problems": []}
    with engine.backend.write(tenant) as tx:
        for lines in sources:
            counts = export_mod.import_lines(tx, _as_history(lines), None, engine.settings)
            for key in ("imported", "skipped", "rejected"):
                report[key] += counts[key]
            report["problems"] += counts["problems"]
        by_hash: dict[str, list[Any]] = {}
        for memory in tx.iter_memories(MemoryFilter(statuses=LIVE_STATUSES)):
            by_hash.setdefault(memory.content_hash, []).append(memory)
        folded: list[str] = []
        for copies in by_hash.values():
            if len(copies) < 2:
                continue
            copies.sort(key=lambda m: (m.created_at, m.id))
            kept, rest = copies[0], copies[1:]
            tx.update_memory(
                kept.id,
                {
                    "use_count": max(m.use_count for m in copies),
                    "last_used": max(m.last_used for m in copies),
                    "strength": max(m.strength for m in copies),
                },
            )
            folded += [m.id for m in rest]
        if folded:
            tx.purge_memories(folded)
        keys = {(f.subject_id, f.relation) for f in reads.facts(tx, None, None, None, True)}
        for subject_id, relation in sorted(keys):
            relay(tx, subject_id, relation)
    report["folded"] = len(folded)
    report["keys"] = len(keys)
    return report
