"""Import direction: the core never imports interfaces; heavy modules stay lazy."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "mnemex"
HEAVY = ("onnxruntime", "spacy", "psycopg", "mcp", "uvicorn", "starlette", "usearch")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_core_never_imports_interfaces() -> None:
    offenders = []
    for path in SRC.rglob("*.py"):
        relative = path.relative_to(SRC)
        if relative.parts[0] == "interfaces":
            continue
        if any(name.startswith("mnemex.interfaces") for name in _imports(path)):
            offenders.append(str(relative))
    assert offenders == []


def test_interfaces_reach_the_core_only_through_the_facade_and_records() -> None:
    allowed = (
        "mnemex.interfaces",
        "mnemex.errors",
        "mnemex.models",
        "mnemex.config",
        "mnemex.service",
        "bench",
        "mnemex.text",
        "mnemex.clock",
    )
    offenders = []
    for path in (SRC / "interfaces").rglob("*.py"):
        for name in _imports(path):
            if name.startswith("mnemex.") and not name.startswith(allowed):
                offenders.append(f"{path.relative_to(SRC)}: {name}")
    assert offenders == []


def test_importing_mnemex_and_the_cli_loads_no_heavy_module() -> None:
    code = (
        "import sys, mnemex, mnemex.interfaces.cli; "
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
