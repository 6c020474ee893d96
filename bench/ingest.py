"""`mnemex bench ingest` and `mnemex eval ingest`: ingest speed on a synthetic vault, and the
figures of the hand-written ingest data (tests/ingest/data, bench/data/ingest_turns_dev.txt)."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.synthetic import memory
from mnemex.config import Settings

SECTIONS = 4  # a note of four sections, each one chunk: ~400 characters of two memories
ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "ingest" / "data"


def write_vault(folder: Path, chunks: int, seed: int = 11) -> int:
    """A vault of notes whose sections hold synthetic memory-like sentences; returns files."""
    notes = max(1, chunks // SECTIONS)
    for index in range(notes):
        lines = [f"# Note {index}", ""]
        for section in range(SECTIONS):
            first = memory(index * SECTIONS * 2 + section * 2, seed).text
            second = memory(index * SECTIONS * 2 + section * 2 + 1, seed).text
            lines += [f"## Part {section}", "", first, "", f"- {second}", ""]
        if index % 10 == 0:
            lines += [f"See [[Note {index + 1}]] and #topic-{index % 7}.", ""]
        sub = folder / f"area-{index % 20:02d}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"note-{index:05d}.md").write_text("\n".join(lines), encoding="utf-8")
    return notes


def throughput(chunks: int = 10_000, seed: int = 11) -> list[dict[str, Any]]:
    """First ingest, a re-ingest of the unchanged folder, and one after 1% of notes changed."""
    import mnemex

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work) / "vault"
        files = write_vault(folder, chunks, seed)
        settings = Settings.load(data_dir=Path(work) / "data")
        with mnemex.open(str(Path(work) / "bench.db"), settings=settings) as store:
            store.save("warm up the models")  # model loading is not ingest time
            start = time.perf_counter()
            first = store.ingest(folder)
            first_s = time.perf_counter() - start
            start = time.perf_counter()
            again = store.ingest(folder)
            again_s = time.perf_counter() - start
            changed = sorted(folder.rglob("*.md"))[:: max(1, files // max(1, files // 100))]
            for path in changed:
                path.write_text(path.read_text() + "\nAn added line.\n", encoding="utf-8")
            start = time.perf_counter()
            edited = store.ingest(folder)
            edited_s = time.perf_counter() - start
        for name, report, seconds in (
            ("first ingest", first, first_s),
            ("unchanged re-ingest", again, again_s),
            (f"{len(changed)} notes changed", edited, edited_s),
        ):
            rows.append(
                {
                    "run": name,
                    "files": report.files,
                    "unchanged": report.unchanged,
                    "chunks_added": report.chunks_added,
                    "chunks_kept": report.chunks_kept,
                    "seconds": round(seconds, 3),
                    "chunks_per_s": round(report.chunks_added / seconds, 1) if seconds else 0.0,
                    "share_of_first": round(seconds / first_s, 4),
                }
            )
    return rows


def _line_of(path: Path, snippet: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if snippet in line:
            return number
    raise ValueError(f"{snippet!r} not in {path}")


def evaluate() -> dict[str, Any]:
    """Planted facts found in the top 5 with their citation; transcript turns kept."""
    import mnemex

    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as work:
        settings = Settings.load(data_dir=Path(work) / "data")
        with mnemex.open(str(Path(work) / "eval.db"), settings=settings) as store:
            report = store.ingest([DATA / "vault", DATA / "documents", DATA / "transcripts"])
            result["problems"] = {Path(p.path).name: p.code for p in report.problems}
            result["facts"] = _facts(store)
            result["transcripts"] = _turns(store)
            result["dev_turns"] = _dev_turns(store)
    return result


def _facts(store: Any) -> list[dict[str, Any]]:
    rows = []
    for fact in json.loads((DATA / "planted_facts.json").read_text())["facts"]:
        path = (DATA / fact["file"]).resolve()
        where = fact.get("page") or _line_of(path, fact["snippet"])
        rank = None
        cite = None
        for position, hit in enumerate(store.search(fact["query"], k=5), start=1):
            c = hit.citation
            snippet = " ".join(fact["snippet"].split())
            covers = c is not None and c.path == str(path) and c.start <= where <= c.end
            if c is not None and covers and snippet in " ".join(hit.memory.content.split()):
                rank, cite = position, f"{Path(c.path).name}:{c.ref.rsplit(':', 1)[1]}"
                break
        rows.append({"query": fact["query"], "rank": rank, "citation": cite})
    return rows


def _turns(store: Any) -> dict[str, Any]:
    planted = json.loads((DATA / "transcripts" / "planted.json").read_text())["planted"]
    key = {(p["file"], p["line"]) for p in planted}
    kept = {
        (Path(m.meta["ingest"]["path"]).name, m.meta["ingest"]["lines"][0])
        for m in store.memories(limit=1000)
        if m.meta.get("ingest", {}).get("kind") in ("claude-code", "chat")
    }
    turns = sum(
        1
        for path in (DATA / "transcripts").glob("*.jsonl")
        for line in path.read_text().splitlines()
        if json.loads(line).get("type") != "summary"
    )
    return {
        "set": "tests/ingest/data/transcripts",
        "turns": turns,
        "worth_keeping": len(key),
        "kept": len(key & kept),
        "others": turns - len(key),
        "others_kept": len(kept - key),
    }


def _dev_turns(store: Any) -> dict[str, Any]:
    from mnemex.ingest import transcripts

    rows = [
        (line[0] == "+", line[2:].strip())
        for line in (ROOT / "bench" / "data" / "ingest_turns_dev.txt").read_text().splitlines()
        if line[:2] in ("+ ", "- ")
    ]
    kept_good = kept_other = 0
    for good, text in rows:
        turn = transcripts.Turn(1, "", "user", text, None)
        transcripts.screen(turn)
        keep = (
            turn.skip is None and transcripts.decide(store.engine, store.tenant, turn, None) is None
        )
        kept_good += good and keep
        kept_other += (not good) and keep
    worth = sum(good for good, _ in rows)
    return {
        "worth_keeping": worth,
        "kept": kept_good,
        "others": len(rows) - worth,
        "others_kept": kept_other,
    }
