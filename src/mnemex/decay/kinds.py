"""What a memory is, and how long each kind stays alive: the half-life table.

A memory's effective half-life is its kind's half-life times its `stability` (spaced uses
stretch it, decay/reinforce.py). A plain `note` keeps `half_life_days`, so stores and
benchmarks that never set a kind score exactly as before.
"""

from __future__ import annotations

from mnemex.config import Settings

REQUEST = "request"  # an explicit "remember that ...": protected from gc
DECISION = "decision"
PREFERENCE = "preference"
FACT = "fact"  # a lasting fact (people, health, diet, family, work)
NOTE = "note"  # the default: what was saved with no sign of lasting or not
CHATTER = "chatter"  # no content worth keeping

KINDS = (REQUEST, DECISION, PREFERENCE, FACT, NOTE, CHATTER)
PROTECTED_KINDS = frozenset({REQUEST})
LASTING_KINDS = frozenset({REQUEST, DECISION, PREFERENCE, FACT})


def half_lives(settings: Settings) -> dict[str, float]:
    """Days to half strength of each kind, before stability stretches them."""
    return {
        REQUEST: settings.request_half_life_days,
        DECISION: settings.decision_half_life_days,
        PREFERENCE: settings.preference_half_life_days,
        FACT: settings.fact_half_life_days,
        NOTE: settings.half_life_days,
        CHATTER: settings.chatter_half_life_days,
    }
