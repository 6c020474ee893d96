"""`mnemex eval lifetime`: a year in the life of a simulated user, with monthly gc.

A persona (bench/data/lifetime_*.json, schema in bench/data/LIFETIME.md) is replayed day by day
on an injected clock through the default paths an agent uses: every memory is saved with
`store.save(text)` and no key (analysis fills kind, tags, strength; the ledger reads what it
can), every prompt goes through the Claude Code UserPromptSubmit hook (which recalls, and so
reinforces what it injects), and on days 30, 60, ..., 360 an agent runs `gc(dry_run=False)`.
At months 1, 3, 6 and 12 (days 30, 91, 182, 364) it reports:

- must-keep recall@5: each question of each must-keep memory saved so far finds it in the top 5
  of `search` (a duplicate folded into another memory counts as that memory);
- current recall@5: a question about a changing value finds its latest statement;
- must-keep archived: must-keep memories gc archived (the target is none);
- one-off archived: share of the one-off trivia saved 30+ days before that is archived;
- stale trivia in results: share of the top-5 hits, over the past month's prompts, that are
  one-off trivia or chatter saved more than 7 days earlier;
- store size: live memories;
- ceiling@5: must-keep recall@5 of a shadow store given the same saves and nothing else (no
  recalls, no gc): what search alone finds when nothing is forgotten or reinforced, so that a
  miss can be told apart as forgetting (below the ceiling) or retrieval (the ceiling itself);
- embedding_only@5: must-keep recall@5 of the embedding model alone, ranking only the must-keep
  memories saved so far by cosine to the question (no trivia, nothing forgotten): how far the
  model reads the question to its answer at all. Below 0.98 here, the questions ask for
  inferences the model does not make ("sister-in-law" for "my brother's wife Meera").
Searches of the report do not count as uses (only the hook's recalls do).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any

import numpy as np

import mnemex
from mnemex.config import Settings
from mnemex.interfaces.hooks.backend import LocalBackend
from mnemex.interfaces.hooks.cache import RecallCache
from mnemex.interfaces.hooks.claude_code import on_prompt
from mnemex.service import MemoryStore

DATA = Path(__file__).resolve().parent / "data"
CHECKPOINTS = {1: 30, 3: 91, 6: 182, 12: 364}
GC_DAYS = frozenset(range(30, 365, 30))
STALE_DAYS = 7
ONE_OFF_AGE = 30
K = 5


@dataclass
class Clock:
    """The store's clock, moved by the replay."""

    now: datetime

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Replay:
    """A persona being replayed: its store and what became of each of its memories."""

    persona: dict[str, Any]
    store: MemoryStore
    clock: Clock
    saved: dict[str, str] = field(default_factory=dict)  # data id -> store id
    saved_day: dict[str, int] = field(default_factory=dict)
    replaced_by: dict[str, str] = field(default_factory=dict)  # data id -> the newer data id
    hits_seen: list[list[str]] = field(default_factory=list)  # store ids, this month's prompts
    shadow: MemoryStore | None = None  # the same saves, no recalls and no gc
    shadow_saved: dict[str, str] = field(default_factory=dict)

    def at(self, day: int, hour: int, minute: int = 0) -> None:
        start = datetime.fromisoformat(self.persona["start"]).replace(tzinfo=UTC)
        self.clock.now = datetime.combine(
            (start + timedelta(days=day)).date(), time(hour, minute), tzinfo=UTC
        )

    def root(self, store_id: str) -> str:
        memory = self.store.get(store_id)
        return memory.duplicate_of or memory.id


def load(path: str | Path) -> dict[str, Any]:
    """One persona file."""
    data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return data


def _save(replay: Replay, memory: dict[str, Any], minute: int) -> None:
    replay.at(memory["day"], 9, minute % 60)
    result = replay.store.save(memory["text"])
    replay.saved[memory["id"]] = result.id
    replay.saved_day[memory["id"]] = memory["day"]
    if replay.shadow is not None:
        replay.shadow_saved[memory["id"]] = replay.shadow.save(memory["text"]).id
    if memory.get("replaces"):
        replay.replaced_by[memory["replaces"]] = memory["id"]


def _prompt(
    replay: Replay, backend: LocalBackend, cache: RecallCache, prompt: dict[str, Any], n: int
) -> None:
    replay.at(prompt["day"], 10 + n % 12, (7 * n) % 60)
    on_prompt({"prompt": prompt["text"]}, backend, cache)
    hits = replay.store.search(prompt["text"], k=K)
    replay.hits_seen.append([hit.memory.id for hit in hits])


