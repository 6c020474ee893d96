"""The in-memory BM25 index: the store's FTS5 ranking, kept in step with every kind of write."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

import mnemex
from mnemex import MemoryStore, Settings
from mnemex.retrieval import bm25
from mnemex.retrieval.bm25 import LexicalIndex, Ranked
from mnemex.store.sqlite import BM25_WEIGHTS, FTS_TOKENIZE
from mnemex.text import query_terms
from tests.conftest import FakeClock

WORDS = (
    "deploy deploys deployed deploying migration migrations running run runs database "
    "postgres sqlite café cafe naïve friday alice bob paris rust python tests testing"
).split()


def _fts_scores(store: MemoryStore, words: list[str]) -> dict[str, float]:
    """What the store's FTS5 table says: -bm25() of every row matching any word."""
    match = " OR ".join(f'"{word}"' for word in words)
    weights = ", ".join(str(weight) for weight in BM25_WEIGHTS)
    with store.backend.read(store.tenant) as tx:
        rows = tx.conn.execute(  # type: ignore[attr-defined]
            f"SELECT m.id, -bm25(memories_fts, {weights}) FROM memories_fts "
            "JOIN memories m ON m.seq = memories_fts.rowid WHERE memories_fts MATCH ?",
            (match,),
        ).fetchall()
    return {row[0]: row[1] for row in rows}


def _index_scores(store: MemoryStore, words: list[str], fresh: bool = False) -> dict[str, float]:
    index = LexicalIndex() if fresh else store.engine.lexical_index(store.tenant)
    with store.backend.read(store.tenant) as tx:
        index.sync(tx)
    return dict(index.rank(words, 1.0).top(10_000))  # share 1.0: no word is too common


def _same(ours: dict[str, float], theirs: dict[str, float]) -> None:
    assert ours.keys() == theirs.keys()
    for memory_id, score in theirs.items():
        assert ours[memory_id] == pytest.approx(score, rel=1e-9, abs=1e-12)


@pytest.fixture
def lexical_store(tmp_path: Path, clock: FakeClock) -> Iterator[MemoryStore]:
    settings = Settings.load(env={}, data_dir=tmp_path, embed_model="none")
    settings = settings.replace(analysis_enrich=False)  # the test's words only, no added tags
    with mnemex.open(str(tmp_path / "bm25.db"), settings=settings, clock=clock) as opened:
        yield opened


def test_the_store_indexes_with_the_tokenizer_the_index_borrows(lexical_store: MemoryStore) -> None:
    with lexical_store.backend.read(lexical_store.tenant) as tx:
        sql = tx.conn.execute(  # type: ignore[attr-defined]
            "SELECT sql FROM sqlite_master WHERE name = 'memories_fts'"
        ).fetchone()[0]
    assert f"tokenize = '{FTS_TOKENIZE}'" in sql
    assert "content, tags, entities" in sql  # the order BM25_WEIGHTS follows


def test_scores_equal_fts5_bm25_on_a_corpus(lexical_store: MemoryStore) -> None:
    rng = random.Random(3)
    lexical_store.save_many(
        [
            {
                "content": " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12))),
                "tags": rng.sample(WORDS, rng.randint(0, 2)),
                "entities": rng.sample(["Alice", "Paris", "Rust"], rng.randint(0, 2)),
            }
            for _ in range(300)
        ]
    )
    for _ in range(40):
        words = query_terms(" ".join(rng.sample(WORDS, rng.randint(1, 4))))
        _same(_index_scores(lexical_store, words), _fts_scores(lexical_store, words))


def test_stems_and_accents_match_as_in_fts5(lexical_store: MemoryStore) -> None:
    saved = lexical_store.save("We were deploying to the café on Fridays", tags=["naïve"])
    for query in ("deploy", "cafe", "CAFÉ", "friday", "naive"):
        words = query_terms(query)
        assert _index_scores(lexical_store, words).keys() == {saved.id}
        _same(_index_scores(lexical_store, words), _fts_scores(lexical_store, words))


def test_two_words_with_one_stem_count_twice_like_two_fts5_phrases(
    lexical_store: MemoryStore,
) -> None:
    lexical_store.save("running late")
    lexical_store.save("a run")
    lexical_store.save("nothing here")
    words = ["running", "runs"]
    _same(_index_scores(lexical_store, words), _fts_scores(lexical_store, words))


OPS = st.lists(
    st.tuples(
        st.sampled_from(["save", "edit", "tag", "archive", "forget", "delete"]),
        st.integers(min_value=0, max_value=10_000),
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=6),
    ),
    min_size=1,
    max_size=40,
)


