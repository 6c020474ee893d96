"""`mnemex eval value-keys`: calibrate the thresholds of the key guessed for verb-only statements.

Each labelled case (bench/data/value_cases.txt) is set up in a fresh store (the subject's keys
written keyed), its statement read by the extractor and its value's entity label taken from
analysis, then the ledger's guess is scored: right when it names the expected key, wrong otherwise
(a case labelled `-` is wrong whatever key is guessed). Cases are split in two by position;
thresholds are fitted on one half as for relation names (bench/relations.py: the auto threshold sits
above every wrong guess of the fitting half, the review threshold maximises Youden's J) and reported
on both halves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench import DATA, relations
from mnemex.config import Settings
from mnemex.ledger import infer
from mnemex.ledger.extract import extract_facts
from mnemex.ledger.similarity import for_embedder

Case = tuple[dict[str, str], str, str | None]


def cases() -> list[Case]:
    """(keys, statement, expected key or None) of every labelled case."""
    out: list[Case] = []
    text = (DATA / "value_cases.txt").read_text(encoding="utf-8")
    for line in (line for line in text.splitlines() if line.strip() and not line.startswith("#")):
        keys_text, statement, expected = (part.strip() for part in line.split("|"))
        keys = dict(
            (pair.split("=", 1)[0].strip(), pair.split("=", 1)[1].strip())
            for pair in keys_text.split(";")
            if pair.strip()
        )
        out.append((keys, statement, None if expected == "-" else expected))
    return out


def _category(statement: str, value: str) -> str | None:
    """The entity category analysis gives the value in its statement (spaCy when installed)."""
    from mnemex.analysis.enrich import CATEGORY_BY_LABEL
    from mnemex.analysis.entities import extract

    for mention in extract(statement):
        if mention.text.casefold() == value.casefold():
            return CATEGORY_BY_LABEL.get(mention.label)
    return None


def guessed(case: Case, settings: Settings) -> tuple[str | None, float] | None:
    """(guessed key, confidence) for one case; None when the statement is not verb-only."""
    import mnemex

    keys, statement, _ = case
    triples = extract_facts(statement)
    if len(triples) != 1 or triples[0].negated:
        return None
    if triples[0].relation is not None and not triples[0].implied:
        return None  # the statement names its key: nothing to guess
    triple = triples[0]
    open_all = settings.replace(value_auto_threshold=0.0, value_review_threshold=0.0)
    # The keys are written as named, never mapped onto each other ("birth_city" and "city").
    exact = settings.replace(relation_auto_threshold=1.0, relation_review_threshold=1.0)
    with mnemex.open(":memory:", settings=exact) as store:
        for relation, value in keys.items():
            store.save(
                f"{relation}: {value}", subject=triple.subject, relation=relation, value=value
            )
        similarity = for_embedder(store.engine.embedder)
        category = _category(statement, triple.value)
        with store.backend.read(store.tenant) as tx:
            choice = infer.choose(tx, triple, open_all, similarity, category)[1]
    return choice.relation, choice.confidence


def scored(items: list[Case], settings: Settings) -> list[tuple[float, bool]]:
    """(confidence, right) of each case the extractor reads as verb-only."""
    points = []
    for case in items:
        found = guessed(case, settings)
        if found is not None:
            points.append((found[1], found[0] == case[2]))
    return points


def fit(points: list[tuple[float, bool]]) -> tuple[float, float]:
    """(auto, review) thresholds on a 0.01 grid.

    auto: just above every wrong guess of the fitting half (as for relation names). review: the
    lowest cut below auto that maximises right minus wrong guesses sent to a person or taken,
    counted: a review is worth a person's time unless it is more often wrong than right (left
    alone, the right half of a balanced band would be lost).
    """
    auto = relations.fit(points)[0]
    grid = [step / 100 for step in range(1, round(auto * 100) + 1)]

    def net(cut: float) -> int:
        return sum(1 if right else -1 for score, right in points if score >= cut)

    review = max(grid, key=lambda cut: (net(cut), -cut)) if grid else auto
    return auto, review


def run(embed_model: str, data_dir: Path) -> list[dict[str, Any]]:
    """Thresholds fitted on one half, figures on both halves, for one embedding setting."""
    settings = Settings.load(env={}, data_dir=data_dir).replace(
        embed_model=embed_model, analysis_enrich=False
    )
    every = cases()
    fitting = [c for i, c in enumerate(every) if i % 2 == 0]
    held = [c for i, c in enumerate(every) if i % 2 == 1]
    fit_points = scored(fitting, settings)
    auto, review = fit(fit_points)
    rows = []
    for name, points in (("fit", fit_points), ("held out", scored(held, settings))):
        row = relations.report(points, auto, review)
        rows.append(
            {
                "embed_model": embed_model,
                "set": name,
                "auto_threshold": auto,
                "review_threshold": review,
                "cases": row.pop("pairs"),
                "auto_precision": row.pop("auto_precision"),
                "right_auto": row.pop("same_auto"),
                "right_review": row.pop("same_review"),
                "right_missed": row.pop("same_missed"),
                "wrong_auto": row.pop("different_auto"),
                "wrong_review": row.pop("different_review"),
            }
        )
    return rows
