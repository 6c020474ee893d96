"""Claude Code hook adapters: JSON payload in (stdin), hook output out (stdout).

UserPromptSubmit recalls memories for the prompt and injects them as additional context;
Stop analyses the turn's user message and saves it only when analysis recommends it. Both
give up silently rather than block the agent: a hook that fails prints nothing and exits 0.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from mnemex.interfaces.hooks.backend import HookBackend
from mnemex.interfaces.hooks.cache import RecallCache
from mnemex.interfaces.hooks.turn import is_trivial, save_fields, worth_saving

T = TypeVar("T")
RECALL_K = 5
_CONTEXT_CHARS = 2_000
_COMMAND_MARKERS = ("<command-", "<local-command-", "<bash-", "Caveat:")
_MEMORY_ID = re.compile(r"\bmem_[0-9a-z]{26}\b")


def on_prompt(
    payload: dict[str, Any], backend: HookBackend, cache: RecallCache
) -> dict[str, Any] | None:
    """UserPromptSubmit: a <recalled-memory> block as additionalContext, or None."""
    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or is_trivial(prompt):
        return None
    block = cache.get(backend.scope, prompt)
    if block is None:
        block = backend.recall(prompt, RECALL_K)
        cache.put(backend.scope, prompt, block)
    if not block:
        return None
    return {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": block}}


def _text(content: Any) -> str:
    """The plain text of a transcript message (a string, or text blocks among tool blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"
        ]
        return "\n".join(part for part in parts if part)
    return ""


def last_turn(transcript: Path) -> tuple[str | None, str]:
    """The last message the user typed and the assistant's text after it."""
    prompt: str | None = None
    replies: list[str] = []
    try:
        lines = transcript.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None, ""
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict) or entry.get("isMeta") or entry.get("isSidechain"):
            continue
        message = entry.get("message") or {}
        text = _text(message.get("content")).strip() if isinstance(message, dict) else ""
        if entry.get("type") == "user" and text and not text.startswith(_COMMAND_MARKERS):
            prompt, replies = text, []
        elif entry.get("type") == "assistant" and text:
            replies.append(text)
    return prompt, "\n".join(replies)


def cited_ids(reply: str) -> list[str]:
    """Memory ids the assistant's reply names (the recalled block shows each one's id)."""
    return list(dict.fromkeys(_MEMORY_ID.findall(reply)))


def on_stop(payload: dict[str, Any], backend: HookBackend) -> str | None:
    """Stop: memories the reply cites count as used (observe); then save the turn's user
    message if analysis recommends it; the new id, or None."""
    if payload.get("stop_hook_active"):
        return None  # Claude is continuing because of a stop hook: the turn was handled
    path = payload.get("transcript_path")
    prompt, reply = last_turn(Path(path)) if isinstance(path, str) else (None, "")
    last = payload.get("last_assistant_message")
    used = cited_ids("\n".join([reply, last if isinstance(last, str) else ""]))
    if used:
        backend.observe(used)
    if not prompt or is_trivial(prompt):
        return None
    context = (last if isinstance(last, str) and last else reply)[:_CONTEXT_CHARS] or None
    analysis = backend.analyze(prompt, context)
    if not worth_saving(analysis):
        return None
    fields = save_fields(prompt, analysis, "claude-code")
    session = payload.get("session_id")
    if isinstance(session, str):
        fields["meta"] = {"session_id": session}
    return backend.save(fields)


def process_age() -> float:
    """Seconds since this process started (Linux /proc; 0.0 elsewhere)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime", encoding="ascii") as uptime:
            now = float(uptime.read().split()[0])
    except (OSError, IndexError, ValueError):
        return 0.0
    return max(0.0, now - int(fields[19]) / os.sysconf("SC_CLK_TCK"))


def remaining(total: float) -> float:
    """What is left of the hook's time budget once interpreter start-up is paid for."""
    return max(0.2, total - process_age())


def within(seconds: float, work: Callable[[], T]) -> T | None:
    """`work()`'s result, or None if it takes longer than `seconds` or fails (never blocks)."""
    result: list[T] = []

    def run() -> None:
        try:
            result.append(work())
        except Exception as exc:  # a hook must never break the agent: report and carry on
            sys.stderr.write(f"mnemex hook: {type(exc).__name__}: {exc}\n")

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    return result[0] if result else None
