"""The ledger's part of search: answer key questions from the ledger, and keep history in its place.

`adjust` runs on the candidates of a search: it drops memories whose facts did not hold at
`as_of`, and puts first the memories stating the current value of a key the query asks about
("which editor does Alice use" -> Alice's editor), following object and co-mentioned entities one
hop for chained questions ("what machine does svc-a run on" when svc-a depends on svc-b). `order`
keeps a memory whose facts are all superseded below the others when history is asked for.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from datetime import datetime
from typing import TYPE_CHECKING, Any

from mnemex.ledger import kinds
from mnemex.ledger.extract import USER
from mnemex.ledger.history import (
    LEDGER_STATUSES,
    known_at,
    retractions_of,
    valid_at,
    withdrawals_of,
)
from mnemex.ledger.relations import core, expanded, singular
from mnemex.ledger.similarity import EmbeddingSimilarity, for_embedder
from mnemex.models import Fact, FactStatus, SearchHit
from mnemex.store.base import MemoryFilter, Tx
from mnemex.text import STOPWORDS

if TYPE_CHECKING:
    from mnemex.embed import Embedder

_TOKEN = re.compile(r"[A-Za-z0-9][\w\-.]*[A-Za-z0-9]|[A-Za-z0-9]")
_FIRST_PERSON = frozenset({"i", "my", "me", "mine", "myself"})
# Query words that ask for a key without naming it come from the kinds of value a relation
# holds (ledger/kinds.py: "work", "company" for `employer`; "boss", "report" for `manager`;
# "live", "based" for `city`), plus these for keys no kind covers. "where" alone is a weak cue:
# "where does Bob work" asks for his employer, not his city.
CUES: dict[str, frozenset[str]] = {
    "run": frozenset("host hosted machine server node deployed box".split()),  # runs_on
}
WEAK_CUES: dict[str, frozenset[str]] = {"place": frozenset({"where"})}
CUE_MATCH = 0.75
WEAK_MATCH = 0.5  # as much as half a relation's words: "where are my passwords" is not a place
NAMED_BONUS = 0.02  # of equal matches, the relation whose own word the question uses
EMBED_FLOOR = 0.3  # question / relation-name cosine below which embeddings say nothing
EMBED_MARGIN = 0.05  # ...and by how much the best relation must lead the subject's next one
MIN_MATCH = 0.5  # share of a relation's core words the query must contain
HEAD_BONUS = 0.01  # breaks ties only
MAX_SUBJECTS = 4
MAX_NEIGHBOURS = 20
SECOND_HOP = 0.8  # a fact found through another entity ranks just below a direct answer
RECENCY_STEP = 0.001  # orders equally matching answers by date without changing their tier


def stem(word: str) -> str:
    """A crude stem that lets "running" meet "run" and "databases" meet "database"."""
    word = singular(word.casefold())
    for suffix in ("ning", "ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def query_words(text: str) -> set[str]:
    """Stems of the query's words, abbreviations spelled out ("db" -> "database")."""
    out: set[str] = set()
    for token in _TOKEN.findall(text.replace("'s ", " ").replace("’s ", " ")):
        for word in expanded(token):
            out.add(stem(word))
    return out


def _present(part: str, words: set[str]) -> bool:
    """A relation word in the query, itself or a word it derives from ("edit" for "editor")."""
    if part in words:
        return True
    return len(part) >= 5 and any(len(w) >= 4 and part.startswith(w) for w in words)


@functools.lru_cache(maxsize=4096)
def _parts(relation: str) -> tuple[str, ...]:
    """The stems of a relation's core words ("runs_on" -> run): what a question must name."""
    return tuple(stem(w) for w in core(expanded(relation)) if w not in STOPWORDS) or (relation,)


@functools.cache
def _cues(relation: str) -> tuple[frozenset[str], frozenset[str]]:
    """(cue stems, weak cue stems) that ask for a relation: its kinds' words and cues."""
    strong: set[str] = set()
    weak: set[str] = set()
    for kind in kinds.families_of(relation):
        family = kinds.FAMILIES[kind]
        strong.update(stem(w) for w in family.words | family.cues)
        weak.update(WEAK_CUES.get(kind, ()))
    strong.update(CUES.get(_parts(relation)[-1], ()))  # the head word: "run", not "on"
    return frozenset(strong), frozenset(weak)


def relation_match(relation: str, words: set[str]) -> float:
    """Share of the relation's core words the query contains (or a cue of its head word)."""
    parts = _parts(relation)
    direct = sum(1 for part in parts if _present(part, words)) / len(parts)
    strong, weak = _cues(relation)
    cue = CUE_MATCH if words & strong else WEAK_MATCH if words & weak else 0.0
    # Of two relations matching as much, the one whose head noun the query names is asked for:
    # "which language does Amara code in" is her main_programming_language, not her code_editor.
    head = HEAD_BONUS if _present(parts[-1], words) else 0.0
    named = NAMED_BONUS if direct > 0 else 0.0
    return max(direct, cue) + head + named


def names_relation(relation: str, words: set[str]) -> bool:
    """Whether a query names every core word of a relation: `relation_match(...) >= 1` without
    scoring cues (a cue scores 0.75 and a bonus 0.03 at most, so only all the words reach 1)."""
    parts = _parts(relation)
    if len(parts) > 30:  # (n - 1) / n + 0.03 would reach 1: score it
        return relation_match(relation, words) >= 1
    return all(_present(part, words) for part in parts)


