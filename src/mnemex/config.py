"""Settings: one frozen object built from defaults, an optional TOML file and MNEMEX_* variables."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, get_args

import platformdirs

from mnemex.errors import InvalidInputError

DecayCurve = Literal["power_law", "exponential", "two_component"]


def default_data_dir() -> Path:
    """The per-user data directory (platformdirs), where the default store and vault live."""
    return Path(platformdirs.user_data_dir("mnemex", appauthor=False))


MAX_K = 1_000  # the default result limit, in every interface's schema too
MAX_META_DEPTH = 32


@dataclass(frozen=True, slots=True)
class Settings:
    """Every tunable of Mnemex; each field can be set as MNEMEX_<FIELD> or in the config file."""

    # Where things live.
    db: str | None = None
    data_dir: Path = field(default_factory=default_data_dir)
    vault_dir: Path | None = None

    # Temporal scoring (decay/curve.py).
    decay_curve: DecayCurve = "power_law"
    half_life_days: float = 3.0  # cortexgraph's default; the power law's t0 is derived from it
    power_alpha: float = 1.1
    use_beta: float = 0.6
    fast_half_life_days: float = 1.0  # two-component curve: 70% fades in days...
    slow_half_life_days: float = 30.0  # ...30% lingers for weeks
    fast_weight: float = 0.7
    danger_zone_low: float = 0.15
    danger_zone_high: float = 0.35
    review_blend: float = 0.0  # share of search slots given to danger-zone memories (0 = off)
    # Half-life by kind (decay/kinds.py); a plain note keeps `half_life_days`.
    request_half_life_days: float = 365.0  # "remember that ...": protected from gc besides
    decision_half_life_days: float = 120.0
    preference_half_life_days: float = 120.0
    fact_half_life_days: float = 90.0  # lasting facts about people, health, family, work
    chatter_half_life_days: float = 1.0  # "lol", "ok thanks": gone within weeks

    # Reinforcement (decay/reinforce.py).
    reinforcement: bool = True  # off: recall injects without counting a use (for comparison)
    recall_weight: float = 0.5  # a recalled (injected) memory counts half an observe or touch
    burst_minutes: float = 10.0  # uses this close to the last one count once
    stability_ease: float = 2.5  # SM-2's default ease: a full, well-spaced use x2.5 half-life
    stability_cap: float = 100.0  # the furthest spaced uses stretch a half-life
    reinforced_stability: float = 6.0  # from this stability gc leaves a memory alone
    recall_stability_cap: float = 4.0  # recalls alone stretch a half-life at most this far
    recall_cosine: float = 0.55  # an injected memory counts as used only this close to the prompt

    # Lifecycle.
    forget_threshold: float = 0.05
    promote_threshold: float = 0.65
    promote_min_uses: int = 5
    promote_window_days: float = 14.0
    cluster_threshold: float = 0.85  # cosine; the duplicate checker reviews from 0.85 too
    cross_domain_jaccard: float = 0.3
    cross_domain_boost: float = 0.05
    touch_boost: float = 0.1

    # Embeddings (embed.py): "minilm-int8" or "none" for a lexical-only engine.
    embed_model: str = "minilm-int8"
    vector_floor: float = 0.25  # MiniLM cosine of unrelated sentences sits below ~0.2
    # `search` (never `recall`) fills a list shorter than k with the nearest memories down to
    # this cosine, ranked after every hit that passed the floors ("Why did I begin that
    # language app?" -> "learning Tamil on Duolingo", cosine 0.247). At vector_floor: off.
    fill_floor: float = 0.15
    ann_threshold: int = 5_000  # memories per tenant from which vector search uses HNSW

    # Search.
    temporal_weight: float = 0.15  # share of a hit's score that comes from its temporal score
    lexical_candidates: int = 100
    common_term_df: float = 0.2  # query terms in more than this share of memories are dropped

    # Conversational activation (analysis/): every component can be switched off.
    analysis_enrich: bool = True  # save() fills entities, tags and strength left out
    analysis_phrases: bool = True
    analysis_entities: bool = True
    analysis_spacy: bool = True  # off: pattern-only entities
    analysis_intent: bool = True
    analysis_importance: bool = True
    analysis_tags: bool = True
    analysis_relations: bool = True
    analysis_dedup: bool = True
    analysis_context: bool = True
    analysis_save_threshold: float = 0.6  # SHOULD_SAVE when a save intent is at least this likely
    analysis_recall_threshold: float = 0.6  # SHOULD_SEARCH when RECALL_INFO is at least this likely
    analysis_context_turns: int = 8  # messages kept per session id
    analysis_learned_requests: bool = True  # the learned request check beside the rules
    analysis_batch_limit: int = 64  # save_many batches larger than this are not enriched
    dedup_merge: float = 0.9
    dedup_review: float = 0.85

    # Fact ledger (ledger/). Relation-name mapping thresholds: calibrated on the labelled pairs
    # of bench/data/relation_pairs.json (`mnemex eval relations`, figures in the README).
    ledger_extract: bool = True  # unkeyed saves extract (subject, relation, value) statements
    ledger_parse: bool = True  # clauses the patterns leave unread are parsed (ledger/cores.py)
    ledger_search: bool = True  # search puts the memory stating an asked-for key's value first
    ledger_resolve: bool = True  # search answers with the latest assertion of the asked attribute
    resolve_extracted: bool = True  # ... also over what the ledger extracted (not over keyed facts)
    assertion_reader: bool = True  # the statement reader tells assertions from mentions
    aspect_encoder: bool = True  # resolution groups statements by the aspect encoder's vectors
    assertion_floor: float = 0.5  # P(assertion) below which a statement never answers a search
    assertion_veto: float = 0.15  # P(assertion) below which an unkeyed save writes no fact
    relation_auto_threshold: float = 0.78  # map onto an existing key without asking
    relation_review_threshold: float = 0.67  # ...or ask in the review queue; below: a new key
    # Which key a verb-only statement changes ("I switched to Neovim"): calibrated on the labelled
    # cases of bench/data/value_cases.txt (`mnemex eval value-keys`, figures in the README).
    value_auto_threshold: float = 0.65  # take the guessed key without asking
    value_review_threshold: float = 0.45  # ...or ask in the review queue; below: key left unknown

    # Ranking (retrieval/fuse.py and friends). Defaults: the weights most folds of
    # `mnemex eval locomo` chose (README, "Retrieval quality").
    bm25_weight: float = 2.0  # RRF weight of the lexical channel at typical query-term rarity
    bm25_rarity_gain: float = 0.0  # how much rarer-than-typical query terms raise it (no gain seen)
    # The lexical channel's weight times (share of the query its best match covers) ** this:
    # a best match on one common word of a longer question ("a snorkelling day on holiday" ->
    # "Sports day is Thursday") says little. 0 turns it off (README, "Retrieval quality").
    bm25_coverage: float = 0.3
    vector_weight: float = 1.0  # RRF weight of the embedding channel
    context_weight: float = 0.5  # RRF weight of similarity to `context=` (recent conversation)
    graph_weight: float = 0.5  # prior: Personalized PageRank from the entities a query names
    graph_mention_weight: float = 0.25  # a name a memory mentions, vs. its subject (1.0)
    graph_alpha: float = 0.3  # PageRank restart probability
    neighbour_weight: float = 0.3  # share of a neighbour's score a memory gains (episode.py)
    neighbour_width: int = 1  # neighbours this many places away in the same episode
    episode_weight: float = 0.2  # share of its episode's best scores a memory gains
    episode_gap_minutes: float = 60.0  # memories from one source closer than this: one episode
    period_weight: float = 0.5  # prior: observed within the period a query names
    period_slack_days: float = 7.0  # ... falling to 0 this many days outside it
    time_cue_weight: float = 0.4  # prior: says when, for a query asking when
    # Usage learning (retrieval/usage.py) is off: the LoCoMo usage replay shows no gain.
    usage_weight: float = 0.0  # prior: retrieved and then used
    co_usage_weight: float = 0.0  # pull toward memories used together with a top candidate
    mmr_trade_off: float = 1.0  # MMR relevance-vs-novelty; 1.0 is off (pure relevance)

    recall_floor: float = 0.5  # recall() injects only hits scoring >= this share of the best

    # Limits on input (InvalidInputError names the field and the limit).
    max_content_chars: int = 50_000
    max_tags: int = 32
    max_tag_chars: int = 64
    max_entities: int = 64
    max_entity_chars: int = 200
    max_meta_bytes: int = 16_384
    max_meta_depth: int = MAX_META_DEPTH  # meta's nesting (a 1,000-deep one broke reads)
    max_query_chars: int = 4_000
    max_k: int = MAX_K
    max_batch: int = 10_000

    # Store.
    busy_timeout_ms: int = 30_000

    # Ingest (ingest/): chunks of files and folders. MiniLM reads 256 tokens; English notes run
    # ~3.8 characters a token (a 1,001-character chunk of tests/ingest/data was 261 tokens), so
    # 800 characters plus the heading line stay inside the window the vector channel sees.
    ingest_chunk_chars: int = 800
    ingest_overlap_chars: int = 150  # the end of a chunk repeated at the start of the next
    ingest_max_file_bytes: int = 20_000_000  # larger files are reported and skipped

    @property
    def vault_path(self) -> Path:
        """The Markdown vault promoted memories are written to."""
        return self.vault_dir if self.vault_dir is not None else self.data_dir / "vault"

    @property
    def default_db_path(self) -> Path:
        """The embedded default store: one SQLite file in the user data directory."""
        return self.data_dir / "mnemex.db"

    def replace(self, **changes: Any) -> Settings:
        """A copy with some fields changed (validated like the originals)."""
        return _validated(dataclasses.replace(self, **changes))

    @classmethod
    def load(cls, env: dict[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, TOML file (MNEMEX_CONFIG), MNEMEX_* variables, then overrides."""
        env = dict(os.environ) if env is None else env
        values: dict[str, Any] = {}
        config_file = env.get("MNEMEX_CONFIG")
        if config_file:
            try:
                with open(config_file, "rb") as handle:
                    table = tomllib.load(handle)
            except OSError as exc:
                raise InvalidInputError(
                    "MNEMEX_CONFIG", f"cannot read {config_file}: {exc.strerror or exc}"
                ) from exc
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise InvalidInputError(
                    "MNEMEX_CONFIG", f"{config_file} is not TOML: {exc}"
                ) from exc
            values.update({key: _coerce(key, value) for key, value in table.items()})
        for spec in fields(cls):
            raw = env.get(f"MNEMEX_{spec.name.upper()}")
            if raw is not None and raw != "":
                values[spec.name] = _coerce(spec.name, raw)
        values.update(overrides)
        unknown = set(values) - {spec.name for spec in fields(cls)}
        if unknown:
            raise InvalidInputError(sorted(unknown)[0], "unknown setting")
        return _validated(cls(**values))


