"""Store upkeep for administrators (the CLI): online backup, restore, verify, a team merge,
forgetting a whole tenant."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mnemex.config import Settings
from mnemex.engine import Engine
from mnemex.errors import InvalidInputError
from mnemex.lifecycle import merge as merge_mod
from mnemex.lifecycle import purge as purge_mod
from mnemex.models import Memory, MemoryStatus
from mnemex.store.base import Backend


def require_backend(backend: Backend, method: str) -> Any:
    """The backend, if it has a maintenance method (SQLite does; another may not)."""
    if not hasattr(backend, method):
        raise InvalidInputError("store", f"this store's backend has no {method}")
    return backend


class Upkeep:
    """backup, restore_backup, verify, merge and forget_all of MemoryStore."""

    tenant: str
    engine: Engine

    @property
    def backend(self) -> Backend:  # pragma: no cover - MemoryStore's
        raise NotImplementedError

    @property
    def settings(self) -> Settings:  # pragma: no cover - MemoryStore's
        raise NotImplementedError

    def get(self, memory_id: str) -> Memory:  # pragma: no cover - MemoryStore's
        raise NotImplementedError

    def forget(
        self, memory_id: str, *, hard: bool = False
    ) -> Memory | None:  # pragma: no cover - MemoryStore's
        raise NotImplementedError

    def forget_all(self, *, hard: bool = False) -> dict[str, int]:
        """Forget every memory of this tenant (other tenants are untouched); `hard` purges."""
        with self.backend.read(self.tenant) as tx:
            ids = [m.id for m in tx.iter_memories()]
        if hard:
            return purge_mod.run(self.engine, self.tenant, ids) if ids else {"memories": 0}
        forgotten = 0
        for memory_id in ids:
            if self.get(memory_id).status != MemoryStatus.DELETED.value:
                self.forget(memory_id)
                forgotten += 1
        return {"memories": forgotten}

    def backup(self, path: str | Path) -> dict[str, Any]:
        """An online copy of the whole store (every tenant, vectors included) at `path`."""
        return dict(require_backend(self.backend, "backup").backup(path))

    def restore_backup(self, path: str | Path) -> dict[str, Any]:
        """Replace this store's content with a backup's (its integrity is checked first)."""
        result = require_backend(self.backend, "restore_from").restore_from(path)
        self.engine.drop_indexes(self.tenant)
        return dict(result)

    def verify(self) -> dict[str, Any]:
        """Integrity, FTS in sync, one current value per key, embeddings of the current model
        and text, no orphan rows; `ok` when every check passes."""
        model = None if self.settings.embed_model == "none" else self.settings.embed_model
        embedder = self.engine.embedder if model is not None else None
        checker = require_backend(self.backend, "verify")
        return dict(checker.verify(None if embedder is None else embedder.model_id))

    def merge(self, sources: Sequence[str | Path]) -> dict[str, Any]:
        """Merge other stores (this tenant of each) into this one: memories unioned and their
        duplicates folded (usage at the max), entities unified, each key laid again by the
        ledger's rules (one current value, the latest)."""
        import mnemex

        exported: list[list[str]] = []
        for source in sources:
            with mnemex.open(
                str(source), tenant=self.tenant, settings=self.settings, create=False
            ) as other:
                exported.append(list(other.export()))
        report = merge_mod.run(self.engine, self.tenant, exported)
        self.engine.drop_indexes(self.tenant)
        return report
