"""`mnemex eval lifetime`: the replay, its figures and its command."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from typer.testing import CliRunner

from bench import lifetime
from mnemex.interfaces.cli import app

PERSONA = {
    "person": "Test Person",
    "start": "2026-01-05",
    "memories": [
        {"id": "m1", "day": 0, "text": "Remember that my partner Sam is allergic to peanuts.",
         "class": "must_keep", "request": True, "questions": ["Is Sam allergic to anything?"]},
        {"id": "m2", "day": 1, "text": "The plumber is coming at 3 today.", "class": "one_off"},
        {"id": "m3", "day": 2, "text": "ok thanks", "class": "chatter"},
        {"id": "m4", "day": 40, "text": "The gym is closed for cleaning this weekend.",
         "class": "one_off"},
    ],
    "prompts": [{"day": d, "text": "what should I cook tonight?"} for d in range(0, 365, 7)],
}  # fmt: skip


def test_a_year_replays_with_monthly_gc(tmp_path: Path) -> None:
    path = tmp_path / "persona.json"
    path.write_text(json.dumps(PERSONA), encoding="utf-8")
    rows = lifetime.run([path], embed_model="none")
    assert [row["month"] for row in rows] == [1, 3, 6, 12]
    last = rows[-1]
    assert last["must_keep@5"] == 1.0 and last["must_keep_archived"] == 0
    assert last["one_off_archived"] == 1.0  # both one-offs are long gone
    assert last["store_size"] == 1  # the request only: chatter and trivia archived
    # The shadow store forgets nothing: its search still finds the request, beside the trivia.
    assert last["ceiling@5"] == 1.0


def test_the_command_prints_personas_and_request_sets(tmp_path: Path) -> None:
    persona = tmp_path / "persona.json"
    persona.write_text(json.dumps(PERSONA), encoding="utf-8")
    requests = tmp_path / "requests.json"
    items = [
        {"text": "Log that we decided to move the retro to Thursdays.", "request": True},
        {"text": "I forgot to record the meeting.", "request": False},
    ]
    requests.write_text(json.dumps({"items": items}), encoding="utf-8")
    args = ["eval", "lifetime", "--persona", str(persona), "--requests", str(requests)]
    result = CliRunner().invoke(app, [*args, "--embed-model", "none", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert len(report["personas"]) == 4
    (checked,) = report["requests"]
    assert (checked["with_learned_recall"], checked["with_learned_false_positives"]) == (1.0, 0)


def test_training_sentences_are_not_taken_from_any_benchmark_set() -> None:
    training = Path(__file__).resolve().parents[2] / "training" / "lifetime"
    written = {
        line.strip().casefold()
        for path in training.glob("*.txt")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    texts: set[str] = set()
    for path in lifetime.DATA.glob("lifetime_persona_*.json"):
        texts |= {m["text"].strip().casefold() for m in lifetime.load(path)["memories"]}
    for path in lifetime.DATA.glob("lifetime_requests_*.json"):
        items = json.loads(path.read_text(encoding="utf-8"))["items"]
        texts |= {item["text"].strip().casefold() for item in items}
    assert {t for t in written & texts if len(t.split()) >= 3} == set()


class _Words:
    """An embedder that reads only which of a few words a text holds."""

    WORDS = ("peanuts", "allergic", "dog", "walk", "car", "blue", "tea", "milk")

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [[float(w in t.lower()) + 0.01 for w in self.WORDS] for t in texts]


def test_embedding_only_ranks_the_must_keeps_by_cosine_alone() -> None:
    """A question whose words the target holds finds it; one about a word no must-keep holds
    ranks the target below five others with more in common."""
    keep = [
        {"id": "t", "class": "must_keep", "text": "Sam is allergic to peanuts",
         "questions": ["allergic to peanuts?", "tea or milk?"]},
        *({"id": f"o{i}", "class": "must_keep", "text": "tea with milk " + "x" * i,
           "questions": []} for i in range(5)),
        {"id": "n", "class": "one_off", "text": "Sam is allergic to peanuts"},
    ]  # fmt: skip
    store = SimpleNamespace(engine=SimpleNamespace(embedder=_Words()))
    run = SimpleNamespace(
        persona={"memories": keep}, store=store, saved={m["id"]: m["id"] for m in keep}
    )
    assert lifetime._embedding_only(run) == 0.5
    store.engine.embedder = None
    assert lifetime._embedding_only(run) is None
