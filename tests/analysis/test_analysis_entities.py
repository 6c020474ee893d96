"""Entity extraction: spaCy + ruler, value patterns, the pattern-only fallback, store linking."""

from __future__ import annotations

import pytest

from mnemex import MemoryStore
from mnemex.analysis import entities, words


def _named(text: str, *, use_spacy: bool = True) -> dict[str, str]:
    return {m.text: m.label for m in entities.extract(text, use_spacy=use_spacy) if m.named}


def test_ruler_fixes_tech_names_spacy_mislabels() -> None:
    found = _named("We decided to use TypeScript and postgres for the Mnemex project")
    assert found["TypeScript"] == "TECH"
    assert found["PostgreSQL"] == "TECH"  # alias -> canonical name


def test_people_and_organisations() -> None:
    found = _named("Remember that Dell is a developer with 15 years experience at Google.")
    assert "Dell" in found and found["Google"] == "ORG"
    assert not {"Developer", "15 Years Experience", "15 years"} & set(found)


@pytest.mark.parametrize(
    ("text", "names", "not_names"),
    [
        ("Ana's title is now Director of Engineering", {"Ana"}, {"Director", "Engineering"}),
        ("Lead Engineer Sam Park joined Initech", {"Sam Park"}, {"Lead Engineer"}),
        ("Kofi, our VP of Sales, signed the Acme deal", {"Kofi"}, {"VP", "Sales"}),
        ("She is the new CTO at Globex", set(), {"CTO"}),
    ],
)
def test_a_job_title_is_no_entity(text: str, names: set[str], not_names: set[str]) -> None:
    found = set(_named(text))
    assert names <= found and not {n for n in found for bad in not_names if bad in n}, found


def test_standards_are_concepts_and_hosted_tools_products() -> None:
    found = _named("Zoë is leading the GDPR review; alerts go through PagerDuty to Kofi")
    assert (found["GDPR"], found["PagerDuty"]) == ("CONCEPT", "PRODUCT")
    assert "Agile" not in _named("we need to be agile about the launch")  # the word, not Agile


def test_a_service_named_as_code_names_it_is_an_entity() -> None:
    found = _named("Marcus is on-call for auth-gateway; payments-api and svc-orders page him")
    assert {"auth-gateway", "payments-api", "svc-orders"} <= set(found)
    assert found["auth-gateway"] == "SERVICE"
    # Hyphenated words are words: no node for on-call, all-hands, in-app or a follow-up.
    words = _named("all-hands moved; the in-app api-style follow-up call is on-call's job")
    assert not {"on-call", "all-hands", "in-app", "follow-up"} & set(words)


def test_title_spans() -> None:
    from mnemex.analysis.canon import nameworthy, title_spans

    def spans(text: str) -> list[str]:
        return [text[a:b] for a, b in title_spans(text)]

    assert spans("Priya is now Head of Platform") == ["Head of Platform"]
    assert spans("Ask the Head of the Data Team") == ["Head of the Data Team"]
    assert spans("Lead Engineer Sam Park joined") == ["Lead Engineer"]
    assert spans("Priya Nair is my new manager") == []  # a lowercase role is no title run
    assert spans("Marcus Lee owns the Flux service") == []
    assert not nameworthy("Director of Engineering") and nameworthy("Neovim")
    assert not nameworthy("Danish set designer") and nameworthy("Mac mini")


def test_a_quantity_or_a_time_of_day_is_no_name(mem_store: MemoryStore) -> None:
    """A size, a weight, a share or a time of day that the ledger reads as a value never
    becomes a node; a name with a number in it still does."""
    from mnemex.analysis.canon import nameworthy

    for value in ("1.2GB", "25 kg", "80%", "Monday 8am", "9:30", "#orion-eng", "@kenji"):
        assert not nameworthy(value), value
    for name in ("3M", "iPhone 15", "Python 3.12", "Route 66", "PS5"):
        assert nameworthy(name), name
    saved = mem_store.save("The Docker images for auth-gateway are 1.2GB, need to slim them down")
    assert "1.2GB" not in saved.memory.entities
    saved = mem_store.save("Biscuit's vet appointment is Monday 8am, he needs his booster")
    assert "Monday 8am" not in saved.memory.entities
    saved = mem_store.save("Slack channel for Orion is #orion-eng")
    assert "#orion-eng" not in saved.memory.entities


