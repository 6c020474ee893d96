"""Lossless JSONL export and import of one tenant: every table, times as exact ISO 8601.

Each line is `{"table": ..., "row": {...}}`. Export -> import into an empty store -> export gives
byte-identical output: timestamps are microsecond-exact and JSON columns are parsed, not re-encoded.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from mnemex import limits
from mnemex.clock import from_micros, parse_time, to_micros
from mnemex.config import Settings
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


# Columns holding the id of another row, by table (remapped along with the rows they name).
REFERENCES: dict[str, tuple[str, ...]] = {
    "memories": ("superseded_by",),
    "entity_aliases": ("entity_id",),
    "memory_entities": ("memory_id", "entity_id"),
    "relations": ("from_id", "to_id", "source_memory"),
    "facts": ("subject_id", "object_id", "memory_id", "superseded_by"),
    "usage": ("memory_id",),
    "co_usage": ("a", "b"),
    "events": ("subject_id",),
}
_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
MAX_PROBLEMS = 20  # rejected rows described in the report (all are counted)
IMPORT_BATCH = 500  # rows of one table inserted together


def _moved_id(ident: str, tenant: str) -> str:
    """A stable new id for a row whose id another tenant holds: importing twice finds it."""
    prefix, _, _ = ident.partition("_")
    digest = int.from_bytes(hashlib.sha256(f"{tenant}\0{ident}".encode()).digest()[:17], "big")
    body = "".join(_ALPHABET[(digest >> (5 * i)) & 31] for i in range(26))
    return f"{prefix}_{body}"


def _id_map(tx: Tx, records: list[tuple[int, str, dict[str, Any]]]) -> dict[str, str]:
    """Exported id -> id here: kept, moved (another tenant holds it) or, for an entity whose
    name this tenant already knows, that entity (one entity per name). Each table's ids are
    looked up together."""
    mapping: dict[str, str] = {}
    by_table: dict[str, list[str]] = {}
    for _, table, row in records:
        ident = row.get("id")
        if not isinstance(ident, str):
            continue
        if table == "entities" and isinstance(row.get("norm"), str):
            existing = tx.entity_id_by_norm(row["norm"])
            if existing is not None:
                mapping[ident] = existing
                continue
        by_table.setdefault(table, []).append(ident)
    for table, idents in by_table.items():
        owners = tx.row_tenants(table, idents)
        for ident in idents:
            owner = owners.get(ident)
            mapping[ident] = ident if owner in (None, tx.tenant) else _moved_id(ident, tx.tenant)
    return mapping


def _checked_memory(row: dict[str, Any], settings: Settings, line: int) -> None:
    """A memory row passes the checks `save` makes (content, tags, entities, meta, strength)."""
    where = f"line {line}: "
    limits.check_text(row.get("content"), f"{where}content", settings.max_content_chars)
    for name, check in (("tags", limits.check_tags), ("entities", limits.check_entities)):
        value = row.get(name)
        limits.check_text(value if isinstance(value, str) else "[]", f"{where}{name}", 100_000)
        check(json.loads(value) if isinstance(value, str) else None, settings, f"{where}{name}")
    meta = row.get("meta")
    limits.check_meta(json.loads(meta) if isinstance(meta, str) else None, settings, f"{where}meta")
    if row.get("strength") is not None:
        limits.check_strength(row["strength"], f"{where}strength")
    for name, value in row.items():
        if isinstance(value, str):
            limits.check_clean(value, f"{where}{name}")


def import_lines(
    tx: Tx,
    lines: Iterable[str],
    progress: Callable[[int], None] | None = None,
    settings: Settings | None = None,
) -> dict[str, Any]:
    """Insert every record into the tenant of `tx`, each row checked as `save` checks it.

    Rows already here count as `skipped` (duplicates; an entity whose name is known here is
    unified with it); rows that fail a check or a constraint as `rejected`, the first few
    described in `problems`. Ids another tenant holds get stable new ones, so an export can be
    imported into another tenant of the same store (and importing twice adds nothing)."""
    settings = settings or Settings()
    records = list(parse_lines(lines))
    mapping = _id_map(tx, records)
    counts: dict[str, Any] = {"imported": 0, "skipped": 0, "rejected": 0, "problems": []}

    def reject(number: int, table: str, reason: str) -> None:
        counts["rejected"] += 1
        if len(counts["problems"]) < MAX_PROBLEMS:
            counts["problems"].append({"line": number, "table": table, "reason": reason})

    batch: list[tuple[int, dict[str, Any]]] = []
    batch_table = ""

    def flush() -> None:
        outcomes = tx.import_rows(batch_table, [row for _, row in batch]) if batch else []
        for (number, _), outcome in zip(batch, outcomes, strict=True):
            if isinstance(outcome, str):
                reject(number, batch_table, outcome)
            else:
                counts["imported" if outcome else "skipped"] += 1
        if progress is not None and batch:
            progress(len(batch))
        batch.clear()

    for number, table, row in records:
        if table != batch_table or len(batch) >= IMPORT_BATCH:
            flush()
            batch_table = table
        try:
            if table == "memories":
                _checked_memory(row, settings, number)
        except InvalidInputError as exc:
            reject(number, table, exc.message)
            if progress is not None:
                progress(1)
            continue
        if isinstance(row.get("id"), str):
            row["id"] = mapping[row["id"]]
        for column in REFERENCES.get(table, ()):
            value = row.get(column)
            if isinstance(value, str) and value in mapping:
                row[column] = mapping[value]
        batch.append((number, row))
    flush()
    return counts
