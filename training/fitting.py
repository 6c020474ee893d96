"""What the numpy-trained models share: a balanced binary logistic fit and the AUC they report."""

from __future__ import annotations

import numpy as np

from training.intent.train import fit


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