@pytest.mark.parametrize(
    ("text", "names", "not_names"),
    [
        # spaCy saw "Brennan" a person and "Aoife" a capitalised word: one name.
        ("Aoife Brennan joined from the BI team", {"Aoife Brennan"}, {"Aoife", "Brennan"}),
        ("Dr. Feldman says the infection should clear", {"Dr. Feldman"}, {"Feldman"}),
        ("Sofia is in Ms. Delgado's class", {"Ms. Delgado"}, {"Delgado"}),
        ("Miss Hana said Zara napped well", {"Miss Hana", "Zara"}, {"Miss", "Hana"}),
        # A note to self opens with a verb, then names whom it is about.
        ("Remind Zoe to bring the pump", {"Zoe"}, {"Remind Zoe"}),
        ("Call Priya tomorrow", {"Priya"}, {"Call Priya"}),
        # Days, sizes and pieces of a name are no names; a maker's name is the thing's.
        ("Swim on Tue/Thu/Sat, 2 GB of logs, Q1 review", set(), {"Tue/Thu/Sat", "GB", "Q1"}),
        ("Objective-C stays in the old module", {"Objective-C"}, {"Objective-", "C"}),
        ("Apache Spark fixed the skew on Amazon S3", {"Spark", "S3"}, {"Apache", "Amazon"}),
        # A pronoun with its "'s" opening a sentence is no name.
        ("Dan runs research computing. He's the one to email", {"Dan"}, {"He"}),
        ("Carol wants the appraisals. Mine's with Bea on the 12th", {"Bea"}, {"Mine"}),
        ("There's kennel cough going round the park", set(), {"There"}),
        # A list or a comparison is its names, never one span over them.
        (
            "Switched energy to Octopus, Naomi did the meter readings",
            {"Octopus", "Naomi"},
            {"Octopus, Naomi"},
        ),
        ("Oporto vs Porto, Luke keeps saying Oporto", {"Porto", "Luke"}, {"Oporto vs Porto"}),
        (
            "Day trips: Sintra (Pena Palace), then Cascais",
            {"Sintra", "Pena Palace"},
            {"Sintra (Pena Palace"},
        ),
        (
            "Long-term: academia vs national lab vs climate services",
            set(),
            {"academia vs national lab vs climate services"},
        ),
        # A finite verb ending spaCy's span is what the person did.
        ("kofi rang at 3am Kumasi time", {"kofi"}, {"kofi rang"}),
    ],
)
def test_names_whole(text: str, names: set[str], not_names: set[str]) -> None:
    found = set(_named(text))
    assert names <= found and not not_names & found, found


@pytest.mark.parametrize(
    ("name", "label", "source", "category"),
    [
        ("Snowflake Summit", "PRODUCT", "ruler", "event"),  # the gathering, not the product
        ("RCN Congress", "ORG", "spacy", "event"),
        ("Chicago Marathon", "PERSON", "spacy", "event"),
        ("Greenleaf Organics", "PERSON", "spacy", "organization"),
        ("Hartwell Mill", "PERSON", "spacy", "organization"),
        ("Priya Nair", "PERSON", "spacy", "person"),
        ("Amazon Web Services", "ORG", "ruler", "organization"),
    ],
)
def test_a_names_last_word_tells_its_kind(
    name: str, label: str, source: str, category: str
) -> None:
    from mnemex.analysis.canon import categorise

    vote = categorise(label, source, name, 0, len(name), None)
    assert vote is not None and vote[0] == category


