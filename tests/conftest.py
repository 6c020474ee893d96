"""Shared fixtures: a controllable clock and stores on every backend the contract covers."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import mnemex
from mnemex import MemoryStore, Settings
from tests import fuzz_counts, pg
from tests.pg import PgServer


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings.load(env={}, data_dir=tmp_path / "data")


@pytest.fixture(scope="session")
def postgres() -> Iterator[PgServer]:
    """One PostgreSQL server for the session (MNEMEX_TEST_POSTGRES, else embedded)."""
    server = pg.start()
    yield server
    server.close()


@pytest.fixture
def postgres_uri(postgres: PgServer) -> Iterator[str]:
    """A fresh, migrated database for one test."""
    uri = postgres.new_database()
    yield uri
    postgres.drop(uri)


@pytest.fixture(params=["memory", "file", "postgres"])
def store(
    request: pytest.FixtureRequest, tmp_path: Path, settings: Settings, clock: FakeClock
) -> Iterator[MemoryStore]:
    """The contract fixture: every test using it runs on ':memory:', on a SQLite file and on
    PostgreSQL."""
    if request.param == "postgres":
        target = request.getfixturevalue("postgres_uri")
    else:
        target = ":memory:" if request.param == "memory" else str(tmp_path / "store.db")
    with mnemex.open(target, settings=settings, clock=clock) as opened:
        yield opened


@pytest.fixture
def mem_store(settings: Settings, clock: FakeClock) -> Iterator[MemoryStore]:
    with mnemex.open(":memory:", settings=settings, clock=clock) as opened:
        yield opened


def assert_fact_counts_kept(store: MemoryStore) -> None:
    """The per-value fact counts the triggers keep (migration 8) are what counting the facts
    gives, and `value_relations` answers as a count over the facts would, subject excluded."""
    statuses = ("active", "superseded")
    with store.backend.read(store.tenant) as tx:
        conn = tx.conn  # type: ignore[attr-defined]
        if store.backend.searches_inside:  # PostgreSQL: psycopg's placeholders
            conn = _Placeholders(conn)
        kept = conn.execute(
            "SELECT tenant, object_key, status, relation, facts FROM fact_value_counts "
            "WHERE facts != 0"
        ).fetchall()
        counted = conn.execute(
            "SELECT tenant, coalesce(object_key, ''), status, relation, count(*) FROM facts "
            "GROUP BY 1, 2, 3, 4"
        ).fetchall()
        assert sorted(kept) == sorted(counted)
        pairs = conn.execute(
            "SELECT DISTINCT object_key, subject_id FROM facts WHERE tenant = ?", (store.tenant,)
        ).fetchall()
        for value, subject in pairs:
            expected = conn.execute(
                "SELECT relation, count(*) FROM facts WHERE tenant = ? AND object_key = ? "
                "AND status IN (?, ?) AND subject_id != ? GROUP BY relation",
                (store.tenant, value, *statuses, subject),
            ).fetchall()
            assert tx.value_relations(value, statuses, exclude_subject=subject) == dict(expected)


class _Placeholders:
    """A psycopg connection that takes SQLite's `?` placeholders (for shared test queries)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Any = ()) -> Any:
        return self.conn.execute(sql.replace("?", "%s"), params)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The fuzz suites' case counts (tests/fuzz_counts.py)."""
    fuzz_counts.summary(terminalreporter)
