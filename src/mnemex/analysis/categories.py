"""A learned vote on what a named thing is: person, organization, project, place, ...

spaCy's small model labels most unknown capitalised names ORG or PERSON, so a project ("the
Harbor kickoff"), a product or a café came out an organisation. This model reads what the name
looks like (its MiniLM embedding), what the message says around it (the message's embedding),
spaCy's label, where the mention came from, what the words around it say
(`canon.from_context`) and where the name stands (after "the" or "on", opening the sentence),
and gives a category with its probability: a multinomial logistic model trained by
`training/categories/train.py` on labelled sets from several writers. It votes wherever the
rules are weak (a gazetteer entry, a naming context or a company-name tail outweigh it): out of
writer it is right there more often than NER's label at any confidence.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from mnemex.analysis import canon

Vectors = npt.NDArray[np.float32]
EmbedFn = Callable[[Sequence[str]], Vectors]
LABELS = ("PERSON", "ORG", "GPE", "LOC", "PRODUCT", "TECH", "NORP", "FAC", "EVENT", "NAME")
SOURCES = ("pattern", "ruler", "spacy", "fallback", "store")
CONTEXTS = (*canon.CATEGORIES, "none")
_PATH = Path(__file__).with_name("data") / "categories.npz"
_LOCK = threading.Lock()
_MODEL: list[CategoryModel | None] = []


@dataclass(frozen=True)
class Mention:
    """What the model reads of one mention."""

    name: str
    label: str
    source: str
    context: str | None  # canon.from_context's category, or None
    before: str = ""  # the message up to the mention
    after: str = ""  # the message from the end of the mention


# Where a name stands says what it is in any sentence: a determiner ("the Walgreens in
# Evanston") or a preposition of place or medium ("on HealthRoster") rarely comes before a
# person's name; spaCy's small model calls most unknown names that open a sentence people.
_DETERMINER = re.compile(r"\b(?:the|a|an|this|that|these|those|every|each)\s+$", re.IGNORECASE)
_PREPOSITION = re.compile(
    r"\b(?:on|in|at|into|onto|from|via|through|near|inside|off|to)\s+$", re.IGNORECASE
)
_OPENING = re.compile(r"(?:^|[.!?:;\n]\s*)$")
_POSSESSIVE = re.compile(r"^['’]s\b")
_INNER_CAPITAL = re.compile(r"(?<!^Mc)(?<!^Mac)(?<!^O')[a-z][A-Z]")


def shape(mention: Mention) -> list[float]:
    """The mention's features other than the two embeddings."""
    name, label, source, context = mention.name, mention.label, mention.source, mention.context
    words = name.split()
    before = mention.before[-40:]
    return [
        *(float(label == x) for x in LABELS),
        *(float(source == x) for x in SOURCES),
        *(float((context or "none") == x) for x in CONTEXTS),
        float(name == name.lower()),
        float(len(words) > 1),
        float(any(ch.isdigit() for ch in name)),
        float(name.isupper() and len(name) > 1),
        float(bool(_DETERMINER.search(before))),
        float(bool(_PREPOSITION.search(before))),
        float(bool(_OPENING.search(before))),
        float(bool(_POSSESSIVE.match(mention.after))),
        float(bool(_INNER_CAPITAL.search(name))),
    ]


class CategoryModel:
    """Weights over [name embedding, message embedding, shape features] -> categories."""

    def __init__(self, weights: Vectors, bias: Vectors, classes: Sequence[str], sure: Vectors):
        self.weights, self.bias = weights, bias
        self.classes = tuple(classes)
        self.sure = dict(zip(self.classes, (float(v) for v in sure), strict=True))
        # per category, the probability from which its vote counts (above 1: never)

    def probabilities(
        self, names: Vectors, message: Vectors, rows: Sequence[list[float]]
    ) -> Vectors:
        """One row of class probabilities per mention."""
        around = np.repeat(message[None, :], len(names), axis=0)
        x = np.concatenate([names, around, np.asarray(rows, np.float32)], axis=1)
        z = x @ self.weights + self.bias
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        p: Vectors = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
        return p


def model() -> CategoryModel | None:
    """The packaged model (`analysis/data/categories.npz`), or None when it is absent."""
    with _LOCK:
        if not _MODEL:
            learned = None
            if _PATH.exists():
                data = np.load(_PATH)
                learned = CategoryModel(
                    data["weights"], data["bias"], [str(c) for c in data["classes"]],
                    data["sure"],
                )  # fmt: skip
            _MODEL.append(learned)
        return _MODEL[0]


def set_model(learned: CategoryModel | None) -> None:
    """Use `learned` instead of the packaged model (the trainer reads mentions without one)."""
    with _LOCK:
        _MODEL[:] = [learned]


def votes(
    mentions: Sequence[Mention],
    message: Vectors | None,
    phrases: Callable[[Sequence[str]], Vectors] | None,
    trace: list[tuple[Mention, Vectors, Vectors]] | None = None,
) -> list[tuple[str, float] | None]:
    """Each mention's most likely category and its probability (None without a model or an
    embedding). `phrases` embeds the names (cached); `trace` receives each mention with its two
    embeddings (the trainer reads it)."""
    learned = model()
    if not mentions or message is None or phrases is None or (learned is None and trace is None):
        return [None] * len(mentions)
    names = phrases([m.name for m in mentions])
    if trace is not None:
        trace.extend((m, names[i], message) for i, m in enumerate(mentions))
    if learned is None:
        return [None] * len(mentions)
    rows = [shape(m) for m in mentions]
    if learned.weights.shape[0] != names.shape[1] + len(message) + len(rows[0]):
        return [None] * len(mentions)  # another embedding model than the one it was trained on
    p = learned.probabilities(names, message, rows)
    best = [learned.classes[int(b)] for b in p.argmax(axis=1)]
    return [
        (c, float(p[i].max())) if allowed(c, m.name, m.label) else None
        for i, (c, m) in enumerate(zip(best, mentions, strict=True))
    ]


def allowed(category: str, name: str, label: str) -> bool:
    """Whether the model may vote `category`: a single word spaCy did not call a person is
    never made one (the model, trained on people-heavy notes, called brands such as Allianz or
    Dis-Chem people; a two-word name labelled ORG is most often a person it fixes)."""
    return category != "person" or label == "PERSON" or len(name.split()) > 1
