"""Temporal scores: how alive a memory is now, from its use count, its age and its strength.

score = (use_count + 1) ** beta * f(days since last use * time scale) * strength

`f` is the configured forgetting curve, set by `half_life_days`; a memory's time scale is
`half_life_days / (its kind's half-life * its stability)` (decay/kinds.py), which stretches the
curve to that memory's own half-life for every curve alike (1 for a plain note). The same
`Decay` object is used by search, gc, promote, review and stats, so a configured curve is never
silently replaced by another.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from mnemex.clock import MICROS_PER_DAY
from mnemex.config import Settings
from mnemex.decay.kinds import NOTE, half_lives
from mnemex.store.base import TemporalRow

MAX_STRENGTH = 2.0
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Decay:
    """A forgetting curve and the score built on it, with its parameters resolved once."""

    curve: str
    beta: float
    alpha: float
    t0: float  # power law: days at which (1 + t/t0)^-alpha falls to one half
    rate: float  # exponential: ln 2 / half-life
    fast_rate: float
    slow_rate: float
    fast_weight: float
    danger_low: float
    danger_high: float
    half_life: float = 3.0  # of a plain note
    kind_half_lives: tuple[tuple[str, float], ...] = ()

    @classmethod
    def from_settings(cls, settings: Settings) -> Decay:
        """Resolve the curve's constants from half-lives, which are what people can reason about."""
        alpha = settings.power_alpha
        return cls(
            curve=settings.decay_curve,
            beta=settings.use_beta,
            alpha=alpha,
            t0=settings.half_life_days / (2.0 ** (1.0 / alpha) - 1.0),
            rate=math.log(2) / settings.half_life_days,
            fast_rate=math.log(2) / settings.fast_half_life_days,
            slow_rate=math.log(2) / settings.slow_half_life_days,
            fast_weight=settings.fast_weight,
            danger_low=settings.danger_zone_low,
            danger_high=settings.danger_zone_high,
            half_life=settings.half_life_days,
            kind_half_lives=tuple(sorted(half_lives(settings).items())),
        )

    def half_life_of(self, kind: str, stability: float = 1.0) -> float:
        """A memory's effective half-life in days (an unknown kind counts as a note)."""
        table = dict(self.kind_half_lives)
        return table.get(kind, table.get(NOTE, self.half_life)) * max(stability, 1.0)

    def time_scales(
        self, kinds: Sequence[str], stabilities: Sequence[float] | FloatArray
    ) -> FloatArray:
        """How much slower than a plain note each memory's clock runs (1 / its stretch)."""
        table = dict(self.kind_half_lives)
        base = table.get(NOTE, self.half_life)
        lives = np.array([table.get(kind, base) for kind in kinds], dtype=np.float64)
        stretch = np.maximum(np.asarray(stabilities, dtype=np.float64), 1.0)
        return np.asarray(self.half_life / (lives * stretch), dtype=np.float64)

    def retention(self, days: FloatArray) -> FloatArray:
        """f(t) in (0, 1], f(0) = 1, never increasing in t (negative ages count as zero)."""
        t = np.maximum(days, 0.0)
        if self.curve == "exponential":
            return np.exp(-self.rate * t)
        if self.curve == "two_component":
            w = self.fast_weight
            return w * np.exp(-self.fast_rate * t) + (1.0 - w) * np.exp(-self.slow_rate * t)
        return np.power(1.0 + t / self.t0, -self.alpha)

    def scores(self, use_counts: FloatArray, days: FloatArray, strengths: FloatArray) -> FloatArray:
        """Vectorised score for many memories at once (what search uses on its candidates)."""
        use_factor = np.power(np.maximum(use_counts, 0.0) + 1.0, self.beta)
        return use_factor * self.retention(days) * np.clip(strengths, 0.0, MAX_STRENGTH)

    def scores_at(
        self,
        use_counts: Sequence[float] | FloatArray,
        last_used_us: Sequence[int] | npt.NDArray[np.int64],
        strengths: Sequence[float] | FloatArray,
        now_us: int,
        kinds: Sequence[str] | None = None,
        stabilities: Sequence[float] | FloatArray | None = None,
    ) -> FloatArray:
        """The temporal score of many memories at `now_us`, from their use counts, last uses
        (microseconds), strengths, kinds and stabilities: the one computation search, gc,
        promote and stats share (no kinds: plain notes)."""
        days = (now_us - np.asarray(last_used_us, dtype=np.int64)) / MICROS_PER_DAY
        if kinds is not None:
            stretch = [1.0] * len(kinds) if stabilities is None else stabilities
            days = days * self.time_scales(kinds, stretch)
        return self.scores(
            np.asarray(use_counts, dtype=np.float64), days, np.asarray(strengths, dtype=np.float64)
        )

    def row_scores(self, rows: Sequence[TemporalRow], now_us: int) -> FloatArray:
        """`scores_at` for the store's temporal rows."""
        if not rows:
            return np.zeros(0)
        return self.scores_at(
            [row.use_count for row in rows],
            [row.last_used for row in rows],
            [row.strength for row in rows],
            now_us,
            [row.kind for row in rows],
            [row.stability for row in rows],
        )

    def score(
        self,
        use_count: int,
        days: float,
        strength: float,
        kind: str = NOTE,
        stability: float = 1.0,
    ) -> float:
        """The score of one memory `days` after its last use."""
        scaled = days * float(self.time_scales([kind], [stability])[0])
        return float(
            self.scores(
                np.array([float(use_count)]), np.array([scaled]), np.array([float(strength)])
            )[0]
        )

    def review_priority(self, scores: FloatArray) -> FloatArray:
        """1 at the middle of the danger zone, falling off outside it: memories about to be lost."""
        centre = (self.danger_low + self.danger_high) / 2.0
        width = (self.danger_high - self.danger_low) / 2.0
        return np.exp(-(((scores - centre) / width) ** 2) * math.log(2))

    def in_danger_zone(self, score: float) -> bool:
        """True when a memory is weak enough to need a review but not yet forgettable."""
        return self.danger_low <= score <= self.danger_high
