"""The vector channel at scale: the HNSW graph stays in step with every writer."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import mnemex
from mnemex import MemoryStore, Settings
from mnemex.retrieval.vector import ExactVectors, VectorIndex
from tests.conftest import FakeClock
from tests.fakes import HASH_MODEL

THRESHOLD = 40


def _settings(tmp_path: Path) -> Settings:
    return Settings.load(
        env={}, data_dir=tmp_path / "data", embed_model=HASH_MODEL, ann_threshold=THRESHOLD
    )


def _index(store: MemoryStore) -> VectorIndex:
    index = store.engine.vector_index(store.tenant)
    assert index is not None
    with store.backend.read(store.tenant) as tx:
        index.sync(tx)
    return index


def _last_change(store: MemoryStore) -> int:
    with store.backend.read(store.tenant) as tx:
        return tx.last_change()


def _fill(store: MemoryStore, count: int, topic: str = "note") -> list[str]:
    items = [{"content": f"{topic} {i} word{i} about thing{i % 7}"} for i in range(count)]
    return [result.id for result in store.save_many(items)]


def _vector_hit(store: MemoryStore, text: str) -> list[str]:
    return [h.memory.id for h in store.search(text, explain=True) if "vector" in h.channels]


def test_a_large_tenant_switches_to_the_graph_and_back(tmp_path: Path, clock: FakeClock) -> None:
    with mnemex.open(":memory:", settings=_settings(tmp_path), clock=clock) as store:
        ids = _fill(store, THRESHOLD - 1)
        assert _index(store).kind == "exact"
        ids += _fill(store, 2, topic="extra")
        index = _index(store)
        assert index.kind == "ann" and len(index) == THRESHOLD + 1
        assert all(memory_id in index for memory_id in ids)
        for memory_id in ids[: THRESHOLD // 2 + 2]:
            store.forget(memory_id)
        index = _index(store)
        assert index.kind == "exact" and len(index) == THRESHOLD // 2 - 1


def test_saves_updates_and_forgets_reach_the_graph(tmp_path: Path, clock: FakeClock) -> None:
    with mnemex.open(":memory:", settings=_settings(tmp_path), clock=clock) as store:
        _fill(store, THRESHOLD + 5)
        target = store.save("zebra giraffe savanna safari").id
        assert _index(store).kind == "ann"
        assert target in _vector_hit(store, "zebra giraffe safari")
        store.update(target, content="kettle teapot saucer biscuit")
        assert target not in _vector_hit(store, "zebra giraffe safari")
        assert target in _vector_hit(store, "kettle teapot biscuit")
        store.forget(target)
        assert target not in _index(store)
        assert target not in _vector_hit(store, "kettle teapot biscuit")
        store.restore(target)
        assert target in _vector_hit(store, "kettle teapot biscuit")
        store.forget(target, hard=True)
        assert target not in _index(store)


def test_tenants_have_separate_graphs(tmp_path: Path, clock: FakeClock) -> None:
    with mnemex.open(":memory:", settings=_settings(tmp_path), clock=clock) as store:
        other = store.for_tenant("other")
        _fill(store, THRESHOLD + 1)
        theirs = _fill(other, THRESHOLD + 1)
        assert _index(store).kind == _index(other).kind == "ann"
        hits = store.search("note 3 word3 about thing3", k=50)
        assert hits and not {h.memory.id for h in hits} & set(theirs)
        assert not any(memory_id in _index(store) for memory_id in theirs)


def test_another_process_writes_reach_the_graph(tmp_path: Path, clock: FakeClock) -> None:
    settings = _settings(tmp_path)
    path = str(tmp_path / "shared.db")
    with (
        mnemex.open(path, settings=settings, clock=clock) as reader,
        mnemex.open(path, settings=settings, clock=clock) as writer,
    ):
        _fill(writer, THRESHOLD + 3)
        assert _index(reader).kind == "ann"
        saved = writer.save("walrus tusk arctic ice floe").id
        assert saved in _vector_hit(reader, "walrus arctic ice")
        writer.forget(saved)
        assert saved not in _index(reader)


def test_a_saved_graph_is_reused_and_caught_up(tmp_path: Path, clock: FakeClock) -> None:
    settings = _settings(tmp_path)
    path = str(tmp_path / "saved.db")
    with mnemex.open(path, settings=settings, clock=clock) as store:
        ids = _fill(store, THRESHOLD + 3)
        assert _index(store).kind == "ann"
    assert list((tmp_path / "saved.db-vectors").glob("*.usearch"))
    with mnemex.open(path, settings=settings, clock=clock) as writer:
        late = writer.save("flamingo lagoon pink feathers").id
        writer.forget(ids[0])
    with mnemex.open(path, settings=settings, clock=clock) as store:
        index = _index(store)
        assert index.restored and index.kind == "ann"
        assert late in index and ids[0] not in index and ids[1] in index
        assert late in _vector_hit(store, "flamingo pink lagoon")
    # Closing saved the caught-up graph; the older graph file is gone.
    assert len(list((tmp_path / "saved.db-vectors").glob("*.usearch"))) == 1


def test_a_graph_saved_for_another_file_is_ignored(tmp_path: Path, clock: FakeClock) -> None:
    settings = _settings(tmp_path)
    path = tmp_path / "gone.db"
    graphs, stash = tmp_path / "gone.db-vectors", tmp_path / "old-graphs"
    with mnemex.open(str(path), settings=settings, clock=clock) as store:
        _fill(store, THRESHOLD + 3)
        _index(store)
        saved_at = _last_change(store)
    graphs.rename(stash)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    # The new file is written before the old graph comes back, with a longer change log, so the
    # graph's log position fits it: only its memory ids can give it away.
    with mnemex.open(str(path), settings=settings, clock=clock) as store:
        fresh = _fill(store, 2 * THRESHOLD, topic="fresh")
        assert _last_change(store) >= saved_at
    shutil.rmtree(graphs, ignore_errors=True)
    stash.rename(graphs)
    with mnemex.open(str(path), settings=settings, clock=clock) as store:
        index = _index(store)
        assert not index.restored and len(index) == len(fresh)


def test_graph_recall_against_exact_search() -> None:
    rng = np.random.default_rng(3)
    centres = rng.normal(size=(20, 64))
    data = centres[rng.integers(0, 20, 3_000)] + rng.normal(scale=0.6, size=(3_000, 64))
    data = (data / np.linalg.norm(data, axis=1, keepdims=True)).astype(np.float32)
    ids = [f"m{i}" for i in range(len(data))]
    exact = ExactVectors(64)
    exact.add_matrix(ids, data)
    index = VectorIndex("model", 64, ann_threshold=100)
    index.put_many(zip(ids[:50], data[:50], strict=True))
    index._vectors = index._build_graph()
    index.put_many(zip(ids[50:], data[50:], strict=True))
    assert index.kind == "ann"
    recall = []
    for query in data[rng.integers(0, len(data), 50)]:
        truth = {m for m, _ in exact.search(query, 10)}
        recall.append(len(truth & {m for m, _ in index.search(query, 10)}) / 10)
    assert float(np.mean(recall)) >= 0.9


@pytest.mark.parametrize("count", [0, 1, 7])
def test_exact_vectors_search_and_compaction(count: int) -> None:
    vectors = ExactVectors(4)
    items = [(f"m{i}", np.eye(4, dtype=np.float32)[i % 4]) for i in range(count)]
    vectors.put_many(items)
    assert len(vectors) == count
    if count:
        assert vectors.search(np.eye(4, dtype=np.float32)[0], 1)[0][1] == pytest.approx(1.0)
        vectors.remove("m0")
        assert "m0" not in vectors
    assert vectors.search(np.ones(4, dtype=np.float32), 0) == []
