"""Entities, aliases, memory-entity links and relations in SQLite (a mixin of SqliteTx)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mnemex.clock import from_micros, to_micros
from mnemex.models import Entity, Relation, new_id
from mnemex.store._sqlite_memories import IN_JSON, json_list
from mnemex.text import normalize_name

ENTITY_COLUMNS = (
    "id, tenant, name, category, aliases, tags, summary, details, strength, created_at, "
    "updated_at, expired_at"
)
RELATION_COLUMNS = (
    "id, tenant, from_kind, from_id, to_kind, to_id, type, strength, source_memory, created_at, "
    "valid_from, valid_to, expired_at, meta"
)
_ENTITY_UPDATABLE = {"name", "category", "tags", "summary", "details", "strength", "expired_at"}


def entity_from_row(row: Sequence[Any]) -> Entity:
    """An Entity from a row selected with ENTITY_COLUMNS."""
    return Entity(
        id=row[0],
        tenant=row[1],
        name=row[2],
        category=row[3],
        aliases=json.loads(row[4]),
        tags=json.loads(row[5]),
        summary=row[6],
        details=json.loads(row[7]),
        strength=row[8],
        created_at=from_micros(row[9]),
        updated_at=from_micros(row[10]),
        expired_at=None if row[11] is None else from_micros(row[11]),
    )


def relation_from_row(row: Sequence[Any]) -> Relation:
    """A Relation from a row selected with RELATION_COLUMNS."""
    return Relation(
        id=row[0],
        tenant=row[1],
        from_kind=row[2],
        from_id=row[3],
        to_kind=row[4],
        to_id=row[5],
        type=row[6],
        strength=row[7],
        source_memory=row[8],
        created_at=from_micros(row[9]),
        valid_from=None if row[10] is None else from_micros(row[10]),
        valid_to=None if row[11] is None else from_micros(row[11]),
        expired_at=None if row[12] is None else from_micros(row[12]),
        meta=json.loads(row[13]),
    )


class GraphRows:
    """Entity and relation methods of SqliteTx."""

    conn: Any
    tenant: str

    def _writable(self) -> None:
        raise NotImplementedError

    def _entity_id_for(self, norm: str) -> str | None:
        row = self.conn.execute(
            "SELECT id FROM entities WHERE tenant = ? AND norm = ?", (self.tenant, norm)
        ).fetchone()
        if row is None:
            row = self.conn.execute(
                "SELECT entity_id FROM entity_aliases WHERE tenant = ? AND alias_norm = ?",
                (self.tenant, norm),
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
                    "UPDATE entities SET category = ?, updated_at = ? "
                    "WHERE id = ? AND category IS NULL",
                    (category, now, existing),
                )
            return existing, False
        entity_id = new_id("ent")
        self.conn.execute(
            f"INSERT INTO entities ({ENTITY_COLUMNS}, norm) "
            "VALUES (?, ?, ?, ?, '[]', '[]', NULL, '{}', 1.0, ?, ?, NULL, ?)",
            (entity_id, self.tenant, name.strip(), category, now, now, norm),
        )
        return entity_id, True

    def find_entity(self, name: str) -> Entity | None:
        """The entity called `name` or aliased so, ignoring case and accents."""
        norm = normalize_name(name)
        row = self.conn.execute(  # one statement: the ledger asks this several times a save
            f"SELECT 0, {ENTITY_COLUMNS} FROM entities WHERE tenant = ? AND norm = ? UNION ALL "
            f"SELECT 1, {ENTITY_COLUMNS} FROM entities WHERE +tenant = ? AND id = "
            "(SELECT entity_id FROM entity_aliases WHERE tenant = ? AND alias_norm = ?) "
            "ORDER BY 1 LIMIT 1",
            (self.tenant, norm, self.tenant, self.tenant, norm),
        ).fetchone()
        return None if row is None else entity_from_row(row[1:])

    def entity_ids(self, names: Sequence[str]) -> dict[str, str]:
        """Entity id by name (or alias), ignoring case and accents; unknown names are left out."""
        norms = {name: normalize_name(name) for name in names}
        if not norms:
            return {}
        wanted = json_list(list(dict.fromkeys(norms.values())))
        rows = self.conn.execute(
            f"SELECT 0, norm, id FROM entities WHERE tenant = ? AND norm {IN_JSON} UNION ALL "
            "SELECT 1, alias_norm, entity_id FROM entity_aliases "
            f"WHERE tenant = ? AND alias_norm {IN_JSON}",
            (self.tenant, wanted, self.tenant, wanted),
        ).fetchall()
        found: dict[str, str] = {}
        for _, norm, entity_id in sorted(rows, key=lambda row: row[0]):  # names, then aliases
            found.setdefault(norm, entity_id)
        return {name: found[norm] for name, norm in norms.items() if norm in found}

    def get_entities(self, ids: Sequence[str]) -> dict[str, Entity]:
        """Entities by id."""
        unique = list(dict.fromkeys(ids))
        found: dict[str, Entity] = {}
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            rows = self.conn.execute(
                f"SELECT {ENTITY_COLUMNS} FROM entities WHERE +tenant = ? "
                f"AND id IN ({','.join('?' * len(chunk))})",
                (self.tenant, *chunk),
            ).fetchall()
            found.update((row[0], entity_from_row(row)) for row in rows)
        return found

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
            f"UPDATE entities SET {', '.join(f'{n} = ?' for n in names)} "
            "WHERE tenant = ? AND id = ?",
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
            "INSERT INTO entity_aliases (tenant, alias_norm, entity_id) VALUES (?, ?, ?)",
            (self.tenant, norm, entity_id),
        )
        row = self.conn.execute(
            "SELECT aliases FROM entities WHERE tenant = ? AND id = ?", (self.tenant, entity_id)
        ).fetchone()
        aliases = json.loads(row[0]) if row else []
        aliases.append(alias.strip())
        self.conn.execute(
            "UPDATE entities SET aliases = ? WHERE tenant = ? AND id = ?",
            (json.dumps(aliases, ensure_ascii=False), self.tenant, entity_id),
        )
        return True

    def link_entities(self, memory_id: str, entity_ids: Sequence[str]) -> None:
        """Make the memory's entity links exactly `entity_ids`."""
        self._writable()
        self.conn.execute(
            "DELETE FROM memory_entities WHERE tenant = ? AND memory_id = ?",
            (self.tenant, memory_id),
        )
        self.conn.executemany(
            "INSERT OR IGNORE INTO memory_entities (tenant, memory_id, entity_id) VALUES (?, ?, ?)",
            [(self.tenant, memory_id, entity_id) for entity_id in entity_ids],
        )

    def _pairs(self, column: str, other: str, ids: Sequence[str]) -> dict[str, list[str]]:
        result: dict[str, list[str]] = {}
        unique = list(dict.fromkeys(ids))
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            rows = self.conn.execute(
                f"SELECT {column}, {other} FROM memory_entities WHERE +tenant = ? "
                f"AND {column} IN ({','.join('?' * len(chunk))})",
                (self.tenant, *chunk),
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
            "SELECT id FROM relations WHERE tenant = ? AND from_id = ? AND to_id = ? AND type = ? "
            "AND expired_at IS NULL",
            (self.tenant, relation.from_id, relation.to_id, relation.type),
        ).fetchone()
        if row is not None:
            self.conn.execute(
                "UPDATE relations SET strength = min(2.0, max(strength, ?)) WHERE id = ?",
                (relation.strength, row[0]),
            )
            return str(row[0])
        self.conn.execute(
            f"INSERT INTO relations ({RELATION_COLUMNS}) VALUES ({','.join('?' * 14)})",
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
        found: dict[str, Relation] = {}
        for start in range(0, len(unique), 400):
            chunk = unique[start : start + 400]
            marks = ",".join("?" * len(chunk))
            for column in ("from_id", "to_id"):  # one index each: an OR of both scans the table
                rows = self.conn.execute(
                    f"SELECT {RELATION_COLUMNS} FROM relations WHERE tenant = ? "
                    f"AND {column} IN ({marks}) AND expired_at IS NULL",
                    (self.tenant, *chunk),
                ).fetchall()
                found.update((row[0], relation_from_row(row)) for row in rows)
        return list(found.values())

    def entity_edges(self, limit: int) -> list[Relation]:
        """Edges between entities, expired ones too (a past view needs them), oldest first."""
        rows = self.conn.execute(
            f"SELECT {RELATION_COLUMNS} FROM relations WHERE tenant = ? AND from_kind = 'entity' "
            "AND to_kind = 'entity' ORDER BY created_at, id LIMIT ?",
            (self.tenant, limit),
        ).fetchall()
        return [relation_from_row(row) for row in rows]

    def mention_counts(self, entity_ids: Sequence[str]) -> dict[str, int]:
        """How many memories mention each entity (any status)."""
        counts: dict[str, int] = {}
        unique = list(dict.fromkeys(entity_ids))
        for start in range(0, len(unique), 400):
            chunk = unique[start : start + 400]
            rows = self.conn.execute(
                "SELECT entity_id, count(*) FROM memory_entities "
                f"WHERE entity_id IN ({','.join('?' * len(chunk))}) GROUP BY entity_id",
                chunk,
            ).fetchall()
            counts.update((row[0], int(row[1])) for row in rows)
        return counts

    def list_entities(self, limit: int, offset: int) -> list[Entity]:
        """Entities by name, a page at a time."""
        rows = self.conn.execute(
            f"SELECT {ENTITY_COLUMNS} FROM entities WHERE tenant = ? "
            "ORDER BY norm LIMIT ? OFFSET ?",
            (self.tenant, limit, offset),
        ).fetchall()
        return [entity_from_row(row) for row in rows]

    def entities_by_prefix(self, prefix: str, limit: int) -> list[Entity]:
        """Entities whose key starts with `prefix` (already normalised): "priya " finds
        "Priya Nair"; a range on the key's index, not a scan."""
        rows = self.conn.execute(
            f"SELECT {ENTITY_COLUMNS} FROM entities WHERE tenant = ? AND norm >= ? AND norm < ? "
            "ORDER BY norm LIMIT ?",
            (self.tenant, prefix, prefix + "\U0010ffff", limit),
        ).fetchall()
        return [entity_from_row(row) for row in rows]

    def entities_by_suffix(self, suffix: str, limit: int) -> list[Entity]:
        """Entities whose key ends with `suffix` (already normalised): " okafor" finds
        "Adaeze Okafor". A scan of the tenant's entity keys: read for a titled surname only."""
        rows = self.conn.execute(
            f"SELECT {ENTITY_COLUMNS} FROM entities WHERE tenant = ? "
            "AND substr(norm, length(norm) - ?) = ? ORDER BY norm LIMIT ?",
            (self.tenant, len(suffix) - 1, suffix, limit),
        ).fetchall()
        return [entity_from_row(row) for row in rows]

    def remove_alias(self, entity_id: str, alias: str) -> bool:
        """Stop `alias` from finding the entity (undo of a merge or a link)."""
        self._writable()
        norm = normalize_name(alias)
        cursor = self.conn.execute(
            "DELETE FROM entity_aliases WHERE tenant = ? AND alias_norm = ? AND entity_id = ?",
            (self.tenant, norm, entity_id),
        )
        row = self.conn.execute(
            "SELECT aliases FROM entities WHERE tenant = ? AND id = ?", (self.tenant, entity_id)
        ).fetchone()
        if row is not None:
            kept = [a for a in json.loads(row[0]) if normalize_name(a) != norm]
            self.conn.execute(
                "UPDATE entities SET aliases = ? WHERE tenant = ? AND id = ?",
                (json.dumps(kept, ensure_ascii=False), self.tenant, entity_id),
            )
        return bool(cursor.rowcount)

    def relations_by_ids(self, relation_ids: Sequence[str]) -> dict[str, Relation]:
        """Relations by id, expired ones too."""
        found: dict[str, Relation] = {}
        unique = list(dict.fromkeys(relation_ids))
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            rows = self.conn.execute(
                f"SELECT {RELATION_COLUMNS} FROM relations WHERE tenant = ? "
                f"AND id IN ({','.join('?' * len(chunk))})",
                (self.tenant, *chunk),
            ).fetchall()
            found.update((row[0], relation_from_row(row)) for row in rows)
        return found

    def graph_edges(
        self, node_ids: Sequence[str], *, include_expired: bool = False
    ) -> list[Relation]:
        """Entity-to-entity edges touching any of the nodes (expired ones too when asked: a
        past view needs them)."""
        unique = list(dict.fromkeys(node_ids))
        live = "" if include_expired else "AND expired_at IS NULL "
        found: dict[str, Relation] = {}
        for start in range(0, len(unique), 400):
            chunk = unique[start : start + 400]
            marks = ",".join("?" * len(chunk))
            for column in ("from_id", "to_id"):
                rows = self.conn.execute(
                    f"SELECT {RELATION_COLUMNS} FROM relations WHERE tenant = ? AND {column} "
                    f"IN ({marks}) AND from_kind = 'entity' AND to_kind = 'entity' {live}",
                    (self.tenant, *chunk),
                ).fetchall()
                found.update((row[0], relation_from_row(row)) for row in rows)
        return list(found.values())

    def update_relation(self, relation_id: str, fields: dict[str, Any]) -> bool:
        """Set some columns of one relation (endpoints, type, strength, validity, expiry, meta)."""
        self._writable()
        allowed = {"from_id", "to_id", "type", "strength", "valid_from", "valid_to"}
        allowed |= {"expired_at", "meta"}
        unknown = set(fields) - allowed
        if unknown:
            raise ValueError(f"not updatable: {sorted(unknown)}")
        values: dict[str, Any] = {}
        for name, value in fields.items():
            if name == "meta":
                values[name] = json.dumps(value, ensure_ascii=False, sort_keys=True)
            elif name in {"valid_from", "valid_to", "expired_at"}:
                values[name] = None if value is None else to_micros(value)
            else:
                values[name] = value
        if not values:
            return False
        names = sorted(values)
        cursor = self.conn.execute(
            f"UPDATE relations SET {', '.join(f'{n} = ?' for n in names)} "
            "WHERE tenant = ? AND id = ?",
            (*(values[n] for n in names), self.tenant, relation_id),
        )
        return bool(cursor.rowcount)

    def entity_relations(self, limit: int, offset: int) -> list[Relation]:
        """Entity-to-entity relations, live and expired, a page at a time (upkeep scans)."""
        rows = self.conn.execute(
            f"SELECT {RELATION_COLUMNS} FROM relations WHERE tenant = ? AND from_kind = 'entity' "
            "AND to_kind = 'entity' ORDER BY seq LIMIT ? OFFSET ?",
            (self.tenant, limit, offset),
        ).fetchall()
        return [relation_from_row(row) for row in rows]

    def move_entity_links(self, from_id: str, to_id: str, now: int) -> dict[str, Any]:
        """Point every memory link, relation and fact of entity `from_id` at `to_id` (a merge).

        Nothing is deleted: an edge that would duplicate a live edge of `to_id`, or become a
        self-loop, is expired instead; a fact whose key `to_id` already holds a current value for
        stays where it is. Returns what moved, so the merge can be undone exactly.
        """
        self._writable()
        t = self.tenant
        linked = {
            row[0]
            for row in self.conn.execute(
                "SELECT memory_id FROM memory_entities WHERE tenant = ? AND entity_id = ?",
                (t, to_id),
            )
        }
        memories = [
            row[0]
            for row in self.conn.execute(
                "SELECT memory_id FROM memory_entities WHERE tenant = ? AND entity_id = ?",
                (t, from_id),
            )
        ]
        moved = [m for m in memories if m not in linked]
        self.conn.executemany(
            "INSERT INTO memory_entities (tenant, memory_id, entity_id) VALUES (?, ?, ?)",
            [(t, m, to_id) for m in moved],
        )
        self.conn.execute(
            "DELETE FROM memory_entities WHERE tenant = ? AND entity_id = ?", (t, from_id)
        )
        report: dict[str, Any] = {"memories": moved, "shared": sorted(set(memories) - set(moved))}
        rows = self.conn.execute(
            f"SELECT {RELATION_COLUMNS} FROM relations WHERE tenant = ? "
            "AND (from_id = ? OR to_id = ?)",
            (t, from_id, from_id),
        ).fetchall()
        report["relations"], report["expired_relations"] = [], []
        for relation in map(relation_from_row, rows):
            new_from = to_id if relation.from_id == from_id else relation.from_id
            new_to = to_id if relation.to_id == from_id else relation.to_id
            report["relations"].append([relation.id, relation.from_id, relation.to_id])
            clash = None
            if relation.expired_at is None:
                clash = self.conn.execute(
                    "SELECT id FROM relations WHERE tenant = ? AND from_id = ? AND to_id = ? "
                    "AND type = ? AND expired_at IS NULL AND id != ?",
                    (t, new_from, new_to, relation.type, relation.id),
                ).fetchone()
            if relation.expired_at is None and (clash is not None or new_from == new_to):
                self.conn.execute(
                    "UPDATE relations SET expired_at = ? WHERE id = ?", (now, relation.id)
                )
                report["expired_relations"].append(relation.id)
                if clash is not None:
                    self.conn.execute(
                        "UPDATE relations SET strength = min(2.0, max(strength, ?)) WHERE id = ?",
                        (relation.strength, clash[0]),
                    )
            self.conn.execute(
                "UPDATE relations SET from_id = ?, to_id = ? WHERE id = ?",
                (new_from, new_to, relation.id),
            )
        report["facts"], report["object_facts"], report["kept_facts"] = [], [], []
        for fact_id, relation_name, status in self.conn.execute(
            "SELECT id, relation, status FROM facts WHERE tenant = ? AND subject_id = ?",
            (t, from_id),
        ).fetchall():
            taken = (
                status == "active"
                and self.conn.execute(
                    "SELECT 1 FROM facts WHERE tenant = ? AND subject_id = ? AND relation = ? "
                    "AND status = 'active'",
                    (t, to_id, relation_name),
                ).fetchone()
            )
            if taken:
                report["kept_facts"].append(fact_id)
                continue
            self.conn.execute("UPDATE facts SET subject_id = ? WHERE id = ?", (to_id, fact_id))
            report["facts"].append(fact_id)
        for (fact_id,) in self.conn.execute(
            "SELECT id FROM facts WHERE tenant = ? AND object_id = ?", (t, from_id)
        ).fetchall():
            self.conn.execute("UPDATE facts SET object_id = ? WHERE id = ?", (to_id, fact_id))
            report["object_facts"].append(fact_id)
        return report

    def move_fact_subjects(
        self, fact_ids: Sequence[str], object_fact_ids: Sequence[str], entity_id: str
    ) -> None:
        """Give facts back their subject (or object) entity: the undo of a merge."""
        self._writable()
        self.conn.executemany(
            "UPDATE facts SET subject_id = ? WHERE tenant = ? AND id = ?",
            [(entity_id, self.tenant, fact_id) for fact_id in fact_ids],
        )
        self.conn.executemany(
            "UPDATE facts SET object_id = ? WHERE tenant = ? AND id = ?",
            [(entity_id, self.tenant, fact_id) for fact_id in object_fact_ids],
        )
