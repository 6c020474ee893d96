"""Several processes on one store, on both backends: no lost increment, one current value.

Each backend gets the same work: 4 processes x 500 `touch` calls on one memory must leave its
use_count at exactly 2,000, and 4 processes each writing 25 new values to one key must leave one
active value with the other 99 in its history.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import mnemex
from mnemex import Settings
from tests.pg import PgServer

PROCESSES = 4
TOUCHES = 500
VALUES = 25

_OPEN = """
import sys
import mnemex
from mnemex import Settings
target, data, name = sys.argv[1], sys.argv[2], sys.argv[3]
store = mnemex.open(target, settings=Settings.load(env={}, data_dir=data, embed_model="none"))
"""
TOUCHER = (
    _OPEN
    + f"""
memory_id = sys.argv[4]
for _ in range({TOUCHES}):
    store.touch(memory_id)
store.close()
print("done")
"""
)
WRITER = (
    _OPEN
    + f"""
for i in range({VALUES}):
    store.save(f"{{name}} says the office is in room {{i}}", subject="office", relation="room",
               value=f"{{name}}-{{i}}")
store.close()
print("done")
"""
)


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "shared.db")
        return
    server: PgServer = request.getfixturevalue("postgres")
    uri = server.new_database()
    yield uri
    server.drop(uri)


def _settings(tmp_path: Path) -> Settings:
    return Settings.load(env={}, data_dir=tmp_path / "data", embed_model="none")


def _run(script: str, target: str, tmp_path: Path, *extra: str) -> None:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, target, str(tmp_path / "data"), f"p{n}", *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(PROCESSES)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        assert out.strip() == "done"


@pytest.mark.slow
def test_concurrent_touches_lose_no_increment(target: str, tmp_path: Path) -> None:
    with mnemex.open(target, settings=_settings(tmp_path)) as store:
        memory_id = store.save("The shared memory every process touches").id
    _run(TOUCHER, target, tmp_path, memory_id)
    with mnemex.open(target, settings=_settings(tmp_path)) as store:
        assert store.get(memory_id).use_count == PROCESSES * TOUCHES
        with store.backend.read(store.tenant) as tx:
            touches = [e for e in tx.list_events("touch", 10_000) if e["subject_id"] == memory_id]
        assert len(touches) == PROCESSES * TOUCHES


@pytest.mark.slow
def test_concurrent_values_of_one_key_leave_one_current(target: str, tmp_path: Path) -> None:
    _run(WRITER, target, tmp_path)
    with mnemex.open(target, settings=_settings(tmp_path)) as store:
        history = store.facts("office", "room", include_history=True)
        current = store.facts("office", "room")
    written = {f"p{n}-{i}" for n in range(PROCESSES) for i in range(VALUES)}
    assert {fact.object for fact in history} == written
    assert len(history) == len(written)
    assert len(current) == 1
    active = [fact for fact in history if fact.status == "active"]
    assert [fact.id for fact in active] == [current[0].id]
    superseded = [fact for fact in history if fact.status == "superseded"]
    assert len(superseded) == len(written) - 1
    assert all(fact.superseded_by is not None for fact in superseded)
