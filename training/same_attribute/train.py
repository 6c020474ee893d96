"""Train the shipped same-attribute model (numpy logistic regression).

    python -m training.same_attribute.train [--aspect ENCODER.onnx] [STORY_SET.json ...]

For every question of the story sets (default: the assertion model's training stories,
training/assertion/stories*.json, none of them scored by `mnemex eval ledger`) whose attribute
the aspect encoder did not learn from (training/aspect/train.py), the subject's
statements across all of its stories are the candidates, the one closest to the question the
seed, and a statement is a positive when it belongs to the question's story (its attribute).
Folds hold out whole attributes, so the printed scores are for attributes the model has not
seen; L2 is picked on them, the model refit on everything and written to
src/mnemex/ledger/data/same_attribute.npz. `--aspect`: the encoder whose cosines are the
features, one trained without `--all` (default: the shipped one). The shipped model was fitted
on the cosines of the encoder that learnt from the other attributes alone (`python -m
training.aspect.train --out held.onnx`), so it weighs them as they come out on attributes an
encoder never saw; the shipped encoder then learnt from every attribute (`--all`).
"""

from __future__ import annotations

import json
import random
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from mnemex.embed import load_embedder
from mnemex.ledger import aspects
from mnemex.ledger.attribute import chained, features, tokens
from training.aspect.train import encoder_side
from training.fitting import auc, binary

HERE = Path(__file__).resolve().parent
STORIES = HERE.parent / "assertion"
OUT = HERE.parents[1] / "src" / "mnemex" / "ledger" / "data" / "same_attribute.npz"
L2_GRID = (1e-4, 1e-3, 1e-2)
FOLDS = 5
SMALL = 2  # per question, this many draws of a few of the subject's statements (2 to 5)


def questions(paths: list[Path]) -> list[tuple[list[str], str, set[str], list[int], str]]:
    """(subject's statements, question, subject's name tokens, positives, attribute) per question
    of a subject with more than one story: once with all of them, and `SMALL` times with a few
    (one of the question's story among them), as a store young in a subject's life holds."""
    draw = random.Random(7)
    by_subject: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for path in paths:
        for story in json.loads(path.read_text())["stories"]:
            by_subject[(path.stem, story["subject"])].append(story)
    out = []
    for (_, subject), stories in sorted(by_subject.items()):
        if len(stories) < 2:
            continue
        texts = [s["text"] for story in stories for s in story["statements"]]
        owner = [n for n, story in enumerate(stories) for _ in story["statements"]]
        for n, story in enumerate(stories):
            asked = story["questions"].get("current", []) + [
                q["q"] for q in story["questions"].get("past", [])
            ]
            positives = [i for i, o in enumerate(owner) if o == n]
            for question in asked:
                out.append((texts, question, set(tokens(subject)), positives, story["attribute"]))
                for _ in range(SMALL):
                    size = draw.randint(2, min(5, len(texts) - 1))
                    pick = draw.choice(positives)
                    rest = [i for i in range(len(texts)) if i != pick]
                    kept = sorted([pick, *draw.sample(rest, size - 1)])
                    small = [texts[i] for i in kept]
                    inside = [j for j, i in enumerate(kept) if i in positives]
                    out.append((small, question, set(tokens(subject)), inside, story["attribute"]))
    return out


def main(argv: list[str]) -> None:
    encoder_file = None
    if argv[:1] == ["--aspect"]:
        encoder_file, argv = Path(argv[1]), argv[2:]
    paths = [Path(p) for p in argv] or sorted(STORIES.glob("stories*.json"))
    # The aspect encoder learnt from some of these attributes: fit on the others, so its
    # cosines are weighed as they come out on attributes it never saw.
    asked = [a for a in questions(paths) if not encoder_side(a[4])]
    embedder = load_embedder("minilm-int8")
    encoder = aspects.encoder()
    if encoder_file is not None:
        encoder = aspects.Encoder(encoder_file.read_bytes(), "aspect")
    assert embedder is not None and encoder is not None, "the models are needed to train"
    unique = sorted({t for texts, q, *_ in asked for t in [*texts, q]})
    vectors = dict(zip(unique, embedder.embed(unique), strict=True))
    aspect = dict(zip(unique, encoder.vectors(unique), strict=True))
    rows, labels, attrs, signals = [], [], [], []
    for texts, question, subject, positives, attribute in asked:
        matrix = np.stack([vectors[t] for t in texts]).astype(np.float32)
        pair = (np.stack([aspect[t] for t in texts]), aspect[question][None, :])
        found = features(texts, matrix, question, vectors[question], subject, aspect=pair)
        signals.append(found)
        rows.append(found.rows)
        labels += [int(i in positives) for i in range(len(texts))]
        attrs += [attribute] * len(texts)
    x, y = np.vstack(rows).astype(np.float64), np.array(labels)
    names = sorted(set(attrs))
    fold_of = {name: i % FOLDS for i, name in enumerate(names)}
    fold = np.array([fold_of[a] for a in attrs])
    print(f"{len(asked)} questions, {len(y)} statements ({int(y.sum())} same), {len(names)} attrs")
    oof = out_of_fold(x, y, fold)
    report("first model", oof, y)
    l2 = max(L2_GRID, key=lambda value: auc(oof[value], y))
    w, b = binary(x, y, l2)
    # The second model reads the first's out-of-fold logits, as it will meet unseen attributes.
    sizes = np.cumsum([0] + [len(s.rows) for s in signals])
    x2 = np.vstack(
        [chained(s, oof[l2][sizes[i] : sizes[i + 1]]) for i, s in enumerate(signals)]
    ).astype(np.float64)
    oof2 = out_of_fold(x2, y, fold)
    report("with the chain", oof2, y)
    l2_chain = max(L2_GRID, key=lambda value: auc(oof2[value], y))
    w2, b2 = binary(x2, y, l2_chain)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        OUT,
        weights=w.astype(np.float32),
        bias=np.float32(b),
        chain_weights=w2.astype(np.float32),
        chain_bias=np.float32(b2),
    )
    print(f"wrote {OUT}: weights {np.round(w, 2).tolist()}, bias {b:.2f}")
    print(f"    chain weights {np.round(w2, 2).tolist()}, bias {b2:.2f}")


def out_of_fold(x: np.ndarray, y: np.ndarray, fold: np.ndarray) -> dict[float, np.ndarray]:
    """Each statement's logit from the model fitted without its fold, per L2."""
    oof = {l2: np.zeros(len(y)) for l2 in L2_GRID}
    for k in range(FOLDS):
        for l2 in L2_GRID:
            w, b = binary(x[fold != k], y[fold != k], l2)
            oof[l2][fold == k] = x[fold == k] @ w + b
    return oof


def report(name: str, oof: dict[float, np.ndarray], y: np.ndarray) -> None:
    """Out-of-fold AUC per L2, with precision and recall at a few floors."""
    for l2, scores in oof.items():
        print(f"{name}, l2={l2:g}: out-of-fold AUC {auc(scores, y):.3f}")
        for floor in (0.3, 0.5, 0.7):
            joined = scores >= np.log(floor / (1 - floor))
            print(
                f"    floor {floor}: precision {float(y[joined].mean()):.3f}, "
                f"recall {float(joined[y == 1].mean()):.3f}"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
