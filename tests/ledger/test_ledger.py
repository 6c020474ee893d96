"""The fact ledger through MemoryStore: keyed writes, windows, reads, search and reviews."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from mnemex import ConflictError, InvalidInputError, MemoryStore, NotFoundError
from mnemex.ledger import infer
from tests.conftest import FakeClock

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def day(n: int) -> datetime:
    return T0 + timedelta(days=n)


def keyed_values(
    store: MemoryStore, subject: str, relation: str, said: str, values: list[tuple[int, str]]
) -> None:
    """Save a keyed statement (`said` with its value in place of {}) on each (day, value)."""
    for when, value in values:
        store.save(
            said.format(value),
            subject=subject,
            relation=relation,
            value=value,
            observed_at=day(when),
        )


def key(store: MemoryStore, value: str, when: int, content: str | None = None):  # type: ignore[no-untyped-def]
    return store.save(
        content or f"Alice uses {value} as her editor",
        subject="Alice",
        relation="editor",
        value=value,
        observed_at=day(when),
    )


def test_new_value_supersedes_and_closes_the_old_window(store: MemoryStore) -> None:
    first = key(store, "Vim", 0)
    assert first.action == "created" and [f.object for f in first.facts] == ["Vim"]
    second = key(store, "Neovim", 30)
    assert second.action == "superseded"
    assert second.superseded == [first.id]
    [current] = store.facts("Alice", "editor")
    assert current.object == "Neovim" and current.valid_from == day(30)
    old, new = store.facts("Alice", "editor", include_history=True)
    assert (old.object, old.status, old.valid_to, old.superseded_by) == (
        "Vim",
        "superseded",
        day(30),
        new.id,
    )
    assert store.get(first.id).superseded_by == second.id


def test_relation_names_are_normalised(store: MemoryStore) -> None:
    store.save("x", subject="Alice", relation="Primary Databases", value="Postgres")
    assert [f.relation for f in store.facts("alice")] == ["primary_database"]
    assert store.facts("Alice", "primary database")[0].object == "Postgres"


def test_restating_the_current_value_is_unchanged_and_reinforces(store: MemoryStore) -> None:
    first = key(store, "Vim", 0)
    again = key(store, "vim", 5, content="Alice still uses Vim")
    assert again.action == "unchanged"
    assert again.id == first.id
    assert again.memory.use_count == 1
    assert store.stats()["memories"]["total"] == 1
    assert len(store.facts("Alice", include_history=True)) == 1


def test_late_arrival_becomes_history_with_its_window(store: MemoryStore) -> None:
    key(store, "Vim", 0)
    current = key(store, "Helix", 60)
    late = key(store, "Emacs", 30)  # observed before the current value, recorded after it
    assert late.action == "created"
    assert [f.status for f in late.facts] == ["superseded"]
    assert store.facts("Alice", "editor")[0].object == "Helix"
    history = store.facts("Alice", "editor", include_history=True)
    assert [(f.object, f.valid_from, f.valid_to) for f in history] == [
        ("Vim", day(0), day(30)),
        ("Emacs", day(30), day(60)),
        ("Helix", day(60), None),
    ]
    assert store.get(late.id).superseded_by == current.id


def test_as_of_returns_what_held_then(store: MemoryStore, clock: FakeClock) -> None:
    clock.now = day(0)
    key(store, "Vim", 0)
    clock.now = day(40)
    key(store, "Helix", 40)
    assert store.facts("Alice", as_of=day(10))[0].object == "Vim"
    assert store.facts("Alice", as_of=day(50))[0].object == "Helix"
    assert store.facts("Alice", as_of=day(-1)) == []


def test_as_of_never_shows_a_fact_recorded_later(store: MemoryStore, clock: FakeClock) -> None:
    clock.now = day(0)
    key(store, "Vim", 0)
    clock.now = day(50)
    key(store, "Helix", 20)  # we learn at day 50 that Alice switched at day 20
    [seen] = store.facts("Alice", as_of=day(30))
    assert seen.object == "Vim" and seen.status == "active"  # what the ledger said at day 30
    assert store.facts("Alice", as_of=day(60))[0].object == "Helix"


def test_correction_replaces_the_value_from_its_start(store: MemoryStore, clock: FakeClock) -> None:
    store.save("Bob's editor is Vim", observed_at=day(0))
    fixed = store.save("Actually, Bob's editor is Emacs, not Vim", observed_at=day(1))
    assert fixed.action == "superseded"
    old, new = store.facts("Bob", include_history=True)
    assert new.object == "Emacs" and new.valid_from == day(0)
    assert old.valid_from == old.valid_to == day(0)  # it never held


def test_retraction_ends_the_value_without_a_successor(store: MemoryStore) -> None:
    stated = store.save("Bob uses Postgres as his database", observed_at=day(0))
    gone = store.save("Bob doesn't use Postgres anymore", observed_at=day(9))
    assert store.facts("Bob") == []
    [old] = store.facts("Bob", include_history=True)
    assert (old.status, old.valid_to, old.superseded_by) == ("superseded", day(9), None)
    assert store.get(stated.id).superseded_by == gone.id


def test_a_short_form_of_a_value_names_it_in_a_retraction_and_a_replacement(
    store: MemoryStore,
) -> None:
    """ "I'm leaving Ridgeway" ends "Ridgeway Logistics"; "replaced it with" takes the owned
    thing its first clause names ("my iPhone") as the value replaced, "iPhone 13"."""
    store.save("I work at Ridgeway Logistics as a data analyst.", observed_at=day(0))
    store.save("My phone is an iPhone 13.", observed_at=day(1))
    store.save("Sofia works at Ridgeway Freight.", observed_at=day(2))
    store.save("I'm leaving Ridgeway; the new job is in the spring.", observed_at=day(5))
    assert store.facts("user", "employer") == []
    assert store.facts("Sofia", "employer")[0].object == "Ridgeway Freight"  # not hers
    store.save("Dropped my iPhone in a lake and replaced it with a Pixel 8.", observed_at=day(9))
    [phone] = store.facts("user", "phone")
    assert (phone.object, phone.valid_from) == ("Pixel 8", day(9))
    assert "Pixel 8" in {f.object for f in store.profile()}


def test_a_key_only_others_hold_gives_way_to_the_key_of_the_value_left(store: MemoryStore) -> None:
    """Nadia's bakery is Bread Ahead; "bread shop" is someone else's key. A change that names the
    other key and leaves Bread Ahead changes Nadia's bakery, not a second key beside it."""
    store.save("Tomas gets his bread at Dusty Knuckle.", subject="Tomas", relation="bread_shop",
               value="Dusty Knuckle", observed_at=day(0))  # fmt: skip
    store.save("Nadia's bakery is Bread Ahead.", observed_at=day(1))
    assert store.facts("Nadia", "bakery")[0].object == "Bread Ahead"
    store.save("so Nadia changed her bread shop, it's Jolene now instead of Bread Ahead",
               observed_at=day(4))  # fmt: skip
    assert {(f.relation, f.object) for f in store.facts("Nadia")} == {("bakery", "Jolene")}


