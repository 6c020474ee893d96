"""CLI commands to look through and correct a store: list, edit, pin, observe, activity,
entities, entity, graph, relate, upsert-entities, save-many."""

from __future__ import annotations

import json
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
    stamp,
)
from mnemex.interfaces.cli.memories import MEMORY_FIELDS
from mnemex.models import Entity, Event, Graph, SaveResult

ENTITY_FIELDS = (
    "id", "name", "category", "aliases", "tags", "summary", "strength", "created_at",
    "updated_at", "expired_at",
)  # fmt: skip


@command("list")
def list_(
    status: list[str] = typer.Option([], help="active, promoted, archived, deleted (repeatable)."),
    tags: list[str] = typer.Option([], "--tag", "-t", help="Only memories with this tag."),
    entity: str | None = typer.Option(None, help="Only memories mentioning this entity."),
    source: str | None = typer.Option(None, help="Only memories from this source."),
    min_strength: float | None = typer.Option(None, help="Strength at least this."),
    max_strength: float | None = typer.Option(None, help="Strength at most this."),
    order: str = typer.Option("used", help="used (last use first) or created (newest first)."),
    limit: int = typer.Option(50, help="Page size."),
    offset: int = typer.Option(0, help="Skip this many."),
    as_json: bool = JSON_OPTION,
    as_ids: bool = IDS_OPTION,
) -> None:
    """List memories (live ones unless --status), a page at a time: every memory, not a search."""
    with open_store(create=False) as store:
        found = store.memories(
            limit=limit,
            offset=offset,
            status=status or None,
            tags=tags or None,
            entity=entity,
            source=source,
            min_strength=min_strength,
            max_strength=max_strength,
            order=order,
        )
    emit_list(found, as_json, as_ids, lambda m: m.id, memory_block, "no memories")


