"""The write path: check input, enrich, embed, then write the memory, its links and its facts.

Models (embedding, analysis) run before the write transaction, so no model runs while the
store's write lock is held; `write_draft` then does only database work. The values and relation
names the ledger's planning compares are embedded beforehand too (`read_statements`, which runs
while the texts embed on helper threads); only one the planning turns up from the ledger itself
(a value read off a known key) is embedded later.
Those phrase vectors are kept in the store (ledger/phrases.py), so the next process reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from mnemex import limits
from mnemex.analysis import canon, enrich, parsing
from mnemex.clock import system_clock, to_micros
from mnemex.config import Settings
from mnemex.decay import reinforce
from mnemex.decay.kinds import KINDS, NOTE
from mnemex.embed import from_bytes
from mnemex.engine import Engine, require
from mnemex.errors import InvalidInputError
from mnemex.graph import backlink, upkeep
from mnemex.ledger import assertion
from mnemex.ledger import save as ledger
from mnemex.ledger.extract import Extraction, names_own_key
from mnemex.models import (
    LIVE_STATUSES,
    PIN_TAG,
    Fact,
    Memory,
    MemoryStatus,
    SaveResult,
    new_id,
)
from mnemex.store.base import Tx

SAVE_FIELDS = frozenset(
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
UPDATE_FIELDS = frozenset(
    {"content", "tags", "entities", "strength", "source", "context", "meta", "observed_at", "kind"}
)
_ENRICHABLE = frozenset({"tags", "entities", "strength"})
MAX_SOURCE_CHARS = 500


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
    statements: Extraction | None = None  # what the ledger reads of it (see read_statements)
    kind: str = NOTE  # what it is (decay/kinds.py), from enrichment; sets its half-life

    @property
    def key(self) -> tuple[str, str, str] | None:
        """(subject, relation, value) of a keyed write."""
        if self.subject is None or self.relation is None or self.value is None:
            return None
        return (self.subject, self.relation, self.value)


def draft_from(
    item: dict[str, Any], settings: Settings, prefix: str = "", now: datetime | None = None
) -> Draft:
    """A checked Draft from save's keyword arguments; errors name the field (with `prefix`).

    `now` (the store's clock) bounds observed_at: no later than a day ahead of it."""
    unknown = set(item) - SAVE_FIELDS
    if unknown:
        raise InvalidInputError(f"{prefix}{sorted(unknown)[0]}", "unknown field")
    content = limits.check_text(item.get("content"), f"{prefix}content", settings.max_content_chars)
    strength = item.get("strength")
    key_parts = [item.get(name) for name in ("subject", "relation", "value")]
    if any(part is not None for part in key_parts) and None in key_parts:
        raise InvalidInputError(f"{prefix}subject", "subject, relation and value go together")
    observed = item.get("observed_at")
    return Draft(
        content=content,
        tags=limits.check_tags(item.get("tags"), settings, f"{prefix}tags"),
        entities=limits.check_entities(item.get("entities"), settings, f"{prefix}entities"),
        strength=None if strength is None else limits.check_strength(strength, f"{prefix}strength"),
        source=limits.check_optional_text(item.get("source"), f"{prefix}source", MAX_SOURCE_CHARS),
        context=limits.check_optional_text(
            item.get("context"), f"{prefix}context", settings.max_content_chars
        ),
        meta=limits.check_meta(item.get("meta"), settings, f"{prefix}meta"),
        observed_at=None
        if observed is None
        else limits.check_observed_at(observed, now or system_clock(), f"{prefix}observed_at"),
        subject=limits.check_optional_text(key_parts[0], f"{prefix}subject", 200),
        relation=limits.check_optional_text(key_parts[1], f"{prefix}relation", 200),
        value=limits.check_optional_text(key_parts[2], f"{prefix}value", 2_000),
        skip_duplicate=bool(item.get("skip_duplicate", False)),
        content_hash=limits.content_hash(content),
        given=frozenset(k for k in _ENRICHABLE if item.get(k) is not None),
    )


def checked_changes(
    fields: dict[str, Any], settings: Settings, now: datetime | None = None
) -> dict[str, Any]:
    """update()'s fields checked and in storage form (a new text brings its new hash)."""
    unknown = set(fields) - UPDATE_FIELDS
    if unknown:
        raise InvalidInputError(sorted(unknown)[0], "cannot be updated")
    changes: dict[str, Any] = {}
    if "content" in fields:
        changes["content"] = limits.check_text(
            fields["content"], "content", settings.max_content_chars
        )
        changes["content_hash"] = limits.content_hash(changes["content"])
    if "tags" in fields:
        changes["tags"] = limits.check_tags(fields["tags"], settings)
        changes["pinned"] = PIN_TAG in changes["tags"]  # the tag and the column agree
    if "entities" in fields:
        changes["entities"] = limits.check_entities(fields["entities"], settings)
    if "strength" in fields:
        changes["strength"] = limits.check_strength(fields["strength"])
    if "source" in fields:
        changes["source"] = limits.check_optional_text(fields["source"], "source", MAX_SOURCE_CHARS)
    if "context" in fields:
        changes["context"] = limits.check_optional_text(
            fields["context"], "context", settings.max_content_chars
        )
    if "meta" in fields:
        changes["meta"] = limits.check_meta(fields["meta"], settings)
    if "kind" in fields:
        if fields["kind"] not in KINDS:
            raise InvalidInputError("kind", f"must be one of {', '.join(KINDS)}")
        changes["kind"] = fields["kind"]
    if "observed_at" in fields:
        observed = fields["observed_at"]
        changes["observed_at"] = (
            None if observed is None else limits.check_observed_at(observed, now or system_clock())
        )
    return changes


def save_many(
    engine: Engine,
    tenant: str,
    items: Sequence[Any],
    after: Callable[[Tx, list[SaveResult]], None] | None = None,
) -> list[SaveResult]:
    """Save checked items in one write transaction; all are checked before any is written, and
    every model (embedding, analysis, phrase vectors) runs before the write lock is taken.
    `after` runs in the same transaction with the results (ingest writes its sync state so)."""
    drafts = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise InvalidInputError(f"items[{index}]", "must be an object")
        prefix = f"items[{index}]." if len(items) > 1 else ""
        drafts.append(draft_from(item, engine.settings, prefix, engine.clock()))
    with engine.phrases.collecting() as phrases:
        with engine.backend.read(tenant) as tx:
            vectors_of = engine.vectors_soon(
                tx, [d.content for d in drafts], [d.content_hash for d in drafts]
            )
            readings = engine.readings_soon(tx, [d.content for d in drafts])
            read_statements(engine, tx, drafts)  # while the texts embed and are read
            vectors = vectors_of()
        enrich_drafts(engine, engine.store_reader(tenant), drafts, vectors)
        readings.wait()
        now = engine.clock()
        with engine.backend.write(tenant) as tx, engine.phrases.reading(tx):
            results = [
                write_draft(engine, tenant, tx, draft, now, vector)
                for draft, vector in zip(drafts, vectors, strict=True)
            ]
            engine.phrases.keep(tx, phrases)
            readings.keep(tx, {d.content for d in drafts if _reads_as_change(d)})
            if after is not None:
                after(tx, results)
            return results


def enrich_drafts(
    engine: Engine,
    view: enrich.StoreReader,
    drafts: Sequence[Draft],
    vectors: Sequence[bytes | None],
) -> None:
    """Fill left-out entities, tags and strength (analysis/enrich.py), before any write."""
    settings = engine.settings
    embedder = engine.embedder
    if not settings.analysis_enrich or len(drafts) > settings.analysis_batch_limit:
        return
    for draft, blob in zip(drafts, vectors, strict=True):
        if draft.given != _ENRICHABLE:
            vector = None if blob is None or embedder is None else from_bytes(blob, embedder.dim)
            enrich.enrich(engine.analyzer, draft, view, settings, vector)


def read_statements(engine: Engine, tx: Tx, drafts: Sequence[Draft]) -> None:
    """Read what each draft states for the ledger, and embed what choosing its facts' keys will
    compare, in one batch before the write lock (see the module's note on what is left); what
    the store kept of earlier embeddings is read instead."""
    settings = engine.settings
    for draft in drafts:
        draft.statements = ledger.statements(draft.content, draft.key, settings)
    read = [draft.statements for draft in drafts if draft.statements is not None]
    if settings.analysis_spacy and settings.ledger_parse:
        ledger.read_cores(read, parsing.dependencies)
    with engine.phrases.reading(tx):
        ledger.warm(tx, read, engine.similarity())


def store_vector(
    engine: Engine, tx: Tx, memory_id: str, content_hash: str, vector: bytes | None
) -> None:
    """Keep a memory's vector with the model id and the hash of the text it was made from."""
    embedder = engine.embedder
    if vector is not None and embedder is not None:
        tx.put_embeddings([(memory_id, embedder.model_id, content_hash, vector, embedder.dim)])


def link_entities(tx: Tx, memory_id: str, names: Sequence[str], now_us: int) -> list[str]:
    """Make the memory's entity links exactly these names (entities created as needed); the ids
    of the entities it created."""
    made = [tx.upsert_entity(name, now=now_us) for name in names]
    tx.link_entities(memory_id, [entity_id for entity_id, _ in made])
    return [entity_id for entity_id, new in made if new]


def _write_enrichment(
    tx: Tx, memory_id: str, draft: Draft, now: datetime, tenant: str, duplicate: bool
) -> None:
    """What analysis found (categories, aliases, relations), and the nodes it merged."""
    if not draft.enrichment:
        return
    enrich.apply(tx, memory_id, draft.enrichment, now, tenant, exact_duplicate=duplicate)
    merged = upkeep.fold_aliases(tx, draft.enrichment.get("entity_aliases", {}), now)
    if merged:  # nodes this memory showed to be another name of its entities
        draft.enrichment["merged_entities"] = merged


def _reads_as_change(draft: Draft) -> bool:
    """True when the ledger read a change from one value to another, or a correction, in an
    unkeyed draft ("switched from Vim to Helix", "X's editor is Emacs, not Vim")."""
    read = draft.statements.triples if draft.statements is not None else []
    return draft.key is None and any(
        t.correction or (t.previous is not None and not t.negated) for t in read
    )


def value_categories(enrichment: dict[str, Any]) -> dict[str, str] | None:
    """The categories the ledger reads as evidence of what kind a value is.

    An unsure vote of the category model rests on the name's context ("moved to Globex": a
    place, at 0.27), which the ledger's verb prior already weighs; counted twice it outvotes the
    subject's own keys (Bob's employer). Where such a vote won (enrich.VALUE_KIND_SURE), the
    ledger sees what the rules said of the name, or nothing; a sure vote stands ("moved to
    Lyon": a place at 0.70, where spaCy said ORG).
    """
    categories = enrichment.get("entity_categories")
    without = enrichment.get("categories_without_model")
    if categories is None or not without:
        return categories
    kept = {name: c for name, c in categories.items() if name not in without}
    kept.update({name: c for name, c in without.items() if c is not None})
    return kept


def _only_mentions(engine: Engine, draft: Draft, vector: bytes | None) -> bool:
    """True when an unkeyed sentence only mentions values (the assertion model's veto): it is
    saved, but it writes no fact, so "Dana's brother wants a Tesla" never supersedes her car."""
    embedder, floor = engine.embedder, engine.settings.assertion_veto
    if draft.key is not None or vector is None or embedder is None or floor <= 0:
        return False
    if len(draft.content) > ledger.WHOLE_ANCHOR:  # a document: its clauses are read one by one
        return False
    read = draft.statements.triples if draft.statements is not None else []
    if any(t.correction or t.negated or t.previous for t in read):
        return False  # "Bob's editor is Emacs, not Vim": a form the model was not trained on
    if any(names_own_key(t) for t in read):
        return False  # "My husband's name is Antoine": the model reads a relative's statement
    return bool(assertion.probabilities([assertion.own_subject(draft.content)])[0] < floor)


def write_draft(
    engine: Engine, tenant: str, tx: Tx, draft: Draft, now: datetime, vector: bytes | None
) -> SaveResult:
    """Write one checked, enriched draft: the memory, its vector, entities, edges and facts."""
    now_us = to_micros(now)
    settings = engine.settings
    duplicates = tx.find_by_hash(draft.content_hash)
    if duplicates and draft.skip_duplicate:
        existing = tx.get_memories([duplicates[0]])[duplicates[0]]
        return SaveResult(
            id=existing.id,
            memory=engine.scored(existing, now_us),
            action="duplicate",
            duplicate_of=existing.id,
            enrichment=draft.enrichment,
        )
    observed = draft.observed_at or now
    categories = value_categories(draft.enrichment)  # what kind a value is
    plan = (
        ledger.Plan()
        if _only_mentions(engine, draft, vector)
        else ledger.prepare(
            tx,
            draft.content,
            draft.key,
            observed,
            settings,
            engine.similarity(),
            categories,
            draft.statements,
        )
    )
    if plan.restates is not None and not duplicates:  # the same words again fold as a repeat
        return _restated(engine, tx, plan.restates, now)
    known = {name.casefold() for name in draft.entities}
    extra = [
        name
        for name in plan.entities
        if name.casefold() not in known and (canon.nameworthy(name) or tx.find_entity(name))
    ]
    draft.entities = (draft.entities + extra)[: settings.max_entities]
    if "entities" not in draft.given:
        said = draft.entities
        draft.entities = enrich.canonical_names(
            tx,
            said,
            draft.enrichment.get("entity_categories", {}),
            now_us,
            draft.enrichment.get("entity_described"),
        )
        renamed = {a: b for a, b in zip(said, draft.entities, strict=True) if a != b}
        if renamed:
            draft.enrichment["canonical"] = renamed
            plan.rename(renamed)
        # "Leila" and "Leila Karimi" in one sentence are one entity once canonical: named once
        draft.entities = list(dict.fromkeys(draft.entities))
    memory = new_memory(tenant, draft, now)
    repeated = _repeated(tx, draft, duplicates, settings)
    if repeated is not None:  # folds into the memory it repeats, which counts a use
        memory.duplicate_of = repeated.id
        tx.update_memory(repeated.id, reinforce.repeated(repeated, now, settings))
    tx.insert_memory(memory)
    store_vector(engine, tx, memory.id, draft.content_hash, vector)
    created = link_entities(tx, memory.id, draft.entities, now_us)
    _write_enrichment(tx, memory.id, draft, now, tenant, bool(duplicates))
    if created:  # names written before anything recognised them ("a note on healthroster")
        backlink.link_earlier(tx, memory.id, list(tx.get_entities(created).values()))
    tx.log_event("save", now_us, memory.id, {"hash": draft.content_hash[:16]})
    result = SaveResult(id=memory.id, memory=engine.scored(memory, now_us))
    if repeated is not None:
        result.action = "duplicate"
        result.duplicate_of = repeated.id
    outcomes = ledger.apply(tx, plan, memory.id, observed, now, settings, engine.similarity())
    result.facts = [o.fact for o in outcomes if o.fact is not None]
    replaced = [f.memory_id for o in outcomes for f in o.superseded if f.memory_id]
    result.superseded = [m for m in dict.fromkeys(replaced) if m != memory.id]
    if result.superseded:
        result.action = "superseded"
    result.enrichment = {**draft.enrichment, **ledger.enrichment(plan, outcomes)}
    if extra:  # names the ledger found, beside those analysis filled in
        filled = result.enrichment.get("entities", [])
        result.enrichment["entities"] = list(dict.fromkeys([*filled, *extra]))
    return result


def _repeated(tx: Tx, draft: Draft, exact: Sequence[str], settings: Settings) -> Memory | None:
    """The live memory a draft repeats: an exact duplicate, or a near one at or above the
    dedup checker's merge threshold; the one it itself repeats, if it is a duplicate too."""
    near = draft.enrichment.get("near_duplicate") or {}
    candidates = list(exact)
    if not candidates and float(near.get("similarity") or 0.0) >= settings.dedup_merge:
        candidates = [str(near["id"])]
    found = tx.get_memories(candidates)
    for memory_id in candidates:
        memory = found.get(memory_id)
        if memory is None or memory.status not in LIVE_STATUSES:
            continue
        if memory.duplicate_of is not None:
            root = tx.get_memories([memory.duplicate_of]).get(memory.duplicate_of)
            if root is not None and root.status in LIVE_STATUSES:
                return root
        return memory
    return None


def new_memory(
    tenant: str,
    draft: Draft,
    now: datetime,
    *,
    use_count: int = 0,
    review_count: int = 0,
    last_used: datetime | None = None,
) -> Memory:
    """The record of a checked draft: the one constructor of a new memory (a save, a merge)."""
    return Memory(
        id=new_id("mem"),
        tenant=tenant,
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
        last_used=last_used or now,
        use_count=use_count,
        review_count=review_count,
        last_review=None,
        status=MemoryStatus.ACTIVE.value,
        kind=draft.kind,
        pinned=PIN_TAG in draft.tags,
    )


def _restated(engine: Engine, tx: Tx, fact: Fact, now: datetime) -> SaveResult:
    """A save that only repeats a current value: no new memory; the one stating it is used."""
    memory = require(tx, str(fact.memory_id))
    tx.update_memory(memory.id, {"use_count": memory.use_count + 1, "last_used": now})
    tx.log_event("restate", to_micros(now), memory.id, {"fact_id": fact.id})
    memory = require(tx, memory.id)
    return SaveResult(
        id=memory.id,
        memory=engine.scored(memory, to_micros(now)),
        action="unchanged",
        facts=[fact],
    )
