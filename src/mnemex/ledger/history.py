"""Validity windows of a key, computed from its facts alone, and the ledger as known at a time.

A key's window layout is a function of its observations: sorted by valid_from (then by when they
were recorded), each value holds until the next one starts, and the last one is current unless it
was retracted ("not Vim anymore"; a retraction carries when it ended the value and when it was
recorded). The ledger stores exactly this layout, so replaying it over the facts and retractions
recorded up to time T gives what the ledger said at T: `as_of` never sees a later record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from mnemex.clock import from_micros
from mnemex.models import Fact, FactStatus
from mnemex.store.base import Tx

LEDGER_STATUSES = (
    FactStatus.ACTIVE,
    FactStatus.SUPERSEDED,
)  # the facts that make up a key's history
Retractions = dict[str, tuple[datetime, datetime]]  # fact id -> (value ended, recorded at)
# fact id -> the spans of record time during which its memory was forgotten (end None: still).
Withdrawals = dict[str, list[tuple[datetime, datetime | None]]]


@dataclass(frozen=True, slots=True)
class Window:
    """Where one fact sits in its key's history."""

    status: str
    valid_to: datetime | None
    superseded_by: str | None


def order_key(fact: Fact) -> tuple[datetime, datetime]:
    """Time order within a key: valid_from, then the later record wins a tie (a correction).

    Sorts using it are stable and the store lists facts in insertion order, so two writes in
    the same clock tick keep the order they were made in.
    """
    return (fact.valid_from, fact.recorded_at)


def store_order(fact: Fact) -> tuple[str, str, datetime, datetime]:
    """The order the store lists facts in (`Tx.facts_for_key`), for facts read some other way;
    a stable sort keeps ties in the order they were read."""
    return (fact.subject, fact.relation, fact.valid_from, fact.recorded_at)


def retractions_of(tx: Tx, facts: Iterable[Fact]) -> Retractions:
    """The retractions recorded for some facts."""
    found = tx.retractions([f.id for f in facts])
    return {i: (from_micros(end), from_micros(rec)) for i, (end, rec) in found.items()}


def withdrawals_of(tx: Tx, facts: Iterable[Fact]) -> Withdrawals:
    """When the memories stating some facts were forgotten (and restored), in record time."""
    found = tx.withdrawals([f.id for f in facts])
    return {
        fact_id: [(from_micros(a), None if b is None else from_micros(b)) for a, b, _ in spans]
        for fact_id, spans in found.items()
        if all(prior in LEDGER_STATUSES for _, _, prior in spans)  # parked ones never counted
    }


def withdrawn_at(spans: list[tuple[datetime, datetime | None]], moment: datetime) -> bool:
    """Whether a fact was out of the ledger (its memory forgotten) at `moment`."""
    return any(start <= moment and (end is None or moment < end) for start, end in spans)


def windows(
    facts: Iterable[Fact], retracted: Retractions, moment: datetime | None = None
) -> dict[str, Window]:
    """The window of every history fact of one key (pending and archived ones are left out).

    `moment`: only retractions recorded by then count (the layout as it was at `moment`).
    """
    ordered = sorted((f for f in facts if f.status in LEDGER_STATUSES), key=order_key)
    layout: dict[str, Window] = {}
    for index, fact in enumerate(ordered):
        retraction = retracted.get(fact.id)
        ended = None
        if retraction is not None and (moment is None or retraction[1] <= moment):
            ended = retraction[0]
        following = ordered[index + 1] if index + 1 < len(ordered) else None
        if following is None:
            layout[fact.id] = (
                Window(FactStatus.ACTIVE, None, None)
                if ended is None
                else Window(FactStatus.SUPERSEDED, ended, None)
            )
        elif ended is not None and ended <= following.valid_from:
            layout[fact.id] = Window(FactStatus.SUPERSEDED, ended, None)
        else:
            layout[fact.id] = Window(FactStatus.SUPERSEDED, following.valid_from, following.id)
    return layout


def with_window(fact: Fact, window: Window) -> Fact:
    """A copy of `fact` placed in `window`."""
    return dataclasses.replace(
        fact, status=window.status, valid_to=window.valid_to, superseded_by=window.superseded_by
    )


def known_at(
    facts: Iterable[Fact],
    moment: datetime,
    retracted: Retractions,
    withdrawn: Withdrawals | None = None,
) -> list[Fact]:
    """The history facts of one key as the ledger laid them out at `moment`.

    A fact whose memory is forgotten now still counts at moments before it was forgotten (the
    ledger said so then); one forgotten at `moment` does not.
    """
    spans = withdrawn or {}
    recorded = [
        dataclasses.replace(f, status=FactStatus.SUPERSEDED)
        if f.status == FactStatus.DELETED
        else f
        for f in facts
        if (f.status in LEDGER_STATUSES or (f.status == FactStatus.DELETED and f.id in spans))
        and f.recorded_at <= moment
        and not withdrawn_at(spans.get(f.id, []), moment)
    ]
    layout = windows(recorded, retracted, moment)
    return sorted((with_window(f, layout[f.id]) for f in recorded), key=order_key)


def valid_at(fact: Fact, moment: datetime) -> bool:
    """Whether `fact` held at `moment` (its window is half-open: [valid_from, valid_to))."""
    return fact.valid_from <= moment and (fact.valid_to is None or moment < fact.valid_to)


def by_key(facts: Iterable[Fact]) -> dict[tuple[str, str], list[Fact]]:
    """Facts grouped by (subject_id, relation), each group in time order."""
    groups: dict[tuple[str, str], list[Fact]] = {}
    for fact in facts:
        groups.setdefault((fact.subject_id, fact.relation), []).append(fact)
    for group in groups.values():
        group.sort(key=order_key)
    return groups


def view(
    facts: Sequence[Fact],
    as_of: datetime | None,
    include_history: bool,
    retracted: Retractions | None = None,
    withdrawn: Withdrawals | None = None,
) -> list[Fact]:
    """The facts a read returns: current values, or what held at `as_of`; history on request.

    `retracted` and `withdrawn` are needed with `as_of` (see retractions_of, withdrawals_of).
    """
    out: list[Fact] = []
    for group in by_key(facts).values():
        if as_of is None:
            chosen = [f for f in group if f.status in LEDGER_STATUSES]
            out.extend(
                chosen if include_history else [f for f in chosen if f.status == FactStatus.ACTIVE]
            )
            continue
        known = known_at(group, as_of, retracted or {}, withdrawn)
        if include_history:
            out.extend(f for f in known if f.valid_from <= as_of)
        else:
            out.extend(f for f in known if valid_at(f, as_of))
    out.sort(key=lambda f: (f.subject.casefold(), f.relation, *order_key(f)))
    return out


def profile_order(facts: Sequence[Fact], user_subject: str) -> list[Fact]:
    """Current facts, most useful first, deterministically: the user, then central subjects.

    A subject's weight is how many keys it has (the people and projects a store talks about
    most); within a subject, the most recently changed values come first.
    """
    current = [f for f in facts if f.status == FactStatus.ACTIVE]
    keys_per_subject: dict[str, int] = {}
    for fact in current:
        keys_per_subject[fact.subject_id] = keys_per_subject.get(fact.subject_id, 0) + 1
    return sorted(
        current,
        key=lambda f: (
            f.subject_id != user_subject,
            -keys_per_subject[f.subject_id],
            f.subject.casefold(),
            -f.valid_from.timestamp(),
            f.relation,
        ),
    )
