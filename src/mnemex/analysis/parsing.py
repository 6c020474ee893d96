"""The dependency parse that the ledger reads unread clauses with (ledger/cores.py).

A pipeline of its own (spaCy's tagger, parser and lemmatizer, no NER), loaded on first use:
the entity pipeline (analysis/entities.py) runs without a parser, and most saves never need
one, since the statement patterns read them. A clause costs about 2 ms to parse here.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from typing import Any

from mnemex.analysis.words import SPACY_MODEL, warn_once
from mnemex.ledger.cores import Word

_lock = threading.Lock()


@functools.cache
def _pipeline() -> Any:
    import spacy

    return spacy.load(SPACY_MODEL, exclude=["ner"])


def load_parser() -> Any | None:
    """The parsing pipeline, or None (logged once) when spaCy or its model is missing."""
    with _lock:
        try:
            return _pipeline()
        except (ImportError, OSError, ValueError) as exc:
            warn_once(f"spaCy unavailable, unread clauses stay unread: {exc}")
            return None


def dependencies(texts: Sequence[str]) -> list[list[Word]]:
    """Each text's words with their arcs; empty lists when no parser is available."""
    nlp = load_parser()
    if nlp is None:
        return [[] for _ in texts]
    return [
        [Word(t.text, t.tag_, t.dep_, t.head.i, t.lemma_) for t in doc]
        for doc in nlp.pipe(list(texts))
    ]
