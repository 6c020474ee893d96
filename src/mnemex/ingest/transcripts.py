"""Chat transcripts: Claude Code session JSONL and a generic chat JSONL, through the
activation layer.

Generic chat JSONL, one message per line: `{"role": "user" | "assistant" | "system" | "tool",
"content": "text" or [{"type": "text", "text": ...}], "timestamp": ISO 8601 or epoch seconds}`
(timestamp optional). Every line is a turn; only user turns can become memories, and only when
`analyze` recommends keeping them (an explicit request always counts). Skipped before analysis:
assistant turns and tool calls, tool output, system and meta entries, slash commands, hook
attachments, what Mnemex injected (`<recalled-memory>` blocks, and the hook and reminder
wrappers around them: never saved again), code and log pastes with no words around them,
acknowledgements and emoji, and pasted texts longer than `MAX_TURN_CHARS`.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from mnemex.engine import Engine
from mnemex.ingest.document import as_time
from mnemex.text import is_trivial

MAX_TURN_CHARS = 3_000  # a longer user turn is a pasted document: ingest the document itself
_INJECTED = re.compile(
    r"<(recalled-memory|system-reminder|user-prompt-submit-hook)>.*?</\1>", re.DOTALL
)
_FENCED = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_COMMAND = ("<command-", "<local-command-", "<bash-", "Caveat: The messages below")
_INTERRUPTED = "[Request interrupted by user"
_CODE_LINE = re.compile(
    r"""^\s*(?:Traceback\b|File\ "|at\ [\w.$<>]+\(|\$\ |>>>\ |\.\.\.\ |[-+]{3}\ |@@\ |[{}\[\]();,]+$
    |def\s+\w+\s*\(|class\s+\w+\s*[:(]|import\s+[\w.]+\s*$|from\s+[\w.]+\s+import\b
    |(?:const|let|var)\s+\w+\s*=|function\s*\w*\s*\(
    |[\w.]*(?:Error|Exception):|E\s{2,}|\d+\s*\|)""",
    re.VERBOSE,
)
_CLAUDE_TYPES = frozenset({"user", "assistant", "system", "attachment"})
_WORD = re.compile(r"[^\W\d_]{2,}")


class TranscriptError(Exception):
    """A JSONL file that is neither a Claude Code session nor a chat: reported, then skipped."""


@dataclass(slots=True)
class Turn:
    """One message of a transcript: its line, who spoke, its words and, if skipped, why."""

    line: int
    hash: str  # of the raw line: a turn's identity across runs
    role: str
    text: str
    timestamp: datetime | None
    skip: str | None = None  # why the rules skip it before analysis (None: analyse it)
    session: str | None = None


@dataclass(slots=True)
class Transcript:
    """A transcript as read: its layout, title (a session summary), turns and bad lines."""

    kind: str  # claude-code | chat
    title: str | None
    turns: list[Turn]
    bad_lines: list[int]


def read(text: str) -> Transcript:
    """Turns of a Claude Code session or a generic chat JSONL file."""
    entries: list[tuple[int, str, dict[str, Any]]] = []
    bad: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            bad.append(number)
            continue
        if isinstance(value, dict):
            entries.append((number, line, value))
        else:
            bad.append(number)
    kind = _layout([entry for _, _, entry in entries[:20]])
    title: str | None = None
    turns: list[Turn] = []
    for number, line, entry in entries:
        digest = hashlib.sha256(line.strip().encode("utf-8")).hexdigest()
        if kind == "claude-code":
            if entry.get("type") == "summary" and isinstance(entry.get("summary"), str):
                title = title or " ".join(entry["summary"].split())
            turn = _claude_turn(number, digest, entry)
        else:
            turn = _chat_turn(number, digest, entry)
        if turn is not None:
            turns.append(turn)
    return Transcript(kind, title, turns, bad)


def _layout(sample: list[dict[str, Any]]) -> str:
    if any(entry.get("format") == "mnemex-export" for entry in sample):
        raise TranscriptError("a Mnemex export: load it with `mnemex import`")
    if any("sessionId" in e or (e.get("type") in _CLAUDE_TYPES and "message" in e) for e in sample):
        return "claude-code"
    if any("role" in entry and "content" in entry for entry in sample):
        return "chat"
    raise TranscriptError(
        "not a transcript: expected Claude Code session lines or {role, content, timestamp}"
    )


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            block.get("text", "")
            for block in content
            if isinstance(block, dict) and block.get("type") == "text"
        ]
        return "\n".join(part for part in parts if isinstance(part, str) and part)
    return ""


def _time(value: Any) -> datetime | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        seconds = value / 1000 if value > 1e11 else value  # milliseconds, as JavaScript writes
        try:
            return datetime.fromtimestamp(seconds, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    return as_time(value) if isinstance(value, str) else None


def _claude_turn(number: int, digest: str, entry: dict[str, Any]) -> Turn | None:
    kind = entry.get("type")
    if kind not in _CLAUDE_TYPES:
        return None  # summaries, titles, snapshots: not turns
    when = _time(entry.get("timestamp"))
    session = entry.get("sessionId") if isinstance(entry.get("sessionId"), str) else None
    message = entry.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    turn = Turn(number, digest, str(kind), _text(content), when, None, session)
    if kind == "attachment":
        turn.skip = "injected"  # hook output and other attachments Claude Code adds
    elif kind == "system":
        turn.skip = "system"
    elif kind == "assistant" or entry.get("isSidechain"):
        uses_tool = isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_use" for b in content
        )
        turn.role = "assistant"
        turn.skip = "tool call" if uses_tool else "assistant"
    elif entry.get("isMeta") or entry.get("isCompactSummary"):
        turn.skip = "meta"
    elif isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") == "tool_result" for b in content
    ):
        turn.skip = "tool output"
    else:
        screen(turn)
    return turn


def _chat_turn(number: int, digest: str, entry: dict[str, Any]) -> Turn | None:
    role = entry.get("role")
    if not isinstance(role, str):
        return None
    when = _time(entry.get("timestamp") or entry.get("created_at") or entry.get("time"))
    turn = Turn(number, digest, role, _text(entry.get("content")), when)
    if role == "user":
        screen(turn)
    else:
        turn.skip = {"assistant": "assistant", "system": "system"}.get(role, "tool output")
    return turn


def screen(turn: Turn) -> None:
    """The rules a user turn passes before analysis: its text cleaned, or why it is skipped."""
    raw = turn.text
    stripped = raw.strip()
    if stripped.startswith(_COMMAND):
        turn.skip = "command"
        return
    if stripped.startswith(_INTERRUPTED):
        turn.skip = "chatter"
        return
    text = _INJECTED.sub(" ", raw).strip()
    if not text:
        turn.skip = "recalled memory" if stripped else "empty"
        return
    prose = "\n".join(
        line for line in _FENCED.sub("\n", text).splitlines() if not _CODE_LINE.match(line)
    ).strip()
    if len(_WORD.findall(prose)) < 3 and len(prose) < len(text):
        turn.skip = "code dump"
        return
    if is_trivial(prose):
        turn.skip = "chatter"
        return
    if len(prose) > MAX_TURN_CHARS:
        turn.skip = "pasted text"
        return
    turn.text = prose


SAVE_ACTIONS = frozenset({"MUST_SAVE", "SHOULD_SAVE"})
_CONTEXT_CHARS = 2_000  # the reply before a turn, as the Stop hook gives it

# Task talk: what a user says to an agent about the work at hand. Most user turns of a coding
# session are of this kind, and the intent model, trained on messages worth keeping and
# everyday questions, reads many as facts ("make it nullable", "the test fails now"). In
# bulk history a lasting statement stands on its own: it asks nothing, it is not a reply to
# the turn before, not an instruction for this task, not a guess, and not about this moment.
_OPENERS = frozenset(
    """
    yes yeah yep yup no nope ok okay k kk sure hmm hm ugh argh oops wait sorry ah oh aha great
    nice perfect cool awesome thanks thank lol haha wow interesting right alright fine sounds
    looks good hi hello hey morning evening same anyway hmmm
    """.split()
)
_POINTERS = frozenset("that this it those these here there".split())
_VERBS = frozenset(
    """
    add apply ask build bump call change check clean clear commit continue convert copy create
    delete deploy do don't dont drop edit explain extract find fix format give go hardcode
    implement install keep leave let let's lint look make merge move open pin print push put
    read rebase refactor reload remove rename replace rerun reset restart retry revert review
    rewrite run send set show simplify skip sort split squash start stop switch tell test try
    undo update upgrade use wait write
    """.split()
)
_SOFTENERS = frozenset("please just then now also and but so ok okay".split())
_LASTING = re.compile(
    r"\b(?:always|never|from now on|going forward|in (?:the )?future|every time|whenever|"
    r"by default|in this (?:repo|repository|project|codebase)|for all)\b",
    re.IGNORECASE,
)
_GUESS = re.compile(
    r"^(?:i think|i guess|i suspect|i wonder|maybe|probably|perhaps|seems|it seems|looks like)\b"
)
_MOMENT = re.compile(
    r"\b(?:again|yesterday|today|tonight|for now|this (?:morning|afternoon|evening)|"
    r"right now|at the moment|never mind|in an hour|in a minute)\b"
)
_TOKEN = re.compile(r"[\w']+")


def task_talk(text: str) -> str | None:
    """Why a turn is talk about the task at hand, or None when it may state something lasting."""
    if "?" in text:
        return "question"
    lowered = text.casefold().replace("\u2019", "'")
    words = _TOKEN.findall(lowered)
    if not words:
        return "chatter"
    first = words[0]
    if first in _OPENERS or first.split("'")[0] in _POINTERS:
        return "reply"
    if _GUESS.match(lowered):
        return "guess"
    lasting = bool(_LASTING.search(lowered.replace("never mind", "")))
    rest = [word for word in words if word not in _SOFTENERS] or words
    if rest[0] in _VERBS and not lasting:
        return "instruction"
    if _MOMENT.search(lowered) and not lasting:
        return "about this moment"
    return None


def context_before(turns: list[Turn], index: int) -> str | None:
    """The assistant's last words before turn `index` (what "it" and "that" may refer to)."""
    for turn in reversed(turns[:index]):
        if turn.role == "assistant" and turn.skip == "assistant" and turn.text.strip():
            return turn.text[-_CONTEXT_CHARS:]
        if turn.role == "user" and turn.skip is None:
            return None
    return None


def decide(engine: Engine, tenant: str, turn: Turn, context: str | None) -> str | None:
    """None when analysis says the user turn is worth keeping; else why it is not."""
    analyzer = engine.analyzer
    findings = analyzer.run(
        turn.text, turns=analyzer.turns(None, context), view=engine.store_reader(tenant)
    )
    analysis = findings.analysis
    if analysis.save_request:
        return None  # an explicit request is kept, whatever its form
    if analysis.action in SAVE_ACTIONS:
        return task_talk(turn.text)
    return {
        "DUPLICATE_DETECTED": "already remembered",
        "SHOULD_SEARCH": "question",
    }.get(analysis.action, "not worth keeping")
