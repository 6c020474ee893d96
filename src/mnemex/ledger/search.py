"""The ledger's part of search: answer key questions from the ledger, and keep history in its place.

`LedgerAnswers.adjust` runs on the candidates of a search: it drops memories whose facts did not
hold at `as_of`, and puts first the memories stating the current value of a key the query asks about
("which editor does Alice use" -> Alice's editor), following object and co-mentioned entities one
hop for chained questions ("what machine does svc-a run on" when svc-a depends on svc-b). `order`
keeps a memory whose facts are all superseded below the others when history is asked for.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from mnemex.embed import from_bytes
from mnemex.ledger.extract import USER
from mnemex.ledger.history import (
    LEDGER_STATUSES,
    known_at,
    retractions_of,
    valid_at,
    withdrawals_of,
)
from mnemex.ledger.resolve import CALENDAR, kin_asked
from mnemex.ledger.similarity import EmbeddingSimilarity, for_embedder
from mnemex.ledger.vocabulary import (
    CUE_MATCH,
    FIRST_PERSON,
    MIN_MATCH,
    TOKEN,
    names_some_part,
    query_words,
    relation_match,
)
from mnemex.models import Entity, Fact, FactStatus, SearchHit
from mnemex.store.base import MemoryFilter, Tx
from mnemex.text import NAME_PARTICLES, STOPWORDS, UPPER, normalize_name

if TYPE_CHECKING:
    from mnemex.embed import Embedder

EMBED_FLOOR = 0.3  # question / relation-name cosine below which embeddings say nothing
EMBED_MARGIN = 0.05  # ...and by how much the best relation must lead the subject's next one
MAX_SUBJECTS = 4
OWN = frozenset({"my", "me", "mine", "myself"})  # the user as owner or object, not the asker
KEYED = 1.0  # the confidence of a fact its writer keyed (subject=, relation=, value=)
MAX_NEIGHBOURS = 20
SECOND_HOP = 0.8  # a fact found through another entity ranks just below a direct answer
RECENCY_STEP = 0.001  # orders equally matching answers by date without changing their tier
NOT_PERSONS = frozenset({"place", "product", "technology", "project", "event"})
STATEMENT_FLOOR = 0.4  # question / statement cosine a keyed fact's memory needs to answer so
STATEMENT_MARGIN = 0.05  # ...and by how much it must lead the subject's other keys' statements
SHORT_QUERY = 3  # content words: a query this short naming no subject asks for its key's values
MAX_KEYED = 20  # values of a key named by a short query, most recent first
STORE_RELATIONS = 500  # relations of the store a short query is matched against
# "When's my sister's birthday?": the user's sister's, so only the user's keys "sister" names
# answer for the user (and lead to her), never the user's own nearest key ("anniversary").
_MY_CHAIN = re.compile(r"\bmy\s+(?P<owner>[\w-]+)['’]s\b", re.IGNORECASE)


def _name_tokens(text: str) -> list[str]:
    """The query's words as names are matched: a possessive 's dropped ("Alice's" -> Alice)."""
    return TOKEN.findall(text.replace("'s ", " ").replace("’s ", " "))


def mentioned(tx: Tx, text: str) -> list[str]:
    """Entity ids named in the query (up to three words each), the user for "I"/"my"."""
    tokens = _name_tokens(text)
    spans = [
        (start, size, " ".join(tokens[start : start + size]))
        for size in (3, 2, 1)
        for start in range(len(tokens) - size + 1)
        if not all(tokens[i].casefold() in STOPWORDS for i in range(start, start + size))
    ]
    first_person = any(t.casefold() in FIRST_PERSON for t in tokens)
    known = tx.entity_ids([*([USER] if first_person else []), *(name for _, _, name in spans)])
    found: list[str] = [known[USER]] if first_person and USER in known else []
    taken: set[int] = set()
    for start, size, name in spans:  # longest names first; a word belongs to one name
        span = range(start, start + size)
        entity_id = known.get(name)
        if entity_id is None or taken & set(span):
            continue
        if entity_id not in found:
            found.append(entity_id)
            taken.update(span)
    if found[:1] == [known.get(USER)] and not any(t.casefold() in OWN for t in tokens):
        # "Which app should I use to reach Tariq?": the one asking is not the one asked about,
        # a person or a subject of the ledger's facts ("Which VPN am I on?" still asks mine).
        others = tx.get_entities(found[1:]).values()
        if any(
            e.expired_at is None and (e.category == "person" or tx.facts_for_key(e.id, None))
            for e in others
        ):
            found = found[1:]
    return found[:MAX_SUBJECTS]


_PERSON_NAME = re.compile(
    rf"^[{UPPER}][\w'’-]*(?:\s+(?:{NAME_PARTICLES}\s+)*[{UPPER}][\w'’-]*){{1,2}}$"
)


def _a_person(entity: Entity) -> bool:
    """A person, or an entity named like one ("Lucas Moreau", which the small NER model took for
    an organisation): not "Owen to Iyengar Institute", nor a place."""
    if entity.expired_at is not None or entity.category in NOT_PERSONS:
        return False
    return _PERSON_NAME.match(entity.name) is not None


def by_first_name(tx: Tx, text: str, found: Sequence[str]) -> list[str]:
    """The persons a capitalised first name in the query names by their full name: "Priya" is
    the tenant's one Priya with a surname (none when there are several). Named like a person is
    enough when its writers keyed facts to it, whatever the entity's category ("Seun Adeyemi
    sends his parcels from the post office" made him a place)."""
    out: list[str] = []
    for token in dict.fromkeys(t for t in _name_tokens(text) if t[:1].isupper()):
        people = tx.entities_by_prefix(normalize_name(token) + " ", 3)
        ids = [e.id for e in people if _a_person(e) or _keyed_subject(tx, e)]
        if len(ids) == 1 and ids[0] not in found and ids[0] not in out:
            out.append(ids[0])
    return out


