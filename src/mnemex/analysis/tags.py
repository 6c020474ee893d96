"""Tag suggestion: keyphrases ranked by embedding similarity to the message, plus a category.

Candidates are runs of content words (1-2 words) and entity names. With an embedding function
they are ranked by cosine to the message and diversified by maximal marginal relevance; without
one, by a lexical score (names first, then longer and earlier phrases). A keyphrase close to a tag
the store already uses (same word up to a plural, or embedding cosine >= 0.85) becomes that tag.
"""

from __future__ import annotations

import itertools
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from mnemex.limits import normalize_tag
from mnemex.text import STOPWORDS

Vectors = npt.NDArray[np.float32]
EmbedFn = Callable[[Sequence[str]], Vectors]
MAX_TAGS = 5
MAX_CANDIDATES = 12
MMR_LAMBDA = 0.7  # relevance vs diversity
REUSE_COSINE = 0.85
CATEGORY_BY_INTENT = {
    "SAVE_PREFERENCE": "preference",
    "SAVE_DECISION": "decision",
    "SAVE_FACT": "fact",
    "UPDATE_INFO": "update",
}
CATEGORY_BY_LABEL = {
    "PERSON": "person",
    "ORG": "organization",
    "TECH": "tech",
    "PRODUCT": "product",
    "GPE": "place",
    "LOC": "place",
    "EVENT": "event",
}
_WORD = re.compile(r"[A-Za-z][\w+#.-]*[\w+#]|[A-Za-z]")
# Words that carry no topic even though they are not stopwords.
_GENERIC = frozenset(
    """
    remember note keep mind please thanks thing things stuff really like want need know think
    going go make made say said tell told use used using get got also just actually always never
    now new one way lot today tomorrow yesterday time day week month year years people someone
    something anything everything good great nice better best sure okay ok yes yeah forget
    important future reference record save store write down let us prefer decided decide
    """.split()
)


def category(intent: str, labels: Iterable[str], text: str) -> str | None:
    """One category tag: the save intent's kind, else the kind of the first named entity."""
    if intent in CATEGORY_BY_INTENT:
        return CATEGORY_BY_INTENT[intent]
    if re.search(r"\bproject\b", text, re.IGNORECASE):
        return "project"
    for label in labels:
        if label in CATEGORY_BY_LABEL:
            return CATEGORY_BY_LABEL[label]
    return None


def candidates(text: str, names: Sequence[str] = ()) -> list[str]:
    """Keyphrase candidates: entity names, then content-word unigrams and bigrams, in order."""
    runs: list[list[str]] = [[]]
    for match in _WORD.finditer(text):
        word = match.group(0).lower()
        if word in STOPWORDS or word in _GENERIC or word.isdigit() or len(word) < 3:
            runs.append([])
        else:
            runs[-1].append(word)
    found: list[str] = [name.lower() for name in names]
    for run in runs:
        found += [f"{a} {b}" for a, b in itertools.pairwise(run)]
        found += run
    unique = list(dict.fromkeys(f for f in found if f))
    return unique[:MAX_CANDIDATES]


def mmr(query: Vectors, items: Vectors, k: int, lam: float = MMR_LAMBDA) -> list[int]:
    """Maximal marginal relevance: indices of k items relevant to query and unlike each other."""
    relevance = items @ query
    chosen: list[int] = []
    left = list(range(len(items)))
    while left and len(chosen) < k:
        if chosen:
            redundancy = (items[left] @ items[chosen].T).max(axis=1)
        else:
            redundancy = np.zeros(len(left), dtype=np.float32)
        scores = lam * relevance[left] - (1 - lam) * redundancy
        pick = left[int(np.argmax(scores))]
        chosen.append(pick)
        left.remove(pick)
    return chosen


def _lexical_rank(found: Sequence[str], names: Sequence[str], k: int) -> list[str]:
    lowered = {n.lower() for n in names}
    order = sorted(
        range(len(found)),
        key=lambda i: (found[i] not in lowered, -len(found[i].split()), i),
    )
    chosen: list[str] = []
    for i in order:
        words = set(found[i].split())
        if any(words <= set(c.split()) or set(c.split()) <= words for c in chosen):
            continue
        chosen.append(found[i])
        if len(chosen) == k:
            break
    return chosen


class PhraseCache:
    """Embeddings of short phrases (tag candidates, tags), least recently used dropped first."""

    def __init__(self, size: int = 8_192) -> None:
        self.size = size
        self._vectors: OrderedDict[str, Vectors] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, embed: EmbedFn, phrases: Sequence[str]) -> Vectors:
        """Vectors of `phrases` in order; only unseen phrases reach the model (one batch)."""
        with self._lock:
            missing = [p for p in dict.fromkeys(phrases) if p not in self._vectors]
            if missing:
                for phrase, vector in zip(missing, embed(missing), strict=True):
                    self._vectors[phrase] = vector
            for phrase in phrases:
                self._vectors.move_to_end(phrase)
            rows = np.stack([self._vectors[p] for p in phrases])
            while len(self._vectors) > self.size:
                self._vectors.popitem(last=False)
            return rows


class TagVocabulary:
    """Tags the store already uses; their embeddings come from the phrase cache."""

    def __init__(self, cache: PhraseCache | None = None) -> None:
        self.tags: set[str] = set()
        self.loaded = False
        self.cache = cache or PhraseCache()
        self.lock = threading.RLock()

    def add(self, tags: Iterable[str]) -> None:
        """Remember tags (from a save, or the first scan of the store)."""
        with self.lock:
            self.tags.update(tags)

    def vectors(self, embed: EmbedFn) -> tuple[list[str], Vectors | None]:
        """Every known tag and its embedding."""
        with self.lock:
            tags = sorted(self.tags)
        if not tags:
            return [], None
        return tags, self.cache.embed(embed, [t.replace("-", " ") for t in tags])


def reuse(
    tag: str, vector: Vectors | None, known: Sequence[str], known_vectors: Vectors | None
) -> str:
    """The existing tag that `tag` should become, or `tag` itself."""
    if tag in known:
        return tag
    for other in known:
        if other.rstrip("s") == tag.rstrip("s"):
            return other
    if vector is not None and known_vectors is not None and len(known):
        sims = known_vectors @ vector
        best = int(np.argmax(sims))
        if float(sims[best]) >= REUSE_COSINE:
            return known[best]
    return tag


def suggest(
    text: str,
    *,
    vector: Vectors | None,
    embed: EmbedFn | None,
    names: Sequence[str] = (),
    category_tag: str | None = None,
    vocabulary: TagVocabulary | None = None,
    limit: int = MAX_TAGS,
) -> list[str]:
    """Up to `limit` lowercase tags: the category first, then the best keyphrases."""
    found = candidates(text, names)
    room = limit - (1 if category_tag else 0)
    vectors: Vectors | None = None
    if embed is not None and vector is not None and found:
        vectors = vocabulary.cache.embed(embed, found) if vocabulary else embed(found)
        picked = [found[i] for i in mmr(vector, vectors, room)]
    else:
        picked = _lexical_rank(found, names, room)
    known: list[str] = []
    known_vectors: Vectors | None = None
    if vocabulary is not None and vocabulary.loaded and vocabulary.tags:
        known, known_vectors = (
            vocabulary.vectors(embed) if embed else (sorted(vocabulary.tags), None)
        )
    tags = [category_tag] if category_tag else []
    for phrase in picked:
        own = None if vectors is None else vectors[found.index(phrase)]
        tag = reuse(normalize_tag(phrase), own, known, known_vectors)
        if tag and tag not in tags:
            tags.append(tag)
    return tags[:limit]
