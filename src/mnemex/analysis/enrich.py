"""Save-path enrichment: fill what the caller left out, then write relations with the memory.

`enrich()` runs on each draft before the write transaction (models never run under the write
lock); `apply()` runs inside it and writes what enrichment found: entity categories, relationship
edges (with the memory as their source), attributes on entities, and a merge review for a near
duplicate. Neither ever fails a save: errors are logged and recorded in the draft's enrichment.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, Protocol

from mnemex.analysis import entities
from mnemex.analysis.analyze import Analyzer, Vector
from mnemex.analysis.intent import SAVE_INTENTS
from mnemex.clock import to_micros
from mnemex.config import Settings
from mnemex.embed import Embedder, from_bytes
from mnemex.limits import normalize_tag
from mnemex.models import LIVE_STATUSES, Entity, Relation, Review, new_id
from mnemex.retrieval.vector import VectorIndex
from mnemex.store.base import MemoryFilter, Tx
from mnemex.text import normalize_name, query_terms

log = logging.getLogger(__name__)
SIMILAR_CANDIDATES = 8
NEAREST = 5
SUMMARY_CHARS = 500
CATEGORY_BY_LABEL = {
    "PERSON": "person",
    "ORG": "organization",
    "TECH": "technology",
    "PRODUCT": "product",
    "GPE": "place",
    "LOC": "place",
    "FAC": "place",
    "EVENT": "event",
    "WORK_OF_ART": "work",
    "LANGUAGE": "language",
}


class Enrichable(Protocol):
    """The fields of a save draft that enrichment reads and fills."""

    content: str
    tags: list[str]
    entities: list[str]
    strength: float | None
    given: frozenset[str]
    enrichment: dict[str, Any]
    kind: str


class StoreReader:
    """A StoreView over a backend: each method opens one short read transaction."""

    def __init__(
        self,
        tenant: str,
        read: Callable[[], AbstractContextManager[Tx]],
        embedder: Embedder | None,
        index: VectorIndex | None,
    ) -> None:
        self.tenant = tenant
        self._read = read
        self._embedder = embedder
        self._index = index

    def entities(self, names: Sequence[str]) -> dict[str, Entity]:
        """Stored entities by the given names or aliases (case-insensitive)."""
        found: dict[str, Entity] = {}
        with self._read() as tx:
            for name in dict.fromkeys(names):
                entity = tx.find_entity(name)
                if entity is not None and entity.expired_at is None:
                    found[name] = entity
        return found

    def similar(self, text: str, vector: Vector | None) -> list[tuple[str, str, Vector | None]]:
        """Candidate duplicates: BM25 top hits and nearest vectors, with their stored vectors."""
        terms = query_terms(text)
        with self._read() as tx:
            hits = tx.lexical_search(terms, SIMILAR_CANDIDATES, MemoryFilter()) if terms else []
            ids = [memory_id for memory_id, _ in hits]
            if self._index is not None and vector is not None:
                self._index.sync(tx)
                ids += [memory_id for memory_id, _ in self._index.search(vector, NEAREST)]
            memories = tx.get_memories(list(dict.fromkeys(ids)))
            blobs: dict[str, bytes] = {}
            if self._embedder is not None and vector is not None:
                blobs = tx.live_embeddings(list(memories), self._embedder.model_id)
        out: list[tuple[str, str, Vector | None]] = []
        for memory in memories.values():
            if memory.status not in LIVE_STATUSES:
                continue
            blob = blobs.get(memory.id)
            other = None
            if blob is not None and self._embedder is not None:
                other = from_bytes(blob, self._embedder.dim)
            out.append((memory.id, memory.content, other))
        return out

    def tags(self) -> list[str]:
        """Every tag used by a live memory."""
        with self._read() as tx:
            rows = tx.temporal_rows(MemoryFilter())
        return sorted({tag for row in rows for tag in row.tags})


def enrich(
    analyzer: Analyzer,
    draft: Enrichable,
    view: StoreReader,
    settings: Settings,
    vector: Vector | None = None,
) -> None:
    """Fill entities, tags and strength the caller left out; note what was filled.

    `vector` is the content's embedding when the save path already computed it.
    """
    try:
        findings = analyzer.run(draft.content, view=view, always_tag=True, vector=vector)
    except Exception as exc:  # enrichment never fails a save
        log.warning("enrichment failed: %s", exc, exc_info=True)
        draft.enrichment["errors"] = [f"analysis: {type(exc).__name__}: {exc}"]
        return
    result = findings.analysis
    filled: dict[str, Any] = {
        "intent": result.intent,
        "confidence": result.confidence,
        # The seam to the fact ledger (issue 4): whether this memory states a fact, preference,
        # decision or correction worth extracting triples from.
        "fact_like": result.intent in SAVE_INTENTS
        and result.confidence >= settings.analysis_save_threshold,
        "kind": result.kind,
    }
    draft.kind = result.kind
    named = [m for m in findings.mentions if m.named]
    if "entities" not in draft.given and named and settings.analysis_entities:
        names = [m.text[: settings.max_entity_chars] for m in named][: settings.max_entities]
        draft.entities = names
        filled["entities"] = names
        filled["entity_categories"] = {
            m.text: CATEGORY_BY_LABEL[m.label] for m in named if m.label in CATEGORY_BY_LABEL
        }
    if "tags" not in draft.given and result.tags and settings.analysis_tags:
        cleaned = [normalize_tag(t)[: settings.max_tag_chars] for t in result.tags]
        draft.tags = list(dict.fromkeys(t for t in cleaned if t))[: settings.max_tags]
        filled["tags"] = draft.tags
    analyzer.vocabulary(view).add(draft.tags)
    if draft.strength is None and settings.analysis_importance:
        draft.strength = result.strength
        filled["strength"] = result.strength
    if result.relations:
        filled["relations"] = result.relations
    if result.duplicate_of is not None:
        filled["near_duplicate"] = {"id": result.duplicate_of, "similarity": result.duplicate_score}
    if result.errors:
        filled["errors"] = list(result.errors)
    draft.enrichment.update(filled)


def refreshed_entities(
    old_text: str, new_text: str, old_entities: Sequence[str], settings: Settings
) -> list[str]:
    """A memory's entities after its text was edited.

    Names the old text mentioned and the new one does not are dropped; names never in the text
    (given by the caller) stay; names the new text mentions join.
    """

    def mentioned(name: str, text: str) -> bool:
        return normalize_name(name) in normalize_name(text)

    kept = [e for e in old_entities if mentioned(e, new_text) or not mentioned(e, old_text)]
    found = entities.extract(new_text, use_spacy=settings.analysis_spacy)
    names = kept + [m.text[: settings.max_entity_chars] for m in found if m.named]
    unique = {normalize_name(name): name for name in reversed(names)}
    return list(reversed(unique.values()))[: settings.max_entities]


def apply(
    tx: Tx,
    memory_id: str,
    enrichment: dict[str, Any],
    now: datetime,
    tenant: str,
    *,
    exact_duplicate: bool = False,
) -> None:
    """Write what enrichment found, inside the save's transaction; failures are logged only."""
    now_us = to_micros(now)
    try:
        for name, category in enrichment.get("entity_categories", {}).items():
            tx.upsert_entity(name, category=category, now=now_us)
        for found in enrichment.get("relations", []):
            if found["kind"] == "relationship":
                _edge(tx, memory_id, found, now, now_us, tenant)
            else:
                _attribute(tx, found, now, now_us)
        near = enrichment.get("near_duplicate")
        if near is not None and not exact_duplicate:
            _review(tx, memory_id, near, now, tenant)
    except Exception as exc:
        log.warning("writing enrichment of %s failed: %s", memory_id, exc, exc_info=True)
        enrichment.setdefault("errors", []).append(f"apply: {type(exc).__name__}: {exc}")


