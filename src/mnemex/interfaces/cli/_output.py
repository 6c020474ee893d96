"""Output for commands that list records: full ids and dates, never cut to fit a terminal.

Lists print one record per block (no table columns to squeeze), `--ids` prints bare ids for
scripts (`mnemex list --ids | xargs -n1 mnemex pin`), `--json` the records themselves.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import typer

from mnemex.interfaces.cli._app import console, emit
from mnemex.models import Citation, Fact, Memory

T = TypeVar("T")

IDS_OPTION = typer.Option(False, "--ids", help="Print only the ids, one a line (for scripts).")


def say(text: str, style: str | None = None) -> None:
    """Print text as it is: no markup, no highlighting, no wrapping or cutting of long words."""
    console.print(text, style=style, markup=False, highlight=False, soft_wrap=True)


def stamp(moment: datetime | None) -> str:
    """A full ISO 8601 time to the second, or '-'."""
    return moment.isoformat(timespec="seconds") if moment else "-"


def emit_list(
    items: Sequence[T],
    as_json: bool,
    as_ids: bool,
    id_of: Callable[[T], str],
    render: Callable[[T], None],
    empty: str,
) -> None:
    """A list: JSON, bare ids, or a block per item (`empty` when there are none)."""
    if as_ids:
        sys.stdout.write("".join(id_of(item) + "\n" for item in items))
        return
    if as_json:
        emit(list(items), True)
        return
    for item in items:
        render(item)
    if not items:
        say(empty)


def memory_block(memory: Memory, score: float | None = None, extra: Iterable[str] = ()) -> None:
    """A memory as a head line (id, status, score, dates) and its text, indented."""
    head = [memory.id, memory.status]
    if memory.superseded_by:
        head.append(f"superseded by {memory.superseded_by}")
    head.append(f"score {memory.score if score is None else score:.3f}")
    head.append(f"strength {memory.strength:.2f}")
    if memory.repeat_count:
        head.append(f"said {memory.repeat_count + 1} times")
    head.append(f"saved {stamp(memory.created_at)}")
    say("  ".join(head), "bold")
    say("  " + memory.content.replace("\n", "\n  "))
    details = []
    if memory.tags:
        details.append("tags: " + ", ".join(memory.tags))
    if memory.entities:
        details.append("entities: " + ", ".join(memory.entities))
    cited = Citation.of(memory)
    if cited is not None:
        details.append("from " + " ".join(filter(None, [shown_path(cited.ref), cited.heading])))
    details.extend(extra)
    if details:
        say("  " + "; ".join(details), "dim")


def shown_path(ref: str) -> str:
    """A citation as a person reads it: relative to the working folder when inside it."""
    try:
        return str(Path(ref).relative_to(Path.cwd()))
    except ValueError:
        home = str(Path.home())
        return "~" + ref[len(home) :] if ref.startswith(home + "/") else ref


def fact_line(fact: Fact) -> None:
    """A fact as one line: key, value, status, its validity window and the fact's id."""
    until = stamp(fact.valid_to) if fact.valid_to else "now"
    say(
        f"{fact.subject} / {fact.relation} = {fact.object}  [{fact.status}] "
        f"{stamp(fact.valid_from)} -> {until}  {fact.id}"
    )


def resolved(store: Any, prefix: str, kind: str = "memory") -> str:
    """The full id a unique prefix names (the CLI's one way to read an id argument)."""
    return str(store.resolve_id(prefix, kind))


def parse_json_option(text: str | None, field: str) -> Any:
    """A JSON option's value, or a typed error naming the option."""
    import json

    from mnemex.errors import InvalidInputError

    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(field, f"not JSON: {exc.msg}") from exc


def show_record(value: Any, as_json: bool, fields: Sequence[str]) -> None:
    """A record as `name: value` lines (full values), or JSON."""

    def render(record: Any) -> None:
        for name in fields:
            item = getattr(record, name)
            if isinstance(item, datetime):
                item = stamp(item)
            elif isinstance(item, list):
                item = ", ".join(str(part) for part in item)
            elif isinstance(item, float):
                item = f"{item:.3f}"
            if item not in (None, "", {}):
                say(f"{name}: {item}")
        cited = Citation.of(record) if isinstance(record, Memory) else None
        if cited is not None:
            say("cited as: " + " ".join(filter(None, [shown_path(cited.ref), cited.heading])))

    emit(value, as_json, render)
