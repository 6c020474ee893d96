"""The ledger's part of `save`: which facts a memory states, decided before it is written.

`prepare` reads the statement (a keyed write names its key; an unkeyed one goes through
ledger/extract.py), picks each triple's key and notices a pure restatement, so `save` can answer
"unchanged" without a new memory. `apply` records the facts once the memory exists.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, cast

from mnemex.clock import to_micros
from mnemex.config import Settings
from mnemex.errors import InvalidInputError
from mnemex.ledger import anchor, cores
from mnemex.ledger.extract import USER, Extraction, Triple, extract, looks_named
from mnemex.ledger.infer import SHARED_KEYS, KeyChoice, choose, choose_named, relation_names
from mnemex.ledger.keyguess import UNKNOWN
from mnemex.ledger.record import Claim, Outcome, place, record, repeats, retract
from mnemex.ledger.relations import normalize_relation
from mnemex.ledger.similarity import Similarity, phrase
from mnemex.models import Fact, FactStatus, Review, new_id
from mnemex.store.base import Tx
from mnemex.text import same_value, value_key

OPEN_REVIEWS = 1_000  # open reviews searched for a parked fact's (a person's queue: short)
ANCHORED_CLAUSES = 50  # a long document: only its first clauses are read off the ledger (cost)
PARSED_CLAUSES = 20  # a long document: only its first unread clauses are parsed (cost)
WHOLE_ANCHOR = 300  # characters: a short statement is also read off the ledger as a whole
Parser = Callable[[Sequence[str]], list[list[cores.Word]]]  # analysis/parsing.dependencies


@dataclass(slots=True)
class Planned:
    """One triple with its key chosen."""

    triple: Triple
    choice: KeyChoice


@dataclass(slots=True)
class Plan:
    """What a save will do to the ledger."""

    planned: list[Planned] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)  # names to link to the memory
    unresolved: list[str] = field(default_factory=list)  # values whose key could not be told
    restates: Fact | None = None  # set when the whole save only repeats a current fact

    def rename(self, names: dict[str, str]) -> None:
        """Read subjects under the names the memory links to ("Dana" is "Dana Black", the
        tenant's one Dana): one node per person for facts as for links. A keyed subject stays
        as its writer gave it."""
        self.planned = [
            Planned(replace(p.triple, subject=names[p.triple.subject]), p.choice)
            if p.triple.subject in names and p.triple.confidence < 1.0
            else p
            for p in self.planned
        ]


def keyed_triple(content: str, subject: str, relation: str, value: str) -> Triple:
    """The triple of a keyed write, with its relation normalised (snake_case, singular)."""
    name = normalize_relation(relation)
    if not name:
        raise InvalidInputError("relation", "must contain at least one letter or digit")
    if not subject.strip():
        raise InvalidInputError("subject", "must not be empty")
    if not value.strip():
        raise InvalidInputError("value", "must not be empty")
    return Triple(
        subject=" ".join(subject.split()),
        relation=name,
        value=" ".join(value.split()),
        statement=content,
        confidence=1.0,
    )


def statements(
    content: str,
    key: tuple[str, str, str] | None,
    settings: Settings,
    parse: Parser | None = None,
) -> Extraction | None:
    """What `content` states for the ledger: its key's triple for a keyed write, else what
    ledger/extract.py reads and, with `parse`, what the cores of the clauses it left unread
    state (ledger/cores.py). None when extraction is off."""
    if key is not None:
        return Extraction(triples=[keyed_triple(content, *key)], clauses=1)
    if not settings.ledger_extract:
        return None
    extraction = extract(content)
    if parse is not None:
        read_cores([extraction], parse)
    return extraction


def read_cores(extractions: Sequence[Extraction], parse: Parser) -> None:
    """Read the parsed cores of every extraction's unread clauses, parsing the whole batch's
    clauses in one pass (spaCy parses a batch about 2.4 times faster than one text at a time)."""
    pending = [e for e in extractions if e.unread]
    clauses = list(dict.fromkeys(c for e in pending for c, _ in e.unread[:PARSED_CLAUSES]))
    if not clauses:
        return
    parsed = dict(zip(clauses, parse(clauses), strict=True))
    for extraction in pending:
        _read_cores(extraction, lambda texts: [parsed[text] for text in texts])


def _read_cores(extraction: Extraction, parse: Parser) -> None:
    """Add what the parsed cores of unread clauses state (ledger/cores.py). The clauses stay
    unread: what the ledger's own values say of one (ledger/anchor.py) comes first."""
    clauses = extraction.unread[:PARSED_CLAUSES]
    held = {(t.subject, value_key(t.value)) for t in extraction.triples if t.verb != "any"}
    for (_, statement), words in zip(clauses, parse([c for c, _ in clauses]), strict=True):
        verbs = cores.verbs(words)
        found = [
            replace(t, parsed=True)
            for t in cores.read(words, statement)
            if (t.subject, value_key(t.value)) not in held
        ]
        values = {value_key(t.value) for t in found}
        # A guess at the whole clause gives way to its cores, and a guess whose subject the
        # parse takes for a verb ("Kept the Fit": no one called Kept) is dropped.
        extraction.triples[:] = [
            t
            for t in extraction.triples
            if not (
                t.verb == "any"
                and t.statement == statement
                and (t.subject in verbs or value_key(t.value) in values)
            )
        ]
        extraction.triples.extend(found)
        held |= {(t.subject, value_key(t.value)) for t in found}
        extraction.entities.extend(
            n
            for t in found
            for n in (t.subject, t.value)
            if n != USER and looks_named(n) and n not in extraction.entities
        )


def warm(tx: Tx, extractions: Sequence[Extraction], similarity: Similarity) -> None:
    """Embed, in one batch, what choosing these statements' keys will compare (infer.py),
    reading the ledger here, before the write lock: a stated relation that is not yet one of its
    subject's keys against those keys and the store's common ones; a value stated with no
    relation against its subject's current values.

    Planning also compares what it turns up later (a relation guessed from a value, a value
    read off a known key); those are embedded when first needed, then kept.
    """
    if similarity.mode == "lexical":
        return  # words are compared as they come: nothing to embed
    tx = cast(Tx, _ReadMemo(tx))  # a batch names the same subjects again and again
    texts: list[str] = []
    for triple in (t for extraction in extractions for t in extraction.triples):
        entity = tx.find_entity(triple.subject)
        subject_id = None if entity is None else entity.id
        if triple.relation is not None:
            own = [] if subject_id is None else relation_names(tx, subject_id)
            if triple.relation not in own:
                shared = tx.fact_relations(SHARED_KEYS)
                texts += [phrase(name) for name in (triple.relation, *own, *shared)]
        if (triple.relation is None or triple.implied) and subject_id is not None:
            current = [f.object for f in tx.facts_for_key(subject_id, None, (FactStatus.ACTIVE,))]
            texts += [triple.value, *current] if len(current) >= 2 else []
    similarity.warm(list(dict.fromkeys(texts)))


def prepare(
    tx: Tx,
    content: str,
    key: tuple[str, str, str] | None,
    observed: datetime,
    settings: Settings,
    similarity: Similarity,
    categories: dict[str, str] | None = None,
    extraction: Extraction | None = None,
) -> Plan:
    """Choose the key of every fact `content` states; detect a pure restatement.

    `categories`: analysis's entity category of names in `content` (what kind a value is).
    `extraction`: `statements(content, key, settings)` when the caller has read it already.
    """
    tx = cast(Tx, _ReadMemo(tx))  # nothing is written before apply(): repeated reads are shared
    if extraction is None:
        extraction = statements(content, key, settings)
    if extraction is None:
        return Plan()
    plan = Plan(entities=list(extraction.entities))
    unread = extraction.unread[:ANCHORED_CLAUSES]
    spoken = anchor.transcript(content)  # "Caroline: I went ...": someone else's "I"
    anchored = [
        t for t in (anchor.read(tx, c, s, spoken=spoken) for c, s in unread) if t is not None
    ]
    if (
        unread
        and not spoken
        and len(content) <= WHOLE_ANCHOR
        and not any(
            not t.negated and t.verb != "any" and not t.parsed
            for t in [*extraction.triples, *anchored]
        )
    ):
        # "I closed my Chase account; I bank with Ally now": the clauses say it only together.
        whole = anchor.read(tx, content, content)
        anchored += [] if whole is None else [whole]
    # A guess, and a reading of a clause's parse, give way to what the ledger knows: "Scratch
    # ThinkPad, my laptop is HP ZBook" changes the key that holds ThinkPad, whatever its name.
    # Of the same key, the parse's value stands.
    parsed = [t for t in extraction.triples if t.parsed]
    anchored = [a for a in anchored if not any(_same_key(t, a) for t in parsed)]
    read_off = {t.statement for t in anchored}
    guessed = [
        t
        for t in extraction.triples
        if not (t.verb == "any" or t.parsed) or t.statement not in read_off
    ]
    for triple in [*guessed, *anchored]:
        category = _category(tx, triple.value, categories or {})
        choice = choose(tx, triple, settings, similarity, category)[1]
        if triple.verb == "any":
            if choice.relation is None or _overrides_quietly(tx, triple, choice.relation):
                continue  # "Olu builds Atlas": no key; "Ana grew up in Porto": not her city now
            if _unnamed(tx, triple.subject, categories):
                continue  # "Tests run on GitHub Actions": a guess about no one the text names
            plan.entities.extend(n for n in (triple.subject, triple.value) if n != USER)
        if choice.relation is None and not triple.negated:
            plan.unresolved.append(triple.value)
            choice = KeyChoice(UNKNOWN, "unresolved", 0.0)  # kept, to be bound later
        plan.planned.append(Planned(triple, choice))
        if key is not None:
            plan.entities.extend(
                n for n in (triple.subject, triple.value) if n != USER and looks_named(n)
            )
    plan.restates = _restatement(tx, plan, extraction, observed)
    return plan


def _same_key(parsed: Triple, anchored: Triple) -> bool:
    """Whether a parsed reading of a statement names the key the anchors read off it: the
    parse then knows which words are the value ("onto the riverside team, starting with the
    Feeder Canal scheme"; "Lotte van Dam", which the anchors cut to "Dam")."""
    return parsed.statement == anchored.statement and parsed.relation == anchored.relation


# Words that make a guessed statement a change ("I bank with Starling now").
_CHANGE_CUE = re.compile(
    r"\b(?:now|nowadays|these\s+days|anymore|any\s+more|instead|no\s+longer|switched|moved|"
    r"changed|replaced|started|new)\b",
    re.IGNORECASE,
)


def _overrides_quietly(tx: Tx, triple: Triple, relation: str) -> bool:
    """Whether a guessed key would replace the subject's current value with no word of change:
    "Ana grew up in Porto" guesses her city, but says nothing of where she lives now. A value
    said to replace another ("gave the Focus away, bought an Octavia") is a word of change."""
    if triple.previous is not None or _CHANGE_CUE.search(triple.statement):
        return False
    subject = tx.find_entity(triple.subject)
    if subject is None:
        return False
    return any(
        not same_value(f.object, triple.value)
        for f in tx.facts_for_key(subject.id, relation, (FactStatus.ACTIVE,))
    )


class _ReadMemo:
    """A transaction whose ledger reads and entity lookups are remembered, for read-only
    planning (a subject with thousands of facts was read several times per statement, and a
    short save is read off the ledger clause by clause, then as a whole: the same names and
    values again). The relation ranking is cached by the store itself."""

    _REMEMBERED = frozenset(
        {"facts_for_key", "find_entity", "has_facts", "facts_with_value", "value_relations"}
    )

    def __init__(self, tx: Tx) -> None:
        self._tx = tx
        self._answers: dict[tuple[Any, ...], Any] = {}

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._tx, name)
        if name not in self._REMEMBERED:
            return method

        def remembered(*args: Any, **kwargs: Any) -> Any:
            key = (name, *(tuple(a) if isinstance(a, list) else a for a in args), *kwargs.items())
            if key not in self._answers:
                self._answers[key] = method(*args, **kwargs)
            return self._answers[key]

        return remembered


