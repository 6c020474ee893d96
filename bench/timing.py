"""Latency summaries: medians and tail percentiles of repeated measurements."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def timed(func: Callable[[], T]) -> tuple[T, float]:
    """func's result and its wall time in milliseconds."""
    start = time.perf_counter()
    result = func()
    return result, (time.perf_counter() - start) * 1000.0
