"""SIGKILL at random points of a stream of writes loses no acknowledged write; many processes
writing and reading one file at once see no error and lose nothing."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest

import mnemex
from mnemex import Settings
from mnemex.errors import StoreBusyError

pytestmark = pytest.mark.slow

KILLS = 200  # acceptance: at least 200 kill points
SEED = 18


def _settings(root: Path) -> Settings:
    """No models: each child starts writing at once (the write path is what is tested)."""
    return Settings.load(
        env={}, data_dir=root / "data", embed_model="none", analysis_enrich=False,
        analysis_spacy=False,
    )  # fmt: skip


def _writer(db: str, root: Path, ack: int, seed: int) -> None:
    """A child: saves, supersessions, forgets, purges and decay runs, acknowledging each."""
    rng = random.Random(seed)
    with mnemex.open(db, settings=_settings(root)) as store:
        os.write(ack, b"ready\n")
        mine: list[str] = []
        n = 0
        while True:
            n += 1
            roll = rng.random()
            if roll < 0.45 or not mine:
                memory_id = store.save(
                    f"note {seed}-{n} about the kiln and glaze {rng.random()}"
                ).id
                mine.append(memory_id)
                line = f"save {memory_id}\n"
            elif roll < 0.7:
                value = rng.choice(["Vim", "Neovim", "Helix", "Emacs", "Zed"])
                result = store.save(f"Alice uses {value} ({seed}-{n})", subject="Alice",
                                    relation="editor", value=value)  # fmt: skip
                line = f"save {result.id}\n"
            elif roll < 0.8:
                victim = mine.pop(rng.randrange(len(mine)))
                store.forget(victim)
                line = f"forget {victim}\n"
            elif roll < 0.87:
                victim = mine.pop(rng.randrange(len(mine)))
                os.write(ack, f"purging {victim}\n".encode())  # may commit, then die unacked
                store.forget(victim, hard=True)
                line = f"purge {victim}\n"
            else:
                store.gc(dry_run=False)
                line = "gc\n"
            os.write(ack, line.encode())


def test_sigkill_loses_no_acknowledged_write(tmp_path: Path) -> None:
    db = str(tmp_path / "crash.db")
    with mnemex.open(db, settings=_settings(tmp_path)) as store:
        store.save("the first memory")
    rng = random.Random(SEED)
    saved: set[str] = set()
    purged: set[str] = set()
    purging: set[str] = set()  # purges begun: gone or not, both are right
    acked = 0
    for round_ in range(KILLS):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child never returns into pytest
            os.close(read)
            try:
                _writer(db, tmp_path, write, SEED * 1_000 + round_)
            finally:
                os._exit(0)
        os.close(write)
        head = b""
        while b"ready\n" not in head:  # the store is open: kill inside the stream of writes
            chunk = os.read(read, 4096)
            if not chunk:
                break
            head += chunk
        time.sleep(rng.uniform(0.0, 0.1))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        with os.fdopen(read, "rb") as acks:
            for line in (head + acks.read()).decode().splitlines():
                if line == "ready":
                    continue
                kind, _, memory_id = line.partition(" ")
                acked += 1
                if kind == "save":
                    saved.add(memory_id)
                elif kind == "purge":
                    purged.add(memory_id)
                elif kind == "purging":
                    purging.add(memory_id)
    with mnemex.open(db, settings=_settings(tmp_path)) as store:
        report = store.verify()
        with store.backend.read(store.tenant) as tx:
            present = {
                row[0]
                for row in tx.conn.execute("SELECT id FROM memories")  # type: ignore[attr-defined]
            }
    lost = (saved - purged - purging) - present
    print(f"{KILLS} kills, {acked} acknowledged operations, {len(saved)} saves, lost {len(lost)}")
    assert acked > 2 * KILLS  # the kills landed inside the stream of writes
    assert not lost, sorted(lost)[:5]
    assert not (purged & present)
    assert report["ok"], report


def test_processes_writing_and_reading_at_once(tmp_path: Path) -> None:
    db = str(tmp_path / "busy.db")
    with mnemex.open(db, settings=_settings(tmp_path)) as store:
        store.save("seed memory about the kiln")
    writers, per_writer = 3, 25
    pipes, pids = [], []
    for worker in range(writers + 2):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            code = 0
            try:
                with mnemex.open(db, settings=_settings(tmp_path)) as child:
                    for n in range(per_writer):
                        if worker < writers:
                            memory = child.save(f"worker {worker} note {n} about glaze")
                            os.write(write, f"save {memory.id}\n".encode())
                        else:
                            child.search("glaze kiln", k=5)
                            child.stats()
                            os.write(write, b"read\n")
            except StoreBusyError:
                code = 3
            except BaseException:
                code = 4
            finally:
                os._exit(code)
        os.close(write)
        pipes.append(read)
        pids.append(pid)
    codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids]
    lines: list[str] = []
    for read in pipes:
        with os.fdopen(read, "rb") as handle:
            lines += handle.read().decode().splitlines()
    assert codes == [0] * len(pids), codes
    saved = {line.split()[1] for line in lines if line.startswith("save")}
    assert len(saved) == writers * per_writer
    with mnemex.open(db, settings=_settings(tmp_path)) as store:
        present = {m.id for m in store.memories(limit=1_000)}
        assert saved <= present
        assert store.verify()["ok"]
