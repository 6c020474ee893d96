"""How alike two relation names are: lexical cues, plus sentence embeddings when available.

Lexical cues always work; when an embedding model is configured the score blends in the cosine of
the two phrases' sentence embeddings. The thresholds that act on the score are settings,
calibrated on the labelled pairs in eval/relation_pairs.py for each mode.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from mnemex.temporal.relations import expanded, lexical_similarity

if TYPE_CHECKING:
    from mnemex.retrieval.embed import Embedder

# Share of the blended score that comes from the embeddings' cosine (the rest from lexical cues):
# lexical cues are exact but blind to synonyms ("city" / "hometown"); cosine sees synonyms but
# also rates opposites ("home city" / "birth city") high, so neither decides alone.
EMBED_SHARE = 0.5


# Vectors a store kept of phrases embedded before, by phrase (see EmbeddingSimilarity.warm).
Stored = Callable[[Sequence[str]], dict[str, Any]]
_CACHE = 20_000  # phrase vectors kept in memory


def nothing_stored(texts: Sequence[str]) -> dict[str, Any]:
    """No store to read from: every phrase is embedded."""
    return {}


class Similarity(Protocol):
    """Scores in [0, 1]; `mode` names what the score is made of (thresholds depend on it)."""

    mode: str

    def relations(self, a: str, b: Sequence[str]) -> list[float]: ...

    def values(self, a: str, b: Sequence[str]) -> list[float] | None: ...

    def warm(self, texts: Sequence[str], stored: Stored = nothing_stored) -> None: ...

    def collecting(self) -> AbstractContextManager[dict[str, Any]]: ...


class LexicalSimilarity:
    """Relation names compared by their words only."""

    mode = "lexical"

    def relations(self, a: str, b: Sequence[str]) -> list[float]:
        """Similarity of `a` to each name in `b`."""
        return [lexical_similarity(a, other) for other in b]

    def values(self, a: str, b: Sequence[str]) -> list[float] | None:
        """No similarity of value strings without a model."""
        return None

    def warm(self, texts: Sequence[str], stored: Stored = nothing_stored) -> None:
        """Nothing to prepare: words are compared as they come."""

    @contextmanager
    def collecting(self) -> Iterator[dict[str, Any]]:
        """Nothing is embedded: nothing to collect."""
        yield {}


class EmbeddingSimilarity(LexicalSimilarity):
    """Lexical cues blended with the cosine of sentence embeddings (any `Embedder`)."""

    mode = "embedding"

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._cache: dict[str, Any] = {}
        self._local = threading.local()  # what `collecting` gathers, per thread

    def _vectors(self, texts: Sequence[str]) -> Any:
        found: dict[str, Any] = {text: self._cache.get(text) for text in texts}
        missing = [text for text, vector in found.items() if vector is None]
        if missing:
            embedded = dict(zip(missing, self.embedder.embed(missing), strict=True))
            found.update(embedded)
            self._keep(embedded)
            collected = getattr(self._local, "collected", None)
            if collected is not None:
                collected.update(embedded)
        return np.stack([found[text] for text in texts])

    def _keep(self, vectors: dict[str, Any]) -> None:
        if len(self._cache) + len(vectors) > _CACHE:
            self._cache.clear()
        self._cache.update(vectors)

    def warm(self, texts: Sequence[str], stored: Stored = nothing_stored) -> None:
        """Have, in one batch, the texts (values, relation phrases) a later comparison needs:
        from `stored` (what a store kept of earlier processes' work), else embedded. A save
        does this before taking the write lock, so no model runs while it is held."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            self._keep(stored(missing))
            self._vectors(missing)

    @contextmanager
    def collecting(self) -> Iterator[dict[str, Any]]:
        """Phrase -> vector of what this thread embeds inside the block (a save keeps them for
        its tenant: another thread's tenant's phrases are not mixed in)."""
        outer = getattr(self._local, "collected", None)
        collected: dict[str, Any] = {}
        self._local.collected = collected
        try:
            yield collected
        finally:
            self._local.collected = outer
            if outer is not None:
                outer.update(collected)

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