def _keyed_subject(tx: Tx, entity: Entity) -> bool:
    """Named like a person, and the subject of a fact its writer keyed."""
    if entity.expired_at is not None or _PERSON_NAME.match(entity.name) is None:
        return False
    return any(f.confidence >= KEYED for f in tx.facts_for_key(entity.id, None))


def _current(tx: Tx, subject_id: str, as_of: datetime | None) -> list[Fact]:
    """A subject's current facts, and newer statements still waiting for review of their key.

    While a person has not ruled whether "code editor" is Alice's "editor", the newer statement
    is shown first and the confirmed value right after it (facts() shows only the latter).
    """
    if as_of is None:
        facts = tx.facts_for_key(subject_id, None, (FactStatus.ACTIVE, FactStatus.PENDING))
        current = {f.relation: f for f in facts if f.status == FactStatus.ACTIVE}
        waiting = [
            f
            for f in facts
            if f.status == FactStatus.PENDING
            and f.relation != "?"  # a statement whose key is unknown answers no question
            and (f.relation not in current or f.valid_from >= current[f.relation].valid_from)
        ]
        return [*current.values(), *waiting]
    facts = tx.facts_for_key(subject_id, None)
    groups: dict[str, list[Fact]] = {}
    for fact in facts:
        groups.setdefault(fact.relation, []).append(fact)
    retracted, withdrawn = retractions_of(tx, facts), withdrawals_of(tx, facts)
    return [
        f
        for g in groups.values()
        for f in known_at(g, as_of, retracted, withdrawn)
        if valid_at(f, as_of)
    ]


def _before(tx: Tx, subject_id: str, text: str) -> list[Fact]:
    """For a question about the past: per keyed relation, the value held before the current one
    (or before the value the question names: "before Y"), restatements of it skipped."""
    asked = text.casefold()
    groups: dict[str, list[Fact]] = {}
    for fact in tx.facts_for_key(subject_id, None):
        if fact.confidence >= KEYED and fact.status in LEDGER_STATUSES:
            groups.setdefault(fact.relation, []).append(fact)
    found: list[Fact] = []
    for group in groups.values():
        group.sort(key=lambda f: (f.valid_from, f.recorded_at))
        named = [f for f in group if f.object.casefold() in asked]
        active = [f for f in group if f.status == FactStatus.ACTIVE]
        start = named[0] if named else (active[-1] if active else None)
        if start is None:
            continue
        value = start.object.casefold()
        earlier = [
            f for f in group if f.valid_from < start.valid_from and f.object.casefold() != value
        ]
        if earlier:
            found.append(earlier[-1])
    return found


