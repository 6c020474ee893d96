"""FTS5's tokenizer for Python: the terms the store's full-text index makes of a text.

The in-memory BM25 index (retrieval/bm25.py) and the PostgreSQL backend's term vectors must cut
and stem words exactly as `memories_fts` does, or a query word would miss the memories FTS5
finds. SQLite exposes no tokenizer function, so an in-memory FTS5 table with the store's
tokenize setting does the cutting: rows go in, the `fts5vocab` instance table gives every token
back, and the transaction is rolled back.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence

import sqlean

from mnemex.store._sqlite_memories import FTS_TOKENIZE

_WORD_CACHE = 100_000
Tokens = tuple[Sequence[str], Sequence[int], Sequence[int]]


class Tokenizer:
    """FTS5's tokenizer, borrowed through an in-memory FTS5 table with the store's settings."""

    def __init__(self) -> None:
        self._conn = sqlean.connect(":memory:", check_same_thread=False, isolation_level=None)
        self._conn.execute(
            "CREATE VIRTUAL TABLE t USING fts5 (content, tags, entities, "
            f"tokenize = '{FTS_TOKENIZE}')"
        )
        self._conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance')")
        self._words: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()

    def tokens(self, rows: Sequence[tuple[str, str, str]]) -> Tokens:
        """Every token of the rows (content, tags, entities): its term, its row's position and
        whether it is in content, as three equally long sequences."""
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                self._conn.executemany(
                    "INSERT INTO t (rowid, content, tags, entities) VALUES (?, ?, ?, ?)",
                    [(row, *columns) for row, columns in enumerate(rows)],
                )
                found = self._conn.execute("SELECT term, doc, col = 'content' FROM v").fetchall()
            finally:
                self._conn.execute("ROLLBACK")
        if not found:
            return (), (), ()
        terms, positions, in_content = zip(*found, strict=True)
        return terms, positions, in_content

    def shrink(self) -> None:
        """Hand back the memory a large batch left in SQLite's caches."""
        with self._lock:
            self._conn.execute("PRAGMA shrink_memory")

    def terms(self, words: Sequence[str]) -> list[tuple[str, ...]]:
        """The index terms of each query word (usually one; none for a word FTS5 would drop)."""
        with self._lock:
            known = [self._words.get(word) for word in words]
        missing = list(
            dict.fromkeys(w for w, terms in zip(words, known, strict=True) if terms is None)
        )
        if not missing:
            return [terms or () for terms in known]
        found: list[list[str]] = [[] for _ in missing]
        terms, positions, _ = self.tokens([(word, "", "") for word in missing])
        for term, row in zip(terms, positions, strict=True):
            if term not in found[row]:
                found[row].append(term)
        with self._lock:
            if len(self._words) + len(missing) > _WORD_CACHE:
                self._words.clear()
            self._words.update(zip(missing, map(tuple, found), strict=True))
            return [self._words.get(word, ()) for word in words]


@functools.cache
def tokenizer() -> Tokenizer:
    """The process's shared tokenizer (one small in-memory database)."""
    return Tokenizer()
