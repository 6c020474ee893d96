"""Recall: search hits turned into the block an agent's prompt receives."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from mnemex.clock import to_micros
from mnemex.config import Settings
from mnemex.decay import reinforce
from mnemex.models import SearchHit
from mnemex.store.base import Tx


def worth_injecting(hits: Sequence[SearchHit], floor: float) -> list[SearchHit]:
    """Hits scoring at least `floor` times the best one: what is injected costs context."""
    if not hits:
        return []
    cut = floor * hits[0].score
    return [hit for hit in hits if hit.score >= cut]


def recall_block(hits: Sequence[SearchHit]) -> str:
    """The text injected into an agent's context: dated, tagged, one memory per line."""
    if not hits:
        return ""
    lines = ["<recalled-memory>"]
    for hit in hits:
        memory = hit.memory
        when = (memory.observed_at or memory.created_at).date().isoformat()
        tags = f" [{', '.join(memory.tags)}]" if memory.tags else ""
        text = " ".join(memory.content.split())
        cited = f", from {hit.citation.ref}" if hit.citation is not None else ""
        lines.append(f"- ({when}) {text}{tags} (id: {memory.id}{cited})")
    lines.append("</recalled-memory>")
    return "\n".join(lines)


def record_recall(tx: Tx, hits: Sequence[SearchHit], now: datetime, settings: Settings) -> None:
    """What was injected is seen (usage counts) and, when close in meaning to the prompt, a
    light use of its memory (`recall_weight`, decay/reinforce.py); the recall is logged."""
    now_us = to_micros(now)
    ids = [hit.memory.id for hit in hits]
    about = {hit.memory.id for hit in hits if reinforce.about_prompt(hit, settings)}
    for memory in tx.get_memories(list(about)).values():
        changes = reinforce.recalled(memory, now, settings)
        if changes:
            tx.update_memory(memory.id, changes)
    tx.record_usage(ids, used=False, at=now_us)
    tx.log_event("recall", now_us, None, {"ids": ids})
