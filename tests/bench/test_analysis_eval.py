"""`mnemex eval activation`: its data, its figures and its command."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bench import activation
from mnemex.analysis.intent import INTENTS
from mnemex.interfaces.cli import app


def test_held_out_data_is_labelled_and_balanced() -> None:
    rows = activation.messages()
    assert len(rows) >= 200
    assert {r.intent for r in rows} == set(INTENTS)
    assert {r.flag for r in rows} == {"S", "R", "-"}
    assert sum(r.flag == "S" for r in rows) >= 15
    test, dev = activation.dedup_pairs("test"), activation.dedup_pairs("dev")
    assert {p[0] for p in test} == {p[0] for p in dev} == {"DUP", "REL"}
    assert not {(p[1], p[2]) for p in test} & {(p[1], p[2]) for p in dev}


def test_held_out_messages_never_appear_in_training_data() -> None:
    train = Path(__file__).resolve().parents[2] / "training" / "intent" / "train.jsonl"
    lines = train.read_text(encoding="utf-8").splitlines()
    seen = {json.loads(line)["text"].casefold() for line in lines}
    # Formulaic two-word greetings ("Thank you!") may coincide by chance; nothing longer may.
    held_out = {r.text.casefold() for r in activation.messages() if len(r.text.split()) > 2}
    assert not held_out & seen


def test_per_class_figures() -> None:
    table = activation.per_class(["A", "A", "B"], ["A", "B", "B"], ["A", "B"])
    assert table["A"] == {"precision": 1.0, "recall": 0.5, "support": 2}
    assert table["B"] == {"precision": 0.5, "recall": 1.0, "support": 1}


def test_lexical_run_meets_the_explicit_request_targets() -> None:
    report = activation.run(embed_model="none", saves=False)
    assert report["explicit_save_recall"] == 1.0
    assert report["must_save_false_positive_rate"] < 0.01
    assert set(report["latency_ms"]) >= {"analyze_p50", "analyze_p95", "model_load"}
    assert report["intent"]["per_class"].keys() == set(INTENTS)


def test_command_is_registered() -> None:
    result = CliRunner().invoke(app, ["eval", "activation", "--help"])
    assert result.exit_code == 0 and "intent" in result.output
