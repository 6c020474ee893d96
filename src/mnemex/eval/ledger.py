"""`mnemex eval ledger`: does search serve the current value of a changed fact, never a stale one?

Builds the world of eval/ledger_data.py for a seed, saves it in time order into fresh stores in
several ways (rows), asks every question and scores the top hits:

- current@1: the top hit names the person and the key's latest value;
- stale@1: the top hit names the person and an older value of the key (and not the latest);
- static recall@5 / two-hop recall@5: the answer is in one of the top five hits;
- p50: median search latency.
"""

from __future__ import annotations

import functools
import random
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from mnemex.config import Settings
from mnemex.eval import ledger_data as data
from mnemex.eval.corpus import sentences
from mnemex.eval.timing import percentile, timed

START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
FILLER_NOTES = 150  # unrelated notes, so a question never has the store to itself


@dataclass(slots=True)
class Statement:
    """One thing said, when, and the key it states (None for filler)."""

    content: str
    when: datetime
    key: tuple[str, str, str] | None = None  # (subject, relation, value)


@dataclass(slots=True)
class Question:
    """A question, what a right answer names, and the values that would be stale."""

    kind: str  # "current" | "static" | "two_hop"
    text: str
    person: str
    answer: str
    stale: list[str] = field(default_factory=list)


@dataclass(slots=True)
class World:
    """Everything a run saves and asks."""

    statements: list[Statement]
    questions: list[Question]


def _their(rng: random.Random) -> str:
    return rng.choice(("their", "her", "his"))


@dataclass(frozen=True, slots=True)
class Wordings:
    """The statement templates a world is told in."""

    first: tuple[str, ...]
    changes: tuple[str, ...]
    by_relation: dict[str, tuple[str, ...]]


BENCHMARK = Wordings(data.FIRST, data.CHANGES, data.CHANGES_BY_RELATION)
UNSEEN = Wordings(data.UNSEEN_FIRST, data.UNSEEN_CHANGES, data.UNSEEN_BY_RELATION)


def _key_history(
    rng: random.Random,
    person: str,
    relation: str,
    world: World,
    start: datetime,
    wordings: Wordings,
) -> None:
    names, values = data.RELATIONS[relation]
    history = rng.sample(values, rng.randint(2, 4) + 1)  # 2-4 changes: 3-5 distinct values
    when = start
    for index, value in enumerate(history):
        if index == 0:
            template = rng.choice(wordings.first)
        else:
            when += timedelta(days=rng.randint(20, 120))
            template = rng.choice(wordings.changes + wordings.by_relation.get(relation, ()))
        text = template.format(
            p=person, r=rng.choice(names), v=value, o=history[max(index - 1, 0)], their=_their(rng)
        )
        world.statements.append(Statement(text, when, (person, relation, value)))
    question = rng.choice(data.QUESTIONS[relation]).format(p=person)
    world.questions.append(Question("current", question, person, history[-1], history[:-1]))


def build(seed: int, keys: int, wordings: Wordings = BENCHMARK) -> World:
    """The statements and questions of one seed."""
    rng = random.Random(seed)
    world = World([], [])
    pairs = [(p, r) for p in data.PEOPLE for r in data.RELATIONS]
    for person, relation in rng.sample(pairs, min(keys, len(pairs))):
        start = START + timedelta(days=rng.randint(0, 60))
        _key_history(rng, person, relation, world, start, wordings)
    facts = [(x, a) for x in data.PROJECTS for a in data.STATIC]
    for project, attribute in rng.sample(facts, 40):
        statement, question, values = data.STATIC[attribute]
        value = rng.choice(values)
        when = START + timedelta(days=rng.randint(0, 400))
        key = (f"Project {project}", attribute, value)
        world.statements.append(Statement(statement.format(x=project, v=value), when, key))
        world.questions.append(Question("static", question.format(x=project), project, value))
    services = rng.sample(data.SERVICES, 20)
    hosts = rng.sample(data.HOSTS, 10)
    for index in range(10):
        a, b, c = services[2 * index], services[2 * index + 1], hosts[index]
        when = START + timedelta(days=rng.randint(0, 400))
        world.statements.append(
            Statement(
                data.CHAIN_DEPENDS.format(a=a, b=b), when, (f"svc-{a}", "depends on", f"svc-{b}")
            )
        )
        world.statements.append(
            Statement(
                data.CHAIN_RUNS.format(b=b, c=c),
                when + timedelta(days=1),
                (f"svc-{b}", "runs on", f"host-{c}"),
            )
        )
        world.questions.append(
            Question("two_hop", data.CHAIN_QUESTION.format(a=a), f"svc-{a}", f"host-{c}")
        )
    for index, text in enumerate(sentences(FILLER_NOTES, seed=seed)):
        when = START + timedelta(days=index * 400 / FILLER_NOTES)
        world.statements.append(Statement(text, when))
    world.statements.sort(key=lambda s: s.when)
    return world


def _names(text: str, phrase: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text, re.IGNORECASE) is not None


