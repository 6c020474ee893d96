"""Train the shipped assertion model (numpy logistic regression; no scikit-learn needed).

    python -m training.assertion.train [STORY_SET.json ...]

Statements labelled `assert` or `change` (the subject's own value) are positives, `mention` (a
value named without changing the subject's) negatives, from story sets (schema in
bench/data/README.md; default: training/assertion/stories.json, written for training only).
Folds hold out whole attributes, so the score printed is for attributes the model has not seen;
L2 is picked on those folds, then the model is refit on everything and written to
src/mnemex/ledger/data/assertion.npz. No set that `mnemex eval ledger` scores is read here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from mnemex.embed import load_embedder
from mnemex.ledger.assertion import features
from training.intent.train import fit

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "src" / "mnemex" / "ledger" / "data" / "assertion.npz"
L2_GRID = (3e-5, 1e-4, 3e-4, 1e-3)
FOLDS = 5


def statements(paths: list[Path]) -> tuple[list[str], np.ndarray, list[str]]:
    """Texts, labels (1: sets the subject's value) and each one's attribute."""
    texts, labels, groups = [], [], []
    for path in paths:
        for story in json.loads(path.read_text())["stories"]:
            for said in story["statements"]:
                texts.append(said["text"])
                labels.append(0 if said["kind"] == "mention" else 1)
                groups.append(f"{path.stem}:{story['attribute']}")
    return texts, np.array(labels), groups


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
    paths = [Path(p) for p in argv] or [HERE / "stories.json"]
    texts, y, groups = statements(paths)
    embedder = load_embedder("minilm-int8")
    assert embedder is not None, "the embedding model is needed to train"
    x = features(texts, embedder.embed(texts)).astype(np.float64)
    names = sorted(set(groups))
    fold_of = {name: i % FOLDS for i, name in enumerate(names)}
    fold = np.array([fold_of[g] for g in groups])
    print(f"{len(texts)} statements ({int(y.sum())} assertions), {len(names)} attributes")
    best = (0.0, L2_GRID[0])
    for l2 in L2_GRID:
        oof = np.zeros(len(y))
        for k in range(FOLDS):
            w, b = binary(x[fold != k], y[fold != k], l2)
            oof[fold == k] = x[fold == k] @ w + b
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
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, weights=w, bias=np.float32(b))
    print(f"wrote {OUT} (l2={best[1]:g})")


if __name__ == "__main__":
    main(sys.argv[1:])
