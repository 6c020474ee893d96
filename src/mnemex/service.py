"""MemoryStore: the one facade. Every interface (CLI, MCP, REST, hooks) calls it, nothing else."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from mnemex import limits
from mnemex.analysis import enrich
from mnemex.analysis.analyze import Analyzer, EmbedFn
from mnemex.clock import MICROS_PER_DAY, Clock, parse_time, system_clock, to_micros
from mnemex.config import Settings
from mnemex.errors import InvalidInputError, NotFoundError
from mnemex.graph import upsert
from mnemex.graph.neighbourhood import neighbourhood
from mnemex.lifecycle import gc as gc_mod
from mnemex.lifecycle import promote as promote_mod
from mnemex.lifecycle.cluster import cluster_id, group, lexical_vectors
from mnemex.lifecycle.consolidate import merge_text, union
from mnemex.limits import content_hash
from mnemex.models import (
    LIVE_STATUSES,
    Analysis,
    Cluster,
    ConsolidateResult,
    Entity,
    Fact,
    GcReport,
    Graph,
    Memory,
    MemoryStatus,
    PromoteReport,
    Recall,
    Relation,
    Review,
    SaveResult,
    ScoredMemory,
    SearchHit,
    new_id,
)
from mnemex.retrieval import lexical
from mnemex.retrieval.embed import Embedder, from_bytes, load_embedder, to_bytes
from mnemex.retrieval.graph import MemoryGraph
from mnemex.retrieval.search import SearchRequest, run_search
from mnemex.retrieval.vector import VectorIndex
from mnemex.store import jsonl
from mnemex.store.base import Backend, MemoryFilter, Tx
from mnemex.store.tokens import TokenRegistry
from mnemex.temporal import ingest, reads, withdraw
from mnemex.temporal import review as review_mod
from mnemex.temporal.decay import MAX_STRENGTH, Decay
from mnemex.temporal.similarity import Similarity
from mnemex.temporal.similarity import for_embedder as similarity_for

_SAVE_FIELDS = frozenset(
    {
        "content",
        "tags",
        "entities",
        "strength",
        "source",
        "context",
        "meta",
        "observed_at",
        "subject",
        "relation",
        "value",
        "skip_duplicate",
    }
)
_UPDATE_FIELDS = frozenset(
    {"content", "tags", "entities", "strength", "source", "context", "meta", "observed_at"}
)


@dataclass(slots=True)
class Draft:
    """A memory being saved: checked input plus what the engine fills in before writing."""

    content: str
    tags: list[str]
    entities: list[str]
    strength: float | None  # None: left out (enrichment or the 1.0 default fills it)
    source: str | None
    context: str | None
    meta: dict[str, Any]
    observed_at: datetime | None
    subject: str | None
    relation: str | None
    value: str | None
    skip_duplicate: bool
    content_hash: str
    enrichment: dict[str, Any] = field(default_factory=dict)
    given: frozenset[str] = frozenset()  # optional fields the caller supplied


class Engine:
    """State shared by every tenant view of one backend: settings, clock, caches and locks."""

    def __init__(self, backend: Backend, settings: Settings, clock: Clock) -> None:
        self.backend = backend
        self.settings = settings
        self.clock = clock
        self.decay = Decay.from_settings(settings)
        self.term_stats = lexical.TermStats()
        self.lock = threading.RLock()
        self.tokens = TokenRegistry(backend, clock)
        self._vectors: dict[str, VectorIndex] = {}
        self._graphs: dict[str, MemoryGraph] = {}
        load_embedder(settings.embed_model)  # an unknown model name fails here, at open
        self.analyzer = Analyzer(settings, self._analysis_embed)

    def _analysis_embed(self) -> EmbedFn | None:
        """The embedding function analysis uses (None for a lexical-only engine)."""
        embedder = self.embedder
        return None if embedder is None else embedder.embed

    @property
    def embedder(self) -> Embedder | None:
        """The configured embedding model (loaded on first use), or None when it is "none"."""
        return load_embedder(self.settings.embed_model)

    def vector_index(self, tenant: str) -> VectorIndex | None:
        """The tenant's in-memory vector index (None for a lexical-only engine)."""
        embedder = self.embedder
        if embedder is None:
            return None
        with self.lock:
            index = self._vectors.get(tenant)
            if index is None:
                index = self._vectors[tenant] = VectorIndex(
                    embedder.model_id,
                    embedder.dim,
                    ann_threshold=self.settings.ann_threshold,
                    snapshot=self._snapshot_path(tenant, embedder.model_id),
                )
            return index

    def _snapshot_path(self, tenant: str, model_id: str) -> Path | None:
        """Where a tenant's vector graph is saved: beside a store file (None for other stores)."""
        location = self.backend.location
        if location == ":memory:" or "://" in location:
            return None
        name = hashlib.sha256(f"{tenant}\0{model_id}".encode()).hexdigest()[:16]
        return Path(f"{Path(location).expanduser()}-vectors") / f"{name}.json"

    def close(self) -> None:
        """Save vector graphs that changed since their last save (for the next process)."""
        with self.lock:
            indexes = list(self._vectors.values())
        for index in indexes:
            index.close()

    def memory_graph(self, tenant: str) -> MemoryGraph:
        """The tenant's in-memory entity and episode graph (retrieval/graph.py)."""
        with self.lock:
            graph = self._graphs.get(tenant)
            if graph is None:
                gap_us = int(self.settings.episode_gap_minutes * 60_000_000)
                graph = MemoryGraph(self.settings.graph_mention_weight, gap_us)
                self._graphs[tenant] = graph
            return graph

    def vectors_for(
        self, tx: Tx, texts: Sequence[str], hashes: Sequence[str]
    ) -> list[bytes | None]:
        """Stored-form vectors for texts: reused by content hash when known, embedded otherwise."""
        embedder = self.embedder
        if embedder is None:
            return [None] * len(texts)
        known = tx.embeddings_by_hash(embedder.model_id, hashes)
        missing = [i for i, h in enumerate(hashes) if h not in known]
        fresh = embedder.embed([texts[i] for i in missing]) if missing else None
        result: list[bytes | None] = [known.get(h) for h in hashes]
        for position, index in enumerate(missing):
            assert fresh is not None
            result[index] = to_bytes(fresh[position])
        return result


