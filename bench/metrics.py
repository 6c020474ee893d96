"""Retrieval metrics with no LLM: recall@k, NDCG@k and session-level recall, averaged per group."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

TURN_KS = (1, 5, 10, 20)
SESSION_KS = (1, 3, 5)
STRICT_SESSION_K = 5
NDCG_K = 10


def recall_at(ranked: Sequence[str], relevant: Sequence[str], k: int) -> float:
    """Share of the relevant items found in the top k."""
    top = set(ranked[:k])
    return sum(item in top for item in relevant) / len(relevant)


def ndcg_at(ranked: Sequence[str], relevant: Sequence[str], k: int) -> float:
    """Binary-relevance NDCG@k: each relevant item found at rank r counts 1 / log2(r + 1)."""
    wanted = set(relevant)
    gain = sum(1.0 / math.log2(rank + 2) for rank, item in enumerate(ranked[:k]) if item in wanted)
    ideal = sum(1.0 / math.log2(rank + 2) for rank in range(min(len(wanted), k)))
    return gain / ideal


def sessions_ranked(ranked: Sequence[str], session_of: Callable[[str], int]) -> list[int]:
    """Sessions in the order their first turn appears in a turn ranking."""
    return list(dict.fromkeys(session_of(item) for item in ranked))


def question_metrics(
    ranked: Sequence[str], evidence: Sequence[str], session_of: Callable[[str], int]
) -> dict[str, float]:
    """Every metric of one question, keyed like the report's columns."""
    row = {f"R@{k}": recall_at(ranked, evidence, k) for k in TURN_KS}
    row[f"NDCG@{NDCG_K}"] = ndcg_at(ranked, evidence, NDCG_K)
    sessions = sessions_ranked(ranked, session_of)
    wanted = list(dict.fromkeys(session_of(item) for item in evidence))
    for k in SESSION_KS:
        # A hit when an evidence session is among the top k sessions (the data README's metric).
        row[f"S@{k}"] = float(any(s in sessions[:k] for s in wanted))
    # Stricter: the share of the evidence sessions found among the top k (multi-session items).
    top = set(sessions[:STRICT_SESSION_K])
    row[f"Sall@{STRICT_SESSION_K}"] = sum(s in top for s in wanted) / len(wanted)
    return row


def mean_rows(rows: Iterable[dict[str, float]]) -> dict[str, float]:
    """Column means of metric rows (empty dict for no rows)."""
    rows = list(rows)
    if not rows:
        return {}
    return {key: sum(row[key] for row in rows) / len(rows) for key in rows[0]}