@pytest.mark.parametrize(
    ("text", "label", "category"),
    [
        # A lone first name the small model took for a place or a firm, doing what people do.
        ("Marcus and I got married in 2013", "GPE", "person"),
        ("Marcus can't stand mushrooms", "GPE", "person"),
        ("Priya is allergic to penicillin", "ORG", "person"),
        # A place or a firm doing something else keeps its label's category.
        ("Paris is lovely in spring", "GPE", "place"),
        ("Zurich Insurance and I go back years", "ORG", "organization"),
        ("HOA said no above-ground pools", "ORG", "organization"),
    ],
)
def test_a_lone_name_that_does_what_people_do_is_a_person(
    text: str, label: str, category: str
) -> None:
    from mnemex.analysis.canon import categorise

    name = text.split(" and ", maxsplit=1)[0] if " and " in text else text.split(maxsplit=1)[0]
    vote = categorise(label, "spacy", text, 0, len(name), None)
    assert vote is not None and vote[0] == category, vote


def test_common_words_are_no_vendor_tool_names() -> None:
    from mnemex import gazetteer

    known = gazetteer.canonical_map()
    assert known["azure cosmos db"][0] == "Cosmos DB" and known["apache spark"][0] == "Spark"
    assert "azure functions" not in known  # a maker's form only of a name the table knows
    assert not _named("the glue on the shelf, a beam of light, the hive of bees")
    assert not _named("the vault is locked, the locust tree, a kayak on the roof")
    assert not _named("I concur: the blender can hibernate in the cupboard, a long workday")


def test_tools_of_many_trades_are_known_in_lowercase_too() -> None:
    """Scientific, data, mobile and everyday apps, not only a web developer's stack."""
    found = _named("conda is too slow, switching to mamba; plotting with matplotlib and cartopy")
    assert {"Conda", "mamba", "Matplotlib", "cartopy"} <= set(found)
    assert _named("Logged the long run on Strava, paid Sam back on Venmo")["Strava"] == "PRODUCT"


def test_value_patterns() -> None:
    text = (
        "Mail bob@example.com, see https://example.com/docs, v2.3.1 on 10.0.4.12 since 2025-01-04"
    )
    labels = {m.label: m.text for m in entities.extract(text)}
    assert labels["EMAIL"] == "bob@example.com"
    assert labels["URL"] == "https://example.com/docs"
    assert labels["VERSION"] == "v2.3.1"
    assert labels["IP"] == "10.0.4.12"
    assert labels["DATE"] == "2025-01-04"


def test_mentions_are_deduplicated_case_insensitively() -> None:
    names = [m.text for m in entities.extract("Python is great. I love python and PYTHON.")]
    assert names.count("Python") == 1


def test_common_words_opening_a_sentence_are_not_tech_names() -> None:
    found = [
        m for m in entities.extract("Go with option B. We write Go at work.") if m.text == "Go"
    ]
    assert len(found) == 1 and found[0].start > 10


def test_pattern_only_fallback_when_spacy_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise ImportError("No module named 'spacy'")

    monkeypatch.setattr(entities, "_pipeline", missing)
    assert entities.load_spacy() is None
    found = _named("Yesterday Alice moved the billing service to Kubernetes at Microsoft")
    assert found["Kubernetes"] == "TECH" and found["Microsoft"] == "ORG"
    assert "Alice" in found  # a capitalised name, found without NER
    assert "Yesterday" not in found


def test_fallback_is_used_when_the_setting_turns_spacy_off() -> None:
    found = entities.extract("Priya works at Stripe", use_spacy=False)
    assert {m.source for m in found} <= {"pattern", "ruler", "fallback"}
    assert {m.text for m in found} == {"Priya", "Stripe"}


