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
JOINERS = 30  # neighbours of the best candidates join the ranking; weaker ones could not win


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
    """Scores with neighbour and episode context added, and the context part alone (explain).

    Every candidate lends to neighbouring candidates; only the best `JOINERS` lend to memories
    outside the candidates, so the memories joining the ranking stay few whatever the store.
    """
    if not scores or (neighbour_weight <= 0 and episode_weight <= 0):
        return dict(scores), {}
    ids = list(scores)
    rows = timeline.rows(ids)
    values = np.array([scores[m] for m in ids], dtype=np.float64)
    if neighbour_weight > 0:
        ids, rows, values = _add_neighbours(timeline, ids, rows, values, neighbour_weight, width)
    if episode_weight > 0:
        known = rows >= 0
        mass = np.zeros(len(ids))
        mass[known] = _episode_mass(timeline, rows[known], values[known])
        values = values + episode_weight * mass
    out = dict(zip(ids, values.tolist(), strict=True))
    added = {m: v - scores.get(m, 0.0) for m, v in out.items()}
    return out, added


def _add_neighbours(
    timeline: Timeline, ids: list[str], rows: Rows, values: Values, weight: float, width: int
) -> tuple[list[str], Rows, Values]:
    """Candidates with their neighbour bonus, followed by the neighbours that join."""
    order = np.argsort(rows)
    sorted_rows = rows[order]

    def place(targets: Rows) -> tuple[Rows, npt.NDArray[np.bool_]]:
        """Each target row's position among the candidates, and whether it is one."""
        at = np.minimum(np.searchsorted(sorted_rows, targets), len(rows) - 1)
        return order[at], sorted_rows[at] == targets

    targets, gains = _neighbour_bonus(timeline, rows, values, width)
    smoothed = values.copy()
    positions, known = place(targets)
    smoothed[positions[known]] += weight * gains[known]  # target rows are distinct
    top = np.argsort(-values, kind="stable")[:JOINERS]
    targets, gains = _neighbour_bonus(timeline, rows[top], values[top], width)
    _, known = place(targets)
    joined_rows = targets[~known]
    joined_ids = [timeline.ids[row] for row in joined_rows.tolist()]
    return (
        ids + joined_ids,
        np.concatenate([rows, joined_rows]),
        np.concatenate([smoothed, weight * gains[~known]]),
    )
