"""Following the change log: how an in-memory index catches up with the store.

Every write to a memory leaves a row in `change_log`; an index remembers the last sequence it
applied and, on the next read, applies what came after, in batches. When it has never loaded,
or the log was trimmed past its position, it reloads in full instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mnemex.store.base import Tx

BATCH = 5_000


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