def test_linking_uses_stored_names_aliases_and_ignores_case(mem_store: MemoryStore) -> None:
    mem_store.save("kickoff", entities=["Project Falcon"], tags=[], strength=1.0)
    with mem_store.backend.write(mem_store.tenant) as tx:
        entity = tx.find_entity("project falcon")
        assert entity is not None
        tx.add_alias(entity.id, "Falcon")
    analysis = mem_store.analyze("the falcon launch slipped a week")
    linked = [e for e in analysis.entities if e["entity_id"] == entity.id]
    assert linked and linked[0]["text"] == "Project Falcon"


def test_a_lowercase_word_before_a_noun_is_a_persons_name_only_when_it_is_no_word(
    mem_store: MemoryStore,
) -> None:
    # "the falcon launch" (above) is the project's; "rose petals" and "a frank talk" are no
    # one's: a person's name, or an adjective, does not name the noun after it.
    mem_store.upsert_entities(
        [{"name": "Rose Okafor", "category": "person"}, {"name": "Frank", "category": "person"}]
    )
    with mem_store.backend.write(mem_store.tenant) as tx:
        rose = tx.find_entity("rose okafor")
        assert rose is not None
        tx.add_alias(rose.id, "Rose")
    for text in ("red cherry, rose petals and white pepper", "we had a frank talk about pay"):
        assert mem_store.analyze(text).entities == [], text
    linked = mem_store.analyze("Rose has the alarm code").entities
    assert [e["entity_id"] for e in linked] == [rose.id]


def test_an_acronym_is_never_the_dictionary_word_it_spells_in_lower_case(
    mem_store: MemoryStore,
) -> None:
    """CAT tools beside "my cat Mochi": a noun before a name does not make the word the
    acronym, as "the falcon launch" makes "falcon" the project."""
    mem_store.upsert_entities([{"name": "CAT", "category": "technology"}])
    assert "CAT" not in [e["text"] for e in mem_store.analyze("my cat Mochi needs pills").entities]
    linked = [e["text"] for e in mem_store.analyze("memoQ is my CAT tool").entities]
    assert "CAT" in linked


def test_a_node_first_met_in_lower_case_takes_the_capitals_it_is_later_written_with(
    mem_store: MemoryStore,
) -> None:
    mem_store.save("bernie says no more than 3 nights in a row for me", entities=["bernie"])
    later = mem_store.save("Bernie wants the rota done by Friday")
    assert later.memory.entities == ["Bernie"]
    assert mem_store.entity("bernie").name == "Bernie"


def test_a_known_acronym_written_out_names_its_node(mem_store: MemoryStore) -> None:
    # CRRT is known; "continuous renal replacement therapy" spells it: one node, the long form
    # its alias. "all pending items" spells a known API too, but "all" is no name word, and
    # Amazon's EMR (a gazetteer name) is no "electronic medical record".
    mem_store.save("CRRT filter clotted twice in 12 hours, tell Hamid", entities=["CRRT"])
    mem_store.save("We moved the batch jobs to EMR", entities=["EMR"])
    mem_store.save("API docs are stale", entities=["API"])
    later = mem_store.save("My continuous renal replacement therapy competency expires in June")
    assert later.memory.entities == ["CRRT"]
    assert "continuous renal replacement therapy" in mem_store.entity("CRRT").aliases
    for text in ("all pending items are in the tracker", "our electronic medical record is slow"):
        linked = mem_store.save(text).memory.entities
        assert "API" not in linked and "EMR" not in linked, text
    mem_store.save("We run everything on AWS")
    assert "AWS" in mem_store.save("Amazon Web Services bill went up again").memory.entities


def test_a_person_span_joined_by_a_lowercase_word_is_split() -> None:
    """spaCy reads "Owen to Iyengar Institute" as one person; a particle stays in a name."""
    names = [m.text for m in entities.extract("Yoga Loft lost Owen to Iyengar Institute today.")]
    assert "Owen" in names and "Iyengar Institute" in names
    assert not any(" to " in name for name in names)
    assert words.person_parts([("Ana de Armas", "PERSON", 0, 12, "")], "Ana de Armas") == [
        ("Ana de Armas", "PERSON", 0, 12, "")
    ]