@command("edit")
def edit(
    memory_id: str = typer.Argument(..., help="The memory id (or its first characters)."),
    content: str | None = typer.Option(None, help="New text ('-' reads standard input)."),
    tags: list[str] | None = typer.Option(None, "--tag", "-t", help="Replace the tags."),
    entities: list[str] | None = typer.Option(None, "--entity", "-e", help="Replace entities."),
    strength: float | None = typer.Option(None, help="Importance in [0, 2]."),
    source: str | None = typer.Option(None, help="Where the memory came from."),
    meta: str | None = typer.Option(None, help="Metadata as a JSON object."),
    observed_at: str | None = typer.Option(None, help="When it happened (ISO 8601)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Change a memory: only the options given change."""
    if content == "-":
        content = typer.get_text_stream("stdin").read()
    given = {
        "content": content,
        "tags": tags,
        "entities": entities,
        "strength": strength,
        "source": source,
        "meta": parse_json_option(meta, "meta"),
        "observed_at": observed_at,
    }
    fields = {name: value for name, value in given.items() if value is not None}
    if not fields:
        raise InvalidInputError("fields", "give at least one option to change (see --help)")
    with open_store(create=False) as store:
        memory = store.update(resolved(store, memory_id), **fields)
    show_record(memory, as_json, MEMORY_FIELDS)


def _pin(memory_id: str, pinned: bool, as_json: bool) -> None:
    with open_store(create=False) as store:
        memory = store.pin(resolved(store, memory_id), pinned=pinned)
    emit(memory, as_json, lambda m: say(f"{'pinned' if pinned else 'unpinned'} {m.id}"))


@command("pin")
def pin(
    memory_id: str = typer.Argument(..., help="The memory id (or its first characters)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Pin a memory: gc never archives it (the tag `pinned`)."""
    _pin(memory_id, True, as_json)


@command("unpin")
def unpin(
    memory_id: str = typer.Argument(..., help="The memory id (or its first characters)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Unpin a memory: it decays and can be archived again."""
    _pin(memory_id, False, as_json)


@command("observe")
def observe(
    memory_ids: list[str] = typer.Argument(..., help="Ids (or first characters) of used memories."),
    context: str | None = typer.Option(None, help="The conversation's topic, for its tags."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Report memories used together in a conversation (uses, reviews, co-use)."""
    with open_store(create=False) as store:
        used = store.observe([resolved(store, i) for i in memory_ids], context=context)
    emit_list(used, as_json, False, lambda m: m.id, memory_block, "nothing observed")


@command("activity")
def activity(
    kind: str | None = typer.Option(None, help="Only events of this kind (save, recall, gc, ...)."),
    limit: int = typer.Option(50, help="How many, newest first."),
    as_json: bool = JSON_OPTION,
    as_ids: bool = IDS_OPTION,
) -> None:
    """The audit log: saves, recalls, supersessions, review rulings, gc runs, ..."""
    with open_store(create=False) as store:
        events = store.events(kind=kind, limit=limit)

    def render(event: Event) -> None:
        payload = json.dumps(event.payload, ensure_ascii=False) if event.payload else ""
        say(f"{stamp(event.at)}  {event.kind}  {event.subject_id or '-'}  {payload}")

    emit_list(events, as_json, as_ids, lambda e: e.id, render, "no events")


@command("entities")
def entities(
    limit: int = typer.Option(100, help="Page size."),
    offset: int = typer.Option(0, help="Skip this many."),
    as_json: bool = JSON_OPTION,
    as_ids: bool = IDS_OPTION,
) -> None:
    """Known entities (people, projects, tools, places), alphabetically."""
    with open_store(create=False) as store:
        found = store.entities(limit=limit, offset=offset)

    def render(e: Entity) -> None:
        gone = f"  expired {stamp(e.expired_at)}" if e.expired_at else ""
        say(f"{e.id}  {e.name}  [{e.category or 'other'}]{gone}")

    emit_list(found, as_json, as_ids, lambda e: e.id, render, "no entities")


@command("entity")
def entity(
    name: str = typer.Argument(..., help="An entity's name or alias."), as_json: bool = JSON_OPTION
) -> None:
    """One entity: category, aliases, tags, summary, dates."""
    with open_store(create=False) as store:
        show_record(store.entity(name), as_json, ENTITY_FIELDS)


@command("graph")
def graph(
    name: str | None = typer.Argument(None, help="An entity (default: the whole entity graph)."),
    depth: int = typer.Option(2, help="Hops out from the entity (1-4)."),
    limit: int = typer.Option(2000, help="Without an entity: at most this many entities."),
    category: list[str] = typer.Option([], help="Keep neighbours of this category (repeat)."),
    relation: list[str] = typer.Option([], help="Keep edges of this type (repeat)."),
    as_of: str | None = typer.Option(None, "--as-of", help="The graph as it stood then."),
    memories: bool = typer.Option(True, "--memories/--no-memories", help="Mentioning memories."),
    as_json: bool = JSON_OPTION,
) -> None:
    """An entity's neighbourhood (memories and relations), or every entity and relation."""
    with open_store(create=False) as store:
        found = store.graph(
            name,
            depth=depth,
            limit=limit,
            categories=category or None,
            relation_types=relation or None,
            as_of=as_of,
            memories=memories,
        )
    emit(found, as_json, _render_graph)


@command("path")
def path(
    from_entity: str = typer.Argument(..., help="One entity."),
    to_entity: str = typer.Argument(..., help="The other."),
    relation: list[str] = typer.Option([], help="Follow only edges of this type (repeat)."),
    as_of: str | None = typer.Option(None, "--as-of", help="The graph as it stood then."),
    as_json: bool = JSON_OPTION,
) -> None:
    """The shortest chain of relations between two entities."""
    with open_store(create=False) as store:
        found = store.path(from_entity, to_entity, relation_types=relation or None, as_of=as_of)
    emit(found, as_json, _render_graph)


def _render_graph(g: Graph) -> None:
    """Nodes, then edges (from -type-> to, with the memory that stated it)."""
    labels = {node.id: node.label for node in g.nodes}
    for node in g.nodes:
        say(
            f"{node.id}  {node.kind}  {node.label}"
            + (f"  [{node.category}]" if node.category else "")
        )
    for edge in g.edges:
        start, end = labels.get(edge.from_id, edge.from_id), labels.get(edge.to_id, edge.to_id)
        expired = "  (expired)" if edge.expired_at is not None else ""
        source = f"  <- {edge.source_memory}" if edge.source_memory else ""
        say(f"  {start} -{edge.type}-> {end}{expired}{source}", "dim")
    if not g.nodes:
        say("no entities")


@command("relate")
def relate(
    from_entity: str = typer.Argument(..., help="The entity the edge starts at."),
    relation_type: str = typer.Argument(..., help="The relation, e.g. works_on."),
    to_entity: str = typer.Argument(..., help="The entity the edge ends at."),
    strength: float = typer.Option(1.0, help="Strength in [0, 2]."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Link two entities (created if new) with a typed edge: `relate Alice works_on Atlas`."""
    with open_store() as store:
        edge = store.relate(from_entity, to_entity, relation_type, strength=strength)
    emit(edge, as_json, lambda r: say(f"{r.id}  {from_entity} -{r.type}-> {to_entity}"))


def _read_json(source: Path) -> Any:
    text = sys_stdin() if str(source) == "-" else source.read_text(encoding="utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        lines = [line for line in text.splitlines() if line.strip()]
        try:
            return [json.loads(line) for line in lines]
        except json.JSONDecodeError as exc:
            raise InvalidInputError("file", f"not JSON or JSON lines: {exc.msg}") from exc


def sys_stdin() -> str:
    """All of standard input."""
    return typer.get_text_stream("stdin").read()


@command("upsert-entities")
def upsert_entities(
    source: Path = typer.Argument(..., help='JSON {"entities": [...], "relationships": [...]}.'),
    as_json: bool = JSON_OPTION,
) -> None:
    """Write up to 100 entities and relationships exactly as given (the REST body's shape)."""
    data = _read_json(source)
    if not isinstance(data, dict):
        raise InvalidInputError("file", 'must be an object {"entities": [...], ...}')
    with open_store() as store:
        report = store.upsert_entities(data.get("entities", []), data.get("relationships", []))
    emit(
        report,
        as_json,
        lambda r: say(
            f"{len(r.entities)} entities ({len(r.created)} new), {len(r.relations)} relations"
        ),
    )


@command("save-many")
def save_many(
    source: Path = typer.Argument(..., help="A JSON list or JSON lines of save()'s arguments."),
    as_json: bool = JSON_OPTION,
    as_ids: bool = IDS_OPTION,
) -> None:
    """Save several memories in one transaction ('-' reads standard input)."""
    data = _read_json(source)
    items = data if isinstance(data, list) else [data]
    if not all(isinstance(item, dict) for item in items):
        raise InvalidInputError("file", "each item must be an object of save()'s arguments")
    with open_store() as store:
        results = store.save_many(items)

    def render(r: SaveResult) -> None:
        say(f"{r.action} {r.id}")

    emit_list(results, as_json, as_ids, lambda r: r.id, render, "nothing saved")
