"""Time cues: the period a query names, questions asking when, memories saying when."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from mnemex.clock import to_micros
from mnemex.retrieval.temporal_cues import (
    asks_when,
    closeness,
    loose_period,
    named_period,
    states_time,
)

NOW = datetime(2024, 3, 14, 15, 0, tzinfo=UTC)


def _day(year: int, month: int, day: int) -> int:
    return to_micros(datetime(year, month, day, tzinfo=UTC))


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("What did Jolene ask on 13 March, 2023?", (2023, 3, 13), (2023, 3, 14)),
        ("what happened on March 16, 2022", (2022, 3, 16), (2022, 3, 17)),
        ("notes from 2023-05-08 please", (2023, 5, 8), (2023, 5, 9)),
        ("In what activity did Maria take part in July 2023?", (2023, 7, 1), (2023, 8, 1)),
        ("the December 2023 offsite", (2023, 12, 1), (2024, 1, 1)),
        ("what did we decide in 2021", (2021, 1, 1), (2022, 1, 1)),
        ("what did I do yesterday", (2024, 3, 13), (2024, 3, 14)),
        ("plans from last month", (2024, 2, 1), (2024, 3, 1)),
    ],
)
def test_named_periods(query: str, start: tuple[int, int, int], end: tuple[int, int, int]) -> None:
    assert named_period(query, NOW) == (_day(*start), _day(*end))


def test_no_period_and_impossible_dates() -> None:
    assert named_period("What does Alice think about Rust?", NOW) is None
    assert named_period("I ran 2000 steps", NOW) is None
    assert named_period("on 31 February, 2023", NOW) is None


def test_asks_when() -> None:
    assert asks_when("When did Caroline go to the support group?")
    assert asks_when("How long has she had her dog?")
    assert asks_when("Which year did they move?")
    assert asks_when("Do you know when did the deploy happen")
    assert not asks_when("What did Caroline research?")
    assert not asks_when("Whenever possible, use tabs")


def test_states_time() -> None:
    assert states_time("I went to a support group yesterday")
    assert states_time("We moved here 4 years ago")
    assert states_time("See you on Friday")
    assert not states_time("The support group was so powerful")


def test_closeness_is_one_inside_and_fades_outside() -> None:
    period = (_day(2023, 5, 8), _day(2023, 5, 9))
    times = np.array([_day(2023, 5, 8) + 3600 * 10**6, _day(2023, 5, 12), _day(2023, 6, 30)])
    near = closeness(times, period, 7.0)
    assert near[0] == 1.0 and 0.0 < near[1] < 1.0 and near[2] == 0.0


def test_a_month_named_without_a_year_is_its_latest_that_has_been_going_a_week() -> None:
    asked = "Where did Priya take the cats in February?"
    first_day = datetime(2026, 2, 1, 14, tzinfo=UTC)  # February has barely begun: last year's
    assert loose_period(asked, first_day) == (
        to_micros(datetime(2025, 2, 1, tzinfo=UTC)),
        to_micros(datetime(2025, 3, 1, tzinfo=UTC)),
    )
    later = datetime(2026, 2, 20, tzinfo=UTC)  # three weeks in: this one, up to now
    assert loose_period(asked, later) == (
        to_micros(datetime(2026, 2, 1, tzinfo=UTC)),
        to_micros(later),
    )
