"""Train the shipped aspect encoder: which attribute does a sentence speak of, as a vector?

    .venv/bin/pip install -r training/reading/requirements.txt
    .venv/bin/python -m training.aspect.train --out held.onnx          # 1: 60% of attributes
    .venv/bin/python -m training.same_attribute.train --aspect held.onnx  # 2: the model on it
    .venv/bin/python -m training.aspect.train --all --epochs 3         # 3: the shipped encoder

MiniLM (all-MiniLM-L6-v2, all six layers, the embedding model's frozen int8 token table, as the
statement reader) fine-tuned as a bi-encoder: a question and the statements of its story (the
attribute it asks, whatever the wording: "Tibber runs Magnus's power" for "Who does Magnus get
his electricity from?") come close; the same person's statements of other attributes move away.
Per question, the subject's statements are the candidates, as at read time; the loss is binary
cross-entropy on a learned scale and bias of the cosine.

The stories are training/assertion/stories*.json (written for training only). Their attributes
are split in two by a hash of the name (`ENCODER`: 60% on the encoder's side). Without `--all`
the encoder learns from its side only and this script prints the AUC of the cosine on the other
side (per question, the subject's statements ranked) for it and for the plain embedding model;
training/same_attribute/train.py then fits the same-attribute model on the other side with
that encoder's cosines, so the model weighs them as they come out on attributes an encoder
never saw. The shipped encoder learns from every attribute (`--all`). Written int8 to `--out`
(default src/mnemex/ledger/data/aspect.onnx).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from mnemex.embed import load_embedder, load_tokenizer
from training.fitting import auc
from training.reading.train import batch, export, minilm, pooled

HERE = Path(__file__).resolve().parent
STORIES = HERE.parent / "assertion"
OUT = HERE.parents[1] / "src" / "mnemex" / "ledger" / "data" / "aspect.onnx"
SEED = 7
EPOCHS = 2
GROUPS = 4  # subjects per step
RATE = 3e-5
MAX_TOKENS = 64
ENCODER = 0.6  # the share of attribute names the encoder learns from


def encoder_side(attribute: str) -> bool:
    """True for the attributes the encoder learns from (a stable hash of the name)."""
    digest = hashlib.sha256(attribute.casefold().encode()).digest()
    return digest[0] / 256 < ENCODER


class Group:
    """One subject's statements (with the story each belongs to) and questions."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.owner: list[int] = []
        self.questions: list[tuple[str, int]] = []
        self.attributes: list[str] = []


def groups(paths: list[Path], keep: Any = None) -> list[Group]:
    """Subjects with more than one story; `keep(attribute)` picks the stories that count."""
    by_subject: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for path in paths:
        for story in json.loads(path.read_text())["stories"]:
            by_subject[(path.stem, story["subject"])].append(story)
    out = []
    for _, stories in sorted(by_subject.items()):
        if len(stories) < 2:
            continue
        group = Group()
        for n, story in enumerate(stories):
            group.attributes.append(story["attribute"])
            for said in story["statements"]:
                group.texts.append(said["text"])
                group.owner.append(n)
            if keep is not None and not keep(story["attribute"]):
                continue
            asked = story["questions"]
            for q in asked.get("current", []):
                group.questions.append((q, n))
            for q in asked.get("past", []) + asked.get("at", []):
                group.questions.append((q["q"], n))
        if group.questions:
            out.append(group)
    return out