def _unnamed(tx: Tx, subject: str, categories: dict[str, str] | None) -> bool:
    """Whether a guessed fact's subject is no name: neither the writer, nor a name this save's
    analysis found, nor a known entity (the patterns take any capitalised opening word)."""
    if subject == USER or categories is None:
        return False
    return _category(tx, subject, categories) is None and tx.find_entity(subject) is None


def _category(tx: Tx, value: str, categories: dict[str, str]) -> str | None:
    """The entity category of a value: from this save's analysis, else from the entity table."""
    key = value_key(value)
    for name, category in categories.items():
        if value_key(name) == key:
            return category
    entity = tx.find_entity(value)
    return None if entity is None else entity.category


def _restatement(tx: Tx, plan: Plan, extraction: Extraction, observed: datetime) -> Fact | None:
    """The fact repeated when every clause of the text only restates a known value."""
    if not plan.planned or len(plan.planned) != extraction.clauses:
        return None
    if any(item.triple.parsed for item in plan.planned):
        return None  # a core is part of a clause: the rest may say more, so the memory is kept
    repeated: Fact | None = None
    for item in plan.planned:
        if item.triple.negated or item.choice.decision in ("review", "suggested"):
            return None
        found = tx.find_entity(item.triple.subject)
        if found is None or item.choice.relation is None:
            return None
        repeated = repeats(tx, found.id, item.choice.relation, item.triple.value, observed)
        if repeated is None or repeated.memory_id is None:
            return None
    return repeated