def test_a_span_that_runs_onto_a_lowercase_function_word_ends_before_it() -> None:
    """spaCy reads "Dr Okafor at" as one name; no name ends with "at" written lower case, while
    a lowercase word inside a name and a time's own words stay."""
    names = [m.text for m in entities.extract("My dentist is Dr Okafor at Bridge Street Dental")]
    assert "Dr Okafor" in names and "Bridge Street Dental" in names
    assert not any(name.endswith(" at") for name in names)
    assert "Bank of America" in [m.text for m in entities.extract("Bank of America called")]
    spans = [("Dr Okafor at", "ORG", 14, 26, ""), ("at 5pm", "TIME", 27, 33, "")]
    said = [("Dr", "NNP", 14), ("Okafor", "NNP", 17), ("at", "IN", 24), ("at", "IN", 27)]
    tagged = [
        entities.Token(w, tag, "", at, at + len(w)) for w, tag, at in [*said, ("5pm", "CD", 30)]
    ]
    assert words.edges_trimmed(spans, tagged) == [
        ("Dr Okafor", "ORG", 14, 23, ""),
        ("at 5pm", "TIME", 27, 33, ""),
    ]


def test_a_verb_and_a_kin_word_opening_a_note_are_no_part_of_a_name() -> None:
    """ "Vet for Mochi is ...": the verb spaCy read and its "for" go (no node "for Mochi");
    "Husband Dev works nights": the husband is Dev, while an aunt is called by the word; the
    words of a time stay ("this week")."""
    assert "Mochi" in [m.text for m in entities.extract("Vet for Mochi is Dr. Inês Cardoso.")]
    assert not any(m.text.startswith("for ") for m in entities.extract("Vet for Mochi is Ana."))
    names = [m.text for m in entities.extract("Husband Dev works nights at the Royal Infirmary.")]
    assert "Dev" in names and "Husband Dev" not in names
    assert "Aunt Priya" in [m.text for m in entities.extract("Aunt Priya is visiting.")]
    spans = [m.text for m in entities.extract("Priya Nair is my new manager as of this week")]
    assert "this week" in spans


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Our dog Biscuit hates the vet.", "Biscuit"),
        ("Took our tortoise Bertha to the vet for her check-up.", "Bertha"),
        ("We adopted a kitten called Miso last spring.", "Miso"),
    ],
)
def test_a_pet_is_no_person(mem_store: MemoryStore, text: str, name: str) -> None:
    """A name the sentence calls a dog, a cat or a tortoise is an animal: category other, which
    outweighs the small model's PERSON; the dog walker is still someone."""
    mem_store.save(text)
    assert mem_store.entity(name).category == "other"
    mem_store.save("The dog walker Sam Reyes comes at noon.")
    assert mem_store.entity("Sam Reyes").category == "person"
    mem_store.save("Half term: St Ives, 4 nights, cottage booked, dog-friendly.")
    assert mem_store.entity("St Ives").category != "other"  # a dog-friendly place


