"""Time in queries and memories: the period a query names, questions asking "when", time words.

Three cues the ranking uses. A query naming a date ("on 8 May 2023", "in July 2023",
"yesterday") favours memories observed around that period. A query asking when something
happened favours memories that say when ("last Friday", "two weeks ago", "in 2021"). Both are
plain patterns (English): no model, microseconds per query.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import numpy as np
import numpy.typing as npt

from mnemex.clock import to_micros

_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_MONTH = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|" + (
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)\d\d)"
_DAY_MONTH_YEAR = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}\b", re.IGNORECASE)
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.IGNORECASE)
_ISO_DAY = re.compile(r"\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b")
_MONTH_YEAR = re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}\b", re.IGNORECASE)
_BARE_YEAR = re.compile(r"\b(?:in|during|since|of|from|year)\s+((?:19|20)\d\d)\b", re.IGNORECASE)
_RELATIVE = re.compile(
    r"\b(yesterday|today|tonight|last\s+(?:night|week|weekend|month|year)|"
    r"this\s+(?:morning|week|weekend|month|year))\b",
    re.IGNORECASE,
)
_ASKS_WHEN = re.compile(
    r"^\s*(?:when|since\s+when|how\s+long|what\s+(?:time|date|day|year|month)|"
    r"which\s+(?:year|month|day|date))\b|\bwhen\s+(?:did|was|were|is|will|do|does|has|had)\b",
    re.IGNORECASE,
)
_STATES_TIME = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|ago|recently|lately|since|"
    r"last|next|this\s+(?:morning|week|weekend|month|year|summer|winter|spring|fall)|"
    r"weekend|week|month|year|years|months|weeks|days|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"january|february|march|april|june|july|august|september|october|november|december|"
    r"(?:19|20)\d\d|\d{1,2}/\d{1,2}(?:/\d{2,4})?)\b",
    re.IGNORECASE,
)
_DAY_US = 86_400_000_000

Period = tuple[int, int]  # [start, end) in microseconds since the epoch
Times = npt.NDArray[np.int64]
Closeness = npt.NDArray[np.float64]


def states_time(text: str) -> bool:
    """True when a memory says when something happened (a date, a weekday, "ago", "last ...")."""
    return _STATES_TIME.search(text) is not None


def asks_when(query: str) -> bool:
    """True when a query asks for a time or a duration ("When did ...", "How long ...")."""
    return _ASKS_WHEN.search(query) is not None


def _month(text: str) -> int:
    prefix = text.casefold().rstrip(".")[:3]
    return next(n for n, name in enumerate(_MONTHS, start=1) if name.startswith(prefix))


def _day_period(year: int, month: int, day: int) -> Period | None:
    try:
        start = datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None
    return to_micros(start), to_micros(start) + _DAY_US


def _month_period(year: int, month: int) -> Period:
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    return to_micros(start), to_micros(end)


def _relative(phrase: str, now: datetime) -> Period:
    word = " ".join(phrase.casefold().split())
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if word in {"yesterday", "last night"}:
        start, length = today - timedelta(days=1), timedelta(days=1)
    elif word in {"today", "tonight", "this morning"}:
        start, length = today, timedelta(days=1)
    elif word in {"last week", "last weekend"}:
        start, length = today - timedelta(days=7 + today.weekday()), timedelta(days=7)
    elif word in {"this week", "this weekend"}:
        start, length = today - timedelta(days=today.weekday()), timedelta(days=7)
    elif word == "last month":
        first = today.replace(day=1)
        start = (first - timedelta(days=1)).replace(day=1)
        length = first - start
    elif word == "this month":
        return _month_period(today.year, today.month)
    elif word == "last year":
        return _year_period(today.year - 1)
    else:  # this year
        return _year_period(today.year)
    return to_micros(start), to_micros(start + length)


def _year_period(year: int) -> Period:
    return to_micros(datetime(year, 1, 1, tzinfo=UTC)), to_micros(
        datetime(year + 1, 1, 1, tzinfo=UTC)
    )


def named_period(query: str, now: datetime) -> Period | None:
    """The most precise period the query names (a day, a month, a year), or None."""
    if match := _DAY_MONTH_YEAR.search(query):
        return _day_period(int(match.group(3)), _month(match.group(2)), int(match.group(1)))
    if match := _MONTH_DAY_YEAR.search(query):
        return _day_period(int(match.group(3)), _month(match.group(1)), int(match.group(2)))
    if match := _ISO_DAY.search(query):
        return _day_period(int(match.group(1)), int(match.group(2)), int(match.group(3)))
    if match := _MONTH_YEAR.search(query):
        return _month_period(int(match.group(2)), _month(match.group(1)))
    if match := _RELATIVE.search(query):
        return _relative(match.group(1), now)
    if match := _BARE_YEAR.search(query):
        return _year_period(int(match.group(1)))
    return None


def closeness(times_us: Times, period: Period, slack_days: float) -> Closeness:
    """1 inside the period, falling linearly to 0 at `slack_days` outside it (vectorised)."""
    start, end = period
    gap = np.maximum(start - times_us, 0) + np.maximum(times_us - (end - 1), 0)
    return np.clip(1.0 - gap / (slack_days * _DAY_US), 0.0, 1.0)


_SEASONS = {"spring": (3, 3), "summer": (6, 3), "autumn": (9, 3), "fall": (9, 3), "winter": (12, 3)}
_LOOSE = re.compile(
    rf"\b(?:in|during|by|around|back\s+in|over|through|last|this\s+past)\s+(?:the\s+)?(?:early\s+|"
    rf"late\s+)?({_MONTH}|spring|summer|autumn|fall|winter)\b",
    re.IGNORECASE,
)


LOOSE_MIN_AGE = timedelta(days=7)  # a month begun less than this ago holds too little to ask of


def loose_period(query: str, now: datetime) -> Period | None:
    """A month or a season named without a year ("in March", "last summer"): its latest
    occurrence that began at least `LOOSE_MIN_AGE` before now ("in February" asked on the first
    of February is last February). Read-time resolution answers for the value then; search
    ranking does not use it (too vague to favour memories by date)."""
    match = _LOOSE.search(query)
    if match is None:
        return None
    word = match.group(1).casefold().rstrip(".")
    first, months = _SEASONS.get(word, (0, 1))
    if not first:
        first = _month(word)
    for year in (now.year, now.year - 1, now.year - 2):
        start = datetime(year, first, 1, tzinfo=UTC)
        if start <= now - LOOSE_MIN_AGE:
            end_month = first - 1 + months
            end = datetime(year + end_month // 12, end_month % 12 + 1, 1, tzinfo=UTC)
            return to_micros(start), to_micros(min(end, now))
    return None
