"""Several processes on one file: no 'database is locked' reaches the user, nothing is lost."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import sqlean

import mnemex
from mnemex import Settings

WRITER = """
import sys
import mnemex
from mnemex import Settings
path, name = sys.argv[1], sys.argv[2]
# Locking is under test here, not embeddings: a lexical engine keeps the processes quick.
store = mnemex.open(path, settings=Settings.load(data_dir=path + ".data", embed_model="none"))
for i in range(1000):
    store.save(f"{name} memory number {i}", tags=[name])
store.close()
print("done")
"""


def test_two_processes_save_1000_each_into_one_file(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("alpha", "beta")
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        assert "locked" not in err.lower()
        assert out.strip() == "done"
    with mnemex.open(str(path), settings=Settings.load(env={}, data_dir=tmp_path)) as store:
        assert store.stats()["memories"]["total"] == 2000
        assert len(store.search("alpha", k=1000, tags=["alpha"])) == 1000
    conn = sqlean.connect(str(path))
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_threads_share_one_store(tmp_path: Path) -> None:
    settings = Settings.load(env={}, data_dir=tmp_path)
    with mnemex.open(str(tmp_path / "threads.db"), settings=settings) as store:
        errors: list[BaseException] = []

        def work(n: int) -> None:
            try:
                for i in range(100):
                    store.save(f"thread {n} note {i}")
                    store.search(f"thread {n}")
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert store.stats()["memories"]["total"] == 400
