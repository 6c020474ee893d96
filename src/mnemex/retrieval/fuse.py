"""Fusion of ranked channels: weighted reciprocal-rank fusion (k = 60), a rarity-aware BM25
weight, additive priors scaled to the best fused score, and optional MMR diversity."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

RRF_K = 60  # Cormack et al. 2009: ranks beyond the first few dozen matter little
RARITY_MID = 0.75  # typical rarity of a query's rarest kept term; the weight is `base` there


def scaled(hits: Sequence[tuple[str, float]]) -> dict[str, float]:
    """Channel scores divided by the channel's best score (1.0 for the top hit)."""
    if not hits:
        return {}
    best = max(score for _, score in hits)
    return {item: (score / best if best > 0 else 1.0) for item, score in hits}


def rrf(
    channels: Mapping[str, Sequence[tuple[str, float]]],
    weights: Mapping[str, float],
    k: int = RRF_K,
) -> dict[str, float]:
    """Weighted RRF: sum over channels of weight * s / (k + rank), ranks from 1.

    `s` is the hit's score relative to its channel's best: plain RRF treats a weak match at rank 2
    like a strong one, which lets any prior overturn a clear relevance gap.
    """
    fused: dict[str, float] = {}
    for channel, hits in channels.items():
        weight = weights.get(channel, 1.0)
        if weight == 0:
            continue
        relative = scaled(hits)
        for rank, (item, _) in enumerate(hits, start=1):
            fused[item] = fused.get(item, 0.0) + weight * relative[item] / (k + rank)
    return fused


def rarity(dfs: Sequence[int], corpus_size: int) -> float:
    """How rare the query's rarest term is, in [0, 1]: its IDF over the largest possible IDF."""
    found = [df for df in dfs if df > 0]
    if not found or corpus_size < 2:
        return RARITY_MID
    top = math.log((corpus_size + 1) / (min(found) + 1))
    return max(0.0, min(1.0, top / math.log(corpus_size + 1)))


def bm25_weight(base: float, gain: float, query_rarity: float) -> float:
    """The lexical channel's RRF weight: rare query terms make exact matches more telling."""
    return max(0.0, base * (1.0 + gain * (query_rarity - RARITY_MID)))


def add_priors(
    fused: dict[str, float], priors: Mapping[str, Mapping[str, float]], weights: Mapping[str, float]
) -> dict[str, float]:
    """Fused scores plus weighted priors in [0, 1], scaled by the best fused score.

    Scaling keeps priors "small" whatever the channel weights: a prior of weight 0.5 moves a
    memory by at most half the top hit's score. A memory only a prior knows joins the ranking.
    """
    top = max(fused.values(), default=0.0)
    if top <= 0:
        return dict(fused)
    out = dict(fused)
    for name, values in priors.items():
        weight = weights.get(name, 0.0)
        if weight == 0:
            continue
        for item, value in values.items():
            out[item] = out.get(item, 0.0) + weight * top * value
    return out


def mmr(
    ranked: Sequence[str],
    relevance: Mapping[str, float],
    similarity: Callable[[str, str], float],
    k: int,
    trade_off: float,
) -> list[str]:
    """Maximal marginal relevance: pick by trade_off * relevance - (1 - trade_off) * redundancy."""
    chosen: list[str] = []
    pool = list(ranked)
    top = max((relevance[item] for item in pool), default=1.0) or 1.0
    while pool and len(chosen) < k:
        best = max(
            pool,
            key=lambda item: (
                trade_off * relevance[item] / top
                - (1 - trade_off) * max((similarity(item, c) for c in chosen), default=0.0)
            ),
        )
        chosen.append(best)
        pool.remove(best)
    return chosen