def test_a_key_with_a_generic_word_more_is_the_same_key(store: MemoryStore) -> None:
    """ "deploys" and "deploy_tool" name one attribute (cosine 0.53: no match by meaning); a
    key that adds a word of its own ("staging_database", "database") does not."""
    store.save("We deploy with Argo CD.", observed_at=day(0))
    store.save("We've moved deploys over to Flux.", observed_at=day(3))
    assert {(f.relation, f.object) for f in store.facts("user")} == {("deploy_tool", "Flux")}
    store.save("Our on-call rotation is PagerDuty.", observed_at=day(4))
    store.save("We ditched PagerDuty for Opsgenie last sprint.", observed_at=day(5))
    assert [f.object for f in store.facts("user", "on_call_rotation")] == ["Opsgenie"]
    assert infer._variant("deploy", "deploy_tool") and infer._variant("bank_app", "bank")
    assert not infer._variant("database", "staging_database")


def test_search_excludes_superseded_unless_history_or_as_of(store: MemoryStore) -> None:
    old = key(store, "Vim", 0, content="Alice edits code in Vim")
    new = key(store, "Helix", 30, content="Alice edits code in Helix")
    assert [h.memory.id for h in store.search("Alice edits code")] == [new.id]
    history = [h.memory.id for h in store.search("Alice edits code", include_history=True)]
    assert history == [new.id, old.id]
    assert [h.memory.id for h in store.search("Alice edits code", as_of=day(10))] == [old.id]


