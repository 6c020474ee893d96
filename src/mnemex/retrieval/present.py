"""What the final hit list shows: MMR diversity over the head of the ranking, and each hit's
rank and score in every channel and signal that found it (`explain=True`)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mnemex.models import ChannelScore
from mnemex.retrieval import fuse
from mnemex.store.base import Tx
from mnemex.text import words

Channels = dict[str, list[tuple[str, float]]]  # channel -> (memory id, score), best first
Signals = dict[str, dict[str, float]]  # prior or signal -> memory id -> score


def diversify(
    tx: Tx,
    ids: list[str],
    ranking: npt.NDArray[np.intp],
    final: npt.NDArray[np.float64],
    k: int,
    trade_off: float,
) -> list[int]:
    """MMR over the top 3k by word overlap (Jaccard), so near-repeats give way to new facts."""
    head = [int(i) for i in ranking[: 3 * k]]
    contents = tx.get_memories([ids[i] for i in head])
    bags = {ids[i]: set(words(contents[ids[i]].content)) for i in head if ids[i] in contents}

    def similarity(a: str, b: str) -> float:
        union = bags.get(a, set()) | bags.get(b, set())
        return len(bags.get(a, set()) & bags.get(b, set())) / len(union) if union else 0.0

    relevance = {ids[i]: float(final[i]) for i in head}
    chosen = fuse.mmr([ids[i] for i in head], relevance, similarity, k, trade_off)
    position = {memory_id: n for n, memory_id in enumerate(ids)}
    return [position[memory_id] for memory_id in chosen]


def explain(
    channels: Channels, signals: Signals, ids: list[str], scores: npt.NDArray[np.float64]
) -> dict[str, dict[str, ChannelScore]]:
    """Each candidate's rank and score in every channel and signal that found it, plus temporal."""
    out: dict[str, dict[str, ChannelScore]] = {memory_id: {} for memory_id in ids}
    ranked: Channels = dict(channels)
    for name, values in signals.items():
        ranked[name] = sorted(values.items(), key=lambda item: -item[1])
    for name, hits in ranked.items():
        rank = 0
        for memory_id, score in hits:
            if memory_id in out and score > 0:
                rank += 1
                out[memory_id][name] = ChannelScore(rank=rank, score=score)
    temporal_rank = np.empty(len(ids), dtype=np.int64)
    temporal_rank[np.argsort(-scores, kind="stable")] = np.arange(1, len(ids) + 1)
    for position, memory_id in enumerate(ids):
        out[memory_id]["temporal"] = ChannelScore(
            rank=int(temporal_rank[position]), score=float(scores[position])
        )
    return out