@given(ops=OPS)
@hsettings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_after_any_writes_the_synced_index_ranks_as_fts5_and_as_a_fresh_load(
    ops: list[tuple[str, int, list[str]]],
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Tiny thresholds: folding and renumbering happen within a few writes.
    monkeypatch.setattr(bm25, "FOLD_AT", 3)
    monkeypatch.setattr(bm25, "RENUMBER_AT", 1)
    folder = tmp_path_factory.mktemp("ops")
    settings = Settings.load(env={}, data_dir=folder, embed_model="none")
    path = str(folder / "ops.db")
    with (
        mnemex.open(path, settings=settings.replace(analysis_enrich=False)) as writer,
        mnemex.open(path, settings=settings.replace(analysis_enrich=False)) as reader,
    ):
        ids = [writer.save("deploy the database").id]
        _index_scores(reader, ["deploy"])  # loaded now; everything after arrives by the log
        for op, pick, words in ops:
            target = ids[pick % len(ids)] if ids else None
            text = " ".join(words)
            if op == "save" or target is None:
                ids.append(writer.save(text).id)
            elif op == "edit":
                writer.update(target, content=text)
            elif op == "tag":
                writer.update(target, tags=words[:2])
            elif op == "archive":
                writer.forget(target)
            else:
                writer.forget(target, hard=True)
                ids.remove(target)
            query = query_terms(text)
            theirs = _fts_scores(writer, query)
            _same(_index_scores(reader, query), theirs)
            _same(_index_scores(reader, query, fresh=True), theirs)


def test_search_sees_another_store_objects_writes(tmp_path: Path, clock: FakeClock) -> None:
    settings = Settings.load(env={}, data_dir=tmp_path, embed_model="none")
    settings = settings.replace(analysis_enrich=False)  # no tags taken from the first text
    path = str(tmp_path / "shared.db")
    with mnemex.open(path, settings=settings) as one, mnemex.open(path, settings=settings) as two:
        saved = one.save("the kiln fires at dawn")
        assert [h.memory.id for h in two.search("kiln")] == [saved.id]
        one.update(saved.id, content="the oven fires at dawn")
        assert two.search("kiln") == []
        assert [h.memory.id for h in two.search("oven")] == [saved.id]
        one.forget(saved.id, hard=True)
        assert two.search("oven") == []


def test_common_words_are_pruned_by_the_tenants_own_counts(lexical_store: MemoryStore) -> None:
    for number in range(60):
        lexical_store.save(f"status report number {number}")
    rare = lexical_store.save("status report about the zeppelin")
    index = lexical_store.engine.lexical_index(lexical_store.tenant)
    with lexical_store.backend.read(lexical_store.tenant) as tx:
        index.sync(tx)
    ranked = index.rank(["status", "zeppelin", "absent"], 0.2)  # over 50 memories: common
    assert ranked.dfs == [61, 1, 0]
    assert [memory_id for memory_id, _ in ranked.top(100)] == [rare.id]  # "status" dropped
    assert len(index.rank(["status", "report"], 0.2).top(100)) == 61  # all common: all kept
    assert lexical_store.search("status zeppelin")[0].memory.id == rare.id


def _open(path: Path) -> MemoryStore:
    settings = Settings.load(env={}, data_dir=path.parent, embed_model="none")
    return mnemex.open(str(path), settings=settings.replace(analysis_enrich=False))


def _synced(store: MemoryStore) -> LexicalIndex:
    index = store.engine.lexical_index(store.tenant)
    with store.backend.read(store.tenant) as tx:
        index.sync(tx)
    return index


def test_a_saved_index_is_restored_and_catches_up_with_later_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bm25, "SNAPSHOT_AT", 5)
    path = tmp_path / "saved.db"
    with _open(path) as first:
        ids = [m.id for m in first.save_many([{"content": f"deploy note {n}"} for n in range(12)])]
        assert not _synced(first).restored  # a full load, saved beside the store
    assert list((tmp_path / "saved.db-lexicon").glob("*.npz"))
    with _open(path) as writer:  # changes the index has not seen
        writer.save("deploy the kiln")
        writer.update(ids[0], content="nothing about it")
        writer.forget(ids[1])
        writer.forget(ids[2], hard=False)
    with _open(path) as second:
        index = _synced(second)
        assert index.restored
        for words in (["deploy"], ["kiln"], ["note", "nothing"]):
            _same(dict(index.rank(words, 1.0).top(100)), _fts_scores(second, words))
        second.forget(ids[3], hard=True)  # a purge drops the saved index (it holds the words)
    assert not list((tmp_path / "saved.db-lexicon").glob("*.npz"))
    with _open(path) as third:
        index = _synced(third)
        assert not index.restored
        for words in (["deploy"], ["kiln"], ["note", "nothing"]):
            _same(dict(index.rank(words, 1.0).top(100)), _fts_scores(third, words))


