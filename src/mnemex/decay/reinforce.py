"""Reinforcement: what a use (touch) or a use in conversation (observe) does to a memory."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from mnemex.config import Settings
from mnemex.decay.curve import MAX_STRENGTH
from mnemex.limits import normalize_tag
from mnemex.models import Memory
from mnemex.text import query_terms


def touched(memory: Memory, now: datetime, settings: Settings, *, boost: bool) -> dict[str, Any]:
    """+1 use now; with `boost`, +touch_boost strength (capped at 2)."""
    changes: dict[str, Any] = {"use_count": memory.use_count + 1, "last_used": now}
    if boost:
        changes["strength"] = min(MAX_STRENGTH, memory.strength + settings.touch_boost)
    return changes


def observed(
    memory: Memory, context_tags: set[str], now: datetime, settings: Settings
) -> dict[str, Any]:
    """Spaced repetition: +1 use and +1 review; a cross-domain use adds a little strength.

    A use is cross-domain when the context's tags overlap the memory's by less than the
    `cross_domain_jaccard` threshold: knowledge that proves useful elsewhere is worth more.
    """
    changes: dict[str, Any] = {
        "use_count": memory.use_count + 1,
        "review_count": memory.review_count + 1,
        "last_used": now,
        "last_review": now,
    }
    tags = set(memory.tags)
    if context_tags and tags:
        jaccard = len(tags & context_tags) / len(tags | context_tags)
        if jaccard < settings.cross_domain_jaccard:
            changes["strength"] = min(MAX_STRENGTH, memory.strength + settings.cross_domain_boost)
    return changes


def context_tags(context: str | Sequence[str] | None) -> set[str]:
    """The tags of a use's context: given tags, or the content words of a context text."""
    if context is None:
        return set()
    if isinstance(context, str):
        return {normalize_tag(word) for word in query_terms(context)}
    return {normalize_tag(tag) for tag in context if isinstance(tag, str)}
