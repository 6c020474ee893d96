"""Tag suggestion: short topical labels a person would file a memory under.

Candidates come from mechanisms rather than lists of sentences:
- the message's nouns and noun-noun compounds, read by spaCy's tagger, never a run that crosses
  a verb, a name or a preposition, so no tag is a piece of the sentence ("alice-switched",
  "seattle-last" cannot arise);
- the technology and product names it says ("terraform", "slack") and what they are (Neovim:
  "editor");
- the topic labels closest to it by MiniLM (`TagModel.topics`: the seed list `TOPICS` and every
  label at least two of the training writers used), so a label need not be a word of it.
A logistic model (`TagModel`, trained by `training/tags/train.py` on labelled sets from 18
writers) weighs each candidate by its source, its closeness to the message and rank, whether the
message says it and how often people filed under it; candidates above its threshold are kept,
best first, at most four, one of any two that are near the same phrase. A kept tag becomes the
tenant's existing tag when that is the same word up to a plural or close (cosine >= 0.85). The
intent is not a tag (it is `enrichment["intent"]`). Without an embedding model, the tool names,
nouns and the vocabulary's words the message says are kept in order of appearance.
"""

from __future__ import annotations

import functools
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from mnemex.gazetteer import canonical_map
from mnemex.limits import normalize_tag
from mnemex.text import STOPWORDS

Vectors = npt.NDArray[np.float32]
EmbedFn = Callable[[Sequence[str]], Vectors]
MAX_TAGS = 4  # at most five by the issue; a fifth was accepted less than a third of the time
MAX_CANDIDATES = 16
REUSE_COSINE = 0.85
SAME_TAG_COSINE = 0.9  # two candidates this close are one tag
SOURCES = ("nouns", "topics", "kinds", "names", "tenant")
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
# Intent labels (`enrichment["intent"]` holds them): never a tag, whoever wrote it.
INTENT_WORDS = frozenset({"preference", "decision", "fact", "update"})
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

    @staticmethod
    def matrix(embed: EmbedFn, phrases: tuple[str, ...]) -> Vectors:
        """The vectors of a fixed list of phrases (the model's topic labels), stacked once per
        process and model (the embedder is process-wide: a store opened later reuses them; they
        cost about 0.9 s to embed) and kept apart from the recently-used phrases."""
        with _MATRIX_LOCK:
            found = _MATRICES.get((embed, phrases))
        if found is None:
            found = embed([p.replace("-", " ") for p in phrases])
            with _MATRIX_LOCK:
                _MATRICES[(embed, phrases)] = found
        return found


_MATRICES: dict[tuple[EmbedFn, tuple[str, ...]], Vectors] = {}  # by model and phrase list
_MATRIX_LOCK = threading.Lock()


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


@dataclass(frozen=True)
class Candidate:
    """A phrase that might file the message: where it came from and how close it is."""

    phrase: str
    source: str  # kind | tool | noun | compound | topic
    relevance: float  # cosine of its embedding to the message's
    rank: int  # its place among the candidates of its source, closest first
    in_text: bool  # one of the message's words (up to a plural)


@functools.cache
def _names() -> dict[str, tuple[str, str]]:
    return canonical_map()


def key(tag: str) -> str:
    """A tag's comparable form: lowercase, words joined by hyphens, the last one singular, a
    known name's alias as the name ("postgres" and "postgresql" are one tag)."""
    words = normalize_tag(tag.replace("_", " ")).replace("-", " ").split()
    known = _names().get(" ".join(words))
    if known is not None:
        words = normalize_tag(known[0]).replace("-", " ").split()
    return "-".join([*words[:-1], _singular(words[-1])]) if words else ""


class TagModel:
    """Which candidates a person would accept: a logistic model over each candidate's source,
    closeness and rank, whether the message says it, and how often people filed under it
    (`training/tags/train.py`, trained on labelled sets from several writers; the topic
    vocabulary is theirs too). A candidate is kept when its probability clears `threshold`."""

    def __init__(self, spec: dict[str, object]) -> None:
        self.features = [str(f) for f in spec["features"]]  # type: ignore[attr-defined]
        self.weights = np.asarray(spec["weights"], dtype=np.float32)
        self.bias = float(spec["bias"])  # type: ignore[arg-type]
        self.threshold = float(spec["threshold"])  # type: ignore[arg-type]
        self.priors = {str(k): float(v) for k, v in dict(spec["priors"]).items()}  # type: ignore[call-overload]
        self.topics = tuple(str(t) for t in spec["topics"])  # type: ignore[attr-defined]

    def rows(self, candidates: Sequence[Candidate]) -> Vectors:
        """The feature matrix of `candidates`, one row each, columns as `features`."""
        best: dict[str, float] = {}
        for c in candidates:
            best[c.source] = max(best.get(c.source, -1.0), c.relevance)
        out = np.zeros((len(candidates), len(self.features)), dtype=np.float32)
        for i, c in enumerate(candidates):
            prior = self.priors.get(key(c.phrase))
            values = {
                "relevance": c.relevance,
                "gap": best[c.source] - c.relevance,
                "first": float(c.rank == 0),
                "second": float(c.rank == 1),
                "in_text": float(c.in_text),
                "two_words": float(" " in c.phrase or "-" in c.phrase),
                "prior": 0.0 if prior is None else prior,
                "known": float(prior is not None),
                **{f"source_{s}": float(c.source == s) for s in CANDIDATE_SOURCES},
            }
            out[i] = [values[f] for f in self.features]
        return out

    def score(self, candidates: Sequence[Candidate]) -> Vectors:
        """Probability that a person files the message under each candidate."""
        if not candidates:
            return np.zeros(0, dtype=np.float32)
        z = self.rows(candidates) @ self.weights + self.bias
        p: Vectors = (1.0 / (1.0 + np.exp(-z))).astype(np.float32)
        return p


