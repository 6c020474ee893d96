"""Consolidation: a cluster of similar memories becomes one memory that keeps its provenance."""

from __future__ import annotations

from mnemex.limits import content_hash
from mnemex.models import Memory


def merge_text(members: list[Memory]) -> str:
    """Each distinct text once, oldest first: nothing said by a member is lost."""
    seen: set[str] = set()
    parts: list[str] = []
    for memory in sorted(members, key=lambda m: (m.created_at, m.id)):
        key = content_hash(memory.content)
        if key not in seen:
            seen.add(key)
            parts.append(memory.content.strip())
    return "\n".join(parts)


def union(lists: list[list[str]]) -> list[str]:
    """Items of several lists, each once (case-insensitively), in first-seen order."""
    seen: set[str] = set()
    result: list[str] = []
    for items in lists:
        for item in items:
            if item.casefold() not in seen:
                seen.add(item.casefold())
                result.append(item)
    return result
