"""Moving a whole store to another backend (SQLite <-> PostgreSQL), verified.

Every tenant goes through the lossless JSONL export (store/export.py) in one transaction of the
target, then the current vectors of the configured model and the API tokens follow. The target
must be empty. After the copy, each tenant's row counts and the sha256 of its exported JSONL are
compared between the two stores; a difference raises and names the tenant (the source is only
ever read).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mnemex.errors import InvalidInputError, StorageError
from mnemex.store.base import Backend, Tx
from mnemex.store.export import export_lines, import_lines

_BATCH = 500  # vectors copied at a time


@dataclass(slots=True)
class Transfer:
    """What a transfer moved, per tenant: row counts and the checksum both stores agree on."""

    tenants: dict[str, dict[str, Any]] = field(default_factory=dict)
    embeddings: int = 0
    tokens: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "tenants": self.tenants,
            "rows": sum(t["rows"] for t in self.tenants.values()),
            "embeddings": self.embeddings,
            "tokens": self.tokens,
            "verified": True,
        }


def checksum(tx: Tx) -> str:
    """sha256 of a tenant's JSONL export (lines joined by newlines, as `mnemex export` writes)."""
    digest = hashlib.sha256()
    for line in export_lines(tx):
        digest.update(line.encode("utf-8") + b"\n")
    return digest.hexdigest()


def _copy_vectors(source: Tx, target: Tx, model: str) -> int:
    copied = 0
    batch: list[tuple[str, bytes]] = []

    def flush() -> None:
        hashes = source.get_memories([memory_id for memory_id, _ in batch])
        target.put_embeddings(
            [(m, model, hashes[m].content_hash, blob, len(blob) // 4) for m, blob in batch]
        )

    for memory_id, blob in source.iter_embeddings(model):
        batch.append((memory_id, blob))
        if len(batch) == _BATCH:
            flush()
            copied += len(batch)
            batch = []
    if batch:
        flush()
        copied += len(batch)
    return copied


def transfer(
    source: Backend,
    target: Backend,
    *,
    model: str | None,
    on_total: Callable[[int], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Transfer:
    """Copy every tenant, the vectors of `model` and the tokens from `source` into `target`."""
    taken = target.tenants()
    if taken:
        raise InvalidInputError(
            "to", f"the target store is not empty (tenants: {', '.join(taken[:5])})"
        )
    tenants = source.tenants()
    counts: dict[str, dict[str, int]] = {}
    for tenant in tenants:
        with source.read(tenant) as tx:
            counts[tenant] = tx.table_counts()
    if on_total is not None:
        on_total(sum(sum(c.values()) for c in counts.values()))
    report = Transfer()
    with target.bulk_load():  # PostgreSQL builds its vector index once, after the copy
        for tenant in tenants:
            with source.read(tenant) as src, target.write(tenant) as dst:
                result = import_lines(dst, export_lines(src), progress)
                if model is not None:
                    report.embeddings += _copy_vectors(src, dst, model)
            if result["skipped"]:
                raise StorageError(f"tenant {tenant}: {result['skipped']} rows were not copied")
    for token, token_hash in source.token_records():
        target.insert_token(token, token_hash)
        if token.revoked_at is not None:
            target.revoke_token(token.id, token.revoked_at)
        if token.last_used is not None:
            target.touch_token(token.id, token.last_used)
        report.tokens += 1
    for tenant in tenants:
        with source.read(tenant) as src, target.read(tenant) as dst:
            copied = dst.table_counts()
            if copied != counts[tenant]:
                raise StorageError(
                    f"tenant {tenant}: row counts differ after the copy",
                    source=counts[tenant],
                    target=copied,
                )
            expected, found = checksum(src), checksum(dst)
        if expected != found:
            raise StorageError(f"tenant {tenant}: the exports differ after the copy")
        report.tenants[tenant] = {"rows": sum(copied.values()), "sha256": found, **copied}
    return report
