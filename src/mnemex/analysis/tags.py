"""Tag suggestion: short topical labels a person would file a memory under.

Three sources of candidates, each a mechanism rather than a list of sentences:
- the message's nouns, read by spaCy's tagger: single nouns and noun-noun compounds ("allergy",
  "billing database"), never a run that crosses a verb, a name or a preposition, so no tag is a
  piece of the sentence ("alice-switched", "seattle-last" cannot arise);
- a vocabulary of common topical labels (`TOPICS`: editor, allergy, deploy, family, ...) ranked by
  the cosine of their MiniLM embedding to the message's: a label need not be a word of it
  ("peanuts" files under allergy and food);
- the tenant's own tags, which a candidate becomes when it is the same word up to a plural or
  its embedding is close (cosine >= 0.85), and which are candidates themselves when close to the
  message.
Ranked by cosine to the message and diversified by maximal marginal relevance; at most five,
only those above a floor. The intent is not a tag (it is `enrichment["intent"]`). Without an
embedding model, nouns and the vocabulary's exact words are kept in order of appearance.
"""

from __future__ import annotations

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
MAX_TAGS = 4  # at most five by the issue; a fifth was accepted less than a third of the time
MAX_CANDIDATES = 16
MMR_LAMBDA = 0.7  # relevance vs diversity
REUSE_COSINE = 0.85
# Cosine floors to the message (MiniLM), set on the dev set's per-source acceptance.
NOUN_FLOOR = 0.4  # any noun this close to the message
FIRST_NOUN_FLOOR = 0.2  # the message's closest noun
FIRST_TOPIC_FLOOR = 0.25  # the closest topic label
TOPIC_FLOOR = 0.4  # a second topic label, or a tool's kind
TOPIC_PICKS = 2
SOURCES = ("nouns", "topics", "kinds", "names", "tenant")  # "compounds": ablation only
TOPICS = tuple(
    """
    work meetings one-on-one management hiring interviews onboarding offboarding promotion
    feedback performance-review career team reorg leadership deploy release infrastructure
    database frontend backend testing bugs incident outage on-call alerts monitoring logging
    errors security privacy compliance legal performance optimization architecture migration
    upgrade deprecation refactoring tooling code-review documentation design ux product
    project launch beta demo roadmap deadline planning estimates budget finance billing costs
    contract client vendor sales marketing support ownership handover process communication
    ci build automation cloud devops api mobile editor tools config setup dotfiles
    programming scripting learning training conference talk travel trip flights hotel
    vacation packing passport visa commute time-off family kids school parenting partner
    parents siblings friends social birthday anniversary wedding gift holidays pets dog cat
    vet health medical medication allergy diet nutrition food cooking recipes restaurant
    coffee drinks fitness exercise running sleep doctor dentist appointment schedule calendar
    errands shopping groceries returns delivery home repairs chores garden rent moving car
    insurance taxes banking subscription renewal passwords accounts hobbies music books
    reading movies games sports hiking outdoors volunteering events weather reminder
    payments email phone contacts address
    """.split()
)
# Nouns that carry no topic: time words, fillers, the words of asking to remember.
_GENERIC = frozenset(
    """
    thing things stuff lot way time times day days week weeks month months year years today
    tomorrow yesterday morning evening night people someone something anything everything note
    notes reminder mind plan plans idea ideas kind sort bit part number place point fact facts
    update reference future record version end start minute minutes hour hours
    """.split()
)
_NOUN_TAGS = frozenset({"NN", "NNS"})
_WORD = re.compile(r"[A-Za-z][\w+#.-]*[\w+#]|[A-Za-z]")
CATEGORY_BY_INTENT: dict[str, str] = {}  # kept for callers: the intent is no longer a tag


def category(intent: str, labels: Iterable[str], text: str) -> str | None:
    """No category tag: the intent has its own field (kept for the old call sites)."""
    return None


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def noun_candidates(words: Sequence[tuple[str, str]]) -> list[str]:
    """Nouns and noun-noun compounds of tagged words ((text, fine tag) pairs), in order."""
    found: list[str] = []
    run: list[str] = []

    def close() -> None:
        if len(run) >= 2:
            found.append(" ".join(run[-2:]))
        found.extend(run)
        run.clear()

    for text, tag in words:
        word = text.lower()
        ok = tag in _NOUN_TAGS and word.isalpha() and len(word) >= 3
        if ok and word not in STOPWORDS and _singular(word) not in _GENERIC:
            run.append(word)
        else:
            close()
    close()
    return list(dict.fromkeys(found))


