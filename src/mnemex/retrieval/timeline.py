"""The timeline: one tenant's memories in saving order, grouped into episodes, as numpy arrays.

An episode is a run of memories saved one after another from the same source within a time
gap (a conversation, a work session). Rows never move: a forgotten memory keeps its row, marked
dead, so neighbours and episodes stay stable; per-query work is a few vectorised lookups.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

Rows = npt.NDArray[np.int64]
Share = Callable[[str], str]  # an id -> the copy of that string another index already holds
_GROWTH = 1.5


class Timeline:
    """Rows of memories in saving order with time, episode, liveness and a time-statement flag."""

    def __init__(self, episode_gap_us: int) -> None:
        self.episode_gap_us = episode_gap_us
        self.ids: list[str] = []
        self.row_of: dict[str, int] = {}
        self.times = np.zeros(0, dtype=np.int64)
        self.episodes = np.zeros(0, dtype=np.int64)
        self.live = np.zeros(0, dtype=bool)
        self.says_when = np.zeros(0, dtype=bool)
        self._sources: list[str | None] = []
        self._episode_count = 0

    def __len__(self) -> int:
        return len(self.ids)

    def put(
        self, memory_id: str, *, time: int, source: str | None, live: bool, says_when: bool
    ) -> int:
        """Add a memory at the end of the timeline, or refresh its row; returns the row."""
        row = self.row_of.get(memory_id)
        if row is None:
            row = len(self.ids)
            grow(self, ("times", "episodes", "live", "says_when"), row + 1)
            self.ids.append(memory_id)
            self._sources.append(source)
            self.row_of[memory_id] = row
            self.times[row] = time
            self.episodes[row] = self._episode_for(row, time, source)
        self.live[row] = live
        self.says_when[row] = says_when
        return row

    def kill(self, memory_id: str) -> None:
        """Mark a memory gone (forgotten, archived, deleted); its row stays in place."""
        row = self.row_of.get(memory_id)
        if row is not None:
            self.live[row] = False

    def _episode_for(self, row: int, time: int, source: str | None) -> int:
        """Same episode as the memory saved just before, if same source and close in time."""
        gap = self.episode_gap_us
        if row > 0 and self._sources[row - 1] == source and abs(time - self.times[row - 1]) <= gap:
            return int(self.episodes[row - 1])
        self._episode_count += 1
        return self._episode_count

    def same_id(self, memory_id: str) -> str:
        """The timeline's own copy of an id: other indexes keep it instead of another string."""
        row = self.row_of.get(memory_id)
        return memory_id if row is None else self.ids[row]

    def rows(self, memory_ids: Sequence[str]) -> Rows:
        """Rows of the given memories (-1 for a memory the timeline does not know)."""
        return np.array([self.row_of.get(m, -1) for m in memory_ids], dtype=np.int64)

    def alive(self, rows: npt.NDArray[np.signedinteger[Any]]) -> npt.NDArray[np.bool_]:
        """Whether each row (from `rows()`) is a live, current memory; unknown rows are not."""
        alive: npt.NDArray[np.bool_] = self.live[np.maximum(rows, 0)] & (rows >= 0)
        return alive

    def neighbours(self, rows: Rows, width: int) -> tuple[Rows, Rows, Rows]:
        """(position in `rows`, neighbour row, distance) of every live row at most `width` places
        from a known row, in the same episode."""
        offsets = np.r_[-np.arange(1, width + 1), np.arange(1, width + 1)]
        targets = rows[:, None] + offsets
        ok = (rows >= 0)[:, None] & (targets >= 0) & (targets < len(self.ids))
        safe = np.where(ok, targets, 0)
        episodes = self.episodes[np.maximum(rows, 0)]
        ok &= (self.episodes[safe] == episodes[:, None]) & self.live[safe]
        positions, columns = np.nonzero(ok)
        return positions, targets[positions, columns], np.abs(offsets)[columns]


def grow(owner: object, names: Sequence[str], needed: int) -> None:
    """Give the owner's arrays `names` (one length) room for `needed` rows, by half again."""
    size = len(getattr(owner, names[0]))
    if needed <= size:
        return
    capacity = max(16, needed, int(size * _GROWTH) + 1)
    for name in names:
        old = getattr(owner, name)
        new = np.zeros(capacity, dtype=old.dtype)
        new[: len(old)] = old
        setattr(owner, name, new)


def unshared(memory_id: str) -> str:
    """An id kept as given (no index to share strings with)."""
    return memory_id
