"""`mnemex maint scan|fix|undo`: upkeep of the entity graph (a dry run unless --apply)."""

from __future__ import annotations

from typing import Any

import typer

from mnemex.interfaces.cli._app import JSON_OPTION, app, command, emit, open_store
from mnemex.interfaces.cli._output import say

maint_app = typer.Typer(help="Keep the entity graph clean: duplicates, orphans, junk, bad edges.")
app.add_typer(maint_app, name="maint", no_args_is_help=True)


def _render(report: Any) -> None:
    for finding in report.findings:
        mark = f"  fixed {finding.fix_id}" if finding.fixed else ""
        names = " / ".join(finding.names)
        say(f"{finding.kind:10} {names}: {finding.reason} -> {finding.fix}{mark}")
    counts = ", ".join(f"{kind} {n}" for kind, n in report.counts.items() if n)
    say(f"{'dry run: ' if report.dry_run else ''}{counts or 'nothing to fix'}", "dim")


@command("scan", on=maint_app)
def scan(as_json: bool = JSON_OPTION) -> None:
    """Report what is wrong with the graph and the fix for each finding."""
    with open_store(create=False) as store:
        report = store.maint_scan()
    emit(report, as_json, _render)


@command("fix", on=maint_app)
def fix(
    apply: bool = typer.Option(False, "--apply", help="Make the fixes (default: a dry run)."),
    kind: list[str] = typer.Option([], help="Only findings of this kind (repeat)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Fix what `maint scan` finds; every fix is in the audit log and `maint undo` reverses it."""
    with open_store(create=False) as store:
        report = store.maint_fix(dry_run=not apply, kinds=kind or None)
    emit(report, as_json, _render)


@command("undo", on=maint_app)
def undo(
    fix_id: str = typer.Argument(..., help="The fix id `maint fix --apply` printed."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Reverse one fix (a merge is split again, an expired entity restored)."""
    with open_store(create=False) as store:
        payload = store.maint_undo(fix_id)
    emit(payload, as_json, lambda p: say(f"undone: {p['kind']} {' / '.join(p['names'])}"))
