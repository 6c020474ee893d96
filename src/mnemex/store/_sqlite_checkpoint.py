"""Checkpoints off the write path: the WAL is copied into the store file by a helper thread.

SQLite checkpoints inside the COMMIT that takes the WAL past 1,000 pages: the saving thread
copies the pages and waits for the file to reach the disk (an fsync), ~20 ms at 100,000
memories where a batch of 64 saves dirties ~1,000 pages (its index entries land all over the
file). Here the writer leaves that to a thread with its own connection, which checkpoints at
most once every `INTERVAL` seconds after a commit, while the next saves embed and plan. The
writer still checkpoints by itself past `BACKSTOP_PAGES`, should the thread fall behind (a
reader holding old pages makes a checkpoint stop short; the next one finishes it).

Durability is unchanged: with `synchronous = NORMAL` a commit in WAL mode is not synced to disk
either way; a checkpoint only moves committed pages into the main file.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import sqlean

INTERVAL = 0.5  # seconds between background checkpoints while writes keep coming
BACKSTOP_PAGES = 10_000  # the writer's own wal_autocheckpoint (SQLite's default is 1,000)

_log = logging.getLogger(__name__)


class Checkpointer:
    """One thread that checkpoints a store file's WAL some time after writes."""

    def __init__(self, connect: Callable[[], Any]) -> None:
        self._connect = connect
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.runs = 0  # checkpoints done (tests read it)
        self._thread = threading.Thread(target=self._run, name="mnemex-checkpoint", daemon=True)
        self._thread.start()

    def written(self) -> None:
        """A write transaction committed: a checkpoint is due within INTERVAL."""
        self._wake.set()

    def close(self) -> None:
        """Stop the thread (a pending checkpoint is left to the caller's final one)."""
        self._stop.set()
        self._wake.set()
        self._thread.join()

    def _run(self) -> None:
        conn = None
        last = 0.0
        try:
            while True:
                self._wake.wait()
                # Cleared before the stop is looked at: a close() landing after the interval
                # ran out and before a later clear would have been lost, and the thread waited
                # for a wake that never came (a writer hung in close()).
                self._wake.clear()  # writes from here on wake the next round
                if self._stop.wait(max(0.0, last + INTERVAL - time.monotonic())):
                    return
                try:
                    conn = conn or self._connect()
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.runs += 1
                except sqlean.Error as exc:  # busy, or the file went away: the writer's
                    _log.debug("background checkpoint skipped: %s", exc)  # backstop remains
                last = time.monotonic()
        finally:
            if conn is not None:
                with contextlib.suppress(sqlean.Error):
                    conn.close()
