"""Train the shipped lasting check: will a saved message still matter in months?

    .venv/bin/pip install -r training/reading/requirements.txt
    .venv/bin/python -m training.lifetime.lasting

MiniLM fine-tuned with one head, as the statement reader and the request check
(training/reading/train.py): the same model, trainer and int8 export, other data. Positives:
lasting*.txt; negatives: one_off*.txt and chatter*.txt (the sentences the logistic kind model of
training/lifetime/train.py learns from). No benchmark persona is read.

1. Five folds out of fold, the same rows for the fine-tuned check and for the logistic kind
   model (its P(lasting)). Shipped, a message is lasting when the logistic model's P(lasting)
   reaches its floor (`analysis/lifetime.py` LASTING_FLOOR, a lost lasting fact costing more
   than kept trivia), or the mean of the two models' does: the check adds protection, never
   takes it away. The share of each kind kept at the floor is printed for each model and for
   the mean. On the first run: lasting kept 0.965 (logistic), 0.965 (fine-tuned), 0.982
   (mean), 0.985 (the shipped rule); one-offs kept 0.111, 0.041, 0.069, 0.120.
2. Fit on everything, write src/mnemex/analysis/data/lasting.onnx and lasting.json (the
   out-of-fold figures).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np

from mnemex.analysis import features
from mnemex.analysis.lifetime import LASTING_FLOOR, LASTING_LABELS
from mnemex.embed import TunedReader, load_embedder
from training.lifetime.train import every_line, fit, softmax
from training.reading import train as tuning

OUT = Path(__file__).resolve().parents[2] / "src" / "mnemex" / "analysis" / "data"
FOLDS = 5
L2 = 1e-4  # the logistic kind model's strength (lifetime.json)


def rows() -> list[dict[str, Any]]:
    """Every kind sentence with its label (1: lasting) and its kind (0 lasting, 1 one-off, 2
    chatter, as LASTING_LABELS)."""
    found = []
    for kind, name in enumerate(("lasting.txt", "one_off.txt", "chatter.txt")):
        found += [
            {"text": text, "label": int(kind == 0), "kind": kind} for text in every_line(name)
        ]
    return found


def folds(n: int) -> list[list[int]]:
    order = list(range(n))
    random.Random(tuning.SEED).shuffle(order)
    return [sorted(order[fold::FOLDS]) for fold in range(FOLDS)]


def out_of_fold(data: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """P(lasting) of each row from the fine-tuned check and the logistic model, neither of
    which saw it."""
    embedder = load_embedder("minilm-int8")
    assert embedder is not None
    texts = [r["text"] for r in data]
    kinds = np.array([r["kind"] for r in data])
    x = np.hstack(
        [
            embedder.embed(texts).astype(np.float64),
            np.stack([features.lexical(t) for t in texts]).astype(np.float64),
        ]
    )
    tuned, logistic = np.zeros(len(data)), np.zeros(len(data))
    for held in folds(len(data)):
        kept = set(held)
        rest = np.array([i for i in range(len(data)) if i not in kept])
        w, b = fit(x[rest], kinds[rest], L2, len(LASTING_LABELS))
        logistic[held] = softmax(x[held] @ w + b)[:, 0]
        model = tuning.train([data[i] for i in rest])
        tuned[held] = tuning.probabilities(model, [texts[i] for i in held])
    return tuned, logistic


def kept(scores: np.ndarray, kinds: np.ndarray, floor: float) -> dict[str, float]:
    """The share of each kind at or above the floor."""
    return {
        label: round(float((scores[kinds == k] >= floor).mean()), 4)
        for k, label in enumerate(LASTING_LABELS)
    }


def main() -> None:
    data = rows()
    kinds = np.array([r["kind"] for r in data])
    tuned, logistic = out_of_fold(data)
    report = {
        "rows": len(data),
        "floor": LASTING_FLOOR,
        "logistic": kept(logistic, kinds, LASTING_FLOOR),
        "tuned": kept(tuned, kinds, LASTING_FLOOR),
        "mean": kept((tuned + logistic) / 2, kinds, LASTING_FLOOR),
    }
    print(report)
    model = tuning.train(data)
    path = OUT / "lasting.onnx"
    tuning.export(model, path)
    shipped = TunedReader(path.read_bytes(), "lasting")
    meta = {"model_id": shipped.model_id, "cv": report}
    (OUT / "lasting.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    tuning.report_gap(model, shipped, path, data)


if __name__ == "__main__":
    main()
