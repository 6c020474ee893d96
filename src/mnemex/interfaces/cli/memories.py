"""CLI commands on single memories: save, search, show, forget, restore, touch."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.table import Table

from mnemex.errors import InvalidInputError
from mnemex.interfaces.cli._app import JSON_OPTION, command, console, emit, open_store
from mnemex.models import Memory, SaveResult, SearchHit
from mnemex.text import preview


def _memory_table(memory: Memory) -> None:
    table = Table(show_header=False, box=None)
    for name in ("id", "status", "score", "strength", "use_count", "created_at", "last_used"):
        value = getattr(memory, name)
        table.add_row(name, f"{value:.3f}" if isinstance(value, float) else str(value))
    if memory.tags:
        table.add_row("tags", ", ".join(memory.tags))
    if memory.entities:
        table.add_row("entities", ", ".join(memory.entities))
    if memory.observed_at:
        table.add_row("observed_at", str(memory.observed_at))
    table.add_row("content", memory.content)
    console.print(table)


@command("save")
def save(
    content: str = typer.Argument(..., help="The text to remember ('-' reads standard input)."),
    tags: list[str] = typer.Option([], "--tag", "-t", help="A tag (repeatable)."),
    entities: list[str] = typer.Option([], "--entity", "-e", help="An entity name (repeatable)."),
    strength: float | None = typer.Option(None, help="Importance in [0, 2]."),
    source: str | None = typer.Option(None, help="Where the memory came from."),
    meta: str | None = typer.Option(None, help="Metadata as a JSON object."),
    observed_at: str | None = typer.Option(None, help="When it happened (ISO 8601)."),
    subject: str | None = typer.Option(None, help="Fact key: the subject."),
    relation: str | None = typer.Option(None, help="Fact key: the relation."),
    value: str | None = typer.Option(None, help="Fact key: the value."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Save a memory (tags, entities and strength are filled in when left out)."""
    if content == "-":
        content = typer.get_text_stream("stdin").read()
    parsed_meta: dict[str, Any] | None = None
    if meta is not None:
        try:
            parsed_meta = json.loads(meta)
        except json.JSONDecodeError as exc:
            raise InvalidInputError("meta", f"not JSON: {exc.msg}") from exc
    with open_store() as store:
        result = store.save(
            content,
            tags=tags or None,
            entities=entities or None,
            strength=strength,
            source=source,
            meta=parsed_meta,
            observed_at=observed_at,
            subject=subject,
            relation=relation,
            value=value,
        )

    def render(r: SaveResult) -> None:
        extra = f" (duplicate of {r.duplicate_of})" if r.duplicate_of else ""
        console.print(f"{r.action} {r.id}{extra}")

    emit(result, as_json, render)


@command("search")
def search(
    query: str = typer.Argument(..., help="What to look for, in plain words."),
    k: int = typer.Option(10, "--k", "-k", help="How many results."),
    tags: list[str] = typer.Option([], "--tag", "-t", help="Only memories with this tag."),
    entity: str | None = typer.Option(None, help="Only memories mentioning this entity."),
    status: str | None = typer.Option(None, help="active, promoted, archived or deleted."),
    window_days: float | None = typer.Option(None, help="Only the last N days."),
    as_of: str | None = typer.Option(None, help="What was known at this time (ISO 8601)."),
    include_history: bool = typer.Option(False, help="Include superseded facts."),
    explain: bool = typer.Option(False, help="Show each channel's rank and score."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Search memories by meaning and by their words."""
    with open_store() as store:
        hits = store.search(
            query,
            k=k,
            tags=tags or None,
            entity=entity,
            status=status,
            window_days=window_days,
            as_of=as_of,
            include_history=include_history,
            explain=explain,
        )

    def render(found: list[SearchHit]) -> None:
        table = Table("score", "id", "memory", "tags")
        for hit in found:
            table.add_row(
                f"{hit.score:.3f}",
                hit.memory.id,
                preview(hit.memory.content, 90),
                ", ".join(hit.memory.tags),
            )
            if explain:
                parts = [f"{n}#{c.rank}={c.score:.3g}" for n, c in hit.channels.items()]
                table.add_row("", "", "[dim]" + "  ".join(parts) + "[/dim]", "")
        console.print(table if found else "no matches")

    emit(hits, as_json, render)


@command("show")
def show(
    memory_id: str = typer.Argument(..., help="The memory id."), as_json: bool = JSON_OPTION
) -> None:
    """Show one memory with its current score."""
    with open_store() as store:
        emit(store.get(memory_id), as_json, _memory_table)


@command("forget")
def forget(
    memory_id: str = typer.Argument(..., help="The memory id."),
    hard: bool = typer.Option(False, help="Delete for good instead of a restorable soft delete."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Forget a memory (restorable with `mnemex restore` unless --hard)."""
    with open_store() as store:
        result = store.forget(memory_id, hard=hard)
    emit(
        {"id": memory_id, "status": "purged" if hard else "deleted"},
        as_json,
        lambda r: console.print(f"{r['status']} {r['id']}"),
    )
    del result


@command("restore")
def restore(
    memory_id: str = typer.Argument(..., help="The memory id."), as_json: bool = JSON_OPTION
) -> None:
    """Restore a forgotten or archived memory."""
    with open_store() as store:
        emit(store.restore(memory_id), as_json, lambda m: console.print(f"{m.status} {m.id}"))


@command("touch")
def touch(
    memory_id: str = typer.Argument(..., help="The memory id."),
    boost: bool = typer.Option(False, help="Also add strength (+0.1, capped at 2)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Count a use of a memory now (keeps it alive)."""
    with open_store() as store:
        emit(
            store.touch(memory_id, boost=boost),
            as_json,
            lambda m: console.print(f"{m.id} uses={m.use_count} score={m.score:.3f}"),
        )