def test_search_answers_a_key_question_with_the_current_value(store: MemoryStore) -> None:
    store.save("Alice's editor is Vim", observed_at=day(0))
    store.save("Alice's city is Lisbon", observed_at=day(0))
    store.save("Alice uses Helix as her editor", observed_at=day(20))
    for query in ("What editor does Alice use?", "alice editor"):
        assert "Helix" in store.search(query, k=1)[0].memory.content
    assert "Lisbon" in store.search("Where does Alice live?", k=1)[0].memory.content


def test_a_question_about_the_past_gets_the_keyed_value_before(store: MemoryStore) -> None:
    key(store, "Vim", 0, "Alice has always used Vim for everything")
    key(store, "Helix", 20, "These days the editor open on Alice's screen is Helix")
    key(store, "Zed", 40, "Alice moved on to Zed last week")
    store.save("Bob says Emacs is the best editor ever made", observed_at=day(41))
    before = store.search("Which editor did Alice use before?", k=1)[0]
    assert "Helix" in before.memory.content  # the value before the current one
    named = store.search("What was Alice's editor before Helix?", k=1)[0]
    assert "Vim" in named.memory.content  # before the value the question names
    assert "Zed" in store.search("Which editor does Alice use?", k=1)[0].memory.content


def test_a_question_naming_a_period_gets_the_keyed_value_that_held_then(
    store: MemoryStore, clock: FakeClock
) -> None:
    # T0 is 1 January 2026: Vim from January, Helix from April, Zed from August.
    key(store, "Vim", 0, "Alice has always used Vim for everything")
    key(store, "Helix", 95, "These days the editor open on Alice's screen is Helix")
    key(store, "Zed", 215, "Alice moved on to Zed last week")
    store.save("Bob says Emacs is the best editor ever made", observed_at=day(216))
    clock.now = day(300)
    assert "Vim" in store.search("Which editor was Alice using in February?", k=1)[0].memory.content
    assert "Helix" in store.search("What editor did Alice use in June?", k=1)[0].memory.content
    assert "Zed" in store.search("Which editor does Alice use?", k=1)[0].memory.content


def test_a_keyed_fact_on_a_key_others_hold_stays_keyed(store: MemoryStore) -> None:
    """The relation name another subject already uses is the same key, exactly: the fact keeps
    the writer's confidence (1.0), even when an embedding of the name (batched with others, so
    a float cosine of 0.99999997) calls the key only a near match."""
    from mnemex.ledger import infer
    from mnemex.ledger.extract import Triple

    class Near:
        def relations(self, a: str, b: list[str]) -> list[float]:
            return [0.99999997 if other == a else 0.1 for other in b]

    store.save("Bob flies KLM.", subject="Bob", relation="airline", value="KLM")
    store.save("Priya is on Netflix.", subject="Priya Raman", relation="streaming", value="Netflix")
    triple = Triple("Priya Raman", "airline", "Delta", "Priya flies Delta.", confidence=1.0)
    with store._read() as tx:
        priya = tx.find_entity("Priya Raman")
        assert priya is not None
        choice = infer.choose_named(tx, priya.id, triple, store.settings, Near())  # type: ignore[arg-type]
    assert (choice.relation, choice.decision, choice.confidence) == ("airline", "exact", 1.0)