def _second_hop(
    tx: Tx, neighbours: list[str], words: set[str], as_of: datetime | None
) -> tuple[float, list[Fact]]:
    """The first neighbour with a fact a word of the question names, and that match.

    Only neighbours with a relation the words can name (in any status: the index answers that
    alone) are read in full: most have none.
    """
    held = tx.relation_counts(neighbours)
    named = {
        relation
        for relation in set().union(*held.values())
        if relation_match(relation, words) >= MIN_MATCH
    }
    for neighbour in neighbours:
        if named.intersection(held.get(neighbour, {})):
            found = _best(_current(tx, neighbour, as_of), words)
            if found[1]:
                return found
    return 0.0, []


Cosines = Callable[[Sequence[str]], list[float] | None]  # question vs relation names
Statements = Callable[[Sequence[str]], dict[str, float]]  # question vs memories, by id


def cosines_for(embedder: Embedder | None, query: Future[Any] | None) -> Cosines | None:
    """Question / relation-name cosines from the query vector search computes anyway."""
    if embedder is None or query is None:
        return None
    similarity = for_embedder(embedder)
    if not isinstance(similarity, EmbeddingSimilarity):
        return None
    pending = query

    def cosines(names: Sequence[str]) -> list[float] | None:
        return similarity.to_relations(pending.result(), names)

    return cosines


def _best(facts: list[Fact], words: set[str]) -> tuple[float, list[Fact]]:
    """The facts whose relation a word of the question names best, and how well it matches."""
    scored = [(relation_match(f.relation, words), f) for f in facts]
    top = max((score for score, _ in scored), default=0.0)
    if top < MIN_MATCH:
        return 0.0, []
    return top, [f for score, f in scored if score == top]


def statements_for(
    tx: Tx, embedder: Embedder | None, query: Future[Any] | None
) -> Statements | None:
    """Question / stored-memory cosines, from the query vector search computes anyway."""
    if embedder is None or query is None:
        return None
    pending = query

    def statements(ids: Sequence[str]) -> dict[str, float]:
        vectors = tx.live_embeddings(list(dict.fromkeys(ids)), embedder.model_id)
        asked = np.asarray(pending.result(), dtype=np.float32)
        return {i: float(from_bytes(v, embedder.dim) @ asked) for i, v in vectors.items()}

    return statements


def _stated(
    tx: Tx,
    facts: list[Fact],
    statements: Statements | None,
    as_of: datetime | None,
    question: str,
) -> tuple[float, list[Fact]]:
    """When neither a word nor the relation names' embeddings name a relation: the subject's
    keyed relation one of whose statements, current or earlier, is clearly nearest to the
    question ("How does Amara get to work?" and "Amara cycles to the office now" for
    `commute_mode`; "What does Bogdan write his reports in?" and an earlier "Bogdan writes his
    reports in Pages" for his word processor, whose latest statement names only "Word")."""
    held = [f for f in facts if f.relation != "?" and f.memory_id and f.confidence >= KEYED]
    if statements is None or not held:
        return 0.0, []
    # Every keyed relation of the subject competes, also those with no fact in this view (a
    # question about the past sees only the keys that changed).
    said: dict[str, Fact] = {}  # memory id -> the keyed fact it states
    for subject_id in dict.fromkeys(f.subject_id for f in held):
        for fact in tx.facts_for_key(subject_id, None):
            known = as_of is None or fact.recorded_at <= as_of
            if fact.memory_id and fact.confidence >= KEYED and fact.relation != "?" and known:
                said[fact.memory_id] = fact
    best_of: dict[str, float] = {}
    for memory_id, cosine in statements(list(said)).items():
        relation = said[memory_id].relation
        best_of[relation] = max(best_of.get(relation, -1.0), cosine)
    lead = _clear_lead(held, best_of, STATEMENT_FLOOR, STATEMENT_MARGIN)
    if lead[1]:
        return lead
    # No clear lead in meaning: the key whose statements share the most words with the question
    # ("write his reports" and "Bogdan writes his reports in Pages"), when it shares more than
    # any other key's and is near enough in meaning.
    subject = {w for f in held for w in query_words(f.subject)}
    asked = _content_words(question) - subject
    shared: dict[str, int] = {}
    for fact in said.values():
        words = _content_words(fact.statement) - subject
        shared[fact.relation] = max(shared.get(fact.relation, 0), len(words & asked))
    ranked = sorted(((n, r) for r, n in shared.items()), reverse=True)
    if not ranked or ranked[0][0] == 0 or (len(ranked) > 1 and ranked[1][0] >= ranked[0][0]):
        return lead
    if best_of.get(ranked[0][1], -1.0) < STATEMENT_FLOOR:
        return lead
    return MIN_MATCH, [f for f in held if f.relation == ranked[0][1]]


