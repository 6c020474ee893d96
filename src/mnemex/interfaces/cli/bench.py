"""`mnemex bench ...` and `mnemex eval ...`: benchmarks whose output the README quotes."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from mnemex.interfaces.cli._app import JSON_OPTION, app, command, console, emit, err_console

bench_app = typer.Typer(help="Speed and memory benchmarks.", no_args_is_help=True)
eval_app = typer.Typer(help="Quality evaluations on labelled data.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")
app.add_typer(eval_app, name="eval")


def lab(module: str) -> Any:
    """A module of the benchmark package, bench/: it ships with a checkout, not in the wheel.

    Run from the checkout's root it is importable as is; the console script of an editable
    install finds it beside src/.
    """
    try:
        return importlib.import_module(f"bench.{module}")
    except ModuleNotFoundError as exc:
        if exc.name not in ("bench", f"bench.{module}"):
            raise
    import mnemex

    root = Path(mnemex.__file__).resolve().parents[2]
    if not (root / "bench" / "__init__.py").is_file():
        err_console.print(
            "[red]error[/red]: the benchmarks (bench/) ship with the source checkout, not with "
            "the installed package: run them from a clone"
        )
        raise typer.Exit(2)
    sys.path.insert(0, str(root))
    return importlib.import_module(f"bench.{module}")


def rows_table(rows: list[dict[str, Any]], title: str) -> None:
    """Print a list of flat dicts as one Rich table."""
    if not rows:
        console.print("no rows")
        return
    columns = list(dict.fromkeys(key for row in rows for key in row))  # rows may differ
    table = Table(*columns, title=title)
    for row in rows:
        table.add_row(*(str(row.get(column, "")) for column in columns))
    console.print(table)


BACKEND_OPTION = typer.Option(
    "sqlite", help="Where the stores live: sqlite, or postgresql (a database per store)."
)
POSTGRES_OPTION = typer.Option(
    None,
    help="An administrator's postgresql:// URI for --backend postgresql (it creates a role "
    "and databases); default: an embedded PostgreSQL 18 in a temporary folder.",
)


def _sizes(text: str) -> list[int]:
    return [int(part) for part in text.replace("_", "").split(",") if part.strip()]


@bench_app.command("core")
def bench_core(
    sizes: str = typer.Option("1000,10000", help="Comma-separated store sizes."),
    queries: int = typer.Option(200, help="Searches per size."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Save throughput and search p50/p95 of the store at each size."""
    core = lab("core")

    rows = core.run(_sizes(sizes), queries=queries)
    emit(rows, as_json, lambda r: rows_table(r, "mnemex bench core"))


@bench_app.command("console")
def bench_console(
    runs: int = typer.Option(10, help="Loads of each page."),
    entities: int = typer.Option(2_000, help="Entities of the graph store."),
    markdown: bool = typer.Option(False, "--markdown", help="Print a Markdown table."),
    as_json: bool = JSON_OPTION,
) -> None:
    """The web console in chromium: first load, each view, and the graph at thousands of nodes."""
    rows = lab("console").run(runs, entities)
    if markdown:
        emit({"console": rows}, as_json, _markdown)
        return
    emit(rows, as_json, lambda r: rows_table(r, "mnemex bench console"))


