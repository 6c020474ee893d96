"""`mnemex bench ingest` on a tiny vault: the rows it reports are what the runs did."""

from __future__ import annotations

from pathlib import Path

from bench.ingest import throughput, write_vault


def test_write_vault_makes_notes_of_four_chunks(tmp_path: Path) -> None:
    assert write_vault(tmp_path, 40) == 10
    assert len(list(tmp_path.rglob("*.md"))) == 10


def test_throughput_rows() -> None:
    first, again, edited = throughput(8)
    assert (first["files"], first["chunks_added"], first["share_of_first"]) == (2, 8, 1.0)
    assert (again["unchanged"], again["chunks_added"]) == (2, 0)
    assert again["seconds"] < first["seconds"]
    assert edited["chunks_added"] >= 1 and edited["chunks_kept"] >= 3
