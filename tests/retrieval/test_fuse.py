"""Fusion: weighted RRF, the rarity-aware BM25 weight, scaled priors, MMR."""

from __future__ import annotations

import pytest

from mnemex.config import Settings
from mnemex.errors import InvalidInputError
from mnemex.retrieval import fuse


def test_rrf_weights_and_scales_channels() -> None:
    fused = fuse.rrf({"a": [("x", 2.0), ("y", 1.0)], "b": [("y", 0.9)]}, {"a": 1.0, "b": 2.0})
    assert fused["y"] > fused["x"]
    assert fuse.rrf({"a": [("x", 1.0)]}, {"a": 0.0}) == {}


def test_bm25_weight_rises_with_rarity() -> None:
    common = fuse.rarity([900, 800], 1000)
    rare = fuse.rarity([900, 2], 1000)
    assert 0.0 <= common < rare <= 1.0
    assert fuse.bm25_weight(2.0, 1.0, rare) > fuse.bm25_weight(2.0, 1.0, common)
    assert fuse.bm25_weight(2.0, 0.0, rare) == fuse.bm25_weight(2.0, 0.0, common) == 2.0
    assert fuse.rarity([], 1000) == fuse.RARITY_MID


def test_priors_are_scaled_to_the_best_fused_score() -> None:
    fused = {"a": 0.02, "b": 0.01}
    out = fuse.add_priors(fused, {"p": {"b": 1.0, "c": 0.5}}, {"p": 0.5})
    assert out["b"] == 0.01 + 0.5 * 0.02 and out["c"] == 0.5 * 0.5 * 0.02
    assert fuse.add_priors({}, {"p": {"b": 1.0}}, {"p": 1.0}) == {}


def test_mmr_trades_relevance_for_novelty() -> None:
    relevance = {"a": 1.0, "a2": 0.99, "b": 0.7}

    def similarity(x: str, y: str) -> float:
        return 1.0 if x[0] == y[0] else 0.0

    assert fuse.mmr(["a", "a2", "b"], relevance, similarity, 2, 1.0) == ["a", "a2"]
    assert fuse.mmr(["a", "a2", "b"], relevance, similarity, 2, 0.5) == ["a", "b"]


def test_the_coverage_exponent_is_a_checked_setting() -> None:
    assert Settings.load(env={"MNEMEX_BM25_COVERAGE": "0"}).bm25_coverage == 0.0
    with pytest.raises(InvalidInputError, match="bm25_coverage"):
        Settings.load(env={"MNEMEX_BM25_COVERAGE": "-0.5"})