def test_the_category_model_votes_where_the_rules_are_weak(
    mem_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mnemex.analysis import categories

    text = (
        "Booked a table at Quince for Saturday"  # spaCy: ORG; people file a restaurant as a place
    )
    mem_store.save(text)
    assert mem_store.entity("Quince").category == "place"
    # a vote the rules give with weight (a gazetteer entry) is never the model's to change
    mem_store.save("Moved the Orion dashboards to Grafana")
    assert mem_store.entity("Grafana").category == "technology"
    monkeypatch.setattr(categories, "_MODEL", [None])  # the rules alone (restored after)
    other = mem_store.for_tenant("rules-only")
    other.save(text)
    assert other.entity("Quince").category == "organization"


def test_the_category_model_reads_where_a_name_stands(mem_store: MemoryStore) -> None:
    """A lone name that opens a sentence and does something a person does is someone, whatever
    place the small model took it for; a name after "the" is rarely anyone."""
    mem_store.save("Marta is hosting dinner on Friday.")
    assert mem_store.entity("Marta").category == "person"
    mem_store.save("The Lidl near work has oat milk again.")
    assert mem_store.entity("Lidl").category != "person"


@pytest.mark.parametrize(
    ("text", "name", "nickname"),
    [
        ("Dmitri Volkov is our Android lead. Everyone calls him Dima.", "Dmitri Volkov", "Dima"),
        ("Bernadette Walsh (Bernie to everyone) runs the unit", "Bernadette Walsh", "Bernie"),
        ("Daniel Brooks (my husband, Dan to everyone) is an engineer", "Daniel Brooks", "Dan"),
        ("Akosua Asante (Sua) starts her GCSEs in September", "Akosua Asante", "Sua"),
        ("Oluwaseun Adeyemi, goes by Olu, starts Monday", "Oluwaseun Adeyemi", "Olu"),
    ],
)
def test_a_message_can_give_a_name_its_nickname(text: str, name: str, nickname: str) -> None:
    from mnemex.analysis.canon import declared_aliases

    start = text.index(name)
    assert declared_aliases(text, [(name, start, start + len(name))]) == {name: [nickname]}


@pytest.mark.parametrize(
    "text",
    [
        "Sara Lopez (Stripe) is the new PM on payments",  # her firm, not her name
        "Tom Reed (Product) owns the roadmap",
        "Priya Nair calls him Raj Patel's deputy",  # a name of two words is someone else
    ],
)
def test_a_bracket_or_a_call_that_names_something_else_is_no_nickname(text: str) -> None:
    from mnemex.analysis.canon import declared_aliases

    name = " ".join(text.split()[:2])
    assert declared_aliases(text, [(name, 0, len(name))]) == {}


def test_an_opening_proper_noun_with_a_finite_verb_is_a_name() -> None:
    """spaCy tags "Darnell" a proper noun and "thinks" a finite verb, but names nothing."""
    assert "Darnell" in _named("Darnell thinks 3:40 is realistic if the long runs go well")
    assert _named("Lunch was great today") == {}
    assert _named("Standup moved to 10am") == {}


def test_a_word_no_dictionary_holds_is_a_name_wherever_it_stands() -> None:
    """The small tagger calls many unknown names a common noun, or a first name a nationality;
    a capitalised word that is no English word (nor its inflection, nor chat shorthand) is a
    name, at a sentence's start too."""
    assert "Bénédicte" in _named("Bénédicte from the cooperative sent the price list.")
    assert "Okonkwo" in _named("We met Okonkwo at the bank.")
    assert "Priya" in _named("Idk what Priya wants.")
    assert "Aiko Tanabe" in _named("Aiko Tanabe, visiting from Hokkaido, lands Sunday.")
    assert _named("Tunde sorted the boiler pressure.") == {"Tunde": "PERSON"}
    for text, word in (
        ("Btw the build is green again.", "Btw"),
        ("Flights to Accra are about 850 each.", "Flights"),
        ("Voted reject at the meeting.", "Voted"),
        ("Everyone calls it the annex.", "Everyone"),
        ("Need SLAs agreed before I commit.", "SLAs"),
        ("The French team and two Republicans came.", "Republicans"),
        ("Per Ulla, their supermarket has been M&S Food since the spring.", "Per Ulla"),
    ):
        assert word not in _named(text), text


def test_a_generic_medicine_name_is_a_concept_in_any_case() -> None:
    """By the stems of international nonproprietary names, not a list of drugs."""
    from mnemex.analysis.canon import categorise

    found = _named("Dr Osei started dad on metformin; Midazolam and apixaban stay as they are")
    assert {found[n] for n in ("metformin", "Midazolam", "apixaban")} == {"MEDICINE"}
    assert categorise("MEDICINE", "pattern", "on metformin", 3, 12, None) == ("concept", 2)
    assert _named("April is busy, cholesterol is fine and the tide is out") == {}
