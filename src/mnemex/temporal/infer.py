"""Which key a statement writes to: its relation mapped onto the subject's keys, or inferred.

A named relation ("main db") joins an existing key of the same subject ("primary_database")
automatically above `relation_auto_threshold`, goes to the review queue between that and
`relation_review_threshold`, and starts a key of its own below. A verb that names no key
("Alice switched to Neovim") takes the key whose value it replaces, or the key its value already
belongs to (for this subject or another), or the best-fitting key by embeddings.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from mnemex.config import Settings
from mnemex.models import Fact
from mnemex.store.base import Tx
from mnemex.temporal.extract import Triple
from mnemex.temporal.history import ACTIVE, LEDGER_STATUSES
from mnemex.temporal.ledger import same_value, value_key
from mnemex.temporal.similarity import Similarity

Decision = Literal["exact", "alias", "auto", "review", "new", "inferred", "unresolved"]
# A value-to-relation cosine must beat the runner-up by this margin to pick a key on its own:
# "Neovim" sits near "editor" and "code editor" alike, so only a clear winner counts.
VALUE_FIT_MARGIN = 0.05
VALUE_FIT_FLOOR = 0.3


@dataclass(frozen=True, slots=True)
class KeyChoice:
    """The relation a triple is written under, and how sure the engine is."""

    relation: str | None
    decision: Decision
    confidence: float
    original: str | None = None  # the relation as stated, when it was mapped or is under review


def relation_names(facts: list[Fact]) -> list[str]:
    """Distinct relations among history facts, most used first."""
    counts = Counter(f.relation for f in facts if f.status in LEDGER_STATUSES)
    return [name for name, _ in counts.most_common()]


def learned_aliases(tx: Tx, subject_id: str) -> dict[str, str | None]:
    """Relation names a person already ruled on for a subject: mapped key, or None (rejected)."""
    learned: dict[str, str | None] = {}
    for status in ("approved", "rejected"):
        for review in tx.list_reviews(status, 10_000):
            payload = review.payload
            if review.kind == "alias" and payload.get("subject_id") == subject_id:
                original = str(payload.get("relation"))
                learned[original] = str(payload["proposed"]) if status == "approved" else None
    return learned


def choose_named(
    tx: Tx, subject_id: str | None, relation: str, settings: Settings, similarity: Similarity
) -> KeyChoice:
    """Map a stated relation onto the subject's existing keys (or keep it as a new key)."""
    if subject_id is None:
        return KeyChoice(relation, "new", 1.0)
    existing = relation_names(tx.facts_for_key(subject_id, None))
    if relation in existing:
        return KeyChoice(relation, "exact", 1.0)
    learned = learned_aliases(tx, subject_id)
    if relation in learned:
        target = learned[relation]
        if target is None:
            return KeyChoice(relation, "new", 1.0)
        return KeyChoice(target, "alias", 1.0, original=relation)
    if not existing:
        return KeyChoice(relation, "new", 1.0)
    scores = similarity.relations(relation, existing)
    best = max(range(len(existing)), key=lambda i: scores[i])
    score = scores[best]
    if score >= settings.relation_auto_threshold:
        return KeyChoice(existing[best], "auto", score, original=relation)
    if score >= settings.relation_review_threshold:
        return KeyChoice(existing[best], "review", score, original=relation)
    return KeyChoice(relation, "new", 1.0 - score)


def choose_for_value(
    tx: Tx, subject_id: str | None, triple: Triple, similarity: Similarity
) -> KeyChoice:
    """The key a verb-only statement changes, from what the ledger already knows."""
    own = [] if subject_id is None else tx.facts_for_key(subject_id, None)
    if triple.previous is not None:  # "switched from MySQL to Postgres": the key now holding MySQL
        for fact in own:
            if fact.status == ACTIVE and same_value(fact.object, triple.previous):
                return KeyChoice(fact.relation, "inferred", 0.9)
    for fact in own:  # back to an earlier value of one of its keys
        if fact.status in LEDGER_STATUSES and same_value(fact.object, triple.value):
            return KeyChoice(fact.relation, "inferred", 0.85)
    elsewhere = Counter(
        f.relation for f in tx.facts_with_value(value_key(triple.value)) if f.status != "deleted"
    )
    if elsewhere:
        return KeyChoice(elsewhere.most_common(1)[0][0], "inferred", 0.8)
    candidates = relation_names(own) or relation_names(tx.facts_for_key(None, None))[:50]
    fits = similarity.value_fit(triple.value, candidates) if candidates else None
    if fits:
        ranked = sorted(zip(fits, candidates, strict=True), reverse=True)
        runner_up = ranked[1][0] if len(ranked) > 1 else 0.0
        if ranked[0][0] >= VALUE_FIT_FLOOR and ranked[0][0] - runner_up >= VALUE_FIT_MARGIN:
            return KeyChoice(ranked[0][1], "inferred", ranked[0][0])
    if triple.hint is not None:
        return KeyChoice(triple.hint, "inferred", 0.6)
    return KeyChoice(None, "unresolved", 0.0)


def choose(
    tx: Tx, triple: Triple, settings: Settings, similarity: Similarity
) -> tuple[str | None, KeyChoice]:
    """(subject id if the subject is known, the key choice) for one extracted triple."""
    found = tx.find_entity(triple.subject)
    subject_id = None if found is None else found.id
    if triple.relation is None:
        return subject_id, choose_for_value(tx, subject_id, triple, similarity)
    return subject_id, choose_named(tx, subject_id, triple.relation, settings, similarity)
