"""Reads of the ledger: facts (current, as of a time, with history), keys, timeline, profile."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from mnemex.ledger import kinds
from mnemex.ledger.extract import USER
from mnemex.ledger.history import (
    LEDGER_STATUSES,
    order_key,
    profile_order,
    retractions_of,
    view,
    withdrawals_of,
)
from mnemex.ledger.relations import normalize_relation, root
from mnemex.models import Entity, Fact, FactStatus
from mnemex.store.base import Tx
from mnemex.text import names_value

_UNKNOWN = ""  # the subject id of a subject the store has never seen: matches no fact


def _subject_id(tx: Tx, subject: str | None) -> str | None:
    """The subject's entity id; None for no subject; "" when the subject is unknown."""
    if subject is None:
        return None
    found = tx.find_entity(subject)
    return _UNKNOWN if found is None else found.id


def facts(
    tx: Tx,
    subject: str | None,
    relation: str | None,
    as_of: datetime | None,
    include_history: bool,
) -> list[Fact]:
    """Current facts of a subject and/or relation; what held at `as_of`; history on request."""
    subject_id = _subject_id(tx, subject)
    if subject_id == _UNKNOWN:
        return []
    name = None if relation is None else normalize_relation(relation)
    current_only = as_of is None and not include_history  # no need to read the history
    rows = tx.facts_for_key(subject_id, name or None, (FactStatus.ACTIVE,) if current_only else ())
    if as_of is None:
        return view(rows, None, include_history)
    return view(rows, as_of, include_history, retractions_of(tx, rows), withdrawals_of(tx, rows))


def timeline(tx: Tx, subject: str) -> list[Fact]:
    """Every fact of a subject (history and pending ones too), in time order."""
    subject_id = _subject_id(tx, subject)
    if not subject_id:
        return []
    rows = [
        f
        for f in tx.facts_for_key(subject_id, None)
        if f.status in (*LEDGER_STATUSES, FactStatus.PENDING)
    ]
    return sorted(rows, key=lambda f: (*order_key(f), f.relation))


PROFILE_POOL = 3  # facts read per profile slot: some are left out when search disagrees


def question(fact: Fact) -> str:
    """The question whose answer is the fact's value ("What is my phone?")."""
    owner = "my" if fact.subject == USER else f"{fact.subject}'s"
    return f"What is {owner} {fact.relation.replace('_', ' ')}?"


def confirmed(fact: Fact, memory_id: str, content: str) -> bool:
    """Whether search's best answer to the fact's question bears the fact out: it is the
    memory that stated the fact, or it names the value."""
    if memory_id == fact.memory_id:
        return True
    value = " ".join(fact.object.casefold().split())
    return bool(value) and value in " ".join(content.casefold().split())


def borne_out(ranked: Sequence[Fact], limit: int, search: Callable[..., Any]) -> list[Fact]:
    """The first `limit` facts an agent may trust. A fact the ledger read from a plain
    statement counts only when `search`'s best hit for its question bears it out: a change
    the write side did not read ("My Pixel died, I'm on an iPhone 15 now") leaves the old
    value in the ledger, and read-time resolution answers with the later statement. A keyed
    fact (the caller's own key) needs no confirmation."""
    shown: list[Fact] = []
    for fact in ranked:
        if len(shown) >= limit:
            break
        hits = [] if fact.confidence >= 1.0 else search(question(fact), k=1)
        if fact.confidence >= 1.0 or (
            hits and confirmed(fact, hits[0].memory.id, hits[0].memory.content)
        ):
            shown.append(fact)
    return shown


# Kinds of keys (ledger/kinds.py) and the entity categories a value of theirs cannot have: a
# city is no event or tool ("Twin Cities Marathon"), a team no technology ("Python").
_NOT_OF_KIND = {
    "place": frozenset("event technology product person project".split()),
    "team": frozenset("event technology product person place".split()),
    "person": frozenset("event technology product place project organization".split()),
    "org": frozenset("event technology person".split()),
}


# Keys that belong to a job: a manager, a team, a role held before a change of employer are
# no longer known to hold ("My supervising partner is Andrzej", then "First day at Vistula").
_WORK_ROOTS = frozenset(
    root(word)
    for word in "manager boss supervisor lead mentor report team squad department colleague "
    "coworker teammate role title position desk".split()
)
_EMPLOYER = frozenset({"employer", "company", "workplace", "firm"})


def profile(tx: Tx, limit: int) -> list[Fact]:
    """The current facts worth knowing at the start of a session, most useful first, capped.
    A fact read from plain text whose value is a kind of thing its key cannot hold is left
    out: what the graph knows of the value contradicts the reading. So is a fact of a job
    (manager, team, role) stated before its subject last changed employer: nobody said it
    still holds at the new one."""
    user = tx.find_entity(USER)
    rows = list(tx.facts_for_key(None, None))
    changed = _changed_employer(rows)
    current = [
        f
        for f in view(rows, None, False)
        if not (
            f.subject_id in changed
            and f.valid_from < changed[f.subject_id]
            and f.confidence < 1.0
            and {root(w) for w in kinds.relation_words(f.relation)} & _WORK_ROOTS
        )
    ]
    current = _latest_standing(current)
    ranked = profile_order(current, "" if user is None else user.id)[: limit * 2]
    values = tx.get_entities([f.object_id for f in ranked if f.object_id])
    return [f for f in ranked if _fits(f, values.get(f.object_id or ""))][:limit]


def _latest_standing(facts: list[Fact]) -> list[Fact]:
    """The facts without a person's earlier standing: "girlfriend: Talia Brooks" once
    "fiance: Talia" was said later (two keys, so the ledger keeps both current)."""
    standing = [f for f in facts if kinds.people_key(f.relation) == kinds.STANDING]
    earlier = {
        id(f)
        for f in standing
        for g in standing
        if g is not f
        and g.subject_id == f.subject_id
        and order_key(g) > order_key(f)
        and (names_value(f.object, g.object) or names_value(g.object, f.object))
    }
    return [f for f in facts if id(f) not in earlier]


def _changed_employer(rows: Sequence[Fact]) -> dict[str, datetime]:
    """Per subject whose employer changed, when its current employer began."""
    employer = [f for f in rows if f.relation in _EMPLOYER]  # not "phone_company"
    earlier = {f.subject_id for f in employer if f.status == FactStatus.SUPERSEDED}
    return {
        f.subject_id: f.valid_from
        for f in employer
        if f.status == FactStatus.ACTIVE and f.subject_id in earlier
    }


def _fits(fact: Fact, value: Entity | None) -> bool:
    if fact.confidence >= 1.0 or value is None or value.category is None:
        return True
    return not any(
        value.category in _NOT_OF_KIND.get(kind, ()) for kind in kinds.families_of(fact.relation)
    )
