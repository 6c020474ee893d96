"""`mnemex bench ...` and `mnemex eval ...`: benchmarks whose output the README quotes."""

from __future__ import annotations

import sys
from typing import Any

import typer
from rich.table import Table

from mnemex.interfaces.cli._app import JSON_OPTION, app, command, console, emit, err_console

bench_app = typer.Typer(help="Speed and memory benchmarks.", no_args_is_help=True)
eval_app = typer.Typer(help="Quality evaluations on labelled data.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")
app.add_typer(eval_app, name="eval")


def rows_table(rows: list[dict[str, Any]], title: str) -> None:
    """Print a list of flat dicts as one Rich table."""
    if not rows:
        console.print("no rows")
        return
    table = Table(*rows[0].keys(), title=title)
    for row in rows:
        table.add_row(*(str(value) for value in row.values()))
    console.print(table)


def _sizes(text: str) -> list[int]:
    return [int(part) for part in text.replace("_", "").split(",") if part.strip()]


@bench_app.command("core")
def bench_core(
    sizes: str = typer.Option("1000,10000", help="Comma-separated store sizes."),
    queries: int = typer.Option(200, help="Searches per size."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Save throughput and search p50/p95 of the store at each size."""
    from mnemex.eval import bench_core as core

    rows = core.run(_sizes(sizes), queries=queries)
    emit(rows, as_json, lambda r: rows_table(r, "mnemex bench core"))


def markdown_table(rows: list[dict[str, Any]]) -> str:
    """A list of flat dicts as one Markdown table."""
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(str(row[key]) for key in head) + " |" for row in rows]
    return "\n".join(lines)


def _locomo_markdown(report: dict[str, Any]) -> None:
    sys.stdout.write(markdown_table(report["rows"]) + "\n")
    if "usage" in report:
        usage = report["usage"]
        share = usage["later_questions_reusing_a_used_turn"]
        sys.stdout.write(f"\nUsage replay ({share:.0%} of later questions reuse a used turn):\n\n")
        sys.stdout.write(markdown_table(usage["rows"]) + "\n")
    for number, weights in enumerate(report["weights"], start=1):
        sys.stdout.write(f"\nfold {number} weights: {weights}\n")


def _locomo_tables(report: dict[str, Any]) -> None:
    rows_table(report["rows"], "mnemex eval locomo: categories 1-4, held-out rows cross-validated")
    if "usage" in report:
        usage = report["usage"]
        share = usage["later_questions_reusing_a_used_turn"]
        rows_table(usage["rows"], f"usage replay: later half ({share:.0%} reuse a used turn)")
    for number, weights in enumerate(report["weights"], start=1):
        console.print(f"fold {number} weights: {weights}")


@eval_app.command("locomo")
def eval_locomo(
    data: str = typer.Option("../shared/data/locomo10.json", help="Path to locomo10.json."),
    folds: int = typer.Option(5, help="Cross-validation folds over the conversations."),
    tune: bool = typer.Option(True, help="Tune the ranking weights on each fold's training part."),
    usage: bool = typer.Option(True, help="Also run the usage-learning replay."),
    markdown: bool = typer.Option(False, "--markdown", help="Print Markdown tables (README)."),
    cache: str | None = typer.Option(None, help="Embedding cache file (default: user cache)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Turn- and session-level recall on LoCoMo: cross-validated, baseline, ablations."""
    from pathlib import Path

    from mnemex.eval import locomo

    report = locomo.run(
        data,
        k_folds=folds,
        tune_weights=tune,
        usage=usage,
        cache=None if cache is None else Path(cache),
        progress=lambda text: err_console.print(f"[dim]{text}[/dim]"),
    )
    emit(report, as_json, _locomo_markdown if markdown else _locomo_tables)


del command
