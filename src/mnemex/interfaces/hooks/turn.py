"""One conversational turn: is a message worth a recall, and is it worth keeping afterwards.

Shared by the Claude Code hooks and MemoryHarness so both follow the same rules: skip trivial
messages, save only what analysis recommends (an explicit request to remember always counts).
"""

from __future__ import annotations

from typing import Any

from mnemex.text import is_trivial

__all__ = ["is_trivial", "save_fields", "worth_saving"]
SAVE_ACTIONS = frozenset({"MUST_SAVE", "SHOULD_SAVE"})


def worth_saving(analysis: dict[str, Any]) -> bool:
    """Whether analysis recommends keeping the message (explicit requests always count)."""
    return bool(analysis.get("save_request")) or analysis.get("action") in SAVE_ACTIONS


def save_fields(message: str, analysis: dict[str, Any], source: str) -> dict[str, Any]:
    """The save call analysis suggests: the message itself with its tags, entities, strength."""
    entities = [
        e["name"] for e in analysis.get("entities", []) if isinstance(e, dict) and e.get("name")
    ]
    return {
        "content": message.strip(),
        "tags": analysis.get("tags") or None,
        "entities": entities or None,
        "strength": analysis.get("strength"),
        "source": source,
    }
