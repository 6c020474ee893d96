"""The LoCoMo evaluation: data quirks, metrics, cross-validation and the CLI, on a tiny sample."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bench import locomo, metrics
from bench.locomo_data import clean_evidence, load, memory_text, parse_date
from mnemex.interfaces.cli import app
from tests.fakes import HASH_MODEL


def _sample(name: str, people: tuple[str, str], topics: list[str]) -> dict[str, Any]:
    a, b = people
    sessions: dict[str, Any] = {"speaker_a": a, "speaker_b": b}
    qa = []
    for n, topic in enumerate(topics, start=1):
        sessions[f"session_{n}_date_time"] = f"1:56 pm on {n} May, 2023"
        sessions[f"session_{n}"] = [
            {"speaker": a, "dia_id": f"D{n}:1", "text": f"Hey {b}! I tried {topic} yesterday."},
            {
                "speaker": b,
                "dia_id": f"D{n}:2",
                "text": "Nice, how was it?",
                "blip_caption": "a cat",
            },
            {"speaker": a, "dia_id": f"D{n}:3", "text": f"The {topic} class was tough but fun."},
        ]
        qa.append(
            {
                "question": f"When did {a} try {topic}?",
                "answer": "x",
                "evidence": [f"D{n}:1"],
                "category": 2,
            }
        )
        qa.append(
            {
                "question": f"What did {a} think of {topic}?",
                "answer": "x",
                "evidence": [f"D{n}:3; D{n}:1"],
                "category": 4,
            }
        )
    qa.append(
        {"question": "broken", "answer": "x", "evidence": ["D:11:26", "D99:1"], "category": 1}
    )
    qa.append(
        {"question": "adversarial", "adversarial_answer": "x", "evidence": ["D1:1"], "category": 5}
    )
    sessions["session_99_date_time"] = "1:56 pm on 9 May, 2023"  # a date with no session
    return {"sample_id": name, "conversation": sessions, "qa": qa}


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.json"
    samples = [
        _sample("a", ("Ana", "Ben"), ["pottery", "climbing", "salsa"]),
        _sample("b", ("Cleo", "Dan"), ["chess", "kayaking", "baking"]),
        _sample("c", ("Eva", "Finn"), ["yoga", "surfing", "guitar"]),
    ]
    path.write_text(json.dumps(samples), encoding="utf-8")
    return path


def test_evidence_quirks_are_handled(data: Path) -> None:
    known = {"D8:6", "D9:17", "D1:1"}
    assert clean_evidence(["D8:6; D9:17", "D:11:26", "D30:05", "D1:1,D8:6"], known) == (
        "D8:6",
        "D9:17",
        "D1:1",
    )
    conversation = load(data)[0]
    assert len(conversation.turns) == 9
    assert [q.category for q in conversation.questions] == [2, 4, 2, 4, 2, 4]
    assert conversation.questions[1].evidence == ("D1:3", "D1:1")
    assert memory_text(conversation.turns[1]) == "Ben: Nice, how was it? [shared a photo: a cat]"
    assert parse_date("1:56 pm on 8 May, 2023").isoformat() == "2023-05-08T13:56:00+00:00"


def test_metrics() -> None:
    ranked = ["D1:2", "D2:1", "D1:1", "D3:1"]
    assert metrics.recall_at(ranked, ["D1:1", "D3:1"], 3) == 0.5
    assert metrics.ndcg_at(ranked, ["D1:2"], 10) == 1.0
    assert 0 < metrics.ndcg_at(ranked, ["D1:1"], 10) < 1
    row = metrics.question_metrics(ranked, ["D2:1", "D3:1"], lambda d: int(d[1:].split(":")[0]))
    assert row["S@1"] == 0.0 and row["S@3"] == 1.0 and row["Sall@5"] == 1.0
    assert metrics.mean_rows([]) == {}


def test_cross_validated_report(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(locomo, "SHALLOW", 1)  # the fixture's deep lists find all in five
    report = locomo.run(data, k_folds=3, cache=tmp_path / "cache.db", model=HASH_MODEL)
    labels = [row["row"] for row in report["rows"]]
    assert labels[:3] == [
        "Mnemex, cross-validated",
        "plain BM25 (baseline)",
        "Mnemex, default settings",
    ]
    assert "  no graph" in labels and "  no usage" in labels
    assert all(row["n"] == 18 for row in report["rows"])
    # The row asked for a short list finds nothing past it, where the deep list does.
    deep, shallow = report["rows"][2], report["rows"][3]
    assert shallow["row"].startswith("  asked for 1 ")
    assert shallow["R@20"] == shallow["R@1"] and deep["R@20"] > deep["R@1"]
    assert len(report["weights"]) == 3 and set(report["weights"][0]) == set(locomo.GRID)
    assert report["rows"][0]["R@20"] >= report["rows"][0]["R@1"]
    usage = report["usage"]
    assert [row["n"] for row in usage["rows"]] == [9, 9, 9]
    assert 0.0 <= usage["later_questions_reusing_a_used_turn"] <= 1.0
    assert (tmp_path / "cache.db").exists()


def test_folds_cover_every_conversation_once() -> None:
    assert locomo.folds(5, 2) == [[0, 2, 4], [1, 3]]


def test_cli_runs_the_evaluation(data: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "eval",
            "locomo",
            "--data",
            str(data),
            "--folds",
            "3",
            "--no-tune",
            "--no-usage",
            "--cache",
            str(tmp_path / "c.db"),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["rows"][1]["row"] == "plain BM25 (baseline)"