def candidates(text: str, names: Sequence[str] = ()) -> list[str]:
    """Lexical candidates when no tagger runs: content words not part of a name."""
    named = {w.lower() for name in names for w in name.split()}
    found = []
    for match in _WORD.finditer(text):
        word = match.group(0).lower()
        if word in STOPWORDS or word in named or word.isdigit() or len(word) < 4:
            continue
        if _singular(word) in _GENERIC or match.group(0)[0].isupper():
            continue
        found.append(word)
    return list(dict.fromkeys(found))[:MAX_CANDIDATES]


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


def _chosen(relevance: Vectors, fixed: int, tools: int, phrases: int) -> list[int]:
    """Indices of the candidates worth suggesting, by how often each kind of candidate is a tag
    a person accepts (measured on the dev set, `mnemex eval enrich --ablate`): a named tool
    (~0.4), the message's nearest topic (~0.45) and a second one only when close, the nouns
    closest to the message; a noun far from it, a second-rank topic or a compound rarely is."""
    keep = [i for i in range(fixed - tools, fixed)]  # tool names
    keep += [i for i in range(fixed - tools) if relevance[i] >= TOPIC_FLOOR]  # kinds
    nouns = sorted(range(fixed, phrases), key=lambda i: -relevance[i])
    keep += [i for rank, i in enumerate(nouns) if relevance[i] >= NOUN_FLOOR or (
        rank == 0 and relevance[i] >= FIRST_NOUN_FLOOR)]  # fmt: skip
    topics = sorted(range(phrases, len(relevance)), key=lambda i: -relevance[i])
    keep += [i for rank, i in enumerate(topics[:TOPIC_PICKS]) if relevance[i] >= (
        FIRST_TOPIC_FLOOR if rank == 0 else TOPIC_FLOOR)]  # fmt: skip
    return sorted(dict.fromkeys(keep), key=lambda i: -relevance[i])


def suggest(
    text: str,
    *,
    vector: Vectors | None,
    embed: EmbedFn | None,
    names: Sequence[str] = (),
    category_tag: str | None = None,
    vocabulary: TagVocabulary | None = None,
    limit: int = MAX_TAGS,
    words: Sequence[tuple[str, str]] | None = None,
    sources: Sequence[str] = SOURCES,
    kinds: Sequence[str] = (),
    tools: Sequence[str] = (),
) -> list[str]:
    """Up to `limit` lowercase tags (`words`: the message's tagged words, when spaCy ran).

    `names` are every name the message says (none is a tag: "Priya" files nothing), `kinds`
    what its technology names are (Neovim: an editor) and `tools` the technology and product
    names themselves, which people do file under ("terraform", "slack")."""
    named = {w for name in names for w in re.split(r"[\s/-]+", name.lower()) if w}
    nouns: list[str] = []
    if "nouns" in sources:
        found = noun_candidates(words) if words is not None else candidates(text, names)
        if "compounds" not in sources:
            found = [n for n in found if " " not in n]
        nouns = [n for n in found if not set(n.split()) & named][:MAX_CANDIDATES]
    kind_words = list(dict.fromkeys(k for k in kinds if "kinds" in sources))
    tool_words = list(
        dict.fromkeys(
            t.lower()
            for t in tools
            if "names" in sources and len(t) <= 20 and t.lower() not in kind_words
        )
    )
    fixed = kind_words + tool_words
    nouns = [n for n in nouns if n not in fixed]
    phrases = fixed + nouns
    known: list[str] = []
    known_vectors: Vectors | None = None
    if "tenant" in sources and vocabulary is not None and vocabulary.loaded and vocabulary.tags:
        known, known_vectors = (
            vocabulary.vectors(embed) if embed else (sorted(vocabulary.tags), None)
        )
    cache = vocabulary.cache if vocabulary is not None else None
    topics = [t for t in TOPICS if t not in phrases] if "topics" in sources else []
    if embed is None or vector is None:
        lowered = {_singular(w) for w in re.findall(r"[a-z]+", text.lower())}
        picked = phrases + [t for t in topics if _singular(t) in lowered]
        lexical = [reuse(normalize_tag(p), None, known, None) for p in picked]
        return list(dict.fromkeys(t for t in lexical if t))[:limit]
    pool = phrases + topics
    if not pool:
        return []
    readable = [p.replace("-", " ") for p in pool]
    vectors = cache.embed(embed, readable) if cache is not None else embed(readable)
    relevance = vectors @ vector
    keep = _chosen(relevance, len(fixed), len(tool_words), len(phrases))
    if not keep:
        return []
    order = mmr(vector, vectors[keep], min(limit, len(keep)))
    tags: list[str] = []
    for j in order:
        i = keep[j]
        tag = reuse(normalize_tag(pool[i]), vectors[i], known, known_vectors)
        if tag and tag not in tags:
            tags.append(tag)
    return tags[:limit]