class MemoryStore:
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

    def _score(self, memory: Memory, now_us: int) -> float:
        days = (now_us - to_micros(memory.last_used)) / MICROS_PER_DAY
        return self.decay.score(memory.use_count, days, memory.strength)

    def _scored(self, memory: Memory, now_us: int) -> Memory:
        memory.score = self._score(memory, now_us)
        return memory

    def _require(self, tx: Tx, memory_id: str) -> Memory:
        limits.check_text(memory_id, "id", 100)
        memory = tx.get_memories([memory_id]).get(memory_id)
        if memory is None:
            raise NotFoundError("memory", memory_id)
        return memory

    # -- writing ------------------------------------------------------------------------------

    def _draft(self, item: dict[str, Any], field_prefix: str = "") -> Draft:
        settings = self.settings
        unknown = set(item) - _SAVE_FIELDS
        if unknown:
            raise InvalidInputError(f"{field_prefix}{sorted(unknown)[0]}", "unknown field")
        content = limits.check_text(
            item.get("content"), f"{field_prefix}content", settings.max_content_chars
        )
        strength = item.get("strength")
        key_parts = [item.get(name) for name in ("subject", "relation", "value")]
        if any(part is not None for part in key_parts) and not all(
            part is not None for part in key_parts
        ):
            raise InvalidInputError(
                f"{field_prefix}subject", "subject, relation and value go together"
            )
        observed = item.get("observed_at")
        return Draft(
            content=content,
            tags=limits.check_tags(item.get("tags"), settings, f"{field_prefix}tags"),
            entities=limits.check_entities(
                item.get("entities"), settings, f"{field_prefix}entities"
            ),
            strength=None
            if strength is None
            else limits.check_strength(strength, f"{field_prefix}strength"),
            source=limits.check_optional_text(item.get("source"), f"{field_prefix}source", 500),
            context=limits.check_optional_text(
                item.get("context"), f"{field_prefix}context", settings.max_content_chars
            ),
            meta=limits.check_meta(item.get("meta"), settings, f"{field_prefix}meta"),
            observed_at=None
            if observed is None
            else parse_time(observed, f"{field_prefix}observed_at"),
            subject=limits.check_optional_text(key_parts[0], f"{field_prefix}subject", 200),
            relation=limits.check_optional_text(key_parts[1], f"{field_prefix}relation", 200),
            value=limits.check_optional_text(key_parts[2], f"{field_prefix}value", 2_000),
            skip_duplicate=bool(item.get("skip_duplicate", False)),
            content_hash=limits.content_hash(content),
            given=frozenset(k for k in ("tags", "entities", "strength") if item.get(k) is not None),
        )

    def _write_draft(
        self, tx: Tx, draft: Draft, now: datetime, vector: bytes | None = None
    ) -> SaveResult:
        now_us = to_micros(now)
        duplicates = tx.find_by_hash(draft.content_hash)
        if duplicates and draft.skip_duplicate:
            existing = tx.get_memories([duplicates[0]])[duplicates[0]]
            return SaveResult(
                id=existing.id,
                memory=self._scored(existing, now_us),
                action="duplicate",
                duplicate_of=existing.id,
                enrichment=draft.enrichment,
            )
        observed = draft.observed_at or now
        key = None
        if draft.subject is not None and draft.relation is not None and draft.value is not None:
            key = (draft.subject, draft.relation, draft.value)
        categories = draft.enrichment.get("entity_categories")  # what kind a value is
        plan = ingest.prepare(
            tx, draft.content, key, observed, self.settings, self._similarity(), categories
        )
        if plan.restates is not None:
            return self._restated(tx, plan.restates, now)
        known = {name.casefold() for name in draft.entities}
        extra = [name for name in plan.entities if name.casefold() not in known]
        draft.entities = (draft.entities + extra)[: self.settings.max_entities]
        memory = Memory(
            id=new_id("mem"),
            tenant=self.tenant,
            content=draft.content,
            content_hash=draft.content_hash,
            tags=draft.tags,
            entities=draft.entities,
            strength=1.0 if draft.strength is None else draft.strength,
            source=draft.source,
            context=draft.context,
            meta=draft.meta,
            created_at=now,
            updated_at=now,
            observed_at=draft.observed_at,
            last_used=now,
            use_count=0,
            review_count=0,
            last_review=None,
            status=MemoryStatus.ACTIVE.value,
        )
        tx.insert_memory(memory)
        self._store_vector(tx, memory.id, draft.content_hash, vector)
        self._link_entities(tx, memory.id, draft.entities, now_us)
        if draft.enrichment:
            enrich.apply(
                tx, memory.id, draft.enrichment, now, self.tenant, exact_duplicate=bool(duplicates)
            )
        tx.log_event("save", now_us, memory.id, {"hash": draft.content_hash[:16]})
        result = SaveResult(id=memory.id, memory=self._scored(memory, now_us))
        if duplicates:
            result.action = "duplicate"
            result.duplicate_of = duplicates[0]
        outcomes = ingest.apply(
            tx, plan, memory.id, observed, now, self.settings, self._similarity()
        )
        result.facts = [o.fact for o in outcomes if o.fact is not None]
        replaced = [f.memory_id for o in outcomes for f in o.superseded if f.memory_id]
        result.superseded = [m for m in dict.fromkeys(replaced) if m != memory.id]
        if result.superseded:
            result.action = "superseded"
        result.enrichment = {**draft.enrichment, **ingest.enrichment(plan, outcomes)}
        if extra:  # names the ledger found, beside those analysis filled in
            filled = result.enrichment.get("entities", [])
            result.enrichment["entities"] = list(dict.fromkeys([*filled, *extra]))
        return result

    def _restated(self, tx: Tx, fact: Fact, now: datetime) -> SaveResult:
        """A save that only repeats a current value: no new memory; the one stating it is used."""
        memory = self._require(tx, str(fact.memory_id))
        tx.update_memory(memory.id, {"use_count": memory.use_count + 1, "last_used": now})
        tx.log_event("restate", to_micros(now), memory.id, {"fact_id": fact.id})
        memory = self._require(tx, memory.id)
        return SaveResult(
            id=memory.id,
            memory=self._scored(memory, to_micros(now)),
            action="unchanged",
            facts=[fact],
        )

    def _similarity(self) -> Similarity:
        """How relation names are compared (embeddings when a model is configured)."""
        return similarity_for(self.engine.embedder)

    def _store_vector(
        self, tx: Tx, memory_id: str, content_hash: str, vector: bytes | None
    ) -> None:
        embedder = self.engine.embedder
        if vector is not None and embedder is not None:
            tx.put_embeddings([(memory_id, embedder.model_id, content_hash, vector, embedder.dim)])

    def _link_entities(self, tx: Tx, memory_id: str, names: Sequence[str], now_us: int) -> None:
        ids = [tx.upsert_entity(name, now=now_us)[0] for name in names]
        tx.link_entities(memory_id, ids)

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
        drafts = []
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                raise InvalidInputError(f"items[{index}]", "must be an object")
            prefix = f"items[{index}]." if len(items) > 1 else ""
            drafts.append(self._draft(item, prefix))
        # Embedding runs before the write transaction: no model runs while the write lock is held.
        with self._read() as tx:
            vectors = self.engine.vectors_for(
                tx, [d.content for d in drafts], [d.content_hash for d in drafts]
            )
        self._enrich(drafts, vectors)
        now = self.now()
        with self._write() as tx:
            results = [
                self._write_draft(tx, draft, now, vector)
                for draft, vector in zip(drafts, vectors, strict=True)
            ]
        return results

    def _store_reader(self) -> enrich.StoreReader:
        engine = self.engine
        return enrich.StoreReader(
            self.tenant, self._read, engine.embedder, engine.vector_index(self.tenant)
        )

    def _enrich(self, drafts: Sequence[Draft], vectors: Sequence[bytes | None]) -> None:
        """Fill left-out entities, tags and strength (analysis/enrich.py), before any write."""
        settings = self.settings
        embedder = self.engine.embedder
        if not settings.analysis_enrich or len(drafts) > settings.analysis_batch_limit:
            return
        view = self._store_reader()
        for draft, blob in zip(drafts, vectors, strict=True):
            if draft.given != {"tags", "entities", "strength"}:
                vector = (
                    None if blob is None or embedder is None else from_bytes(blob, embedder.dim)
                )
                enrich.enrich(self.engine.analyzer, draft, view, settings, vector)

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
            text, turns=analyzer.turns(session, context), view=self._store_reader()
        )
        analyzer.remember_turn(session, findings, text)
        return findings.analysis

    def get(self, memory_id: str) -> Memory:
        """One memory by id (any status), with its score as of now."""
        with self._read() as tx:
            memory = self._require(tx, memory_id)
        return self._scored(memory, to_micros(self.now()))

    def update(self, memory_id: str, **fields: Any) -> Memory:
        """Change some of a memory's fields (content, tags, entities, strength, meta, ...)."""
        unknown = set(fields) - _UPDATE_FIELDS
        if unknown:
            raise InvalidInputError(sorted(unknown)[0], "cannot be updated")
        settings = self.settings
        changes: dict[str, Any] = {}
        if "content" in fields:
            changes["content"] = limits.check_text(
                fields["content"], "content", settings.max_content_chars
            )
            changes["content_hash"] = limits.content_hash(changes["content"])
        if "tags" in fields:
            changes["tags"] = limits.check_tags(fields["tags"], settings)
        if "entities" in fields:
            changes["entities"] = limits.check_entities(fields["entities"], settings)
        if "strength" in fields:
            changes["strength"] = limits.check_strength(fields["strength"])
        if "source" in fields:
            changes["source"] = limits.check_optional_text(fields["source"], "source", 500)
        if "context" in fields:
            changes["context"] = limits.check_optional_text(
                fields["context"], "context", settings.max_content_chars
            )
        if "meta" in fields:
            changes["meta"] = limits.check_meta(fields["meta"], settings)
        if "observed_at" in fields:
            observed = fields["observed_at"]
            changes["observed_at"] = (
                None if observed is None else parse_time(observed, "observed_at")
            )
        vector = None
        if "content" in changes:
            with self._read() as tx:
                before = self._require(tx, memory_id)
                vector = self.engine.vectors_for(
                    tx, [changes["content"]], [changes["content_hash"]]
                )[0]
            if (
                "entities" not in changes
                and settings.analysis_enrich
                and settings.analysis_entities
            ):
                changes["entities"] = enrich.refreshed_entities(
                    before.content, changes["content"], before.entities, settings
                )
        now = self.now()
        with self._write() as tx:
            self._require(tx, memory_id)
            changes["updated_at"] = now
            tx.update_memory(memory_id, changes)
            if "content" in changes:
                self._store_vector(tx, memory_id, changes["content_hash"], vector)
            if "entities" in changes:
                self._link_entities(tx, memory_id, changes["entities"], to_micros(now))
            tx.log_event("update", to_micros(now), memory_id, {"fields": sorted(fields)})
            memory = self._require(tx, memory_id)
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
            memory = self._require(tx, memory_id)
            if memory.status != status:
                tx.update_memory(memory_id, {"status": status, "updated_at": now})
                tx.log_event(event, to_micros(now), memory_id, {"from": memory.status})
                if facts is not None:  # the ledger follows: temporal/withdraw.py
                    facts(tx, memory_id, now)
            memory = self._require(tx, memory_id)
        return self._scored(memory, to_micros(now))

    def forget(self, memory_id: str, *, hard: bool = False) -> Memory | None:
        """Soft-delete a memory (restorable); `hard=True` removes it for good and returns None."""
        if not hard:
            return self._set_status(
                memory_id, MemoryStatus.DELETED.value, "forget", withdraw.forget
            )
        now = self.now()
        now_us = to_micros(now)
        with self._write() as tx:
            self._require(tx, memory_id)
            withdraw.forget(tx, memory_id, now)
            tx.delete_memory(memory_id)
            tx.log_event("purge", now_us, memory_id, {})
        return None

    def restore(self, memory_id: str) -> Memory:
        """Bring back a forgotten or archived memory (promoted again if it has a vault note)."""
        with self._read() as tx:
            memory = self._require(tx, memory_id)
        status = MemoryStatus.PROMOTED.value if memory.vault_path else MemoryStatus.ACTIVE.value
        return self._set_status(memory_id, status, "restore", withdraw.restore)

    def touch(self, memory_id: str, *, boost: bool = False) -> Memory:
        """Count one use now; `boost` also adds strength (+0.1 by default, capped at 2)."""
        now = self.now()
        with self._write() as tx:
            memory = self._require(tx, memory_id)
            changes: dict[str, Any] = {"use_count": memory.use_count + 1, "last_used": now}
            if boost:
                changes["strength"] = min(MAX_STRENGTH, memory.strength + self.settings.touch_boost)
            tx.update_memory(memory_id, changes)
            tx.log_event("touch", to_micros(now), memory_id, {"boost": boost})
            memory = self._require(tx, memory_id)
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
        context_tags = set(_context_tags(context))
        now = self.now()
        now_us = to_micros(now)
        settings = self.settings
        with self._write() as tx:
            found = tx.get_memories(id_list)
            missing = [memory_id for memory_id in id_list if memory_id not in found]
            if missing:
                raise NotFoundError("memory", missing[0])
            for memory in found.values():
                changes: dict[str, Any] = {
                    "use_count": memory.use_count + 1,
                    "review_count": memory.review_count + 1,
                    "last_used": now,
                    "last_review": now,
                }
                tags = set(memory.tags)
                if context_tags and tags:
                    jaccard = len(tags & context_tags) / len(tags | context_tags)
                    if jaccard < settings.cross_domain_jaccard:
                        changes["strength"] = min(
                            MAX_STRENGTH, memory.strength + settings.cross_domain_boost
                        )
                tx.update_memory(memory.id, changes)
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
    ) -> list[SearchHit]:
        """Memories that match `query`, ranked by relevance blended with their temporal score."""
        settings = self.settings
        text = limits.check_text(query, "query", settings.max_query_chars, allow_empty=True)
        now = self.now()
        request = SearchRequest(
            text=text,
            k=limits.check_k(k, settings),
            tags=tuple(limits.check_tags(tags, settings)),
            entity=limits.check_optional_text(entity, "entity", settings.max_entity_chars),
            statuses=_statuses(status),
            since=None
            if window_days is None
            else now - timedelta(days=limits.check_positive(window_days, "window_days")),
            as_of=None if as_of is None else parse_time(as_of, "as_of"),
            include_history=bool(include_history),
            context=limits.check_optional_text(context, "context", settings.max_content_chars),
            explain=bool(explain),
        )
        with self._read() as tx:
            hits = run_search(self, tx, request, now)
        return hits

    def recall(self, prompt: str, *, k: int = 5, context: str | None = None) -> Recall:
        """Memories for a prompt, and a `<recalled-memory>` block ready to inject into a context.

        What is injected costs the agent context, so hits scoring below `recall_floor` times the
        best hit's score (context pulled in by the episode or graph priors) are left out.
        """
        hits = self.search(prompt, k=k, context=context)
        if hits:
            cut = self.settings.recall_floor * hits[0].score
            hits = [hit for hit in hits if hit.score >= cut]
            with self._write() as tx:
                now_us = to_micros(self.now())
                tx.record_usage([hit.memory.id for hit in hits], used=False, at=now_us)
                tx.log_event("recall", now_us, None, {"ids": [hit.memory.id for hit in hits]})
        return Recall(hits=hits, block=recall_block(hits))

    def memories(
        self,
        *,
        limit: int = 50,
        offset: int = 0,
        status: str | Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
    ) -> list[Memory]:
        """Memories, most recently used first, a page at a time (a listing, not a search)."""
        limit = limits.check_k(limit, self.settings, "limit")
        if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset <= 100_000:
            raise InvalidInputError(
                "offset", "must be an integer within [0, 100000]", limit=100_000
            )
        flt = MemoryFilter(
            statuses=_statuses(status), tags=tuple(limits.check_tags(tags, self.settings))
        )
        with self._read() as tx:
            ids = tx.recent_ids(offset + limit, flt)[offset:]
            found = tx.get_memories(ids)
        now_us = to_micros(self.now())
        return [self._scored(found[memory_id], now_us) for memory_id in ids if memory_id in found]

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
        moment = None if as_of is None else parse_time(as_of, "as_of")
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
        """Current, dated facts for the start of a session: the user first, capped at `limit`."""
        limits.check_k(limit, self.settings, "limit")
        with self._read() as tx:
            return reads.profile(tx, limit)

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

    def entities(self, *, limit: int = 100, offset: int = 0) -> list[Entity]:
        """Known entities, alphabetically, a page at a time."""
        with self._read() as tx:
            return tx.list_entities(limit, offset)

    def graph(self, entity: str, *, depth: int = 2) -> Graph:
        """The entity, the memories mentioning it and the relations around it, `depth` hops out."""
        limits.check_text(entity, "entity", self.settings.max_entity_chars)
        if not 1 <= depth <= 4:
            raise InvalidInputError("depth", "must be within [1, 4]", limit=4)
        with self._read() as tx:
            root = tx.find_entity(entity)
            if root is None:
                raise NotFoundError("entity", entity)
            return neighbourhood(tx, root, depth)

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
        now = self.now()
        now_us = to_micros(now)
        with self._write() as tx:
            a = tx.upsert_entity(from_entity, now=now_us)[0]
            b = tx.upsert_entity(to_entity, now=now_us)[0]
            relation = Relation(
                id=new_id("rel"),
                from_kind="entity",
                from_id=a,
                to_kind="entity",
                to_id=b,
                type="_".join(kind.casefold().split()),
                strength=limits.check_strength(strength),
                source_memory=source_memory,
                created_at=now,
                tenant=self.tenant,
            )
            relation.id = tx.insert_relation(relation)
            tx.log_event("relate", now_us, relation.id, {"type": relation.type})
        return relation

    def reindex(self, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """Embed every live memory whose vector is missing, stale or from another model."""
        embedder = self.engine.embedder
        if embedder is None:
            return {"model": None, "embedded": 0}
        done = 0
        with self._read() as tx:
            total = len(tx.stale_embeddings(embedder.model_id, 10_000_000))
        while True:
            with self._read() as tx:
                batch = tx.stale_embeddings(embedder.model_id, 256)
            if not batch:
                break
            vectors = embedder.embed([content for _, content, _ in batch])
            with self._write() as tx:
                tx.put_embeddings(
                    [
                        (memory_id, embedder.model_id, content_hash, to_bytes(vector), embedder.dim)
                        for (memory_id, _, content_hash), vector in zip(batch, vectors, strict=True)
                    ]
                )
            done += len(batch)
            if progress is not None:
                progress(done, total)
        return {"model": embedder.model_id, "embedded": done}

    def stats(self) -> dict[str, Any]:
        """Counts, score distribution and configuration at a glance."""
        now_us = to_micros(self.now())
        with self._read() as tx:
            counts = tx.count_memories()
            rows = tx.temporal_rows(MemoryFilter(statuses=LIVE_STATUSES))
            tables = tx.table_counts()
            open_reviews = len(tx.list_reviews("open", 10_000))
        scores = gc_mod.score_rows(rows, self.decay, now_us)
        tag_counts: dict[str, int] = {}
        for row in rows:
            for tag in row.tags:
                tag_counts[tag] = tag_counts.get(tag, 0) + 1
        settings = self.settings
        return {
            "tenant": self.tenant,
            "memories": {"total": sum(counts.values()), **counts},
            "entities": tables["entities"],
            "relations": tables["relations"],
            "facts": tables["facts"],
            "open_reviews": open_reviews,
            "score": {
                "mean": float(scores.mean()) if len(scores) else 0.0,
                "danger_zone": int(
                    (
                        (scores >= settings.danger_zone_low) & (scores <= settings.danger_zone_high)
                    ).sum()
                ),
                "below_forget_threshold": int((scores < settings.forget_threshold).sum()),
            },
            "top_tags": sorted(tag_counts.items(), key=lambda item: (-item[1], item[0]))[:10],
            "decay_curve": settings.decay_curve,
            "embed_model": settings.embed_model,
            "store": self.backend.info(),
        }

    # -- lifecycle ----------------------------------------------------------------------------

    def gc(self, *, dry_run: bool = True, hard: bool = False) -> GcReport:
        """Archive memories below the forget threshold (`hard` deletes them); dry run by default."""
        now_us = to_micros(self.now())
        with self._write() as tx:
            report = gc_mod.collect(
                tx,
                self.decay,
                now_us,
                self.settings.forget_threshold,
                dry_run=dry_run,
                hard=hard,
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
        now = self.now()
        now_us = to_micros(now)
        with self._read() as tx:
            if memory_id is not None:
                chosen = [self._scored(self._require(tx, memory_id), now_us)]
            else:
                live = tx.iter_memories(MemoryFilter(statuses=(MemoryStatus.ACTIVE.value,)))
                chosen = [
                    memory
                    for memory in (self._scored(m, now_us) for m in live)
                    if promote_mod.qualifies(memory, memory.score, now, self.settings)
                ]
        candidates = [
            ScoredMemory(m.id, gc_mod.preview(m.content), m.score, m.use_count) for m in chosen
        ]
        notes: dict[str, str] = {}
        if not dry_run:
            vault = self.settings.vault_path
            for memory in chosen:
                path = promote_mod.write_note(memory, memory.score, vault)
                notes[memory.id] = str(path)
            with self._write() as tx:
                for memory_id_, path_text in notes.items():
                    tx.update_memory(
                        memory_id_,
                        {"status": MemoryStatus.PROMOTED.value, "vault_path": path_text},
                    )
                    tx.log_event("promote", now_us, memory_id_, {"path": path_text})
        return PromoteReport(dry_run=dry_run, candidates=candidates, notes=notes)

    def cluster(self, *, threshold: float | None = None, limit: int = 50) -> list[Cluster]:
        """Groups of similar live memories; ids are stable for the same members."""
        cut = self.settings.cluster_threshold if threshold is None else threshold
        if not 0.0 < cut <= 1.0:
            raise InvalidInputError("threshold", "must be within (0, 1]", limit=1.0)
        with self._read() as tx:
            rows = tx.temporal_rows(MemoryFilter(statuses=LIVE_STATUSES))
        ids = [row.id for row in rows]
        vectors = self._similarity_vectors(ids, [row.content for row in rows])
        previews = {row.id: gc_mod.preview(row.content, 60) for row in rows}
        return [
            Cluster(cluster_id(members), members, cohesion, [previews[m] for m in members])
            for members, cohesion in group(ids, vectors, cut)[:limit]
        ]

    def _similarity_vectors(self, ids: Sequence[str], texts: Sequence[str]) -> Any:
        """Unit vectors to compare memories: their embeddings, or hashed TF-IDF without a model."""
        embedder = self.engine.embedder
        if embedder is None or not texts:
            return lexical_vectors(texts)
        with self._read() as tx:
            blobs = self.engine.vectors_for(tx, texts, [content_hash(t) for t in texts])
        return np.stack([from_bytes(blob, embedder.dim) for blob in blobs if blob is not None])

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
        with self._read() as tx:
            found = tx.get_memories(match.member_ids)
            members = [found[m] for m in match.member_ids if m in found]
            text = merge_text(members)
            vector = (
                None if dry_run else self.engine.vectors_for(tx, [text], [content_hash(text)])[0]
            )
        now = self.now()
        with self._write() as tx:
            found = tx.get_memories(match.member_ids)
            members = [found[m] for m in match.member_ids if m in found]
            result = ConsolidateResult(
                cluster_id=cluster,
                dry_run=dry_run,
                content=merge_text(members),
                tags=union([m.tags for m in members])[: self.settings.max_tags],
                entities=union([m.entities for m in members])[: self.settings.max_entities],
                source_ids=[m.id for m in members],
            )
            if not dry_run:
                result.memory_id = self._merge(tx, members, result, now, vector)
        return result

    def _merge(
        self,
        tx: Tx,
        members: list[Memory],
        result: ConsolidateResult,
        now: datetime,
        vector: bytes | None,
    ) -> str:
        now_us = to_micros(now)
        observed = [m.observed_at for m in members if m.observed_at is not None]
        merged = Memory(
            id=new_id("mem"),
            tenant=self.tenant,
            content=result.content,
            content_hash=content_hash(result.content),
            tags=result.tags,
            entities=result.entities,
            strength=max(m.strength for m in members),
            source="consolidation",
            context=None,
            meta={"consolidated_from": result.source_ids},
            created_at=now,
            updated_at=now,
            observed_at=min(observed) if observed else None,
            last_used=max(m.last_used for m in members),
            use_count=sum(m.use_count for m in members),
            review_count=sum(m.review_count for m in members),
            last_review=None,
            status=MemoryStatus.ACTIVE.value,
        )
        tx.insert_memory(merged)
        self._store_vector(tx, merged.id, merged.content_hash, vector)
        self._link_entities(tx, merged.id, merged.entities, now_us)
        for member in members:
            tx.insert_relation(
                Relation(
                    id=new_id("rel"),
                    from_kind="memory",
                    from_id=merged.id,
                    to_kind="memory",
                    to_id=member.id,
                    type="consolidated_from",
                    strength=1.0,
                    source_memory=merged.id,
                    created_at=now,
                    tenant=self.tenant,
                )
            )
            tx.update_memory(
                member.id,
                {
                    "status": MemoryStatus.ARCHIVED.value,
                    "meta": {**member.meta, "consolidated_into": merged.id},
                    "updated_at": now,
                },
            )
        tx.log_event("consolidate", now_us, merged.id, {"from": result.source_ids})
        return merged.id

    # -- export and lifetime --------------------------------------------------------------------

    def export(self) -> Iterator[str]:
        """This tenant as JSONL lines (no newlines): lossless, importable with `import_lines`."""
        with self._read() as tx:
            yield from jsonl.export_lines(tx)

    def import_lines(
        self, lines: Iterable[str], progress: Callable[[int], None] | None = None
    ) -> dict[str, int]:
        """Import an export into this tenant in one transaction (all or nothing)."""
        with self._write() as tx:
            return jsonl.import_lines(tx, lines, progress)

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


def _statuses(status: str | Sequence[str] | None) -> tuple[str, ...]:
    if status is None:
        return LIVE_STATUSES
    chosen = [status] if isinstance(status, str) else list(status)
    valid = {s.value for s in MemoryStatus}
    for item in chosen:
        if item not in valid:
            raise InvalidInputError("status", f"must be one of {', '.join(sorted(valid))}")
    return tuple(chosen)


def _context_tags(context: str | Sequence[str] | None) -> list[str]:
    if context is None:
        return []
    if isinstance(context, str):
        return [limits.normalize_tag(word) for word in lexical.query_terms(context)]
    return [limits.normalize_tag(tag) for tag in context if isinstance(tag, str)]


def recall_block(hits: Sequence[SearchHit]) -> str:
    """The text injected into an agent's context: dated, tagged, one memory per line."""
    if not hits:
        return ""
    lines = ["<recalled-memory>"]
    for hit in hits:
        memory = hit.memory
        when = (memory.observed_at or memory.created_at).date().isoformat()
        tags = f" [{', '.join(memory.tags)}]" if memory.tags else ""
        text = " ".join(memory.content.split())
        lines.append(f"- ({when}) {text}{tags} (id: {memory.id})")
    lines.append("</recalled-memory>")
    return "\n".join(lines)
