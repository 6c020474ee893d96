"""MemoryStore: the one facade. Every interface (CLI, MCP, REST, hooks) calls it, nothing else."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from mnemex import ingest as ingest_mod
from mnemex import limits, saving
from mnemex import stats as stats_mod
from mnemex.analysis import linking
from mnemex.browsing import Browsing
from mnemex.clock import Clock, system_clock, to_micros
from mnemex.config import Settings
from mnemex.decay import reinforce
from mnemex.decay.curve import Decay
from mnemex.engine import Engine, require
from mnemex.errors import InvalidInputError, NotFoundError
from mnemex.graph import upsert
from mnemex.ledger import reads, withdraw
from mnemex.ledger import review as review_mod
from mnemex.lifecycle import cluster as cluster_mod
from mnemex.lifecycle import consolidate as consolidate_mod
from mnemex.lifecycle import gc as gc_mod
from mnemex.lifecycle import promote as promote_mod
from mnemex.lifecycle import purge as purge_mod
from mnemex.lifecycle import reindex as reindex_mod
from mnemex.models import (
    Analysis,
    Cluster,
    ConsolidateResult,
    Fact,
    GcReport,
    IngestReport,
    Memory,
    MemoryStatus,
    PromoteReport,
    Recall,
    Relation,
    Review,
    SaveResult,
    SearchHit,
)
from mnemex.retrieval.recall import recall_block, record_recall, worth_injecting
from mnemex.search import SearchRequest, run_search
from mnemex.store import export as export_mod
from mnemex.store import shown_location
from mnemex.store.api_tokens import TokenRegistry
from mnemex.store.base import Backend, Tx
from mnemex.upkeep import Upkeep


class MemoryStore(Browsing, Upkeep):
    """A tenant's view of a store: save, search, recall, lifecycle and bookkeeping."""

    def __init__(
        self,
        backend: Backend,
        settings: Settings | None = None,
        *,
        tenant: str = "default",
        clock: Clock | None = None,
        _engine: Engine | None = None,
    ) -> None:
        self.tenant = limits.check_text(tenant, "tenant", 64)
        self.engine = _engine or Engine(backend, settings or Settings.load(), clock or system_clock)
        self._owner = _engine is None

    # -- plumbing -----------------------------------------------------------------------------

    @property
    def settings(self) -> Settings:
        """The settings this store runs with."""
        return self.engine.settings

    @property
    def decay(self) -> Decay:
        """The configured forgetting curve (the only one used anywhere)."""
        return self.engine.decay

    @property
    def backend(self) -> Backend:
        """The storage backend behind this store."""
        return self.engine.backend

    def now(self) -> datetime:
        """The store's clock (injectable for tests and simulations)."""
        return self.engine.clock()

    @property
    def tokens(self) -> TokenRegistry:
        """The store's API tokens (cross-tenant: for servers and admin commands only)."""
        return self.engine.tokens

    def for_tenant(self, tenant: str) -> MemoryStore:
        """A view of the same store for another tenant; closing it leaves the store open."""
        return MemoryStore(self.backend, tenant=tenant, _engine=self.engine)

    def _read(self) -> AbstractContextManager[Tx]:
        return self.backend.read(self.tenant)

    def _write(self) -> AbstractContextManager[Tx]:
        return self.backend.write(self.tenant)

    def _scored(self, memory: Memory, now_us: int) -> Memory:
        return self.engine.scored(memory, now_us)

    # -- writing ------------------------------------------------------------------------------

    def save(
        self,
        content: str,
        *,
        tags: Sequence[str] | None = None,
        entities: Sequence[str] | None = None,
        strength: float | None = None,
        source: str | None = None,
        context: str | None = None,
        meta: dict[str, Any] | None = None,
        observed_at: datetime | str | None = None,
        subject: str | None = None,
        relation: str | None = None,
        value: str | None = None,
        skip_duplicate: bool = False,
    ) -> SaveResult:
        """Remember `content`. A duplicate is stored and marked unless `skip_duplicate`."""
        item = {
            "content": content,
            "tags": tags,
            "entities": entities,
            "strength": strength,
            "source": source,
            "context": context,
            "meta": meta,
            "observed_at": observed_at,
            "subject": subject,
            "relation": relation,
            "value": value,
            "skip_duplicate": skip_duplicate,
        }
        return self.save_many([item])[0]

    def save_many(self, items: Iterable[dict[str, Any]]) -> list[SaveResult]:
        """Save several memories in one transaction; all are checked before any is written."""
        items = list(items)
        if len(items) > self.settings.max_batch:
            raise InvalidInputError(
                "items", f"{len(items)} items, over the limit", limit=self.settings.max_batch
            )
        return saving.save_many(self.engine, self.tenant, items)

    def analyze(
        self,
        message: str,
        *,
        context: str | Sequence[str] | None = None,
        session_id: str | None = None,
    ) -> Analysis:
        """What a message asks for (save, search, nothing) and what is worth keeping from it."""
        settings = self.settings
        text = limits.check_text(message, "message", settings.max_content_chars)
        checked = limits.check_optional_text(session_id, "session_id", 200)
        session = None if checked is None else f"{self.tenant}\x00{checked}"  # per tenant
        if isinstance(context, str):
            context = limits.check_text(
                context, "context", settings.max_content_chars, allow_empty=True
            )
        elif context is not None:
            context = [
                limits.check_text(
                    item, f"context[{i}]", settings.max_content_chars, allow_empty=True
                )
                for i, item in enumerate(context)
            ]
        analyzer = self.engine.analyzer
        findings = analyzer.run(
            text, turns=analyzer.turns(session, context), view=self.engine.store_reader(self.tenant)
        )
        analyzer.remember_turn(session, findings, text)
        return findings.analysis

    def get(self, memory_id: str) -> Memory:
        """One memory by id (any status), with its score as of now."""
        with self._read() as tx:
            memory = require(tx, memory_id)
        return self._scored(memory, to_micros(self.now()))

    def update(self, memory_id: str, **fields: Any) -> Memory:
        """Change some of a memory's fields (content, tags, entities, strength, meta, ...)."""
        settings = self.settings
        changes = saving.checked_changes(fields, settings, self.now())
        vector = None
        if "content" in changes:
            with self._read() as tx:
                before = require(tx, memory_id)
                vector = self.engine.vectors_for(
                    tx, [changes["content"]], [changes["content_hash"]]
                )[0]
            if (
                "entities" not in changes
                and settings.analysis_enrich
                and settings.analysis_entities
            ):
                changes["entities"] = linking.refreshed_entities(
                    before.content, changes["content"], before.entities, settings
                )
        now = self.now()
        with self._write() as tx:
            require(tx, memory_id)
            changes["updated_at"] = now
            tx.update_memory(memory_id, changes)
            if "content" in changes:
                saving.store_vector(self.engine, tx, memory_id, changes["content_hash"], vector)
            if "entities" in changes:
                saving.link_entities(tx, memory_id, changes["entities"], to_micros(now))
            tx.log_event("update", to_micros(now), memory_id, {"fields": sorted(fields)})
            memory = require(tx, memory_id)
        return self._scored(memory, to_micros(now))

    def _set_status(
        self,
        memory_id: str,
        status: str,
        event: str,
        facts: Callable[[Tx, str, datetime], object] | None = None,
    ) -> Memory:
        now = self.now()
        with self._write() as tx:
            memory = require(tx, memory_id)
            if memory.status != status:
                tx.update_memory(memory_id, {"status": status, "updated_at": now})
                tx.log_event(event, to_micros(now), memory_id, {"from": memory.status})
                if facts is not None:  # the ledger follows: ledger/withdraw.py
                    facts(tx, memory_id, now)
            memory = require(tx, memory_id)
        return self._scored(memory, to_micros(now))

    def forget(self, memory_id: str, *, hard: bool = False) -> Memory | None:
        """Soft-delete a memory (restorable); `hard=True` removes it for good and returns None."""
        if not hard:
            return self._set_status(
                memory_id, MemoryStatus.DELETED.value, "forget", withdraw.forget
            )
        purge_mod.run(self.engine, self.tenant, [limits.check_text(memory_id, "id", 100)])
        return None

    def restore(self, memory_id: str) -> Memory:
        """Bring back a forgotten or archived memory (promoted again if it has a vault note)."""
        with self._read() as tx:
            memory = require(tx, memory_id)
        status = MemoryStatus.PROMOTED.value if memory.vault_path else MemoryStatus.ACTIVE.value
        return self._set_status(memory_id, status, "restore", withdraw.restore)

    def touch(self, memory_id: str, *, boost: bool = False) -> Memory:
        """Count one use now; `boost` also adds strength (+0.1 by default, capped at 2)."""
        now = self.now()
        with self._write() as tx:
            memory = require(tx, memory_id)
            changes = reinforce.touched(memory, now, self.settings, boost=boost)
            tx.update_memory(memory_id, changes)
            tx.log_event("touch", to_micros(now), memory_id, {"boost": boost})
            memory = require(tx, memory_id)
        return self._scored(memory, to_micros(now))

    def observe(
        self, ids: Sequence[str] | str, *, context: str | Sequence[str] | None = None
    ) -> list[Memory]:
        """Memories used in a conversation: spaced-repetition reinforcement plus usage learning.

        Each gets +1 use and +1 review; a use outside its usual domain (context tags overlapping
        its tags by less than the cross-domain Jaccard threshold) adds a little strength.
        """
        id_list = [ids] if isinstance(ids, str) else list(ids)
        if not id_list:
            raise InvalidInputError("ids", "give at least one memory id")
        context_tags = reinforce.context_tags(context)
        now = self.now()
        now_us = to_micros(now)
        settings = self.settings
        with self._write() as tx:
            found = tx.get_memories(id_list)
            missing = [memory_id for memory_id in id_list if memory_id not in found]
            if missing:
                raise NotFoundError("memory", missing[0])
            for memory in found.values():
                tx.update_memory(memory.id, reinforce.observed(memory, context_tags, now, settings))
            tx.record_usage(list(found), used=True, at=now_us)
            ordered = list(found)
            tx.add_co_usage(
                [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]], now_us
            )
            tx.log_event("observe", now_us, None, {"ids": ordered})
            result = tx.get_memories(ordered)
        return [self._scored(result[memory_id], now_us) for memory_id in ordered]

    # -- reading ------------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        tags: Sequence[str] | None = None,
        entity: str | None = None,
        status: str | Sequence[str] | None = None,
        window_days: float | None = None,
        as_of: datetime | str | None = None,
        include_history: bool = False,
        context: str | None = None,
        explain: bool = False,
        fill: bool = True,
    ) -> list[SearchHit]:
        """Memories that match `query`, ranked by relevance blended with their temporal score;
        `fill=False`: only what passed the relevance floors, even if fewer than `k`."""
        settings = self.settings
        text = limits.check_text(query, "query", settings.max_query_chars, allow_empty=True)
        now = self.now()
        request = SearchRequest(
            text=text,
            k=limits.check_k(k, settings),
            tags=tuple(limits.check_tags(tags, settings)),
            entity=limits.check_optional_text(entity, "entity", settings.max_entity_chars),
            statuses=limits.check_statuses(status),
            since=limits.window_start(now, window_days),
            as_of=None if as_of is None else limits.check_as_of(as_of),
            include_history=bool(include_history),
            context=limits.check_optional_text(context, "context", settings.max_content_chars),
            explain=bool(explain),
            fill=bool(fill),
        )
        with self._read() as tx:
            return run_search(self.engine, self.tenant, tx, request, now)

    def recall(self, prompt: str, *, k: int = 5, context: str | None = None) -> Recall:
        """Memories for a prompt, and a `<recalled-memory>` block ready to inject into a context.

        What is injected costs the agent context: only hits past the relevance floors (no fill)
        and none below `recall_floor` times the best hit's score (context the episode or graph
        priors pulled in). What is injected and close in meaning to the prompt counts as a light
        use (`recall_weight`, decay/reinforce.py; off: `reinforcement=False`)."""
        settings = self.settings
        limits.check_text(prompt, "prompt", settings.max_query_chars, allow_empty=True)
        reinforce = settings.reinforcement
        found = self.search(prompt, k=k, context=context, explain=reinforce, fill=False)
        hits = worth_injecting(found, settings.recall_floor)
        if hits:
            with self._write() as tx:
                record_recall(tx, hits, self.now(), settings)
        return Recall(hits=hits, block=recall_block(hits))

    def upsert_entities(
        self,
        entities: Sequence[dict[str, Any]],
        relationships: Sequence[dict[str, Any]] | None = None,
    ) -> upsert.EntityUpsert:
        """Create or update up to 100 entities and relations between them as given: no analysis."""
        checked, relations = upsert.check_batch(entities, relationships, self.settings)
        now = self.now()
        with self._write() as tx:
            report = upsert.apply(tx, checked, relations, now, self.tenant)
            tx.log_event(
                "upsert_entities",
                to_micros(now),
                None,
                {"entities": len(checked), "relations": len(relations)},
            )
        return report

    # -- the fact ledger ----------------------------------------------------------------------

    def facts(
        self,
        subject: str | None = None,
        relation: str | None = None,
        *,
        as_of: datetime | str | None = None,
        include_history: bool = False,
    ) -> list[Fact]:
        """Current facts (one per key); `as_of`: what held then, as known then; history too."""
        limits.check_optional_text(subject, "subject", 200)
        limits.check_optional_text(relation, "relation", 200)
        moment = None if as_of is None else limits.check_as_of(as_of)
        with self._read() as tx:
            return reads.facts(tx, subject, relation, moment, bool(include_history))

    def keys(self, subject: str | None = None) -> list[Fact]:
        """The current fact of every key (of one subject, or all)."""
        return self.facts(subject)

    def timeline(self, subject: str) -> list[Fact]:
        """Every fact of a subject, in time order (superseded and pending ones too)."""
        limits.check_text(subject, "subject", 200)
        with self._read() as tx:
            return reads.timeline(tx, subject)

    def profile(self, *, limit: int = 20) -> list[Fact]:
        """Current facts for the start of a session, the user's first (`reads.borne_out`)."""
        limits.check_k(limit, self.settings, "limit")
        with self._read() as tx:
            ranked = reads.profile(tx, limit * reads.PROFILE_POOL)
        return reads.borne_out(ranked, limit, self.search)

    def reviews(self, *, status: str | None = "open", limit: int = 50) -> list[Review]:
        """Decisions waiting for a person (or resolved ones), oldest first."""
        if status not in (None, "open", "approved", "rejected"):
            raise InvalidInputError("status", "must be open, approved, rejected or None")
        limits.check_k(limit, self.settings, "limit")
        with self._read() as tx:
            return tx.list_reviews(status, limit)

    def resolve_review(self, review_id: str, decision: str, *, note: str | None = None) -> Review:
        """Approve (adopt the proposed key) or reject (restore the fact as its own key)."""
        limits.check_text(review_id, "id", 100)
        limits.check_optional_text(note, "note", 2_000)
        with self._write() as tx:
            return review_mod.resolve(tx, review_id, decision, note, self.now())

    def relate(
        self,
        from_entity: str,
        to_entity: str,
        relation_type: str,
        *,
        strength: float = 1.0,
        source_memory: str | None = None,
    ) -> Relation:
        """Create (or strengthen) a typed edge between two entities, creating them if new."""
        limits.check_text(from_entity, "from_entity", self.settings.max_entity_chars)
        limits.check_text(to_entity, "to_entity", self.settings.max_entity_chars)
        kind = limits.check_text(relation_type, "type", 100)
        strength = limits.check_strength(strength)
        source = limits.check_optional_text(source_memory, "source_memory", 100)
        with self._write() as tx:
            if source is not None:
                require(tx, source)
            return upsert.relate(
                tx, self.tenant, from_entity, to_entity, kind, strength, source, self.now()
            )

    def reindex(self, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """Embed every live memory whose vector is missing, stale or from another model."""
        return reindex_mod.run(self.engine, self.tenant, progress)

    def stats(self) -> dict[str, Any]:
        """Counts, score distribution and configuration at a glance."""
        with self._read() as tx:
            figures = stats_mod.collect(tx, self.decay, self.settings, to_micros(self.now()))
        info = self.backend.info()
        if isinstance(info.get("location"), str):
            info["location"] = shown_location(info["location"])
        return {"tenant": self.tenant, **figures, "store": info}

    # -- lifecycle ----------------------------------------------------------------------------

    def gc(self, *, dry_run: bool = True, hard: bool = False) -> GcReport:
        """Archive memories below the forget threshold (`hard` deletes them); dry run by default.

        Explicit requests, pinned memories, current ledger values and reinforced memories are
        spared (lifecycle/gc.py); each archive is logged with the score it had."""
        now_us = to_micros(self.now())
        with self._write() as tx:
            report = gc_mod.collect(
                tx,
                self.decay,
                now_us,
                self.settings.forget_threshold,
                dry_run=dry_run,
                hard=hard,
                near=self.settings.danger_zone_high,
                reinforced_stability=self.settings.reinforced_stability,
            )
            if not dry_run:
                tx.log_event("gc", now_us, None, {"affected": report.affected, "hard": hard})
        return report

    def promote(
        self, memory_id: str | None = None, *, auto: bool = False, dry_run: bool = True
    ) -> PromoteReport:
        """Write lasting memories to the Markdown vault: one id, or (`auto`) all that qualify."""
        if memory_id is None and not auto and not dry_run:
            raise InvalidInputError(
                "id", "name a memory, or pass auto=True to promote all that qualify"
            )
        return promote_mod.run(self.engine, self.tenant, memory_id, dry_run=dry_run)

    def cluster(self, *, threshold: float | None = None, limit: int = 50) -> list[Cluster]:
        """Groups of similar live memories; ids are stable for the same members."""
        cut = self.settings.cluster_threshold if threshold is None else threshold
        limits.check_fraction(cut, "threshold")
        limits.check_int(limit, "limit", 1, 10_000)
        return cluster_mod.find(self.engine, self.tenant, cut, limit)

    def consolidate(
        self, cluster: str, *, dry_run: bool = True, threshold: float | None = None
    ) -> ConsolidateResult:
        """Preview (default) or merge a cluster into one memory with `consolidated_from` links."""
        limits.check_text(cluster, "cluster_id", 100)
        match = next(
            (c for c in self.cluster(threshold=threshold, limit=10_000) if c.id == cluster), None
        )
        if match is None:
            raise NotFoundError("cluster", cluster)
        return consolidate_mod.run(self.engine, self.tenant, match, dry_run=dry_run)

    def ingest(
        self,
        paths: str | Path | Sequence[str | Path],
        *,
        chunk_chars: int | None = None,
        overlap_chars: int | None = None,
        enrich: bool = False,
        progress: ingest_mod.Progress | None = None,
        watch: float | None = None,
        stop: threading.Event | None = None,
        on_report: Callable[[IngestReport], None] | None = None,
    ) -> IngestReport:
        """Bring files and folders in (Markdown, text, HTML, PDF, chat transcripts), kept in
        sync by content hash; `watch=seconds` runs again on every change until `stop` is set."""
        return ingest_mod.ingest(
            self.engine, self.tenant, paths, chunk_chars=chunk_chars, overlap_chars=overlap_chars,
            enrich=enrich, progress=progress, watch=watch, stop=stop, on_report=on_report,
        )  # fmt: skip

    # -- export and lifetime --------------------------------------------------------------------

    def export(self) -> Iterator[str]:
        """This tenant as JSONL lines (no newlines): lossless, importable with `import_lines`."""
        with self._read() as tx:
            yield from export_mod.export_lines(tx)

    def import_lines(
        self, lines: Iterable[str], progress: Callable[[int], None] | None = None
    ) -> dict[str, Any]:
        """Import an export into this tenant in one transaction: counts of rows imported,
        skipped (already here) and rejected (with the first problems, by line)."""
        with self._write() as tx:
            return export_mod.import_lines(tx, lines, progress, self.settings)

    def close(self) -> None:
        """Release the store (a tenant view leaves the shared store open)."""
        if self._owner:
            self.engine.close()
            self.backend.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def migrate_store(
    source: str,
    target: str,
    *,
    settings: Settings | None = None,
    on_total: Callable[[int], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Move every tenant of the store `source` into the empty store `target` (SQLite or
    PostgreSQL either way), with the vectors of the configured model and the API tokens;
    verified by each tenant's row counts and the sha256 of its JSONL export (store/transfer.py).
    """
    from mnemex.embed import load_embedder
    from mnemex.store import open_backend, redact, resolve_target
    from mnemex.store.transfer import transfer

    settings = settings or Settings.load()
    origin, destination = resolve_target(source, settings), resolve_target(target, settings)
    if origin == destination:
        raise InvalidInputError("to", "the source and the target are the same store")
    if "://" not in origin and origin != ":memory:" and not Path(origin).exists():
        raise NotFoundError("store", origin, f"no store at {origin}")
    embedder = load_embedder(settings.embed_model)
    opened = open_backend(origin, settings)
    try:
        into = open_backend(destination, settings)
        try:
            moved = transfer(
                opened,
                into,
                model=None if embedder is None else embedder.model_id,
                on_total=on_total,
                progress=progress,
            )
        finally:
            into.close()
    finally:
        opened.close()
    return {"from": redact(origin), "to": redact(destination), **moved.as_dict()}
