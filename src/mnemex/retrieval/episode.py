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


def _episode_mass(timeline: Timeline, rows: Rows, values: Values) -> Values:
    """For each row, the sum of the EPISODE_TOP best values among the rows of its episode."""
    episodes = timeline.episodes[rows]
    order = np.lexsort((-values, episodes))  # by episode, best value first
    sorted_episodes = episodes[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_episodes)) + 1]
    lengths = np.diff(np.r_[starts, len(order)])
    rank = np.arange(len(order)) - np.repeat(starts, lengths)
    kept = np.where(rank < EPISODE_TOP, values[order], 0.0)
    totals = np.add.reduceat(kept, starts) if len(order) else kept
    mass = np.empty_like(values)
    mass[order] = np.repeat(totals, lengths)
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
    given = np.fromiter(scores.values(), np.float64, count=len(ids))
    values = given
    if neighbour_weight > 0:
        ids, rows, values = _add_neighbours(timeline, ids, rows, given, neighbour_weight, width)
    if episode_weight > 0:
        known = rows >= 0
        mass = np.zeros(len(ids))
        mass[known] = _episode_mass(timeline, rows[known], values[known])
        values = values + episode_weight * mass
    before = np.zeros(len(ids))
    before[: len(given)] = given
    return dict(zip(ids, values.tolist(), strict=True)), dict(
        zip(ids, (values - before).tolist(), strict=True)
    )


def _add_neighbours(
    timeline: Timeline, ids: list[str], rows: Rows, values: Values, weight: float, width: int
) -> tuple[list[str], Rows, Values]:
    """Candidates with their neighbour bonus, followed by the neighbours that join.

    A row gets the best `score / distance` any scored neighbour lends it: candidates add it to
    their score, other rows join with it when it comes from one of the best `JOINERS`.
    """
    sources, targets, distances = timeline.neighbours(rows, width)
    gains = values[sources] / distances
    order = np.argsort(rows)
    sorted_rows = rows[order]
    at = np.minimum(np.searchsorted(sorted_rows, targets), len(rows) - 1)
    known = sorted_rows[at] == targets  # the target is a candidate
    bonus = np.zeros(len(rows))
    np.maximum.at(bonus, order[at[known]], gains[known])
    lends = np.zeros(len(rows), dtype=bool)
    lends[np.argsort(-values, kind="stable")[:JOINERS]] = True
    outside = ~known & lends[sources]
    joined_rows, which = np.unique(targets[outside], return_inverse=True)
    best = np.zeros(len(joined_rows))
    np.maximum.at(best, which, gains[outside])
    return (
        ids + [timeline.ids[row] for row in joined_rows.tolist()],
        np.concatenate([rows, joined_rows]),
        np.concatenate([values + weight * bonus, weight * best]),
    )