_NOT_CONTENT = STOPWORDS | CALENDAR


def _content_words(text: str) -> set[str]:
    """Stems of a text's words that are neither stopwords nor the calendar's ("since April")."""
    kept = [t for t in TOKEN.findall(text) if t.casefold() not in _NOT_CONTENT]
    return query_words(" ".join(kept))


def _clear_lead(
    facts: list[Fact], by_relation: dict[str, float], floor: float, margin: float
) -> tuple[float, list[Fact]]:
    """The facts of the relation scoring best, as the weakest kind of match, when it scores at
    least `floor` and leads the next relation by `margin`; else none."""
    if not by_relation:
        return 0.0, []
    ranked = sorted(((score, r) for r, score in by_relation.items()), reverse=True)
    best, name = ranked[0]
    second = ranked[1][0] if len(ranked) > 1 else 0.0
    if best < floor or best - second < margin:
        return 0.0, []
    return MIN_MATCH, [f for f in facts if f.relation == name]


def _embedded(facts: list[Fact], cosines: Cosines | None) -> tuple[float, list[Fact]]:
    """When no word of the question names a relation: the subject's relation whose name is
    clearly nearest to the question in embedding space, as the weakest kind of match."""
    names = sorted({f.relation for f in facts if f.relation != "?"})
    found = None if cosines is None or not names else cosines(names)
    if not found:
        return 0.0, []
    return _clear_lead(facts, dict(zip(names, found, strict=True)), EMBED_FLOOR, EMBED_MARGIN)


def _neighbours(tx: Tx, subject_id: str, facts: list[Fact]) -> list[str]:
    """Entities one hop away: objects of the subject's facts and names co-mentioned with it."""
    ids = [f.object_id for f in facts if f.object_id]
    memories = tx.entity_memory_ids([subject_id]).get(subject_id, [])[:MAX_NEIGHBOURS]
    for linked in tx.memory_entity_ids(memories).values():
        ids.extend(linked)
    return [i for i in dict.fromkeys(ids) if i != subject_id][:MAX_NEIGHBOURS]


Asked = list[tuple[list[Fact], float, list[Fact], tuple[float, list[Fact]]]]


def _current_of(tx: Tx, relation: str, as_of: datetime | None) -> list[Fact]:
    """Every subject's current value of one relation (as known at `as_of`), newest first."""
    if as_of is None:
        facts = tx.facts_for_key(None, relation, (FactStatus.ACTIVE,))
    else:
        keys: dict[str, list[Fact]] = {}
        for fact in tx.facts_for_key(None, relation):
            keys.setdefault(fact.subject_id, []).append(fact)
        facts = []
        for key in keys.values():
            retracted, withdrawn = retractions_of(tx, key), withdrawals_of(tx, key)
            facts += [f for f in known_at(key, as_of, retracted, withdrawn) if valid_at(f, as_of)]
    return sorted(facts, key=lambda f: (f.valid_from, f.recorded_at), reverse=True)[:MAX_KEYED]


def _names_someone(text: str) -> bool:
    """A capitalised word past the first (a name the store may not know yet: "Who is Aisha's
    mentor?" asks for Aisha's, not everyone's)."""
    return any(
        t[:1].isupper() and t[1:].islower() and t.casefold() not in STOPWORDS
        for t in _name_tokens(text)[1:]
    )


def _named_keys(tx: Tx, text: str, words: set[str], as_of: datetime | None) -> Asked:
    """A short query that names no subject ("editor"): the current values of the relations its
    words name, across subjects, so that a one-word query finds what its word names."""
    content = [t for t in TOKEN.findall(text) if t.casefold() not in STOPWORDS]
    if not content or len(content) > SHORT_QUERY or _names_someone(text):
        return []
    # Named by its own words, not only cued ("where" cues a place): "Where does Ravi get his
    # inhalers" asks for no one's office.
    scored = [
        (relation_match(r, words) if names_some_part(r, words) else 0.0, r)
        for r in tx.fact_relations(STORE_RELATIONS)
    ]
    top = max((score for score, _ in scored), default=0.0)
    if top < MIN_MATCH:
        return []
    facts = [f for score, r in scored if score == top for f in _current_of(tx, r, as_of)]
    return [(facts, top, facts, (0.0, []))] if facts else []


