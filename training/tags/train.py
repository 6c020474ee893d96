"""Train the shipped tag model: which candidate tags a person would file a memory under.

    .venv/bin/python -m training.tags.train

Data: `training/tags/set_*.json` (messages with entities, categories and tags, duplicate pairs
and a walk-through) and `training/tags/tags_*.json` (messages and tags only), each written by a
separate writer for one persona, none of whom read the engine or the scored sets, and
`bench/data/enrich_dev.json`, the open dev set. `bench/data/enrich_test.json` is never read.
Each set's messages are saved in order into a fresh store, as `mnemex eval enrich` saves them,
and every candidate the tagger weighs
(`tags.pool`: the message's nouns and compounds, its tools and their kinds, the topic labels
closest to it) is a row, labelled 1 when the writer listed it (`bench.enrich.tag_key`: case,
hyphens, a plural, a known name's alias).

1. The topic vocabulary is the seed list (`tags.TOPICS`) and every label at least two writers
   used; a label's prior is its smoothed log-odds of being accepted when it is a candidate.
2. Leave one writer out: vocabulary, priors and weights fitted on the others, the held-out
   writer's candidates scored; the threshold is the lowest probability at which the suggested
   tags reach TARGET precision across every held-out writer, and the per-writer figures are
   printed (the honest estimate for a writer the model never saw). TARGET is 0.5, not the
   issue's 0.7: a careful second labeller who tagged the dev messages blind matched the dev
   labeller's lists 0.667 of the time, and out of writer a 0.7 cut leaves nine messages in ten
   without a tag.
3. Fit on everything, write src/mnemex/analysis/data/tags.json.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

import mnemex
from bench.enrich import tag_key
from mnemex.analysis import tags
from mnemex.config import Settings
from mnemex.limits import normalize_tag
from training.intent.train import fit

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "src" / "mnemex" / "analysis" / "data" / "tags.json"
FEATURES = (
    "relevance", "gap", "first", "second", "in_text", "two_words", "prior", "known",
    *(f"source_{s}" for s in tags.CANDIDATE_SOURCES),
)  # fmt: skip
TARGET = 0.5  # precision the threshold is set for, out of writer (see 2. above)
MIN_WRITERS = 2  # a label joins the topic vocabulary when this many writers used it
SMOOTH = 2.0  # pseudo-counts of the prior towards the overall acceptance rate
L2 = 1e-3


def sets() -> dict[str, list[dict[str, Any]]]:
    """Each writer's messages, by writer."""
    here = Path(__file__).parent
    files = sorted([*here.glob("set_*.json"), *here.glob("tags_*.json")])
    found = {p.stem: json.loads(p.read_text())["messages"] for p in files}
    found["dev"] = json.loads((ROOT / "bench" / "data" / "enrich_dev.json").read_text())["messages"]
    return found


def candidates(messages: list[dict[str, Any]], topics: list[str]) -> list[list[tags.Candidate]]:
    """Every candidate the tagger weighs for each message, saved in order into one store."""
    stub = tags.TagModel(
        {
            "features": [],
            "weights": [],
            "bias": 0.0,
            "threshold": 2.0,
            "priors": {},
            "topics": topics,
        }
    )
    tags.set_model(stub)
    saved = []
    old = tags.TOPIC_CANDIDATES
    tags.TOPIC_CANDIDATES = len(topics)  # every topic, ranked again per fold
    try:
        with mnemex.open(":memory:", settings=Settings.load(env={})) as store:
            analyzer = store.engine.analyzer
            for item in messages:
                analyzer.tag_trace = []
                store.save(item["text"])
                saved.append(analyzer.tag_trace)
    finally:
        tags.TOPIC_CANDIDATES = old
        tags.set_model(None)
    return saved


def restrict(pool: list[tags.Candidate], vocabulary: set[str]) -> list[tags.Candidate]:
    """The pool with only `vocabulary`'s topics, the closest TOPIC_CANDIDATES, ranked again."""
    out = [c for c in pool if c.source != "topic"]
    topics = [c for c in pool if c.source == "topic" and tags.key(c.phrase) in vocabulary]
    topics = sorted(topics, key=lambda c: -c.relevance)[: tags.TOPIC_CANDIDATES]
    out += [replace(c, rank=i) for i, c in enumerate(topics)]
    return out


def vocabulary_and_priors(
    data: dict[str, list[dict[str, Any]]],
    pools: dict[str, list[list[tags.Candidate]]],
    writers: list[str],
) -> tuple[list[str], dict[str, float]]:
    """Topic labels at least MIN_WRITERS of `writers` used, and each candidate key's prior."""
    used: Counter[str] = Counter()
    spelled: Counter[str] = Counter()
    for w in writers:
        used.update({tags.key(t) for m in data[w] for t in m["tags"]})
        spelled.update(normalize_tag(t) for m in data[w] for t in m["tags"])
    common = {}  # each label's key -> the spelling writers used most
    for spelling, _ in spelled.most_common():
        common.setdefault(tags.key(spelling), spelling)
    chosen = {tags.key(t): t for t in tags.TOPICS} | {
        k: common[k] for k, n in used.items() if n >= MIN_WRITERS
    }
    topics = sorted(t for k, t in chosen.items() if k not in tags.INTENT_WORDS)
    accepted: Counter[str] = Counter()
    proposed: Counter[str] = Counter()
    for w in writers:
        for item, pool in zip(data[w], pools[w], strict=True):
            want = {tag_key(t) for t in item["tags"]}
            for c in restrict(pool, set(chosen)):
                proposed[tags.key(c.phrase)] += 1
                accepted[tags.key(c.phrase)] += tag_key(c.phrase) in want
    rate = sum(accepted.values()) / max(sum(proposed.values()), 1)
    priors = {
        k: round(
            math.log((accepted[k] + SMOOTH * rate) / (n - accepted[k] + SMOOTH * (1 - rate))), 4
        )
        for k, n in proposed.items()
        if n >= 2
    }
    return topics, priors


