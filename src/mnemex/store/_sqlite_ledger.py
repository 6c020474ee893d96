"""Facts and reviews in SQLite (a mixin of SqliteTx)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mnemex.clock import from_micros, to_micros
from mnemex.models import Fact, FactStatus, Review
from mnemex.text import value_key

FACT_COLUMNS = (
    "id, tenant, subject, subject_id, relation, object, object_id, statement, temporal_form, "
    "observed_at, valid_from, valid_to, recorded_at, status, superseded_by, memory_id, confidence"
)
REVIEW_COLUMNS = (
    "id, tenant, kind, payload, confidence, status, created_at, resolved_at, resolution"
)
_FACT_UPDATABLE = {
    "status",
    "superseded_by",
    "valid_from",
    "valid_to",
    "object",
    "object_id",
    "relation",
    "subject",
    "subject_id",
    "confidence",
    "memory_id",
    "temporal_form",
    "recorded_at",
}
_FACT_TIMES = {"valid_from", "valid_to", "recorded_at"}
_STATUSES = frozenset(
    {
        FactStatus.ACTIVE,
        FactStatus.SUPERSEDED,
        FactStatus.PENDING,
        FactStatus.ARCHIVED,
        FactStatus.DELETED,
    }
)  # the table's CHECK
# A key's time order as the ledger lays it out: valid_from, then record time, then the order
# facts_for_key lists ties in (history.order_key over the store's order).
_KEY_ORDER = ("valid_from", "recorded_at", "subject", "seq")


def _key_order(direction: str) -> str:
    return ", ".join(f"{column} {direction}" for column in _KEY_ORDER)


def fact_from_row(row: Sequence[Any]) -> Fact:
    """A Fact from a row selected with FACT_COLUMNS."""
    return Fact(
        id=row[0],
        tenant=row[1],
        subject=row[2],
        subject_id=row[3],
        relation=row[4],
        object=row[5],
        object_id=row[6],
        statement=row[7],
        temporal_form=row[8],
        observed_at=from_micros(row[9]),
        valid_from=from_micros(row[10]),
        valid_to=None if row[11] is None else from_micros(row[11]),
        recorded_at=from_micros(row[12]),
        status=row[13],
        superseded_by=row[14],
        memory_id=row[15],
        confidence=row[16],
    )


def review_from_row(row: Sequence[Any]) -> Review:
    """A Review from a row selected with REVIEW_COLUMNS."""
    return Review(
        id=row[0],
        tenant=row[1],
        kind=row[2],
        payload=json.loads(row[3]),
        confidence=row[4],
        status=row[5],
        created_at=from_micros(row[6]),
        resolved_at=None if row[7] is None else from_micros(row[7]),
        resolution=row[8],
    )


class LedgerRows:
    """Fact and review methods of SqliteTx."""

    shared: dict[Any, Any]  # the backend's cache of slow aggregates

    conn: Any
    tenant: str

    def _writable(self) -> None:
        raise NotImplementedError

    def insert_fact(self, fact: Fact) -> None:
        """Insert a fact; a second active value for a key fails on the unique partial index."""
        self._writable()
        self.conn.execute(
            f"INSERT INTO facts ({FACT_COLUMNS}, object_key) VALUES ({','.join('?' * 18)})",
            (
                fact.id,
                self.tenant,
                fact.subject,
                fact.subject_id,
                fact.relation,
                fact.object,
                fact.object_id,
                fact.statement,
                fact.temporal_form,
                to_micros(fact.observed_at),
                to_micros(fact.valid_from),
                None if fact.valid_to is None else to_micros(fact.valid_to),
                to_micros(fact.recorded_at),
                fact.status,
                fact.superseded_by,
                fact.memory_id,
                fact.confidence,
                value_key(fact.object),
            ),
        )

    def update_fact(self, fact_id: str, fields: dict[str, Any]) -> bool:
        """Set some columns of one fact."""
        self._writable()
        unknown = set(fields) - _FACT_UPDATABLE
        if unknown:
            raise ValueError(f"not updatable: {sorted(unknown)}")
        if not fields:
            return False
        fields = dict(fields)
        if "object" in fields:
            fields["object_key"] = value_key(str(fields["object"]))
        names = sorted(fields)
        values = [
            (to_micros(fields[n]) if fields[n] is not None else None)
            if n in _FACT_TIMES
            else fields[n]
            for n in names
        ]
        cursor = self.conn.execute(
            f"UPDATE facts SET {', '.join(f'{n} = ?' for n in names)} WHERE tenant = ? AND id = ?",
            (*values, self.tenant, fact_id),
        )
        return bool(cursor.rowcount)

    def get_fact(self, fact_id: str) -> Fact | None:
        """One fact by id."""
        row = self.conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant = ? AND id = ?", (self.tenant, fact_id)
        ).fetchone()
        return None if row is None else fact_from_row(row)

    def has_facts(self, subject_id: str) -> bool:
        """True when the ledger holds any fact (any status) about this subject."""
        row = self.conn.execute(
            "SELECT 1 FROM facts WHERE tenant = ? AND subject_id = ? LIMIT 1",
            (self.tenant, subject_id),
        ).fetchone()
        return row is not None

    def relation_counts(
        self, subject_ids: Sequence[str], statuses: Sequence[str] = ()
    ) -> dict[str, dict[str, int]]:
        """How many facts each subject has under each of its relations (of these statuses, or
        any: then the key index answers alone), relations in name order."""
        found: dict[str, dict[str, int]] = {}
        unique = list(dict.fromkeys(subject_ids))
        status = f"AND status IN ({','.join('?' * len(statuses))}) " if statuses else ""
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            rows = self.conn.execute(
                "SELECT subject_id, relation, count(*) FROM facts WHERE tenant = ? "
                f"AND subject_id IN ({','.join('?' * len(chunk))}) {status}"
                "GROUP BY subject_id, relation ORDER BY subject_id, relation",
                (self.tenant, *chunk, *statuses),
            ).fetchall()
            for subject_id, relation, count in rows:
                found.setdefault(str(subject_id), {})[str(relation)] = int(count)
        return found

    def subject_name(self, subject_id: str) -> str | None:
        """The subject as its facts name it (the first name in sort order, of any status)."""
        row = self.conn.execute(
            "SELECT min(subject) FROM facts WHERE tenant = ? AND subject_id = ?",
            (self.tenant, subject_id),
        ).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def facts_for_key(
        self, subject_id: str | None, relation: str | None, statuses: Sequence[str] = ()
    ) -> list[Fact]:
        """Facts of a subject, a relation, or both, by valid_from then record; any status unless
        `statuses` names some (a current view need not read a long history)."""
        clauses, params = ["tenant = ?"], [self.tenant]
        if subject_id is not None:
            clauses.append("subject_id = ?")
            params.append(subject_id)
        if relation is not None:
            clauses.append("relation = ?")
            params.append(relation)
        if statuses:
            # Written out, not bound: "status = 'active'" lets a key's current value come from
            # the partial index facts_one_active (one row), not from every current fact of the
            # subject or the key's whole history (0.22 ms at 100,000 memories).
            unknown = set(statuses) - _STATUSES
            if unknown:
                raise ValueError(f"not a fact status: {sorted(unknown)}")
            listed = ", ".join(f"'{status}'" for status in statuses)
            clauses.append(f"status = {listed}" if len(statuses) == 1 else f"status IN ({listed})")
        # `+subject`: the rows are few, sort them; ordering through facts_subject_name would
        # read every fact of the subject (thousands for the user) to keep one key's.
        rows = self.conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE {' AND '.join(clauses)} "
            "ORDER BY +subject, relation, valid_from, recorded_at, seq",
            params,
        ).fetchall()
        return [fact_from_row(row) for row in rows]

    def fact_at(self, subject_id: str, relation: str, moment: int) -> Fact | None:
        """The last history fact (active or superseded) of a key to start at or before `moment`
        (microseconds), in the key's time order: the one whose window can hold `moment`."""
        row = self.conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant = ? AND subject_id = ? "
            "AND relation = ? AND valid_from <= ? AND status IN ('active', 'superseded') "
            f"ORDER BY {_key_order('DESC')} LIMIT 1",
            (self.tenant, subject_id, relation, moment),
        ).fetchone()
        return None if row is None else fact_from_row(row)

    def key_neighbours(self, fact_id: str) -> tuple[Fact | None, Fact | None]:
        """The history facts just before and just after a fact in its key's time order
        (valid_from, then record time; the store's order breaks a tie), read by the key index."""
        found: list[Fact | None] = []
        for compare, order in (("<", "DESC"), (">", "ASC")):
            row = self.conn.execute(
                f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant = ? "
                "AND status IN ('active', 'superseded') "
                "AND (subject_id, relation) = (SELECT subject_id, relation FROM facts f "
                "WHERE f.tenant = ? AND f.id = ?) "
                f"AND ({', '.join(_KEY_ORDER)}) {compare} "
                f"(SELECT {', '.join(_KEY_ORDER)} FROM facts f WHERE f.tenant = ? AND f.id = ?) "
                f"ORDER BY {_key_order(order)} LIMIT 1",
                (self.tenant, self.tenant, fact_id, self.tenant, fact_id),
            ).fetchone()
            found.append(None if row is None else fact_from_row(row))
        return found[0], found[1]

    def set_retraction(self, fact_id: str, ended: int, recorded: int) -> None:
        """Remember that a fact's value was retracted: when it ended and when that was recorded."""
        self._writable()
        self.conn.execute(
            "UPDATE facts SET meta = json_set(meta, '$.retracted', json_array(?, ?)) "
            "WHERE tenant = ? AND id = ?",
            (ended, recorded, self.tenant, fact_id),
        )

    def _meta_entries(self, fact_ids: Sequence[str], key: str) -> dict[str, Any]:
        """The parsed `meta.<key>` of the facts among `fact_ids` that have one (key: a constant)."""
        found: dict[str, Any] = {}
        unique = list(dict.fromkeys(fact_ids))
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            rows = self.conn.execute(
                f"SELECT id, json_extract(meta, '$.{key}') FROM facts WHERE +tenant = ? "
                f"AND id IN ({','.join('?' * len(chunk))}) "
                f"AND json_extract(meta, '$.{key}') IS NOT NULL",
                (self.tenant, *chunk),
            ).fetchall()
            found.update((fact_id, json.loads(value)) for fact_id, value in rows)
        return found

    def retractions(self, fact_ids: Sequence[str]) -> dict[str, tuple[int, int]]:
        """(ended, recorded) in microseconds for the retracted facts among `fact_ids`."""
        found = self._meta_entries(fact_ids, "retracted")
        return {fact_id: (int(ended), int(rec)) for fact_id, (ended, rec) in found.items()}

    def set_withdrawals(self, fact_id: str, spans: Sequence[tuple[int, int | None, str]]) -> None:
        """Record when a fact's memory was forgotten and restored: (from, to or None, status)."""
        self._writable()
        self.conn.execute(
            "UPDATE facts SET meta = json_set(meta, '$.withdrawn', json(?)) "
            "WHERE tenant = ? AND id = ?",
            (json.dumps([list(span) for span in spans]), self.tenant, fact_id),
        )

    def withdrawals(self, fact_ids: Sequence[str]) -> dict[str, list[tuple[int, int | None, str]]]:
        """The forget/restore spans of the facts among `fact_ids` that have any."""
        found = self._meta_entries(fact_ids, "withdrawn")
        return {
            fact_id: [(int(a), None if b is None else int(b), str(c)) for a, b, c in spans]
            for fact_id, spans in found.items()
        }

    def alias_rulings(self) -> list[tuple[str, str, str]]:
        """(stated relation, proposed key, status) of every resolved alias review, oldest first."""
        rows = self.conn.execute(
            "SELECT json_extract(payload, '$.relation'), json_extract(payload, '$.proposed'), "
            "status FROM reviews WHERE tenant = ? AND kind = 'alias' "
            "AND status IN ('approved', 'rejected') ORDER BY seq",
            (self.tenant,),
        ).fetchall()
        return [(str(a), str(b), str(c)) for a, b, c in rows]

    def fact_relations(self, limit: int) -> list[str]:
        """The relations of history facts, most used first.

        Each save asks: the ranking is kept per tenant and recounted (off the per-value counts of
        migration 8, one row per value, status and relation) on every new fact while the table is
        small, and once it has grown by 1/16 above 4,096 facts (a few facts more or less do not
        reorder a list of the most used keys there).
        """
        top = self.conn.execute("SELECT coalesce(max(seq), 0) FROM facts").fetchone()[0]
        key = ("fact_relations", self.tenant, limit)
        cached = self.shared.get(key)
        slack = cached[0] // 16 if cached is not None and cached[0] >= 4096 else 0
        if cached is not None and cached[0] <= top <= cached[0] + slack:
            return list(cached[1])
        rows = self.conn.execute(
            "SELECT relation FROM fact_value_counts WHERE tenant = ? "
            "AND status IN ('active', 'superseded') GROUP BY relation HAVING sum(facts) > 0 "
            "ORDER BY sum(facts) DESC, relation LIMIT ?",
            (self.tenant, limit),
        ).fetchall()
        found = [row[0] for row in rows]
        self.shared[key] = (top, tuple(found))
        return found

    def facts_with_value(
        self,
        value_key: str,
        limit: int = 1000,
        status: str | None = None,
        subject_id: str | None = None,
    ) -> list[Fact]:
        """Facts (any subject, or `subject_id`'s; any status, or `status`) whose object folds to
        `value_key`.

        Reads the indexed `object_key` column (migration 3), set from the object on every write.
        """
        where, params = "tenant = ? AND object_key = ?", [self.tenant, value_key]
        if status is not None:
            where += " AND status = ?"
            params.append(status)
        if subject_id is not None:
            where += " AND subject_id = ?"
            params.append(subject_id)
        # Narrowed, few rows match: `+seq` sorts them rather than walk every fact of a common
        # value in the value index's seq order (SQLite prefers the index that avoids a sort).
        order = "seq" if status is None and subject_id is None else "+seq"
        rows = self.conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE {where} ORDER BY {order} LIMIT ?",
            (*params, limit),
        ).fetchall()
        return [fact_from_row(row) for row in rows]

    def value_relations(
        self, value_key: str, statuses: Sequence[str], exclude_subject: str | None = None
    ) -> dict[str, int]:
        """How many facts of each relation (in `statuses`) hold a value: read off the kept
        counts (migration 8), less the excluded subject's own facts (found by subject first:
        by value, a common one's thousands of facts would be walked)."""
        marks = ", ".join("?" for _ in statuses)
        sql = (
            "SELECT relation, facts FROM fact_value_counts "
            f"WHERE tenant = ? AND object_key = ? AND status IN ({marks})"
        )
        params: tuple[Any, ...] = (self.tenant, value_key, *statuses)
        if exclude_subject is not None:
            sql += (
                " UNION ALL SELECT relation, -1 FROM facts INDEXED BY facts_subject_value "
                f"WHERE tenant = ? AND subject_id = ? AND object_key = ? AND status IN ({marks})"
            )
            params += (self.tenant, exclude_subject, value_key, *statuses)
        rows = self.conn.execute(
            f"SELECT relation, sum(facts) FROM ({sql}) GROUP BY relation HAVING sum(facts) > 0",
            params,
        ).fetchall()
        return {str(relation): int(count) for relation, count in rows}

    def facts_for_memories(self, memory_ids: Sequence[str]) -> dict[str, list[Fact]]:
        """Facts stated by each memory."""
        result: dict[str, list[Fact]] = {}
        unique = list(dict.fromkeys(memory_ids))
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            rows = self.conn.execute(
                f"SELECT {FACT_COLUMNS} FROM facts WHERE +tenant = ? "
                f"AND memory_id IN ({','.join('?' * len(chunk))}) ORDER BY seq",
                (self.tenant, *chunk),
            ).fetchall()
            for row in rows:
                fact = fact_from_row(row)
                result.setdefault(str(fact.memory_id), []).append(fact)
        return result

    def entity_facts(
        self, subject_ids: Sequence[str], value_keys: Sequence[str], statuses: Sequence[str]
    ) -> list[Fact]:
        """Facts in `statuses` whose value is an entity, of any of the subjects or with any of
        the value keys (two indexed reads a chunk: by subject, by value), in seq order."""
        unknown = set(statuses) - _STATUSES
        if unknown:
            raise ValueError(f"not a fact status: {sorted(unknown)}")
        listed = ", ".join(f"'{status}'" for status in statuses)
        found: dict[int, Fact] = {}
        for column, keys in (("subject_id", subject_ids), ("object_key", value_keys)):
            unique = list(dict.fromkeys(keys))
            for start in range(0, len(unique), 400):
                chunk = unique[start : start + 400]
                rows = self.conn.execute(
                    f"SELECT seq, {FACT_COLUMNS} FROM facts WHERE tenant = ? AND {column} IN "
                    f"({','.join('?' * len(chunk))}) AND status IN ({listed}) "
                    "AND object_id IS NOT NULL",
                    (self.tenant, *chunk),
                ).fetchall()
                found.update((row[0], fact_from_row(row[1:])) for row in rows)
        return [found[seq] for seq in sorted(found)]

    def insert_review(self, review: Review) -> None:
        """Queue a decision for a person."""
        self._writable()
        self.conn.execute(
            f"INSERT INTO reviews ({REVIEW_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                review.id,
                self.tenant,
                review.kind,
                json.dumps(review.payload, ensure_ascii=False, sort_keys=True),
                review.confidence,
                review.status,
                to_micros(review.created_at),
                None if review.resolved_at is None else to_micros(review.resolved_at),
                review.resolution,
            ),
        )

    def update_review(self, review_id: str, fields: dict[str, Any]) -> bool:
        """Resolve or amend a review."""
        self._writable()
        allowed = {"status", "resolved_at", "resolution", "payload"}
        if set(fields) - allowed:
            raise ValueError(f"not updatable: {sorted(set(fields) - allowed)}")
        values: dict[str, Any] = dict(fields)
        if values.get("resolved_at") is not None:
            values["resolved_at"] = to_micros(values["resolved_at"])
        if "payload" in values:
            values["payload"] = json.dumps(values["payload"], ensure_ascii=False, sort_keys=True)
        names = sorted(values)
        cursor = self.conn.execute(
            f"UPDATE reviews SET {', '.join(f'{n} = ?' for n in names)} "
            "WHERE tenant = ? AND id = ?",
            (*(values[n] for n in names), self.tenant, review_id),
        )
        return bool(cursor.rowcount)

    def get_review(self, review_id: str) -> Review | None:
        """One review by id."""
        row = self.conn.execute(
            f"SELECT {REVIEW_COLUMNS} FROM reviews WHERE tenant = ? AND id = ?",
            (self.tenant, review_id),
        ).fetchone()
        return None if row is None else review_from_row(row)

    def list_reviews(self, status: str | None, limit: int) -> list[Review]:
        """Reviews, oldest first, optionally of one status."""
        if status is None:
            rows = self.conn.execute(
                f"SELECT {REVIEW_COLUMNS} FROM reviews WHERE tenant = ? ORDER BY seq LIMIT ?",
                (self.tenant, limit),
            ).fetchall()
        else:
            rows = self.conn.execute(
                f"SELECT {REVIEW_COLUMNS} FROM reviews WHERE tenant = ? AND status = ? "
                "ORDER BY seq LIMIT ?",
                (self.tenant, status, limit),
            ).fetchall()
        return [review_from_row(row) for row in rows]