def model() -> Any:
    """MiniLM with the embedding model's frozen token table, mean-pooled, unit length."""
    import torch

    class Encoder(torch.nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.encoder = minilm()
            self.scale = torch.nn.Parameter(torch.tensor(10.0))
            self.bias = torch.nn.Parameter(torch.tensor(-5.0))

        def forward(self, embedded: Any, mask: Any) -> Any:
            return torch.nn.functional.normalize(pooled(self.encoder, embedded, mask), dim=-1)

        def embed(self, ids: Any) -> Any:
            return self.encoder.embeddings.word_embeddings(ids)

    return Encoder()


def encode(encoder: Any, texts: list[str], tokenizer: Any) -> Any:
    """The encoder's unit vectors for these texts (a torch tensor, one row each)."""
    ids, mask = batch(texts, tokenizer)
    return encoder(encoder.embed(ids), mask)


def train(train_groups: list[Group], epochs: int = EPOCHS) -> Any:
    """Fine-tune an encoder on these subjects' questions against their statements."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(SEED)
    order = random.Random(SEED)
    tokenizer = load_tokenizer(MAX_TOKENS)
    encoder = model()
    optimiser = torch.optim.AdamW(
        [p for p in encoder.parameters() if p.requires_grad], lr=RATE, weight_decay=0.01
    )
    items = list(train_groups)
    for epoch in range(epochs):
        encoder.train()
        order.shuffle(items)
        started, total, steps = time.time(), 0.0, 0
        for first in range(0, len(items), GROUPS):
            loss = torch.tensor(0.0)
            for group in items[first : first + GROUPS]:
                questions = order.sample(group.questions, min(6, len(group.questions)))
                vectors = encode(encoder, group.texts + [q for q, _ in questions], tokenizer)
                said, asked = vectors[: len(group.texts)], vectors[len(group.texts) :]
                logits = encoder.scale * (asked @ said.T) + encoder.bias
                owner = torch.tensor(group.owner)
                labels = (
                    owner.unsqueeze(0) == torch.tensor([n for _, n in questions]).unsqueeze(1)
                ).float()
                balance = (labels.numel() - labels.sum()) / labels.sum().clamp(min=1.0)
                loss = loss + F.binary_cross_entropy_with_logits(logits, labels, pos_weight=balance)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += float(loss.detach())
            steps += 1
            if steps % 25 == 0:
                print(
                    f"  step {steps}: loss {total / steps:.3f} ({time.time() - started:.0f} s)",
                    flush=True,
                )
        print(
            f"epoch {epoch}: loss {total / max(steps, 1):.3f} ({time.time() - started:.0f} s)",
            flush=True,
        )
    encoder.eval()
    return encoder


def question_auc(test: list[Group], vectors_of: Any) -> float:
    """Mean over questions of the AUC with which the cosine ranks the question's story's
    statements above the subject's others."""
    scores = []
    for group in test:
        said = vectors_of(group.texts)
        asked = vectors_of([q for q, _ in group.questions])
        for (_, n), vector in zip(group.questions, asked, strict=True):
            y = np.array([int(o == n) for o in group.owner])
            if 0 < y.sum() < len(y):
                scores.append(auc(said @ vector, y))
    return float(np.mean(scores))


def torch_vectors(encoder: Any) -> Any:
    import torch

    tokenizer = load_tokenizer(MAX_TOKENS)

    def vectors_of(texts: list[str]) -> np.ndarray:
        with torch.no_grad():
            return np.concatenate(
                [
                    encode(encoder, texts[i : i + 64], tokenizer).numpy()
                    for i in range(0, len(texts), 64)
                ]
            )

    return vectors_of


def plain_vectors() -> Any:
    embedder = load_embedder("minilm-int8")
    assert embedder is not None

    def vectors_of(texts: list[str]) -> np.ndarray:
        out = np.asarray(embedder.embed(texts), dtype=np.float32)
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    return vectors_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", type=Path)
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument(
        "--all", action="store_true", help="learn from every attribute (no held-out check)"
    )
    parser.add_argument("--out", type=Path, default=OUT, help="where the encoder is written")
    args = parser.parse_args()
    paths = args.sets or sorted(STORIES.glob("stories*.json"))
    learn = groups(paths, None if args.all else encoder_side)
    held = groups(paths, lambda a: not encoder_side(a))
    print(f"{len(learn)} subjects to learn from, {len(held)} with held-out attributes")
    probe = held[::4]
    if not args.all:
        plain = question_auc(probe, plain_vectors())
        print(f"held-out attributes, plain embedding: AUC {plain:.3f}", flush=True)
    encoder = train(learn, args.epochs)
    if not args.all:
        tuned = question_auc(probe, torch_vectors(encoder))
        print(f"held-out attributes, fine-tuned: AUC {tuned:.3f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(encoder, args.out, "vectors")
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