def apply(
    tx: Tx,
    plan: Plan,
    memory_id: str,
    observed: datetime,
    now: datetime,
    settings: Settings,
    similarity: Similarity,
) -> list[Outcome]:
    """Record the planned facts of a memory just written; uncertain keys open a review."""
    outcomes = []
    for item in plan.planned:
        triple, choice = item.triple, item.choice
        if triple.negated:
            outcomes.append(
                retract(tx, triple.subject, choice.relation, triple.value, observed, now, memory_id)
            )
            continue
        assert choice.relation is not None  # only a retraction may leave its key open
        claim = Claim(
            subject=triple.subject,
            relation=choice.relation,
            value=triple.value,
            statement=triple.statement,
            observed_at=observed,
            temporal_form=triple.temporal_form,
            correction=triple.correction,
            confidence=min(triple.confidence, choice.confidence),
        )
        parked = choice.decision in ("review", "suggested", "unresolved")
        outcome = record(tx, claim, now, memory_id, pending=parked)
        if choice.decision in ("review", "suggested") and outcome.fact is not None:
            open_alias_review(tx, outcome.fact, choice, now)
        elif not parked and outcome.action != "unchanged":
            bind_unknown(tx, claim.relation, claim.value, now, settings, similarity)
        outcomes.append(outcome)
    return outcomes


