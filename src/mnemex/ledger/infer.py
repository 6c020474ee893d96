"""Which key a statement writes to: its relation mapped onto the subject's keys, or inferred.

A named relation ("main db") joins an existing key of the same subject ("primary_database")
automatically above `relation_auto_threshold`, goes to the review queue between that and
`relation_review_threshold`, and starts a key of its own below. A verb that names no key
("Alice switched to Neovim") gets the key ledger/keyguess.py guesses from the value and the
subject's keys: taken above `value_auto_threshold`, reviewed above `value_review_threshold`;
below, the statement waits for its value to become known (ledger/save.py binds it then).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from typing import Literal

from mnemex.config import Settings
from mnemex.ledger import keyguess, kinds
from mnemex.ledger.extract import Triple
from mnemex.ledger.history import LEDGER_STATUSES, store_order
from mnemex.ledger.similarity import Similarity
from mnemex.models import Fact, FactStatus
from mnemex.store.base import Tx
from mnemex.text import names_value, same_value, value_key

SHARED_KEYS = 50  # the store's most used relations that any subject's statement may join
HELD_VALUES = 100_000  # a subject's facts holding one value, read for a key guess (all, really)
# Words a key may add to the name of what it holds without naming another attribute: the
# "deploy" of "moved deploys over to Flux" is the "deploy_tool" that holds Argo CD (their
# names' cosine, 0.53, is far below the review threshold).
_GENERIC_HEADS = frozenset(
    "tool app application service provider platform system software client program setup".split()
)
Decision = Literal["exact", "alias", "auto", "review", "new", "inferred", "suggested", "unresolved"]


@dataclass(frozen=True, slots=True)
class KeyChoice:
    """The relation a triple is written under, and how sure the engine is."""

    relation: str | None
    decision: Decision
    confidence: float
    original: str | None = None  # the relation as stated, when it was mapped or is under review


def relation_names(tx: Tx, subject_id: str) -> list[str]:
    """The subject's distinct relations among history facts, most used first."""
    counts = tx.relation_counts([subject_id], LEDGER_STATUSES).get(subject_id, {})
    return sorted(counts, key=lambda name: -counts[name])


def learned_aliases(tx: Tx) -> dict[str, str | None]:
    """Relation names a person already ruled on: the key they name, or None (a key of its own).

    A ruling is about names, not people: "home city" means "city" for everyone once approved.
    """
    learned: dict[str, str | None] = {}
    for original, proposed, status in tx.alias_rulings():  # indexed by kind (migration 3)
        learned[original] = proposed if status == "approved" else None
    return learned


def choose_named(
    tx: Tx,
    subject_id: str | None,
    triple: Triple,
    settings: Settings,
    similarity: Similarity,
) -> KeyChoice:
    """Map a stated relation onto the subject's keys (or the store's), or keep it as a new key."""
    relation = str(triple.relation)
    own = [] if subject_id is None else relation_names(tx, subject_id)
    if relation in own:
        return KeyChoice(relation, "exact", 1.0)
    learned = learned_aliases(tx)
    if relation in learned:
        target = learned[relation]
        if target is None:
            return KeyChoice(relation, "new", 1.0)
        return KeyChoice(target, "alias", 1.0, original=relation)
    variant = next((key for key in own if _variant(relation, key)), None)
    if variant is not None:
        return KeyChoice(variant, "auto", settings.relation_auto_threshold, original=relation)
    # The store's common keys are candidates too, so one subject's "home city" can join the
    # "city" everyone else has instead of starting a synonym key; but a close key of the
    # subject's own always comes first (it is the value a new statement may supersede).
    shared = [r for r in tx.fact_relations(SHARED_KEYS) if r not in own]
    own_scores = similarity.relations(relation, own) if own else []
    holder = None
    if subject_id is not None and triple.previous is not None:
        holder = _holding(tx.facts_for_key(subject_id, None, (FactStatus.ACTIVE,)), triple.previous)
    if holder is not None:
        # "Alice's city changed from Toronto to Lisbon" and her home_city holds Toronto: the
        # replaced value names the key, whatever the relation is called, also when other
        # subjects hold the name as said ("Nadia changed her bread shop, it's Jolene now instead
        # of Bread Ahead", and her Bread Ahead is her `bakery`), as the anchored reading decides.
        fit = own_scores[own.index(holder)]
        return KeyChoice(
            holder, "auto", max(fit, settings.relation_review_threshold), original=relation
        )
    if own and max(own_scores) >= settings.relation_review_threshold:
        candidates, scores = own, own_scores
    elif relation in shared:
        # The very key others hold ("airline"): exact, not a near match (whose float cosine,
        # 0.99999997, would make a keyed fact read as an extracted one).
        return KeyChoice(relation, "exact", 1.0)
    else:
        candidates, scores = own + shared, own_scores + similarity.relations(relation, shared)
    if not candidates:
        return KeyChoice(relation, "new", 1.0)
    best = max(range(len(candidates)), key=lambda i: scores[i])
    score = scores[best]
    if score >= settings.relation_auto_threshold:
        return KeyChoice(candidates[best], "auto", score, original=relation)
    if score >= settings.relation_review_threshold and candidates[best] in own:
        return KeyChoice(candidates[best], "review", score, original=relation)
    # Below the auto threshold a name only another subject uses is no reason to hold a fact
    # back: nothing of this subject would be superseded, so it starts a key of its own. A key
    # its writer named stays as sure as the writer: only a read key is as unsure as the match.
    return KeyChoice(relation, "new", 1.0 if triple.confidence >= 1.0 else 1.0 - score)


