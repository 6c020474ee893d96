"""The graph channel: Personalized PageRank over memories and the entities they name.

`MemoryGraph` holds one tenant's structure in memory: which entities each memory names (names
saved with it, such as the analysis layer's, plus `entities.names` of its text) and its
`Timeline` (saving order and episodes). It loads lazily on first use and follows the change log
like the vector index, so other processes' writes are seen by the next search.

`ppr` runs a few power iterations restarting at the entities a query names, over the
neighbourhood of the candidates only: cost grows with the candidates and their links, never
with the store.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from mnemex.clock import to_micros
from mnemex.models import LIVE_STATUSES, Memory
from mnemex.retrieval import changelog, entities, temporal_cues
from mnemex.retrieval.timeline import Rows, Timeline
from mnemex.retrieval.vector import release_freed_memory
from mnemex.store.base import Tx
from mnemex.text import STOPWORDS, normalize_name, words

MAX_NAME_WORDS = 3  # query n-grams tried against the entity dictionary
EXPAND_DEGREE = 64  # a seed entity named by at most this many memories brings them all in
Mass = npt.NDArray[np.float64]
# A memory's entities, its subject (weight 1) stored as ~index, the others (mention_weight) as
# index: one small tuple per memory, where (entities, weights) pairs took three.
Links = tuple[int, ...]
_NO_LINKS: Links = ()


class MemoryGraph:
    """Entity links and timeline of one tenant's memories, in step with the store."""

    def __init__(self, mention_weight: float, episode_gap_us: int) -> None:
        self.mention_weight = mention_weight  # a name the memory mentions, vs. its subject (1.0)
        self.seq = -1
        self.timeline = Timeline(episode_gap_us)
        self.links: dict[str, Links] = {}  # live memory -> its entities (see Links)
        self.entity_index: dict[str, int] = {}
        self.known = np.zeros(0, dtype=bool)  # by entity: named with certainty somewhere
        self.members: list[dict[str, float]] = []  # entity -> {live memory id: weight}
        self.degree: list[float] = []
        self.lock = threading.RLock()

    # -- keeping in step ------------------------------------------------------------------------

    def sync(self, tx: Tx) -> None:
        """Apply every change since the last sync (a full load the first time or after a gap)."""
        with self.lock:
            self.seq = changelog.catch_up(
                tx, self.seq, lambda ids: self._apply(tx, ids), lambda: self._reload(tx)
            )

    def _apply(self, tx: Tx, touched: Sequence[str]) -> None:
        """Refresh the memories one change-log batch touched (gone ones are unlinked)."""
        found = tx.get_memories(touched)
        for memory_id in touched:
            memory = found.get(memory_id)
            if memory is None:
                self._unlink(memory_id)
                self.timeline.kill(memory_id)
            else:
                self._put(memory)

    def _reload(self, tx: Tx) -> None:
        """Rebuild from every memory of the tenant."""
        self.timeline = Timeline(self.timeline.episode_gap_us)
        self.links, self.entity_index, self.members, self.degree = {}, {}, [], []
        self.known = np.zeros(0, dtype=bool)
        # Every status, oldest first: rows keep saving order even for memories restored later.
        for memory in tx.iter_memories(changelog.EVERY_MEMORY):
            self._put(memory)
        release_freed_memory()  # a page of records at a time came and went

    def _entity(self, name: str) -> int:
        index = self.entity_index.get(name)
        if index is None:
            index = self.entity_index[name] = len(self.members)
            if index >= len(self.known):
                grown = np.zeros(max(16, int(len(self.known) * 1.5) + 1), dtype=bool)
                grown[: len(self.known)] = self.known
                self.known = grown
            self.members.append({})
            self.degree.append(0.0)
        return index

    def _put(self, memory: Memory) -> None:
        """Place a memory in the timeline and link it to the entities it names."""
        live = memory.status in LIVE_STATUSES and memory.superseded_by is None
        self.timeline.put(
            memory.id,
            time=to_micros(memory.observed_at or memory.created_at),
            source=memory.source,
            live=live,
            says_when=temporal_cues.states_time(memory.content),
        )
        self._unlink(memory.id)
        mentions = [(normalize_name(name), True) for name in memory.entities]
        mentions += entities.names(memory.content)
        for name, certain in mentions:
            index = self._entity(name)
            self.known[index] = self.known[index] or certain
        self._link(memory.id, [name for name, _ in mentions], live)

    def _link(self, memory_id: str, names: list[str], live: bool) -> None:
        """Link the memory to its entities; the first real name is its subject (weight 1).

        Only a live memory is linked: a walk never passes through the others.
        """
        if not live:
            return
        links: dict[int, int] = {}
        subject_found = False
        for name in names:
            index = self.entity_index[name]
            if index in links:
                continue
            weight, code = self.mention_weight, index
            if not subject_found and self.known[index]:
                weight, code, subject_found = 1.0, ~index, True
            links[index] = code
            self.members[index][memory_id] = weight
            self.degree[index] += weight
        self.links[memory_id] = tuple(links.values())

    def _unlink(self, memory_id: str) -> None:
        for code in self.links.pop(memory_id, _NO_LINKS):
            index = ~code if code < 0 else code
            weight = self.members[index].pop(memory_id, None)
            if weight is not None:
                self.degree[index] -= weight

    # -- reading --------------------------------------------------------------------------------

    def query_entities(self, text: str) -> list[int]:
        """Known entities the text names: its 1-3 word spans found in the entity dictionary."""
        tokens = words(text)
        found: list[int] = []
        for size in range(MAX_NAME_WORDS, 0, -1):
            for start in range(len(tokens) - size + 1):
                span = tokens[start : start + size]
                if size == 1 and span[0] in STOPWORDS:
                    continue
                index = self.entity_index.get(" ".join(span))
                if index is not None and self.known[index] and index not in found:
                    found.append(index)
        return found

    def expansion(self, seeds: Iterable[int]) -> list[str]:
        """Live memories of the rarer seed entities: candidates only the graph can find."""
        out: list[str] = []
        for index in seeds:
            if len(self.members[index]) <= EXPAND_DEGREE:
                out.extend(self.members[index])
        return out

    def edges(self, memory_ids: Sequence[str]) -> tuple[Rows, Rows, Mass]:
        """(memory position, entity, weight) of every link of a live memory to a known entity."""
        links = [self.links.get(memory_id, _NO_LINKS) for memory_id in memory_ids]
        counts = np.fromiter(map(len, links), np.int64, count=len(links))
        codes = np.fromiter(itertools.chain.from_iterable(links), np.int64, count=int(counts.sum()))
        subject = codes < 0
        targets = np.where(subject, ~codes, codes)
        weights = np.where(subject, 1.0, self.mention_weight)
        positions = np.repeat(np.arange(len(memory_ids), dtype=np.int64), counts)
        keep = self.known[targets]  # only live memories have links
        return positions[keep], targets[keep], weights[keep]


