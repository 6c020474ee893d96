"""`ingest --watch`: run again whenever a file under the paths is added, changed or removed.

Polling (size and modification time of every file, every `interval` seconds) needs no
native watcher and sees network and synced folders alike; a run after a change costs one hash
per unchanged file. A change is acted on once the folder is quiet for a moment, so a file
being written is read whole.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from mnemex.engine import Engine
from mnemex.ingest import files
from mnemex.ingest.pipeline import Progress, run
from mnemex.ingest.plans import Options
from mnemex.models import IngestReport

Snapshot = dict[str, tuple[int, int]]


def snapshot(paths: Sequence[str | Path]) -> Snapshot:
    """Size and modification time of every file a run would look at."""
    seen: Snapshot = {}
    for given in paths:
        root = Path(given).expanduser().resolve()
        if root.exists():
            for item in files.walk(root):
                if item.kind is not None:
                    seen[str(item.path)] = (item.size, item.modified_ns)
    return seen


def follow(
    engine: Engine,
    tenant: str,
    paths: Sequence[str | Path],
    options: Options,
    *,
    interval: float,
    on_report: Callable[[IngestReport], None],
    stop: threading.Event,
    progress: Progress | None = None,
) -> None:
    """Ingest now, then again after every change, until `stop` is set."""
    settle = min(1.0, interval)
    last = snapshot(paths)
    on_report(run(engine, tenant, paths, options, progress))
    while not stop.wait(interval):
        current = snapshot(paths)
        if current == last:
            continue
        while not stop.wait(settle):  # let a file being written finish
            again = snapshot(paths)
            if again == current:
                break
            current = again
        if stop.is_set():
            return
        last = current
        on_report(run(engine, tenant, paths, options, progress))