def test_a_snapshot_of_another_store_or_a_damaged_one_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bm25, "SNAPSHOT_AT", 5)
    with _open(tmp_path / "a.db") as one:
        one.save_many([{"content": f"alpha entry {n}"} for n in range(8)])
        _synced(one)
    with _open(tmp_path / "b.db") as other:
        other.save_many([{"content": f"beta entry {n}"} for n in range(8)])
    saved = next((tmp_path / "a.db-lexicon").glob("*.npz"))
    (tmp_path / "b.db-lexicon").mkdir()
    copied = tmp_path / "b.db-lexicon" / saved.name
    copied.write_bytes(saved.read_bytes())  # same tenant name, other store: ids unknown there
    with _open(tmp_path / "b.db") as other:
        index = _synced(other)
        assert not index.restored
        assert len(index.rank(["beta"], 1.0).top(100)) == 8
    copied.write_bytes(b"not an index")
    with _open(tmp_path / "b.db") as other:
        index = _synced(other)
        assert not index.restored
        assert len(index.rank(["beta"], 1.0).top(100)) == 8
    with np.load(copied) as saved:  # b's own snapshot now, saved by that full load
        arrays = {name: saved[name] for name in saved.files}
    for name, damaged in (
        ("docs", arrays["docs"][:-1]),  # cut short: postings and offsets disagree
        ("alive", arrays["alive"].astype(np.int8)),  # no longer a mask
    ):
        np.savez(copied, **{**arrays, name: damaged})
        with _open(tmp_path / "b.db") as other:
            index = _synced(other)
            assert not index.restored
            assert len(index.rank(["beta"], 1.0).top(100)) == 8


def test_documents_map_to_their_timeline_rows_through_renumbering(
    lexical_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bm25, "FOLD_AT", 2)
    monkeypatch.setattr(bm25, "RENUMBER_AT", 1)
    saved = [lexical_store.save(f"kiln firing log {n}").id for n in range(12)]
    lexical_store.search("kiln")  # both indexes loaded; the mapping is made
    for memory_id in saved[:6]:
        lexical_store.forget(memory_id, hard=True)  # enough gone to renumber on the next fold
    saved += [lexical_store.save(f"kiln glaze note {n}").id for n in range(4)]
    hits = lexical_store.search("kiln", k=20)
    assert {hit.memory.id for hit in hits} == set(saved[6:])
    graph = lexical_store.engine.memory_graph(lexical_store.tenant)
    index = _synced(lexical_store)
    ranked = index.rank(["kiln"], 1.0)
    rows = index.rows_in(graph.timeline)
    assert [graph.timeline.ids[rows[doc]] for doc in ranked.docs] == [
        ranked.ids[doc] for doc in ranked.docs
    ]


def _covered(best: float, dfs: list[int], size: int) -> float:
    """The coverage of a ranking whose best match scored `best`."""
    scores = np.array([best]) if best else np.zeros(0)
    return Ranked(np.zeros(scores.size, dtype=np.int32), scores, ["m"], dfs, size).coverage()


def test_coverage_is_the_share_of_the_query_the_best_match_holds() -> None:
    size = 1000
    idf = [math.log((size - df + 0.5) / (df + 0.5)) for df in (5, 40, 300)]
    # A match on every word scores about the sum of their IDFs: the query is covered.
    assert _covered(sum(idf), [5, 40, 300], size) == 1.0
    # A match on the most common word alone covers little, one on the rarest more.
    common, rare = _covered(idf[2], [5, 40, 300], size), _covered(idf[0], [5, 40, 300], size)
    assert 0.0 < common < rare < 1.0
    # A word no memory holds is part of the question the lexical channel cannot answer.
    assert _covered(idf[0], [5, 0], size) < _covered(idf[0], [5], size) == 1.0
    assert _covered(1.0, [], size) == _covered(1.0, [3], 0) == 1.0
    assert _covered(0.0, [5], size) == 1.0  # nothing matched: nothing to weigh down