CANDIDATE_SOURCES = ("kind", "tool", "noun", "compound", "topic")
TOPIC_CANDIDATES = 8  # the topic labels closest to the message that the model weighs
_MODEL_LOCK = threading.Lock()
_MODEL: list[TagModel | None] = []


def model() -> TagModel | None:
    """The packaged tag model (`analysis/data/tags.json`), or None when it is absent."""
    with _MODEL_LOCK:
        if not _MODEL:
            path = Path(__file__).with_name("data") / "tags.json"
            _MODEL.append(TagModel(json.loads(path.read_text())) if path.exists() else None)
        return _MODEL[0]


def set_model(learned: TagModel | None) -> None:
    """Use `learned` instead of the packaged model (the trainer weighs its own candidates)."""
    with _MODEL_LOCK:
        _MODEL[:] = [learned]


def pool(
    text: str,
    *,
    vector: Vectors,
    embed: EmbedFn,
    cache: PhraseCache | None,
    nouns: Sequence[str],
    kinds: Sequence[str],
    tools: Sequence[str],
    topics: tuple[str, ...],
) -> tuple[list[Candidate], Vectors]:
    """Every candidate with its closeness to the message (and the candidates' embeddings): the
    message's own phrases, and the `TOPIC_CANDIDATES` topic labels closest to it."""
    said = {_singular(w) for w in re.findall(r"[a-z0-9]+", text.lower())}
    sourced: list[tuple[str, str]] = [(k, "kind") for k in kinds]
    sourced += [(t, "tool") for t in tools]
    sourced += [(n, "compound" if " " in n else "noun") for n in nouns]
    sourced = [(p, s) for p, s in sourced if key(p) not in INTENT_WORDS]
    readable = [p.replace("-", " ") for p, _ in sourced]
    vectors = np.zeros((0, len(vector)), dtype=np.float32)
    if readable:
        vectors = cache.embed(embed, readable) if cache is not None else embed(readable)
    if topics:  # no topic label is an intent word (the trainer keeps them out)
        every = cache.matrix(embed, topics) if cache is not None else embed(list(topics))
        taken = {p for p, _ in sourced}
        closest = np.argsort(-(every @ vector), kind="stable")[: TOPIC_CANDIDATES + len(taken)]
        picked = [int(i) for i in closest if topics[i] not in taken][:TOPIC_CANDIDATES]
        sourced += [(topics[i], "topic") for i in picked]
        readable += [topics[i].replace("-", " ") for i in picked]
        vectors = np.concatenate([vectors, every[picked]]) if picked else vectors
    if not sourced:
        return [], vectors
    relevance = vectors @ vector
    ordered = sorted(range(len(sourced)), key=lambda i: -relevance[i])
    ranks: dict[str, int] = {}
    out: list[Candidate] = []
    for i in ordered:
        phrase, source = sourced[i]
        rank = ranks.get(source, 0)
        ranks[source] = rank + 1
        words = {_singular(w) for w in re.findall(r"[a-z0-9]+", readable[i].lower())}
        out.append(Candidate(phrase, source, float(relevance[i]), rank, words <= said))
    return out, vectors[ordered]


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
    trace: list[Candidate] | None = None,
) -> list[str]:
    """Up to `limit` lowercase tags (`words`: the message's tagged words, when spaCy ran).

    `names` are every name the message says (none is a tag: "Priya" files nothing), `kinds`
    what its technology names are (Neovim: an editor) and `tools` the technology and product
    names themselves, which people do file under ("terraform", "slack"). `trace` receives every
    candidate the model weighed (the trainer reads it)."""
    named = {w for name in names for w in re.split(r"[\s/-]+", name.lower()) if w}
    nouns: list[str] = []
    if "nouns" in sources:
        found = noun_candidates(words) if words is not None else candidates(text, names)
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
    known: list[str] = []
    known_vectors: Vectors | None = None
    if "tenant" in sources and vocabulary is not None and vocabulary.loaded and vocabulary.tags:
        known, known_vectors = (
            vocabulary.vectors(embed) if embed else (sorted(vocabulary.tags), None)
        )
    learned = model()
    topics = (learned.topics if learned is not None else TOPICS) if "topics" in sources else ()
    if embed is None or vector is None or learned is None:
        lowered = {_singular(w) for w in re.findall(r"[a-z]+", text.lower())}
        picked = fixed + [n for n in nouns if " " not in n]
        picked += [t for t in topics if _singular(t) in lowered and t not in picked]
        lexical = [reuse(normalize_tag(p), None, known, None) for p in picked]
        return list(dict.fromkeys(t for t in lexical if t))[:limit]
    cache = vocabulary.cache if vocabulary is not None else None
    found_pool, vectors = pool(
        text, vector=vector, embed=embed, cache=cache, nouns=nouns, kinds=kind_words,
        tools=tool_words, topics=topics,
    )  # fmt: skip
    if trace is not None:
        trace.extend(found_pool)
    if not found_pool:
        return []
    probability = learned.score(found_pool)
    tags: list[str] = []
    chosen: list[int] = []
    for i in np.argsort(-probability, kind="stable"):
        if probability[i] < learned.threshold or len(tags) >= limit:
            break
        if chosen and float((vectors[chosen] @ vectors[i]).max()) >= SAME_TAG_COSINE:
            continue  # "meeting" after "meetings": one of them is enough
        tag = reuse(normalize_tag(found_pool[i].phrase), vectors[i], known, known_vectors)
        if tag and key(tag) not in {key(t) for t in tags}:
            tags.append(tag)
            chosen.append(int(i))
    return tags
