"""Train the shipped assertion model (numpy logistic regression; no scikit-learn needed).

    python -m training.assertion.train [STORY_SET.json ...]

Statements labelled `assert` or `change` (the subject's own value) are positives, `mention` (a
value named without changing the subject's) negatives, from story sets (schema in
bench/data/README.md; default: training/assertion/stories*.json, written for training only).
Folds hold out whole attributes, so the score printed is for attributes the model has not seen;
only the word n-grams that statements of three or more attributes use are read (`SPREAD`);
L2 is picked on those folds, then the model is refit on everything and written to
src/mnemex/ledger/data/assertion.npz. No set that `mnemex eval ledger` scores is read here.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from mnemex.embed import load_embedder
from mnemex.ledger.assertion import features, ngrams
from training.intent.train import fit

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "src" / "mnemex" / "ledger" / "data" / "assertion.npz"
L2_GRID = (3e-5, 1e-4, 3e-4, 1e-3)
FOLDS = 5
SPREAD = 3  # an n-gram is read only when statements of this many attributes use it


def statements(paths: list[Path]) -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    """Texts, labels (1: sets the subject's value), each one's attribute, and its kind."""
    texts, labels, groups, kinds = [], [], [], []
    for path in paths:
        for story in json.loads(path.read_text())["stories"]:
            for said in story["statements"]:
                texts.append(said["text"])
                labels.append(0 if said["kind"] == "mention" else 1)
                groups.append(f"{path.stem}:{story['attribute']}")
                kinds.append(said["kind"])
    return texts, np.array(labels), groups, np.array(kinds)


def vocabulary(texts: list[str], groups: list[str], rows: Iterable[int]) -> frozenset[str]:
    """The n-grams of the given statements that `SPREAD` or more attributes share."""
    seen: dict[str, set[str]] = defaultdict(set)
    for i in rows:
        for gram in ngrams(texts[i]):
            seen[gram].add(groups[i])
    return frozenset(gram for gram, where in seen.items() if len(where) >= SPREAD)


def auc(scores: np.ndarray, y: np.ndarray) -> float:
    """Area under the ROC curve (rank statistic)."""
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    positives = y == 1
    n_pos, n_neg = int(positives.sum()), int((~positives).sum())
    return float((ranks[positives].sum() - n_pos * (n_pos + 1) / 2) / max(n_pos * n_neg, 1))


def binary(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, float]:
    """Weights and bias of a two-class softmax, as one logistic model; the classes balanced
    (mentions repeated), so 0.5 sits between them rather than towards the commoner one."""
    repeat = max(1, round(int((y == 1).sum()) / max(int((y == 0).sum()), 1)))
    rows = np.concatenate([np.flatnonzero(y == 1), np.repeat(np.flatnonzero(y == 0), repeat)])
    w, b = fit(x[rows], y[rows], l2, 2)
    return (w[:, 1] - w[:, 0]).astype(np.float32), float(b[1] - b[0])


def main(argv: list[str]) -> None:
    paths = [Path(p) for p in argv] or sorted(HERE.glob("stories*.json"))
    texts, y, groups, kinds = statements(paths)
    embedder = load_embedder("minilm-int8")
    assert embedder is not None, "the embedding model is needed to train"
    vectors = embedder.embed(texts)
    names = sorted(set(groups))
    fold_of = {name: i % FOLDS for i, name in enumerate(names)}
    fold = np.array([fold_of[g] for g in groups])
    # Each fold's vocabulary comes from its training statements alone, as the shipped one will
    # meet attributes it never saw.
    per_fold = [
        features(texts, vectors, vocabulary(texts, groups, np.flatnonzero(fold != k)))
        for k in range(FOLDS)
    ]
    grams = vocabulary(texts, groups, range(len(texts)))
    x = features(texts, vectors, grams).astype(np.float64)
    print(
        f"{len(texts)} statements ({int(y.sum())} assertions), {len(names)} attributes, "
        f"{len(grams)} n-grams shared by {SPREAD}+ attributes"
    )
    best = (0.0, L2_GRID[0])
    for l2 in L2_GRID:
        oof = np.zeros(len(y))
        for k in range(FOLDS):
            xk = per_fold[k].astype(np.float64)
            w, b = binary(xk[fold != k], y[fold != k], l2)
            oof[fold == k] = xk[fold == k] @ w + b
        score = auc(oof, y)
        right = float(((oof >= 0) == (y == 1)).mean())
        mentions = y == 0
        caught = float((oof[mentions] < 0).mean())
        print(
            f"l2={l2:g}: out-of-fold AUC {score:.3f}, accuracy {right:.3f}, "
            f"mentions caught {caught:.3f}"
        )
        for floor in (0.3, 0.5, 0.7, 0.8, 0.9):
            logit = np.log(floor / (1 - floor))
            kept = float((oof[y == 1] >= logit).mean())
            print(
                f"    floor {floor}: assertions kept {kept:.3f}, mentions caught "
                f"{float((oof[mentions] < logit).mean()):.3f}"
            )
        best = max(best, (score, l2))
    w, b = binary(x, y, best[1])
    # The change model: a change (1) against a mention (0), assertions left out. Resolution asks
    # it of a statement that gives a value no earlier statement of the group named.
    told = kinds != "assert"
    changed = (kinds[told] == "change").astype(int)
    best_change = (0.0, L2_GRID[0])
    for l2 in L2_GRID:
        oof = np.zeros(int(told.sum()))
        for k in range(FOLDS):
            train, test = fold[told] != k, fold[told] == k
            xk = per_fold[k][told].astype(np.float64)
            wc, bc = binary(xk[train], changed[train], l2)
            oof[test] = xk[test] @ wc + bc
        score = auc(oof, changed)
        caught = float((oof[changed == 0] < np.log(0.7 / 0.3)).mean())
        print(f"change model l2={l2:g}: out-of-fold AUC {score:.3f}, mentions caught {caught:.3f}")
        best_change = max(best_change, (score, l2))
    wc, bc = binary(x[told], changed, best_change[1])
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        OUT,
        weights=w,
        bias=np.float32(b),
        change_weights=wc,
        change_bias=np.float32(bc),
        grams=np.array(sorted(grams)),
    )
    print(f"wrote {OUT} (l2={best[1]:g}, change l2={best_change[1]:g})")


if __name__ == "__main__":
    main(sys.argv[1:])