def _gc(replay: Replay, day: int) -> None:
    replay.at(day, 23, 30)
    replay.store.gc(dry_run=False)


def _one_offs_archived(replay: Replay, day: int) -> float:
    """The share of one-off trivia saved at least ONE_OFF_AGE days ago that is archived now."""
    classes = {m["id"]: m["class"] for m in replay.persona["memories"]}
    old = [
        store_id
        for data_id, store_id in replay.saved.items()
        if classes[data_id] == "one_off" and day - replay.saved_day[data_id] >= ONE_OFF_AGE
    ]
    archived = sum(replay.store.get(store_id).status == "archived" for store_id in old)
    return archived / max(len(old), 1)


def _current(replay: Replay, data_id: str) -> str:
    while data_id in replay.replaced_by and replay.replaced_by[data_id] in replay.saved:
        data_id = replay.replaced_by[data_id]
    return data_id


def _found(store: MemoryStore, question: str, target: str) -> bool:
    """Whether the memory `target` (or a duplicate folded into it) is in the top K."""
    for hit in store.search(question, k=K):
        if target in (hit.memory.id, hit.memory.duplicate_of):
            return True
    return False


def _ceiling(replay: Replay) -> float | None:
    """Must-keep recall@5 of the shadow store (nothing forgotten, nothing reinforced)."""
    shadow = replay.shadow
    if shadow is None:
        return None
    found = asked = 0
    for memory in replay.persona["memories"]:
        if memory["class"] != "must_keep" or memory["id"] not in replay.shadow_saved:
            continue
        saved = shadow.get(replay.shadow_saved[memory["id"]])
        target = saved.duplicate_of or saved.id
        for question in memory.get("questions", []):
            asked += 1
            found += _found(shadow, question, target)
    return round(found / max(asked, 1), 4)


def _embedding_only(replay: Replay) -> float | None:
    """Must-keep recall@5 by cosine alone, among the must-keep memories saved so far."""
    embedder = replay.store.engine.embedder
    keep = [m for m in replay.persona["memories"] if m["class"] == "must_keep"]
    keep = [m for m in keep if m["id"] in replay.saved]
    asked = [(i, q) for i, m in enumerate(keep) for q in m.get("questions", [])]
    if embedder is None or not asked:
        return None
    memories = np.asarray(embedder.embed([m["text"] for m in keep]), dtype=np.float32)
    questions = np.asarray(embedder.embed([q for _, q in asked]), dtype=np.float32)
    memories /= np.linalg.norm(memories, axis=1, keepdims=True)
    questions /= np.linalg.norm(questions, axis=1, keepdims=True)
    similarity = questions @ memories.T
    found = sum(
        int((similarity[row] > similarity[row, target]).sum()) < K
        for row, (target, _) in enumerate(asked)
    )
    return round(found / len(asked), 4)


def _checkpoint(replay: Replay, month: int, day: int) -> dict[str, Any]:
    replay.at(day, 23, 45)
    store = replay.store
    classes = {m["id"]: m for m in replay.persona["memories"]}
    found = asked = current_found = current_asked = archived = 0
    missed: list[str] = []
    for data_id in replay.saved:
        memory = classes[data_id]
        if memory["class"] == "must_keep":
            if store.get(replay.saved[data_id]).status == "archived":
                archived += 1
            target = replay.root(replay.saved[data_id])
            for question in memory.get("questions", []):
                asked += 1
                ids = {replay.root(h.memory.id) for h in store.search(question, k=K)}
                if target in ids:
                    found += 1
                else:
                    missed.append(question)
        elif memory["class"] == "changing":
            target = replay.root(replay.saved[_current(replay, data_id)])
            for question in memory.get("questions", []):
                current_asked += 1
                ids = {replay.root(h.memory.id) for h in store.search(question, k=K)}
                current_found += target in ids
    by_store = {v: k for k, v in replay.saved.items()}
    stale = total = 0
    for seen in replay.hits_seen:
        for store_id in seen:
            total += 1
            hit_of = by_store.get(store_id)
            if hit_of is None:
                continue
            shown = classes[hit_of]
            if shown["class"] in {"one_off", "chatter"} and day - shown["day"] > STALE_DAYS:
                stale += 1
    replay.hits_seen.clear()
    counts = store.stats().get("memories", {})
    live = (
        sum(v for k, v in counts.items() if k in {"active", "promoted"})
        if isinstance(counts, dict)
        else 0
    )
    return {
        "month": month,
        "must_keep@5": round(found / max(asked, 1), 4),
        "must_keep_asked": asked,
        "must_keep_archived": archived,
        "current@5": round(current_found / max(current_asked, 1), 4),
        "one_off_archived": round(_one_offs_archived(replay, day), 4),
        "stale_trivia_in_results": round(stale / max(total, 1), 4),
        "store_size": live,
        "ceiling@5": _ceiling(replay),
        "embedding_only@5": _embedding_only(replay),
        "missed": missed[:5],
    }