def test_a_first_name_question_finds_the_keyed_facts_of_the_full_name(
    store: MemoryStore,
) -> None:
    # A mention by first name ("Priya's sister ...") makes a node of its own beside "Priya
    # Raman", whose airline is keyed: the question's first name still reaches her keyed value.
    for when, airline in ((1, "Lufthansa"), (40, "KLM")):
        store.save(
            f"Priya Raman books {airline} for client visits.",
            subject="Priya Raman",
            relation="airline",
            value=airline,
            observed_at=day(when),
        )
        store.save(
            "Priya's sister keeps raving about Emirates business class.", observed_at=day(when + 1)
        )
    top = store.search("Which airline does Priya usually fly with?", k=1, explain=True)[0]
    assert "KLM" in top.memory.content
    assert "ledger" in top.channels  # answered by the ledger, not only by ranking


@pytest.mark.parametrize(
    ("subject", "asked"),
    [
        ("Chloé Martin", "Chloé"),  # an accented letter ends the first name
        ("Élodie Martin", "Élodie"),  # ...or begins it
        ("Jasper van Dijk", "Jasper"),  # a particle inside the full name
    ],
)
def test_a_first_name_reaches_the_keyed_facts_of_any_full_name(
    store: MemoryStore, subject: str, asked: str
) -> None:
    # The trap is later and says "app": without the first name read whole, it came first.
    said = f"{subject} checks the forecast on {{}} every morning."
    keyed_values(store, subject, "weather app", said, [(1, "Météo-France"), (40, "Windy")])
    store.save(f"{asked} switched her maps app to Google Maps this spring.", observed_at=day(60))
    top = store.search(f"What weather app does {asked} check these days?", k=1, explain=True)[0]
    assert "Windy" in top.memory.content
    assert "ledger" in top.channels


def test_a_keyed_value_answers_before_one_read_for_the_same_first_name(
    store: MemoryStore,
) -> None:
    # "Aditi" (its own node: NER took her for an organisation) got a video-call app read off a
    # later one-off; the keyed value of "Aditi Bhatt" is her own and answers first.
    store.save(
        "Aditi's weekend calls with her parents are on Google Meet.",
        subject="Aditi Bhatt",
        relation="video call app",
        value="Google Meet",
        observed_at=day(1),
    )
    store.upsert_entities([{"name": "Aditi", "category": "organization"}])
    store.save("Aditi's video call app is Zoom.", observed_at=day(30))
    assert store.facts("Aditi", "video call app")[0].object == "Zoom"  # the read it must outrank
    top = store.search("Which app does Aditi video-call her parents on now?", k=1)[0]
    assert "Google Meet" in top.memory.content


def test_a_relation_of_function_words_is_named_by_them_joined(
    store: MemoryStore, clock: FakeClock
) -> None:
    # "to-do app" is all function words but its head; a question naming a period is answered by
    # the keyed value of the key its words name, so "to-do" must name it.
    tasks = [(1, "Things 3"), (120, "Microsoft To Do")]
    keyed_values(store, "Marcus Bell", "to-do app", "Marcus keeps his tasks in {}.", tasks)
    notes = "Marcus has started keeping his notes and lists in {}."
    keyed_values(store, "Marcus Bell", "note-taking app", notes, [(150, "Notion")])
    clock.now = day(300)
    top = store.search("What was Marcus using for his to-do list in February?", k=1)[0]
    assert "Things 3" in top.memory.content
    top = store.search("What does Marcus use for his to-do list?", k=1, explain=True)[0]
    assert "Microsoft To Do" in top.memory.content and "ledger" in top.channels