def _asked(tx: Tx, text: str, as_of: datetime | None, *, before: bool = False) -> Asked:
    """For each subject the question names: its facts, the best direct match and, when no word
    names one of its relations, the second hop read in advance (in case the embedding names
    none of its relations either)."""
    words = query_words(text)
    asked: Asked = []
    subjects = mentioned(tx, text)
    if before:  # the keyed values held before the current (or the named) one
        for subject_id in [*subjects, *by_first_name(tx, text, subjects)]:
            facts = _before(tx, subject_id, text)
            if facts:
                asked.append((facts, *_best(facts, words), (0.0, [])))
        return asked
    chain = _MY_CHAIN.search(text)
    # "my sister's birthday", "Where does my mum live?": asked of them, not of the user
    kin = chain.group("owner") if chain is not None else kin_asked(text)
    user = tx.find_entity(USER) if kin is not None else None
    for subject_id in subjects:
        facts = _current(tx, subject_id, as_of)
        if kin is not None and user is not None and subject_id == user.id:
            owner = query_words(kin)
            facts = [f for f in facts if relation_match(f.relation, owner) >= MIN_MATCH]
            if not facts:
                continue
        score, best = _best(facts, words)
        hop: tuple[float, list[Fact]] = (0.0, [])
        if not best:
            hop = _second_hop(tx, _neighbours(tx, subject_id, facts), words, as_of)
        asked.append((facts, score, best, hop))
    for subject_id in by_first_name(tx, text, subjects):
        # Named by a first name only: the facts its writers keyed, not the extracted ones
        # (on the ledger story sets those answered worse than read-time resolution).
        facts = [f for f in _current(tx, subject_id, as_of) if f.confidence >= KEYED]
        if facts:
            asked.append((facts, *_best(facts, words), (0.0, [])))
    return asked or _named_keys(tx, text, words, as_of)


def _first_word(name: str) -> str:
    """A subject's first name as names are compared ("Aditi" for "Aditi Bhatt")."""
    return normalize_name(name).partition(" ")[0]


def _valid_memories(tx: Tx, ids: Sequence[str], as_of: datetime) -> set[str]:
    """Memories that state no fact, or a fact that held at `as_of` as known then."""
    stated = tx.facts_for_memories(ids)
    keep = {i for i in ids if i not in stated}
    for memory_id, facts in stated.items():
        for fact in facts:
            key = tx.facts_for_key(fact.subject_id, fact.relation)
            known = known_at(key, as_of, retractions_of(tx, key), withdrawals_of(tx, key))
            if any(f.id == fact.id and valid_at(f, as_of) for f in known):
                keep.add(memory_id)
                break
    return keep


@dataclass(frozen=True, slots=True)
class Adjusted:
    """Search candidates with the ledger applied, and the memories it put first with their
    weights (search's `explain` shows them as the "ledger" channel)."""

    candidates: list[tuple[str, float]]
    answered: dict[str, float]
    keyed: bool = False  # a fact its writer keyed answers (else only extracted ones do)
    dated: bool = False  # ...one that held in the period the question names


