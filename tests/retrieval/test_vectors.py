"""Embeddings and the vector channel: stored with model and hash, in step with every writer."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mnemex
from mnemex import MemoryStore, Settings, saving
from mnemex.embed import MiniLMEmbedder, Vectors, default_workers, load_embedder, register_embedder
from tests.conftest import FakeClock
from tests.fakes import HashEmbedder


def test_embeddings_are_unit_vectors_and_order_preserving() -> None:
    embedder = load_embedder("minilm-int8")
    assert embedder is not None
    texts = ["a much longer sentence about databases and their indexes", "dogs", "cats and dogs"]
    together = embedder.embed(texts)
    alone = np.stack([embedder.embed([t])[0] for t in texts])
    assert together.shape == (3, 384)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    assert np.allclose(together, alone, atol=1e-4)  # padding to the batch's longest is harmless
    sims = together @ together.T
    assert sims[1, 2] > sims[0, 1]


def test_meaning_finds_a_memory_with_no_shared_word(mem_store: MemoryStore) -> None:
    target = mem_store.save("My dog needs a walk every evening")
    mem_store.save("The quarterly tax filing is due in April")
    hits = mem_store.search("puppy exercise routine")
    assert hits and hits[0].memory.id == target.id
    assert "vector" in mem_store.search("puppy exercise routine", explain=True)[0].channels


def test_unchanged_text_is_never_embedded_twice(
    mem_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    original = MiniLMEmbedder.embed

    def counting(self: MiniLMEmbedder, texts: list[str]) -> np.ndarray:
        calls.extend(texts)
        return original(self, texts)

    monkeypatch.setattr(MiniLMEmbedder, "embed", counting)
    saved = mem_store.save("a sentence embedded once")
    mem_store.save("a sentence embedded once")  # same hash: reuses the stored vector
    mem_store.update(saved.id, tags=["x"])  # no content change: no embedding
    # (save enrichment may embed other texts: tag candidates, never the content again)
    assert calls.count("a sentence embedded once") == 1


def test_forget_and_update_reach_the_vector_channel(mem_store: MemoryStore) -> None:
    saved = mem_store.save("We deploy with Ansible playbooks")
    assert mem_store.search("configuration management tool")[0].memory.id == saved.id
    mem_store.update(saved.id, content="Lunch is served at noon in the cafeteria")
    assert all(h.memory.id != saved.id for h in mem_store.search("configuration management tool"))
    mem_store.forget(saved.id)
    assert mem_store.search("midday meal") == []


def test_another_process_writes_are_seen(tmp_path: Path, clock: FakeClock) -> None:
    settings = Settings.load(env={}, data_dir=tmp_path)
    path = str(tmp_path / "shared.db")
    with (
        mnemex.open(path, settings=settings, clock=clock) as reader,
        mnemex.open(path, settings=settings, clock=clock) as writer,
    ):
        first = writer.save("The cat sleeps on the windowsill")
        assert reader.search("feline nap spot")[0].memory.id == first.id
        second = writer.save("Our bakery opens at six in the morning")
        assert reader.search("when does the bread shop open")[0].memory.id == second.id
        writer.forget(first.id)
        assert all(h.memory.id != first.id for h in reader.search("feline nap spot"))


def test_lexical_only_engine_works(tmp_path: Path) -> None:
    settings = Settings.load(env={}, data_dir=tmp_path, embed_model="none")
    with mnemex.open(":memory:", settings=settings) as store:
        saved = store.save("Rust compiles slowly but runs fast")
        assert [h.memory.id for h in store.search("rust")] == [saved.id]
        assert store.search("programming language speed") == []
        assert store.reindex() == {"model": None, "embedded": 0}


def test_reindex_embeds_what_a_lexical_engine_left_behind(tmp_path: Path) -> None:
    path = str(tmp_path / "re.db")
    lexical = Settings.load(env={}, data_dir=tmp_path, embed_model="none")
    with mnemex.open(path, settings=lexical) as store:
        ids = [store.save(f"note {i} about gardening and tomatoes").id for i in range(5)]
    full = Settings.load(env={}, data_dir=tmp_path)
    with mnemex.open(path, settings=full) as store:
        assert store.search("vegetable patch") == [] or all(
            "vector" not in h.channels for h in store.search("vegetable patch", explain=True)
        )
        seen: list[tuple[int, int]] = []
        report = store.reindex(progress=lambda done, total: seen.append((done, total)))
        assert report["embedded"] == 5 and seen[-1] == (5, 5)
        assert store.reindex()["embedded"] == 0
        hits = store.search("vegetable patch", explain=True)
        assert {h.memory.id for h in hits} <= set(ids) and "vector" in hits[0].channels


def test_unknown_model_setting_is_rejected(tmp_path: Path) -> None:
    from mnemex import InvalidInputError

    with pytest.raises(InvalidInputError) as info:
        mnemex.open(":memory:", settings=Settings.load(env={}, embed_model="gpt-9"))
    assert info.value.field == "embed_model"


class _GatedEmbedder(HashEmbedder):
    """Embeds a batch of memory texts only once the ledger has begun reading that batch."""

    def __init__(self, reading: threading.Event, gated: list[str]) -> None:
        self.reading = reading
        self.gated = gated
        self.saw_reading: list[bool] = []

    def embed(self, texts: Sequence[str]) -> Vectors:
        if list(texts) == self.gated:  # not the ledger's phrases
            self.saw_reading.append(self.reading.wait(timeout=5))
        return super().embed(texts)


def test_a_batch_is_read_for_the_ledger_while_its_texts_embed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reading = threading.Event()
    texts = ["Alice's editor is Vim.", "Bob lives in Oslo."]
    embedder = _GatedEmbedder(reading, texts)
    register_embedder("test-gated", lambda: embedder)
    read_statements = saving.read_statements

    def noted(*args: Any) -> None:
        reading.set()
        read_statements(*args)

    monkeypatch.setattr(saving, "read_statements", noted)
    settings = Settings.load(env={}, data_dir=tmp_path, embed_model="test-gated")
    with mnemex.open(str(tmp_path / "s.db"), settings=settings) as store:
        saved = store.save_many([{"content": text} for text in texts])
        with store.backend.read(store.tenant) as tx:
            kept = tx.embeddings_by_hash(embedder.model_id, [s.memory.content_hash for s in saved])
    assert embedder.saw_reading == [True]  # embedding waited on the reading, not the reverse
    assert len(kept) == 2


class _HeldEmbedder(HashEmbedder):
    """Holds every batch of memory texts until released; queries embed at once."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.held = threading.Semaphore(0)

    def embed(self, texts: Sequence[str]) -> Vectors:
        if any(text.startswith("memory") for text in texts):
            self.held.release()
            self.release.wait(timeout=10)
        return super().embed(texts)


def test_a_search_does_not_wait_behind_saves_embedding(tmp_path: Path) -> None:
    embedder = _HeldEmbedder()
    register_embedder("test-held", lambda: embedder)
    settings = Settings.load(env={}, data_dir=tmp_path, embed_model="test-held")
    with mnemex.open(str(tmp_path / "s.db"), settings=settings) as store:
        savers = [
            threading.Thread(target=store.save_many, args=([{"content": f"memory {n}"}],))
            for n in range(default_workers())  # as many saves as helper threads
        ]
        for saver in savers:
            saver.start()
        for _ in savers:
            assert embedder.held.acquire(timeout=5)  # every save is embedding, held
        searcher = threading.Thread(target=store.search, args=("what about queries",))
        searcher.start()
        searcher.join(timeout=5)
        answered = not searcher.is_alive()
        embedder.release.set()
        for thread in (*savers, searcher):
            thread.join(timeout=10)
    assert answered
