"""Property-based fuzzing of the REST API from its own OpenAPI document: no input yields a 5xx."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

import mnemex
from mnemex import Settings
from mnemex.interfaces.http import create_app
from tests.fuzz_counts import FUZZ_CASES, FUZZ_FAILURES

_DATA = tempfile.TemporaryDirectory()
STORE = mnemex.open(":memory:", settings=Settings.load(env={}, data_dir=Path(_DATA.name)))
STORE.save_many(
    [{"content": f"seed memory {i} about Quokka", "entities": ["Quokka"]} for i in range(3)]
)
APP = create_app(STORE, mcp=False, allowed_hosts=["testserver"])  # schemathesis names it
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture(scope="module", autouse=True)
def _close_store() -> Iterator[None]:
    yield
    STORE.close()
    _DATA.cleanup()


@schema.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_request_makes_the_server_fail(case: Any) -> None:
    FUZZ_CASES[f"openapi.{case.operation.method.upper()}"] += 1
    try:
        case.call_and_validate(checks=[not_a_server_error])
    except Exception:
        FUZZ_FAILURES["openapi"] += 1
        raise
