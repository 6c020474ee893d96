"""Hostile values on the Python API: each is refused with a typed error naming field and limit."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from mnemex import MemoryStore
from mnemex.errors import InvalidInputError, NotFoundError
from tests.conftest import FakeClock


def nested(depth: int) -> dict[str, Any]:
    """An object `depth` levels deep: {"a": {"a": ...}}."""
    root: dict[str, Any] = {}
    cur = root
    for _ in range(depth - 1):
        cur["a"] = {}
        cur = cur["a"]
    return root


def refused(call: Callable[[], Any], field: str) -> InvalidInputError:
    with pytest.raises(InvalidInputError) as caught:
        call()
    assert caught.value.field == field, caught.value.to_dict()
    return caught.value


@pytest.mark.parametrize("depth", [40, 600, 1_200, 100_000])
def test_deep_meta_is_refused_on_save_and_update(mem_store: MemoryStore, depth: int) -> None:
    error = refused(lambda: mem_store.save("deep meta", meta=nested(depth)), "meta")
    assert error.limit == mem_store.settings.max_meta_depth
    kept = mem_store.save("shallow meta", meta=nested(5)).id
    refused(lambda: mem_store.update(kept, meta=nested(depth)), "meta")
    refused(
        lambda: mem_store.save_many([{"content": "y"}, {"content": "x", "meta": nested(depth)}]),
        "items[1].meta",
    )
    assert [m.id for m in mem_store.memories()] == [kept]
    assert mem_store.get(kept).meta == nested(5)


def test_lists_nest_too(mem_store: MemoryStore) -> None:
    deep: Any = []
    for _ in range(1_500):
        deep = [deep]
    refused(lambda: mem_store.save("deep list", meta={"a": deep}), "meta")


SURROGATE = "a \ud800 b"


@pytest.mark.parametrize(
    ("field", "call"),
    [
        ("content", lambda s: s.save(SURROGATE)),
        ("tags", lambda s: s.save("ok", tags=[SURROGATE])),
        ("entities", lambda s: s.save("ok", entities=[SURROGATE])),
        ("meta", lambda s: s.save("ok", meta={"k": SURROGATE})),
        ("meta", lambda s: s.save("ok", meta={SURROGATE: 1})),
        ("source", lambda s: s.save("ok", source=SURROGATE)),
        ("query", lambda s: s.search(SURROGATE)),
        ("prompt", lambda s: s.recall(SURROGATE)),
        ("message", lambda s: s.analyze(SURROGATE)),
        ("entities[0].name", lambda s: s.upsert_entities([{"name": SURROGATE}])),
        ("tags", lambda s: s.search("x", tags=[SURROGATE])),
    ],
)
def test_lone_surrogates_are_refused(
    mem_store: MemoryStore, field: str, call: Callable[[MemoryStore], Any]
) -> None:
    refused(lambda: call(mem_store), field)
    assert mem_store.memories() == []
    mem_store.save("the store still saves and searches afterwards")
    assert mem_store.search("store saves")


@pytest.mark.parametrize(
    ("field", "call"),
    [
        ("tags", lambda s: s.save("ok", tags=["a\x00b"])),
        ("entities", lambda s: s.save("ok", entities=["Al\x00ice"])),
        ("meta", lambda s: s.save("ok", meta={"k": "v\x00"})),
        ("meta", lambda s: s.save("ok", meta={"k\x00": "v"})),
        ("meta", lambda s: s.save("ok", meta={"k": ["x", {"y": "\x00"}]})),
        ("query", lambda s: s.search("a\x00")),
    ],
)
def test_nul_is_refused_everywhere(
    mem_store: MemoryStore, field: str, call: Callable[[MemoryStore], Any]
) -> None:
    refused(lambda: call(mem_store), field)
    assert mem_store.memories() == []


@pytest.mark.parametrize(
    "moment",
    ["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00", "9999-01-01T00:00:00Z", -1e18],
)
def test_observed_at_outside_the_window_is_refused(mem_store: MemoryStore, moment: Any) -> None:
    error = refused(lambda: mem_store.save("dated", observed_at=moment), "observed_at")
    assert error.limit is not None


def test_a_future_keyed_value_cannot_stay_current_forever(
    mem_store: MemoryStore, clock: FakeClock
) -> None:
    late = (clock.now + timedelta(days=400)).isoformat()
    refused(
        lambda: mem_store.save(
            "Alice uses Emacs", subject="Alice", relation="editor", value="Emacs", observed_at=late
        ),
        "observed_at",
    )
    soon = (clock.now + timedelta(hours=1)).isoformat()  # clock skew is tolerated
    mem_store.save(
        "Alice uses Vim", subject="Alice", relation="editor", value="Vim", observed_at=soon
    )
    clock.advance(days=2)
    mem_store.save("Alice uses Helix", subject="Alice", relation="editor", value="Helix")
    assert [f.object for f in mem_store.facts("Alice", "editor")] == ["Helix"]


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00"])
def test_as_of_at_the_ends_of_time_is_an_input_error(mem_store: MemoryStore, moment: str) -> None:
    refused(lambda: mem_store.search("x", as_of=moment), "as_of")
    refused(lambda: mem_store.facts(as_of=moment), "as_of")


@pytest.mark.parametrize("days", [1e6, 1e300, float("inf"), 0, -3])
def test_window_days_is_bounded(mem_store: MemoryStore, days: float) -> None:
    refused(lambda: mem_store.search("x", window_days=days), "window_days")


def test_window_days_of_a_century_works(mem_store: MemoryStore) -> None:
    mem_store.save("an old note about quokkas")
    assert mem_store.search("quokkas", window_days=36_500)


@pytest.mark.parametrize(
    ("field", "call"),
    [
        ("depth", lambda s: s.graph("x", depth="2")),
        ("depth", lambda s: s.graph("x", depth=1.5)),
        ("threshold", lambda s: s.cluster(threshold="0.5")),
        ("threshold", lambda s: s.cluster(threshold=float("nan"))),
        ("limit", lambda s: s.entities(limit=-1)),
        ("limit", lambda s: s.cluster(limit=0)),
        ("tags", lambda s: s.save("ok", tags={"a": 1})),
        ("entities", lambda s: s.save("ok", entities={"a": 1})),
        ("k", lambda s: s.search("x", k=1_001)),
        ("k", lambda s: s.search("x", k="5")),
    ],
)
def test_type_holes(mem_store: MemoryStore, field: str, call: Callable[[MemoryStore], Any]) -> None:
    refused(lambda: call(mem_store), field)


def test_relate_with_an_unknown_source_memory(mem_store: MemoryStore) -> None:
    with pytest.raises(NotFoundError):
        mem_store.relate("Alice", "Atlas", "works_on", source_memory="mem_nope")
    assert mem_store.entities() == []
