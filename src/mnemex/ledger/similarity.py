"""How alike two relation names are: lexical cues, plus sentence embeddings when available.

Lexical cues always work; when an embedding model is configured the score blends in the cosine of
the two phrases' sentence embeddings. The thresholds that act on the score are settings,
calibrated on the labelled pairs in bench/data/relation_pairs.json for each mode.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from mnemex.ledger.relations import expanded, lexical_similarity

if TYPE_CHECKING:
    from mnemex.embed import Embedder

# Share of the blended score that comes from the embeddings' cosine (the rest from lexical cues):
# lexical cues are exact but blind to synonyms ("city" / "hometown"); cosine sees synonyms but
# also rates opposites ("home city" / "birth city") high, so neither decides alone.
EMBED_SHARE = 0.5


# Vectors a store kept of phrases embedded before, by phrase (see EmbeddingSimilarity.reading).
Stored = Callable[[Sequence[str]], dict[str, Any]]
_CACHE = 20_000  # phrase vectors kept in memory


@dataclass(slots=True)
class Collected:
    """The phrases a block compared (see `collecting`): each with its vector, and which of them
    came out of the store; the others are for the store to keep."""

    used: dict[str, Any] = field(default_factory=dict)
    stored: set[str] = field(default_factory=set)

    def unstored(self) -> dict[str, Any]:
        return {text: vector for text, vector in self.used.items() if text not in self.stored}


class Similarity(Protocol):
    """Scores in [0, 1]; `mode` names what the score is made of (thresholds depend on it)."""

    mode: str

    def relations(self, a: str, b: Sequence[str]) -> list[float]: ...

    def values(self, a: str, b: Sequence[str]) -> list[float] | None: ...

    def warm(self, texts: Sequence[str]) -> None: ...

    def reading(self, stored: Stored) -> AbstractContextManager[None]: ...

    def collecting(self) -> AbstractContextManager[Collected]: ...


class LexicalSimilarity:
    """Relation names compared by their words only."""

    mode = "lexical"

    def relations(self, a: str, b: Sequence[str]) -> list[float]:
        """Similarity of `a` to each name in `b`."""
        return [lexical_similarity(a, other) for other in b]

    def values(self, a: str, b: Sequence[str]) -> list[float] | None:
        """No similarity of value strings without a model."""
        return None

    def warm(self, texts: Sequence[str]) -> None:
        """Nothing to prepare: words are compared as they come."""

    @contextmanager
    def reading(self, stored: Stored) -> Iterator[None]:
        """Nothing is embedded: nothing to read."""
        yield

    @contextmanager
    def collecting(self) -> Iterator[Collected]:
        """Nothing is embedded: nothing to collect."""
        yield Collected()


class EmbeddingSimilarity(LexicalSimilarity):
    """Lexical cues blended with the cosine of sentence embeddings (any `Embedder`)."""

    mode = "embedding"

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._cache: dict[str, Any] = {}
        self._local = threading.local()  # per thread: `reading`'s store, what `collecting` gathers

    def _vectors(self, texts: Sequence[str]) -> Any:
        found: dict[str, Any] = {text: self._cache.get(text) for text in texts}
        missing = [text for text, vector in found.items() if vector is None]
        stored = getattr(self._local, "stored", None)
        kept: dict[str, Any] = {}
        if missing and stored is not None:
            kept = stored(missing)
            found.update(kept)
            self._keep(kept)
            missing = [text for text in missing if text not in kept]
        if missing:
            embedded = dict(zip(missing, self.embedder.embed(missing), strict=True))
            found.update(embedded)
            self._keep(embedded)
        collected: Collected | None = getattr(self._local, "collected", None)
        if collected is not None:
            collected.used.update(found)
            collected.stored.update(kept)
        return np.stack([found[text] for text in texts])

    def _keep(self, vectors: dict[str, Any]) -> None:
        if len(self._cache) + len(vectors) > _CACHE:
            self._cache.clear()
        self._cache.update(vectors)

    def warm(self, texts: Sequence[str]) -> None:
        """Have, in one batch, the texts (values, relation phrases) a later comparison needs
        (read from a store inside `reading`, else embedded). A save does this before taking the
        write lock, so no model runs while it is held."""
        if texts:
            self._vectors(texts)

    @contextmanager
    def reading(self, stored: Stored) -> Iterator[None]:
        """Inside the block, this thread looks phrases missing from memory up in `stored` (what
        a store kept of earlier processes' embeddings) before running the model."""
        outer = getattr(self._local, "stored", None)
        self._local.stored = stored
        try:
            yield
        finally:
            self._local.stored = outer

    @contextmanager
    def collecting(self) -> Iterator[Collected]:
        """What this thread compares inside the block (a save keeps it for its tenant: phrases
        another thread compares for another tenant are not mixed in; one this process embedded
        for another store or tenant is kept here too)."""
        outer: Collected | None = getattr(self._local, "collected", None)
        collected = Collected()
        self._local.collected = collected
        try:
            yield collected
        finally:
            self._local.collected = outer
            if outer is not None:
                outer.used.update(collected.used)
                outer.stored.update(collected.stored)

    def relations(self, a: str, b: Sequence[str]) -> list[float]:
        """Lexical similarity blended with embedding cosine, for each name in `b`."""
        if not b:
            return []
        lexical = super().relations(a, b)
        phrases = [phrase(a), *(phrase(name) for name in b)]
        vectors = self._vectors(phrases)
        cosines = vectors[1:] @ vectors[0]
        return [
            (1 - EMBED_SHARE) * lex + EMBED_SHARE * max(0.0, float(cos))
            for lex, cos in zip(lexical, cosines, strict=True)
        ]

    def values(self, a: str, b: Sequence[str]) -> list[float] | None:
        """Cosine of the embedding of value `a` to each value in `b` ("Neovim" / "Vim")."""
        if not b:
            return []
        vectors = self._vectors([a, *b])
        return [float(cos) for cos in vectors[1:] @ vectors[0]]

    def to_relations(self, vector: Any, names: Sequence[str]) -> list[float]:
        """Cosine of an embedded text (a question) to each relation name's phrase."""
        if not names:
            return []
        vectors = self._vectors([phrase(name) for name in names])
        return [float(cos) for cos in vectors @ vector]


def phrase(relation: str) -> str:
    """A relation name as words for an embedding model ("main_db" -> "main database")."""
    return " ".join(expanded(relation))


_LEXICAL = LexicalSimilarity()
_BY_MODEL: dict[int, EmbeddingSimilarity] = {}  # keeps each model's phrase vectors warm


def for_embedder(embedder: Embedder | None) -> Similarity:
    """The similarity for an engine: embeddings blended in when it has a model (one per model)."""
    if embedder is None:
        return _LEXICAL
    found = _BY_MODEL.get(id(embedder))
    if found is None or found.embedder is not embedder:
        found = _BY_MODEL[id(embedder)] = EmbeddingSimilarity(embedder)
    return found
