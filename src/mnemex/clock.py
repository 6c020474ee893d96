"""Time: one injectable clock, and exact conversion between datetimes and stored microseconds."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from mnemex.errors import InvalidInputError

Clock = Callable[[], datetime]
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MICROS_PER_DAY = 86_400 * 1_000_000


def system_clock() -> datetime:
    """The current time as a timezone-aware UTC datetime."""
    return datetime.now(UTC)


def to_micros(moment: datetime) -> int:
    """Microseconds since the epoch: exact, so export -> import round-trips timestamps."""
    return (moment - EPOCH) // timedelta(microseconds=1)


def from_micros(micros: int) -> datetime:
    """The UTC datetime of a stored microsecond count."""
    return EPOCH + timedelta(microseconds=micros)


def parse_time(value: object, field: str) -> datetime:
    """Accept a datetime, an ISO 8601 string or epoch seconds; naive times are taken as UTC."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        text = value.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            moment = datetime.fromisoformat(text)
        except ValueError as exc:
            raise InvalidInputError(field, f"not an ISO 8601 time: {value!r}") from exc
    elif isinstance(value, int | float) and not isinstance(value, bool):
        try:
            moment = datetime.fromtimestamp(float(value), UTC)
        except (OverflowError, OSError, ValueError) as exc:
            raise InvalidInputError(field, f"epoch seconds out of range: {value!r}") from exc
    else:
        raise InvalidInputError(field, "expected a datetime, an ISO 8601 string or epoch seconds")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except (OverflowError, ValueError) as exc:  # year 1 or 9999 with an offset
        raise InvalidInputError(field, f"out of the range of times: {value!r}") from exc


def days_between(earlier: int, later: int) -> float:
    """Days from one stored microsecond count to another (negative if `later` is earlier)."""
    return (later - earlier) / MICROS_PER_DAY