def test_a_keyed_subject_answers_before_a_neighbours_key_whatever_its_category(
    store: MemoryStore,
) -> None:
    # NER may take a person for a place; their writer keyed a fact to them, so their first name
    # still finds it. And a key another person holds, reached through a neighbour ("Liam" and
    # his extracted `post_office`), never outranks the named subject's own answer.
    store.save(
        "Seun Adeyemi sends his parcels from the post office on Market Street.",
        subject="Seun Adeyemi",
        relation="post office branch",
        value="Market Street",
    )
    store.upsert_entities([{"name": "Seun Adeyemi", "category": "place"}])
    store.save("Seun's colleague does all her posting at the Crown Post Office in town.")
    store.save("Liam switched post offices to Ranelagh this month.")
    store.save("Liam and Seun are neighbours.")
    top = store.search("Which post office does Seun use now?", k=1, explain=True)[0]
    assert "Market Street" in top.memory.content
    assert "ledger" in top.channels


def test_a_short_key_query_lists_every_value_but_never_for_someone_else(
    store: MemoryStore,
) -> None:
    store.save("Connor's mentor is Fiona Byrne.", observed_at=day(0))
    store.save("Elena's mentor is Michael Torres.", observed_at=day(1))
    store.save("Viktor relocated to the Berlin office.", observed_at=day(2))
    listed = {h.memory.content for h in store.search("mentor", k=2, explain=True)}
    assert listed == {"Connor's mentor is Fiona Byrne.", "Elena's mentor is Michael Torres."}
    # A person the store has no node for is still a subject: no one else's mentor answers.
    for hit in store.search("Who is Aisha's mentor?", k=3, explain=True):
        assert "ledger" not in hit.channels
    # A cue ("where") is not the key's name: no office is an answer about inhalers.
    for hit in store.search("Where does Ravi get inhalers?", k=3, explain=True):
        assert "ledger" not in hit.channels


def test_a_chained_question_follows_the_linked_entity(store: MemoryStore) -> None:
    store.save("svc-orders depends on svc-stock.")
    store.save("svc-stock runs on host-7.")
    store.save("svc-mail runs on host-2.")
    hits = store.search("Which machine does svc-orders run on in the end?", k=5)
    assert "host-7" in hits[0].memory.content


def test_keys_timeline_and_profile(store: MemoryStore) -> None:
    store.save("My editor is Helix", observed_at=day(3))
    store.save("x", subject="Atlas", relation="deploy tool", value="Argo CD", observed_at=day(1))
    store.save("y", subject="Atlas", relation="language", value="Go", observed_at=day(2))
    key(store, "Vim", 0)
    key(store, "Emacs", 5)
    every_key = store.keys()
    assert {(f.subject, f.relation) for f in every_key} == {
        ("user", "editor"),
        ("Atlas", "deploy_tool"),
        ("Atlas", "language"),
        ("Alice", "editor"),
    }
    assert [f.object for f in store.keys("Atlas")] == ["Argo CD", "Go"]
    assert [f.object for f in store.timeline("Alice")] == ["Vim", "Emacs"]
    profile = store.profile(limit=3)
    assert [f.object for f in profile] == ["Helix", "Go", "Argo CD"]
    assert profile == store.profile(limit=3)  # deterministic
    assert store.timeline("Nobody") == [] and store.facts("Nobody") == []


def test_bad_input_is_a_typed_error_and_writes_nothing(store: MemoryStore) -> None:
    with pytest.raises(InvalidInputError) as info:
        store.save("x", subject="Alice", relation="editor")
    assert info.value.field == "subject"
    with pytest.raises(InvalidInputError) as info:
        store.save("x", subject="Alice", relation="!!!", value="Vim")
    assert info.value.field == "relation"
    with pytest.raises(InvalidInputError):
        store.save("x", subject="Alice", relation="editor", value="  ")
    with pytest.raises(InvalidInputError):
        store.facts(as_of="yesterday-ish")
    with pytest.raises(InvalidInputError):
        store.profile(limit=0)
    assert store.stats()["memories"]["total"] == 0 and store.facts(include_history=True) == []