def mentioned(tx: Tx, text: str) -> list[str]:
    """Entity ids named in the query (up to three words each), the user for "I"/"my"."""
    tokens = [t for t in _TOKEN.findall(text.replace("'s ", " ").replace("’s ", " "))]
    spans = [
        (start, size, " ".join(tokens[start : start + size]))
        for size in (3, 2, 1)
        for start in range(len(tokens) - size + 1)
        if not all(tokens[i].casefold() in STOPWORDS for i in range(start, start + size))
    ]
    first_person = any(t.casefold() in _FIRST_PERSON for t in tokens)
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
    return found[:MAX_SUBJECTS]


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


def _embedded(facts: list[Fact], cosines: Cosines | None) -> tuple[float, list[Fact]]:
    """When no word of the question names a relation: the subject's relation whose name is
    clearly nearest to the question in embedding space, as the weakest kind of match."""
    names = sorted({f.relation for f in facts if f.relation != "?"})
    found = None if cosines is None or not names else cosines(names)
    if not found:
        return 0.0, []
    ranked = sorted(zip(found, names, strict=True), reverse=True)
    best, name = ranked[0]
    second = ranked[1][0] if len(ranked) > 1 else 0.0
    if best < EMBED_FLOOR or best - second < EMBED_MARGIN:
        return 0.0, []
    return MIN_MATCH, [f for f in facts if f.relation == name]


def _neighbours(tx: Tx, subject_id: str, facts: list[Fact]) -> list[str]:
    """Entities one hop away: objects of the subject's facts and names co-mentioned with it."""
    ids = [f.object_id for f in facts if f.object_id]
    memories = tx.entity_memory_ids([subject_id]).get(subject_id, [])[:MAX_NEIGHBOURS]
    for linked in tx.memory_entity_ids(memories).values():
        ids.extend(linked)
    return [i for i in dict.fromkeys(ids) if i != subject_id][:MAX_NEIGHBOURS]


def answers(
    tx: Tx, text: str, as_of: datetime | None, cosines: Cosines | None = None
) -> dict[str, float]:
    """Memory id -> weight in (0, 1] for the memories stating the values the query asks for."""
    return answers_soon(tx, text, as_of)(cosines)


def answers_soon(
    tx: Tx, text: str, as_of: datetime | None
) -> Callable[[Cosines | None], dict[str, float]]:
    """`answers()` in two steps: every read now, the decisions that need the query vector later.

    Search calls this while the query is still being embedded. A subject whose facts no word of
    the question names gets its second hop read in advance, in case the embedding names none of
    its relations either.
    """
    words = query_words(text)
    asked: list[tuple[list[Fact], float, list[Fact], tuple[float, list[Fact]]]] = []
    for subject_id in mentioned(tx, text):
        facts = _current(tx, subject_id, as_of)
        score, best = _best(facts, words)
        hop: tuple[float, list[Fact]] = (0.0, [])
        if not best:
            hop = _second_hop(tx, _neighbours(tx, subject_id, facts), words, as_of)
        asked.append((facts, score, best, hop))

    def finish(cosines: Cosines | None) -> dict[str, float]:
        weights: dict[str, float] = {}
        for facts, direct, found, (hop_score, hop_best) in asked:
            score, best, hop = direct, found, 1.0
            if not best:
                score, best = _embedded(facts, cosines)
            if not best and hop_best:
                score, best, hop = hop_score, hop_best, SECOND_HOP
            # Among equally good answers the most recent statement leads.
            for rank, fact in enumerate(sorted(best, key=lambda f: (f.valid_from, f.recorded_at))):
                if fact.memory_id:
                    weight = score * hop + RECENCY_STEP * rank
                    weights[fact.memory_id] = max(weights.get(fact.memory_id, 0.0), weight)
        return weights

    return finish


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


def adjust(
    tx: Tx,
    text: str,
    candidates: list[tuple[str, float]],
    flt: MemoryFilter,
    as_of: datetime | None,
    *,
    answer: bool = True,
    cosines: Cosines | None = None,
    trace: dict[str, float] | None = None,
    answered: dict[str, float] | None = None,
) -> list[tuple[str, float]]:
    """Search candidates with the ledger applied: as_of validity, key answers first.

    `cosines`: question vs relation names in embedding space (a fallback signal); `trace`
    receives each memory put first and its weight (search's `explain`); `answered`: `answers()`
    computed beforehand (search runs it while the query is still being embedded).
    """
    if as_of is not None:
        keep = _valid_memories(tx, [i for i, _ in candidates], as_of)
        candidates = [(i, s) for i, s in candidates if i in keep]
    if answered is None:
        answered = answers(tx, text, as_of, cosines) if answer else {}
    weights = answered
    allowed = set(tx.filter_ids(list(weights), flt)) if weights else set()
    if trace is not None:
        trace.update({i: weights[i] for i in allowed})
    if not allowed:
        return candidates
    top = max((score for _, score in candidates), default=1.0)
    # Above every lexical match: the ledger knows these memories state the asked-for value.
    boosted = {i: top * (1.5 + weights[i]) for i in allowed}
    rest = [(i, s) for i, s in candidates if i not in boosted]
    return sorted(boosted.items(), key=lambda item: -item[1]) + rest


def order(tx: Tx, hits: list[SearchHit]) -> list[SearchHit]:
    """Hits with every memory whose facts are all superseded moved below the others."""
    stated = tx.facts_for_memories([hit.memory.id for hit in hits])

    def stale(hit: SearchHit) -> bool:
        facts = [f for f in stated.get(hit.memory.id, []) if f.status in LEDGER_STATUSES]
        return bool(facts) and all(f.status != FactStatus.ACTIVE for f in facts)

    return sorted(hits, key=stale)
