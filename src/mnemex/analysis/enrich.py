"""Save-path enrichment: fill what the caller left out, then write relations with the memory.

`enrich()` runs on each draft before the write transaction (models never run under the write
lock); `apply()` runs inside it and writes what enrichment found: entity categories, relationship
edges (with the memory as their source), attributes on entities, and a merge review for a near
duplicate. Neither ever fails a save: errors are logged and recorded in the draft's enrichment.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, Protocol

from mnemex.analysis import canon, described, entities, portrait
from mnemex.analysis import categories as category_model
from mnemex.analysis.analyze import Analyzer, Vector
from mnemex.analysis.intent import SAVE_INTENTS
from mnemex.analysis.relations import relation_name
from mnemex.clock import to_micros
from mnemex.config import Settings
from mnemex.embed import Embedder, from_bytes
from mnemex.ledger import lexicon
from mnemex.limits import normalize_tag
from mnemex.models import LIVE_STATUSES, Entity, Relation, Review, new_id
from mnemex.retrieval.vector import VectorIndex
from mnemex.store.base import MemoryFilter, Tx
from mnemex.text import STOPWORDS, normalize_name, query_terms

log = logging.getLogger(__name__)
SIMILAR_CANDIDATES = 8
NEAREST = 5
SUMMARY_CHARS = portrait.SUMMARY_CHARS
CATEGORY_BY_LABEL = canon.BY_LABEL
LEARNED_WEIGHT = 2  # the category model's vote: below a naming context's, above NER's label
# The least probability of the model's category for the ledger to read it as what kind a value
# is ("moved to Lyon": a place, 0.70): more likely than every other category together. Below
# it the vote rests on the context ("moved to Globex": a place, 0.27), which the ledger's verb
# prior already weighs, and a wrong kind would key a wrong fact (saving.value_categories).
VALUE_KIND_SURE = 0.5
FIRST_NAME_CANDIDATES = 3  # "Priya" links to "Priya Nair" only when she is the one Priya
SURNAME_CANDIDATES = 20  # names read for a titled surname ("Dr. Osei"); more: too common to say


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
                if entity is None and _first_name_like(name):
                    longer = _longer(tx, name)  # "tomas says ...": the one Tomás of the tenant
                    entity = longer[0] if len(longer) == 1 else None
                if entity is None:
                    entity = _titled_person(tx, name, {})  # "Dr. Osei": the one Osei
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


def _first_name_like(name: str) -> bool:
    return (
        " " not in name
        and len(name) >= 3
        and name.isalpha()
        and name.casefold() not in STOPWORDS
        and name.casefold() not in canon.GENERIC
    )


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
        learned = category_model.votes(
            [_category_mention(m, draft.content) for m in named],
            findings.vector,
            analyzer.phrase_embed(),
            analyzer.category_trace,
        )
        filled.update(_entities(draft, named, settings, learned))
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


def _category_mention(m: entities.Mention, text: str) -> category_model.Mention:
    context = canon.from_context(text, m.start, m.end)
    return category_model.Mention(
        text[m.start : m.end], m.label, m.source, context, text[: m.start], text[m.end :]
    )


def _categories(
    text: str,
    named: Sequence[entities.Mention],
    settings: Settings,
    learned: Sequence[tuple[str, float] | None],
) -> tuple[dict[str, str], dict[str, int], dict[str, str | None]]:
    """Each name's category and the weight of its vote, and what the rules said of the names
    whose category came from an unsure vote of the model (the ledger reads those instead)."""
    categories: dict[str, str] = {}
    weights: dict[str, int] = {}
    ruled: dict[str, str | None] = {}
    sure = category_model.model()
    for m, guess in zip(named, learned, strict=True):
        vote_ = canon.categorise(m.label, m.source, text, m.start, m.end, lexicon.kind_of(m.text))
        name = m.text[: settings.max_entity_chars]
        rules = vote_[0] if vote_ is not None else None
        unsure = False  # the model's vote won, below VALUE_KIND_SURE
        weak = vote_ is None or vote_[1] < LEARNED_WEIGHT
        if weak and guess is not None and sure is not None and guess[1] >= sure.sure[guess[0]]:
            unsure = guess[1] < VALUE_KIND_SURE
            vote_ = (guess[0], LEARNED_WEIGHT)  # the rules were weak: the model votes
        said = text[m.start : m.end]
        relinked = m.entity_id and normalize_name(said) != normalize_name(m.text)
        # "Marcus" linked to Marcus Lee: the label of a first name says little; an acronym
        # written out (CRRT's "continuous renal replacement therapy") nothing
        if vote_ is not None and relinked and (vote_[1] == 1 or canon.acronym_of(m.text, said)):
            continue
        if vote_ is not None and name not in categories:
            categories[name], weights[name] = vote_
            if unsure:  # the ledger's key guess keeps to the rules' vote
                ruled[name] = rules
    return categories, weights, ruled


def _entities(
    draft: Enrichable,
    named: Sequence[entities.Mention],
    settings: Settings,
    learned: Sequence[tuple[str, float] | None],
) -> dict[str, Any]:
    """The draft's entities from the message's names, with their category votes and aliases."""
    filled: dict[str, Any] = {}
    names = [m.text[: settings.max_entity_chars] for m in named][: settings.max_entities]
    draft.entities = names
    filled["entities"] = names
    categories, weights, ruled = _categories(draft.content, named, settings, learned)
    filled["entity_categories"] = categories
    filled["category_weights"] = weights
    if ruled:  # what the rules said where the model's unsure vote won
        filled["categories_without_model"] = ruled
    told = {
        m.text: found for m in named if (found := described.said_of(draft.content, m.start, m.end))
    }
    if told:
        filled["entity_described"] = told
    kin = {name: found["kin"] for name, found in told.items() if "kin" in found}
    if kin:
        filled["entity_kin"] = kin
    roles = {
        m.text: word
        for m in named
        if " " not in m.text and (word := canon.role_word(draft.content, m.start, m.end))
    }
    if roles:
        filled["entity_roles"] = roles
    surfaces: dict[str, list[str]] = {}
    for m in named:
        said = draft.content[m.start : m.end].strip()
        if m.source == "ruler" and said and normalize_name(said) != normalize_name(m.text):
            surfaces.setdefault(m.text, []).append(said)  # "Postgres" for PostgreSQL
        elif m.entity_id and canon.untitled(said) is not None:
            surfaces.setdefault(m.text, []).append(entities.clean(said))  # "Dr Walsh"
        elif m.entity_id and canon.acronym_of(m.text, said):
            surfaces.setdefault(m.text, []).append(said)  # "Advanced Life Support" for ALS
    spans = [(m.text, m.start, m.end) for m in named]
    declared = canon.declared_aliases(draft.content, spans)
    for name, extra in declared.items():
        surfaces.setdefault(name, []).extend(extra)
    alias_of = {normalize_name(a): name for name, found in declared.items() for a in found}
    if alias_of:  # "goes by Jess": Jess is Jessica Moreno, not a second node
        names = [alias_of.get(normalize_name(n), n) for n in draft.entities]
        draft.entities = filled["entities"] = list(dict.fromkeys(names))
        for alias in alias_of:
            for key in [k for k in categories if normalize_name(k) == alias]:
                categories.pop(key)
    if surfaces:
        filled["entity_aliases"] = surfaces
    return filled


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
        touched: list[str] = []
        canonical = enrichment.get("canonical", {})
        for name, said in enrichment.get("entity_aliases", {}).items():
            entity_id = tx.upsert_entity(name, now=now_us)[0]
            for alias in said:
                tx.add_alias(entity_id, alias)
        weights = enrichment.get("category_weights", {})
        for name, category in enrichment.get("entity_categories", {}).items():
            if name in canonical and canon.untitled(name) is None:
                continue  # a first name's label says little about the full name's node
            node = canonical.get(name, name)  # "Dr. Amara Osei" votes for Amara Osei
            entity_id = tx.upsert_entity(node, now=now_us)[0]
            vote(tx, entity_id, category, weights.get(name, 1))
        said = enrichment.get("entity_described", {})
        words = {
            "kin": enrichment.get("entity_kin", {}),
            "role": enrichment.get("entity_roles", {}),
            **{key: {n: f[key] for n, f in said.items() if key in f} for key in ("who", "gender")},
        }
        _note(tx, words, canonical, now_us)
        for said in enrichment.get("relations", []):
            found = {
                **said,
                "subject": canonical.get(said["subject"], said["subject"]),
                "object": canonical.get(said.get("object"), said.get("object")),
            }
            if found["kind"] == "relationship":
                touched += _edge(tx, memory_id, found, now, now_us, tenant)
            else:
                touched.append(_attribute(tx, found, now, now_us))
        for entity_id in dict.fromkeys(touched):
            portrait.refresh(tx, entity_id)
        near = enrichment.get("near_duplicate")
        if near is not None and not exact_duplicate:
            _review(tx, memory_id, near, now, tenant)
    except Exception as exc:
        log.warning("writing enrichment of %s failed: %s", memory_id, exc, exc_info=True)
        enrichment.setdefault("errors", []).append(f"apply: {type(exc).__name__}: {exc}")


def _note(
    tx: Tx, words: Mapping[str, Mapping[str, str]], canonical: Mapping[str, str], now_us: int
) -> None:
    """Keep what the message called each person (`kin`, `role`, `who`, `gender`: key -> name
    -> word) on their node, the first word said for each key only; one read and at most one
    write per node."""
    by_node: dict[str, dict[str, str]] = {}
    for key, said in words.items():
        for name, word in said.items():
            by_node.setdefault(canonical.get(name, name), {}).setdefault(key, word)
    for node, found in by_node.items():
        entity_id = tx.upsert_entity(node, now=now_us)[0]
        entity = tx.get_entities([entity_id]).get(entity_id)
        new = {key: word for key, word in found.items() if entity and not entity.details.get(key)}
        if entity is not None and new:
            tx.update_entity(entity_id, {"details": {**entity.details, **new}})


def vote(tx: Tx, entity_id: str, category: str, weight: int = 1) -> None:
    """Count one more piece of evidence for the entity's category; the entity takes the kind
    with most votes, unless a person set its category (that is never overridden)."""
    entity = tx.get_entities([entity_id]).get(entity_id)
    if entity is None or entity.details.get("category_set_by") == "user":
        return
    votes = dict(entity.details.get("category_votes", {}))
    votes[category] = votes.get(category, 0) + weight
    best = canon.voted(votes)
    sure = set(entity.details.get("category_sure", []))
    if weight >= canon.SURE_VOTE:
        sure.add(category)
    details = {**entity.details, "category_votes": votes, "category_sure": sorted(sure)}
    changes: dict[str, Any] = {"details": details}
    if best != entity.category:
        changes["category"] = best
    tx.update_entity(entity_id, changes)


def canonical_names(
    tx: Tx,
    names: Sequence[str],
    categories: dict[str, str],
    now_us: int,
    said: Mapping[str, Mapping[str, str]] | None = None,
) -> list[str]:
    """The names a memory links to, one node per real thing within the tenant.

    A lone first name ("Priya") links to the one person of the tenant with that first name
    ("Priya Nair"), a short form to the one longer name it is short for ("Kestrel" -> "Project
    Kestrel", "Halcyon" -> "Halcyon Labs"). A longer name seen for the first time, when the
    tenant knows its short form alone, turns that node into the longer name and keeps the short
    one as an alias, so every memory of either spelling reaches one node. Ambiguous names stay
    as said, and so does a person the message describes otherwise than the known person
    (`said`, `described.said_of` by name: "my nephew Amir" is not the client Amir Khalil,
    "Travis (night driver)" not Travis Keller, the freight broker).
    """
    told = said or {}
    out: list[str] = []
    for said_as in names:
        about = told.get(said_as, {})
        name = _untitled(tx, said_as)
        words = name.split()
        known = tx.find_entity(name)
        if known is not None:
            if known.name.islower() and not name.islower() and known.name == name.casefold():
                tx.update_entity(known.id, {"name": name})  # "bernie", then "Bernie": Bernie
            out.append(name)
            continue
        if canon.untitled(name) is not None:  # "Dr. Osei" with no full name known: as said
            titled = _titled_person(tx, name, about) or _same_titled(tx, name)
            out.append(name if titled is None else titled.name)
            continue
        if len(words) == 1 and name[:1].isupper():
            longer = _longer(tx, name)
            one = len(longer) == 1 and not described.told_apart(about, longer[0].details)
            out.append(longer[0].name if one else name)
            continue
        shorts = canon.short_forms(name)
        is_person = "person" in (categories.get(name), categories.get(said_as))
        if not shorts and 2 <= len(words) <= 3 and is_person:
            shorts = [words[0]]
        person = shorts == [words[0]]
        for short in shorts:
            alone = tx.find_entity(short)
            if alone is None:
                if not person:  # "Kestrel" will find "Project Kestrel" from now on
                    tx.add_alias(tx.upsert_entity(name, now=now_us)[0], short)
                continue
            # The short name's node is this thing only when it is no other kind of thing
            # ("Harbor", a project, is not "Harbor Dental").
            kind = "person" if person else categories.get(name) or categories.get(said_as)
            fits = alone.category in (None, kind) or (not person and kind is None)
            # A lone first name NER alone took for a firm or a place is the person the full
            # name names ("Naomi" then "Naomi Asante"), unless it was said to be someone in
            # particular ("Grace, our paralegal" is not the new client Grace Mwangi).
            fits = fits or (person and canon.guessed_first_name(alone.details, alone.category))
            fits = fits and not described.told_apart(alone.details, about)
            if alone.name.casefold() == short.casefold() and fits and not _longer(tx, short):
                tx.update_entity(alone.id, {"name": name})
                tx.add_alias(alone.id, short)
                portrait.refresh(tx, alone.id)
        if person and tx.find_entity(name) is None:
            _name_the_titled(tx, name, about)
        out.append(name)
    return out


def _surnamed(tx: Tx, surname: str) -> list[Entity] | None:
    """The tenant's live persons with this surname (not its titled nodes); None when the
    surname is too common to say whom a title means."""
    found = tx.entities_by_suffix(" " + normalize_name(surname), SURNAME_CANDIDATES)
    if len(found) >= SURNAME_CANDIDATES:
        return None
    return [
        e
        for e in found
        if e.expired_at is None
        and e.category == "person"
        and len(e.name.split()) >= 2
        and canon.untitled(e.name) is None
    ]


def _titled_nodes(tx: Tx, surname: str) -> list[Entity]:
    """The live nodes named by a title and this surname ("Dr. Osei", "Dr Osei"): one indexed
    read of every title's spelling, no scan."""
    ids = tx.entity_ids(canon.titled_spellings(surname))
    found = tx.get_entities(list(dict.fromkeys(ids.values())))
    return [
        e
        for e in found.values()
        if e.expired_at is None and len(e.name.split()) <= 2 and canon.untitled(e.name)
    ]


def _same_titled(tx: Tx, name: str) -> Entity | None:
    """The node of the same title and surname written with or without the title's full stop
    ("Dr Osei" is "Dr. Osei")."""
    words = name.split()
    title, surname = words[0], words[-1]
    if len(words) != 2 or _surnamed(tx, surname) is None:
        return None
    stem = title.rstrip(".").casefold()
    return next(
        (e for e in _titled_nodes(tx, surname) if e.name.split()[0].rstrip(".").casefold() == stem),
        None,
    )


def _titled_person(tx: Tx, name: str, about: Mapping[str, str]) -> Entity | None:
    """The tenant's one person a title and one name stand for: "Dr. Osei" is Amara Osei when
    she is the one Osei, "Dr. Amara" when she is the one Amara, and nothing said of either
    disagrees (`about`: what the message says of the titled name); None otherwise."""
    base = canon.untitled(name)
    if base is None or not canon.surname_alone(base):
        return None
    people = {e.id: e for e in _surnamed(tx, base) or []}
    people.update({e.id: e for e in _longer(tx, base) if e.category == "person"})
    if len(people) != 1:
        return None
    (person,) = people.values()
    return None if described.told_apart(about, person.details) else person


def _name_the_titled(tx: Tx, name: str, about: Mapping[str, str]) -> None:
    """A person's full name seen for the first time, when the tenant knows them only by title
    and surname ("Dr. Osei") and nothing said of either disagrees, becomes that node's name;
    the titled one stays an alias."""
    surname = name.rsplit(maxsplit=1)[-1]
    titled = _titled_nodes(tx, surname)  # indexed: most new names stop here
    if len(titled) != 1 or titled[0].category not in (None, "person"):
        return
    if described.told_apart(about, titled[0].details):
        return
    if _surnamed(tx, surname) != []:  # another person of that name, or too many to tell
        return
    tx.update_entity(titled[0].id, {"name": name})
    tx.add_alias(titled[0].id, titled[0].name)
    portrait.refresh(tx, titled[0].id)


def _untitled(tx: Tx, name: str) -> str:
    """A titled full name is the person's node ("Dr. Adaeze Okafor" is Adaeze Okafor); a title
    and a surname alone ("Dr. Okafor") stay as said, for `maint scan` to match by surname."""
    base = canon.untitled(name)
    if base is None or canon.surname_alone(base) or tx.find_entity(name) is not None:
        return name
    return base


def _longer(tx: Tx, short: str) -> list[Entity]:
    """Live entities whose name is this name followed by more words: persons ("Priya" ->
    "Priya Nair") and company names ("Halcyon" -> "Halcyon Labs")."""
    found = tx.entities_by_prefix(normalize_name(short) + " ", FIRST_NAME_CANDIDATES)
    return [
        e
        for e in found
        if e.expired_at is None
        and (e.category == "person" or canon.short_forms(e.name) == [e.name.split()[0]])
    ]


def _edge(
    tx: Tx, memory_id: str, found: dict[str, Any], now: datetime, now_us: int, tenant: str
) -> list[str]:
    a = tx.upsert_entity(found["subject"], now=now_us)[0]
    b = tx.upsert_entity(found["object"], now=now_us)[0]
    if a == b:
        return []
    tx.insert_relation(
        Relation(
            id=new_id("rel"),
            from_kind="entity",
            from_id=a,
            to_kind="entity",
            to_id=b,
            type=relation_name(found["type"]),
            strength=1.0,
            source_memory=memory_id,
            created_at=now,
            meta={"source": "analysis", "tags": found.get("tags", [])},
            tenant=tenant,
            valid_from=now,
        )
    )
    return [a, b]


def _attribute(tx: Tx, found: dict[str, Any], now: datetime, now_us: int) -> str:
    entity_id = tx.upsert_entity(found["subject"], now=now_us)[0]
    entity = tx.get_entities([entity_id])[entity_id]
    line = found["value"] if found["type"] == "is" else f"{found['type']} {found['value']}"
    changes: dict[str, Any] = {}
    new_tags = [t for t in found.get("tags", []) if t not in entity.tags]
    if new_tags:
        changes["tags"] = entity.tags + new_tags
    attributes = list(entity.details.get("attributes", []))
    if line and line.casefold() not in {str(a).casefold() for a in attributes}:
        attributes = [*attributes, line][-portrait.MAX_ATTRIBUTES :]
        changes["details"] = {**entity.details, "attributes": attributes}
    if changes:
        tx.update_entity(entity_id, changes)
    return entity_id


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
