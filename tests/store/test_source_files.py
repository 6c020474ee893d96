"""The sync state ingest keeps (Tx.sources / Tx.put_source): the store contract on every backend."""

from __future__ import annotations

from mnemex import MemoryStore
from mnemex.store.base import SourceChunk, SourceRecord


def _record(path: str, chunks: int = 2) -> SourceRecord:
    return SourceRecord(
        path=path,
        kind="markdown",
        content_hash="h" * 64,
        parser="markdown/1 chunk=800 overlap=150",
        status="present",
        size=120,
        modified_at=1_700_000_000_000_000,
        ingested_at=1_700_000_000_000_001,
        chunks=[SourceChunk(f"c{i}", None if i else "mem_1", i + 1, i + 3) for i in range(chunks)],
    )


def test_put_and_read_back_by_file_and_folder(store: MemoryStore) -> None:
    with store.backend.write(store.tenant) as tx:
        for path in ("/n/a.md", "/n/sub/b.md", "/n/sub0/c.md", "/nb/d.md", "/n"):
            tx.put_source(_record(path))
    with store.backend.read(store.tenant) as tx:
        assert sorted(tx.sources("/n")) == ["/n", "/n/a.md", "/n/sub/b.md", "/n/sub0/c.md"]
        assert sorted(tx.sources("/n/sub")) == ["/n/sub/b.md"]  # not /n/sub0
        assert list(tx.sources("/n/a.md")) == ["/n/a.md"]
        assert tx.sources("/n/a.md")["/n/a.md"] == _record("/n/a.md")
        assert tx.sources("/elsewhere") == {}


def test_put_replaces_and_tenants_are_apart(store: MemoryStore) -> None:
    with store.backend.write(store.tenant) as tx:
        tx.put_source(_record("/n/a.md"))
        changed = _record("/n/a.md", chunks=1)
        changed.status = "deleted"
        tx.put_source(changed)
    with store.backend.read(store.tenant) as tx:
        assert tx.sources("/n") == {"/n/a.md": changed}
    with store.backend.read("someone-else") as tx:
        assert tx.sources("/n") == {}
