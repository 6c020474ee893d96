"""Importance: a memory's initial strength from its intent and its strongest keyword."""

from __future__ import annotations

from mnemex.analysis.phrases import Phrases

# Base strength by intent (issue 5): decisions outlive preferences, which outlive plain facts.
BASE = {"SAVE_DECISION": 1.3, "SAVE_PREFERENCE": 1.1, "SAVE_FACT": 1.0}
DEFAULT_BASE = 1.0
# An explicit "remember this" counts as a keyword of its own, weaker than "critical".
EXPLICIT_BOOST = 0.2
MIN_STRENGTH, MAX_STRENGTH = 0.0, 2.0


def keyword_boost(phrases: Phrases) -> float:
    """The strongest boost among the message's keywords (largest magnitude; ties go up)."""
    candidates = [phrases.boost]
    if phrases.save_request:
        candidates.append(EXPLICIT_BOOST)
    return max(candidates, key=lambda value: (abs(value), value))


def strength(intent: str, phrases: Phrases) -> float:
    """Strength in [0, 2]: intent base plus the strongest keyword boost, clamped."""
    value = BASE.get(intent, DEFAULT_BASE) + keyword_boost(phrases)
    return round(min(MAX_STRENGTH, max(MIN_STRENGTH, value)), 3)
