"""Train the shipped intent classifier (numpy logistic regression; no scikit-learn needed).

    python training/intent/generate.py && python training/intent/train.py

1. Split train.jsonl by template: 20% of each class's templates form a dev split (whole templates
   held out, so the dev score measures wording the model has not seen).
2. Pick the L2 strength on the dev split, fit the softmax temperature on the dev split (min NLL).
3. Refit on all examples with that L2 and write src/mnemex/analysis/data/intent.{npz,json}.
The held-out test set (bench/data/activation_test.txt) is never read here.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from mnemex.analysis import features
from mnemex.analysis.intent import INTENTS
from mnemex.embed import load_embedder

HERE = Path(__file__).resolve().parent
OUT = HERE.parents[1] / "src" / "mnemex" / "analysis" / "data"
SEED = 7
L2_GRID = (1e-5, 3e-5, 1e-4, 3e-4, 1e-3)
EPOCHS = 400


def fit(x: np.ndarray, y: np.ndarray, l2: float, classes: int) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial logistic regression by full-batch Adam (deterministic)."""
    w = np.zeros((x.shape[1], classes), dtype=np.float64)
    b = np.zeros(classes, dtype=np.float64)
    onehot = np.eye(classes)[y]
    m = [np.zeros_like(w), np.zeros_like(b)]
    v = [np.zeros_like(w), np.zeros_like(b)]
    rate, beta1, beta2 = 0.05, 0.9, 0.999
    for step in range(1, EPOCHS + 1):
        logits = x @ w + b
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        delta = (probs - onehot) / len(x)
        grads = [x.T @ delta + l2 * w, delta.sum(axis=0)]
        for i, (param, grad) in enumerate(zip((w, b), grads, strict=True)):
            m[i] = beta1 * m[i] + (1 - beta1) * grad
            v[i] = beta2 * v[i] + (1 - beta2) * grad * grad
            m_hat = m[i] / (1 - beta1**step)
            v_hat = v[i] / (1 - beta2**step)
            param[...] -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)
    return w, b


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax."""
    logits = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(logits)
    return np.asarray(exp / exp.sum(axis=1, keepdims=True))


def temperature(logits: np.ndarray, y: np.ndarray) -> float:
    """The softmax temperature with the lowest negative log-likelihood on (logits, y)."""
    best, best_nll = 1.0, float("inf")
    for t in np.arange(0.2, 5.01, 0.05):
        probs = softmax(logits / t)
        nll = float(-np.log(probs[np.arange(len(y)), y] + 1e-12).mean())
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def ece(probs: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error of the top-class confidence."""
    conf = probs.max(axis=1)
    right = probs.argmax(axis=1) == y
    total = 0.0
    for low in np.linspace(0, 1, bins, endpoint=False):
        mask = (conf > low) & (conf <= low + 1 / bins)
        if mask.any():
            total += mask.mean() * abs(conf[mask].mean() - right[mask].mean())
    return float(total)


def split(rows: list[dict[str, str]]) -> tuple[list[int], list[int]]:
    """Indices of train and dev rows; dev holds 20% of each class's templates."""
    rng = random.Random(SEED)
    dev_templates: set[str] = set()
    for intent in INTENTS:
        templates = sorted({r["template"] for r in rows if r["intent"] == intent})
        rng.shuffle(templates)
        dev_templates.update(templates[: max(1, len(templates) // 5)])
    train = [i for i, r in enumerate(rows) if r["template"] not in dev_templates]
    dev = [i for i, r in enumerate(rows) if r["template"] in dev_templates]
    return train, dev


def train_model(x: np.ndarray, y: np.ndarray, tr: list[int], dev: list[int]) -> dict[str, Any]:
    """Choose L2 and temperature on dev, refit on everything; weights plus dev figures."""
    classes = len(INTENTS)
    scores = []
    for l2 in L2_GRID:
        w, b = fit(x[tr], y[tr], l2, classes)
        accuracy = float(((x[dev] @ w + b).argmax(axis=1) == y[dev]).mean())
        scores.append((accuracy, -l2, w, b))
    accuracy, neg_l2, w, b = max(scores, key=lambda s: (s[0], s[1]))
    dev_logits = x[dev] @ w + b
    t = temperature(dev_logits, y[dev])
    calibrated = softmax(dev_logits / t)
    w_all, b_all = fit(x, y, -neg_l2, classes)
    return {
        "w": w_all.astype(np.float32),
        "b": b_all.astype(np.float32),
        "temperature": t,
        "l2": -neg_l2,
        "dev_accuracy": round(accuracy, 4),
        "dev_ece_raw": round(ece(softmax(dev_logits), y[dev]), 4),
        "dev_ece": round(ece(calibrated, y[dev]), 4),
    }


def main() -> None:
    """Train both models and write the package data."""
    rows = [json.loads(line) for line in (HERE / "train.jsonl").read_text().splitlines()]
    y = np.array([INTENTS.index(r["intent"]) for r in rows])
    texts = [r["text"] for r in rows]
    lexical = np.stack([features.lexical(t) for t in texts]).astype(np.float64)
    embedder = load_embedder("minilm-int8")
    assert embedder is not None
    start = time.perf_counter()
    vectors = embedder.embed(texts).astype(np.float64)
    print(f"embedded {len(texts)} texts in {time.perf_counter() - start:.1f}s")
    tr, dev = split(rows)
    print(f"train {len(tr)}  dev {len(dev)} (held out by template)")
    results = {
        "embed": train_model(np.hstack([vectors, lexical]), y, tr, dev),
        "lexical": train_model(lexical, y, tr, dev),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    arrays = {}
    for name, result in results.items():
        arrays[f"{name}_w"] = result.pop("w")
        arrays[f"{name}_b"] = result.pop("b")
        print(name, result)
    np.savez_compressed(OUT / "intent.npz", **arrays)
    meta = {
        "labels": list(INTENTS),
        "hash_dims": features.HASH_DIMS,
        "flags": features.FLAG_NAMES,
        "embedding_model": embedder.model_id,
        "examples": len(rows),
        "temperature": {name: r["temperature"] for name, r in results.items()},
        "dev": {name: r for name, r in results.items()},
    }
    (OUT / "intent.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
