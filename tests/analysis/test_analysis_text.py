"""Relations, tags, duplicate similarity and conversation context on plain text."""

from __future__ import annotations

import numpy as np

from mnemex.analysis import context, dedup, entities, relations, tags
from mnemex.embed import load_embedder


def _relations(text: str) -> list[dict[str, object]]:
    spans = [relations.Span(m.text, m.start, m.end) for m in entities.extract(text) if m.named]
    return [found.as_dict() for found in relations.extract(text, spans)]


def test_attribute_of_one_entity_creates_no_other_entity() -> None:
    found = _relations("Dell is a developer with 15 years experience.")
    assert found == [
        {
            "kind": "attribute",
            "subject": "Dell",
            "type": "is",
            "object": None,
            "value": "a developer with 15 years experience",
            "tags": ["developer"],
        }
    ]


def test_relationships_between_two_entities() -> None:
    assert _relations("Bob is Alice's manager")[0] | {"tags": []} == {
        "kind": "relationship", "subject": "Bob", "type": "manager_of", "object": "Alice",
        "value": None, "tags": [],
    }  # fmt: skip
    uses = _relations("Alice uses Kubernetes at Microsoft")
    assert [(r["subject"], r["type"], r["object"]) for r in uses] == [
        ("Alice", "uses", "Kubernetes"),
        ("Alice", "at", "Microsoft"),
    ]
    role = _relations("Priya is a data scientist at Stripe")[0]
    assert (role["type"], role["object"], role["tags"]) == (
        "works_at",
        "Stripe",
        ["data-scientist"],
    )
    assert _relations("Olu works on Kubernetes")[0]["type"] == "works_on"
    assert _relations("auth -> billing")[0] | {} == {
        "kind": "relationship", "subject": "auth", "type": "leads_to", "object": "billing",
        "value": None, "tags": [],
    }  # fmt: skip


def test_a_name_used_as_a_modifier_is_not_an_object() -> None:
    found = _relations("Tomás manages the Berlin office")
    assert found[0]["kind"] == "attribute" and found[0]["value"] == "the Berlin office"


def test_tags_are_topics_never_the_intent_or_a_piece_of_the_sentence() -> None:
    embedder = load_embedder("minilm-int8")
    assert embedder is not None
    text = "We decided to migrate the billing database to PostgreSQL next quarter"
    vector = embedder.embed([text])[0]
    words = [(w, "NN" if w in {"billing", "database", "quarter"} else "VB") for w in text.split()]
    found = tags.suggest(
        text, vector=vector, embed=embedder.embed, names=["PostgreSQL"], words=words,
        tools=["PostgreSQL"],
    )  # fmt: skip
    assert 0 < len(found) <= tags.MAX_TAGS and "decision" not in found
    assert all(t == t.lower() for t in found)
    assert "postgresql" in found and "migration" in found  # the tool, a topic it files under
    model = tags.model()
    assert model is not None
    nouns = {"billing", "database", "quarter", "postgresql"}
    assert all(set(t.split("-")) <= nouns or t in model.topics for t in found)
    assert "postgres" not in found  # one spelling of one name


def test_the_tag_model_keeps_only_what_a_person_would_file_under() -> None:
    embedder = load_embedder("minilm-int8")
    assert embedder is not None
    text = "My sister's wedding is in June in Lisbon"
    words = [(w, "NN" if w in {"sister", "wedding"} else "IN") for w in text.split()]
    found = tags.suggest(text, vector=embedder.embed([text])[0], embed=embedder.embed, words=words)
    assert found[0] == "wedding" and "sister" not in found  # the topic, not every noun
    trace: list[tags.Candidate] = []
    chatter = "ok sounds good"
    tags.suggest(chatter, vector=embedder.embed([chatter])[0], embed=embedder.embed, trace=trace)
    model = tags.model()
    assert model is not None and trace
    assert max(model.score(trace)) < model.threshold  # nothing close enough to file it under


def test_tags_reuse_existing_store_tags() -> None:
    vocabulary = tags.TagVocabulary()
    vocabulary.add(["databases"])
    vocabulary.loaded = True
    found = tags.suggest("The database is slow", vector=None, embed=None, vocabulary=vocabulary)
    assert "databases" in found and "database" not in found


