"""A small file cache of recall blocks: an identical prompt within 30 s is answered from it.

Hooks run as a new process per prompt, so the cache lives in a JSON file; a damaged or
unwritable file only means a cache miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from pathlib import Path

TTL_S = 30.0
MAX_ENTRIES = 200


class RecallCache:
    """Recall blocks by (scope, prompt), each kept for TTL_S seconds."""

    def __init__(self, path: Path, ttl: float = TTL_S) -> None:
        self.path = path
        self.ttl = ttl

    @staticmethod
    def key(scope: str, prompt: str) -> str:
        """The cache key: a hash, so prompts are never written in clear."""
        return hashlib.sha256(f"{scope}\0{prompt.strip()}".encode()).hexdigest()

    def _load(self) -> dict[str, tuple[float, str]]:
        """Fresh, well-formed entries only."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        now = time.time()
        entries: dict[str, tuple[float, str]] = {}
        for key, entry in data.items() if isinstance(data, dict) else ():
            if (
                isinstance(entry, list)
                and len(entry) == 2
                and isinstance(entry[0], int | float)
                and isinstance(entry[1], str)
                and now - entry[0] <= self.ttl
            ):
                entries[key] = (float(entry[0]), entry[1])
        return entries

    def get(self, scope: str, prompt: str) -> str | None:
        """The cached block, if fresh."""
        entry = self._load().get(self.key(scope, prompt))
        return None if entry is None else entry[1]

    def put(self, scope: str, prompt: str, block: str) -> None:
        """Remember a block (stale entries are dropped, the newest MAX_ENTRIES kept)."""
        entries = self._load()
        entries[self.key(scope, prompt)] = (time.time(), block)
        fresh = dict(sorted(entries.items(), key=lambda item: item[1][0])[-MAX_ENTRIES:])
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(json.dumps(fresh), encoding="utf-8")
            temporary.replace(self.path)
