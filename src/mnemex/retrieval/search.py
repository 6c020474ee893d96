"""The search pipeline: filters -> channels -> fused ranking -> records (behind `search()`)."""

from __future__ import annotations

import math
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from mnemex.clock import MICROS_PER_DAY, to_micros
from mnemex.models import ChannelScore, SearchHit
from mnemex.retrieval import lexical
from mnemex.retrieval.embed import Vectors, embed_soon
from mnemex.retrieval.fuse import rrf
from mnemex.store.base import MemoryFilter, Tx
from mnemex.temporal import lookup as ledger
from mnemex.temporal.decay import Decay

if TYPE_CHECKING:
    from mnemex.service import MemoryStore


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """A checked search: what to look for and which memories may answer."""

    text: str
    k: int
    tags: tuple[str, ...] = ()
    entity: str | None = None
    statuses: tuple[str, ...] = ("active", "promoted")
    since: datetime | None = None
    as_of: datetime | None = None
    include_history: bool = False
    context: str | None = None
    explain: bool = False


def memory_filter(tx: Tx, request: SearchRequest) -> MemoryFilter | None:
    """The store filter for a request; None when it can match nothing (an unknown entity)."""
    entity_ids: tuple[str, ...] = ()
    if request.entity:
        found = tx.find_entity(request.entity)
        if found is None:
            return None
        entity_ids = (found.id,)
    return MemoryFilter(
        statuses=request.statuses,
        tags=request.tags,
        entity_ids=entity_ids,
        since=None if request.since is None else to_micros(request.since),
        until=None if request.as_of is None else to_micros(request.as_of),
        include_superseded=request.include_history or request.as_of is not None,
    )


def generation(size: int) -> int:
    """A coarse corpus-size bucket: term statistics caches reset when it changes (~10% growth)."""
    return int(math.log(size + 1) / math.log(1.1))


def blend_reviews(
    ranking: npt.NDArray[np.intp],
    scores: npt.NDArray[np.float64],
    k: int,
    share: float,
    decay: Decay,
) -> list[int]:
    """The top `k` of `ranking`, with a `share` of the slots given to matching danger-zone memories.

    Spaced repetition: a relevant memory about to be forgotten is worth showing (and so
    reinforcing) before it fades, even if a stronger memory would have taken its place.
    """
    reserved = round(k * share)
    if reserved == 0:
        return [int(i) for i in ranking[:k]]
    head = [int(i) for i in ranking[: k - reserved]]
    taken = set(head)
    priority = decay.review_priority(scores)
    rest = [int(i) for i in ranking[k - reserved :]]
    due = [i for i in rest if decay.in_danger_zone(float(scores[i]))]
    due.sort(key=lambda i: -priority[i])
    extra = due[:reserved]
    taken.update(extra)
    filler = [i for i in rest if i not in taken][: k - len(head) - len(extra)]
    return head + extra + filler


def vector_channel(
    store: MemoryStore,
    tx: Tx,
    text: str,
    flt: MemoryFilter,
    limit: int,
    pending: Future[Vectors] | None = None,
) -> list[tuple[str, float]]:
    """The nearest live memories to the query that pass the filter, widening until enough pass."""
    index = store.engine.vector_index(store.tenant)
    embedder = store.engine.embedder
    if index is None or embedder is None or not text.strip():
        return []
    index.sync(tx)
    query = pending.result() if pending is not None else embedder.embed([text])[0]
    want = limit
    while True:
        raw = index.search(query, want)
        allowed = set(tx.filter_ids([memory_id for memory_id, _ in raw], flt))
        floor = store.settings.vector_floor
        hits = [(m, score) for m, score in raw if m in allowed and score >= floor]
        if len(hits) >= limit or len(raw) < want or (raw and raw[-1][1] < floor):
            return hits[:limit]
        want *= 4


def run_search(
    store: MemoryStore, tx: Tx, request: SearchRequest, now: datetime
) -> list[SearchHit]:
    """Lexical and vector candidates fused by weighted RRF, blended with temporal scores."""
    flt = memory_filter(tx, request)
    if flt is None:
        return []
    settings = store.settings
    size = tx.index_size()
    pool = max(settings.lexical_candidates, 3 * request.k)
    embedder = store.engine.embedder  # the query embeds while the lexical channel runs
    pending = embed_soon(embedder, request.text) if embedder and request.text.strip() else None
    lexical_hits = lexical.search(
        tx,
        store.engine.term_stats,
        request.text,
        limit=pool,
        flt=flt,
        corpus_size=size,
        common_share=settings.common_term_df,
        generation=generation(size),
    )
    vector_hits = vector_channel(store, tx, request.text, flt, pool, pending)
    channels = {"bm25": lexical_hits, "vector": vector_hits}
    fused_scores = rrf(channels, {"bm25": 1.0, "vector": 1.0})
    answered: dict[str, float] = {}  # what the ledger put first (explain's "ledger" channel)
    fused_scores = dict(
        ledger.adjust(
            tx,
            request.text,
            list(fused_scores.items()),
            flt,
            request.as_of,
            answer=settings.ledger_search,
            cosines=ledger.cosines_for(embedder, pending),
            trace=answered,
        )
    )
    if not fused_scores:
        return []
    ids = list(fused_scores)
    relevance = np.array([fused_scores[i] for i in ids], dtype=np.float64)
    relevance = relevance / max(float(relevance.max()), 1e-12)
    temporal = tx.temporal_of(ids)
    now_us = to_micros(now)
    uses = np.array([temporal[i][0] for i in ids], dtype=np.float64)
    days = np.array([(now_us - temporal[i][1]) / MICROS_PER_DAY for i in ids])
    strengths = np.array([temporal[i][2] for i in ids], dtype=np.float64)
    scores = store.decay.scores(uses, days, strengths)
    squashed = scores / (1.0 + scores)  # bounded in [0, 1) so it can blend with relevance
    weight = settings.temporal_weight
    fused = (1.0 - weight) * relevance + weight * squashed
    ranking = np.argsort(-fused, kind="stable")
    order = blend_reviews(ranking, scores, request.k, settings.review_blend, store.decay)
    records = tx.get_memories([ids[i] for i in order])
    channels["ledger"] = sorted(answered.items(), key=lambda item: -item[1])
    explained = _explain(channels, ids, scores) if request.explain else {}
    hits = []
    for index in order:
        memory = records[ids[index]]
        memory.score = float(scores[index])
        hits.append(
            SearchHit(
                memory=memory, score=float(fused[index]), channels=explained.get(ids[index], {})
            )
        )
    if request.include_history and request.as_of is None:
        hits = ledger.order(tx, hits)  # history on request, but never above the current value
    return hits


def _explain(
    channels: dict[str, list[tuple[str, float]]], ids: list[str], scores: npt.NDArray[np.float64]
) -> dict[str, dict[str, ChannelScore]]:
    """Each candidate's rank and score in every channel that found it, plus its temporal score."""
    out: dict[str, dict[str, ChannelScore]] = {memory_id: {} for memory_id in ids}
    for name, hits in channels.items():
        for rank, (memory_id, score) in enumerate(hits, start=1):
            out[memory_id][name] = ChannelScore(rank=rank, score=score)
    temporal_rank = np.empty(len(ids), dtype=np.int64)
    temporal_rank[np.argsort(-scores, kind="stable")] = np.arange(1, len(ids) + 1)
    for position, memory_id in enumerate(ids):
        out[memory_id]["temporal"] = ChannelScore(
            rank=int(temporal_rank[position]), score=float(scores[position])
        )
    return out
