"""The acceptance of issue 22 on the data in tests/ingest/data, written before the code:
every planted fact found in the top 5 with its citation; bad files reported; >= 18 of the 20
planted transcript turns kept and <= 5% of the 200 others; nothing Mnemex injected saved."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import mnemex
from mnemex import IngestReport, MemoryStore, Settings

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def ingested(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[MemoryStore, IngestReport]]:
    root = tmp_path_factory.mktemp("ingest")
    settings = Settings.load(env={}, data_dir=root / "data")
    with mnemex.open(str(root / "store.db"), settings=settings) as store:
        report = store.ingest([DATA / "vault", DATA / "documents", DATA / "transcripts"])
        yield store, report


def _line_of(path: Path, snippet: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if snippet in line:
            return number
    raise AssertionError(f"{snippet!r} not in {path}")


def test_every_planted_fact_is_in_the_top_5_with_its_citation(
    ingested: tuple[MemoryStore, IngestReport],
) -> None:
    store, _ = ingested
    facts = json.loads((DATA / "planted_facts.json").read_text())["facts"]
    missed = []
    for fact in facts:
        path = (DATA / fact["file"]).resolve()
        where = fact.get("page") or _line_of(path, fact["snippet"])
        found = [
            hit
            for hit in store.search(fact["query"], k=5)
            if hit.citation is not None
            and hit.citation.path == str(path)
            and hit.citation.start <= where <= hit.citation.end
            and " ".join(fact["snippet"].split()) in " ".join(hit.memory.content.split())
        ]
        if not found:
            missed.append(fact["query"])
        else:
            cite = found[0].citation
            assert cite is not None and cite.unit == ("page" if fact.get("page") else "line")
            assert cite.ref.startswith(f"{path}:")
            assert cite.heading
    assert missed == []


def test_bad_files_are_reported_and_skipped(ingested: tuple[MemoryStore, IngestReport]) -> None:
    _, report = ingested
    expected = json.loads((DATA / "planted_facts.json").read_text())["bad_files"]
    got = {Path(p.path).relative_to(DATA.resolve()).as_posix(): p.code for p in report.problems}
    assert got == expected
    assert report.skipped["unsupported file"] == 3  # two PNGs and planted.json's key file
    assert report.files == 19 and report.added == 16


def test_transcripts_keep_the_planted_turns_and_little_else(
    ingested: tuple[MemoryStore, IngestReport],
) -> None:
    store, report = ingested
    planted = json.loads((DATA / "transcripts" / "planted.json").read_text())["planted"]
    key = {(p["file"], p["line"]) for p in planted}
    turns = 0
    for path in (DATA / "transcripts").glob("*.jsonl"):
        turns += sum(
            1 for line in path.read_text().splitlines() if json.loads(line).get("type") != "summary"
        )
    assert (turns, len(key)) == (220, 20)
    kept = {
        (Path(m.meta["ingest"]["path"]).name, m.meta["ingest"]["lines"][0]): m
        for m in store.memories(limit=1000)
        if m.meta.get("ingest", {}).get("kind") in ("claude-code", "chat")
    }
    assert len(kept) == report.turns_kept
    assert len(key & set(kept)) >= 18
    assert len(set(kept) - key) <= 10  # 5% of the 200 other turns
    for memory in kept.values():
        assert "<recalled-memory>" not in memory.content and "(id: mem_" not in memory.content
        assert memory.observed_at is not None and memory.observed_at.year == 2026
        assert memory.meta["role"] == "user"
    for name, line in kept:  # user entries only: never an injected block
        entry = json.loads((DATA / "transcripts" / name).read_text().splitlines()[line - 1])
        assert entry.get("type", "user") == "user" and entry.get("role", "user") == "user"
