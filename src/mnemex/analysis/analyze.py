"""analyze(): every component on one message, and the action it recommends.

Components run one after the other, each behind its setting and each guarded: a component that
fails is skipped (logged, named in `Analysis.errors`) and the others still answer. The store is
reached through a `StoreView` whose methods each open their own short read, so no model runs while
a store lock is held.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from mnemex.analysis import (
    context,
    dedup,
    entities,
    importance,
    intent,
    lifetime,
    linking,
    phrases,
    relations,
    tags,
)
from mnemex.analysis.context import SessionWindows, Turn
from mnemex.config import Settings
from mnemex.ledger import lexicon
from mnemex.models import Analysis, Entity

log = logging.getLogger(__name__)
Vector = npt.NDArray[np.float32]
EmbedFn = Callable[[Sequence[str]], npt.NDArray[np.float32]]
T = TypeVar("T")
CONTEXT_TURNS_READ = 3  # caller-given earlier messages whose names are extracted
CLEAR_GREETING = 0.8  # a fragment this surely a greeting ("thanks!") is not read as an answer
SAVING_ACTIONS = frozenset({"MUST_SAVE", "SHOULD_SAVE", "DUPLICATE_DETECTED"})


class StoreView(Protocol):
    """What analysis reads from the store; each call is one short read transaction."""

    tenant: str

    def entities(self, names: Sequence[str]) -> dict[str, Entity]: ...
    def similar(self, text: str, vector: Vector | None) -> list[tuple[str, str, Vector | None]]: ...
    def tags(self) -> list[str]: ...


@dataclass(slots=True)
class Findings:
    """An Analysis plus what enrichment reuses: mentions, the message vector, resolved text."""

    analysis: Analysis
    mentions: list[entities.Mention] = field(default_factory=list)
    vector: Vector | None = None
    phrases: phrases.Phrases = field(default_factory=phrases.Phrases)


class Analyzer:
    """The analysis components of one engine, their shared state and their settings."""

    def __init__(self, settings: Settings, embedder: Callable[[], EmbedFn | None]) -> None:
        self.settings = settings
        self._embedder = embedder
        self.windows = SessionWindows(settings.analysis_context_turns)
        self.phrase_vectors = tags.PhraseCache()
        self._vocabularies: dict[str, tags.TagVocabulary] = {}
        self._vocabulary_lock = threading.Lock()
        self._warmed = False
        self.tag_sources: tuple[str, ...] = tags.SOURCES  # an ablation switches some off
        self.tag_trace: list[tags.Candidate] | None = None  # the tag trainer reads candidates
        self.category_trace: list[Any] | None = None  # and the category trainer, mentions

    def _warm_up(self) -> None:
        """On first use, load spaCy in a thread while this one loads the embedding model."""
        if self._warmed:
            return
        self._warmed = True
        if self.settings.analysis_entities and self.settings.analysis_spacy:
            threading.Thread(target=entities.load_spacy, name="mnemex-spacy", daemon=True).start()

    def embed_fn(self) -> EmbedFn | None:
        """The embedding function, or None when the model is off or cannot load."""
        try:
            return self._embedder()
        except Exception as exc:  # a missing model must not fail analysis
            log.warning("embedding unavailable for analysis: %s", exc)
            return None

    def phrase_embed(self) -> EmbedFn | None:
        """Embeddings of short phrases (names, tags) through the phrase cache, or None."""
        embed = self.embed_fn()
        if embed is None:
            return None
        return lambda phrases: self.phrase_vectors.embed(embed, phrases)

    def _guard(self, name: str, errors: list[str], default: T, run: Callable[[], T]) -> T:
        try:
            return run()
        except Exception as exc:
            log.warning("analysis component %s failed: %s", name, exc, exc_info=True)
            errors.append(f"{name}: {type(exc).__name__}: {exc}")
            return default

    def turns(self, session_id: str | None, given: str | Sequence[str] | None) -> list[Turn]:
        """The conversation before this message: the session's window, then given context."""
        if not self.settings.analysis_context:
            return []
        window = self.windows.window(session_id) if session_id else []
        extra = context.as_turns(given)[-CONTEXT_TURNS_READ:]
        if self.settings.analysis_entities:
            for turn in extra:
                found = entities.extract(turn.text, use_spacy=self.settings.analysis_spacy)
                turn.entities = [m.text for m in found if m.named]
        return window + extra

    def remember_turn(self, session_id: str | None, findings: Findings, text: str) -> None:
        """Append the message to its session's window."""
        if session_id and self.settings.analysis_context:
            names = [m.text for m in findings.mentions if m.named]
            self.windows.add(session_id, Turn(text, names))

    def run(
        self,
        text: str,
        *,
        turns: Sequence[Turn] = (),
        view: StoreView | None = None,
        always_tag: bool = False,
        vector: Vector | None = None,
    ) -> Findings:
        """Every enabled component on `text`; the recommended action and its reasoning.

        Tags are suggested for messages worth saving (or always, with `always_tag`): ranking them
        costs an embedding call that a greeting or a question does not need.
        """
        s = self.settings
        self._warm_up()
        errors: list[str] = []
        result = Analysis(errors=errors)
        found = Findings(result)
        if s.analysis_phrases:
            found.phrases = self._guard(
                "phrases", errors, found.phrases, lambda: phrases.detect(text)
            )
        p = found.phrases
        result.save_request, result.recall_request = p.save_request, p.recall_request
        result.importance_marker = p.importance_marker
        embed = self.embed_fn()
        found.vector = vector
        if embed is not None and vector is None:
            found.vector = self._guard("embedding", errors, None, lambda: embed([text])[0])
        if s.analysis_phrases and s.analysis_learned_requests:
            learned = self._guard(
                "requests", errors, False, lambda: lifetime.learned_request(text, p, found.vector)
            )
            if learned:  # a wording the rules miss ("log that we decided ...")
                p.save_request = result.save_request = True
                p.matches.append("save: learned request check")
        if s.analysis_entities:
            found.mentions = self._guard("entities", errors, [], lambda: self._entities(text, view))
        none: list[context.Reference] = []
        refs = self._guard("context", errors, none, lambda: self._references(text, turns, found))
        if s.analysis_intent:
            self._guard("intent", errors, None, lambda: self._intent(text, turns, found, embed))
        if s.analysis_importance:
            result.strength = importance.strength(result.intent, p)
        result.kind = self._guard(
            "kind",
            errors,
            "note",
            lambda: lifetime.kind_of(
                text,
                intent=result.intent,
                save_request=p.save_request,
                vector=found.vector,
                confidence=result.confidence,
            ),
        )
        if s.analysis_relations:
            result.relations = self._guard(
                "relations", errors, [], lambda: self._relations(text, found, refs)
            )
        if s.analysis_dedup and view is not None:
            self._guard("dedup", errors, None, lambda: self._dedup(text, found, view))
        decide(result, p, s)
        # Chatter ("ok", "ha, classic Year 9") files under nothing: a topic label nearest to a
        # few words is noise, and search reads tags as it reads content.
        wanted = always_tag or result.action in SAVING_ACTIONS
        if s.analysis_tags and wanted and result.kind != "chatter":
            result.tags = self._guard(
                "tags",
                errors,
                [],
                lambda: self._tags(context.substitute(text, refs), found, embed, view),
            )
        return found

    def _entities(self, text: str, view: StoreView | None) -> list[entities.Mention]:
        mentions = entities.extract(text, use_spacy=self.settings.analysis_spacy)
        if view is not None:
            words = entities.tokens(text, use_spacy=self.settings.analysis_spacy)
            mentions = linking.link(text, mentions, view.entities, words)
        return mentions

    def _references(
        self, text: str, turns: Sequence[Turn], found: Findings
    ) -> list[context.Reference]:
        names = [m.text for m in found.mentions if m.named]
        refs = context.resolve(text, turns, names) if turns else []
        found.analysis.entities = [m.as_dict() for m in found.mentions]
        for ref in refs:
            if ref.entity.casefold() not in {n.casefold() for n in names}:
                names.append(ref.entity)
                found.analysis.entities.append(
                    {"text": ref.entity, "label": "CONTEXT", "start": ref.start, "end": ref.end,
                     "source": "context", "entity_id": None, "pronoun": ref.pronoun}
                )  # fmt: skip
        return refs

    def _intent(
        self, text: str, turns: Sequence[Turn], found: Findings, embed: EmbedFn | None
    ) -> None:
        result = found.analysis
        guess = intent.predict(text, found.vector)
        if turns and context.is_fragment(text) and not _clear_greeting(guess):
            joined = context.with_context(text, turns, depth=1)
            vector = embed([joined])[0] if embed is not None else None
            wider = intent.predict(joined, vector)
            if context.answers_question(turns):
                # "Black, no sugar." after "How do you take your coffee?" states something.
                guess = intent.restrict(wider, intent.SAVE_INTENTS)
            elif wider.confidence > guess.confidence:
                guess = wider
        result.intent, result.confidence = guess.intent, round(guess.confidence, 4)
        result.probabilities, result.intent_model = guess.probabilities, guess.model

    def _tags(
        self, text: str, found: Findings, embed: EmbedFn | None, view: StoreView | None
    ) -> list[str]:
        named = [m for m in found.mentions if m.named]
        names = [m.text for m in named] + [text[m.start : m.end] for m in named]
        tools = [m.text for m in named if m.source == "ruler" and m.label in ("TECH", "PRODUCT")]
        tagged = None
        if self.settings.analysis_spacy:
            words = entities.tokens(text)
            tagged = None if words is None else [(w.text, w.tag) for w in words]
        return tags.suggest(
            text,
            vector=found.vector,
            embed=embed,
            names=names,
            vocabulary=self.vocabulary(view),
            words=tagged,
            sources=self.tag_sources,
            kinds=_kinds([m.text for m in named if m.source == "ruler"]),
            tools=tools,
            trace=self.tag_trace,
        )

    def _relations(
        self, text: str, found: Findings, refs: Sequence[context.Reference]
    ) -> list[dict[str, Any]]:
        spans = [relations.Span(m.text, m.start, m.end) for m in found.mentions if m.named]
        spans += [relations.Span(r.entity, r.start, r.end) for r in refs]
        return [f.as_dict() for f in relations.extract(text, spans)]

    def _dedup(self, text: str, found: Findings, view: StoreView) -> None:
        s = self.settings
        verdict = dedup.check(
            text, found.vector, view.similar(text, found.vector), merge=s.dedup_merge,
            review=s.dedup_review,
        )  # fmt: skip
        if verdict is not None:
            found.analysis.duplicate_of = verdict.memory_id
            found.analysis.duplicate_score = verdict.similarity

    def vocabulary(self, view: StoreView | None) -> tags.TagVocabulary:
        """The tags of the view's tenant (read from the store once), or an empty vocabulary."""
        with self._vocabulary_lock:
            if view is None:
                return tags.TagVocabulary(self.phrase_vectors)
            vocabulary = self._vocabularies.get(view.tenant)
            if vocabulary is None:
                vocabulary = tags.TagVocabulary(self.phrase_vectors)
                self._vocabularies[view.tenant] = vocabulary
        if not vocabulary.loaded and self.settings.analysis_tags:
            with vocabulary.lock:
                if not vocabulary.loaded:
                    vocabulary.add(view.tags())
                    vocabulary.loaded = True
        return vocabulary


