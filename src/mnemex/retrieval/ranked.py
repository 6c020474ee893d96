"""The last steps of search: relevance blended with the temporal score, the hits built in order,
and the fill of a short list from below the vector floor."""

from __future__ import annotations

import math
from datetime import datetime

import numpy as np
import numpy.typing as npt

from mnemex.clock import to_micros
from mnemex.config import Settings
from mnemex.decay.curve import Decay
from mnemex.models import ChannelScore, SearchHit
from mnemex.retrieval import fuse
from mnemex.store.base import Temporal, Tx

Scored = list[tuple[str, float]]


def blend(
    decay: Decay,
    temporal_weight: float,
    ids: list[str],
    scores: dict[str, float],
    temporal: dict[str, Temporal],
    now: datetime,
    top: float | None = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Relevance (scaled to the best, or to `top`) blended with the squashed temporal score;
    and the latter."""
    relevance = np.array([scores[i] for i in ids], dtype=np.float64)
    relevance = relevance / max(float(relevance.max()) if top is None else top, 1e-12)
    rows = [temporal[i] for i in ids]
    decay_scores = decay.scores_at(
        [r.use_count for r in rows],
        [r.last_used for r in rows],
        [r.strength for r in rows],
        to_micros(now),
        [r.kind for r in rows],
        [r.stability for r in rows],
    )
    squashed = decay_scores / (1.0 + decay_scores)  # bounded in [0, 1) to blend with relevance
    return (1.0 - temporal_weight) * relevance + temporal_weight * squashed, decay_scores


def in_order(
    tx: Tx,
    ids: list[str],
    order: list[int],
    final: npt.NDArray[np.float64],
    decay_scores: npt.NDArray[np.float64],
    explained: dict[str, dict[str, ChannelScore]],
) -> list[SearchHit]:
    """The hits in order: each memory with its temporal score, its blended score and why."""
    records = tx.get_memories([ids[i] for i in order])
    hits = []
    for index in order:
        memory = records[ids[index]]
        memory.score = float(decay_scores[index])
        hits.append(
            SearchHit(
                memory=memory, score=float(final[index]), channels=explained.get(ids[index], {})
            )
        )
    return hits


def filled(
    tx: Tx,
    settings: Settings,
    decay: Decay,
    vector: tuple[Scored, Scored],
    hits: list[SearchHit],
    taken: set[str],
    top: float,
    *,
    k: int,
    now: datetime,
) -> list[SearchHit]:
    """The hits, then, while fewer than `k`, the nearest memories below the vector floor when
    nothing is close in meaning to the query ("Why did I begin that language app?" and "I'm
    learning Tamil on Duolingo": cosine 0.247, no shared word).

    `vector` is the vector channel's hits above its floor and the reserve below it: a query
    with any hit above the floor has found what is close and takes no fill. A fill is fused as
    the channel would have fused it at its rank and blended as the hits are (scaled to their
    best fused score `top`), and never scores above the hit before it, and it always carries
    its `fill` channel (its rank among the fills and its cosine), explain or not, so that a
    client can tell it from a hit. A memory among the candidates already (`taken`) or a repeat
    (its memory shows, or ranks lower still) is left out.
    """
    above, reserve = vector
    if len(hits) >= k or not reserve or above:
        return hits
    best = max(reserve[0][1], 1e-12)
    ranked = [(rank, m, c) for rank, (m, c) in enumerate(reserve, 1) if m not in taken]
    temporal = tx.temporal_of([m for _, m, _ in ranked])
    ranked = [row for row in ranked if row[1] in temporal and not temporal[row[1]].duplicate_of]
    ranked = ranked[: k - len(hits)]
    if not ranked:
        return hits
    weight = settings.vector_weight
    fused = {m: weight * (c / best) / (fuse.RRF_K + rank) for rank, m, c in ranked}
    ids = [m for _, m, _ in ranked]
    final, decay_scores = blend(
        decay, settings.temporal_weight, ids, fused, temporal, now, top or max(fused.values())
    )
    # Each fill at most the score before it: the last hit's, then the fill's before it.
    ceiling = hits[-1].score if hits else math.inf
    capped = np.minimum.accumulate(np.minimum(final, ceiling))
    why = {m: {"fill": ChannelScore(rank=i + 1, score=c)} for i, (_, m, c) in enumerate(ranked)}
    return hits + in_order(tx, ids, list(range(len(ids))), capped, decay_scores, why)
