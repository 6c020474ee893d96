"""`mnemex bench ...` and `mnemex eval ...`: benchmarks whose output the README quotes."""

from __future__ import annotations

from typing import Any

import typer
from rich.table import Table

from mnemex.interfaces.cli._app import JSON_OPTION, app, command, console, emit

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


@eval_app.command("activation")
def eval_activation(
    embed_model: str = typer.Option("minilm-int8", help='Embedding model, or "none".'),
    as_json: bool = JSON_OPTION,
) -> None:
    """Explicit save/recall detection, intent accuracy, duplicate checks and analyze latency."""
    from mnemex.eval import activation

    report = activation.run(embed_model=embed_model)
    emit(report, as_json, _activation_table)


def _activation_table(report: dict[str, Any]) -> None:
    intent = report["intent"]
    rows = [
        {"figure": "explicit save requests detected", "value": report["explicit_save_recall"]},
        {"figure": "recall requests detected", "value": report["recall_request_recall"]},
        {"figure": "MUST_SAVE false positives", "value": report["must_save_false_positive_rate"]},
        {"figure": "intent accuracy", "value": intent["accuracy"]},
        {"figure": "intent lowest class recall", "value": intent["min_class_recall"]},
        {
            "figure": "intent accuracy (lexical)",
            "value": report["intent_lexical_fallback"]["accuracy"],
        },
        {
            "figure": "dedup false positives (test)",
            "value": report["dedup"]["test"]["false_positive_rate"],
        },
        *({"figure": name, "value": value} for name, value in report["latency_ms"].items()),
    ]
    title = f"mnemex eval activation ({report['messages']} messages, load {report['load_average']})"
    rows_table(rows, title)
    classes = [{"intent": name, **figures} for name, figures in intent["per_class"].items()]
    rows_table(classes, "intent per class (held-out test set)")


del command
