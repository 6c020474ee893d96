"""The house rules of ../shared/ARCHITECTURE.md: layers import downward only, no import circles,
no module over 600 lines, the interfaces only translate, heavy modules stay lazy.

The checks read the code's own imports with `ast` (runtime imports only: those under
`if TYPE_CHECKING:` are types, not imports), so a new import that runs back up a layer, or
closes a circle, fails here; `test_the_checks_bite` shows that they do.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "mnemex"
HEAVY = ("onnxruntime", "spacy", "psycopg", "mcp", "uvicorn", "starlette", "usearch")
MAX_LINES = 600

# The layers, bottom first: a module may import its own layer and the layers below it. The
# first part of a module's path inside mnemex/ names its room ("ledger" for mnemex/ledger/...).
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("records", frozenset({"errors", "models"})),
    ("settings", frozenset({"config", "clock"})),
    ("shared helpers", frozenset({"text", "limits", "embed", "gazetteer"})),
    ("storage", frozenset({"store"})),
    ("memory model", frozenset({"decay", "ledger"})),
    ("retrieval", frozenset({"retrieval"})),
    ("analysis", frozenset({"analysis"})),
    ("engine", frozenset({"engine"})),
    (
        "pipelines",
        frozenset({"saving", "resolution", "search", "stats", "lifecycle", "graph", "ingest"}),
    ),
    ("facade", frozenset({"service", "browsing", "upkeep", "__init__"})),
    ("interfaces", frozenset({"interfaces"})),
)
# What an interface may import of the core: the facade and the records it hands out.
INTERFACE_ALLOWED = (
    "mnemex.interfaces",
    "mnemex.errors",
    "mnemex.models",
    "mnemex.config",
    "mnemex.service",
    "mnemex.clock",
    "mnemex.text",
)


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in SRC.rglob("*.py")}


def _type_only(tree: ast.Module) -> set[int]:
    """Line numbers of the imports under `if TYPE_CHECKING:`."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def imports(path: Path, known: Iterable[str]) -> set[str]:
    """The mnemex modules a file imports at run time (module level or inside functions)."""
    names = set(known)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_only(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the file's package up
                own = module_name(path).split(".")
                package = own if path.name == "__init__.py" else own[:-1]
                parent = package[: len(package) - (node.level - 1)]
                base = ".".join([*parent, *([base] if base else [])])
            for alias in node.names:  # `from pkg import module` imports the module
                full = f"{base}.{alias.name}"
                found.add(full if full in names else base)
    return {name for name in found if name in names}


def room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def layer(module: str) -> int:
    for index, (_, rooms) in enumerate(LAYERS):
        if room(module) in rooms:
            return index
    raise AssertionError(f"{module}: no layer in LAYERS (add its room to the table)")


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Imports that run back up the layers."""
    return sorted(
        f"{a} ({LAYERS[layer(a)][0]}) -> {b} ({LAYERS[layer(b)][0]})"
        for a, targets in graph.items()
        for b in targets
        if layer(b) > layer(a)
    )


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Groups of modules that import each other, directly or through others (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def import_graph() -> dict[str, set[str]]:
    known = modules()
    graph = {}
    for name, path in known.items():
        # A package imports its own __init__ on the way: not an edge worth drawing.
        graph[name] = {
            t for t in imports(path, known) if t != name and not name.startswith(t + ".")
        }
    return graph


def test_every_room_has_a_layer() -> None:
    for module in modules():
        layer(module)


def test_no_import_runs_back_up_the_layers() -> None:
    assert upward(import_graph()) == []


def test_no_import_circle() -> None:
    assert circles(import_graph()) == []


def test_the_checks_bite(tmp_path: Path) -> None:
    """An import back up the layers, or a circle, is found (the checks above can fail)."""
    graph = {
        "mnemex.store.sqlite": {"mnemex.ledger.history"},
        "mnemex.ledger.history": {"mnemex.models"},
        "mnemex.search": {"mnemex.service"},
        "mnemex.service": {"mnemex.search"},
    }
    assert upward(graph) == [
        "mnemex.search (pipelines) -> mnemex.service (facade)",
        "mnemex.store.sqlite (storage) -> mnemex.ledger.history (memory model)",
    ]
    assert circles(graph) == [["mnemex.search", "mnemex.service"]]
    hidden = tmp_path / "hidden.py"  # a function-level import counts
    hidden.write_text("def f():\n    from mnemex import service\n", encoding="utf-8")
    assert imports(hidden, modules()) == {"mnemex.service"}
    hidden.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from mnemex import service\n",
        encoding="utf-8",
    )
    assert imports(hidden, modules()) == set()  # a type, not a runtime import


def test_no_module_is_over_600_lines() -> None:
    long = {
        str(path.relative_to(SRC)): count
        for path in SRC.rglob("*.py")
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_core_never_imports_interfaces_or_the_lab() -> None:
    offenders = []
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                lab = name == "bench" or name.startswith(("bench.", "training"))
                inward = name.startswith("mnemex.interfaces") and room(module_name(path)) != (
                    "interfaces"
                )
                if lab or inward:
                    offenders.append(f"{path.relative_to(SRC)}: {name}")
    assert offenders == []


def test_interfaces_reach_the_core_only_through_the_facade_and_records() -> None:
    offenders = []
    for path in (SRC / "interfaces").rglob("*.py"):
        for name in imports(path, modules()):
            if not name.startswith(INTERFACE_ALLOWED) and name != "mnemex":
                offenders.append(f"{path.relative_to(SRC)}: {name}")
    assert offenders == []


def test_importing_mnemex_and_the_cli_loads_no_heavy_module() -> None:
    code = (
        "import sys, mnemex, mnemex.interfaces.cli; "
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
