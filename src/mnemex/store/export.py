"""Lossless JSONL export and import of one tenant: every table, times as exact ISO 8601.

Each line is `{"table": ..., "row": {...}}`. Export -> import into an empty store -> export gives
byte-identical output: timestamps are microsecond-exact and JSON columns are parsed, not re-encoded.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from mnemex.clock import from_micros, parse_time, to_micros
from mnemex.errors import InvalidInputError
from mnemex.store.base import Tx

# Tables a tenant's export carries, in an order that satisfies foreign keys on import.
EXPORT_TABLES = (
    "memories",
    "entities",
    "entity_aliases",
    "memory_entities",
    "relations",
    "facts",
    "reviews",
    "usage",
    "co_usage",
    "events",
    "source_files",
)
FORMAT = "mnemex-export"
VERSION = 1
TIME_COLUMNS = frozenset(
    {
        "created_at",
        "updated_at",
        "observed_at",
        "last_used",
        "last_review",
        "expired_at",
        "valid_from",
        "valid_to",
        "recorded_at",
        "resolved_at",
        "at",
        "last_retrieved",
        "last_at",
        "modified_at",
        "ingested_at",
    }
)
JSON_COLUMNS = frozenset({"tags", "entities", "meta", "aliases", "details", "payload", "chunks"})


def _portable(row: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in row.items():
        if value is not None and key in TIME_COLUMNS:
            out[key] = from_micros(int(value)).isoformat()
        elif value is not None and key in JSON_COLUMNS:
            out[key] = json.loads(value)
        else:
            out[key] = value
    return out


def _stored(row: dict[str, Any], line: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in row.items():
        if value is not None and key in TIME_COLUMNS:
            out[key] = to_micros(parse_time(value, f"line {line}: {key}"))
        elif value is not None and key in JSON_COLUMNS:
            out[key] = json.dumps(value, ensure_ascii=False, sort_keys=key == "meta")
        else:
            out[key] = value
    return out


def export_lines(tx: Tx) -> Iterator[str]:
    """The tenant as JSONL lines (without newlines), header first."""
    yield json.dumps({"format": FORMAT, "version": VERSION})
    for table in EXPORT_TABLES:
        for row in tx.export_rows(table):
            yield json.dumps({"table": table, "row": _portable(row)}, ensure_ascii=False)


def parse_lines(lines: Iterable[str]) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """(line number, table, stored row) for each record; a bad line raises InvalidInputError."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"line {number}", f"not JSON: {exc.msg}") from exc
        if not isinstance(record, dict):
            raise InvalidInputError(f"line {number}", "each line must be a JSON object")
        if "format" in record:
            if record.get("format") != FORMAT or record.get("version") != VERSION:
                raise InvalidInputError(f"line {number}", "unknown export format or version")
            continue
        table, row = record.get("table"), record.get("row")
        if table not in EXPORT_TABLES or not isinstance(row, dict):
            raise InvalidInputError(f"line {number}", f"unknown table {table!r} or missing row")
        yield number, str(table), _stored(row, number)


def import_lines(
    tx: Tx, lines: Iterable[str], progress: Callable[[int], None] | None = None
) -> dict[str, int]:
    """Insert every record into the tenant of `tx`; rows whose key exists are skipped (counted)."""
    counts = {"imported": 0, "skipped": 0}
    for _, table, row in parse_lines(lines):
        counts["imported" if tx.import_row(table, row) else "skipped"] += 1
        if progress is not None:
            progress(1)
    return counts
