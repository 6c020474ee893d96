"""Input checks shared by every way in: each failure names the field and the limit it broke."""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from mnemex.clock import parse_time
from mnemex.config import Settings
from mnemex.errors import InvalidInputError
from mnemex.models import LIVE_STATUSES, MemoryStatus

_UNSAFE = re.compile("[\x00\ud800-\udfff]")  # NUL and lone surrogates: not storable text
# Times a memory may be dated with: nothing before 1900, nothing more than a day ahead of the
# clock (skew). A value dated in the far future would stay the current value of its key forever.
EARLIEST = datetime(1900, 1, 1, tzinfo=UTC)
FUTURE_SLACK = timedelta(days=1)
LATEST_AS_OF = datetime(2200, 1, 1, tzinfo=UTC)  # as_of: any moment a store can hold, and then some
MAX_WINDOW_DAYS = 36_600  # window_days: a century (366-day years)


def content_hash(content: str) -> str:
    """sha256 of the NFC-normalised, whitespace-trimmed text: equal text, equal hash."""
    normal = unicodedata.normalize("NFC", content).strip()
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()


def check_text(value: object, field: str, limit: int, *, allow_empty: bool = False) -> str:
    """A string within `limit` characters; NUL bytes are rejected, not silently dropped."""
    if not isinstance(value, str):
        raise InvalidInputError(field, f"must be a string, not {type(value).__name__}")
    if not allow_empty and not value.strip():
        raise InvalidInputError(field, "must not be empty")
    if len(value) > limit:
        raise InvalidInputError(field, f"is {len(value)} characters, over the limit", limit=limit)
    check_clean(value, field)
    return value


def check_clean(value: str, field: str) -> str:
    """Text that can be stored and encoded: no NUL, no lone surrogate (invalid UTF-8 in argv)."""
    bad = _UNSAFE.search(value)
    if bad is not None:
        what = "NUL characters" if bad.group() == "\x00" else "lone surrogates (invalid UTF-8)"
        raise InvalidInputError(field, f"must not contain {what}")
    return value


def check_optional_text(value: object, field: str, limit: int) -> str | None:
    """None, or a string within `limit` characters."""
    if value is None:
        return None
    return check_text(value, field, limit, allow_empty=True)


def normalize_tag(tag: str) -> str:
    """Tags are lowercase and hyphenated: "Machine Learning" -> "machine-learning"."""
    return "-".join(unicodedata.normalize("NFKC", tag).casefold().split())


def check_tags(value: object, settings: Settings, field: str = "tags") -> list[str]:
    """A list of distinct normalised tags within the count and length limits."""
    if value is None:
        return []
    items = _as_list(value, field)
    tags: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise InvalidInputError(field, "every tag must be a string")
        tag = normalize_tag(check_clean(item, field))
        if not tag:
            continue
        if len(tag) > settings.max_tag_chars:
            raise InvalidInputError(
                field, f"tag {tag[:20]!r}... is too long", limit=settings.max_tag_chars
            )
        if tag not in tags:
            tags.append(tag)
    if len(tags) > settings.max_tags:
        raise InvalidInputError(field, f"{len(tags)} tags, over the limit", limit=settings.max_tags)
    return tags


def check_entities(value: object, settings: Settings, field: str = "entities") -> list[str]:
    """A list of distinct entity names (case-insensitively) within the limits."""
    if value is None:
        return []
    names: list[str] = []
    seen: set[str] = set()
    for item in _as_list(value, field):
        if not isinstance(item, str):
            raise InvalidInputError(field, "every entity must be a string")
        name = " ".join(check_clean(item, field).split())
        if not name:
            continue
        if len(name) > settings.max_entity_chars:
            raise InvalidInputError(field, "entity name too long", limit=settings.max_entity_chars)
        if name.casefold() not in seen:
            seen.add(name.casefold())
            names.append(name)
    if len(names) > settings.max_entities:
        raise InvalidInputError(
            field, f"{len(names)} entities, over the limit", limit=settings.max_entities
        )
    return names


