"""Episode context: memories saved together lend each other relevance.

A memory rarely stands alone: the turn before a match often holds the question it answers, and
an episode (memories from one source saved close in time: a conversation, a work session) in
which several memories match is likely the one the query is about. Two general effects:
- neighbours: a memory gains `neighbour_weight * score / distance` of its best-scoring neighbour
  within `width` places in the same episode, and neighbours of matches join the ranking;
- episode mass: every memory gains `episode_weight` times the summed scores of the
  `EPISODE_TOP` best memories of its episode.
Work is a few vectorised steps over the candidates, never over the store.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from mnemex.retrieval.timeline import Rows, Timeline

Values = npt.NDArray[np.float64]

EPISODE_TOP = 3  # a few strong matches make an episode relevant; a long episode is not favoured


def _neighbour_bonus(
    timeline: Timeline, rows: Rows, values: Values, width: int
) -> tuple[Rows, Values]:
    """Rows next to scored rows, each with the best `score / distance` it receives."""
    targets: list[Rows] = []
    gains: list[Values] = []
    for distance in range(1, width + 1):
        positions, target = timeline.neighbours(rows, distance)
        targets.append(target)
        gains.append(values[positions] / distance)
    target = np.concatenate(targets)
    gain = np.concatenate(gains)
    unique, inverse = np.unique(target, return_inverse=True)
    best = np.zeros(len(unique))
    np.maximum.at(best, inverse, gain)
    return unique, best


def _episode_mass(timeline: Timeline, rows: Rows, values: Values) -> Values:
    """For each row, the sum of the EPISODE_TOP best values among the rows of its episode."""
    episodes = timeline.episodes[rows]
    order = np.lexsort((-values, episodes))  # by episode, best value first
    sorted_episodes = episodes[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_episodes)) + 1]
    rank = np.arange(len(order)) - np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    kept = np.where(rank < EPISODE_TOP, values[order], 0.0)
    totals = np.add.reduceat(kept, starts) if len(order) else kept
    mass_sorted = np.repeat(totals, np.diff(np.r_[starts, len(order)]))
    mass = np.empty_like(values)
    mass[order] = mass_sorted
    return mass


def with_context(
    timeline: Timeline,
    scores: dict[str, float],
    *,
    neighbour_weight: float,
    episode_weight: float,
    width: int,
) -> tuple[dict[str, float], dict[str, float]]:
    """Scores with neighbour and episode context added, and the context part alone (explain)."""
    if not scores or (neighbour_weight <= 0 and episode_weight <= 0):
        return dict(scores), {}
    ids = list(scores)
    rows = timeline.rows(ids)
    values = np.array([scores[m] for m in ids], dtype=np.float64)
    smoothed = dict(scores)
    if neighbour_weight > 0:
        targets, gains = _neighbour_bonus(timeline, rows, values, width)
        for row, gain in zip(targets.tolist(), gains.tolist(), strict=True):
            memory_id = timeline.ids[row]
            smoothed[memory_id] = smoothed.get(memory_id, 0.0) + neighbour_weight * gain
    out = dict(smoothed)
    if episode_weight > 0:
        ids = list(smoothed)
        rows = timeline.rows(ids)
        known = rows >= 0
        values = np.array([smoothed[m] for m in ids], dtype=np.float64)
        mass = _episode_mass(timeline, rows[known], values[known])
        for memory_id, value in zip(np.array(ids)[known].tolist(), mass.tolist(), strict=True):
            out[memory_id] += episode_weight * value
    added = {memory_id: out[memory_id] - scores.get(memory_id, 0.0) for memory_id in out}
    return out, added
