"""The speed benchmarks run end to end on a tiny corpus with the test embedder."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import mnemex
from bench import (
    peers as bench_peers,
)
from bench import (
    search as bench_search,
)
from bench import (
    seeded_store,
    synthetic,
    vector_cache,
)
from mnemex import Settings
from mnemex.embed import Vectors, token_batches
from mnemex.interfaces.cli import app
from tests.fakes import HASH_MODEL, HashEmbedder


def test_corpus_is_deterministic_and_prefix_stable() -> None:
    small = synthetic.corpus(50, seed=3)
    assert small == synthetic.corpus(80, seed=3)[:50]
    assert small != synthetic.corpus(50, seed=4)
    assert len({m.text for m in small}) == 50
    assert all(m.text and m.query and "{" not in m.text + m.query for m in small)


def test_cached_vectors_are_reused_only_for_the_same_texts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    embedder = HashEmbedder()
    original = embedder.embed

    def counting(texts: Sequence[str]) -> Vectors:
        calls.append(len(texts))
        return original(texts)

    monkeypatch.setattr(embedder, "embed", counting)
    texts = [m.text for m in synthetic.corpus(300)]
    first = vector_cache.corpus_vectors(texts, "c", embedder, root=tmp_path)
    again = vector_cache.corpus_vectors(texts[:200], "c", embedder, root=tmp_path)
    assert calls == [300] and np.array_equal(first[:200], again)
    vector_cache.corpus_vectors([*texts[:199], "changed"], "c", embedder, root=tmp_path)
    assert calls == [300, 200]


def test_token_batches_cover_every_row_once_within_the_budget() -> None:
    lengths = [5, 30, 2, 100, 7, 7, 9]
    plan = token_batches(lengths, 20)
    assert sorted(row for batch in plan for row in batch) == list(range(len(lengths)))
    assert all(len(b) == 1 or len(b) * max(lengths[r] for r in b) <= 20 for b in plan)


def test_token_batches_give_each_worker_an_even_share() -> None:
    lengths = [25 + (i * 7) % 11 for i in range(100)]  # ~3,000 tokens: 3 batches of 1,024
    plan = token_batches(lengths, 1_024, workers=2)
    assert sorted(row for batch in plan for row in batch) == list(range(100))
    assert len(plan) == 4  # rounded up to a multiple of the two workers
    padded = [len(b) * max(lengths[r] for r in b) for b in plan]
    assert max(padded) <= 1.25 * min(padded)
    assert len(token_batches([12, 30, 7], 1_024, workers=2)) == 2  # two threads, not one
    assert len(token_batches([12], 1_024, workers=4)) == 1


def test_bench_search_reports_every_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMEX_BENCH_CACHE", str(tmp_path / "cache"))
    result = bench_search.run(
        [300], queries=8, ingest=12, singles=4, rounds=2, model=HASH_MODEL, workdir=tmp_path
    )
    (search,) = result["search"]
    assert search["size"] == 300 and search["queries"] == 8
    assert 0.0 <= search["search_hit10"] <= 1.0 and search["ann_recall10"] == 1.0
    (memory,) = result["memory"]
    assert memory["index"] == "exact" and memory["rss_peak_mb"] > 0
    (ingest,) = result["ingest"]
    assert ingest["save_per_s"] > 0 and ingest["save_many_per_s"] > 0


def test_a_kept_store_is_copied_with_the_ids_save_many_returned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MNEMEX_BENCH_CACHE", str(tmp_path / "cache"))
    settings = Settings.load(env={}, data_dir=tmp_path, embed_model=HASH_MODEL)
    kept = tmp_path / "kept"
    first = seeded_store.seed_store(tmp_path / "a.db", 120, seed=3, settings=settings, keep=kept)
    notes: list[str] = []
    second = seeded_store.seed_store(
        tmp_path / "b.db", 120, seed=3, settings=settings, keep=kept, progress=notes.append
    )
    assert any(note.startswith("copied 120 memories") for note in notes)
    assert second.ids == first.ids and len(second.ids) == 120
    with mnemex.open(str(second.path), settings=settings) as store:
        assert store.get(second.ids[7]).content == second.memories[7].text
        assert store.stats()["memories"]["total"] == 120


def test_bench_peers_is_skipped_without_the_cortexgraph_venv(tmp_path: Path) -> None:
    with pytest.raises(bench_peers.PeerMissing, match="comparison skipped"):
        bench_peers.run(tmp_path / "nowhere", size=10, queries=2, model=HASH_MODEL)
    result = CliRunner().invoke(
        app, ["bench", "peers", "--cortexgraph-venv", str(tmp_path / "nowhere"), "--size", "10"]
    )
    assert result.exit_code == 0 and "skipped" in result.output
