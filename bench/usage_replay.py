"""Does usage learning help? A replay on LoCoMo: earlier questions are used, later ones asked.

Per conversation, the questions keep their order and alternate: every other one is history, the
rest (the later questions) are asked after it. Each history question is asked
with `recall` (k = 10, as an agent would), and the retrieved turns that are evidence are passed
to `observe`, as an agent does with the memories it actually used (a memory it never retrieved
cannot be used). The other questions are then asked with `search` and scored, three ways:
- cold: a fresh store, no history at all;
- replay, learning off: after the history, `usage_weight` and `co_usage_weight` at 0 (observed
  memories still gain use counts, so the temporal score moves as it always does);
- replay, learning on: the same store with usage learning (retrieval/usage.py) on, at `ON`.
The difference between the last two rows is what usage learning adds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench import metrics
from bench.locomo_data import Conversation, Question
from bench.locomo_index import DEPTH, Indexed, Rows, index, merge_rows, summarise
from mnemex.config import Settings
from mnemex.service import MemoryStore

RECALL_K = 10
OFF = {"usage_weight": 0.0, "co_usage_weight": 0.0}
ON = {"usage_weight": 0.1, "co_usage_weight": 0.2}  # small: a prior must not drown relevance


def _ask(indexed: Indexed, settings: Settings, questions: tuple[Question, ...]) -> Rows:
    """Ask the questions on the store under `settings`; metrics per category."""
    view = MemoryStore(indexed.store.backend, settings, clock=indexed.clock)
    rows: Rows = {}
    for question in questions:
        hits = view.search(question.text, k=DEPTH)
        ranked = [indexed.turn_of[hit.memory.id] for hit in hits]
        row = metrics.question_metrics(ranked, question.evidence, indexed.conversation.session_of)
        rows.setdefault(question.category, []).append(row)
    return rows


def _replay(indexed: Indexed, settings: Settings, history: tuple[Question, ...]) -> set[str]:
    """Recall each history question and observe the evidence it retrieved; the turns used."""
    view = MemoryStore(indexed.store.backend, settings, clock=indexed.clock)
    used: set[str] = set()
    for question in history:
        hits = view.recall(question.text, k=RECALL_K).hits
        found = [h.memory.id for h in hits if indexed.turn_of[h.memory.id] in question.evidence]
        if found:
            view.observe(found)
            used.update(indexed.turn_of[memory_id] for memory_id in found)
    return used


def _split(conversation: Conversation) -> tuple[tuple[Question, ...], tuple[Question, ...]]:
    """Alternate questions: the file groups questions by category, alternation keeps the mix."""
    questions = conversation.questions
    return questions[0::2], questions[1::2]


def run(
    conversations: list[Conversation], settings: Settings, say: Callable[[str], None]
) -> dict[str, Any]:
    """Rows for the later half of every conversation under the three conditions."""
    cold: list[Rows] = []
    off: list[Rows] = []
    on: list[Rows] = []
    reused = total = 0
    for number, conversation in enumerate(conversations, start=1):
        say(f"usage replay: conversation {number}/{len(conversations)}")
        history, later = _split(conversation)
        fresh = index(conversation, settings)
        try:
            cold.append(_ask(fresh, settings.replace(**OFF), later))
            used = _replay(fresh, settings, history)
            off.append(_ask(fresh, settings.replace(**OFF), later))
            on.append(_ask(fresh, settings.replace(**ON), later))
        finally:
            fresh.store.close()
        reused += sum(any(turn in used for turn in q.evidence) for q in later)
        total += len(later)
    return {
        "rows": [
            summarise("cold store", merge_rows(cold)),
            summarise("replay, usage learning off", merge_rows(off)),
            summarise("replay, usage learning on", merge_rows(on)),
        ],
        "later_questions_reusing_a_used_turn": round(reused / max(total, 1), 3),
    }
