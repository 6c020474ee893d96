"""Which key a verb-only statement changes ("I switched to Neovim"), with a confidence.

A single user's values are often new to the ledger, so the evidence comes from the value itself
and from the subject's own keys, each piece a strength in [0, 1] for one candidate key:

- a cue: the replaced value ("from Vim", "instead of Vim", "Vim -> Neovim") is a value of the key;
  a replaced value that is none of the key's values speaks against it;
- what the ledger knows: the subject held this value under the key before, or others do;
- the value's kind (ledger/kinds.py): the category table, its shape, analysis's entity label;
- the verb's prior ("moved to": a place, an employer or a team; "switched to": a tool);
- the subject already has the key (a change statement most often updates a known value);
- how much nearer the value's embedding is to the key's values than to the other keys' values
  (MiniLM picks the right relation from value strings alone only 57% of the time: one signal).

Pieces combine by noisy-OR; a kind the key cannot hold (an editor for `city`) scales it down. The
confidence is the best key's score discounted by the runner-up's, so two plausible keys ask a
person. The thresholds acting on it are settings calibrated in bench/value_keys.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from mnemex.ledger import kinds
from mnemex.ledger.history import LEDGER_STATUSES
from mnemex.models import Fact, FactStatus
from mnemex.text import names_value, same_value

UNKNOWN = "?"  # the relation of a kept statement whose key is not known yet (never a name)

CUE = 0.97  # the replaced value is this key's current value: the sentence names the key
CUE_PAST = 0.9  # ...or one of its earlier values
BACK = 0.9  # the subject held this very value under the key before ("went back to Vim")
ELSEWHERE = 0.8  # other subjects hold this value under the key
OWN = 0.35  # the subject has this key (and the verb may change it): there is a value to replace
VERB = 0.3  # the verb may change a key of this kind
SIMILAR_MAX = 0.4  # the most value similarity alone can say
SIMILAR_SCALE = 2.0  # evidence per unit of cosine margin over the other keys' values
MISFIT = 0.1  # a near-certain kind the key cannot hold
# The replaced value the statement names is none of the key's values, held, past or awaiting
# review ("switched from Spotify to Apple Music" while the employer is Brightwave): most likely
# another key, which a person is asked about rather than the employer replaced.
CONTRADICTED = 0.3
MISFIT_LABEL = 0.6  # an entity label the key cannot hold (spaCy's labels are often wrong)
NOT_A_PLACE = 0.5  # analysis labelled the value, but not as a place: a "moved to" is no move
RUNNER_UP = 0.5  # how much a second plausible key takes off the confidence

TOOLS = frozenset(
    "editor database language operating_system browser cloud deploy ci framework shell "
    "terminal queue".split()
)
# The kinds of key each class of change verb may change.
VERB_KINDS: dict[str, frozenset[str]] = {
    "move": frozenset({"place", "org", "team"}) | TOOLS,
    "join": frozenset({"org", "team"}),
    "switch": TOOLS | {"org", "team", "phone", "email", "website", "person"},
    "use": TOOLS,
}
# What "moved to X" may be when nothing is known of X (a team is named as one: "the X team").
_MOVE_KINDS = frozenset({"place", "org"})

# Cosine of a value to other values; None when there is no embedding model.
Similar = Callable[[str, Sequence[str]], list[float] | None]


@dataclass(slots=True)
class Guess:
    """The best key for a value, how sure, and the evidence behind each candidate."""

    relation: str | None
    confidence: float
    scores: dict[str, float] = field(default_factory=dict)
    reasons: dict[str, list[str]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Statement:
    """What the guess reads of one statement."""

    value: str
    previous: str | None = None
    verb: str | None = None
    category: str | None = None  # analysis's entity category of the value


class _Board:
    """Evidence gathered per candidate key."""

    def __init__(self) -> None:
        self.evidence: dict[str, list[tuple[str, float]]] = {}
        self.factor: dict[str, float] = {}

    def add(self, relation: str, reason: str, strength: float) -> None:
        if strength > 0:
            self.evidence.setdefault(relation, []).append((reason, strength))

    def scale(self, relation: str, factor: float) -> None:
        self.factor[relation] = self.factor.get(relation, 1.0) * factor

    def score(self, relation: str) -> float:
        miss = 1.0
        for _, strength in self.evidence.get(relation, []):
            miss *= 1.0 - strength
        return (1.0 - miss) * self.factor.get(relation, 1.0)


def guess(
    own: list[Fact],
    said: Statement,
    elsewhere: Counter[str],
    similar: Similar | None = None,
) -> Guess:
    """The key of `said.value` among the subject's keys (`own` facts) and the kinds' defaults."""
    board = _Board()
    current = {
        f.relation: f.object for f in own if f.status == FactStatus.ACTIVE and f.relation != UNKNOWN
    }
    past = [f for f in own if f.status in LEDGER_STATUSES and f.relation != UNKNOWN]
    for fact in past:
        if said.previous is not None and names_value(said.previous, fact.object):
            board.add(fact.relation, "cue", CUE if fact.status == FactStatus.ACTIVE else CUE_PAST)
        if same_value(fact.object, said.value):
            board.add(fact.relation, "held before", BACK)
    for relation, count in elsewhere.items():
        if relation != UNKNOWN and count:
            board.add(relation, "others hold it", ELSEWHERE)
    found = kinds.value_kinds(said.value, said.category)
    allowed = VERB_KINDS.get(said.verb or "")
    if allowed is not None:
        # An entity label the verb rules out is spaCy misreading a name ("I use Supabase": ORG).
        found = [k for k in found if k.source != "label" or k.kind in allowed]
    for kind in found:
        default = kinds.FAMILIES[kind.kind].default
        targets = [r for r in current if kinds.fits(kind.kind, r)] or ([default] if default else [])
        for relation in targets:
            board.add(relation, f"{kind.source}: {kind.kind}", kind.strength)
    _verb_evidence(board, said, current, found)
    if similar is not None and len(current) >= 2:
        _similarity_evidence(board, said.value, current, similar)
    _misfits(board, said, found)
    if said.previous is not None:  # a replaced value none of the key's values is
        for relation in current:
            held = [f.object for f in own if f.relation == relation]
            if not any(
                names_value(said.previous, v) or names_value(v, said.previous) for v in held
            ):
                board.scale(relation, CONTRADICTED)
    return _decide(board)


def _verb_evidence(
    board: _Board, said: Statement, current: dict[str, str], found: list[kinds.ValueKind]
) -> None:
    """The verb's prior, and the subject's own keys the verb may change."""
    allowed = VERB_KINDS.get(said.verb or "")
    for relation in current:
        families = kinds.families_of(relation)
        if allowed is None or any(kind in allowed for kind in families):
            board.add(relation, "own key", OWN)
        if allowed is not None and any(kind in allowed for kind in families):
            board.add(relation, f"verb: {said.verb}", VERB)
    if said.verb == "move" and not found:
        # "moved to X" with nothing known of X: a place or an employer, whichever the subject
        # has (own keys above), else each kind's default key, equally.
        for kind in sorted(_MOVE_KINDS):
            default = kinds.FAMILIES[kind].default
            if default and not any(kinds.fits(kind, r) for r in current):
                board.add(default, f"verb: {said.verb}", VERB)


def _similarity_evidence(
    board: _Board, value: str, current: dict[str, str], similar: Similar
) -> None:
    """Evidence for the key whose current value is clearly nearest to the new value."""
    relations = list(current)
    cosines = similar(value, [current[r] for r in relations])
    if cosines is None:
        return
    ranked = sorted(zip(cosines, relations, strict=True), reverse=True)
    (best, relation), (second, _) = ranked[0], ranked[1]
    strength = min(SIMILAR_MAX, SIMILAR_SCALE * (best - second))
    board.add(relation, f"similar to {current[relation]}", strength)


def _misfits(board: _Board, said: Statement, found: list[kinds.ValueKind]) -> None:
    """Scale down keys the value's kind cannot be, and keys no change verb changes."""
    for relation in list(board.evidence):
        families = kinds.families_of(relation)
        misfits = [kind for kind in found if families and kind.kind not in families]
        if misfits and len(misfits) == len(found):  # no kind the value may be fits this key
            sure = any(kind.source != "label" for kind in misfits)
            board.scale(relation, MISFIT if sure else MISFIT_LABEL)
        if said.verb in ("move", "switch", "join") and kinds.is_static(relation):
            board.scale(relation, MISFIT)
        if ("person" in families or kinds.people_key(relation)) and not kinds.person_named(
            said.value
        ):
            board.scale(relation, MISFIT)  # "switched me to rizatriptan": no manager
        labelled_elsewhere = said.category not in (None, "place")
        if said.verb == "move" and "place" in families and labelled_elsewhere and not found:
            board.scale(relation, NOT_A_PLACE)


def _decide(board: _Board) -> Guess:
    scores = {relation: board.score(relation) for relation in board.evidence}
    reasons = {r: [reason for reason, _ in board.evidence[r]] for r in board.evidence}
    if not scores:
        return Guess(None, 0.0)
    ranked = sorted(scores, key=lambda r: (-scores[r], r))
    best = scores[ranked[0]]
    second = scores[ranked[1]] if len(ranked) > 1 else 0.0
    cue = dict(board.evidence[ranked[0]]).get("cue", 0.0)
    if len(ranked) > 1 and "cue" not in reasons[ranked[1]]:
        # "moved from Mueller to Hyde Park" leaves the current value of one key: the statement
        # names that key, and a runner-up only takes off what the cue leaves open.
        second *= 1.0 - cue
    confidence = best * (1.0 - RUNNER_UP * second)
    return Guess(ranked[0], round(confidence, 4), scores, reasons)