def _variant(stated: str, key: str) -> bool:
    """Whether one key is the other with generic words added ("deploy", "deploy_tool")."""
    a, b = set(stated.split("_")), set(key.split("_"))
    small, big = (a, b) if len(a) < len(b) else (b, a)
    return small < big and big - small <= _GENERIC_HEADS


def _holding(facts: list[Fact], value: str | None) -> str | None:
    """The relation whose current value is `value`, among one subject's facts."""
    if value is None:
        return None
    return next(
        (
            f.relation
            for f in facts
            if f.status == FactStatus.ACTIVE and names_value(value, f.object)
        ),
        None,
    )


def _guess_facts(tx: Tx, subject_id: str | None, values: list[str | None]) -> list[Fact]:
    """What a key guess reads of a subject: its current facts and those awaiting a review, and
    its history facts holding one of `values` (the rest of a long history says nothing about
    them), in the store's order."""
    if subject_id is None:
        return []
    statuses = (FactStatus.ACTIVE, FactStatus.PENDING)
    found = {f.id: f for f in tx.facts_for_key(subject_id, None, statuses)}
    for key in dict.fromkeys(value_key(v) for v in values if v is not None):
        held = tx.facts_with_value(key, limit=HELD_VALUES, subject_id=subject_id)
        found.update((f.id, f) for f in held if f.status in LEDGER_STATUSES)
    return sorted(found.values(), key=store_order)


def choose_for_value(
    tx: Tx,
    subject_id: str | None,
    triple: Triple,
    settings: Settings,
    similarity: Similarity,
    category: str | None = None,
) -> KeyChoice:
    """The key a verb-only statement changes, guessed from the value and the subject's keys.

    Above `value_auto_threshold` the guess is taken; between it and `value_review_threshold` the
    fact waits for a person (a `supersede` review); below, the statement is kept with its key
    unknown until its value is recorded under a key (ingest.bind_unknown).
    """
    own = _guess_facts(tx, subject_id, [triple.value, triple.previous])
    elsewhere = Counter(
        tx.value_relations(value_key(triple.value), LEDGER_STATUSES, exclude_subject=subject_id)
    )
    said = keyguess.Statement(triple.value, triple.previous, triple.verb, category)
    found = keyguess.guess(own, said, elsewhere, similarity.values)
    if found.relation is None or found.confidence < settings.value_review_threshold:
        return KeyChoice(None, "unresolved", found.confidence)
    decision: Decision = "inferred"
    if found.confidence < settings.value_auto_threshold:
        if triple.verb == "any":  # "I was born in Lima" asks no one whether Lima is an editor
            return KeyChoice(None, "unresolved", found.confidence)
        decision = "suggested"
    return KeyChoice(found.relation, decision, found.confidence)


def _kind_overrides(triple: Triple, category: str | None) -> bool:
    """A verb's own key ("joined" -> employer) yields to a value that cannot be of that key: a
    near-certain kind that does not fit it, and no kind that does ("relocated to Phoenix")."""
    found = kinds.value_kinds(triple.value, category)
    fitting = [kind for kind in found if kinds.fits(kind.kind, str(triple.relation))]
    return not fitting and any(kind.source != "label" for kind in found)


def _ledger_key(tx: Tx, subject_id: str | None, triple: Triple) -> str | None:
    """The key the ledger already holds this value under: the subject's, else other subjects'."""
    own = _guess_facts(tx, subject_id, [triple.value, triple.previous])
    holder = _holding(own, triple.previous)
    if holder is not None:
        return holder
    for fact in own:
        if fact.status in LEDGER_STATUSES and same_value(fact.object, triple.value):
            return fact.relation
    elsewhere = Counter(tx.value_relations(value_key(triple.value), LEDGER_STATUSES))
    return elsewhere.most_common(1)[0][0] if elsewhere else None


def choose(
    tx: Tx,
    triple: Triple,
    settings: Settings,
    similarity: Similarity,
    category: str | None = None,
) -> tuple[str | None, KeyChoice]:
    """(subject id if the subject is known, the key choice) for one extracted triple."""
    found = tx.find_entity(triple.subject)
    subject_id = None if found is None else found.id
    if triple.implied and triple.relation is not None:
        # A verb's key ("codes in" -> language) yields to what the ledger knows of the value
        # ("Amara writes code in Sublime Text" is about her editor) and to the value's kind.
        plain = dataclasses.replace(triple, relation=None, hint=None)
        known = _ledger_key(tx, subject_id, plain)
        if (known is not None and known != triple.relation) or _kind_overrides(triple, category):
            triple = plain
    if triple.relation is None:
        choice = choose_for_value(tx, subject_id, triple, settings, similarity, category)
        if choice.relation is None or subject_id is None:
            return subject_id, choice
        # The inferred name may be another subject's synonym of a key this subject has.
        named = dataclasses.replace(triple, relation=choice.relation)
        mapped = choose_named(tx, subject_id, named, settings, similarity)
        if mapped.decision in ("exact", "alias", "auto"):
            return subject_id, dataclasses.replace(choice, relation=mapped.relation)
        return subject_id, choice
    return subject_id, choose_named(tx, subject_id, triple, settings, similarity)
