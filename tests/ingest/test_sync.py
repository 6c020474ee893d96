"""Idempotent and incremental: unchanged files cost nothing, changed ones keep what did not
change (ids, use counts), deleted ones are archived and come back; vaults, bad input, export,
tenants and --watch."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import mnemex
from mnemex import IngestReport, InvalidInputError, MemoryStore, Settings
from tests.conftest import FakeClock

NOTE = """---
tags: [project]
aliases: [Project Atlas]
owner: "[[Priya Raman]]"
---
# Atlas

Atlas moves invoices to object storage. Owner: [[Priya Raman]].

## Decisions

The archive bucket is ledgerly-archive-eu.

## Risks

Nobody has tested the second region yet.
"""


@pytest.fixture
def lexical(tmp_path: Path, clock: FakeClock) -> Iterator[MemoryStore]:
    settings = Settings.load(env={}, data_dir=tmp_path / "data", embed_model="none")
    with mnemex.open(str(tmp_path / "s.db"), settings=settings, clock=clock) as store:
        yield store


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "Atlas.md").write_text(NOTE, encoding="utf-8")
    (folder / "todo.txt").write_text("Buy milk.\n\nCall the bank about the card.\n")
    return folder


def _by_heading(store: MemoryStore) -> dict[str | None, mnemex.Memory]:
    return {
        m.meta["ingest"].get("heading"): m for m in store.memories(limit=100) if "ingest" in m.meta
    }


def test_unchanged_folder_does_nothing(lexical: MemoryStore, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    first = lexical.ingest(folder)
    assert (first.added, first.chunks_added) == (2, 4)
    with lexical.backend.read(lexical.tenant) as tx:
        events = len(tx.list_events(None, 10_000))
    again = lexical.ingest(folder)
    assert (again.files, again.unchanged, again.added, again.updated) == (2, 2, 0, 0)
    assert again.chunks_added == again.chunks_archived == 0
    with lexical.backend.read(lexical.tenant) as tx:
        assert len(tx.list_events(None, 10_000)) == events  # not one write


def test_changed_file_replaces_only_its_changed_chunks(
    lexical: MemoryStore, tmp_path: Path
) -> None:
    folder = _folder(tmp_path)
    lexical.ingest(folder)
    before = _by_heading(lexical)
    decisions = before["Atlas > Decisions"]
    lexical.touch(decisions.id)
    lexical.touch(decisions.id)
    edited = NOTE.replace("Nobody has tested", "QA has tested").replace(
        "# Atlas\n", "# Atlas\n\nA new first paragraph.\n"
    )
    (folder / "Atlas.md").write_text(edited, encoding="utf-8")
    report = lexical.ingest(folder)
    assert (report.updated, report.unchanged) == (1, 1)
    assert (report.chunks_added, report.chunks_archived) == (2, 2)  # intro and risks changed
    assert report.chunks_kept == 1
    after = _by_heading(lexical)
    kept = after["Atlas > Decisions"]
    assert kept.id == decisions.id and kept.use_count == 2  # usage history kept
    lines = kept.meta["ingest"]["lines"]
    assert lines == [14, 14] and before["Atlas > Decisions"].meta["ingest"]["lines"] == [12, 12]
    assert "QA has tested" in after["Atlas > Risks"].content
    old_risk = lexical.get(before["Atlas > Risks"].id)
    assert old_risk.status == "archived"
    hits = lexical.search("tested the second region", k=3)
    assert hits and hits[0].memory.id == after["Atlas > Risks"].id
    assert hits[0].citation is not None and hits[0].citation.ref.endswith("Atlas.md:18")


def test_deleted_file_is_archived_and_comes_back(lexical: MemoryStore, tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    note = folder / "me.md"
    note.write_text("# Me\n\nMy editor is Vim.\n")
    lexical.ingest(folder)
    (memory,) = lexical.memories()
    assert [(f.relation, f.object) for f in lexical.facts("user")] == [("editor", "Vim")]
    note.unlink()
    gone = lexical.ingest(folder)
    assert (gone.deleted, gone.chunks_archived) == (1, 1)
    assert lexical.get(memory.id).status == "archived"
    assert lexical.facts("user") == []  # the ledger follows the file
    assert lexical.ingest(folder).deleted == 0  # once
    note.write_text("# Me\n\nMy editor is Vim.\n")
    back = lexical.ingest(folder)
    assert (back.updated, back.chunks_added, back.chunks_kept) == (1, 0, 1)
    assert lexical.get(memory.id).status == "active"
    assert [(f.relation, f.object) for f in lexical.facts("user")] == [("editor", "Vim")]


def test_obsidian_links_tags_aliases(lexical: MemoryStore, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    lexical.ingest(folder)
    intro = _by_heading(lexical)["Atlas"]
    assert intro.tags == ["project"]
    assert intro.entities[:2] == ["Atlas", "Priya Raman"]
    graph = lexical.graph("Project Atlas")  # the alias finds the note's entity
    edges = {(e.type, next(n.label for n in graph.nodes if n.id == e.to_id)) for e in graph.edges}
    assert {("owner", "Priya Raman"), ("links_to", "Priya Raman")} <= edges
    assert lexical.search("object storage", entity="Priya Raman", k=5)


def test_own_vault_round_trips(tmp_path: Path, clock: FakeClock) -> None:
    settings = Settings.load(
        env={}, data_dir=tmp_path / "data", embed_model="none", vault_dir=tmp_path / "vault"
    )
    with mnemex.open(str(tmp_path / "a.db"), settings=settings, clock=clock) as store:
        saved = store.save("Alice switched to Neovim", tags=["tools"], entities=["Alice"])
        for _ in range(5):
            store.touch(saved.id)
        assert store.promote(saved.id, dry_run=False).notes
        report = store.ingest(tmp_path / "vault")
        assert (report.added, report.chunks_added, report.chunks_kept) == (1, 0, 1)
        assert len(store.memories()) == 1  # read back, not saved twice
        (note,) = (tmp_path / "vault").glob("*.md")
        note.write_text(note.read_text().replace("Neovim", "Helix"))
        store.ingest(tmp_path / "vault")
        edited = store.get(saved.id)
        assert edited.content == "Alice switched to Helix" and edited.use_count == 5
        note.write_text(note.read_text().replace("Helix", "Neovim"))
    with mnemex.open(str(tmp_path / "b.db"), settings=settings, clock=clock) as other:
        other.ingest(tmp_path / "vault")
        (copy,) = other.memories()
        assert copy.content == "Alice switched to Neovim"
        assert copy.tags == ["tools"] and copy.entities[0] == "Alice"
        assert copy.meta["vault_id"] == saved.id


def test_transcript_grows_and_only_new_turns_are_read(lexical: MemoryStore, tmp_path: Path) -> None:
    chat = tmp_path / "chat.jsonl"
    lines = [
        {"role": "user", "content": "hi!", "timestamp": "2026-03-10T19:00:00Z"},
        {"role": "assistant", "content": "Hello! How can I help?"},
        {
            "role": "user",
            "content": "Remember: my editor is Vim.",
            "timestamp": "2026-03-10T19:01:00Z",
        },
    ]
    chat.write_text("".join(json.dumps(line) + "\n" for line in lines))
    first = lexical.ingest(chat)
    assert first.turns_kept == 1 and first.skipped == {"not worth keeping": 1, "assistant": 1}
    (kept,) = lexical.memories()
    assert kept.observed_at is not None and kept.observed_at.isoformat().startswith(
        "2026-03-10T19:01"
    )
    assert [(f.relation, f.object) for f in lexical.facts("user")] == [("editor", "Vim")]
    with chat.open("a") as handle:
        handle.write(json.dumps({"role": "user", "content": "thanks"}) + "\n")
        handle.write("{broken\n")
    second = lexical.ingest(chat)
    assert second.updated == 1 and second.skipped == {"chatter": 1}  # old turns not re-read
    assert [p.code for p in second.problems] == ["bad_line"]
    assert [m.id for m in lexical.memories()] == [kept.id]
    copy = tmp_path / "copy.jsonl"  # the same turn in another file: not saved again
    copy.write_text(json.dumps(lines[2]) + "\n")
    assert lexical.ingest(copy).turns_kept == 1
    assert [m.id for m in lexical.memories()] == [kept.id]


def test_bad_input_is_a_typed_error(lexical: MemoryStore, tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError) as empty:
        lexical.ingest([])
    assert empty.value.field == "paths"
    with pytest.raises(InvalidInputError, match="no such file"):
        lexical.ingest(tmp_path / "nowhere")
    with pytest.raises(InvalidInputError) as small:
        lexical.ingest(tmp_path, chunk_chars=10)
    assert small.value.field == "chunk_chars" and small.value.limit is not None
    with pytest.raises(InvalidInputError) as overlap:
        lexical.ingest(tmp_path, chunk_chars=400, overlap_chars=300)
    assert overlap.value.field == "overlap_chars" and overlap.value.limit == 200
    lone = tmp_path / "photo.png"
    lone.write_bytes(b"\x89PNG")
    assert [p.code for p in lexical.ingest(lone).problems] == ["unsupported"]


def test_too_large_files_are_skipped(tmp_path: Path, clock: FakeClock) -> None:
    settings = Settings.load(
        env={}, data_dir=tmp_path, embed_model="none", ingest_max_file_bytes=50
    )
    folder = _folder(tmp_path)
    with mnemex.open(":memory:", settings=settings, clock=clock) as store:
        report = store.ingest(folder)
    assert [(Path(p.path).name, p.code) for p in report.problems] == [("Atlas.md", "too_large")]
    assert report.added == 1


def test_new_chunk_settings_read_files_again(lexical: MemoryStore, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    lexical.ingest(folder)
    report = lexical.ingest(folder, chunk_chars=300, overlap_chars=0)
    assert report.updated == 2 and report.unchanged == 0


def test_export_carries_the_sync_state_and_tenants_are_apart(
    lexical: MemoryStore, tmp_path: Path, clock: FakeClock
) -> None:
    folder = _folder(tmp_path)
    lexical.ingest(folder)
    lines = list(lexical.export())
    assert any('"table": "source_files"' in line for line in lines)
    other = lexical.for_tenant("other")
    assert other.ingest(folder).added == 2  # its own sync state
    settings = Settings.load(env={}, data_dir=tmp_path / "d2", embed_model="none")
    with mnemex.open(":memory:", settings=settings, clock=clock) as copy:
        copy.import_lines(lines)
        assert list(copy.export()) == lines
        assert copy.ingest(folder).unchanged == 2


def test_watch_follows_a_folder(lexical: MemoryStore, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    reports: list[IngestReport] = []
    stop = threading.Event()
    seen = threading.Condition()

    def record(report: IngestReport) -> None:
        with seen:
            reports.append(report)
            seen.notify_all()

    worker = threading.Thread(
        target=lambda: lexical.ingest(folder, watch=0.05, stop=stop, on_report=record)
    )
    worker.start()
    try:
        with seen:
            assert seen.wait_for(lambda: len(reports) == 1, timeout=10)
        (folder / "new.md").write_text("# New\n\nThe standup moved to 10:30.\n")
        with seen:
            assert seen.wait_for(lambda: len(reports) == 2, timeout=10)
    finally:
        stop.set()
        worker.join(10)
    assert (reports[0].added, reports[1].added, reports[1].unchanged) == (2, 1, 2)
    assert lexical.search("standup", k=1)[0].citation is not None
    shutil.rmtree(folder)
