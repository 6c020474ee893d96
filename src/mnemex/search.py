"""The search pipeline (behind `search()`).

filters -> channels (BM25, embedding, conversation context) -> weighted RRF -> priors (entity
graph PPR, named period, time cue, usage, co-use pull) -> episode context -> temporal blend ->
review blend / MMR -> records. Every step works on the candidates only.

The query is embedded on a helper thread; what needs no query vector (the ledger's reads, the
BM25 channel, the graph's seed entities and the links of the lexical candidates) runs meanwhile,
so after the embedding only the vector channel and what depends on it remain.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Protocol

import numpy as np
import numpy.typing as npt

from mnemex import resolution
from mnemex.clock import to_micros
from mnemex.config import Settings
from mnemex.decay.curve import Decay
from mnemex.embed import Vectors, embed_soon
from mnemex.engine import Engine
from mnemex.ledger import resolve
from mnemex.ledger import search as ledger
from mnemex.models import SearchHit
from mnemex.retrieval import episode, fuse, ranked, temporal_cues, usage
from mnemex.retrieval.ppr import MemoryGraph, Neighbourhood, ppr
from mnemex.retrieval.present import Channels, Signals, diversify, explain
from mnemex.store.base import MemoryFilter, Temporal, Tx
from mnemex.text import query_terms


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
    fill: bool = True  # a list shorter than k takes the nearest memories below the vector floor


def memory_filter(tx: Tx, request: SearchRequest, history: bool = False) -> MemoryFilter | None:
    """The store filter for a request; None when it can match nothing (an unknown entity).

    `history` lets superseded memories in (a question about an earlier value).
    """
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
        include_superseded=request.include_history or request.as_of is not None or history,
    )


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
    engine: Engine,
    tenant: str,
    tx: Tx,
    text: str,
    flt: MemoryFilter,
    limit: int,
    pending: Future[Vectors] | None = None,
    graph: MemoryGraph | None = None,
    floor: float | None = None,
) -> list[tuple[str, float]]:
    """The nearest live memories to the query that pass the filter, widening until enough pass
    (down to `floor`, by default the vector floor)."""
    index = engine.vector_index(tenant)
    embedder = engine.embedder
    if index is None or embedder is None or not text.strip():
        return []
    index.sync(tx, None if graph is None else graph.timeline.same_id)
    query = pending.result() if pending is not None else embedder.embed([text])[0]
    return _best_passing(
        lambda want: index.search(query, want),
        index,
        tx,
        graph,
        flt,
        limit,
        floor=engine.settings.vector_floor if floor is None else floor,
    )


class _Shares(Protocol):
    passed_share: float  # of the last default search's candidates, the live and current share


def _best_passing(
    ranked: Callable[[int], list[tuple[str, float]]],
    index: _Shares,
    tx: Tx,
    graph: MemoryGraph | None,
    flt: MemoryFilter,
    limit: int,
    floor: float = -math.inf,
) -> list[tuple[str, float]]:
    """An index's `limit` best candidates (scored at least `floor`) that pass the filter.

    The indexes also hold superseded and archived memories (as_of searches need them): ask for
    enough more that, at the share that passed the default filter last time, `limit` pass, and
    for four times more while too few did.
    """
    share = index.passed_share if flt == DEFAULT_FILTER else 1.0
    want = math.ceil(1.25 * limit / share)
    while True:
        raw = ranked(want)
        allowed = passing(tx, graph, [memory_id for memory_id, _ in raw], flt)
        if flt == DEFAULT_FILTER and len(raw) == want:
            index.passed_share = max(0.05, len(allowed) / want)
        hits = [(m, score) for m, score in raw if m in allowed and score >= floor]
        if len(hits) >= limit or len(raw) < want or (raw and raw[-1][1] < floor):
            return hits[:limit]
        want *= 4


def passing(tx: Tx, graph: MemoryGraph | None, ids: list[str], flt: MemoryFilter) -> set[str]:
    """The ids that pass the filter.

    The default filter (live, current memories) is answered by the graph's timeline, which is
    in step with the store, without a query; only memories it does not know yet are looked up.
    """
    if graph is None or flt != DEFAULT_FILTER:
        return set(tx.filter_ids(ids, flt)) if ids else set()
    with graph.lock:
        rows = graph.timeline.rows(ids)
        live = graph.timeline.alive(rows)
    allowed = {m for m, ok in zip(ids, live.tolist(), strict=True) if ok}
    unknown = [m for m, row in zip(ids, rows.tolist(), strict=True) if row < 0]
    if unknown:
        allowed.update(tx.filter_ids(unknown, flt))
    return allowed


DEFAULT_FILTER = MemoryFilter()  # live and current memories, nothing else asked
GRAPH_STEPS = 3  # PageRank steps: seed -> memories -> their entities -> memories


def _lexical_channel(
    engine: Engine,
    tenant: str,
    tx: Tx,
    request: SearchRequest,
    flt: MemoryFilter,
    graph: MemoryGraph | None,
) -> tuple[Channels, dict[str, float]]:
    """BM25 hits and the RRF weight they get for this query (higher when its terms are rare)."""
    settings = engine.settings
    terms = query_terms(request.text)
    if settings.bm25_weight <= 0 or not terms:
        return {}, {}
    index = engine.lexical_index(tenant)
    index.sync(tx, None if graph is None else graph.timeline.same_id)
    ranked = index.rank(terms, settings.common_term_df)
    limit = _pool(engine, request)
    hits = None
    if graph is not None and flt == DEFAULT_FILTER:
        rows = index.rows_in(graph.timeline)[ranked.docs]
        if (rows >= 0).all():  # else some memory is newer than the graph: ask the store
            with graph.lock:
                alive = graph.timeline.alive(rows)
            hits = ranked.top(limit, alive)
    if hits is None:
        hits = _best_passing(ranked.top, index, tx, graph, flt, limit)
    rarity = fuse.RARITY_MID
    if settings.bm25_rarity_gain > 0:
        rarity = fuse.rarity(ranked.dfs, ranked.size)
    weight = fuse.bm25_weight(settings.bm25_weight, settings.bm25_rarity_gain, rarity)
    if settings.bm25_coverage > 0:
        weight *= ranked.coverage() ** settings.bm25_coverage
    return {"bm25": hits}, {"bm25": weight}


def _pool(engine: Engine, request: SearchRequest) -> int:
    """Candidates each channel brings."""
    return max(engine.settings.lexical_candidates, 3 * request.k)


def _embedding_channels(
    engine: Engine,
    tenant: str,
    tx: Tx,
    request: SearchRequest,
    flt: MemoryFilter,
    pending: Future[Vectors] | None,
    graph: MemoryGraph | None,
    filling: bool,
) -> tuple[Channels, dict[str, float], list[tuple[str, float]]]:
    """Nearest memories to the query (and to the conversation context), with their weights;
    and, when `filling`, the nearest ones below the vector floor down to the fill floor."""
    settings = engine.settings
    pool = _pool(engine, request)
    channels: Channels = {}
    weights: dict[str, float] = {}
    reserve: list[tuple[str, float]] = []
    if settings.vector_weight > 0:
        floor = min(settings.fill_floor, settings.vector_floor) if filling else None
        near = vector_channel(engine, tenant, tx, request.text, flt, pool, pending, graph, floor)
        channels["vector"] = [hit for hit in near if hit[1] >= settings.vector_floor]
        reserve = [hit for hit in near if hit[1] < settings.vector_floor]
        weights["vector"] = settings.vector_weight
    if request.context and settings.context_weight > 0:
        channels["context"] = vector_channel(
            engine, tenant, tx, request.context, flt, pool, None, graph
        )
        weights["context"] = settings.context_weight
    return channels, weights, reserve


def _uses_graph(engine: Engine) -> bool:
    """True when any signal that reads the graph is on (else the graph is never loaded)."""
    s = engine.settings
    return any(
        weight > 0
        for weight in (
            s.graph_weight,
            s.neighbour_weight,
            s.episode_weight,
            s.period_weight,
            s.time_cue_weight,
        )
    )


@dataclass(frozen=True, slots=True)
class GraphQuery:
    """What the graph reads before the query vector: the entities the query names, and the
    neighbourhood of the walk (the lexical candidates, the seeds' rare members) with its links."""

    seeds: list[int]
    reach: Neighbourhood


def graph_query(engine: Engine, graph: MemoryGraph, text: str, candidates: list[str]) -> GraphQuery:
    """The query's seed entities and the walk's neighbourhood so far."""
    reach = Neighbourhood(graph)
    if engine.settings.graph_weight <= 0:
        return GraphQuery([], reach)
    with graph.lock:
        seeds = graph.query_entities(text)
        expansion = graph.expansion(seeds)
    if seeds:
        reach.add([*candidates, *expansion])  # memories only the graph can bring in, too
    return GraphQuery(seeds, reach)


def _graph_priors(
    engine: Engine,
    graph: MemoryGraph,
    asked: GraphQuery,
    request: SearchRequest,
    ids: list[str],
    now: datetime,
) -> Signals:
    """Priors read from the graph: entity PageRank, closeness to a named period, time cue."""
    settings = engine.settings
    priors: Signals = {}
    if asked.seeds:
        asked.reach.add(ids)
        mass = ppr(graph, asked.seeds, asked.reach, alpha=settings.graph_alpha, steps=GRAPH_STEPS)
        top = float(mass.max()) if len(mass) else 0.0
        if top > 0:
            reached = asked.reach.ids
            priors["graph"] = {
                m: float(v) / top for m, v in zip(reached, mass, strict=True) if v > 0
            }
    period = temporal_cues.named_period(request.text, now)
    timeline = graph.timeline
    if period is not None and settings.period_weight > 0:
        with graph.lock:
            rows = timeline.rows(ids)
            times = timeline.times[np.maximum(rows, 0)]
        near = temporal_cues.closeness(times, period, settings.period_slack_days)
        priors["period"] = {
            m: float(v) for m, v, r in zip(ids, near, rows, strict=True) if v > 0 and r >= 0
        }
    if settings.time_cue_weight > 0 and temporal_cues.asks_when(request.text):
        with graph.lock:
            rows = timeline.rows(ids)
            says = timeline.says_when[np.maximum(rows, 0)] & (rows >= 0)
        priors["time_cue"] = {m: 1.0 for m, flag in zip(ids, says.tolist(), strict=True) if flag}
    return priors


def _score(
    engine: Engine,
    tx: Tx,
    request: SearchRequest,
    now: datetime,
    channels: Channels,
    weights: dict[str, float],
    graph: tuple[MemoryGraph, GraphQuery] | None,
) -> tuple[dict[str, float], Signals]:
    """Fused scores with priors and context, every signal by name (explain)."""
    settings = engine.settings
    fused = fuse.rrf(channels, weights)
    signals: Signals = {}
    if fused and graph is not None:
        signals.update(_graph_priors(engine, *graph, request, list(fused), now))
    if fused and settings.usage_weight > 0:
        signals["usage"] = usage.usefulness(tx, list(fused))
    prior_weights = {
        "graph": settings.graph_weight,
        "period": settings.period_weight,
        "time_cue": settings.time_cue_weight,
        "usage": settings.usage_weight,
    }
    scores = fuse.add_priors(fused, signals, prior_weights)
    if scores and settings.co_usage_weight > 0:
        signals["co_use"] = usage.co_use_pull(tx, scores)
        scores = fuse.add_priors(
            scores, {"co_use": signals["co_use"]}, {"co_use": settings.co_usage_weight}
        )
    if graph is not None:
        with graph[0].lock:
            scores, signals["episode"] = episode.with_context(
                graph[0].timeline,
                scores,
                neighbour_weight=settings.neighbour_weight,
                episode_weight=settings.episode_weight,
                width=settings.neighbour_width,
            )
    return scores, signals


def _admit(
    tx: Tx,
    graph: MemoryGraph | None,
    scores: dict[str, float],
    channels: Channels,
    flt: MemoryFilter,
) -> None:
    """Drop memories that joined through a prior or context but fail the request's filters."""
    found = {memory_id for hits in channels.values() for memory_id, _ in hits}
    joined = [memory_id for memory_id in scores if memory_id not in found]
    if joined:
        allowed = passing(tx, graph, joined, flt)
        for memory_id in joined:
            if memory_id not in allowed:
                del scores[memory_id]


def _contenders(scores: dict[str, float], k: int, settings: Settings) -> list[str]:
    """Candidates that can still reach the top k once the temporal blend is added.

    The blend adds at most `weight` (squashed temporal score < 1) to `(1 - weight) * relevance`,
    so a memory whose relevance trails the k-th best by more than weight / (1 - weight) cannot
    get in: skipping it spares its temporal lookup. Review blending and MMR look deeper than the
    top k: no cut then. Read-time resolution reads the best POOL candidates whatever k is: the
    statement that set an earlier value ranks low, and at k=5 the cut would leave it out.
    """
    ids = sorted(scores, key=lambda memory_id: -scores[memory_id])
    k = max(k, resolve.POOL) if settings.ledger_resolve else k
    weight = settings.temporal_weight
    exact = settings.review_blend == 0 and settings.mmr_trade_off >= 1
    if not exact or len(ids) <= k or weight >= 1:
        return ids
    top = scores[ids[0]] or 1e-12
    floor = scores[ids[k - 1]] / top - weight / (1.0 - weight)
    return [memory_id for memory_id in ids if scores[memory_id] / top >= floor]


def _answer_first(
    ids: list[str],
    order: list[int],
    final: npt.NDArray[np.float64],
    channels: Channels,
    chosen: str | None,
) -> list[int]:
    """The order with read-time resolution's answer first, every other hit below it in its
    place. The answer takes the best score of the list (its own was lower: an older statement,
    closer in wording to the question, scored higher), and explain shows it as `resolution`."""
    if chosen is None:
        return order
    position = ids.index(chosen)
    final[position] = max(float(final[position]), float(final[order].max()))
    channels["resolution"] = [(chosen, 1.0)]
    return [position, *[i for i in order if i != position]][: len(order)]


def run_search(
    engine: Engine, tenant: str, tx: Tx, request: SearchRequest, now: datetime
) -> list[SearchHit]:
    """Channels fused by weighted RRF, priors and context added, blended with temporal scores."""
    settings = engine.settings
    asked_period, earlier, before = resolution.asked_time(
        settings.ledger_resolve, request.text, request.as_of, now
    )
    flt = memory_filter(tx, request, history=earlier)
    if flt is None:
        return []
    embedder = engine.embedder
    wants_vector = settings.vector_weight > 0 and embedder is not None and request.text.strip()
    pending = embed_soon(embedder, request.text) if wants_vector and embedder else None
    # While the query embeds (ONNX Runtime on another core), everything that needs no query
    # vector: the ledger's lookups, the lexical channel, the graph's seeds.
    answers = ledger.LedgerAnswers(
        tx,
        request.text,
        request.as_of,
        answer=settings.ledger_search,
        before=before,
        dated=resolution.dated(asked_period, request.as_of, now),
    )
    graph: MemoryGraph | None = None
    if _uses_graph(engine):
        graph = engine.memory_graph(tenant)
        graph.sync(tx)
    channels, weights = _lexical_channel(engine, tenant, tx, request, flt, graph)
    with_graph: tuple[MemoryGraph, GraphQuery] | None = None
    if graph is not None:
        lexical_ids = [memory_id for memory_id, _ in channels.get("bm25", [])]
        with_graph = (graph, graph_query(engine, graph, request.text, lexical_ids))
    # Only a plain question fills a short list: what was valid at a date or before a change is
    # for the ledger to say, and recall (fill=False) injects only what passed the floors.
    filling = request.fill and request.as_of is None and not (earlier or before)
    embedded, embedded_weights, reserve = _embedding_channels(
        engine, tenant, tx, request, flt, pending, graph, filling
    )
    channels.update(embedded)
    weights.update(embedded_weights)
    cosines = ledger.cosines_for(embedder, pending)
    scores, signals = _score(engine, tx, request, now, channels, weights, with_graph)
    _admit(tx, graph, scores, channels, flt)
    # The ledger: only what was valid at `as_of`, and the memory stating an asked-for key first.
    adjusted = answers.adjust(
        list(scores.items()), flt, cosines, ledger.statements_for(tx, embedder, pending)
    )
    scores = dict(adjusted.candidates)
    ids = _contenders(scores, request.k, settings)
    temporal = tx.temporal_of(ids)
    # The shared graph may know memories newer than this transaction's snapshot: skip those.
    ids = [memory_id for memory_id in ids if memory_id in temporal]
    ids = fold_duplicates(tx, graph, flt, ids, scores, temporal)
    # A short list takes the nearest memories below the vector floor (search, not recall).
    fill = partial(ranked.filled, tx, settings, engine.decay, (channels.get("vector", []), reserve))
    if not ids:
        return fill([], set(), 0.0, k=request.k, now=now)
    final, decay_scores = ranked.blend(
        engine.decay, settings.temporal_weight, ids, scores, temporal, now
    )
    ranking = np.argsort(-final, kind="stable")
    order = blend_reviews(ranking, decay_scores, request.k, settings.review_blend, engine.decay)
    if settings.mmr_trade_off < 1.0:
        order = diversify(tx, ids, ranking, final, request.k, settings.mmr_trade_off)
    resolving, anchor = resolution.resolving(settings, adjusted, earlier=earlier, before=before)
    chosen = None
    if settings.ledger_resolve and pending is not None and resolving:
        chosen = resolution.resolved(
            engine,
            tx,
            request.text,
            request.as_of,
            [ids[int(i)] for i in ranking[: resolve.POOL]],
            pending,
            asked_period,
            anchor,
        )
    order = _answer_first(ids, order, final, channels, chosen)
    channels["ledger"] = sorted(adjusted.answered.items(), key=lambda item: -item[1])
    explained = explain(channels, signals, ids, decay_scores) if request.explain else {}
    hits = ranked.in_order(tx, ids, order, final, decay_scores, explained)
    if request.include_history and request.as_of is None:
        hits = answers.order(hits)  # history on request, but never above the current value
    top = max(scores.values(), default=0.0)
    return fill(hits, set(ids), top, k=request.k, now=now)


def fold_duplicates(
    tx: Tx,
    graph: MemoryGraph | None,
    flt: MemoryFilter,
    ids: list[str],
    scores: dict[str, float],
    temporal: dict[str, Temporal],
) -> list[str]:
    """A duplicate gives way to the memory it repeats (which takes the better relevance): one
    hit, whose `repeat_count` says how often it was said. A duplicate whose original is no
    longer live, or fails the filter, stays itself."""
    roots = {m: t.duplicate_of for m, t in temporal.items() if t.duplicate_of and m in scores}
    if not roots:
        return ids
    unknown = [r for r in set(roots.values()) if r not in temporal]
    if unknown:
        temporal.update(tx.temporal_of(unknown))
    allowed = passing(tx, graph, [r for r in set(roots.values()) if r in temporal], flt)
    folded: list[str] = []
    for memory_id in ids:
        root = roots.get(memory_id, memory_id)
        if root != memory_id and root not in allowed:
            root = memory_id
        if root != memory_id:
            scores[root] = max(scores.get(root, 0.0), scores[memory_id])
        if root not in folded:
            folded.append(root)
    return folded
