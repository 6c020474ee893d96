"""Recall: search hits turned into the block an agent's prompt receives."""

from __future__ import annotations

from collections.abc import Sequence

from mnemex.models import SearchHit


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
