"""Fusion of ranked channels: weighted reciprocal-rank fusion (k = 60)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

RRF_K = 60  # Cormack et al. 2009: ranks beyond the first few dozen matter little


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