def test_tags_without_embeddings_are_the_nouns() -> None:
    words = [("Ines", "NNP"), ("loves", "VBZ"), ("trail", "NN"), ("running", "NN")]
    words += [("in", "IN"), ("Quito", "NNP")]
    found = tags.suggest(
        "Ines loves trail running in Quito",
        vector=None,
        embed=None,
        names=["Ines", "Quito"],
        words=words,
    )
    assert found[:2] == ["trail", "running"]  # compounds only through the model
    assert not {"ines", "loves", "quito", "ines-loves"} & set(found)


def test_duplicate_similarity_separates_paraphrase_from_a_changed_value() -> None:
    embedder = load_embedder("minilm-int8")
    assert embedder is not None
    texts = [
        "The standup moved to 10:30",
        "Standup has moved to 10:30.",
        "The standup moved to 11:30",
    ]
    a, b, c = embedder.embed(texts)
    assert dedup.similarity(texts[0], texts[1], a, b) >= 0.9
    assert dedup.similarity(texts[0], texts[2], a, c) < 0.85
    assert dedup.similarity("I'm vegetarian", "I'm not vegetarian anymore") < 0.85
    assert dedup.similarity("Alice uses Vim", "alice uses vim!") == 1.0


def test_duplicate_check_picks_the_best_candidate_and_its_action() -> None:
    vector = np.zeros(3, dtype=np.float32)
    candidates = [("m1", "Bob likes tea", None), ("m2", "Alice prefers email to Slack", None)]
    verdict = dedup.check(
        "Alice prefers email to Slack!", vector, candidates, merge=0.9, review=0.85
    )
    assert verdict is not None and (verdict.memory_id, verdict.action) == ("m2", "MERGE")
    assert dedup.check("Carol bakes bread", None, candidates, merge=0.9, review=0.85) is None


def test_session_windows_keep_the_last_turns_per_session() -> None:
    windows = context.SessionWindows(size=2, max_sessions=2)
    for text in ("one", "two", "three"):
        windows.add("a", context.Turn(text))
    windows.add("b", context.Turn("x"))
    windows.add("c", context.Turn("y"))  # "a" is the least recently used session: dropped
    assert windows.window("a") == []
    assert [t.text for t in windows.window("b")] == ["x"]


def test_pronouns_resolve_to_the_last_entity() -> None:
    turns = [context.Turn("Have you tried Helix?", ["Helix"])]
    refs = context.resolve("I use it every day", turns, [])
    assert [(r.pronoun, r.entity) for r in refs] == [("it", "Helix")]
    assert context.substitute("I use it every day", refs) == "I use Helix every day"
    assert context.resolve("remember this", turns, []) == []
    assert context.resolve("It is important to rest", turns, []) == []


def test_contrast_cues_name_what_differs() -> None:
    from mnemex.analysis.contrast import contrasts

    assert contrasts("The limit is 100", "The limit is 200") == ["numbers"]
    assert "polarity" in contrasts("I eat meat", "I don't eat meat")
    assert "tense" in contrasts("Anika is the lead", "Anika was the lead")
    assert "people" in contrasts("I'm allergic to nuts", "My son is allergic to nuts")
    assert "antonym" in contrasts("The freeze starts Friday", "The freeze ends Friday")
    assert "direction" in contrasts("Sanjay reports to Yuki", "Yuki reports to Sanjay")
    assert contrasts("We're dropping Python 3.8", "We are dropping Python 3.8") == []
    assert contrasts("My gym locker is 58", "Gym locker: 58") == []


def test_spelling_variants_share_a_word() -> None:
    assert dedup.dice(dedup.tokens("I'm colour-blind"), dedup.tokens("I am color blind")) == 1.0
    assert dedup.dice(["cat"], ["car"]) == 0.0


def test_members_of_a_closed_set_contrast_but_a_modal_may_does_not() -> None:
    from mnemex.analysis import contrast

    assert "exclusive" in contrast.contrasts(
        "We moved the sync to Wednesdays", "We moved the sync to Thursdays"
    )
    assert "exclusive" in contrast.contrasts("The blue door", "The green door")
    assert "exclusive" not in contrast.contrasts("I may visit in June", "I will visit in June")
    assert "exclusive" not in contrast.contrasts("Standup every Monday", "Every Monday: standup")