@bench_app.command("graph")
def bench_graph(
    entities: int = typer.Option(50_000, help="Entities of the graph store."),
    edges: int = typer.Option(200_000, help="Random typed relations between them."),
    queries: int = typer.Option(200, help="Depth-2 queries timed (a quarter as many paths)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """store.graph(name, depth=2) and store.path(a, b) latency on a large entity graph."""
    row = lab("graph").run(entities, edges, queries)
    emit(row, as_json, lambda r: rows_table([r], "mnemex bench graph"))


@bench_app.command("ingest")
def bench_ingest(
    chunks: int = typer.Option(10_000, help="Markdown chunks in the synthetic vault."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Ingest throughput, and the re-ingest of the unchanged folder as a share of the first."""
    rows = lab("ingest").throughput(chunks)
    emit(rows, as_json, lambda r: rows_table(r, "mnemex bench ingest"))


@eval_app.command("ingest")
def eval_ingest(as_json: bool = JSON_OPTION) -> None:
    """Planted facts and transcript turns of tests/ingest/data (and the dev set of turns)."""
    result = lab("ingest").evaluate()

    def render(r: dict[str, Any]) -> None:
        rows_table(r["facts"], "planted facts: rank in the top 5, with the citation")
        rows_table([r["transcripts"], r["dev_turns"]], "transcript turns kept (test set, dev set)")
        console.print(f"bad files: {r['problems']}")

    emit(result, as_json, render)


@bench_app.command("http")
def bench_http(
    size: int = typer.Option(10_000, help="Memories in the served store."),
    queries: int = typer.Option(300, help="Sequential searches for the latency figures."),
    clients: int = typer.Option(8, help="Concurrent clients for the throughput figure."),
    seconds: float = typer.Option(5.0, help="How long the concurrent clients run."),
    as_json: bool = JSON_OPTION,
) -> None:
    """POST /v1/search p50/p95 over HTTP and requests/s with concurrent clients."""
    bench = lab("http_load")

    rows = bench.run(size, queries=queries, clients=clients, seconds=seconds)
    emit(rows, as_json, lambda r: rows_table(r, "mnemex bench http"))


@eval_app.command("ledger")
def eval_ledger(
    seed: int = typer.Option(11, help="First seed of the generated world."),
    seeds: int = typer.Option(1, help="How many seeds (seed, seed+1, ...): the spread."),
    keys: int = typer.Option(90, help="Changing (person, relation) keys."),
    embed_model: str | None = typer.Option(
        None, help="Embedding model of the stores ('none': lexical only); default: settings."
    ),
    rows: str = typer.Option(
        "all", help="'worlds' (generated from templates), 'stories' (story sets) or 'all'."
    ),
    stories: str = typer.Option(
        "", help="Story sets: comma-separated paths or bench/data names; default: all of them."
    ),
    ablations: bool = typer.Option(False, help="Story sets also without each mechanism."),
    backend: str = BACKEND_OPTION,
    postgres: str | None = POSTGRES_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Current vs stale facts after changes: current@1, stale@1, past@1, static and two-hop."""
    import tempfile
    from pathlib import Path

    from mnemex.config import Settings

    if rows not in ("all", "worlds", "stories"):
        raise typer.BadParameter("must be all, worlds or stories", param_hint="--rows")
    result: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder, lab("pg_server").backend(backend, postgres):
        if rows in ("all", "worlds"):
            ledger = lab("ledger")
            result += ledger.run(list(range(seed, seed + seeds)), keys, Path(folder), embed_model)
        if rows in ("all", "stories"):
            told = lab("ledger_stories")
            base = Settings.load(env={}, data_dir=Path(folder))
            if embed_model is not None:
                base = base.replace(embed_model=embed_model)
            try:
                paths = told.paths([p for p in stories.split(",") if p.strip()])
            except told.StoryError as err:
                raise typer.BadParameter(str(err), param_hint="--stories") from err
            result += told.run(paths, list(range(seed, seed + seeds)), base, ablations=ablations)
    emit(result, as_json, lambda r: rows_table(r, "mnemex eval ledger"))


@eval_app.command("lifetime")
def eval_lifetime(
    persona: list[Path] = typer.Option(
        [], help="Persona files (default: bench/data/lifetime_persona_*.json)."
    ),
    requests: list[Path] = typer.Option(
        [], help="Request sets (default: bench/data/lifetime_requests_*.json)."
    ),
    reinforcement: bool = typer.Option(
        True, help="Recalls reinforce what they inject (--no-reinforcement to compare)."
    ),
    embed_model: str | None = typer.Option(None, help="Embedding model ('none': lexical only)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """A year in the life: must-keep recall@5, archives and trivia at months 1, 3, 6 and 12."""
    lifetime = lab("lifetime")

    paths = list(persona) or sorted(lifetime.DATA.glob("lifetime_persona_*.json"))
    request_paths = list(requests) or sorted(lifetime.DATA.glob("lifetime_requests_*.json"))
    rows = lifetime.run(
        paths, reinforcement=reinforcement, embed_model=embed_model, say=err_console.print
    )
    checks = [lifetime.score_requests(path, embed_model) for path in request_paths]
    for row in [*rows, *checks]:
        row["missed"] = "; ".join(row["missed"])

    def render(report: dict[str, list[dict[str, Any]]]) -> None:
        rows_table(report["personas"], "mnemex eval lifetime")
        if report["requests"]:
            rows_table(report["requests"], "explicit save requests")

    emit({"personas": rows, "requests": checks}, as_json, render)


def _models(embed_model: str) -> list[str]:
    """The embedding settings an eval runs with: "both" is none and the default model."""
    from mnemex.config import Settings

    default = Settings.load().embed_model
    return list(dict.fromkeys(["none", default] if embed_model == "both" else [embed_model]))


@eval_app.command("relations")
def eval_relations(
    embed_model: str = typer.Option(
        "both", help="'none' (lexical cues), a model name, or 'both' (none and the default)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Calibrate the relation-mapping thresholds on the labelled pairs (fit half / held-out)."""
    relations = lab("relations")

    result = [row for name in _models(embed_model) for row in relations.run_model(name)]
    emit(result, as_json, lambda r: rows_table(r, "mnemex eval relations"))


@eval_app.command("value-keys")
def eval_value_keys(
    embed_model: str = typer.Option(
        "both", help="'none' (no value similarity), a model name, or 'both' (none and the default)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Calibrate the thresholds of keys guessed for verb-only statements (fit half / held-out)."""
    import tempfile

    value_keys = lab("value_keys")

    with tempfile.TemporaryDirectory() as folder:
        result = [row for n in _models(embed_model) for row in value_keys.run(n, Path(folder))]
    emit(result, as_json, lambda r: rows_table(r, "mnemex eval value-keys"))


@eval_app.command("enrich")
def eval_enrich(
    set_path: Path = typer.Option(..., "--set", help="A labelled enrichment set (JSON)."),
    embed_model: str | None = typer.Option(
        None, help="Embedding model of the stores ('none': lexical only); default: settings."
    ),
    misses: bool = typer.Option(False, "--misses", help="Print every error (dev sets only)."),
    ablate: bool = typer.Option(False, "--ablate", help="Tag figures without each tag source."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Entities, categories, tags, duplicate merges and profile facts against a labelled set."""
    enrich = lab("enrich")
    if ablate:
        rows = enrich.ablation(set_path, embed_model=embed_model)
        emit(rows, as_json, lambda r: rows_table(r, "mnemex eval enrich --ablate"))
        return

    report = enrich.run(set_path, embed_model=embed_model, details=misses)

    def render(r: dict[str, Any]) -> None:
        rows_table(enrich.summary_rows(r), f"mnemex eval enrich ({r['set']}, {r['seconds']} s)")
        if misses:
            console.print(enrich.misses_text(r), markup=False, highlight=False)

    emit(report, as_json, render)


@eval_app.command("activation")
def eval_activation(
    embed_model: str = typer.Option("minilm-int8", help='Embedding model, or "none".'),
    as_json: bool = JSON_OPTION,
) -> None:
    """Explicit save/recall detection, intent accuracy, duplicate checks and analyze latency."""
    activation = lab("activation")

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


@bench_app.command("search")
def bench_search(
    sizes: str = typer.Option("10000,100000", help="Comma-separated store sizes."),
    queries: int = typer.Option(200, help="Searches per size."),
    seed: int = typer.Option(11, help="Synthetic corpus seed."),
    keep: Path | None = typer.Option(
        None,
        help="Keep each filled store in this folder and copy it on later runs (filling 100,000 "
        "memories takes ~30 min); empty it after changing how memories are saved.",
    ),
    backend: str = typer.Option(
        "sqlite",
        help="sqlite: the engine against its baselines; postgresql: PostgreSQL beside SQLite "
        "(search, ingest, requests/s with 1, 2 and 4 servers).",
    ),
    postgres: str | None = POSTGRES_OPTION,
    seconds: float = typer.Option(
        8.0, help="--backend postgresql: seconds of load per server count."
    ),
    markdown: bool = typer.Option(False, "--markdown", help="Print Markdown tables."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Search latency vs query embedding, FTS5 and exact baselines; ingest; memory per memory.

    With `--backend postgresql`: the PostgreSQL store beside the SQLite one in the same run."""
    if backend == "postgresql":
        result = lab("backends").run(
            _sizes(sizes),
            postgres=postgres,
            queries=queries,
            seed=seed,
            seconds=seconds,
            keep=keep,
            progress=_note,
        )
        emit(result, as_json, _markdown if markdown else _tables)
        return
    if backend != "sqlite":
        err_console.print(f"[red]error[/red]: --backend must be sqlite or postgresql: {backend}")
        raise typer.Exit(2)
    search = lab("search")

    result = search.run(_sizes(sizes), queries=queries, seed=seed, keep=keep, progress=_note)
    emit(result, as_json, _markdown if markdown else _tables)


@bench_app.command("peers")
def bench_peers(
    cortexgraph_venv: Path = typer.Option(
        Path("/tmp/cgvenv"), help="A venv with cortexgraph==1.2.1 and mcp<2 installed."
    ),
    size: int = typer.Option(10_000, help="Memories in each store."),
    queries: int = typer.Option(200, help="Searches."),
    seed: int = typer.Option(11, help="Synthetic corpus seed."),
    markdown: bool = typer.Option(False, "--markdown", help="Print a Markdown table."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Mnemex and cortexgraph 1.2.1 on the same corpus and questions (skipped without its venv)."""
    peers = lab("peers")

    try:
        rows = peers.run(cortexgraph_venv, size=size, queries=queries, seed=seed)
    except peers.PeerMissing as missing:
        err_console.print(f"[yellow]skipped[/yellow]: {missing}")
        return
    if markdown:
        emit({"peers": rows}, as_json, _markdown)
    else:
        emit(rows, as_json, lambda r: rows_table(r, "mnemex bench peers"))


def _note(text: str) -> None:
    err_console.print(text, style="dim")


def _tables(result: dict[str, list[dict[str, Any]]]) -> None:
    for name, rows in result.items():
        shown = rows
        if rows and len(rows[0]) > 10:  # wide rows read better turned: one line per figure
            shown = [
                {"figure": key, **{_column(row): row[key] for row in rows}}
                for key in rows[0]
                if key not in ("size", "backend")
            ]
        rows_table(shown, f"mnemex bench search: {name}")


def _column(row: dict[str, Any]) -> str:
    """The heading of one row turned into a column: its size, and its backend when it has one."""
    backend = f" {row['backend']}" if "backend" in row else ""
    return f"size {row['size']:,}{backend}"


def _markdown(result: dict[str, list[dict[str, Any]]]) -> None:
    """The tables as Markdown (wide ones turned), ready to paste into the README."""
    for name, rows in result.items():
        if not rows:
            continue
        if len(rows[0]) > 10:
            head = ["figure", *(_column(row).removeprefix("size ") for row in rows)]
            body = [
                [key, *(str(row[key]) for row in rows)]
                for key in rows[0]
                if key not in ("size", "backend")
            ]
        else:
            head = list(rows[0])
            body = [[str(value) for value in row.values()] for row in rows]
        lines = [f"**{name}**", "", "| " + " | ".join(head) + " |"]
        lines.append("|" + "|".join("---" for _ in head) + "|")
        lines += ["| " + " | ".join(cells) + " |" for cells in body]
        console.print("\n".join(lines) + "\n", markup=False, highlight=False, soft_wrap=True)


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
    backend: str = BACKEND_OPTION,
    postgres: str | None = POSTGRES_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Turn- and session-level recall on LoCoMo: cross-validated, baseline, ablations."""
    from pathlib import Path

    locomo = lab("locomo")

    with lab("pg_server").backend(backend, postgres):
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