def _alias_review(store: MemoryStore) -> tuple[str, str]:
    key(store, "Vim", 0)
    parked = store.save(
        "Alice's code editor is Helix", observed_at=day(10)
    )  # "code editor" vs "editor": in the review band with lexical cues alone
    [review] = store.reviews()
    assert review.kind == "alias" and review.payload["proposed"] == "editor"
    assert store.facts("Alice", "editor")[0].object == "Vim"  # nothing changed yet
    return review.id, parked.id


def test_search_shows_a_newer_statement_under_review_first(store: MemoryStore) -> None:
    _alias_review(store)
    hits = store.search("Which editor does Alice use?", k=2)
    assert ["Helix" in h.memory.content for h in hits] == [True, False]
    assert "Vim" in hits[1].memory.content


def test_approving_an_alias_adopts_the_key(store: MemoryStore) -> None:
    review_id, parked = _alias_review(store)
    resolved = store.resolve_review(review_id, "approve", note="same thing")
    assert resolved.status == "approved" and resolved.resolution == "same thing"
    assert store.facts("Alice", "editor")[0].object == "Helix"
    assert store.get(parked).superseded_by is None
    assert store.reviews() == []
    later = store.save("Alice's code editor is Zed", observed_at=day(20))
    assert later.enrichment["facts"][0]["key"] == "alias"  # the ruling is remembered
    assert store.facts("Alice", "editor")[0].object == "Zed"
    events = store.backend
    with events.read(store.tenant) as tx:
        assert tx.list_events("review_approved", 5)[0]["subject_id"] == review_id


def test_rejecting_an_alias_restores_the_fact_as_its_own_key(store: MemoryStore) -> None:
    review_id, _ = _alias_review(store)
    store.resolve_review(review_id, "reject")
    assert {(f.relation, f.object) for f in store.keys("Alice")} == {
        ("editor", "Vim"),
        ("code_editor", "Helix"),
    }
    with pytest.raises(ConflictError):
        store.resolve_review(review_id, "approve")
    with pytest.raises(NotFoundError):
        store.resolve_review("rev_missing", "approve")
    with pytest.raises(InvalidInputError):
        store.resolve_review(review_id, "maybe")
    assert [r.id for r in store.reviews(status="rejected")] == [review_id]


def test_explain_shows_what_the_ledger_did(store: MemoryStore) -> None:
    store.save("Bob works at Acme.", observed_at=day(0))
    store.save("Bob lives in Oslo.", observed_at=day(0))
    hits = store.search("Where does Bob work?", explain=True)
    assert hits[0].memory.content == "Bob works at Acme."
    assert hits[0].channels["ledger"].rank == 1
    assert all("ledger" not in hit.channels for hit in hits[1:])
    assert "ledger" not in store.search("Where does Bob work?")[0].channels  # only on request


def test_a_question_names_a_key_by_its_synonyms(store: MemoryStore) -> None:
    store.save("Dana's manager is Priya.", observed_at=day(0))
    store.save("Dana's employer is Initech.", observed_at=day(0))
    store.save("Dana's phone number is +44 7700 900111.", observed_at=day(0))
    assert "Priya" in store.search("Who is Dana's boss?", k=1)[0].memory.content
    assert "Priya" in store.search("Who does Dana report to?", k=1)[0].memory.content
    assert "Initech" in store.search("Which company is Dana with?", k=1)[0].memory.content
    assert "7700" in store.search("How do I call Dana?", k=1)[0].memory.content


