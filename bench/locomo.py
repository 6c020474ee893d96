"""`mnemex eval locomo`: turn- and session-level retrieval quality on LoCoMo, cross-validated.

Every turn of a conversation is saved through the public API (`save_many`: "Speaker: text",
plus the shared image's caption; the session date as `observed_at`; the dialogue id in `meta`),
one store per conversation, and each question is asked with `store.search` against its own
conversation. The store's clock is set to the day after the conversation's last session: the
questions are asked once it is over.

Reported numbers are held out: the ranking weights are tuned by coordinate ascent on the
training conversations of each fold and scored on the fold's test conversations only. Plain
BM25 (the lexical channel alone) is the baseline row, computed in the same run, and each
ablation turns one component off on top of each fold's tuned weights.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import embed_cache, metrics, usage_replay
from bench.locomo_data import load
from bench.locomo_index import Indexed, Rows, ask_all, index, merge_rows, summarise
from mnemex.config import Settings

# The weights tuned per fold, and the values coordinate ascent tries for each.
GRID: dict[str, tuple[float, ...]] = {
    "bm25_weight": (1.0, 1.5, 2.0, 3.0),
    "bm25_rarity_gain": (0.0, 1.0, 2.0),
    "graph_weight": (0.0, 0.25, 0.5, 1.0),
    "neighbour_weight": (0.0, 0.15, 0.3, 0.5),
    "episode_weight": (0.0, 0.05, 0.1, 0.2),
    "period_weight": (0.0, 0.5, 1.0),
    "time_cue_weight": (0.0, 0.2, 0.4),
}
# Where tuning starts on every fold: plain fusion (BM25 and vectors weighted alike, no prior,
# no context), so a signal is kept only when a fold's training conversations reward it.
START = {name: values[0] for name, values in GRID.items()}
PASSES = 3
OBJECTIVE = "R@10"
SHALLOW = 5  # the k of the row that asks for a short list, as an agent does
# Baseline: the lexical channel alone, no prior, no context.
PLAIN_BM25 = {
    "vector_weight": 0.0,
    "graph_weight": 0.0,
    "neighbour_weight": 0.0,
    "episode_weight": 0.0,
    "period_weight": 0.0,
    "time_cue_weight": 0.0,
    "usage_weight": 0.0,
    "co_usage_weight": 0.0,
    "bm25_rarity_gain": 0.0,
}
ABLATIONS: dict[str, dict[str, float]] = {
    "no vector": {"vector_weight": 0.0},
    "no BM25": {"bm25_weight": 0.0},
    "no graph": {"graph_weight": 0.0},
    "no usage": {"usage_weight": 0.0, "co_usage_weight": 0.0},
    "no episode context": {"neighbour_weight": 0.0, "episode_weight": 0.0},
    "no time cues": {"period_weight": 0.0, "time_cue_weight": 0.0},
}

Params = tuple[tuple[str, float], ...]


@dataclass
class Evaluator:
    """Scores settings on conversations, remembering every (settings, conversation) result."""

    indexed: list[Indexed]
    base: Settings
    cache: dict[tuple[Params, int], Rows] = field(default_factory=dict)

    def rows(self, params: Params, conversation: int) -> Rows:
        """Per-question metrics of one conversation under `params` (computed once)."""
        key = (params, conversation)
        if key not in self.cache:
            settings = self.base.replace(**dict(params))
            self.cache[key] = ask_all(self.indexed[conversation], settings)
        return self.cache[key]

    def score(self, params: Params, conversations: Sequence[int]) -> float:
        """The objective (mean recall@10 over categories 1-4) on some conversations."""
        rows = [r for c in conversations for group in self.rows(params, c).values() for r in group]
        return metrics.mean_rows(rows)[OBJECTIVE]


def tune(
    evaluator: Evaluator, train: Sequence[int], start: dict[str, float], passes: int = PASSES
) -> dict[str, float]:
    """Coordinate ascent over GRID on the training conversations only."""
    best = dict(start)
    best_score = evaluator.score(_key(best), train)
    for _ in range(passes):
        improved = False
        for name, values in GRID.items():
            for value in values:
                trial = {**best, name: value}
                score = evaluator.score(_key(trial), train)
                if score > best_score + 1e-9:
                    best, best_score, improved = trial, score, True
        if not improved:
            break
    return best


def _key(params: dict[str, float]) -> Params:
    return tuple(sorted(params.items()))


def folds(count: int, k: int) -> list[list[int]]:
    """Conversation indices split into k folds round-robin (deterministic)."""
    return [[c for c in range(count) if c % k == fold] for fold in range(k)]


def _start(settings: Settings) -> dict[str, float]:
    return {name: float(getattr(settings, name)) for name in GRID}


def run(
    data: str | Path,
    *,
    k_folds: int = 5,
    tune_weights: bool = True,
    usage: bool = True,
    cache: Path | None = None,
    model: str = "minilm-int8",
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The report: cross-validated row, baseline, defaults, ablations, usage replay, weights."""
    say = progress or (lambda _: None)
    with _indexed(data, cache, model, say) as evaluator:
        n = len(evaluator.indexed)
        everyone = list(range(n))
        defaults = _start(evaluator.base)
        chosen: list[dict[str, float]] = []
        for number, test in enumerate(folds(n, k_folds), start=1):
            train = [c for c in everyone if c not in test]
            say(f"fold {number}/{k_folds}: tuning on {len(train)} conversations")
            chosen.append(tune(evaluator, train, START) if tune_weights else defaults)
        fold_list = folds(n, k_folds)

        def held_out(extra: dict[str, float]) -> Rows:
            parts = [
                evaluator.rows(_key({**params, **extra}), c)
                for params, test in zip(chosen, fold_list, strict=True)
                for c in test
            ]
            return merge_rows(parts)

        report = [summarise("Mnemex, cross-validated", held_out({}))]
        report.append(
            summarise(
                "plain BM25 (baseline)",
                merge_rows([evaluator.rows(_key({**defaults, **PLAIN_BM25}), c) for c in everyone]),
            )
        )
        report.append(
            summarise(
                "Mnemex, default settings",
                merge_rows([evaluator.rows(_key(defaults), c) for c in everyone]),
            )
        )
        # Every other row slices one deep list; a caller asks for a few. Whatever ranks the top
        # k differently from the top k of a longer list (review slots, a reserve) shows here.
        report.append(
            summarise(
                f"  asked for {SHALLOW} (k={SHALLOW}: R@10 and R@20 are its R@{SHALLOW})",
                merge_rows(
                    [ask_all(evaluator.indexed[c], evaluator.base, SHALLOW) for c in everyone]
                ),
            )
        )
        for label, extra in ABLATIONS.items():
            say(f"ablation: {label}")
            report.append(summarise(f"  {label}", held_out(extra)))
        result: dict[str, Any] = {"rows": report, "folds": k_folds, "weights": chosen}
        if usage:
            conversations = [item.conversation for item in evaluator.indexed]
            result["usage"] = usage_replay.run(conversations, evaluator.base, say)
        return result


@contextmanager
def _indexed(
    data: str | Path, cache: Path | None, model: str, say: Callable[[str], None]
) -> Iterator[Evaluator]:
    """Conversations loaded and indexed (cached embeddings), closed afterwards."""
    conversations = load(data)
    cached = embed_cache.register_cached(model, cache or embed_cache.default_path())
    with tempfile.TemporaryDirectory() as folder:
        # Defaults only (no MNEMEX_* variables): the report does not depend on the environment.
        base = Settings.load(env={}, data_dir=Path(folder), embed_model=cached)
        indexed = []
        for number, conversation in enumerate(conversations, start=1):
            say(f"indexing conversation {number}/{len(conversations)}")
            indexed.append(index(conversation, base))
        try:
            yield Evaluator(indexed, base)
        finally:
            for item in indexed:
                item.store.close()
