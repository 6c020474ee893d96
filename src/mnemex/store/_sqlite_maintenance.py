"""Backup, restore and verification of a SQLite store (a SqliteBackend mixin).

A backup is SQLite's online backup from a reader connection: a consistent snapshot (vectors
included, they are rows) taken while writers go on, written beside the target and renamed.
`verify` checks what the engine relies on and SQLite does not enforce by itself.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import sqlean

from mnemex.errors import FileError, StorageError

# (name, SQL returning offending rows (at most a few), what a row means)
_CHECKS: tuple[tuple[str, str, str], ...] = (
    (
        "one_active_per_key",
        "SELECT tenant, subject_id, relation, count(*) FROM facts WHERE status = 'active' "
        "GROUP BY 1, 2, 3 HAVING count(*) > 1 LIMIT 5",
        "keys with more than one current value",
    ),
    (
        "orphans",
        "SELECT 'memory_entities', memory_id FROM memory_entities WHERE memory_id NOT IN "
        "(SELECT id FROM memories) OR entity_id NOT IN (SELECT id FROM entities) "
        "UNION ALL SELECT 'embeddings', memory_id FROM embeddings WHERE memory_id NOT IN "
        "(SELECT id FROM memories) "
        "UNION ALL SELECT 'facts', id FROM facts WHERE subject_id NOT IN (SELECT id FROM entities) "
        "UNION ALL SELECT 'entity_aliases', entity_id FROM entity_aliases WHERE entity_id NOT IN "
        "(SELECT id FROM entities) LIMIT 5",
        "rows pointing at a row that is gone",
    ),
)


class Maintenance:
    """backup, restore_from and verify of SqliteBackend."""

    location: str
    in_memory: bool
    _lock: Any
    _writer: Any

    def _reader(self) -> Any:  # pragma: no cover - provided by SqliteBackend
        raise NotImplementedError

    def _check_open(self) -> None:  # pragma: no cover
        raise NotImplementedError

    def backup(self, target: str | os.PathLike[str]) -> dict[str, Any]:
        """Copy the whole store (every tenant) to `target`, online; refuses to overwrite it."""
        self._check_open()
        path = Path(target).expanduser()
        if path.exists():
            raise FileError(f"{path} exists: a backup never overwrites a file", path=str(path))
        if not path.parent.is_dir():
            raise FileError(f"{path.parent} is not a folder", path=str(path))
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        source = self._writer if self.in_memory else self._reader()
        try:
            destination = sqlean.connect(str(temporary))
            try:
                if self.in_memory:
                    with self._lock:
                        source.backup(destination)
                else:
                    source.backup(destination)
                destination.execute("PRAGMA journal_mode = DELETE")
            finally:
                destination.close()
            os.replace(temporary, path)
        except OSError as exc:
            raise FileError(f"cannot write {path}: {exc.strerror or exc}", path=str(path)) from exc
        finally:
            temporary.unlink(missing_ok=True)
        return {"path": str(path), "bytes": path.stat().st_size}

    def restore_from(self, source: str | os.PathLike[str]) -> dict[str, Any]:
        """Replace this store's content with a backup's (checked first), through SQLite."""
        self._check_open()
        path = Path(source).expanduser()
        if not path.is_file():
            raise FileError(f"no backup at {path}", path=str(path))
        try:
            backup = sqlean.connect(f"file:{path}?mode=ro", uri=True)
        except sqlean.DatabaseError as exc:
            raise StorageError(f"{path} is not a store: {exc}", location=str(path)) from exc
        try:
            verdict = str(backup.execute("PRAGMA integrity_check").fetchone()[0])
            if verdict != "ok":
                raise StorageError(f"{path} fails its integrity check: {verdict}")
            with self._lock:
                backup.backup(self._writer)
        except sqlean.DatabaseError as exc:
            raise StorageError(f"{path} is not a store: {exc}", location=str(path)) from exc
        finally:
            backup.close()
        return {"restored_from": str(path)}

    def verify(self, model: str | None) -> dict[str, Any]:
        """Integrity, FTS in sync, one current value per key, embeddings matching their model
        and content, no orphan rows: each check with what it found; `ok` when all pass."""
        self._check_open()
        conn = self._reader() if not self.in_memory else self._writer
        checks: list[dict[str, Any]] = []
        verdict = str(conn.execute("PRAGMA integrity_check").fetchone()[0])
        checks.append({"name": "integrity", "ok": verdict == "ok", "found": verdict})
        try:
            conn.execute(
                "INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)"
            )
            checks.append({"name": "fts", "ok": True, "found": "in sync"})
        except sqlean.DatabaseError as exc:
            checks.append({"name": "fts", "ok": False, "found": str(exc)})
        for name, sql, meaning in _CHECKS:
            rows = [list(row) for row in conn.execute(sql).fetchall()]
            checks.append({"name": name, "ok": not rows, "found": rows, "meaning": meaning})
        stale = conn.execute(
            "SELECT e.memory_id FROM embeddings e JOIN memories m ON m.id = e.memory_id "
            "WHERE e.content_hash != m.content_hash OR (? IS NOT NULL AND e.model != ?) LIMIT 5",
            (model, model),
        ).fetchall()
        checks.append(
            {
                "name": "embeddings",
                "ok": not stale,
                "found": [row[0] for row in stale],
                "meaning": "vectors of another text or model (mnemex reindex)",
            }
        )
        return {"ok": all(check["ok"] for check in checks), "checks": checks}
