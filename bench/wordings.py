"""Wording sets of `mnemex eval ledger`, read from bench/data/*.json.

A set's fields keep the names the world builders use (bench/ledger_world.py): `PEOPLE`,
`RELATIONS` (attribute -> (names, values)), statement and question templates. Lists are read as
tuples, so a set is the same sequence of choices for a seeded random generator however it is
stored.
"""

from __future__ import annotations

import functools
import json
from types import SimpleNamespace
from typing import Any

from bench import DATA


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return {key: _frozen(item) for key, item in value.items()}
    return value


@functools.cache
def load(name: str) -> Any:
    """The wording set bench/data/<name>.json, its fields as attributes."""
    raw = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return SimpleNamespace(**{key: _frozen(value) for key, value in raw.items()})
