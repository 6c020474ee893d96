"""Claude Code hook adapters against recorded payloads, the recall cache and the deadline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import mnemex
from mnemex import MemoryStore, Settings
from mnemex.interfaces.hooks import cache as cache_mod
from mnemex.interfaces.hooks.backend import LocalBackend
from mnemex.interfaces.hooks.cache import RecallCache
from mnemex.interfaces.hooks.claude_code import (
    last_turn,
    on_prompt,
    on_stop,
    process_age,
    remaining,
    within,
)
from mnemex.interfaces.hooks.turn import is_trivial, worth_saving

FIXTURES = Path(__file__).parent / "fixtures" / "claude_code"
TRANSCRIPT = FIXTURES / "transcript.jsonl"
LAST_PROMPT = (
    "Remember that billing moved from MySQL to PostgreSQL 16 last week, please update the "
    "compose file."
)


def payload(name: str) -> dict[str, Any]:
    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    data["transcript_path"] = str(TRANSCRIPT)
    return dict(data)


class FakeBackend:
    """A backend that records calls and answers with a fixed analysis."""

    scope = "fake"

    def __init__(self, analysis: dict[str, Any] | None = None, block: str = "<b/>") -> None:
        self.analysis = analysis or {"action": "NONE"}
        self.block = block
        self.calls: list[tuple[str, Any]] = []

    def recall(self, prompt: str, k: int) -> str:
        self.calls.append(("recall", prompt))
        return self.block

    def analyze(self, message: str, context: str | None) -> dict[str, Any]:
        self.calls.append(("analyze", (message, context)))
        return self.analysis

    def save(self, fields: dict[str, Any]) -> str:
        self.calls.append(("save", fields))
        return "mem_saved"

    def observe(self, ids: list[str]) -> None:
        self.calls.append(("observe", ids))


@pytest.fixture
def cache(tmp_path: Path) -> RecallCache:
    return RecallCache(tmp_path / "cache.json")


@pytest.mark.parametrize(
    ("message", "trivial"),
    [
        ("ok", True),
        ("Thanks!", True),
        ("👍", True),
        ("ok thanks, go ahead", True),
        ("...", True),
        ("no, use postgres", False),
        ("Which database does billing use?", False),
    ],
)
def test_trivial_messages(message: str, trivial: bool) -> None:
    assert is_trivial(message) is trivial


def test_prompt_hook_injects_recalled_memories(mem_store: MemoryStore, cache: RecallCache) -> None:
    saved = mem_store.save("The billing service uses PostgreSQL 16", tags=["billing"])
    output = on_prompt(payload("user_prompt_submit.json"), LocalBackend(mem_store), cache)
    assert output is not None
    specific = output["hookSpecificOutput"]
    assert specific["hookEventName"] == "UserPromptSubmit"
    assert specific["additionalContext"].startswith("<recalled-memory>")
    assert saved.id in specific["additionalContext"]


def test_prompt_hook_adds_nothing_when_nothing_matches(
    mem_store: MemoryStore, cache: RecallCache
) -> None:
    assert on_prompt(payload("user_prompt_submit.json"), LocalBackend(mem_store), cache) is None


def test_prompt_hook_skips_acknowledgements(cache: RecallCache) -> None:
    backend = FakeBackend()
    assert on_prompt(payload("user_prompt_submit_ack.json"), backend, cache) is None
    assert backend.calls == []


def test_identical_prompts_are_answered_from_the_cache_for_30_s(
    cache: RecallCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = FakeBackend()
    first = on_prompt(payload("user_prompt_submit.json"), backend, cache)
    second = on_prompt(payload("user_prompt_submit.json"), backend, cache)
    assert first == second and len(backend.calls) == 1
    later = time.time() + cache_mod.TTL_S + 1
    monkeypatch.setattr(time, "time", lambda: later)  # the module cache_mod reads its clock from
    on_prompt(payload("user_prompt_submit.json"), backend, cache)
    assert len(backend.calls) == 2
    assert "billing" not in cache.path.read_text()  # keys are hashes, not prompts


def test_a_slow_hook_gives_up_instead_of_blocking() -> None:
    def slow() -> str:
        time.sleep(5)
        return "late"

    start = time.monotonic()
    assert within(0.2, slow) is None
    assert time.monotonic() - start < 1.0
    assert within(1.0, lambda: "quick") == "quick"
    assert within(1.0, lambda: 1 / 0) is None


def test_the_budget_counts_from_process_start() -> None:
    age = process_age()
    assert 0.0 < age < 3600.0  # this test process started a little while ago
    assert remaining(age + 10.0) == pytest.approx(10.0, abs=0.5)
    assert remaining(0.0) == 0.2  # never zero: a fast recall may still make it


def test_the_last_turn_of_a_transcript() -> None:
    prompt, reply = last_turn(TRANSCRIPT)
    assert prompt == LAST_PROMPT
    assert reply.startswith("I'll update the compose file.")
    assert reply.endswith("I updated docker-compose.yml accordingly.")
    assert last_turn(TRANSCRIPT.parent / "missing.jsonl") == (None, "")


def test_stop_hook_saves_only_what_analysis_recommends() -> None:
    ignore = FakeBackend({"action": "NONE"})
    assert on_stop(payload("stop.json"), ignore) is None
    assert [call[0] for call in ignore.calls] == ["analyze"]
    message, context = ignore.calls[0][1]
    assert message == LAST_PROMPT and context.startswith("Noted: billing now runs")
    keep = FakeBackend(
        {
            "action": "SHOULD_SAVE",
            "tags": ["billing"],
            "entities": [{"name": "PostgreSQL", "type": "tool"}],
            "strength": 1.3,
        }
    )
    assert on_stop(payload("stop.json"), keep) == "mem_saved"
    fields = keep.calls[-1][1]
    assert fields["content"] == LAST_PROMPT and fields["tags"] == ["billing"]
    assert fields["entities"] == ["PostgreSQL"] and fields["strength"] == 1.3
    assert fields["source"] == "claude-code" and fields["meta"]["session_id"]


def test_an_explicit_request_is_always_saved() -> None:
    assert worth_saving({"action": "NONE", "save_request": True})
    explicit = FakeBackend({"action": "DUPLICATE_DETECTED", "save_request": True})
    assert on_stop(payload("stop.json"), explicit) == "mem_saved"


def test_stop_hook_does_not_rerun_when_claude_continues() -> None:
    backend = FakeBackend({"action": "MUST_SAVE"})
    assert on_stop(payload("stop_hook_active.json"), backend) is None
    assert backend.calls == []


def test_stop_hook_with_the_real_analyser(mem_store: MemoryStore) -> None:
    saved_id = on_stop(payload("stop.json"), LocalBackend(mem_store))
    assert saved_id is not None
    assert "PostgreSQL 16" in mem_store.get(saved_id).content


def run_hook(args: list[str], stdin: str, home: Path) -> subprocess.CompletedProcess[str]:
    # Lexical only: the 3 s budget is about the hook, not the first load of an embedding model.
    env = {**os.environ, "MNEMEX_DATA_DIR": str(home / "data"), "MNEMEX_EMBED_MODEL": "none"}
    env.pop("MNEMEX_URL", None)
    command = [str(Path(sys.executable).parent / "mnemex"), *args]
    return subprocess.run(
        command, check=False, input=stdin, capture_output=True, text=True, env=env, timeout=60
    )


@pytest.mark.slow
def test_the_hook_command_prints_claude_code_output(tmp_path: Path) -> None:
    db = tmp_path / "hooks.db"
    settings = Settings.load(env={}, data_dir=tmp_path / "data", embed_model="none")
    with mnemex.open(db, settings=settings) as store:
        store.save("The billing service uses PostgreSQL 16")
    prompt = (FIXTURES / "user_prompt_submit.json").read_text()
    result = run_hook(["--db", str(db), "hook", "user-prompt-submit"], prompt, tmp_path)
    assert result.returncode == 0, result.stderr
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "PostgreSQL 16" in context
    broken = run_hook(["--db", str(db), "hook", "user-prompt-submit"], "not json", tmp_path)
    assert broken.returncode == 0 and broken.stdout == ""


def test_stop_hook_observes_the_memories_the_reply_cites(mem_store: MemoryStore) -> None:
    used = mem_store.save("The billing service uses PostgreSQL 16")
    reply = f"Billing runs on PostgreSQL 16 (id: {used.id}); also mem_{'0' * 26} is unknown."
    on_stop({"last_assistant_message": reply, "stop_hook_active": False}, LocalBackend(mem_store))
    memory = mem_store.get(used.id)
    assert (memory.use_count, memory.review_count) == (1, 1)
