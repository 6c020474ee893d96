"""Following the change log: how an in-memory index catches up with the store.

Every write to a memory leaves a row in `change_log`; an index remembers the last sequence it
applied and, on the next read, applies what came after, in batches. When it has never loaded,
or the log was trimmed past its position, it reloads in full instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mnemex.store.base import MemoryFilter, Tx

BATCH = 5_000
EVERY_MEMORY = MemoryFilter(statuses=(), include_superseded=True)  # what the indexes hold


def sample(ids: Sequence[str], count: int = 8) -> list[str]:
    """A few ids spread over an index: saved with it, they identify the store it was built from."""
    return list(ids[:: max(1, len(ids) // count)][:count])


def resumable(tx: Tx, seq: int, saved_sample: Sequence[str]) -> bool:
    """Whether an index saved at `seq` can resume here: the store holds some of its sampled
    memories (it is the same store, not a replaced file) and the log still covers the gap."""
    return (
        0 <= seq <= tx.last_change()
        and tx.oldest_change() <= seq + 1
        and bool(tx.filter_ids(list(saved_sample), EVERY_MEMORY))
    )


def catch_up(
    tx: Tx,
    seq: int,
    apply: Callable[[Sequence[str]], None],
    reload: Callable[[], None],
) -> int:
    """Bring an index at `seq` up to the store's newest change; returns the new sequence.

    `apply` receives the distinct memory ids changed in one batch; `reload` rebuilds everything.
    A transaction on an older snapshot than the index leaves it untouched.
    """
    newest = tx.last_change()
    if newest <= seq:
        return seq
    if seq < 0 or tx.oldest_change() > seq + 1:
        reload()
        return newest
    while seq < newest:
        changes = tx.changes_since(seq, BATCH)
        if not changes:
            break
        apply(list(dict.fromkeys(change.memory_id for change in changes)))
        seq = changes[-1].seq
    return newest
