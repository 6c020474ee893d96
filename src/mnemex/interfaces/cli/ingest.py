"""`mnemex ingest`: files and folders in, kept in sync; a progress bar and a summary."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from mnemex.interfaces.cli._app import JSON_OPTION, command, console, emit, open_store
from mnemex.models import IngestReport


def summary(report: IngestReport) -> None:
    """What a run did, in a few lines: files, chunks, turns, what was skipped and why."""
    console.print(
        f"{report.files} file{'' if report.files == 1 else 's'}: {report.added} added, "
        f"{report.updated} updated, "
        f"{report.unchanged} unchanged, {report.deleted} deleted, "
        f"{len(report.problems)} skipped ({report.seconds:.1f} s)",
        highlight=False,
    )
    console.print(
        f"chunks: {report.chunks_added} added, {report.chunks_kept} kept, "
        f"{report.chunks_archived} archived; transcript turns kept: {report.turns_kept}",
        highlight=False,
    )
    if report.skipped:
        reasons = ", ".join(f"{n} {why}" for why, n in sorted(report.skipped.items()))
        console.print(f"not saved: {reasons}", highlight=False)
    for problem in report.problems:
        console.print(
            f"[yellow]skipped[/yellow] {problem.path} ({problem.code}): {problem.message}",
            highlight=False,
        )


@command("ingest")
def ingest(
    paths: list[Path] = typer.Argument(
        ..., help="Files and folders (Markdown, text, HTML, PDF, transcripts)."
    ),
    chunk_chars: int | None = typer.Option(None, help="Chunk size in characters (default 800)."),
    overlap_chars: int | None = typer.Option(
        None, help="Characters repeated between chunks (150)."
    ),
    enrich: bool = typer.Option(
        False, help="Run the analysis layer on every document chunk (slow)."
    ),
    watch: bool = typer.Option(
        False, "--watch", help="Keep running: ingest again on every change."
    ),
    interval: float = typer.Option(2.0, help="With --watch: seconds between looks at the files."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Bring notes, documents, vaults and chat transcripts in, and keep them in sync."""
    with (
        open_store() as store,
        Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("chunks"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=as_json,
        ) as bar,
    ):
        task = bar.add_task("reading", total=None)

        def progress(report: IngestReport, done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, description=f"{report.files} files")

        def show(report: IngestReport) -> None:
            bar.update(task, completed=0, total=None, description="watching")
            emit(report, as_json, summary)

        try:
            report = store.ingest(
                paths,
                chunk_chars=chunk_chars,
                overlap_chars=overlap_chars,
                enrich=enrich,
                progress=progress,
                watch=interval if watch else None,
                on_report=show,
            )
        except KeyboardInterrupt:
            console.print("stopped watching")
            return
    if not watch:
        emit(report, as_json, summary)