def check_meta(value: object, settings: Settings, field: str = "meta") -> dict[str, Any]:
    """A JSON-serialisable object within the depth and size limits, its text storable."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidInputError(field, "must be an object (a dict)")
    check_tree(value, field, settings.max_meta_depth, settings.max_meta_bytes)
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(field, f"must be JSON-serialisable: {exc}") from exc
    size = len(encoded.encode("utf-8"))
    if size > settings.max_meta_bytes:
        raise InvalidInputError(
            field, f"is {size} bytes as JSON, over the limit", limit=settings.max_meta_bytes
        )
    return dict(json.loads(encoded))


def check_tree(value: object, field: str, max_depth: int, max_items: int) -> None:
    """Walk a JSON value without recursion: depth, item count and every string's characters.

    Depth is bounded before anything recursive (json, pydantic, to_jsonable) sees the value:
    a 1,000-deep object would otherwise be stored and then fail every read of it."""
    stack: list[tuple[object, int]] = [(value, 1)]
    seen = 0
    while stack:
        node, depth = stack.pop()
        seen += 1
        if seen > max_items:
            raise InvalidInputError(field, f"over {max_items} values", limit=max_items)
        if isinstance(node, str):
            check_clean(node, field)
        elif isinstance(node, Mapping | list | tuple):
            if depth > max_depth:
                raise InvalidInputError(field, f"nested over {max_depth} levels", limit=max_depth)
            if isinstance(node, Mapping):
                for key, item in node.items():
                    if isinstance(key, str):
                        check_clean(key, field)
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in node)
        elif isinstance(node, float) and not math.isfinite(node):
            raise InvalidInputError(field, "numbers must be finite")


def check_observed_at(value: object, now: datetime, field: str = "observed_at") -> datetime:
    """When a memory happened: from 1900 to a day past now, the later of the store's clock
    and the machine's (an injected clock may lag behind what is being replayed into it)."""
    latest = max(now, datetime.now(UTC)) + FUTURE_SLACK
    return check_moment(value, field, EARLIEST, latest)


def check_as_of(value: object, field: str = "as_of") -> datetime:
    """A moment to read the store as of: within 1900-2200."""
    return check_moment(value, field, EARLIEST, LATEST_AS_OF)


def check_moment(value: object, field: str, earliest: datetime, latest: datetime) -> datetime:
    """A time within [earliest, latest] (ISO 8601, epoch seconds or a datetime)."""
    window = f"{earliest.isoformat()} .. {latest.isoformat()}"
    try:
        moment = parse_time(value, field)
    except InvalidInputError as exc:
        if "range" not in exc.message:
            raise
        raise InvalidInputError(field, f"outside {window}", limit=latest.isoformat()) from exc
    if not earliest <= moment <= latest:
        raise InvalidInputError(
            field, f"{moment.isoformat()} is outside {window}", limit=latest.isoformat()
        )
    return moment


def check_window_days(value: object, field: str = "window_days") -> float:
    """A look-back window in days: positive, at most a century."""
    days = check_positive(value, field)
    if days > MAX_WINDOW_DAYS:
        raise InvalidInputError(
            field, f"must be at most {MAX_WINDOW_DAYS} days", limit=MAX_WINDOW_DAYS
        )
    return days


def window_start(now: datetime, window_days: object | None) -> datetime | None:
    """The start of a checked look-back window ending `now`; None for no window."""
    return None if window_days is None else now - timedelta(days=check_window_days(window_days))


def check_int(value: object, field: str, low: int, high: int) -> int:
    """An integer (not a bool, not a float, not a string) within [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(field, "must be an integer")
    if not low <= value <= high:
        raise InvalidInputError(field, f"must be within [{low}, {high}]", limit=high)
    return value


def check_fraction(value: object, field: str) -> float:
    """A number within (0, 1]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(field, "must be a number")
    if not (math.isfinite(value) and 0.0 < value <= 1.0):
        raise InvalidInputError(field, "must be within (0, 1]", limit=1.0)
    return float(value)


def check_strength(value: object, field: str = "strength") -> float:
    """A number within [0, 2]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(field, "must be a number")
    number = float(value)
    if math.isnan(number) or not 0.0 <= number <= 2.0:
        raise InvalidInputError(field, "must be within [0, 2]", limit=2.0)
    return number


def check_k(value: object, settings: Settings, field: str = "k") -> int:
    """A result count within [1, max_k]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(field, "must be an integer")
    if not 1 <= value <= settings.max_k:
        raise InvalidInputError(
            field, f"must be within [1, {settings.max_k}]", limit=settings.max_k
        )
    return value


def check_positive(value: object, field: str) -> float:
    """A positive finite number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(field, "must be a number")
    if not math.isfinite(value) or value <= 0:
        raise InvalidInputError(field, "must be a positive number", limit=0)
    return float(value)


def check_statuses(status: str | Sequence[str] | None, field: str = "status") -> tuple[str, ...]:
    """Memory statuses to match: None means the live ones (active and promoted)."""
    if status is None:
        return LIVE_STATUSES
    chosen = [status] if isinstance(status, str) else list(status)
    valid = {s.value for s in MemoryStatus}
    for item in chosen:
        if item not in valid:
            raise InvalidInputError(field, f"must be one of {', '.join(sorted(valid))}")
    return tuple(chosen)


def _as_list(value: object, field: str) -> list[object]:
    if isinstance(value, str):
        return [part for part in value.split(",")]
    if isinstance(value, Iterable) and not isinstance(value, Mapping | bytes):
        return list(value)
    raise InvalidInputError(field, "must be a list of strings")
