"""The lexical channel's index: one tenant's memories as BM25 postings in memory.

Ranking inside FTS5 scores every row holding any query term through SQLite's virtual-table
calls: ~1.3 ms a query at 10,000 memories, 5-9 ms at 100,000, most of a lexical-only search.
Here the same ranking is a few numpy gathers over the query terms' postings. Terms come from
FTS5's own tokenizer (store/fts_tokens.py) and scores follow FTS5's bm25() with the store's column
weights, so a query ranks the tenant's memories as the store's full-text index would; only its
statistics cover one tenant, not the whole file.

Like the vector index, it loads on first use (a large one from the copy saved beside the store
file, else in full: ~5 s at 100,000 memories) and follows the change log, so saves, edits and
forgets by any process sharing the store are seen by the next search.

One difference from FTS5's MATCH: a query word the tokenizer cuts in two (rare: words are cut
as it cuts them) is searched as two words, where FTS5 would ask for the pair in order.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import threading
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from mnemex.models import Memory
from mnemex.retrieval import changelog
from mnemex.retrieval.timeline import Share, Timeline, grow, unshared
from mnemex.retrieval.vector import release_freed_memory
from mnemex.store.base import Tx
from mnemex.store.fts_tokens import tokenizer
from mnemex.store.sqlite import BM25_WEIGHTS, FTS_TOKENIZE, indexed_columns

K1 = 1.2  # FTS5's bm25() constants
B = 0.75
# Postings count a term in content apart from tags and entities, which weigh the same.
if BM25_WEIGHTS[1] != BM25_WEIGHTS[2]:
    raise ImportError("retrieval.bm25 expects tags and entities to share one BM25 weight")
_CAP = 255  # term count per field kept (a word repeated more often saturates long before)
# Postings added since the last fold are looked up through a small dict; past this many (or an
# eighth of the folded ones) they are folded into the arrays, a sort of every posting.
FOLD_AT = 20_000
RENUMBER_AT = 1_000  # gone documents (forgotten, edited) past which documents are renumbered
# From this many memories a full load takes long enough (~0.4 s per 10,000) to save the index
# beside the store for the next process, which then only applies the changes since.
SNAPSHOT_AT = 5_000
_FORMAT = 1
_ARRAYS = ("offsets", "docs", "counts", "lengths", "alive", "fingerprints")
_PER_DOCUMENT = ("_lengths", "_alive", "_fingerprints")  # arrays indexed by document
_LOAD_BATCH = 1_000  # memories tokenized at a time on a full load: the peak stays small
_EMPTY_DOCS = np.zeros(0, dtype=np.int32)
_EMPTY_COUNTS = np.zeros(0, dtype=np.uint16)
Docs = npt.NDArray[np.int32]
Terms = npt.NDArray[np.int64]
Counts = npt.NDArray[np.uint16]
Scores = npt.NDArray[np.float64]
# A posting's weighted term frequency by its packed count (content << 8 | tags and entities).
_FREQUENCY: Scores = (np.arange(1 << 16) >> 8) * BM25_WEIGHTS[0] + (
    np.arange(1 << 16) & 0xFF
) * BM25_WEIGHTS[1]


class _Postings:
    """Postings by term: frozen arrays, plus chunks added since, folded in now and then."""

    def __init__(self) -> None:
        self.offsets = np.zeros(1, dtype=np.int64)  # term t: docs[offsets[t]:offsets[t + 1]]
        self.docs: Docs = _EMPTY_DOCS
        self.counts: Counts = _EMPTY_COUNTS  # first-field count << 8 | other fields' count
        self.pending: list[tuple[Terms, Docs, Counts]] = []
        self.pending_size = 0
        self._recent: dict[int, tuple[Docs, Counts]] | None = None  # pending, by term

    def extend(self, terms: Terms, docs: Docs, counts: Counts) -> None:
        self.pending.append((terms, docs, counts))
        self.pending_size += len(terms)
        self._recent = None

    def of(self, term: int) -> tuple[Docs, Counts]:
        docs, counts = _EMPTY_DOCS, _EMPTY_COUNTS
        if term + 1 < len(self.offsets):
            start, end = int(self.offsets[term]), int(self.offsets[term + 1])
            docs, counts = self.docs[start:end], self.counts[start:end]
        if self.pending:
            extra = self._by_term().get(term)
            if extra is not None:
                docs = np.concatenate((docs, extra[0]))
                counts = np.concatenate((counts, extra[1]))
        return docs, counts

    def _by_term(self) -> dict[int, tuple[Docs, Counts]]:
        if self._recent is None:
            terms, docs, counts = self._joined()
            order = np.argsort(terms, kind="stable")
            terms, docs, counts = terms[order], docs[order], counts[order]
            starts = np.flatnonzero(np.r_[True, terms[1:] != terms[:-1]])
            ends = np.r_[starts[1:], len(terms)]
            self._recent = {
                int(terms[start]): (docs[start:end], counts[start:end])
                for start, end in zip(starts.tolist(), ends.tolist(), strict=True)
            }
        return self._recent

    def _joined(self) -> tuple[Terms, Docs, Counts]:
        return (
            np.concatenate([chunk[0] for chunk in self.pending]),
            np.concatenate([chunk[1] for chunk in self.pending]),
            np.concatenate([chunk[2] for chunk in self.pending]),
        )

    def fold(self, terms: int, keep: npt.NDArray[np.bool_], renumber: Docs | None) -> None:
        """Fold the pending chunks into the arrays, dropping postings of documents not kept."""
        term_ids = np.repeat(np.arange(len(self.offsets) - 1), np.diff(self.offsets))
        self.pending.insert(0, (term_ids, self.docs, self.counts))
        all_terms, all_docs, all_counts = self._joined()
        self.pending, self.pending_size, self._recent = [], 0, None
        alive = keep[all_docs]
        all_terms, all_docs, all_counts = all_terms[alive], all_docs[alive], all_counts[alive]
        if renumber is not None:
            all_docs = renumber[all_docs]
        order = np.lexsort((all_docs, all_terms))
        self.docs = np.ascontiguousarray(all_docs[order], dtype=np.int32)
        self.counts = np.ascontiguousarray(all_counts[order], dtype=np.uint16)
        self.offsets = np.zeros(terms + 1, dtype=np.int64)
        np.cumsum(np.bincount(all_terms, minlength=terms), out=self.offsets[1:])


class LexicalIndex:
    """One tenant's memories (every status: as_of searches need the superseded) for BM25."""

    def __init__(self, snapshot: Path | None = None) -> None:
        self.snapshot = snapshot  # where the index is saved for the next process (file stores)
        self.seq = -1  # last change-log sequence applied; -1: never loaded
        self.restored = False  # True when the index came from a snapshot, not a full load
        self.lock = threading.RLock()
        self._unsaved = 0  # changes applied since the index was last saved
        self.passed_share = 1.0  # of the last default search's top memories, the live and current
        self._share: Share = unshared
        self._clear()

    def _clear(self) -> None:
        self._terms: dict[str, int] = {}
        self._postings = _Postings()
        self._ids: list[str | None] = []  # by document
        self._doc_of: dict[str, int] = {}
        self._lengths = np.zeros(0, dtype=np.float32)  # tokens in all fields (exact below 2**24)
        self._alive = np.zeros(0, dtype=bool)
        self._fingerprints = np.zeros(0, dtype=np.int64)  # hash of the indexed text
        self._live = 0
        self._tokens = 0.0  # total length of the live documents
        self._norm: Scores = np.zeros(0)
        self._norm_avgdl = -1.0
        self._timeline_rows = np.zeros(0, dtype=np.int32)  # by document, in `_rows_of`
        self._rows_of: Timeline | None = None

    def __len__(self) -> int:
        return self._live

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._doc_of

    # -- keeping in step ------------------------------------------------------------------------

    def sync(self, tx: Tx, share: Share | None = None) -> None:
        """Apply every change since the last sync (a full load the first time or after a gap).

        `share` maps an id to the copy another index already holds (the graph's timeline), so
        the two keep one string per memory.
        """
        with self.lock:
            self._share = share or unshared
            if self.seq < 0:
                self._restore(tx)
            self.seq = changelog.catch_up(
                tx, self.seq, lambda ids: self._apply(tx, ids), lambda: self._reload(tx)
            )
            if self._unsaved > max(1_000, self._live // 10):
                self.save()

    def _apply(self, tx: Tx, touched: Sequence[str]) -> None:
        self._unsaved += len(touched)
        found = tx.get_memories(touched)
        changed: list[Memory] = []
        for memory_id in touched:
            memory = found.get(memory_id)
            doc = self._doc_of.get(memory_id)
            if (
                memory is not None
                and doc is not None
                and self._fingerprints[doc] == _fingerprint(indexed_columns(memory))
            ):
                continue  # a status or link change: the text is the same
            if doc is not None:
                self._remove(memory_id, doc)
            if memory is not None:
                changed.append(memory)
        self._add(changed)
        if self._postings.pending_size > max(FOLD_AT, len(self._postings.docs) // 8):
            self._fold()

    def _reload(self, tx: Tx) -> None:
        self._clear()
        batch: list[Memory] = []
        for memory in tx.iter_memories(changelog.EVERY_MEMORY):
            batch.append(memory)
            if len(batch) == _LOAD_BATCH:
                self._add(batch)
                batch = []
        self._add(batch)
        self._fold()
        tokenizer().shrink()
        release_freed_memory()
        self.restored = False
        self._unsaved = len(self._ids)  # all of it: saved once sync has set its sequence

    def _add(self, memories: Sequence[Memory]) -> None:
        if not memories:
            return
        first, size = len(self._ids), len(memories)
        grow(self, _PER_DOCUMENT, first + size)
        columns = [indexed_columns(memory) for memory in memories]
        names, positions, in_content = tokenizer().tokens(columns)
        vocabulary = self._terms
        add = vocabulary.setdefault
        terms = np.array([add(name, len(vocabulary)) for name in names], dtype=np.int64)
        rows = np.array(positions, dtype=np.int64)
        # One posting per (term, row): how many of its tokens are in content and elsewhere.
        keys, which = np.unique(terms * size + rows, return_inverse=True)
        main = np.bincount(which, weights=np.array(in_content, dtype=np.float64))
        other = np.bincount(which, minlength=len(keys)) - main
        counts = np.minimum(main, _CAP).astype(np.uint16) << 8 | np.minimum(other, _CAP).astype(
            np.uint16
        )
        self._postings.extend(keys // size, (keys % size + first).astype(np.int32), counts)
        lengths = np.bincount(rows, minlength=size).astype(np.float64)
        for row, memory in enumerate(memories):
            doc = first + row
            memory_id = self._share(memory.id)
            self._ids.append(memory_id)
            self._doc_of[memory_id] = doc
            self._fingerprints[doc] = _fingerprint(columns[row])
        self._lengths[first : first + size] = lengths
        self._norm_avgdl = -1.0
        self._alive[first : first + size] = True
        self._live += size
        self._tokens += float(lengths.sum())

    def _remove(self, memory_id: str, doc: int) -> None:
        del self._doc_of[memory_id]
        self._ids[doc] = None
        self._alive[doc] = False
        self._live -= 1
        self._tokens -= float(self._lengths[doc])

    def _fold(self) -> None:
        """Fold recent postings into the arrays; renumber documents when many are gone."""
        used = len(self._ids)
        keep = self._alive[:used].copy()
        dead = used - self._live
        renumber: Docs | None = None
        worth_renumbering = dead > RENUMBER_AT and dead > used // 4
        if not self._postings.pending and not worth_renumbering:
            return
        if worth_renumbering:
            renumber = (np.cumsum(keep) - 1).astype(np.int32)
            live = [memory_id for memory_id in self._ids if memory_id is not None]
            self._ids = list(live)
            self._doc_of = {memory_id: doc for doc, memory_id in enumerate(live)}
            for name in _PER_DOCUMENT:
                setattr(self, name, getattr(self, name)[:used][keep].copy())
            self._norm_avgdl = -1.0
            self._rows_of = None
        self._postings.fold(len(self._terms), keep, renumber)

    # -- saving for the next process ------------------------------------------------------------

    def save(self) -> None:
        """Write the index beside the store (large indexes only); readers never see half."""
        with self.lock:
            target = self.snapshot
            if target is None or self.seq < 0 or len(self._ids) < SNAPSHOT_AT:
                return
            self._fold()
            used = len(self._ids)
            live = [memory_id for memory_id in self._ids if memory_id is not None]
            state = {
                "format": _FORMAT,
                "tokenize": FTS_TOKENIZE,
                "weights": list(BM25_WEIGHTS),
                "seq": self.seq,
                "sample": changelog.sample(live),
                "ids": self._ids,
                "terms": list(self._terms),
            }
            temporary = target.with_name(f"{target.stem}.{uuid.uuid4().hex[:12]}.tmp.npz")
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                state_bytes = np.frombuffer(json.dumps(state).encode(), dtype=np.uint8)
                np.savez(
                    temporary,
                    state=state_bytes,
                    offsets=self._postings.offsets,
                    docs=self._postings.docs,
                    counts=self._postings.counts,
                    lengths=self._lengths[:used],
                    alive=self._alive[:used],
                    fingerprints=self._fingerprints[:used],
                )
                os.replace(temporary, target)
            except OSError:
                with contextlib.suppress(OSError):
                    temporary.unlink()
                return  # a read-only directory, a full disk: the next process loads in full
            finally:
                release_freed_memory()  # the file's buffers were large and short-lived
            self._unsaved = 0

    def close(self) -> None:
        """Save changes applied since the last save, so the next process starts from here."""
        with self.lock:
            if self._unsaved:
                self.save()

    def _restore(self, tx: Tx) -> None:
        """Start from the saved index when it belongs to this store and the log covers the gap."""
        if self.snapshot is None or not self.snapshot.exists():
            return
        try:
            with np.load(self.snapshot, allow_pickle=False) as saved:
                state = json.loads(saved["state"].tobytes().decode())
                arrays = {name: saved[name] for name in _ARRAYS}
            seq = int(state["seq"])
            usable = (
                state["format"] == _FORMAT
                and state["tokenize"] == FTS_TOKENIZE
                and state["weights"] == list(BM25_WEIGHTS)
                and changelog.resumable(tx, seq, state["sample"])
            )
            ids: list[str | None] = state["ids"]
            terms: list[str] = state["terms"]
        except (OSError, ValueError, KeyError, TypeError):
            return
        if not usable or not _consistent(arrays, len(ids), len(terms)):
            return
        self._clear()
        self._ids = [None if memory_id is None else self._share(memory_id) for memory_id in ids]
        self._doc_of = {m: doc for doc, m in enumerate(self._ids) if m is not None}
        self._terms = {term: term_id for term_id, term in enumerate(terms)}
        self._postings.offsets = arrays["offsets"]
        self._postings.docs = arrays["docs"]
        self._postings.counts = arrays["counts"]
        self._lengths, self._alive, self._fingerprints = (
            arrays["lengths"],
            arrays["alive"],
            arrays["fingerprints"],
        )
        self._live = int(self._alive.sum())
        self._tokens = float(self._lengths[self._alive].sum(dtype=np.float64))
        self.seq = seq
        self.restored = True

    # -- reading --------------------------------------------------------------------------------

    def rank(self, words: Sequence[str], common_share: float) -> Ranked:
        """The memories holding any of the words, by BM25 (the words OR'ed).

        Words held by more than `common_share` of the memories are dropped first, unless all
        are (they rank little and cost the most). Each term of each word scores on its own, as
        each quoted word is a phrase of FTS5's MATCH: a word that stems like another counts
        twice there and here.
        """
        terms = tokenizer().terms(words)
        with self.lock:
            size = self._live
            postings = [[self._hits_with_counts(term) for term in each] for each in terms]
            dfs = [each[0][0].size if each else 0 for each in postings]
            kept = set(prune_common(range(len(words)), dfs, common_cutoff(size, common_share)))
            lists = [
                posting
                for word, each in enumerate(postings)
                if word in kept
                for posting in each
                if posting[0].size
            ]
            docs, scores = self._scored(lists, self._tokens / size if size else 1.0)
            return Ranked(docs, scores, self._ids, dfs, size)

    def rows_in(self, timeline: Timeline) -> Docs:
        """Each document's row in the graph's timeline (-1 for a memory it does not know), so
        the default filter is one lookup per candidate; kept while the timeline is the same."""
        with self.lock:
            if self._rows_of is not timeline:
                self._timeline_rows, self._rows_of = np.zeros(0, dtype=np.int32), timeline
            have, used = len(self._timeline_rows), len(self._ids)
            if have < used:
                row_of = timeline.row_of
                fresh = [-1 if m is None else row_of.get(m, -1) for m in self._ids[have:used]]
                self._timeline_rows = np.concatenate(
                    (self._timeline_rows, np.array(fresh, dtype=np.int32))
                )
            return self._timeline_rows

    def _hits_with_counts(self, term: str | None) -> tuple[Docs, Counts]:
        term_id = None if term is None else self._terms.get(term)
        if term_id is None:
            return _EMPTY_DOCS, _EMPTY_COUNTS
        docs, counts = self._postings.of(term_id)
        if self._live == len(self._ids):
            return docs, counts  # no memory gone since the last renumbering
        live = self._alive[docs]
        return docs[live], counts[live]

    def _scored(self, lists: list[tuple[Docs, Counts]], avgdl: float) -> tuple[Docs, Scores]:
        """Each document holding a term once, with the sum of FTS5's bm25() terms:
        idf * f * (k1 + 1) / (f + k1 * (1 - b + b * |D| / avgdl)), a term per posting list."""
        if not lists:
            return _EMPTY_DOCS, np.zeros(0)
        idf = []
        for held, _ in lists:
            rarity = inverse_frequency(held.size, self._live)
            idf.append(rarity if rarity > 0.0 else 1e-6)
        docs, counts = lists[0]
        weights: Scores | float = idf[0]
        if len(lists) > 1:
            docs = np.concatenate([held for held, _ in lists])
            counts = np.concatenate([each for _, each in lists])
            weights = np.repeat(idf, [held.size for held, _ in lists])
        freq = _FREQUENCY[counts]
        scores: Scores = weights * (freq * (K1 + 1.0)) / (freq + self._norms(avgdl)[docs])
        if len(lists) == 1:
            return docs, scores
        unique, inverse = np.unique(docs, return_inverse=True)
        summed = np.bincount(inverse, weights=scores).astype(np.float64, copy=False)
        return unique.astype(np.int32), summed

    def _norms(self, avgdl: float) -> Scores:
        """k1 * (1 - b + b * |D| / avgdl) of every document, kept until avgdl changes."""
        used = len(self._ids)
        if self._norm_avgdl != avgdl or len(self._norm) < used:
            self._norm = K1 * (1.0 - B + B * self._lengths[:used].astype(np.float64) / avgdl)
            self._norm_avgdl = avgdl
        return self._norm


def inverse_frequency(df: int, size: int) -> float:
    """A term's IDF as FTS5's bm25() takes it: log((N - df + 0.5) / (df + 0.5))."""
    return math.log((size - df + 0.5) / (df + 0.5))


def prune_common(terms: Sequence[int], dfs: Sequence[int], limit: int) -> list[int]:
    """Drop terms found in more than `limit` rows, unless that would drop every term."""
    kept = [term for term, df in zip(terms, dfs, strict=True) if df <= limit]
    return kept or list(terms)


def common_cutoff(corpus_size: int, common_share: float) -> int:
    """Rows above which a query term counts as too common to search (at least 50)."""
    return max(50, int(corpus_size * common_share))


@dataclass(frozen=True, slots=True)
class Ranked:
    """One query's BM25 scores, and how many memories held each of its words."""

    docs: Docs
    scores: Scores
    ids: list[str | None]  # the index's ids by document when ranked
    dfs: list[int]
    size: int  # memories in the index

    def coverage(self) -> float:
        """How much of the query the best match covers, in [0, 1]: its score over the sum of the
        query words' IDFs (a word no memory holds counts at the largest IDF); 1.0 when nothing
        matched or nothing is indexed."""
        if not self.scores.size or self.size < 1 or not self.dfs:
            return 1.0
        mass = sum(max(inverse_frequency(df, self.size), 0.0) for df in self.dfs)
        return 1.0 if mass <= 0 else max(0.0, min(1.0, float(self.scores.max()) / mass))

    def top(
        self, limit: int, passing: npt.NDArray[np.bool_] | None = None
    ) -> list[tuple[str, float]]:
        """The `limit` best as (id, score), best first, ties in saving order; only those
        `passing` marks, when given (a flag per matched document, in `docs` order)."""
        docs, scores = self.docs, self.scores
        if passing is not None:
            docs, scores = docs[passing], scores[passing]
        if docs.size > limit:
            keep = np.argpartition(-scores, limit - 1)[:limit]
        else:
            keep = np.arange(docs.size)
        order = keep[np.lexsort((docs[keep], -scores[keep]))]
        ids = self.ids
        ranked = zip(docs[order].tolist(), scores[order].tolist(), strict=True)
        # A memory forgotten by another thread since has no id left: it is simply not returned.
        return [(memory_id, score) for doc, score in ranked if (memory_id := ids[doc]) is not None]


def _consistent(arrays: dict[str, npt.NDArray[Any]], documents: int, terms: int) -> bool:
    """Whether saved arrays fit together (a file cut short or from another version does not)."""
    offsets, docs, counts = arrays["offsets"], arrays["docs"], arrays["counts"]
    return (
        offsets.dtype == np.int64
        and docs.dtype == np.int32
        and counts.dtype == np.uint16
        and arrays["lengths"].dtype == np.float32
        and arrays["alive"].dtype == np.bool_  # a mask: integers would index instead
        and arrays["fingerprints"].dtype == np.int64
        and len(offsets) == terms + 1
        and int(offsets[-1]) == len(docs) == len(counts)
        and all(len(arrays[name]) == documents for name in ("lengths", "alive", "fingerprints"))
        and (len(docs) == 0 or 0 <= int(docs.min()) <= int(docs.max()) < documents)
    )


def _fingerprint(columns: tuple[str, str, str]) -> int:
    """A hash of what the index holds of a memory (stable across processes: it is saved)."""
    digest = hashlib.blake2b("\0".join(columns).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)