def replay(
    persona: dict[str, Any],
    settings: Settings,
    say: Callable[[str], None] = lambda _: None,
) -> list[dict[str, Any]]:
    """Replay one persona for a year; the report rows at months 1, 3, 6 and 12."""
    clock = Clock(datetime.now(UTC))
    store = mnemex.open(":memory:", settings=settings, clock=clock)
    shadow = mnemex.open(":memory:", settings=settings, clock=clock)
    run = Replay(persona, store, clock, shadow=shadow)
    backend = LocalBackend(store)
    with tempfile.TemporaryDirectory() as folder:
        cache = RecallCache(Path(folder) / "cache.json", ttl=0.0)
        memories = sorted(persona["memories"], key=lambda m: m["day"])
        prompts = sorted(persona["prompts"], key=lambda p: p["day"])
        rows: list[dict[str, Any]] = []
        saved_index = prompt_index = 0
        for day in range(365):
            while saved_index < len(memories) and memories[saved_index]["day"] == day:
                _save(run, memories[saved_index], saved_index)
                saved_index += 1
            n = 0
            while prompt_index < len(prompts) and prompts[prompt_index]["day"] == day:
                _prompt(run, backend, cache, prompts[prompt_index], n)
                prompt_index += 1
                n += 1
            if day in GC_DAYS:
                _gc(run, day)
            for month, last in CHECKPOINTS.items():
                if day == last:
                    say(f"{persona.get('person', '?')}: month {month}")
                    rows.append(_checkpoint(run, month, day))
    store.close()
    shadow.close()
    return rows


def run(
    paths: list[Path],
    *,
    reinforcement: bool = True,
    embed_model: str | None = None,
    say: Callable[[str], None] = lambda _: None,
) -> list[dict[str, Any]]:
    """Every persona's rows, labelled by its file."""
    out: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        extra: dict[str, Any] = {} if embed_model is None else {"embed_model": embed_model}
        settings = Settings.load(
            env={}, data_dir=Path(folder), reinforcement=reinforcement, **extra
        )
        for path in paths:
            for row in replay(load(path), settings, say):
                out.append({"persona": path.stem, **row})
    return out


def score_requests(path: Path, embed_model: str | None = None) -> dict[str, Any]:
    """Explicit-request detection on a labelled set (`{"items": [{"text", "request"}]}`): the
    phrase rules alone, and with the learned check beside them, as `analyze` runs them."""
    from mnemex.analysis import lifetime as learned
    from mnemex.analysis import phrases
    from mnemex.embed import load_embedder

    items = json.loads(Path(path).read_text(encoding="utf-8"))["items"]
    embedder = load_embedder(embed_model or "minilm-int8")
    texts = [item["text"] for item in items]
    vectors = embedder.embed(texts) if embedder is not None else [None] * len(texts)
    row: dict[str, Any] = {"set": Path(path).stem, "requests": 0, "look_alikes": 0}
    counts = {"rules_found": 0, "rules_fp": 0, "both_found": 0, "both_fp": 0}
    missed: list[str] = []
    for item, vector in zip(items, vectors, strict=True):
        found = phrases.detect(item["text"])
        rules = found.save_request
        both = rules or learned.learned_request(item["text"], found, vector)
        wanted = bool(item["request"])
        row["requests" if wanted else "look_alikes"] += 1
        counts["rules_found" if wanted else "rules_fp"] += rules
        counts["both_found" if wanted else "both_fp"] += both
        if wanted and not both:
            missed.append(item["text"])
    row["rules_recall"] = round(counts["rules_found"] / max(row["requests"], 1), 4)
    row["rules_false_positives"] = counts["rules_fp"]
    row["with_learned_recall"] = round(counts["both_found"] / max(row["requests"], 1), 4)
    row["with_learned_false_positives"] = counts["both_fp"]
    row["missed"] = missed
    return row