Search = Callable[[str, int], list[str]]


def score(world: World, search: Search) -> dict[str, float]:
    """The metrics of one row: ask every question through `search` (texts of the top hits)."""
    counts = {"current": 0, "stale": 0, "static": 0, "two_hop": 0}
    totals = {"current": 0, "static": 0, "two_hop": 0}
    latencies: list[float] = []
    for question in world.questions:
        texts, ms = timed(functools.partial(search, question.text, 5))
        latencies.append(ms)
        totals[question.kind] += 1
        if question.kind == "current":
            top = texts[0] if texts else ""
            about = _names(top, question.person)
            if about and _names(top, question.answer):
                counts["current"] += 1
            elif about and any(_names(top, old) for old in question.stale):
                counts["stale"] += 1
        elif any(_names(t, question.answer) for t in texts[:5]):
            counts[question.kind] += 1
    return {
        "current@1": counts["current"] / max(totals["current"], 1),
        "stale@1": counts["stale"] / max(totals["current"], 1),
        "static@5": counts["static"] / max(totals["static"], 1),
        "two_hop@5": counts["two_hop"] / max(totals["two_hop"], 1),
        "p50_ms": percentile(latencies, 50),
    }


class _Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def _store_row(world: World, settings: Settings, keyed: bool) -> dict[str, float]:
    """Save the world into a fresh store (keyed or as plain text) and score its search."""
    import mnemex

    clock = _Clock()
    with mnemex.open(":memory:", settings=settings, clock=clock) as store:
        for statement in world.statements:
            clock.now = statement.when
            if keyed and statement.key is not None:
                subject, relation, value = statement.key
                store.save(statement.content, subject=subject, relation=relation, value=value)
            else:
                store.save(statement.content)
        clock.now = world.statements[-1].when + timedelta(days=1)
        return score(world, lambda q, k: [h.memory.content for h in store.search(q, k=k)])


def _vector_row(world: World, settings: Settings) -> dict[str, float] | None:
    """Every statement embedded, questions answered by cosine alone (no ledger, no time)."""
    from mnemex.retrieval.embed import load_embedder

    embedder = load_embedder(settings.embed_model)
    if embedder is None:
        return None
    texts = [s.content for s in world.statements]
    matrix = embedder.embed(texts)

    def search(query: str, k: int) -> list[str]:
        cosines = matrix @ embedder.embed([query])[0]
        return [texts[i] for i in np.argsort(-cosines)[:k]]

    return score(world, search)


def rows(seed: int, keys: int, base: Settings) -> list[dict[str, Any]]:
    """Every row (and ablation) for one seed."""
    world = build(seed, keys)
    plain = base.replace(ledger_extract=False)
    variants: list[tuple[str, Callable[[], dict[str, float] | None]]] = [
        ("vector only", lambda: _vector_row(world, base)),
        ("notes, no ledger", lambda: _store_row(world, plain, keyed=False)),
        ("keyed ledger", lambda: _store_row(world, base, keyed=True)),
        ("unkeyed + extraction", lambda: _store_row(world, base, keyed=False)),
        (
            "unkeyed + extraction, unseen wordings",
            lambda: _store_row(build(seed, keys, UNSEEN), base, keyed=False),
        ),
        (
            "ablation: keyed, no ledger answers in search",
            lambda: _store_row(world, base.replace(ledger_search=False), keyed=True),
        ),
        (
            "ablation: extraction, no ledger answers in search",
            lambda: _store_row(world, base.replace(ledger_search=False), keyed=False),
        ),
        (
            "ablation: extraction, no relation mapping",
            lambda: _store_row(
                world,
                base.replace(relation_auto_threshold=1.0, relation_review_threshold=1.0),
                keyed=False,
            ),
        ),
    ]
    out = []
    for name, run in variants:
        result = run()
        if result is not None:
            out.append({"row": name, "seed": seed, **result})
    return out


def run(
    seeds: list[int], keys: int, data_dir: Path, embed_model: str | None = None
) -> list[dict[str, Any]]:
    """Rows averaged over seeds, with the min-max spread of each metric."""
    base = Settings.load(env={}, data_dir=data_dir)
    if embed_model is not None:
        base = base.replace(embed_model=embed_model)
    per_seed = [row for seed in seeds for row in rows(seed, keys, base)]
    names = list(dict.fromkeys(row["row"] for row in per_seed))
    summary = []
    for name in names:
        group = [row for row in per_seed if row["row"] == name]
        line: dict[str, Any] = {"row": name, "seeds": len(group)}
        for metric in ("current@1", "stale@1", "static@5", "two_hop@5", "p50_ms"):
            values = [row[metric] for row in group]
            mean = statistics.fmean(values)
            digits = 2 if metric == "p50_ms" else 3
            line[metric] = round(mean, digits)
            line[metric + " spread"] = f"{min(values):.{digits}f}-{max(values):.{digits}f}"
        line["embed_model"] = base.embed_model
        summary.append(line)
    return summary