class LedgerAnswers:
    """The ledger's part of one search, in two steps: every read of the ledger when the search
    begins (search runs them while its query is being embedded), then the decisions that need
    the query vector (question / relation-name cosines, a fallback signal).

    `answer=False` keeps only the `as_of` validity filter: no key answers.
    """

    def __init__(
        self,
        tx: Tx,
        text: str,
        as_of: datetime | None,
        *,
        answer: bool = True,
        before: bool = False,
        dated: datetime | None = None,
    ) -> None:
        self._tx = tx
        self._as_of = as_of
        self._text = text
        self._asked = _asked(tx, text, as_of, before=before) if answer else []
        # A period the question names ("in May"): the keyed values that held at `dated` answer
        # when the question names one of their keys (what was read off plain text is left to
        # read-time resolution, which reads time order).
        self._dated: Asked = []
        if answer and dated is not None:
            words = query_words(text)
            for facts, _, _, _ in _asked(tx, text, dated):
                keyed = [f for f in facts if f.confidence >= KEYED]
                self._dated.append((keyed, *_best(keyed, words), (0.0, [])))

    def weights(
        self, cosines: Cosines | None = None, statements: Statements | None = None
    ) -> dict[str, float]:
        """Memory id -> weight in (0, 1] for the memories stating the values asked for."""
        return self._answers(cosines, statements)[0]

    def _answers(
        self, cosines: Cosines | None, statements: Statements | None = None
    ) -> tuple[dict[str, float], set[str], bool]:
        """`weights`, the memories among them that state a keyed fact, and whether those held
        in the period the question names."""
        if self._dated:
            weights, keyed = self._weigh(self._dated, cosines, statements)
            if keyed:
                return weights, keyed, True
        return (*self._weigh(self._asked, cosines, statements), False)

    def _weigh(
        self, asked: Asked, cosines: Cosines | None, statements: Statements | None
    ) -> tuple[dict[str, float], set[str]]:
        weights: dict[str, float] = {}
        keyed: set[str] = set()
        chosen: list[tuple[Fact, str, float]] = []  # (fact, its memory, weight)
        # A second hop answers only when no subject the question names answers itself ("Which
        # post office does Seun use?": Seun's own key, not a neighbour's `post_office`).
        hops = not any(found for _, _, found, _ in asked)
        for facts, direct, found, (hop_score, hop_best) in asked:
            score, best, hop = direct, found, 1.0
            if best and score <= CUE_MATCH:
                # Only a cue or part of its name matched the key ("reach" for a phone): a
                # relation whose name is clearly nearer the question in embedding space
                # ("messenger") answers instead.
                embedded = _embedded(facts, cosines)
                if embedded[1] and {f.relation for f in embedded[1]} != {f.relation for f in best}:
                    score, best = embedded
            if not best:
                score, best = _embedded(facts, cosines)
            if not best:
                score, best = _stated(self._tx, facts, statements, self._as_of, self._text)
            if not best and hop_best and hops:
                score, best, hop = hop_score, hop_best, SECOND_HOP
            # Among equally good answers the most recent statement leads.
            for rank, fact in enumerate(sorted(best, key=lambda f: (f.valid_from, f.recorded_at))):
                if fact.memory_id:
                    chosen.append((fact, fact.memory_id, score * hop + RECENCY_STEP * rank))
        # A key its writer keyed is not answered by what was read off plain text about the same
        # person under another entity ("Aditi set up one Zoom call" read for "Aditi" when "Aditi
        # Bhatt"'s keyed video-call app is Google Meet).
        held: dict[tuple[str, str], set[str]] = {}  # (relation, first name) -> keyed subjects
        for fact, _, _ in chosen:
            if fact.confidence >= KEYED:
                held.setdefault((fact.relation, _first_word(fact.subject)), set()).add(
                    fact.subject_id
                )
        for fact, memory_id, weight in chosen:
            others = held.get((fact.relation, _first_word(fact.subject)), set()) - {fact.subject_id}
            if fact.confidence >= KEYED:
                keyed.add(memory_id)
            elif others:
                continue
            weights[memory_id] = max(weights.get(memory_id, 0.0), weight)
        return weights, keyed

    def adjust(
        self,
        candidates: list[tuple[str, float]],
        flt: MemoryFilter,
        cosines: Cosines | None = None,
        statements: Statements | None = None,
    ) -> Adjusted:
        """Candidates that held at `as_of`, with the memories stating asked-for values first."""
        tx = self._tx
        if self._as_of is not None:
            keep = _valid_memories(tx, [i for i, _ in candidates], self._as_of)
            candidates = [(i, s) for i, s in candidates if i in keep]
        weights, keyed, dated = self._answers(cosines, statements)
        allowed = set(tx.filter_ids(list(weights), flt)) if weights else set()
        answered = {i: weights[i] for i in allowed}
        if not allowed:
            return Adjusted(candidates, answered)
        top = max((score for _, score in candidates), default=1.0)
        # Above every lexical match: the ledger knows these memories state the asked-for value.
        boosted = {i: top * (1.5 + weights[i]) for i in allowed}
        rest = [(i, s) for i, s in candidates if i not in boosted]
        first = sorted(boosted.items(), key=lambda item: -item[1])
        held = bool(keyed & allowed)
        return Adjusted(first + rest, answered, keyed=held, dated=held and dated)

    def order(self, hits: list[SearchHit]) -> list[SearchHit]:
        """Hits with every memory whose facts are all superseded moved below the others."""
        stated = self._tx.facts_for_memories([hit.memory.id for hit in hits])

        def stale(hit: SearchHit) -> bool:
            facts = [f for f in stated.get(hit.memory.id, []) if f.status in LEDGER_STATUSES]
            return bool(facts) and all(f.status != FactStatus.ACTIVE for f in facts)

        return sorted(hits, key=stale)