def bind_unknown(
    tx: Tx, relation: str, value: str, now: datetime, settings: Settings, similarity: Similarity
) -> None:
    """Give earlier statements of `value` whose key was unknown ("Noor is all in on Zed") the key
    the value has just been recorded under; each joins that key at the time it was observed."""
    for fact in tx.facts_with_value(value_key(value), status=FactStatus.PENDING):
        named = Triple(fact.subject, relation, fact.object, fact.statement)
        choice = choose_named(tx, fact.subject_id, named, settings, similarity)
        mapped = choice.decision in ("exact", "alias", "auto") and choice.relation is not None
        key = str(choice.relation) if mapped else relation
        if fact.relation != UNKNOWN and not _confirms(tx, fact, key, now):
            continue
        if repeats(tx, fact.subject_id, key, fact.object, fact.observed_at):
            tx.update_fact(fact.id, {"status": "archived", "relation": key})
            continue
        tx.update_fact(
            fact.id, {"status": FactStatus.SUPERSEDED, "relation": key, "recorded_at": now}
        )
        bound = tx.get_fact(fact.id)
        if bound is not None:
            place(tx, bound, now)


def _confirms(tx: Tx, fact: Fact, key: str, now: datetime) -> bool:
    """Close the open `supersede` review of a parked fact once its value is recorded under the
    guessed key elsewhere: the guess is confirmed by the ledger (audit: `review_approved`)."""
    if fact.relation != key:
        return False
    for review in tx.list_reviews("open", OPEN_REVIEWS):
        if review.kind == "supersede" and review.payload.get("fact_id") == fact.id:
            note = "confirmed: the value is recorded under this key"
            tx.update_review(
                review.id, {"status": "approved", "resolved_at": now, "resolution": note}
            )
            tx.log_event(
                "review_approved", to_micros(now), review.id, {"kind": review.kind, "note": note}
            )
            return True
    return False


def open_alias_review(tx: Tx, fact: Fact, choice: KeyChoice, now: datetime) -> Review:
    """Ask a person whether a stated relation names an existing key of its subject (`alias`), or
    whether a verb-only statement changes the guessed key (`supersede`, no stated relation)."""
    review = Review(
        id=new_id("rev"),
        tenant=tx.tenant,
        kind="alias" if choice.original is not None else "supersede",
        payload={
            "fact_id": fact.id,
            "subject": fact.subject,
            "subject_id": fact.subject_id,
            "relation": choice.original,
            "proposed": choice.relation,
            "value": fact.object,
            "memory_id": fact.memory_id,
        },
        confidence=round(choice.confidence, 4),
        status="open",
        created_at=now,
    )
    tx.insert_review(review)
    tx.log_event("review_open", to_micros(now), review.id, {"fact_id": fact.id})
    return review


def enrichment(plan: Plan, outcomes: list[Outcome]) -> dict[str, Any]:
    """What the ledger filled in on its own, for SaveResult.enrichment."""
    facts = []
    for item, outcome in zip(plan.planned, outcomes, strict=True):
        facts.append(
            {
                "subject": item.triple.subject,
                "relation": item.choice.relation,
                "stated_relation": item.triple.relation,
                "value": item.triple.value,
                "key": item.choice.decision,
                "action": outcome.action,
            }
        )
    out: dict[str, Any] = {"facts": facts} if facts else {}
    if plan.unresolved:
        out["unresolved_values"] = plan.unresolved
    return out