def _edge(
    tx: Tx, memory_id: str, found: dict[str, Any], now: datetime, now_us: int, tenant: str
) -> None:
    a = tx.upsert_entity(found["subject"], now=now_us)[0]
    b = tx.upsert_entity(found["object"], now=now_us)[0]
    if a == b:
        return
    tx.insert_relation(
        Relation(
            id=new_id("rel"),
            from_kind="entity",
            from_id=a,
            to_kind="entity",
            to_id=b,
            type=found["type"],
            strength=1.0,
            source_memory=memory_id,
            created_at=now,
            meta={"source": "analysis", "tags": found.get("tags", [])},
            tenant=tenant,
        )
    )


def _attribute(tx: Tx, found: dict[str, Any], now: datetime, now_us: int) -> None:
    entity_id = tx.upsert_entity(found["subject"], now=now_us)[0]
    entity = tx.get_entities([entity_id])[entity_id]
    line = found["value"] if found["type"] == "is" else f"{found['type']} {found['value']}"
    changes: dict[str, Any] = {}
    new_tags = [t for t in found.get("tags", []) if t not in entity.tags]
    if new_tags:
        changes["tags"] = entity.tags + new_tags
    summary = entity.summary or ""
    if line.casefold() not in summary.casefold():
        changes["summary"] = (f"{summary}; {line}" if summary else line)[:SUMMARY_CHARS]
    if changes:
        tx.update_entity(entity_id, changes)


def _review(tx: Tx, memory_id: str, near: dict[str, Any], now: datetime, tenant: str) -> None:
    tx.insert_review(
        Review(
            id=new_id("rev"),
            kind="merge",
            payload={"memory": memory_id, "similar_to": near["id"], "source": "analysis"},
            confidence=float(near["similarity"] or 0.0),
            status="open",
            created_at=now,
            tenant=tenant,
        )
    )
