"""Usage learning: memories that were retrieved and then used rank higher, and pull their partners.

`observe` counts a use for each memory an agent used and a co-use for each pair used together
(store tables `usage` and `co_usage`). Two priors follow, both bounded in [0, 1):
- usefulness: used / (used + USE_HALF), a memory used once scores 1/3 and gains little more
  beyond a handful of uses, so a popular memory never drowns relevance;
- co-use pull: a partner of a strong candidate gains the candidate's relative score times
  count / (count + 1); a partner nobody retrieved joins the ranking.
Two bounded queries per search (the candidates' counts; the top hits' strongest partners).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mnemex.store.base import Tx

USE_HALF = 2.0  # uses at which the usefulness prior reaches one half
PULL_FROM = 10  # partners are looked up for this many top candidates
PARTNERS = 30  # at most this many (candidate, partner) pairs per search


def usefulness(tx: Tx, memory_ids: Sequence[str]) -> dict[str, float]:
    """The usefulness prior of each candidate that has been used at least once."""
    counts = tx.usage_counts(memory_ids)
    return {
        memory_id: used / (used + USE_HALF) for memory_id, (_, used) in counts.items() if used > 0
    }


def co_use_pull(tx: Tx, scores: Mapping[str, float]) -> dict[str, float]:
    """Pull toward the strongest co-used partners of the top candidates."""
    top = sorted(scores, key=lambda memory_id: -scores[memory_id])[:PULL_FROM]
    if not top:
        return {}
    best = scores[top[0]] or 1.0
    pull: dict[str, float] = {}
    for memory_id, partner, count in tx.co_usage_partners(top, PARTNERS):
        value = (scores[memory_id] / best) * count / (count + 1.0)
        if value > pull.get(partner, 0.0):
            pull[partner] = value
    return pull
