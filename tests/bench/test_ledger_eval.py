"""`mnemex eval ledger` and `mnemex eval relations`: the protocol is built as published and runs."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from datetime import timedelta

from typer.testing import CliRunner

from bench import ledger, ledger_world, relations
from bench.ledger_world import data
from mnemex.interfaces.cli import app
from mnemex.ledger.similarity import LexicalSimilarity


def test_the_world_follows_the_protocol() -> None:
    world = ledger.build(11, 90)
    histories: dict[tuple[str, str], list] = defaultdict(list)  # type: ignore[type-arg]
    for statement in world.statements:
        if statement.key and statement.key[1] in data.RELATIONS:
            histories[statement.key[:2]].append(statement)
    assert len(histories) == 90
    for history in histories.values():
        assert 3 <= len(history) <= 5  # 2-4 changes
        gaps = [b.when - a.when for a, b in itertools.pairwise(history)]
        assert all(timedelta(days=20) <= gap <= timedelta(days=120) for gap in gaps)
        values = [s.key[2] for s in history]
        assert len(set(values)) == len(values)
    kinds = [q.kind for q in world.questions]
    assert (kinds.count("current"), kinds.count("static"), kinds.count("two_hop")) == (90, 40, 10)
    assert ledger.build(11, 90).statements == world.statements  # deterministic per seed


def test_questions_are_not_statements() -> None:
    statements = {s.content for s in ledger.build(3, 90).statements}
    assert not statements & {q.text for q in ledger.build(3, 90).questions}


def test_a_small_run_scores_every_row(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    small = {"FILLER_NOTES": 20, "HELDOUT_PEOPLE": 3, "HELDOUT_USER_KEYS": 3}
    small |= {"HELDOUT_PERSON_KEYS": 2, "HELDOUT_STATIC": 2, "HELDOUT_CHAINS": 2}
    for name, value in small.items():  # every row, on worlds a fraction of the published size
        monkeypatch.setattr(ledger_world, name, value)
    rows = ledger.run([5], 12, tmp_path, embed_model="none")
    assert len(rows) == 12 and all(row["seeds"] == 1 for row in rows)
    by_name = {row["row"]: row for row in rows}
    assert "vector only" not in by_name  # no model, no vector row
    assert by_name["keyed ledger"]["stale@1"] == 0.0
    for row in rows:
        for metric in ("current@1", "stale@1", "static@5", "two_hop@5"):
            assert 0.0 <= row[metric] <= 1.0
        assert row["current@1"] + row["stale@1"] <= 1.0


def test_cli_commands_are_registered() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["eval", "relations", "--embed-model", "none", "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert [row["set"] for row in rows] == ["fit", "held out"]
    assert rows[0]["auto_precision"] == 1.0  # by construction on the fitting half


def test_calibration_keeps_wrong_automatic_mappings_out_of_the_fitting_half() -> None:
    fitting, _ = relations.split(relations.pairs())
    points = relations.scored(fitting, LexicalSimilarity())
    auto, review = relations.fit(points)
    assert review <= auto
    assert all(score < auto for score, same in points if not same)
