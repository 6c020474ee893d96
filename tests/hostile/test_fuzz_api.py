"""Hypothesis on the core API: any value in any argument gives a result or a typed error."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mnemex
from mnemex import MemoryStore, Settings
from mnemex.errors import MnemexError
from tests.fuzz_counts import FUZZ_CASES, FUZZ_FAILURES

EXAMPLES = 300  # per test: 3,000 calls over 10 API methods

texts = st.text(
    alphabet=st.characters(codec=None, exclude_categories=()), max_size=60
) | st.sampled_from(["", " ", "a \ud800", "\x00", "Alice uses Vim", "x" * 5_000])
scalars = st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats() | texts
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=30,
)
times = (
    st.none()
    | texts
    | st.floats()
    | st.integers(-(10**18), 10**18)
    | st.sampled_from(
        [
            "0001-01-01T00:00:00+05:00",
            "9999-12-31T23:59:59-05:00",
            "2026-01-01",
            "2026-13-45",
            "1e9",
        ]
    )
)
anything = json_values | st.sampled_from([float("nan"), float("inf"), -1, 0, 2**70])


@pytest.fixture(scope="module")
def fuzz_store() -> Iterator[MemoryStore]:
    with tempfile.TemporaryDirectory() as folder:
        config = Settings.load(env={}, data_dir=Path(folder), embed_model="none")
        with mnemex.open(":memory:", settings=config) as store:
            store.save("Alice uses Vim", subject="Alice", relation="editor", value="Vim")
            store.save("the kiln runs hot", entities=["Kiln"], tags=["pottery"])
            yield store


def attempt(name: str, call: Callable[[], Any]) -> None:
    FUZZ_CASES[f"api.{name}"] += 1
    try:
        call()
    except MnemexError:
        pass
    except Exception:
        FUZZ_FAILURES[name] += 1
        raise


SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip


@SETTINGS
@given(content=texts, tags=anything, entities=anything, strength=anything, meta=anything,
       observed_at=times, key=st.none() | st.tuples(texts, texts, texts))  # fmt: skip
def test_save(
    fuzz_store: MemoryStore, content: Any, tags: Any, entities: Any, strength: Any, meta: Any,
    observed_at: Any, key: Any,
) -> None:  # fmt: skip
    subject, relation, value = key or (None, None, None)
    attempt("save", lambda: fuzz_store.save(
        content, tags=tags, entities=entities, strength=strength, meta=meta,
        observed_at=observed_at, subject=subject, relation=relation, value=value,
    ))  # fmt: skip


@SETTINGS
@given(query=texts, k=anything, tags=anything, window=anything, as_of=times, entity=anything)
def test_search(
    fuzz_store: MemoryStore, query: Any, k: Any, tags: Any, window: Any, as_of: Any, entity: Any
) -> None:
    attempt("search", lambda: fuzz_store.search(
        query, k=k, tags=tags, window_days=window, as_of=as_of, entity=entity
    ))  # fmt: skip


@SETTINGS
@given(prompt=texts, k=anything, context=anything)
def test_recall(fuzz_store: MemoryStore, prompt: Any, k: Any, context: Any) -> None:
    attempt("recall", lambda: fuzz_store.recall(prompt, k=k, context=context))


@SETTINGS
@given(field=st.sampled_from(["content", "tags", "entities", "strength", "meta", "observed_at",
                              "source", "colour"]), value=anything)  # fmt: skip
def test_update(fuzz_store: MemoryStore, field: str, value: Any) -> None:
    target = fuzz_store.memories(limit=1)[0].id
    attempt("update", lambda: fuzz_store.update(target, **{field: value}))


@SETTINGS
@given(subject=anything, relation=anything, as_of=times, history=st.booleans())
def test_facts(
    fuzz_store: MemoryStore, subject: Any, relation: Any, as_of: Any, history: bool
) -> None:
    attempt(
        "facts", lambda: fuzz_store.facts(subject, relation, as_of=as_of, include_history=history)
    )


@SETTINGS
@given(entity=anything, depth=anything, limit=anything, threshold=anything)
def test_graph_and_lists(
    fuzz_store: MemoryStore, entity: Any, depth: Any, limit: Any, threshold: Any
) -> None:
    attempt("graph", lambda: fuzz_store.graph(entity, depth=depth))
    attempt("entities", lambda: fuzz_store.entities(limit=limit))
    attempt("cluster", lambda: fuzz_store.cluster(threshold=threshold))


@SETTINGS
@given(entities=anything, relationships=anything, relate=st.tuples(anything, anything, anything))
def test_entities_and_relations(
    fuzz_store: MemoryStore, entities: Any, relationships: Any, relate: Any
) -> None:
    attempt("upsert_entities", lambda: fuzz_store.upsert_entities(entities, relationships))
    attempt("relate", lambda: fuzz_store.relate(*relate))
