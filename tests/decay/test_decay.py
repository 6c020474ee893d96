"""Temporal scores: each curve is its own, time alone never raises a score, review peaks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemex import Settings
from mnemex.decay.curve import Decay


def decay_for(curve: str, **extra: float) -> Decay:
    return Decay.from_settings(Settings.load(env={}, decay_curve=curve, **extra))


def test_power_law_halves_at_the_half_life_and_follows_its_formula() -> None:
    decay = decay_for("power_law")
    assert decay.retention(np.array([3.0]))[0] == pytest.approx(0.5)
    t0 = 3.0 / (2 ** (1 / 1.1) - 1)
    assert decay.retention(np.array([10.0]))[0] == pytest.approx((1 + 10 / t0) ** -1.1)


def test_exponential_halves_at_the_half_life() -> None:
    decay = decay_for("exponential")
    assert decay.retention(np.array([3.0]))[0] == pytest.approx(0.5)
    assert decay.retention(np.array([6.0]))[0] == pytest.approx(0.25)


def test_two_component_mixes_a_fast_and_a_slow_exponential() -> None:
    decay = decay_for("two_component", fast_half_life_days=1.0, slow_half_life_days=30.0)
    expected = 0.7 * math.exp(-math.log(2) * 10) + 0.3 * math.exp(-math.log(2) / 30 * 10)
    assert decay.retention(np.array([10.0]))[0] == pytest.approx(expected)


def test_each_configured_curve_gives_its_own_value() -> None:
    """A known peer scored with the exponential curve whatever was configured; we must not."""
    values = {
        curve: decay_for(curve).score(use_count=2, days=10.0, strength=1.0)
        for curve in ("power_law", "exponential", "two_component")
    }
    assert len({round(v, 9) for v in values.values()}) == 3


def test_score_formula() -> None:
    decay = decay_for("power_law")
    expected = (3 + 1) ** 0.6 * decay.retention(np.array([5.0]))[0] * 1.5
    assert decay.score(use_count=3, days=5.0, strength=1.5) == pytest.approx(expected)


def test_fresh_unused_memory_scores_its_strength() -> None:
    assert decay_for("power_law").score(0, 0.0, 1.3) == pytest.approx(1.3)


def test_review_priority_peaks_inside_the_danger_zone() -> None:
    decay = decay_for("power_law")
    priority = decay.review_priority(np.array([0.05, 0.15, 0.25, 0.35, 0.9]))
    assert priority.argmax() == 2
    assert priority[2] == pytest.approx(1.0)
    assert priority[0] < priority[1] and priority[4] < priority[3]
    assert decay.in_danger_zone(0.2) and not decay.in_danger_zone(0.5)


@given(
    curve=st.sampled_from(["power_law", "exponential", "two_component"]),
    uses=st.integers(0, 1000),
    strength=st.floats(0.0, 2.0),
    t1=st.floats(0.0, 3650.0),
    dt=st.floats(0.0, 3650.0),
)
def test_score_never_rises_as_time_passes_without_use(
    curve: str, uses: int, strength: float, t1: float, dt: float
) -> None:
    decay = decay_for(curve)
    assert decay.score(uses, t1 + dt, strength) <= decay.score(uses, t1, strength) + 1e-12


def test_invalid_curve_is_a_typed_error() -> None:
    from mnemex import InvalidInputError

    with pytest.raises(InvalidInputError) as info:
        Settings.load(env={}, decay_curve="linear")
    assert info.value.field == "decay_curve"
