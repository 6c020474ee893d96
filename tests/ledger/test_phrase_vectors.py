"""The ledger's phrase vectors are kept in the store: a new process reads them, not the model."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import mnemex
from mnemex.config import Settings
from mnemex.embed import Vectors, register_embedder
from mnemex.ledger.similarity import EmbeddingSimilarity
from tests.fakes import HashEmbedder

MODEL = "test-counting"


class CountingEmbedder(HashEmbedder):
    """The hash embedder, noting every text it is asked to embed."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.seen.extend(texts)
        return super().embed(texts)


def _new_process() -> CountingEmbedder:
    """A fresh embedder (and with it a fresh similarity cache), as a new process would have."""
    embedder = CountingEmbedder()
    register_embedder(MODEL, lambda: embedder)
    return embedder


def _settings(tmp_path: Path) -> Settings:
    # Analysis off: its tag suggestions embed words of their own, beside the ledger's phrases.
    return Settings.load(env={}, data_dir=tmp_path, embed_model=MODEL, analysis_enrich=False)


def _key_save(store: mnemex.MemoryStore, relation: str, value: str) -> None:
    store.save(f"Alice's {relation} is {value}.", subject="Alice", relation=relation, value=value)


def test_a_new_process_reads_phrases_an_earlier_one_embedded(tmp_path: Path) -> None:
    path, settings = str(tmp_path / "p.db"), _settings(tmp_path)
    first = _new_process()
    with mnemex.open(path, settings=settings) as store:
        _key_save(store, "editor", "Vim")
    assert "editor" in first.seen  # a new key is compared with the store's common ones
    second = _new_process()
    with mnemex.open(path, settings=settings) as store:
        _key_save(store, "code editor", "Helix")  # compared with Alice's own key, "editor"
    assert "code editor" in second.seen
    assert "editor" not in second.seen


def test_a_phrase_this_process_embedded_for_another_store_is_kept_in_this_one(
    tmp_path: Path,
) -> None:
    settings = _settings(tmp_path)
    _new_process()
    with mnemex.open(str(tmp_path / "one.db"), settings=settings) as store:
        _key_save(store, "editor", "Vim")
    with mnemex.open(str(tmp_path / "two.db"), settings=settings) as store:
        _key_save(store, "editor", "Emacs")  # compared from this process's memory, no model
    later = _new_process()
    with mnemex.open(str(tmp_path / "two.db"), settings=settings) as store:
        _key_save(store, "code editor", "Helix")
    assert "code editor" in later.seen and "editor" not in later.seen


def test_phrase_vectors_stay_with_their_tenant(tmp_path: Path) -> None:
    path, settings = str(tmp_path / "t.db"), _settings(tmp_path)
    _new_process()
    with mnemex.open(path, settings=settings, tenant="a") as store:
        _key_save(store, "editor", "Vim")
    other = _new_process()
    with mnemex.open(path, settings=settings, tenant="b") as store:
        _key_save(store, "editor", "Emacs")
    assert "editor" in other.seen  # tenant a's vectors are not read for tenant b


def test_every_comparison_reads_the_store_inside_reading_and_collects_what_it_embeds() -> None:
    embedder = CountingEmbedder()
    similarity = EmbeddingSimilarity(embedder)
    kept = {"editor": HashEmbedder().embed(["editor"])[0]}
    with similarity.collecting() as fresh:
        with similarity.reading(lambda texts: {t: kept[t] for t in texts if t in kept}):
            similarity.relations("code_editor", ["editor"])  # a comparison warm did not foresee
        similarity.values("Vim", ["Neovim"])  # outside `reading`: the model only
    assert embedder.seen == ["code editor", "Vim", "Neovim"]
    assert fresh.stored == {"editor"}
    assert set(fresh.unstored()) == {"code editor", "Vim", "Neovim"}
