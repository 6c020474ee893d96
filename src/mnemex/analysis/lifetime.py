"""How long a saved message deserves to live: its kind (decay/kinds.py), and a learned check for
explicit save requests that the phrase rules miss.

The kind is a small logistic model over [MiniLM embedding, lexical features] (or the lexical
features alone when the embedding model is off): `lasting` / `one_off` / `chatter`, in
data/lifetime.{npz,json}, trained by training/lifetime/train.py; a message it does not call
lasting still is when the mean of its P(lasting) and that of MiniLM fine-tuned with one head
(data/lasting.onnx, training/lifetime/lasting.py) reaches the floor. The request check is MiniLM
fine-tuned with one head (data/request.onnx, training/lifetime/requests.py), its threshold
chosen out of fold above the look-alikes (at most 0.99: 5 of 887 are above it); without the
embedding model a logistic check of the same kind as the kind model decides. All were trained
on sentences written for that purpose.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from mnemex.analysis import features, phrases
from mnemex.decay import kinds
from mnemex.embed import TunedReader
from mnemex.errors import ModelUnavailableError

LASTING_LABELS = ("lasting", "one_off", "chatter")
Matrix = npt.NDArray[np.float32]
# Lasting from this probability, not only when it leads: losing a lasting fact costs far more
# than keeping a bit of trivia a few months longer (on the dev persona: 60 of 61 must-keep
# memories and 18 of 119 one-offs reach it; at the argmax, 60 and 9).
LASTING_FLOOR = 0.3
UPDATE_CONFIDENCE = 0.6  # as analysis_save_threshold
CHATTER_WORDS = 6  # chatter is short: a longer message is at worst a plain note
CHATTER_FLOOR = 0.8  # and surely chatter ("ok thanks" 1.0, "garden notes: prune the roses" 0.61)
_KIND_OF_INTENT = {"SAVE_PREFERENCE": kinds.PREFERENCE, "SAVE_DECISION": kinds.DECISION}
# A question is no request to keep something ("Remember that time we got lost in Venice?")
# unless it asks the assistant to do something ("Can you note that ...?", "Would you mind
# recording ...?", "Is it possible for you to remember ...?").
_ASKS = ("?",)
_ASKS_YOU = re.compile(
    r"\b(?:can|could|would|will)\s+you\b|\bpossible\s+for\s+you\b|\bany\s+chance\b",
    re.IGNORECASE,
)

# A request is said to the assistant: it names it ("you", "please", "thanks") or opens on a
# verb of keeping or changing what is kept ("Log a migraine for today", "Update my address to
# ..."). A message that does neither ("hire van from Northgate till the new one comes", "GP
# put my ramipril up to 10mg") is a request only when the fine-tuned check is surer
# (`unaddressed_threshold` in request.json). An opening word with a colon is a heading, not a
# verb said to anyone ("Update: Priya is now the head of data science", "Edit: room 4B").
_ADDRESSED = re.compile(
    r"\b(?:you|ya|your|yours|please|pls|plz|kindly|thanks|thank you|cheers|ta)\b|\bu\b(?!\.\w)|"
    r"^\W*(?:(?:ok|okay|so|and|also|oh|hey|hi|btw|just|quick(?: one)?)\W+)*(?:keep|save|store|"
    r"log|record|note|add|put|pop|stick|update|remember|track|file|pin|hold|hang|jot|write|"
    r"register|stash|change|replace|delete|remove|set|swap|scrap|take|tick|cross|mark|"
    r"make a note|memori[sz]e|bookmark|retain|capture|document|context|for (?:the|my) )"
    r"(?![a-z]*\s*:)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Linear:
    """logits = x @ w + b, softmax over the labels."""

    w: Matrix
    b: Matrix

    def probabilities(self, x: Matrix) -> Matrix:
        logits = x @ self.w + self.b
        logits = logits - logits.max()
        exp = np.exp(logits)
        return np.asarray(exp / exp.sum(), dtype=np.float32)


@functools.cache
def load() -> tuple[dict[str, Linear], dict[str, Any]]:
    """The shipped models and their metadata (read once per process)."""
    folder = resources.files("mnemex") / "analysis" / "data"
    meta = json.loads((folder / "lifetime.json").read_text(encoding="utf-8"))
    with (folder / "lifetime.npz").open("rb") as handle:
        arrays = np.load(handle)
        models = {
            name: Linear(
                np.asarray(arrays[f"{name}_w"], dtype=np.float32),
                np.asarray(arrays[f"{name}_b"], dtype=np.float32),
            )
            for name in ("lasting_embed", "lasting_lexical", "request_embed", "request_lexical")
        }
    return models, meta


def _row(task: str, text: str, vector: Matrix | None) -> tuple[Linear, Matrix, str]:
    models, _ = load()
    lexical = features.lexical(text)
    if vector is not None:
        model = models[f"{task}_embed"]
        row = np.concatenate([np.asarray(vector, dtype=np.float32), lexical])
        if row.shape[0] == model.w.shape[0]:
            return model, row, "embed"
    return models[f"{task}_lexical"], lexical, "lexical"


def lasting(text: str, vector: Matrix | None = None) -> dict[str, float]:
    """Probabilities of lasting, one-off and chatter for one message."""
    model, row, _ = _row("lasting", text, vector)
    probs = model.probabilities(row)
    return {label: float(p) for label, p in zip(LASTING_LABELS, probs, strict=True)}


def request_probability(text: str, vector: Matrix | None = None) -> float:
    """The learned probability that a message asks the agent to keep something."""
    model, row, _ = _row("request", text, vector)
    return float(model.probabilities(row)[1])


def learned_request(text: str, found: phrases.Phrases, vector: Matrix | None = None) -> bool:
    """An explicit request the phrase rules missed: the learned check at its shipped threshold,
    never for a message the rules read as a recall request or a negation, nor a question that
    asks nothing of the assistant."""
    if found.save_request or found.recall_request or found.negated:
        return False
    if text.rstrip().endswith(_ASKS) and _ASKS_YOU.search(text) is None:
        return False
    tuned = request_reader() if vector is not None else None
    if tuned is not None:
        check, cuts = tuned
        return bool(check.read([text])[0] >= (cuts[0] if _ADDRESSED.search(text) else cuts[1]))
    _, meta = load()
    model, row, name = _row("request", text, vector)
    return float(model.probabilities(row)[1]) >= float(meta["request_threshold"][name])


def _tuned(name: str) -> tuple[TunedReader, dict[str, Any]] | None:
    """A fine-tuned check shipped as data/<name>.onnx and its metadata (<name>.json); None
    without its file or the embedding model (then the logistic model decides)."""
    folder = resources.files("mnemex") / "analysis" / "data"
    if not (folder / f"{name}.onnx").is_file():
        return None
    meta = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    try:
        return TunedReader((folder / f"{name}.onnx").read_bytes(), name), meta
    except (ImportError, ModelUnavailableError):
        return None


@functools.cache
def request_reader() -> tuple[TunedReader, tuple[float, float]] | None:
    """The fine-tuned request check and its cuts for a message said to the assistant and for
    one that is not (training/lifetime/requests.py)."""
    tuned = _tuned("request")
    if tuned is None:
        return None
    check, meta = tuned
    cut = float(meta["threshold"])
    return check, (cut, max(cut, float(meta.get("unaddressed_threshold", cut))))


@functools.cache
def lasting_reader() -> TunedReader | None:
    """The fine-tuned lasting check (training/lifetime/lasting.py)."""
    tuned = _tuned("lasting")
    return None if tuned is None else tuned[0]


def is_lasting(text: str, probs: dict[str, float], vector: Matrix | None) -> bool:
    """Whether a message is lasting: the logistic model's P(lasting) at least LASTING_FLOOR,
    or, when the fine-tuned check and the embedding model are there, the mean of the two
    models' P(lasting) at least that floor. The check can only add protection, never take
    away what the logistic model keeps: out of fold at 0.3 the mean alone keeps 0.982 of the
    lasting sentences and 0.069 of the one-offs (the logistic model 0.965 and 0.111, the two
    together 0.985 and 0.120), but on a held-out lifetime persona the mean alone let a
    must-keep memory the logistic model had kept be archived."""
    if probs["lasting"] >= LASTING_FLOOR:
        return True
    check = lasting_reader() if vector is not None else None
    return check is not None and (probs["lasting"] + check.read([text])[0]) / 2 >= LASTING_FLOOR


def kind_of(
    text: str,
    *,
    intent: str | None,
    save_request: bool,
    vector: Matrix | None = None,
    confidence: float | None = None,
) -> str:
    """The kind a saved message gets: an explicit request, else lasting (a preference or a
    decision by its intent, else a fact), chatter, or a plain note (one-off or unsure)."""
    if save_request:
        return kinds.REQUEST
    probs = lasting(text, vector)
    if is_lasting(text, probs, vector):
        return _KIND_OF_INTENT.get(intent or "", kinds.FACT)
    if intent == "UPDATE_INFO" and (confidence or 0.0) >= UPDATE_CONFIDENCE:
        # A value that changed was lasting enough to change: the new value is what a later
        # question asks for (on the dev persona: 11 changing or must-keep memories, 10 one-offs).
        return kinds.FACT
    short = len(text.split()) <= CHATTER_WORDS
    if short and probs["chatter"] >= CHATTER_FLOOR:
        return kinds.CHATTER
    return kinds.NOTE
