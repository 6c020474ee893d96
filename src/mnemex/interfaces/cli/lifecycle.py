"""CLI commands of the memory lifecycle: gc, promote, cluster, consolidate."""

from __future__ import annotations

import typer
from rich.table import Table

from mnemex.interfaces.cli._app import JSON_OPTION, command, console, emit, open_store
from mnemex.models import Cluster, ConsolidateResult, GcReport, PromoteReport, ScoredMemory


def _scored_table(title: str, items: list[ScoredMemory]) -> None:
    table = Table("score", "uses", "id", "memory", title=title)
    for item in items:
        table.add_row(f"{item.score:.3f}", str(item.use_count), item.id, item.preview)
    console.print(table)


@command("gc")
def gc(
    apply: bool = typer.Option(False, "--apply", help="Archive them (default: only list them)."),
    hard: bool = typer.Option(False, help="With --apply: delete for good instead of archiving."),
    as_json: bool = JSON_OPTION,
) -> None:
    """List (or archive) memories whose score fell below the forget threshold."""
    with open_store(create=False) as store:
        report = store.gc(dry_run=not apply, hard=hard)

    def render(r: GcReport) -> None:
        _scored_table(f"below {r.threshold}", r.candidates)
        verb = "deleted" if r.hard else "archived"
        console.print(f"{r.affected} {verb}" if not r.dry_run else "dry run: use --apply to act")

    emit(report, as_json, render)


@command("promote")
def promote(
    memory_id: str | None = typer.Argument(
        None, help="Promote this memory (default: all that qualify)."
    ),
    apply: bool = typer.Option(False, "--apply", help="Write the notes (default: only list)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Write lasting memories to the Markdown vault."""
    with open_store(create=False) as store:
        report = store.promote(memory_id, auto=memory_id is None, dry_run=not apply)

    def render(r: PromoteReport) -> None:
        _scored_table("qualifying memories", r.candidates)
        for written_id, path in r.notes.items():
            console.print(f"{written_id} -> {path}")
        if r.dry_run:
            console.print("dry run: use --apply to write notes")

    emit(report, as_json, render)


@command("cluster")
def cluster(
    threshold: float | None = typer.Option(None, help="Similarity needed to join a cluster."),
    limit: int = typer.Option(50, help="At most this many clusters."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Group similar memories; each cluster id can be passed to `consolidate`."""
    with open_store(create=False) as store:
        clusters = store.cluster(threshold=threshold, limit=limit)

    def render(found: list[Cluster]) -> None:
        for item in found:
            console.print(
                f"[bold]{item.id}[/bold] {len(item.member_ids)} memories, "
                f"cohesion {item.cohesion:.2f}"
            )
            for member, text in zip(item.member_ids, item.previews, strict=True):
                console.print(f"  {member}  {text}")
        if not found:
            console.print("no clusters")

    emit(clusters, as_json, render)


@command("consolidate")
def consolidate(
    cluster_id: str = typer.Argument(..., help="A cluster id from `mnemex cluster`."),
    apply: bool = typer.Option(False, "--apply", help="Merge (default: preview)."),
    threshold: float | None = typer.Option(None, help="The threshold the cluster was found with."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Preview, or with --apply merge, a cluster into one memory that keeps its provenance."""
    with open_store(create=False) as store:
        result = store.consolidate(cluster_id, dry_run=not apply, threshold=threshold)

    def render(r: ConsolidateResult) -> None:
        console.print(r.content)
        console.print(f"tags: {', '.join(r.tags)}  entities: {', '.join(r.entities)}")
        console.print(
            f"merged into {r.memory_id}" if r.memory_id else "preview: use --apply to merge"
        )

    emit(result, as_json, render)
