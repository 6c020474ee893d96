"""One conversational turn: is a message worth a recall, and is it worth keeping afterwards.

Shared by the Claude Code hooks and MemoryHarness so both follow the same rules: skip trivial
messages, save only what analysis recommends (an explicit request to remember always counts).
"""

from __future__ import annotations

import re
from typing import Any

SAVE_ACTIONS = frozenset({"MUST_SAVE", "SHOULD_SAVE"})
# Words that make up acknowledgements ("ok thanks", "yes please go ahead"): a message made only
# of these has nothing to recall for.
ACKNOWLEDGEMENTS = frozenset(
    """
    ok okay k kk yes y yeah yep yup no n nope sure thanks thank you thx ty a lot cool nice great
    good perfect awesome done lgtm continue go on ahead proceed right correct got it sounds
    makes sense agreed fine alright all please do looks ship that this is
    """.split()
)
_WORD = re.compile(r"\w+")


def is_trivial(message: str) -> bool:
    """A message with nothing to recall for: an acknowledgement, emoji or punctuation only."""
    words = _WORD.findall(message.casefold())
    if not words:
        return True
    return all(word in ACKNOWLEDGEMENTS for word in words)


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
