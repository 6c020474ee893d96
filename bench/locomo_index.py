"""LoCoMo conversations in stores of their own: one store per conversation, every question asked
against it and scored (`mnemex eval locomo` and its usage replay share these)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bench import metrics, pg_server
from bench.locomo_data import CATEGORIES, Conversation, memory_text
from mnemex.config import Settings
from mnemex.service import MemoryStore

DEPTH = 50  # turns retrieved per question: enough for recall@20 and the top-5 sessions
Rows = dict[int, list[dict[str, float]]]  # category -> one metrics row per question


@dataclass
class Indexed:
    """One conversation saved into its own store, and the way back from memory id to turn."""

    conversation: Conversation
    store: MemoryStore
    turn_of: dict[str, str]
    clock: Callable[[], datetime]


def index(conversation: Conversation, settings: Settings) -> Indexed:
    """Save every turn of a conversation into a fresh in-memory store."""
    import mnemex

    asked_at = max(turn.observed_at for turn in conversation.turns) + timedelta(days=1)

    def clock() -> datetime:
        return asked_at

    store = mnemex.open(pg_server.fresh_target(), settings=settings, clock=clock)
    items = [
        {
            "content": memory_text(turn),
            "observed_at": turn.observed_at,
            "meta": {"dia_id": turn.dia_id},
        }
        for turn in conversation.turns
    ]
    saved = store.save_many(items)
    turn_of = {
        result.id: turn.dia_id for result, turn in zip(saved, conversation.turns, strict=True)
    }
    return Indexed(conversation, store, turn_of, clock)


def ask_all(indexed: Indexed, settings: Settings, depth: int = DEPTH) -> Rows:
    """Every question of the conversation, asked under `settings` for `depth` hits, scored."""
    view = MemoryStore(indexed.store.backend, settings, clock=indexed.clock)
    conversation = indexed.conversation
    rows: Rows = {}
    for question in conversation.questions:
        hits = view.search(question.text, k=depth)
        ranked = [indexed.turn_of[hit.memory.id] for hit in hits]
        row = metrics.question_metrics(ranked, question.evidence, conversation.session_of)
        rows.setdefault(question.category, []).append(row)
    return rows


def summarise(label: str, rows: Rows) -> dict[str, Any]:
    """One report row: overall (categories 1-4) and per-category metrics."""
    everything = [r for group in rows.values() for r in group]
    out: dict[str, Any] = {"row": label, "n": len(everything)}
    out.update({k: round(v, 3) for k, v in metrics.mean_rows(everything).items()})
    for category, name in CATEGORIES.items():
        group = metrics.mean_rows(rows.get(category, []))
        out[f"{name} R@10"] = round(group.get("R@10", 0.0), 3)
    return out


def merge_rows(parts: Sequence[Rows]) -> Rows:
    """Per-category rows of several conversations, pooled."""
    merged: Rows = {}
    for part in parts:
        for category, group in part.items():
            merged.setdefault(category, []).extend(group)
    return merged