class Neighbourhood:
    """The memories a query's walk may visit, with their links, gathered as candidates arrive.

    Search adds the lexical candidates and the seeds' rare members while the query is still
    being embedded, and only the vector channel's newcomers once it is.
    """

    def __init__(self, graph: MemoryGraph) -> None:
        self.graph = graph
        self.ids: list[str] = []
        self._seen: set[str] = set()
        self._parts: list[tuple[Rows, Rows, Mass]] = []

    def add(self, memory_ids: Iterable[str]) -> None:
        """Bring these memories in (once each), reading their links now."""
        fresh = [m for m in dict.fromkeys(memory_ids) if m not in self._seen]
        if not fresh:
            return
        with self.graph.lock:
            src, targets, weights = self.graph.edges(fresh)
        self._parts.append((src + len(self.ids), targets, weights))
        self.ids.extend(fresh)
        self._seen.update(fresh)

    def edges(self) -> tuple[Rows, Rows, Mass]:
        """(memory position in `ids`, entity, weight) of every link gathered."""
        if not self._parts:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, np.zeros(0)
        src, targets, weights = zip(*self._parts, strict=True)
        return np.concatenate(src), np.concatenate(targets), np.concatenate(weights)


def ppr(
    graph: MemoryGraph, seeds: Sequence[int], reach: Neighbourhood, *, alpha: float, steps: int
) -> Mass:
    """Personalized PageRank of each memory of `reach` (in its order), truncated after `steps`
    steps, restarting at the seeds.

    The walk runs on the bipartite memory-entity graph restricted to the neighbourhood and the
    entities its memories name; entity-to-memory steps divide by the entity's degree in the
    whole store, so mass bound for memories outside the neighbourhood is simply not followed.
    """
    unique = list(dict.fromkeys(seeds))
    memory_ids = reach.ids
    if not unique or not memory_ids:
        return np.zeros(len(memory_ids))
    src, targets, w = reach.edges()
    if not len(src):
        return np.zeros(len(memory_ids))
    # Local entity nodes: the seeds and the entities the memories link to, each once.
    nodes, local = np.unique(np.r_[np.array(unique, dtype=np.int64), targets], return_inverse=True)
    starts, dst = local[: len(unique)], local[len(unique) :]
    with graph.lock:
        degree = np.array([graph.degree[index] for index in nodes.tolist()], dtype=np.float64)
    out_weight = np.bincount(src, weights=w, minlength=len(memory_ids))
    to_entity = w / out_weight[src]  # memory -> entity: the memory's links, normalised
    to_memory = w / np.maximum(degree[dst], 1e-12)  # entity -> memory: over the whole store
    walk_entities: Mass = np.zeros(len(nodes))
    walk_entities[starts] = 1.0 / len(unique)
    walk_memories: Mass = np.zeros(len(memory_ids))
    total: Mass = np.zeros(len(memory_ids))
    for _ in range(steps):
        # One step of the walk from both sides; PPR = alpha * sum of (1 - alpha)^t * s P^t.
        to_m = np.bincount(src, weights=walk_entities[dst] * to_memory, minlength=len(memory_ids))
        to_e = np.bincount(dst, weights=walk_memories[src] * to_entity, minlength=len(nodes))
        walk_memories = np.multiply(1 - alpha, to_m, dtype=np.float64)
        walk_entities = np.multiply(1 - alpha, to_e, dtype=np.float64)
        total += alpha * walk_memories
    return total
