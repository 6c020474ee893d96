"""CLI commands on single memories: save, search, show, forget, restore, touch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from mnemex.errors import InvalidInputError
from mnemex.interfaces.cli._app import JSON_OPTION, command, emit, open_store
from mnemex.interfaces.cli._output import (
    IDS_OPTION,
    emit_list,
    memory_block,
    parse_json_option,
    resolved,
    say,
    show_record,
)
from mnemex.models import SaveResult, SearchHit

MEMORY_FIELDS = (
    "id", "status", "score", "strength", "use_count", "created_at", "updated_at", "observed_at",
    "last_used", "kind", "stability", "pinned", "repeat_count", "duplicate_of", "source",
    "superseded_by", "vault_path", "tags", "entities", "content",
)  # fmt: skip


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
    parsed_meta: dict[str, Any] | None = parse_json_option(meta, "meta")
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
        say(f"{r.action} {r.id}{extra}")

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
    fill: bool = typer.Option(True, help="Fill a short list with the nearest memories."),
    as_json: bool = JSON_OPTION,
    as_ids: bool = IDS_OPTION,
) -> None:
    """Search memories by meaning and by their words."""
    with open_store(create=False) as store:
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
            fill=fill,
        )

    def render(hit: SearchHit) -> None:
        parts = [f"{n} #{c.rank} {c.score:.3g}" for n, c in hit.channels.items()]
        memory_block(hit.memory, hit.score, ["  ".join(parts)] if explain else ())

    emit_list(hits, as_json, as_ids, lambda hit: hit.memory.id, render, "no matches")


@command("show")
def show(
    memory_id: str = typer.Argument(..., help="The memory id (or its first characters)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Show one memory with its current score."""
    with open_store(create=False) as store:
        show_record(store.get(resolved(store, memory_id)), as_json, MEMORY_FIELDS)


@command("forget")
def forget(
    memory_id: str | None = typer.Argument(None, help="The memory id (or its first characters)."),
    hard: bool = typer.Option(False, help="Delete for good instead of a restorable soft delete."),
    everything: bool = typer.Option(
        False, "--all", help="Every memory of this tenant (--tenant); other tenants untouched."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Forget a memory (restorable with `mnemex restore` unless --hard)."""
    if everything == (memory_id is not None):
        raise InvalidInputError("id", "give a memory id or --all, not both or neither")
    if memory_id is None:
        with open_store(create=False) as store:
            counts = store.forget_all(hard=hard)
        done = {"tenant": store.tenant, ("purged" if hard else "deleted"): counts["memories"]}
        emit(done, as_json, lambda r: say(" ".join(f"{k} {v}" for k, v in r.items())))
        return
    with open_store(create=False) as store:
        memory_id = resolved(store, memory_id)
        result = store.forget(memory_id, hard=hard)
    emit(
        {"id": memory_id, "status": "purged" if hard else "deleted"},
        as_json,
        lambda r: say(f"{r['status']} {r['id']}"),
    )
    del result


@command("restore")
def restore(
    memory_id: str = typer.Argument(
        ..., help="The memory id (or its first characters), or a backup file (mnemex backup)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Restore a forgotten or archived memory, or the whole store from a backup file."""
    if Path(memory_id).is_file():
        with open_store() as store:
            result = store.restore_backup(memory_id)
        emit(result, as_json, lambda r: say(f"restored from {r['restored_from']}"))
        return
    with open_store(create=False) as store:
        restored = store.restore(resolved(store, memory_id))
    emit(restored, as_json, lambda m: say(f"{m.status} {m.id}"))


@command("touch")
def touch(
    memory_id: str = typer.Argument(..., help="The memory id (or its first characters)."),
    boost: bool = typer.Option(False, help="Also add strength (+0.1, capped at 2)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Count a use of a memory now (keeps it alive)."""
    with open_store(create=False) as store:
        touched = store.touch(resolved(store, memory_id), boost=boost)
    emit(touched, as_json, lambda m: say(f"{m.id} uses={m.use_count} score={m.score:.3f}"))
