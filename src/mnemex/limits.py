"""Input checks shared by every way in: each failure names the field and the limit it broke."""

from __future__ import annotations

import hashlib
import json
import math
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from mnemex.config import Settings
from mnemex.errors import InvalidInputError
from mnemex.models import LIVE_STATUSES, MemoryStatus


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
    if "\x00" in value:
        raise InvalidInputError(field, "must not contain NUL characters")
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
        tag = normalize_tag(item)
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
        name = " ".join(item.split())
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
    """A JSON-serialisable object within the size limit."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidInputError(field, "must be an object (a dict)")
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
    if isinstance(value, Iterable):
        return list(value)
    raise InvalidInputError(field, "must be a list of strings")
