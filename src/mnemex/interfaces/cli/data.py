"""CLI commands on the whole store: stats, export, import."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import typer
from rich.progress import Progress

from mnemex.interfaces.cli._app import JSON_OPTION, command, console, emit, open_store


@command("stats")
def stats(as_json: bool = JSON_OPTION) -> None:
    """Counts, score distribution and configuration."""
    with open_store(create=False) as store:
        result = store.stats()

    def render(s: dict[str, Any]) -> None:
        memories = s["memories"]
        console.print(
            f"tenant {s['tenant']}: {memories['total']} memories "
            + ", ".join(f"{k} {v}" for k, v in memories.items() if k != "total")
        )
        console.print(
            f"entities {s['entities']}, relations {s['relations']}, facts {s['facts']}, "
            f"open reviews {s['open_reviews']}"
        )
        score = s["score"]
        console.print(
            f"mean score {score['mean']:.3f}; {score['danger_zone']} in the danger zone, "
            f"{score['below_forget_threshold']} below the forget threshold ({s['decay_curve']})"
        )
        console.print(f"store: {s['store']['backend']} {s['store']['location']}")

    emit(result, as_json, render)


@command("export")
def export(
    output: Path | None = typer.Argument(None, help="File to write (default: standard output)."),
) -> None:
    """Export this tenant as JSONL (lossless: timestamps, use counts, status, history)."""
    with open_store(create=False) as store:
        if output is None:
            for line in store.export():
                sys.stdout.write(line + "\n")
            return
        count = write_atomically(output, store.export())
    console.print(f"wrote {count - 1} records to {output}", highlight=False)


def write_atomically(output: Path, lines: Iterable[str]) -> int:
    """Write lines to a temporary file beside `output`, then rename it over `output`: a
    failure half-way (a full disk, a store error) leaves the previous file as it was."""
    temporary = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    count = 0
    try:
        with temporary.open("w", encoding="utf-8") as handle:
            for line in lines:
                handle.write(line + "\n")
                count += 1
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, output)
    finally:
        temporary.unlink(missing_ok=True)
    return count


@command("import")
def import_(
    source: Path = typer.Argument(..., help="A JSONL file written by `mnemex export`."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Import a JSONL export into this tenant, all or nothing (existing ids are skipped)."""
    lines = source.read_text(encoding="utf-8").splitlines()
    with open_store() as store, Progress(console=console, transient=True, disable=as_json) as bar:
        task = bar.add_task("importing", total=max(len(lines) - 1, 0))
        counts = store.import_lines(lines, progress=lambda n: bar.advance(task, n))
    emit(
        counts,
        as_json,
        lambda c: console.print(
            f"imported {c['imported']}, skipped {c['skipped']} (already here), "
            f"rejected {c['rejected']}"
            + "".join(f"\n  line {p['line']} ({p['table']}): {p['reason']}" for p in c["problems"])
        ),
    )


@command("migrate")
def migrate(
    source: str = typer.Option(
        ..., "--from", help="The store to copy: sqlite:///path/file.db, a path or postgresql://..."
    ),
    target: str = typer.Option(
        ..., "--to", help="An empty store to copy into: postgresql://..., sqlite:///path or a path."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Move a whole store (every tenant, vectors, tokens) to another backend, verified by row
    counts and the sha256 of each tenant's JSONL export; the source is only read."""
    from mnemex.service import migrate_store

    with Progress(console=console, transient=True, disable=as_json) as bar:
        task = bar.add_task("copying rows", total=None)
        report = migrate_store(
            source,
            target,
            on_total=lambda total: bar.update(task, total=total),
            progress=lambda n: bar.advance(task, n),
        )

    def render(r: dict[str, Any]) -> None:
        console.print(
            f"copied {r['rows']} rows of {len(r['tenants'])} tenants, {r['embeddings']} vectors "
            f"and {r['tokens']} tokens from {r['from']} to {r['to']}",
            highlight=False,
        )
        for tenant, moved in r["tenants"].items():
            console.print(
                f"  {tenant}: {moved['rows']} rows, {moved['memories']} memories, "
                f"export sha256 {moved['sha256']} (same on both)",
                highlight=False,
            )

    emit(report, as_json, render)


@command("reindex")
def reindex(as_json: bool = JSON_OPTION) -> None:
    """Embed every memory whose vector is missing or from another model (after a model change)."""
    with (
        open_store(create=False) as store,
        Progress(console=console, transient=True, disable=as_json) as bar,
    ):
        task = bar.add_task("embedding", total=None)
        report = store.reindex(
            progress=lambda done, total: bar.update(task, completed=done, total=total)
        )
    emit(
        report,
        as_json,
        lambda r: console.print(f"embedded {r['embedded']} memories ({r['model']})"),
    )
