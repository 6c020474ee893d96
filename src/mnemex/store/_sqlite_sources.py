"""What ingest last saw of each file, in SQLite (a SqliteTx mixin)."""

from __future__ import annotations

import json
from typing import Any

from mnemex.store.base import SourceChunk, SourceRecord

_COLUMNS = "path, kind, content_hash, parser, status, size, modified_at, ingested_at, chunks"


class SourceRows:
    """Source-file methods of SqliteTx."""

    conn: Any
    tenant: str

    def _writable(self) -> None:
        raise NotImplementedError

    def sources(self, under: str) -> dict[str, SourceRecord]:
        """The record of the file `under`, or of every file below the folder `under`."""
        folder = under.rstrip("/") + "/"
        # '0' follows '/' in code-point order: the range is every path starting with folder.
        rows = self.conn.execute(
            f"SELECT {_COLUMNS} FROM source_files WHERE tenant = ? "
            "AND (path = ? OR (path >= ? AND path < ?)) ORDER BY path",
            (self.tenant, under, folder, folder[:-1] + "0"),
        ).fetchall()
        return {row[0]: _record(row) for row in rows}

    def put_source(self, record: SourceRecord) -> None:
        """Insert or replace the record of one file."""
        self._writable()
        chunks = json.dumps([[c.hash, c.memory_id, c.start, c.end] for c in record.chunks])
        self.conn.execute(
            f"INSERT INTO source_files (tenant, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (tenant, path) DO UPDATE SET kind = excluded.kind, "
            "content_hash = excluded.content_hash, parser = excluded.parser, "
            "status = excluded.status, size = excluded.size, modified_at = excluded.modified_at, "
            "ingested_at = excluded.ingested_at, chunks = excluded.chunks",
            (
                self.tenant,
                record.path,
                record.kind,
                record.content_hash,
                record.parser,
                record.status,
                record.size,
                record.modified_at,
                record.ingested_at,
                chunks,
            ),
        )


def _record(row: Any) -> SourceRecord:
    return SourceRecord(
        path=row[0],
        kind=row[1],
        content_hash=row[2],
        parser=row[3],
        status=row[4],
        size=row[5],
        modified_at=row[6],
        ingested_at=row[7],
        chunks=[SourceChunk(h, m, s, e) for h, m, s, e in json.loads(row[8])],
    )
