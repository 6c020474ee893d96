"""Reinforcement: what a use (touch), a use in conversation (observe) or an injection (recall)
does to a memory.

Every use refreshes `last_used` and counts +1 use. A well-spaced use also stretches the memory's
half-life, as SM-2 stretches a card's interval: `stability *= 1 + weight * (ease - 1) * spacing`,
where `spacing = min(1, gap / effective half-life)`. A use right when the memory would have
halved counts fully (x2.5 at SM-2's ease for an observe), a use an hour after the last one
hardly at all; recalls and repeats within `burst_minutes` of the last use count once. A
recall weighs `recall_weight` (0.5): the memory was put in front of the agent, which is less
than an agent saying it used it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from mnemex.config import Settings
from mnemex.decay.curve import MAX_STRENGTH
from mnemex.decay.kinds import NOTE, half_lives
from mnemex.limits import normalize_tag
from mnemex.models import Memory, SearchHit
from mnemex.text import query_terms


def in_burst(memory: Memory, now: datetime, settings: Settings) -> bool:
    """True when `now` is within `burst_minutes` of the memory's last use (or before it)."""
    gap = (now - memory.last_used).total_seconds()
    return gap < settings.burst_minutes * 60.0 and memory.use_count > 0


def spaced_use(
    memory: Memory, now: datetime, settings: Settings, weight: float = 1.0, *, implicit: bool
) -> dict[str, Any]:
    """One use of `weight` now: +1 use, `last_used` now, stability stretched by the spacing.

    An implicit use (a recall, a repeat) inside a burst is empty: within minutes of the last use
    it counts once. An explicit one (touch, observe) always counts +1 use; its spacing is ~0
    then, so it stretches nothing. Never lowers the score: the use count and stability only
    grow and `last_used` only moves forward."""
    if implicit and in_burst(memory, now, settings):
        return {}
    table = half_lives(settings)
    life = table.get(memory.kind, table[NOTE]) * max(memory.stability, 1.0)
    gap_days = max((now - memory.last_used).total_seconds(), 0.0) / 86_400.0
    spacing = min(1.0, gap_days / life)
    stability = max(memory.stability, 1.0) * (
        1.0 + weight * (settings.stability_ease - 1.0) * spacing
    )
    changes: dict[str, Any] = {"use_count": memory.use_count + 1}
    if now > memory.last_used:
        changes["last_used"] = now
    new_stability = min(settings.stability_cap, max(stability, memory.stability))
    if new_stability != memory.stability:
        changes["stability"] = new_stability
    return changes


def about_prompt(hit: SearchHit, settings: Settings) -> bool:
    """True when an injected hit is about its prompt: its embedding's cosine to the prompt is
    at least `recall_cosine` (or, with no vector channel, BM25 matched its words).

    Most prompts are about none of the memories, yet recall injects its best matches; counting
    those as uses would keep every bit of trivia alive for as long as the user types prompts."""
    vector = hit.channels.get("vector")
    if vector is not None:
        return vector.score >= settings.recall_cosine
    return (
        "bm25" in hit.channels
        and not any(name in hit.channels for name in ("vector", "context"))
        and settings.embed_model == "none"
    )


def recalled(memory: Memory, now: datetime, settings: Settings) -> dict[str, Any]:
    """A memory recall injected into an agent's prompt: a use of `recall_weight`.

    Recalls alone stretch the half-life at most to `recall_stability_cap` (below gc's
    `reinforced_stability`): a prompt injects its best matches even when none is really about
    it, so only an observe or touch (an agent saying it used the memory) can make it exempt."""
    if not settings.reinforcement:
        return {}
    changes = spaced_use(memory, now, settings, settings.recall_weight, implicit=True)
    if "stability" in changes:
        capped = max(memory.stability, min(changes["stability"], settings.recall_stability_cap))
        if capped == memory.stability:
            del changes["stability"]
        else:
            changes["stability"] = capped
    return changes


def repeated(memory: Memory, now: datetime, settings: Settings) -> dict[str, Any]:
    """A memory saved again (an exact or near duplicate): a full use, and one more repeat."""
    changes = spaced_use(memory, now, settings, implicit=True) if settings.reinforcement else {}
    return {**changes, "repeat_count": memory.repeat_count + 1}


def touched(memory: Memory, now: datetime, settings: Settings, *, boost: bool) -> dict[str, Any]:
    """+1 use now (spaced, see the module's note); with `boost`, +touch_boost strength (capped
    at 2)."""
    changes = spaced_use(memory, now, settings, implicit=False)
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
    changes = spaced_use(memory, now, settings, implicit=False)
    changes["review_count"] = memory.review_count + 1
    changes["last_review"] = now
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
