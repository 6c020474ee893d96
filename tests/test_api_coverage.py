"""Every public MemoryStore method has a CLI command, a REST route and an MCP tool, or an
exemption written down here and in the README ("Every way in").

Which store methods an interface calls is read off its code: the source of each registered CLI
command, REST endpoint handler and MCP tool (and of the module's own functions they call) is
parsed, and every `<...store...>.<method>` it reaches counts. A new public method with no way in
fails here; so does an exemption that is no longer needed.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Iterator
from typing import Any

import typer
from typer.models import CommandInfo

from mnemex import MemoryStore
from mnemex.interfaces.cli import app
from mnemex.interfaces.http.routes import ENDPOINTS
from mnemex.interfaces.mcp.server import TOOLS, MemoryTools

# method -> {interface: why it has no way in there}
EXEMPT: dict[str, dict[str, str]] = {
    "now": dict.fromkeys(("cli", "rest", "mcp"), "the clock of a Python object"),
    "for_tenant": dict.fromkeys(("cli", "rest", "mcp"), "a tenant is chosen by --tenant or token"),
    "close": dict.fromkeys(("rest", "mcp"), "the server closes its store when it stops"),
    "resolve_id": {"mcp": "agents pass the full ids the tools gave them"},
    "keys": {"mcp": "get_facts without a relation answers the same"},
    "save_many": {"mcp": "an agent saves what it learns one memory at a time"},
    "upsert_entities": {"mcp": "create_relation links entities; bulk writes are for programs"},
    "export": {"mcp": "a whole store does not fit in an agent's context"},
    "import_lines": {"mcp": "bulk restore is an administrator's job (CLI, REST)"},
    "reindex": {"mcp": "minutes of embedding after a model change: an administrator's job"},
    "ingest": dict.fromkeys(("rest", "mcp"), "reads the server's own disk"),
}


def public_methods() -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(MemoryStore)
        if not name.startswith("_") and inspect.isfunction(member)
    }


def _functions(func: Callable[..., Any], seen: set[int]) -> Iterator[ast.AST]:
    """The syntax tree of `func` and of the module functions it calls, recursively."""
    func = inspect.unwrap(func)
    if id(func) in seen:
        return
    seen.add(id(func))
    tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    yield tree
    module = inspect.getmodule(func)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and module is not None:
            called = getattr(module, node.func.id, None)
            if inspect.isfunction(called) and called.__module__.startswith("mnemex.interfaces"):
                yield from _functions(called, seen)


def store_calls(func: Callable[..., Any]) -> set[str]:
    """The MemoryStore methods `func` reaches through a store (`store.x`, `call.store.x`, ...)."""
    methods = public_methods()
    found = set()
    for tree in _functions(func, set()):
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in methods:
                owner = ast.unparse(node.value)
                if "store" in owner or "_for(" in owner:
                    found.add(node.attr)
    return found


def cli_commands() -> dict[str, Callable[..., Any]]:
    def walk(group: typer.Typer, prefix: str) -> Iterator[tuple[str, CommandInfo]]:
        for info in group.registered_commands:
            assert info.callback is not None
            yield prefix + (info.name or info.callback.__name__), info
        for sub in group.registered_groups:
            assert sub.typer_instance is not None
            yield from walk(sub.typer_instance, f"{prefix}{sub.name} ")

    return {name: info.callback for name, info in walk(app, "") if info.callback is not None}


def reached() -> dict[str, dict[str, set[str]]]:
    """interface -> method -> the commands, routes or tools that call it."""
    ways: dict[str, dict[str, Callable[..., Any]]] = {
        "cli": cli_commands(),
        "rest": {f"{e.method} {e.path}": e.handler for e in ENDPOINTS},
        "mcp": {name: getattr(MemoryTools, name) for name in TOOLS},
    }
    out: dict[str, dict[str, set[str]]] = {}
    for interface, entries in ways.items():
        table: dict[str, set[str]] = {}
        for entry, func in entries.items():
            for method in store_calls(func):
                table.setdefault(method, set()).add(entry)
        out[interface] = table
    return out


def test_every_public_method_has_a_way_in_on_every_interface() -> None:
    ways = reached()
    missing = sorted(
        f"{method}: no {interface}"
        for method in public_methods()
        for interface in ("cli", "rest", "mcp")
        if method not in ways[interface] and interface not in EXEMPT.get(method, {})
    )
    assert missing == []


def test_every_exemption_is_still_needed_and_names_a_method() -> None:
    ways = reached()
    methods = public_methods()
    stale = sorted(
        f"{method}: {interface}"
        for method, interfaces in EXEMPT.items()
        for interface in interfaces
        if method not in methods or method in ways[interface]
    )
    assert stale == []


def test_the_check_finds_calls_and_misses() -> None:
    """The reading bites: a command that calls nothing is seen to reach nothing."""

    def calls_search(store: Any) -> None:
        store.search("x")

    def calls_nothing(store: Any) -> None:
        del store

    assert store_calls(calls_search) == {"search"}
    assert store_calls(calls_nothing) == set()
    assert "pin" in reached()["cli"] and "pin" in reached()["rest"]