_TYPES: dict[str, Any] = {
    spec.name: spec.type for spec in fields(Settings)
}  # annotations are strings under `from __future__ import annotations`


def _coerce(name: str, raw: Any) -> Any:
    kind = _TYPES.get(name)
    if kind is None:
        raise InvalidInputError(name, "unknown setting")
    if not isinstance(raw, str):
        return Path(raw) if "Path" in str(kind) and raw is not None else raw
    try:
        if kind == "float":
            return float(raw)
        if kind == "int":
            return int(raw)
        if kind == "bool":
            return raw.strip().lower() in {"1", "true", "yes", "on"}
        if "Path" in str(kind):
            return Path(raw).expanduser()
    except ValueError as exc:
        raise InvalidInputError(name, f"cannot parse {raw!r} as {kind}") from exc
    return raw


_RANKING_WEIGHTS = (
    "bm25_weight",
    "bm25_rarity_gain",
    "bm25_coverage",
    "vector_weight",
    "context_weight",
    "graph_weight",
    "graph_mention_weight",
    "neighbour_weight",
    "episode_weight",
    "period_weight",
    "time_cue_weight",
    "usage_weight",
    "co_usage_weight",
)


def _validated(settings: Settings) -> Settings:
    if settings.decay_curve not in get_args(DecayCurve):
        raise InvalidInputError("decay_curve", f"must be one of {', '.join(get_args(DecayCurve))}")
    for name in (
        "half_life_days",
        "fast_half_life_days",
        "slow_half_life_days",
        "power_alpha",
        "request_half_life_days",
        "decision_half_life_days",
        "preference_half_life_days",
        "fact_half_life_days",
        "chatter_half_life_days",
    ):
        if getattr(settings, name) <= 0:
            raise InvalidInputError(name, "must be positive", limit=0)
    if not 0 <= settings.fast_weight <= 1:
        raise InvalidInputError("fast_weight", "must be within [0, 1]", limit=1)
    if not 0 <= settings.recall_weight <= 1:
        raise InvalidInputError("recall_weight", "must be within [0, 1]", limit=1)
    if settings.burst_minutes < 0:
        raise InvalidInputError("burst_minutes", "must not be negative", limit=0)
    if settings.stability_ease < 1:
        raise InvalidInputError("stability_ease", "must be at least 1", limit=1)
    if not 1 <= settings.recall_stability_cap <= settings.stability_cap:
        raise InvalidInputError(
            "recall_stability_cap", "must be within [1, stability_cap]", limit=1
        )
    if not 1 <= settings.reinforced_stability <= settings.stability_cap:
        raise InvalidInputError(
            "reinforced_stability", "must be within [1, stability_cap]", limit=1
        )
    if not -1 <= settings.fill_floor <= 1:
        raise InvalidInputError("fill_floor", "must be within [-1, 1]", limit=1)
    for name in (
        "recall_floor",
        "temporal_weight",
        "analysis_save_threshold",
        "analysis_recall_threshold",
        "dedup_review",
        "assertion_floor",
        "assertion_veto",
    ):
        if not 0 <= getattr(settings, name) <= 1:
            raise InvalidInputError(name, "must be within [0, 1]", limit=1)
    if not settings.dedup_review <= settings.dedup_merge <= 1:
        raise InvalidInputError("dedup_merge", "must be within [dedup_review, 1]", limit=1)
    if settings.analysis_context_turns < 1:
        raise InvalidInputError("analysis_context_turns", "must be at least 1", limit=1)

    if settings.ann_threshold < 2:
        raise InvalidInputError("ann_threshold", "must be at least 2", limit=2)
    if not 0 <= settings.review_blend <= 0.5:
        raise InvalidInputError("review_blend", "must be within [0, 0.5]", limit=0.5)
    if not 0 <= settings.relation_review_threshold <= settings.relation_auto_threshold <= 1:
        raise InvalidInputError(
            "relation_review_threshold",
            "must be within [0, relation_auto_threshold] (and that within [0, 1])",
            limit=settings.relation_auto_threshold,
        )

    for name in _RANKING_WEIGHTS:
        if not 0 <= getattr(settings, name) <= 10:
            raise InvalidInputError(name, "must be within [0, 10]", limit=10)
    if not 0 < settings.graph_alpha < 1:
        raise InvalidInputError("graph_alpha", "must be within (0, 1)", limit=1)
    if not 0 <= settings.mmr_trade_off <= 1:
        raise InvalidInputError("mmr_trade_off", "must be within [0, 1]", limit=1)
    if not 1 <= settings.neighbour_width <= 10:
        raise InvalidInputError("neighbour_width", "must be within [1, 10]", limit=10)
    for name in ("episode_gap_minutes", "period_slack_days"):
        if getattr(settings, name) <= 0:
            raise InvalidInputError(name, "must be positive", limit=0)

    if not 200 <= settings.ingest_chunk_chars <= settings.max_content_chars // 2:
        raise InvalidInputError(
            "ingest_chunk_chars",
            "must be within [200, max_content_chars / 2]",
            limit=settings.max_content_chars // 2,
        )
    if not 0 <= settings.ingest_overlap_chars <= settings.ingest_chunk_chars // 2:
        raise InvalidInputError(
            "ingest_overlap_chars",
            "must be within [0, ingest_chunk_chars / 2]",
            limit=settings.ingest_chunk_chars // 2,
        )
    if settings.ingest_max_file_bytes < 1:
        raise InvalidInputError("ingest_max_file_bytes", "must be at least 1", limit=1)
    if not 0 <= settings.value_review_threshold <= settings.value_auto_threshold <= 1:
        raise InvalidInputError(
            "value_review_threshold",
            "must be within [0, value_auto_threshold] (and that within [0, 1])",
            limit=settings.value_auto_threshold,
        )
    return settings
