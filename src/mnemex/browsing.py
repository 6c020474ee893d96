"""What a person needs to look through and correct a store (the console, the CLI): pages of
memories by any filter, the audit log, one entity, the whole entity graph, pins and id prefixes.

A mixin of `MemoryStore` (service.py), which supplies the transactions, settings and clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from mnemex import limits, saving
from mnemex.analysis.relations import relation_name
from mnemex.clock import from_micros, parse_time, to_micros
from mnemex.config import Settings
from mnemex.engine import Engine, require
from mnemex.errors import InvalidInputError, NotFoundError
from mnemex.graph import query, upkeep
from mnemex.graph.neighbourhood import neighbourhood, overview
from mnemex.models import PIN_TAG, Entity, Event, Graph, Memory
from mnemex.store.base import MemoryFilter, Tx

ID_KINDS = {"memory": "memories", "fact": "facts", "review": "reviews", "entity": "entities"}
MAX_AMBIGUOUS = 5  # ids an ambiguous prefix error lists
ORDERS = ("used", "created")
MAX_NODES = 10_000  # entities a whole-store graph may hold


class Browsing:
    """Listing, looking up and pinning: the read side a person uses, beside search."""

    tenant: str
    engine: Engine

    def _read(self) -> AbstractContextManager[Tx]:
        raise NotImplementedError

    def _write(self) -> AbstractContextManager[Tx]:
        raise NotImplementedError

    def now(self) -> datetime:
        raise NotImplementedError

    @property
    def settings(self) -> Settings:
        raise NotImplementedError

    def memories(
        self,
        *,
        limit: int = 50,
        offset: int = 0,
        status: str | Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        entity: str | None = None,
        source: str | None = None,
        min_strength: float | None = None,
        max_strength: float | None = None,
        order: str = "used",
    ) -> list[Memory]:
        """Memories a page at a time (a listing, not a search): most recently used first, or
        (`order="created"`) most recently observed or saved first."""
        settings = self.settings
        limit = limits.check_k(limit, settings, "limit")
        if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= 100_000:
            raise InvalidInputError(
                "offset", "must be an integer within [0, 100000]", limit=100_000
            )
        if order not in ORDERS:
            raise InvalidInputError("order", "must be used or created")
        name = limits.check_optional_text(entity, "entity", settings.max_entity_chars)
        checked_source = limits.check_optional_text(source, "source", saving.MAX_SOURCE_CHARS)
        low = None if min_strength is None else limits.check_strength(min_strength, "min_strength")
        high = None if max_strength is None else limits.check_strength(max_strength, "max_strength")
        with self._read() as tx:
            entity_ids: tuple[str, ...] = ()
            if name is not None:
                found = tx.find_entity(name)
                if found is None:
                    return []
                entity_ids = (found.id,)
            flt = MemoryFilter(
                statuses=limits.check_statuses(status),
                tags=tuple(limits.check_tags(tags, settings)),
                entity_ids=entity_ids,
                include_superseded=True,
                sources=() if checked_source is None else (checked_source,),
                min_strength=low,
                max_strength=high,
            )
            ids = tx.recent_ids(offset + limit, flt, order)[offset:]
            memories = tx.get_memories(ids)
        now_us = to_micros(self.now())
        return [self.engine.scored(memories[i], now_us) for i in ids if i in memories]

    def resolve_id(self, prefix: str, kind: str = "memory") -> str:
        """The full id of the one memory (fact, review, entity) whose id starts with `prefix`."""
        text = limits.check_text(prefix, "id", 100).strip()
        table = ID_KINDS.get(kind)
        if table is None:
            raise InvalidInputError("kind", f"must be one of {', '.join(ID_KINDS)}")
        with self._read() as tx:
            found = tx.match_ids(table, text, MAX_AMBIGUOUS + 1)
        if text in found:
            return text
        if not found:
            raise NotFoundError(kind, text)
        if len(found) > 1:
            listed = ", ".join(found[:MAX_AMBIGUOUS]) + (", ..." if len(found) > 5 else "")
            raise InvalidInputError("id", f"{text!r} is the start of several {table}: {listed}")
        return found[0]

    def events(self, *, kind: str | None = None, limit: int = 100) -> list[Event]:
        """The audit log, newest first: saves, recalls, supersessions, reviews, gc runs, ..."""
        checked = limits.check_optional_text(kind, "kind", 100)
        limit = limits.check_k(limit, self.settings, "limit")
        with self._read() as tx:
            rows = tx.list_events(checked, limit)
        return [
            Event(row["id"], row["kind"], from_micros(row["at"]), row["subject_id"], row["payload"])
            for row in rows
        ]

    def entity(self, name: str) -> Entity:
        """One entity by name or alias (case and accents ignored)."""
        limits.check_text(name, "entity", self.settings.max_entity_chars)
        with self._read() as tx:
            found = tx.find_entity(name)
        if found is None:
            raise NotFoundError("entity", name)
        return found

    def entities(self, *, limit: int = 100, offset: int = 0) -> list[Entity]:
        """Known entities, alphabetically, a page at a time."""
        limits.check_int(limit, "limit", 1, 10_000)
        limits.check_int(offset, "offset", 0, 10_000_000)
        with self._read() as tx:
            return tx.list_entities(limit, offset)

    def graph(
        self,
        entity: str | None = None,
        *,
        depth: int = 2,
        limit: int = 2_000,
        categories: Sequence[str] | None = None,
        relation_types: Sequence[str] | None = None,
        as_of: datetime | str | None = None,
        memories: bool = True,
    ) -> Graph:
        """The entity, the memories mentioning it and the relations around it, `depth` hops out;
        with no entity, every entity (up to `limit`, expired ones too, with their dates and
        mention counts) and the relations between them: the store's whole graph.

        `categories` and `relation_types` keep only neighbours of those kinds and edges of those
        types; `as_of` shows the graph as it stood then (created later: absent; expired by then:
        shown expired). Any of them, or `memories=False`, gives the entity graph alone (each edge
        with its source memory)."""
        if entity is None:
            if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10_000:
                raise InvalidInputError(
                    "limit", "must be an integer within [1, 10000]", limit=10_000
                )
            with self._read() as tx:
                return overview(tx, limit)
        limits.check_text(entity, "entity", self.settings.max_entity_chars)
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 4:
            raise InvalidInputError("depth", "must be within [1, 4]", limit=4)
        flt = self._graph_filter(categories, relation_types, as_of)
        with self._read() as tx:
            root = tx.find_entity(entity)
            if root is None:
                raise NotFoundError("entity", entity)
            if memories and flt == query.GraphFilter():
                return neighbourhood(tx, root, depth)
            return query.neighbours(tx, root, depth, flt)

    def path(
        self,
        from_entity: str,
        to_entity: str,
        *,
        relation_types: Sequence[str] | None = None,
        as_of: datetime | str | None = None,
    ) -> Graph:
        """The shortest chain of relations between two entities (either direction), at most
        six hops; an empty graph when none joins them."""
        limits.check_text(from_entity, "from_entity", self.settings.max_entity_chars)
        limits.check_text(to_entity, "to_entity", self.settings.max_entity_chars)
        flt = self._graph_filter(None, relation_types, as_of)
        with self._read() as tx:
            a, b = tx.find_entity(from_entity), tx.find_entity(to_entity)
            if a is None:
                raise NotFoundError("entity", from_entity)
            if b is None:
                raise NotFoundError("entity", to_entity)
            return query.shortest_path(tx, a, b, flt)

    def _graph_filter(
        self,
        categories: Sequence[str] | None,
        relation_types: Sequence[str] | None,
        as_of: datetime | str | None,
    ) -> query.GraphFilter:
        def names(value: Sequence[str] | None, field: str) -> frozenset[str]:
            if value is None:
                return frozenset()
            if isinstance(value, str):
                value = [value]
            checked = [limits.check_text(v, field, 100) for v in value]
            return frozenset(v.strip().casefold().replace(" ", "_") for v in checked)

        return query.GraphFilter(
            categories=names(categories, "categories"),
            relation_types=frozenset(
                relation_name(t) for t in names(relation_types, "relation_types")
            ),
            as_of=None if as_of is None else parse_time(as_of, "as_of"),
        )

    def pin(self, memory_id: str, *, pinned: bool = True) -> Memory:
        """Pin a memory (gc never archives it) or, `pinned=False`, unpin it.

        The `pinned` column is what gc reads; the tag `pinned` mirrors it so lists and the
        console can filter on it."""
        now = self.now()
        with self._write() as tx:
            memory = require(tx, memory_id)
            tags = [t for t in memory.tags if t != PIN_TAG] + ([PIN_TAG] if pinned else [])
            if tags != memory.tags or memory.pinned != pinned:
                changes = saving.checked_changes({"tags": tags}, self.settings)
                tx.update_memory(memory_id, {**changes, "pinned": pinned, "updated_at": now})
                tx.log_event("pin" if pinned else "unpin", to_micros(now), memory_id, {})
            memory = require(tx, memory_id)
        return self.engine.scored(memory, to_micros(now))

    def maint_scan(self) -> upkeep.MaintReport:
        """What is wrong with the entity graph (duplicates, orphans, junk, self-loops, reversed
        and vague relations), each finding with the fix `maint_fix` would make."""
        with self._read() as tx:
            return upkeep.scan(tx)

    def maint_fix(
        self, *, dry_run: bool = True, kinds: Sequence[str] | None = None
    ) -> upkeep.MaintReport:
        """Apply the scan's fixes (`dry_run=True`: only report them); each fix is one audit
        event (`maint_fix`, its id in the finding's `fix_id`) that `maint_undo` reverses."""
        chosen = None
        if kinds is not None:
            unknown = sorted(set(kinds) - set(upkeep.KINDS))
            if unknown:
                raise InvalidInputError("kinds", f"unknown kind {unknown[0]!r}")
            chosen = frozenset(kinds)
        if dry_run:
            report = self.maint_scan()
            if chosen:
                report.findings = [f for f in report.findings if f.kind in chosen]
            return report
        with self._write() as tx:
            return upkeep.fix(tx, upkeep.scan(tx), self.now(), chosen)

    def maint_undo(self, fix_id: str) -> dict[str, Any]:
        """Reverse one fix of `maint_fix` (a merge is split again, an expired node restored)."""
        limits.check_text(fix_id, "fix_id", 64)
        with self._write() as tx:
            return upkeep.undo(tx, fix_id, self.now())
