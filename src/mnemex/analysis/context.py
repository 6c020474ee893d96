"""Conversation context: a window of recent messages per session, and pronouns resolved to it.

The window lives in the process (an agent's session is short-lived); it keeps the last few messages
of each session and the names they mentioned, so "I use it every day" after "Have you tried Helix?"
is read as being about Helix, and a message too short to classify alone is read with its context.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field

# "it"/"that"/"this"/"them" standing for a thing, not "remember that I ..." or "this week".
_PRONOUN = re.compile(
    r"\b(?:it|them)\b(?!\s*(?:'s|’s|is|was)\s+(?:raining|snowing|time|late|early|ok|okay|fine))"
    r"|\b(?:that|this)\b(?=\s*(?:[.,!?;:]|$|\s+(?:is|was|one|thing|tool|app|editor|language|"
    r"library|framework|project|place|person|guy|team|company)\b))",
    re.IGNORECASE,
)
_EXPLETIVE = re.compile(
    r"^\s*(?:it|that|this)(?:\s+is|'s|’s)\s+(?:important|critical|crucial|true|fine|ok|okay|"
    r"great|nice|all|what|how|why|because|a shame|not)\b",
    re.IGNORECASE,
)
# "remember this", "note that": the pronoun is the message itself, not an entity.
_ABOUT_MESSAGE = re.compile(
    r"\b(?:remember|forget|note|save|store|record|write|keep|memorize|memorise|ignore|disregard)"
    r"\s*$",
    re.IGNORECASE,
)
FRAGMENT_WORDS = 4


@dataclass(slots=True)
class Turn:
    """One earlier message and the names it mentioned."""

    text: str
    entities: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Reference:
    """A pronoun in the message and the entity it stands for."""

    pronoun: str
    start: int
    end: int
    entity: str


class SessionWindows:
    """The last `size` turns of each session id; the least recently used sessions are dropped."""

    def __init__(self, size: int = 8, max_sessions: int = 1_000) -> None:
        self.size = size
        self.max_sessions = max_sessions
        self._sessions: OrderedDict[str, deque[Turn]] = OrderedDict()
        self._lock = threading.Lock()

    def window(self, session_id: str) -> list[Turn]:
        """The session's recent turns, oldest first."""
        with self._lock:
            turns = self._sessions.get(session_id)
            if turns is None:
                return []
            self._sessions.move_to_end(session_id)
            return list(turns)

    def add(self, session_id: str, turn: Turn) -> None:
        """Append a turn to the session's window."""
        with self._lock:
            turns = self._sessions.get(session_id)
            if turns is None:
                turns = self._sessions[session_id] = deque(maxlen=self.size)
            turns.append(turn)
            self._sessions.move_to_end(session_id)
            while len(self._sessions) > self.max_sessions:
                self._sessions.popitem(last=False)

    def clear(self, session_id: str) -> None:
        """Forget a session."""
        with self._lock:
            self._sessions.pop(session_id, None)


def as_turns(context: str | Sequence[str] | None) -> list[Turn]:
    """Caller-given context (one text or a list of earlier messages) as turns."""
    if context is None:
        return []
    items = [context] if isinstance(context, str) else list(context)
    return [Turn(text) for text in items if isinstance(text, str) and text.strip()]


def last_entity(turns: Sequence[Turn], exclude: Sequence[str] = ()) -> str | None:
    """The most recently mentioned name in the window, other than those in `exclude`."""
    skip = {name.casefold() for name in exclude}
    for turn in reversed(turns):
        for name in reversed(turn.entities):
            if name.casefold() not in skip:
                return name
    return None


def resolve(message: str, turns: Sequence[Turn], own_entities: Sequence[str]) -> list[Reference]:
    """Pronouns of the message that stand for the last entity of the conversation."""
    if _EXPLETIVE.search(message):
        return []
    target = last_entity(turns, own_entities)
    if target is None:
        return []
    return [
        Reference(match.group(0), match.start(), match.end(), target)
        for match in _PRONOUN.finditer(message)
        if not _ABOUT_MESSAGE.search(message[: match.start()])
    ]


def substitute(message: str, references: Sequence[Reference]) -> str:
    """The message with each resolved pronoun replaced by its entity's name."""
    out, last = [], 0
    for ref in sorted(references, key=lambda r: r.start):
        out.append(message[last : ref.start])
        out.append(ref.entity)
        last = ref.end
    out.append(message[last:])
    return "".join(out)


def answers_question(turns: Sequence[Turn]) -> bool:
    """True when the last turn asked a question (so the message may be its answer)."""
    return bool(turns) and turns[-1].text.rstrip().endswith("?")


def is_fragment(message: str) -> bool:
    """A message too short to read alone ("Black, no sugar.")."""
    return len(message.split()) <= FRAGMENT_WORDS


def with_context(message: str, turns: Sequence[Turn], depth: int = 2) -> str:
    """The message preceded by the last `depth` turns: what a fragment is classified with."""
    previous = [turn.text.strip() for turn in turns[-depth:] if turn.text.strip()]
    return " ".join([*previous, message.strip()])
