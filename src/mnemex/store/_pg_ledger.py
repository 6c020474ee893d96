"""Facts and reviews in PostgreSQL (a PgTx mixin). The one-active-value rule is the unique
partial index facts_one_active, as on SQLite."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mnemex.clock import to_micros
from mnemex.models import Fact, Review
from mnemex.store._sqlite_ledger import (
    _FACT_TIMES,
    _FACT_UPDATABLE,
    _KEY_ORDER,
    _STATUSES,
    FACT_COLUMNS,
    REVIEW_COLUMNS,
    fact_from_row,
    review_from_row,
)
from mnemex.text import value_key

_META_KEYS = frozenset({"retracted", "withdrawn"})


def _key_order(direction: str) -> str:
    return ", ".join(f"{column} {direction}" for column in _KEY_ORDER)


class PgLedgerRows:
    """Fact and review methods of PgTx."""

    shared: dict[Any, Any]
    conn: Any
    tenant: str

    def _writable(self) -> None:
        raise NotImplementedError

    def insert_fact(self, fact: Fact) -> None:
        """Insert a fact; a second active value for a key fails on the unique partial index."""
        self._writable()
        self.conn.execute(
            f"INSERT INTO facts ({FACT_COLUMNS}, object_key) VALUES ({', '.join(['%s'] * 18)})",
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
            f"UPDATE facts SET {', '.join(f'{n} = %s' for n in names)} "
            "WHERE tenant = %s AND id = %s",
            (*values, self.tenant, fact_id),
        )
        return bool(cursor.rowcount)

    def get_fact(self, fact_id: str) -> Fact | None:
        """One fact by id."""
        row = self.conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant = %s AND id = %s",
            (self.tenant, fact_id),
        ).fetchone()
        return None if row is None else fact_from_row(row)

    def has_facts(self, subject_id: str) -> bool:
        """True when the ledger holds any fact (any status) about this subject."""
        row = self.conn.execute(
            "SELECT 1 FROM facts WHERE tenant = %s AND subject_id = %s LIMIT 1",
            (self.tenant, subject_id),
        ).fetchone()
        return row is not None

    def relation_counts(
        self, subject_ids: Sequence[str], statuses: Sequence[str] = ()
    ) -> dict[str, dict[str, int]]:
        """How many facts each subject has under each of its relations (of these statuses, or
        any), relations in name order."""
        status = "AND status = ANY(%s) " if statuses else ""
        wanted = [list(statuses)] if statuses else []
        rows = self.conn.execute(
            "SELECT subject_id, relation, count(*) FROM facts WHERE tenant = %s "
            f"AND subject_id = ANY(%s) {status}"
            "GROUP BY subject_id, relation ORDER BY subject_id, relation",
            (self.tenant, list(dict.fromkeys(subject_ids)), *wanted),
        ).fetchall()
        found: dict[str, dict[str, int]] = {}
        for subject_id, relation, count in rows:
            found.setdefault(str(subject_id), {})[str(relation)] = int(count)
        return found

    def subject_name(self, subject_id: str) -> str | None:
        """The subject as its facts name it (the first name in sort order, of any status)."""
        row = self.conn.execute(
            "SELECT min(subject) FROM facts WHERE tenant = %s AND subject_id = %s",
            (self.tenant, subject_id),
        ).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def facts_for_key(
        self, subject_id: str | None, relation: str | None, statuses: Sequence[str] = ()
    ) -> list[Fact]:
        """Facts of a subject, a relation, or both, by valid_from then record; any status unless
        `statuses` names some."""
        clauses, params = ["tenant = %s"], [self.tenant]
        if subject_id is not None:
            clauses.append("subject_id = %s")
            params.append(subject_id)
        if relation is not None:
            clauses.append("relation = %s")
            params.append(relation)
        if statuses:
            # Written out, not bound, so the planner can use the partial index facts_one_active.
            unknown = set(statuses) - _STATUSES
            if unknown:
                raise ValueError(f"not a fact status: {sorted(unknown)}")
            listed = ", ".join(f"'{status}'" for status in statuses)
            clauses.append(f"status = {listed}" if len(statuses) == 1 else f"status IN ({listed})")
        rows = self.conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE {' AND '.join(clauses)} "
            "ORDER BY subject, relation, valid_from, recorded_at, seq",
            params,
        ).fetchall()
        return [fact_from_row(row) for row in rows]

    def fact_at(self, subject_id: str, relation: str, moment: int) -> Fact | None:
        """The last history fact of a key to start at or before `moment` (microseconds)."""
        row = self.conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant = %s AND subject_id = %s "
            "AND relation = %s AND valid_from <= %s AND status IN ('active', 'superseded') "
            f"ORDER BY {_key_order('DESC')} LIMIT 1",
            (self.tenant, subject_id, relation, moment),
        ).fetchone()
        return None if row is None else fact_from_row(row)

    def key_neighbours(self, fact_id: str) -> tuple[Fact | None, Fact | None]:
        """The history facts just before and just after a fact in its key's time order."""
        found: list[Fact | None] = []
        for compare, order in (("<", "DESC"), (">", "ASC")):
            row = self.conn.execute(
                f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant = %s "
                "AND status IN ('active', 'superseded') "
                "AND (subject_id, relation) = (SELECT subject_id, relation FROM facts f "
                "WHERE f.tenant = %s AND f.id = %s) "
                f"AND ({', '.join(_KEY_ORDER)}) {compare} "
                f"(SELECT {', '.join(_KEY_ORDER)} FROM facts f WHERE f.tenant = %s AND f.id = %s) "
                f"ORDER BY {_key_order(order)} LIMIT 1",
                (self.tenant, self.tenant, fact_id, self.tenant, fact_id),
            ).fetchone()
            found.append(None if row is None else fact_from_row(row))
        return found[0], found[1]

    def _set_meta(self, fact_id: str, key: str, value: Any) -> None:
        """Set one key of a fact's meta as SQLite's json_set does: in place, or appended (the
        key order is kept, so exports of both backends match byte for byte)."""
        self._writable()
        row = self.conn.execute(
            "SELECT meta FROM facts WHERE tenant = %s AND id = %s FOR UPDATE",
            (self.tenant, fact_id),
        ).fetchone()
        if row is None:
            return
        meta = json.loads(row[0])
        meta[key] = value
        self.conn.execute(
            "UPDATE facts SET meta = %s WHERE tenant = %s AND id = %s",
            (json.dumps(meta, ensure_ascii=False, separators=(",", ":")), self.tenant, fact_id),
        )

    def set_retraction(self, fact_id: str, ended: int, recorded: int) -> None:
        """Remember that a fact's value was retracted: when it ended and when that was recorded."""
        self._set_meta(fact_id, "retracted", [ended, recorded])

    def _meta_entries(self, fact_ids: Sequence[str], key: str) -> dict[str, Any]:
        """The parsed `meta.<key>` of the facts among `fact_ids` that have one."""
        if key not in _META_KEYS:
            raise ValueError(f"not a fact meta key: {key!r}")
        rows = self.conn.execute(
            "SELECT id, (meta::jsonb -> %s)::text FROM facts WHERE tenant = %s "
            "AND id = ANY(%s) AND meta::jsonb ? %s",
            (key, self.tenant, list(dict.fromkeys(fact_ids)), key),
        ).fetchall()
        return {fact_id: json.loads(value) for fact_id, value in rows if value != "null"}

    def retractions(self, fact_ids: Sequence[str]) -> dict[str, tuple[int, int]]:
        """(ended, recorded) in microseconds for the retracted facts among `fact_ids`."""
        found = self._meta_entries(fact_ids, "retracted")
        return {fact_id: (int(ended), int(rec)) for fact_id, (ended, rec) in found.items()}

    def set_withdrawals(self, fact_id: str, spans: Sequence[tuple[int, int | None, str]]) -> None:
        """Record when a fact's memory was forgotten and restored: (from, to or None, status)."""
        self._set_meta(fact_id, "withdrawn", [list(span) for span in spans])

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
            "SELECT payload::jsonb ->> 'relation', payload::jsonb ->> 'proposed', status "
            "FROM reviews WHERE tenant = %s AND kind = 'alias' "
            "AND status IN ('approved', 'rejected') ORDER BY seq",
            (self.tenant,),
        ).fetchall()
        return [(str(a), str(b), str(c)) for a, b, c in rows]

    def fact_relations(self, limit: int) -> list[str]:
        """The relations of history facts, most used first (recounted as on SQLite: on every
        new fact while the tenant's table is small, then when it has grown by 1/16)."""
        top = self.conn.execute(
            "SELECT coalesce(max(seq), 0) FROM facts WHERE tenant = %s", (self.tenant,)
        ).fetchone()[0]
        key = ("fact_relations", self.tenant, limit)
        cached = self.shared.get(key)
        slack = cached[0] // 16 if cached is not None and cached[0] >= 4096 else 0
        if cached is not None and cached[0] <= top <= cached[0] + slack:
            return list(cached[1])
        rows = self.conn.execute(
            "SELECT relation FROM fact_value_counts WHERE tenant = %s "
            "AND status IN ('active', 'superseded') GROUP BY relation HAVING sum(facts) > 0 "
            "ORDER BY sum(facts) DESC, relation LIMIT %s",
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
        `value_key`."""
        where, params = "tenant = %s AND object_key = %s", [self.tenant, value_key]
        if status is not None:
            where += " AND status = %s"
            params.append(status)
        if subject_id is not None:
            where += " AND subject_id = %s"
            params.append(subject_id)
        rows = self.conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE {where} ORDER BY seq LIMIT %s",
            (*params, limit),
        ).fetchall()
        return [fact_from_row(row) for row in rows]

    def value_relations(
        self, value_key: str, statuses: Sequence[str], exclude_subject: str | None = None
    ) -> dict[str, int]:
        """How many facts of each relation (in `statuses`) hold a value, less the excluded
        subject's own facts."""
        sql = (
            "SELECT relation, facts FROM fact_value_counts "
            "WHERE tenant = %s AND object_key = %s AND status = ANY(%s)"
        )
        params: tuple[Any, ...] = (self.tenant, value_key, list(statuses))
        if exclude_subject is not None:
            sql += (
                " UNION ALL SELECT relation, -1 FROM facts WHERE tenant = %s AND subject_id = %s "
                "AND object_key = %s AND status = ANY(%s)"
            )
            params += (self.tenant, exclude_subject, value_key, list(statuses))
        rows = self.conn.execute(
            f"SELECT relation, sum(facts) FROM ({sql}) AS c GROUP BY relation "
            "HAVING sum(facts) > 0",
            params,
        ).fetchall()
        return {str(relation): int(count) for relation, count in rows}

    def facts_for_memories(self, memory_ids: Sequence[str]) -> dict[str, list[Fact]]:
        """Facts stated by each memory."""
        rows = self.conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant = %s AND memory_id = ANY(%s) "
            "ORDER BY seq",
            (self.tenant, list(dict.fromkeys(memory_ids))),
        ).fetchall()
        result: dict[str, list[Fact]] = {}
        for row in rows:
            fact = fact_from_row(row)
            result.setdefault(str(fact.memory_id), []).append(fact)
        return result

    def entity_facts(
        self, subject_ids: Sequence[str], value_keys: Sequence[str], statuses: Sequence[str]
    ) -> list[Fact]:
        """Facts in `statuses` whose value is an entity, of any of the subjects or with any of
        the value keys, in seq order."""
        rows = self.conn.execute(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE tenant = %s AND status = ANY(%s) "
            "AND object_id IS NOT NULL AND (subject_id = ANY(%s) OR object_key = ANY(%s)) "
            "ORDER BY seq",
            (self.tenant, list(statuses), list(subject_ids), list(value_keys)),
        ).fetchall()
        return [fact_from_row(row) for row in rows]

    def insert_review(self, review: Review) -> None:
        """Queue a decision for a person."""
        self._writable()
        self.conn.execute(
            f"INSERT INTO reviews ({REVIEW_COLUMNS}) VALUES ({', '.join(['%s'] * 9)})",
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
            f"UPDATE reviews SET {', '.join(f'{n} = %s' for n in names)} "
            "WHERE tenant = %s AND id = %s",
            (*(values[n] for n in names), self.tenant, review_id),
        )
        return bool(cursor.rowcount)

    def get_review(self, review_id: str) -> Review | None:
        """One review by id."""
        row = self.conn.execute(
            f"SELECT {REVIEW_COLUMNS} FROM reviews WHERE tenant = %s AND id = %s",
            (self.tenant, review_id),
        ).fetchone()
        return None if row is None else review_from_row(row)

    def list_reviews(self, status: str | None, limit: int) -> list[Review]:
        """Reviews, oldest first, optionally of one status."""
        if status is None:
            rows = self.conn.execute(
                f"SELECT {REVIEW_COLUMNS} FROM reviews WHERE tenant = %s ORDER BY seq LIMIT %s",
                (self.tenant, limit),
            ).fetchall()
        else:
            rows = self.conn.execute(
                f"SELECT {REVIEW_COLUMNS} FROM reviews WHERE tenant = %s AND status = %s "
                "ORDER BY seq LIMIT %s",
                (self.tenant, status, limit),
            ).fetchall()
        return [review_from_row(row) for row in rows]