def test_the_stores_fact_reads_match_the_full_history(store: MemoryStore) -> None:
    key(store, "Vim", 0)
    key(store, "Neovim", 30)
    store.save("x", subject="alice", relation="city", value="Porto")
    with store.backend.read(store.tenant) as tx:
        alice = tx.find_entity("Alice")
        assert alice is not None
        every = tx.facts_for_key(alice.id, None)
        current = tx.facts_for_key(alice.id, None, ("active",))
        assert [f.object for f in current] == [f.object for f in every if f.status == "active"]
        assert {f.object for f in current} == {"Neovim", "Porto"}
        history = tx.relation_counts([alice.id], ("active", "superseded"))
        assert history == {alice.id: {"city": 1, "editor": 2}}
        assert tx.relation_counts([alice.id, "ent_nobody"]) == history  # any status: the same here
        assert tx.subject_name(alice.id) == min(f.subject for f in every)
        assert tx.has_facts(alice.id)
        assert not tx.has_facts("ent_nobody") and tx.subject_name("ent_nobody") is None
        assert tx.entity_ids(["ALICE", "nobody", "alice"]) == {"ALICE": alice.id, "alice": alice.id}
        held = [f for f in tx.facts_with_value("vim") if f.subject_id == alice.id]
        assert held and tx.facts_with_value("vim", subject_id=alice.id) == held
        assert tx.facts_with_value("vim", subject_id="ent_nobody") == []


def test_fact_at_and_key_neighbours_follow_the_keys_time_order(
    store: MemoryStore, clock: FakeClock
) -> None:
    """The narrow reads a save uses instead of a key's history agree with that history's order,
    ties on valid_from included (a correction starts where the value it corrects started)."""
    key(store, "Vim", 0)
    key(store, "Emacs", 20)
    key(store, "Helix", 10)  # a late arrival: between the two
    clock.advance(days=30)
    store.save("Actually, Alice's editor is Zed")  # replaces Emacs from Emacs's start
    with store.backend.read(store.tenant) as tx:
        alice = tx.find_entity("Alice")
        assert alice is not None
        history = [f for f in tx.facts_for_key(alice.id, "editor") if f.status != "pending"]
        ordered = [f.object for f in sorted(history, key=lambda f: (f.valid_from, f.recorded_at))]
        assert ordered == [f.object for f in history] == ["Vim", "Helix", "Emacs", "Zed"]
        assert history[2].valid_from == history[3].valid_from
        for index, fact in enumerate(history):
            before, after = tx.key_neighbours(fact.id)
            assert before == (history[index - 1] if index else None)
            assert after == (history[index + 1] if index + 1 < len(history) else None)
            moment = int(fact.valid_from.timestamp() * 1_000_000)
            last_started = [f for f in history if f.valid_from <= fact.valid_from][-1]
            assert tx.fact_at(alice.id, "editor", moment) == last_started
        assert tx.fact_at(alice.id, "editor", 0) is None
        assert tx.fact_at(alice.id, "city", 2**62) is None
        assert tx.key_neighbours("fct_missing") == (None, None)


def test_profile_shows_only_what_search_bears_out(store: MemoryStore) -> None:
    store.save("My phone is a Pixel 7.", observed_at=day(1))
    store.save("My partner is Jamie.", observed_at=day(2))
    store.save("x", subject="user", relation="editor", value="Helix", observed_at=day(3))
    assert {f.object for f in store.profile()} == {"Pixel 7", "Jamie", "Helix"}
    # A change the write side cannot read leaves Pixel 7 in the ledger; search answers
    # "What is my phone?" with the later statement, so the profile no longer vouches for it.
    store.save("My Pixel died, I'm on an iPhone 15 now.", observed_at=day(4))
    assert store.facts("user", "phone")[0].object == "Pixel 7"
    shown = {f.object for f in store.profile()}
    assert "Pixel 7" not in shown and {"Jamie", "Helix"} <= shown  # a keyed fact needs no check