def matrix(
    model: tags.TagModel, data: list[dict[str, Any]], pools: list[list[tags.Candidate]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Feature rows, labels and each row's message index."""
    rows, labels, owners = [], [], []
    vocabulary = {tags.key(t) for t in model.topics}
    for index, (item, pool) in enumerate(zip(data, pools, strict=True)):
        kept = restrict(pool, vocabulary)
        if not kept:
            continue
        want = {tag_key(t) for t in item["tags"]}
        rows.append(model.rows(kept))
        labels += [int(tag_key(c.phrase) in want) for c in kept]
        owners += [index] * len(kept)
    return np.concatenate(rows), np.asarray(labels), np.asarray(owners)


def fitted(
    data: dict[str, list[dict[str, Any]]],
    pools: dict[str, list[list[tags.Candidate]]],
    writers: list[str],
) -> tags.TagModel:
    """A model fitted on `writers` (threshold left at 0.5)."""
    topics, priors = vocabulary_and_priors(data, pools, writers)
    spec: dict[str, Any] = {
        "features": list(FEATURES), "weights": [0.0] * len(FEATURES), "bias": 0.0,
        "threshold": 0.5, "priors": priors, "topics": topics,
    }  # fmt: skip
    model = tags.TagModel(spec)
    xs, ys = [], []
    for w in writers:
        x, y, _ = matrix(model, data[w], pools[w])
        xs.append(x)
        ys.append(y)
    weights, bias = fit(np.concatenate(xs), np.concatenate(ys), L2, 2)
    spec["weights"] = [round(float(v), 5) for v in weights[:, 1] - weights[:, 0]]
    spec["bias"] = round(float(bias[1] - bias[0]), 5)
    return tags.TagModel(spec)


def picked(
    model: tags.TagModel, pool: list[tags.Candidate], threshold: float
) -> list[tuple[str, float]]:
    """The candidates suggest() would keep at `threshold` (no tenant reuse, no near-duplicates
    by embedding: the same key once), with their probabilities."""
    kept = restrict(pool, {tags.key(t) for t in model.topics})
    if not kept:
        return []
    p = model.score(kept)
    out: list[tuple[str, float]] = []
    for i in np.argsort(-p, kind="stable"):
        if p[i] < threshold or len(out) >= tags.MAX_TAGS:
            break
        if tags.key(kept[i].phrase) not in {tags.key(t) for t, _ in out}:
            out.append((kept[i].phrase, float(p[i])))
    return out


def figures(
    rows: list[tuple[list[tuple[str, float]], set[str]]], threshold: float
) -> tuple[float, float, float]:
    """Precision, tags per message and share of messages with an accepted tag at `threshold`."""
    total = ok = covered = 0
    for chosen, want in rows:
        kept = [t for t, p in chosen if p >= threshold]
        good = sum(tag_key(t) in want for t in kept)
        total += len(kept)
        ok += good
        covered += good > 0
    return ok / max(total, 1), total / max(len(rows), 1), covered / max(len(rows), 1)


def _named(values: tuple[float, float, float]) -> dict[str, float]:
    names = ("precision", "tags_per_message", "covered")
    return {n: round(v, 4) for n, v in zip(names, values, strict=True)}


def main() -> None:
    data = sets()
    everything = sorted(
        {normalize_tag(t) for ms in data.values() for m in ms for t in m["tags"]} | set(tags.TOPICS)
    )
    pools = {w: candidates(ms, everything) for w, ms in data.items()}
    writers = sorted(data)
    held: dict[str, list[tuple[list[tuple[str, float]], set[str]]]] = {}
    for w in writers:
        model = fitted(data, pools, [o for o in writers if o != w])
        held[w] = [
            (picked(model, pool, 0.0), {tag_key(t) for t in item["tags"]})
            for item, pool in zip(data[w], pools[w], strict=True)
        ]
    everyone = [r for w in writers for r in held[w]]
    threshold = next(
        (t / 100 for t in range(20, 96) if figures(everyone, t / 100)[0] >= TARGET), 0.95
    )
    print(f"threshold {threshold:.2f} (precision >= {TARGET} out of writer)")
    for w in writers:
        p, n, c = figures(held[w], threshold)
        print(f"  {w:8s} precision {p:.3f}  tags/message {n:.2f}  with an accepted tag {c:.3f}")
    p, n, c = figures(everyone, threshold)
    print(f"  {'all':8s} precision {p:.3f}  tags/message {n:.2f}  with an accepted tag {c:.3f}")
    final = fitted(data, pools, writers)
    spec = {
        "features": final.features, "weights": [float(v) for v in final.weights],
        "bias": final.bias, "threshold": threshold, "priors": final.priors,
        "topics": list(final.topics),
        "trained_on": {w: len(data[w]) for w in writers},
        "out_of_writer": {w: _named(figures(held[w], threshold)) for w in writers},
    }  # fmt: skip
    OUT.write_text(json.dumps(spec, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(final.topics)} topics, {len(final.priors)} priors")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
