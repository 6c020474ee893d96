"""The WAL is checkpointed by a helper thread, not inside the saving thread's COMMIT."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import sqlean

from mnemex.store import _sqlite_checkpoint
from mnemex.store.sqlite import SqliteBackend


def _insert_events(backend: SqliteBackend, count: int) -> None:
    with backend.write("default") as tx:
        for n in range(count):
            tx.log_event("save", n, None, {"n": n})


def _events_in_main_file(path: Path, scratch: Path) -> int:
    """Events the main file holds by itself (what a checkpoint has copied out of the WAL)."""
    shutil.copyfile(path, scratch)  # the file alone: its -wal is not copied along
    conn = sqlean.connect(str(scratch))
    try:
        return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])
    finally:
        conn.close()


def test_commits_reach_the_main_file_in_the_background(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    SqliteBackend(str(path)).close()  # the schema, checkpointed on close
    backend = SqliteBackend(str(path))
    try:
        writer_pages = backend._writer.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        assert writer_pages == _sqlite_checkpoint.BACKSTOP_PAGES  # the writer does not, early
        before = _events_in_main_file(path, tmp_path / "copy.db")
        _insert_events(backend, 50)
        deadline = time.monotonic() + 10
        while _events_in_main_file(path, tmp_path / "copy.db") < before + 50:
            assert time.monotonic() < deadline, "no background checkpoint within 10 s"
            time.sleep(0.05)
        assert backend._checkpointer is not None and backend._checkpointer.runs >= 1
    finally:
        backend.close()


def test_close_stops_the_thread_and_leaves_the_file_complete(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    backend = SqliteBackend(str(path))
    checkpointer = backend._checkpointer
    assert checkpointer is not None
    _insert_events(backend, 20)
    backend.close()  # straight after the write: the thread has not run yet
    assert not checkpointer._thread.is_alive()
    assert _events_in_main_file(path, tmp_path / "copy.db") >= 20


def test_an_in_memory_store_has_no_checkpointer() -> None:
    backend = SqliteBackend(":memory:")
    try:
        assert backend._checkpointer is None
        _insert_events(backend, 3)
    finally:
        backend.close()


def test_a_close_landing_as_the_interval_runs_out_still_stops_the_thread() -> None:
    """close() sets stop and wake; if it lands just after the thread's wait for the interval
    ran out, the thread must still see it (it once cleared that wake and waited for ever, and a
    writer process hung in close())."""
    import threading

    from mnemex.store._sqlite_checkpoint import Checkpointer

    checkpointer = Checkpointer(lambda: sqlean.connect(":memory:"))

    class LateStop(threading.Event):
        first = True

        def wait(self, timeout: float | None = None) -> bool:
            if self.first:  # close() lands here, just after the interval ran out
                self.first = False
                self.set()
                checkpointer._wake.set()
                return False
            return super().wait(timeout)

    checkpointer._stop = LateStop()
    checkpointer.written()
    checkpointer._thread.join(timeout=5)
    assert not checkpointer._thread.is_alive()