def _kinds(names: Sequence[str]) -> list[str]:
    """What the named technologies are ("editor" for Neovim), as tag words."""
    found = (lexicon.kind_of(name) for name in names)
    return list(dict.fromkeys(k.replace("_", " ") for k in found if k))


def _clear_greeting(guess: intent.Prediction) -> bool:
    return guess.intent == "GREETING" and guess.confidence >= CLEAR_GREETING


def decide(result: Analysis, p: phrases.Phrases, s: Settings) -> None:
    """Set the action and a one-line reasoning from what the components found."""
    said = "; ".join(p.matches)
    duplicate = result.duplicate_of is not None and (result.duplicate_score or 0) >= s.dedup_merge
    if p.save_request:
        result.action = "MUST_SAVE"
        result.reasoning = f"explicit save request ({said})"
    elif p.recall_request:
        result.action = "SHOULD_SEARCH"
        result.reasoning = f"explicit recall request ({said})"
    elif result.intent == "RECALL_INFO" and result.confidence >= s.analysis_recall_threshold:
        result.action = "SHOULD_SEARCH"
        result.reasoning = f"recall intent ({result.confidence:.2f})"
    elif p.negated:
        result.action = "NONE"
        result.reasoning = f"the message asks not to save it ({said})"
    elif result.intent in intent.SAVE_INTENTS and result.confidence >= s.analysis_save_threshold:
        result.action = "DUPLICATE_DETECTED" if duplicate else "SHOULD_SAVE"
        result.reasoning = f"{result.intent} intent ({result.confidence:.2f})"
    else:
        result.action = "NONE"
        result.reasoning = f"{result.intent} intent ({result.confidence:.2f}), nothing to do"
    if result.duplicate_of is not None:
        result.reasoning += f"; similar to {result.duplicate_of} ({result.duplicate_score:.2f})"
