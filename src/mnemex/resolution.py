"""Read-time resolution inside a search: which questions it answers, and the order with the
memory that answers the asked attribute at the asked time first (ledger/resolve.py decides
which memory that is)."""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import replace
from datetime import datetime

from mnemex.clock import from_micros, to_micros
from mnemex.config import Settings
from mnemex.embed import Vectors, from_bytes
from mnemex.engine import Engine
from mnemex.ledger import aspects, assertion, kinds, resolve
from mnemex.ledger import search as ledger
from mnemex.ledger.anchor import spans, value_relations
from mnemex.ledger.similarity import Similarity, for_embedder
from mnemex.models import Memory
from mnemex.retrieval import temporal_cues
from mnemex.store.base import Tx

# Relation-name similarity below which two keys are different attributes: the highest cut that
# calls no labelled same-key pair of bench/data/relation_pairs.json different (the least of
# them, "role" / "job title", is 0.231; tests/ledger/test_resolve.py checks the calibration).
# At 0.2, "operating_system" (0.218 to "programming_language") could change what Aino codes in.
OTHER_KEY = 0.23


def asked_time(
    resolving: bool, text: str, as_of: datetime | None, now: datetime
) -> tuple[temporal_cues.Period | None, bool, bool]:
    """The period the question names, whether it asks about an earlier value (it then needs the
    statements the ledger has superseded) and whether it asks for the value before the current
    one ("What did X use before?": the keyed value before the current one answers)."""
    if not resolving:
        return None, False, False
    period = temporal_cues.named_period(text, now) or temporal_cues.loose_period(text, now)
    past = resolve.mode_of(text, None) is resolve.Mode.PAST
    before = past and period is None and as_of is None
    return period, period is not None or past, before


def dated(
    period: temporal_cues.Period | None, as_of: datetime | None, now: datetime
) -> datetime | None:
    """The moment whose keyed values answer a question naming a period that is over ("in
    July": the end of July), as `as_of` would; None for a current period or an explicit
    `as_of`."""
    if period is None or as_of is not None or period[1] > to_micros(now):
        return None
    return from_micros(period[1] - 1)


def resolving(
    settings: Settings, adjusted: ledger.Adjusted, *, earlier: bool, before: bool
) -> tuple[bool, str | None]:
    """Whether read-time resolution runs, and the memory the ledger answered with that it
    checks (`resolved`'s `anchor`).

    Questions about the past are resolved unless the ledger knows the value before the current
    one; questions about now when the ledger has no answer. What the ledger read off plain text
    is checked against time order: a later assertion of the same attribute that it could not
    read answers instead. A keyed value is final, and so is the keyed value that held in the
    period a question names.
    """
    if adjusted.dated:
        return False, None
    anchor = None
    if adjusted.answered and not adjusted.keyed and not earlier and settings.resolve_extracted:
        anchor = max(adjusted.answered, key=lambda i: adjusted.answered[i])
    unanswered = not adjusted.answered if before else earlier or not adjusted.answered
    return unanswered or anchor is not None, anchor


def resolved(
    engine: Engine,
    tx: Tx,
    text: str,
    as_of: datetime | None,
    pool: list[str],
    pending: Future[Vectors],
    period: temporal_cues.Period | None,
    anchor: str | None = None,
) -> str | None:
    """The memory that answers the asked attribute at the asked time (`period`: the one the
    question names, if any), or None. `pool`: the search's candidates, best first."""
    pool = pool[: resolve.POOL]
    memories = tx.get_memories(pool)
    candidates = [_candidate(m) for m in (memories.get(i) for i in pool) if m is not None]
    members = resolve.about_subject(text, candidates)
    if len(members) < 2 or engine.embedder is None:
        return None
    vectors = tx.live_embeddings([m.id for m in members], engine.embedder.model_id)
    dim = engine.embedder.dim
    members = [
        replace(m, vector=from_bytes(vectors[m.id], dim)) for m in members if m.id in vectors
    ]
    if engine.settings.assertion_reader:
        assertion.ReadingStore.load(tx, [m.text for m in members])
    if engine.settings.aspect_encoder:
        aspects.load(tx, [m.text for m in members])
    end = to_micros(as_of) if as_of is not None else None
    if period is not None:
        end = period[1] if end is None else min(end, period[1])
    return resolve.resolve(
        text,
        pending.result(),
        members,
        period_end=end,
        floor=engine.settings.assertion_floor,
        anchor=anchor,
        read=engine.settings.assertion_reader,
        aspect=engine.settings.aspect_encoder,
        elsewhere=_held_elsewhere(tx, for_embedder(engine.embedder), anchor, members),
    )


def _held_elsewhere(
    tx: Tx, similarity: Similarity, anchor: str | None, members: list[resolve.Candidate]
) -> set[str]:
    """Statements whose values the ledger knows only as values of keys unlike the one the
    anchor states ("Amara has moved on to VS Code", an editor wherever it is held, cannot change
    her deploy tool): the anchor's group leaves them out, however alike the wording. Keys are
    alike when their names are (`OTHER_KEY`: "supermarket" and "grocery store" are)."""
    if anchor is None or all(member.id != anchor for member in members):
        return set()  # no anchor, or one resolution will not read
    asked = [fact.relation for fact in tx.facts_for_memories([anchor]).get(anchor, [])]
    if not asked:
        return set()
    asked_people = {kinds.people_key(r) for r in asked}
    alike: dict[str, bool] = {}
    out: set[str] = set()
    for member in members:
        if member.id == anchor:
            continue
        known = {relation for span in spans(member.text) for relation in value_relations(tx, span)}
        for relation in known - alike.keys():
            closest = max(similarity.relations(relation, asked))
            people = {kinds.people_key(relation)} | asked_people
            # "My sister is Ana" is no news of "My girlfriend is Talia", alike as they read
            apart = None not in people and len(people) > 1
            alike[relation] = relation in asked or (closest >= OTHER_KEY and not apart)
        if known and not any(alike[relation] for relation in known):
            out.add(member.id)
    return out


def _candidate(memory: Memory) -> resolve.Candidate:
    return resolve.Candidate(
        id=memory.id,
        text=memory.content,
        entities=memory.entities,
        when=to_micros(memory.observed_at or memory.created_at),
        vector=None,
    )
