"""Hard forgetting: a memory's words leave every place the store kept them.

The ledger first withdraws the memory's facts (so each key falls back to the value it had
before), then the store deletes the memory with its facts, the relations it is the source of,
reviews naming them and the entities left without any reference, zeroing the freed pages and
merging the full-text segments. The in-memory indexes of the tenant and their saved copies
beside the file (lexical postings, vector graph) are dropped: the next search rebuilds them from
what is left. A promoted memory's vault note is deleted too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path

from mnemex.clock import to_micros
from mnemex.engine import Engine, require
from mnemex.ledger import withdraw


def run(engine: Engine, tenant: str, memory_ids: Sequence[str]) -> dict[str, int]:
    """Purge `memory_ids` (all must exist) in one transaction; counts of what went."""
    ids = list(dict.fromkeys(memory_ids))
    now = engine.clock()
    now_us = to_micros(now)
    notes: list[str] = []
    with engine.backend.write(tenant) as tx:
        for memory_id in ids:
            memory = require(tx, memory_id)
            if memory.vault_path:
                notes.append(memory.vault_path)
            withdraw.forget(tx, memory_id, now)
        counts = tx.purge_memories(ids)
        for memory_id in ids:
            tx.log_event("purge", now_us, memory_id, {})
    engine.backend.compact_purged()
    engine.drop_indexes(tenant)
    vault = engine.settings.vault_path.resolve()
    for note in notes:
        path = Path(note).resolve()
        if path.is_relative_to(vault):
            with contextlib.suppress(OSError):
                path.unlink()
    return counts
