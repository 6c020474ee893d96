"""Entities, aliases, memory-entity links and relations in PostgreSQL (a PgTx mixin)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mnemex.clock import to_micros
from mnemex.models import Entity, Relation, new_id
from mnemex.store._sqlite_graph import (
    _ENTITY_UPDATABLE,
    ENTITY_COLUMNS,
    RELATION_COLUMNS,
    GraphRows,
    entity_from_row,
    relation_from_row,
)
from mnemex.text import normalize_name


class PgGraphRows:
    """Entity and relation methods of PgTx."""

    conn: Any
    tenant: str

    def _writable(self) -> None:
        raise NotImplementedError

    def _entity_id_for(self, norm: str) -> str | None:
        row = self.conn.execute(
            "SELECT id FROM entities WHERE tenant = %s AND norm = %s UNION ALL "
            "SELECT entity_id FROM entity_aliases WHERE tenant = %s AND alias_norm = %s LIMIT 1",
            (self.tenant, norm, self.tenant, norm),
        ).fetchone()
        return None if row is None else str(row[0])

    def upsert_entity(
        self, name: str, *, category: str | None = None, now: int
    ) -> tuple[str, bool]:
        """The id of the entity called `name` (or one of its aliases), creating it if new."""
        self._writable()
        norm = normalize_name(name)
        existing = self._entity_id_for(norm)
        if existing is not None:
            if category:
                self.conn.execute(
                    "UPDATE entities SET category = %s, updated_at = %s "
                    "WHERE tenant = %s AND id = %s AND category IS NULL",
                    (category, now, self.tenant, existing),
                )
            return existing, False
        entity_id = new_id("ent")
        self.conn.execute(
            f"INSERT INTO entities ({ENTITY_COLUMNS}, norm) "
            "VALUES (%s, %s, %s, %s, '[]', '[]', NULL, '{}', 1.0, %s, %s, NULL, %s)",
            (entity_id, self.tenant, name.strip(), category, now, now, norm),
        )
        return entity_id, True

    def find_entity(self, name: str) -> Entity | None:
        """The entity called `name` or aliased so, ignoring case and accents."""
        norm = normalize_name(name)
        row = self.conn.execute(
            f"SELECT 0, {ENTITY_COLUMNS} FROM entities WHERE tenant = %s AND norm = %s UNION ALL "
            f"SELECT 1, {ENTITY_COLUMNS} FROM entities WHERE tenant = %s AND id = "
            "(SELECT entity_id FROM entity_aliases WHERE tenant = %s AND alias_norm = %s) "
            "ORDER BY 1 LIMIT 1",
            (self.tenant, norm, self.tenant, self.tenant, norm),
        ).fetchone()
        return None if row is None else entity_from_row(row[1:])

    def entity_ids(self, names: Sequence[str]) -> dict[str, str]:
        """Entity id by name (or alias), ignoring case and accents; unknown names are left out."""
        norms = {name: normalize_name(name) for name in names}
        if not norms:
            return {}
        wanted = list(dict.fromkeys(norms.values()))
        rows = self.conn.execute(
            "SELECT 0, norm, id FROM entities WHERE tenant = %s AND norm = ANY(%s) UNION ALL "
            "SELECT 1, alias_norm, entity_id FROM entity_aliases "
            "WHERE tenant = %s AND alias_norm = ANY(%s)",
            (self.tenant, wanted, self.tenant, wanted),
        ).fetchall()
        found: dict[str, str] = {}
        for _, norm, entity_id in sorted(rows, key=lambda row: row[0]):  # names, then aliases
            found.setdefault(norm, entity_id)
        return {name: found[norm] for name, norm in norms.items() if norm in found}

    def get_entities(self, ids: Sequence[str]) -> dict[str, Entity]:
        """Entities by id."""
        rows = self.conn.execute(
            f"SELECT {ENTITY_COLUMNS} FROM entities WHERE tenant = %s AND id = ANY(%s)",
            (self.tenant, list(dict.fromkeys(ids))),
        ).fetchall()
        return {row[0]: entity_from_row(row) for row in rows}

    def update_entity(self, entity_id: str, fields: dict[str, Any]) -> bool:
        """Set some columns of one entity (renames keep the key in step)."""
        self._writable()
        unknown = set(fields) - _ENTITY_UPDATABLE
        if unknown:
            raise ValueError(f"not updatable: {sorted(unknown)}")
        values: dict[str, Any] = {}
        for name, value in fields.items():
            if name in {"tags", "details"}:
                values[name] = json.dumps(value, ensure_ascii=False)
            elif name == "expired_at":
                values[name] = None if value is None else to_micros(value)
            else:
                values[name] = value
        if "name" in values:
            values["norm"] = normalize_name(values["name"])
        if not values:
            return False
        names = sorted(values)
        cursor = self.conn.execute(
            f"UPDATE entities SET {', '.join(f'{n} = %s' for n in names)} "
            "WHERE tenant = %s AND id = %s",
            (*(values[n] for n in names), self.tenant, entity_id),
        )
        return bool(cursor.rowcount)

    def add_alias(self, entity_id: str, alias: str) -> bool:
        """Make `alias` find the entity; False when the alias already names something."""
        self._writable()
        norm = normalize_name(alias)
        if self._entity_id_for(norm) is not None:
            return False
        self.conn.execute(
            "INSERT INTO entity_aliases (tenant, alias_norm, entity_id) VALUES (%s, %s, %s)",
            (self.tenant, norm, entity_id),
        )
        row = self.conn.execute(
            "SELECT aliases FROM entities WHERE tenant = %s AND id = %s", (self.tenant, entity_id)
        ).fetchone()
        aliases = json.loads(row[0]) if row else []
        aliases.append(alias.strip())
        self.conn.execute(
            "UPDATE entities SET aliases = %s WHERE tenant = %s AND id = %s",
            (json.dumps(aliases, ensure_ascii=False), self.tenant, entity_id),
        )
        return True

    def link_entities(self, memory_id: str, entity_ids: Sequence[str]) -> None:
        """Make the memory's entity links exactly `entity_ids`."""
        self._writable()
        self.conn.execute(
            "DELETE FROM memory_entities WHERE tenant = %s AND memory_id = %s",
            (self.tenant, memory_id),
        )
        if entity_ids:
            self.conn.execute(
                "INSERT INTO memory_entities (tenant, memory_id, entity_id) "
                "SELECT %s, %s, e FROM unnest(%s::text[]) WITH ORDINALITY AS u (e, n) "
                "ORDER BY n ON CONFLICT DO NOTHING",
                (self.tenant, memory_id, list(entity_ids)),
            )

    def _pairs(self, column: str, other: str, ids: Sequence[str]) -> dict[str, list[str]]:
        result: dict[str, list[str]] = {}
        rows = self.conn.execute(
            f"SELECT {column}, {other} FROM memory_entities WHERE tenant = %s "
            f"AND {column} = ANY(%s) ORDER BY seq",
            (self.tenant, list(dict.fromkeys(ids))),
        ).fetchall()
        for key, value in rows:
            result.setdefault(key, []).append(value)
        return result

    def memory_entity_ids(self, memory_ids: Sequence[str]) -> dict[str, list[str]]:
        """Entity ids mentioned by each memory."""
        return self._pairs("memory_id", "entity_id", memory_ids)

    def entity_memory_ids(self, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        """Memory ids mentioning each entity."""
        return self._pairs("entity_id", "memory_id", entity_ids)

    def insert_relation(self, relation: Relation) -> str:
        """Add an edge, or strengthen the live edge of the same type between the same nodes."""
        self._writable()
        row = self.conn.execute(
            "SELECT id FROM relations WHERE tenant = %s AND from_id = %s AND to_id = %s "
            "AND type = %s AND expired_at IS NULL",
            (self.tenant, relation.from_id, relation.to_id, relation.type),
        ).fetchone()
        if row is not None:
            self.conn.execute(
                "UPDATE relations SET strength = least(2.0, greatest(strength, %s)) "
                "WHERE tenant = %s AND id = %s",
                (relation.strength, self.tenant, row[0]),
            )
            return str(row[0])
        self.conn.execute(
            f"INSERT INTO relations ({RELATION_COLUMNS}) VALUES ({', '.join(['%s'] * 14)})",
            (
                relation.id,
                self.tenant,
                relation.from_kind,
                relation.from_id,
                relation.to_kind,
                relation.to_id,
                relation.type,
                relation.strength,
                relation.source_memory,
                to_micros(relation.created_at),
                None if relation.valid_from is None else to_micros(relation.valid_from),
                None if relation.valid_to is None else to_micros(relation.valid_to),
                None if relation.expired_at is None else to_micros(relation.expired_at),
                json.dumps(relation.meta, ensure_ascii=False, sort_keys=True),
            ),
        )
        return relation.id

    def relations_of(self, node_ids: Sequence[str]) -> list[Relation]:
        """Live edges touching any of the nodes."""
        unique = list(dict.fromkeys(node_ids))
        rows = self.conn.execute(
            f"SELECT {RELATION_COLUMNS} FROM relations WHERE tenant = %s "
            "AND expired_at IS NULL AND (from_id = ANY(%s) OR to_id = ANY(%s)) ORDER BY seq",
            (self.tenant, unique, unique),
        ).fetchall()
        return [relation_from_row(row) for row in rows]

    def entity_edges(self, limit: int) -> list[Relation]:
        """Edges between entities, expired ones too (a past view needs them), oldest first."""
        rows = self.conn.execute(
            f"SELECT {RELATION_COLUMNS} FROM relations WHERE tenant = %s "
            "AND from_kind = 'entity' AND to_kind = 'entity' ORDER BY created_at, id LIMIT %s",
            (self.tenant, limit),
        ).fetchall()
        return [relation_from_row(row) for row in rows]

    def mention_counts(self, entity_ids: Sequence[str]) -> dict[str, int]:
        """How many memories mention each entity (any status)."""
        rows = self.conn.execute(
            "SELECT entity_id, count(*) FROM memory_entities WHERE tenant = %s "
            "AND entity_id = ANY(%s) GROUP BY entity_id",
            (self.tenant, list(dict.fromkeys(entity_ids))),
        ).fetchall()
        return {row[0]: int(row[1]) for row in rows}

    def list_entities(self, limit: int, offset: int) -> list[Entity]:
        """Entities by name, a page at a time."""
        rows = self.conn.execute(
            f"SELECT {ENTITY_COLUMNS} FROM entities WHERE tenant = %s "
            "ORDER BY norm LIMIT %s OFFSET %s",
            (self.tenant, limit, offset),
        ).fetchall()
        return [entity_from_row(row) for row in rows]


class _Placeholders:
    """A psycopg connection that takes the SQLite upkeep statements ("?" placeholders, scalar
    min/max) as PostgreSQL statements."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    @staticmethod
    def _sql(sql: str) -> str:
        sql = sql.replace("min(2.0, max(strength, ?))", "LEAST(2.0, GREATEST(strength, ?))")
        return sql.replace("?", "%s")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._conn.execute(self._sql(sql), params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._conn.cursor() as cursor:
            cursor.executemany(self._sql(sql), rows)


class _Upkeep(GraphRows):
    """The graph-upkeep statements of the SQLite mixin, run on a PgTx's connection (plain SQL
    both engines read alike once the placeholders are translated)."""

    def __init__(self, tx: Any) -> None:
        self.conn = _Placeholders(tx.conn)
        self.tenant = tx.tenant
        self._tx = tx

    def _writable(self) -> None:
        self._tx._writable()


class PgGraphUpkeep:
    """Graph queries and upkeep of PgTx (issue 20), shared with SQLite through `_Upkeep`."""

    def entities_by_prefix(self, prefix: str, limit: int) -> list[Entity]:
        """Entities whose key starts with `prefix`."""
        return _Upkeep(self).entities_by_prefix(prefix, limit)

    def entities_by_suffix(self, suffix: str, limit: int) -> list[Entity]:
        """Entities whose key ends with `suffix`."""
        return _Upkeep(self).entities_by_suffix(suffix, limit)

    def remove_alias(self, entity_id: str, alias: str) -> bool:
        """Stop `alias` from finding the entity."""
        return _Upkeep(self).remove_alias(entity_id, alias)

    def relations_by_ids(self, relation_ids: Sequence[str]) -> dict[str, Relation]:
        """Relations by id, expired ones too."""
        return _Upkeep(self).relations_by_ids(relation_ids)

    def graph_edges(
        self, node_ids: Sequence[str], *, include_expired: bool = False
    ) -> list[Relation]:
        """Entity-to-entity edges touching any of the nodes."""
        return _Upkeep(self).graph_edges(node_ids, include_expired=include_expired)

    def update_relation(self, relation_id: str, fields: dict[str, Any]) -> bool:
        """Set some columns of one relation."""
        return _Upkeep(self).update_relation(relation_id, fields)

    def entity_relations(self, limit: int, offset: int) -> list[Relation]:
        """Entity-to-entity relations, a page at a time."""
        return _Upkeep(self).entity_relations(limit, offset)

    def move_entity_links(self, from_id: str, to_id: str, now: int) -> dict[str, Any]:
        """Point every link, relation and fact of one entity at another (a merge)."""
        return _Upkeep(self).move_entity_links(from_id, to_id, now)

    def move_fact_subjects(
        self, fact_ids: Sequence[str], object_fact_ids: Sequence[str], entity_id: str
    ) -> None:
        """Give facts back their subject (or object) entity."""
        _Upkeep(self).move_fact_subjects(fact_ids, object_fact_ids, entity_id)