def test_profile_leaves_out_a_value_its_key_cannot_hold(store: MemoryStore) -> None:
    store.save("I live in Minneapolis.", observed_at=day(1))
    store.save("My team is Python these days", observed_at=day(2))  # a language, no team
    store.save("x", subject="user", relation="team", value="Kotlin", observed_at=day(3))
    assert store.facts("user", "team")[0].object == "Kotlin"
    store.save("My team is Python these days", observed_at=day(4))
    assert store.facts("user", "team")[0].object == "Python"  # the ledger keeps what was said
    assert {(f.relation, f.object) for f in store.profile()} == {("city", "Minneapolis")}
    # The caller's own key is never second-guessed.
    store.save("x", subject="Ana", relation="team", value="Python", observed_at=day(5))
    assert ("Ana", "team", "Python") in {(f.subject, f.relation, f.object) for f in store.profile()}


def test_the_one_asking_is_not_the_person_asked_about(store: MemoryStore) -> None:
    store.save("My phone is a Pixel 8.", observed_at=day(0))
    store.save("Tariq's chat app is Signal.", observed_at=day(1))
    hits = store.search("Which messaging app should I use to reach Tariq now?", k=3, explain=True)
    assert "ledger" not in hits[0].channels or "Signal" in hits[0].memory.content
    assert all("Pixel" not in h.memory.content for h in hits if "ledger" in h.channels)
    # "my" still makes the user a subject beside the named person
    mine = store.search("What phone do I have, and my friend Tariq?", k=3, explain=True)
    assert any("ledger" in h.channels and "Pixel" in h.memory.content for h in mine)


def test_a_key_named_only_by_a_cue_gives_way_to_a_clearly_nearer_name(store: MemoryStore) -> None:
    """ "reach" is a cue for a phone, but the messenger's name is clearly nearer the question."""
    store.save("Priya's phone is a Pixel 8.", observed_at=day(0))
    store.save("Priya's messenger is Signal.", observed_at=day(1))
    store.save("Priya's dentist is Dr. Rahimi.", observed_at=day(2))
    hits = store.search("Which messaging app should I use to reach Priya now?", k=3)
    assert hits[0].memory.content == "Priya's messenger is Signal."
    # a question that names the key still gets it
    assert store.search("What phone does Priya have?", k=1)[0].memory.content.startswith(
        "Priya's phone"
    )


def test_profile_leaves_out_the_manager_of_a_job_left_behind(store: MemoryStore) -> None:
    store.save("I work at Northwind Traders.", observed_at=day(1))
    store.save("My manager is Andrzej Kowalczyk.", observed_at=day(2))
    store.save("My team is Payments.", observed_at=day(3))
    assert {f.object for f in store.profile()} >= {"Northwind Traders", "Andrzej Kowalczyk"}
    store.save("I work at Globex Corporation now.", observed_at=day(10))
    assert store.facts("user", "employer")[0].object == "Globex Corporation"
    shown = {f.object for f in store.profile()}
    assert "Globex Corporation" in shown
    assert not shown & {"Andrzej Kowalczyk", "Payments"}  # said of the job before
    assert store.facts("user", "manager")[0].object == "Andrzej Kowalczyk"  # the ledger keeps it
    store.save("I report to Ewa Borkowska.", observed_at=day(11))
    assert "Ewa Borkowska" in {f.object for f in store.profile()}


def test_profile_shows_a_partner_at_their_latest_standing(store: MemoryStore) -> None:
    store.save("My girlfriend is Talia Brooks.", observed_at=day(1))
    store.save("My sister is Ana.", observed_at=day(2))
    assert ("girlfriend", "Talia Brooks") in {(f.relation, f.object) for f in store.profile()}
    store.save("Talia and I got engaged!", observed_at=day(30))
    shown = {(f.relation, f.object) for f in store.profile()}
    assert ("fiance", "Talia") in shown and ("girlfriend", "Talia Brooks") not in shown
    assert store.facts("user", "girlfriend")[0].object == "Talia Brooks"  # the ledger keeps it
