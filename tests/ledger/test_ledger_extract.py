"""Statement patterns and relation names: what extract_facts reads, and what it leaves alone."""

from __future__ import annotations

import pytest

from mnemex import MemoryStore
from mnemex.ledger.extract import USER, extract, extract_facts
from mnemex.ledger.relations import lexical_similarity, normalize_relation

CASES = [
    ("Alice's editor is Vim.", ("Alice", "editor", "Vim")),
    ("Alice’s main db is now Postgres", ("Alice", "main_db", "Postgres")),
    ("Eve's main language has changed to Rust", ("Eve", "main_language", "Rust")),
    ("Alice switched to Neovim.", ("Alice", None, "Neovim")),
    ("Bob now uses Postgres as his primary database", ("Bob", "primary_database", "Postgres")),
    ("Alice switched her main db from MySQL to Postgres", ("Alice", "main_db", "Postgres")),
    ("Neovim is now Alice's editor", ("Alice", "editor", "Neovim")),
    ("The deploy tool of Project Atlas is Argo CD", ("Project Atlas", "deploy_tool", "Argo CD")),
    ("Project Atlas uses Kafka for messaging", ("Project Atlas", "messaging", "Kafka")),
    ("Carol works at Acme", ("Carol", "employer", "Acme")),
    ("Dan moved to Berlin last year", ("Dan", None, "Berlin")),
    ("svc-b runs on host-c.", ("svc-b", "runs_on", "host-c")),
    ("I prefer Helix", (USER, None, "Helix")),
    ("My editor is Emacs", (USER, "editor", "Emacs")),
    ("I started using Arch Linux recently", (USER, None, "Arch Linux")),
    ("Alice is on Fedora now", ("Alice", None, "Fedora")),
    ("Alice went back to Vim", ("Alice", None, "Vim")),
    ("Alice's favourite editor these days is Zed", ("Alice", "favorite_editor", "Zed")),
    ("For her editor, Alice now uses Zed", ("Alice", "editor", "Zed")),
    ("Alice has been using Zed since March", ("Alice", None, "Zed")),
    ("Alice picked up Zed", ("Alice", None, "Zed")),
    ("Alice gave up Vim for Zed", ("Alice", None, "Zed")),
    ("These days Alice codes in Go", ("Alice", "language", "Go")),
    ("As of March, Alice's primary database is MySQL", ("Alice", "primary_database", "MySQL")),
    ("Alice changed editors to Zed", ("Alice", "editor", "Zed")),
    ("Alice's new city: Porto", ("Alice", "city", "Porto")),
    ("Bob said that his editor is Vim", ("Bob", "editor", "Vim")),
    ("According to Bob, his city is Oslo", ("Bob", "city", "Oslo")),
    ("Bob's editor is Emacs, I think", ("Bob", "editor", "Emacs")),
    ("Bob opted to use Postgres for his main db", ("Bob", "main_db", "Postgres")),
    ("Bob will use Rust as his main language", ("Bob", "main_language", "Rust")),
    ("Bob is currently using Fedora", ("Bob", None, "Fedora")),
    ("Bob updated his shell to fish", ("Bob", "shell", "fish")),
    (
        "Alice's operating system is now macOS as of March 2024",
        ("Alice", "operating_system", "macOS"),
    ),
    # where or when the relation holds is no part of its name
    ("My manager there is Grete Solberg.", (USER, "manager", "Grete Solberg")),
    ("My new manager at Corvid is Isaac Mensah.", (USER, "manager", "Isaac Mensah")),
    ("My new manager from Monday is Victor Han.", (USER, "manager", "Victor Han")),
    # a place leading the sentence is not its subject
    ("At Copperline I'm on the patient-intake team.", (USER, "team", "patient-intake")),
    # why or when the value came, a clause of its own, is no part of it
    ("My new accountant is Sofia Lopes since Rui retired.", (USER, "accountant", "Sofia Lopes")),
    ("Lena went with Ostro Mobile after her old plan doubled.", ("Lena", None, "Ostro Mobile")),
    ("Kofi moved to Atom Bank once he got the mortgage.", ("Kofi", None, "Atom Bank")),
    # a note that opens on a past verb and the writer's own thing is the writer's
    ("Moved my notes over to Logseq.", (USER, "note", "Logseq")),
    # a new job names the employer, whatever the job is
    (
        "Kemi's taking a job teaching maths at Ashfield Academy.",
        ("Kemi", "employer", "Ashfield Academy"),
    ),
    # places in address order: a district then its town, a town then its region
    ("I live in Jalatlaco, Oaxaca city.", (USER, "city", "Oaxaca")),
    ("Dana lives in Austin, Texas.", ("Dana", "city", "Austin")),
    # a named owner's key changed by whoever made the change; what a thing is made with
    (
        "Moved Heron's CI over to Buildkite, GitHub Actions minutes got expensive.",
        ("Heron", "ci", "Buildkite"),
    ),
    ("Heron's frontend is written in Svelte.", ("Heron", "frontend", "Svelte")),
    # a name and the street or service it is on: the name
    ("Pepper's vet is Kirkstall Vets on Abbey Road.", ("Pepper", "vet", "Kirkstall Vets")),
    ("Project Heron uses Postgres 15 on RDS.", ("Project Heron", None, "Postgres 15")),
    # "X for Name is Value" as a note writes it, with no "the"
    ("Ops lead for Heron is Marta Kowalski.", ("Heron", "ops_lead", "Marta Kowalski")),
    ("Vet for Mochi is Dr. Inês Cardoso.", ("Mochi", "vet", "Dr. Inês Cardoso")),
    # a key people keep of themselves, written with no "my", is the writer's
    ("Diet is vegetarian these days.", (USER, "diet", "vegetarian")),
    ("Car is a grey Nissan Leaf.", (USER, "car", "grey Nissan Leaf")),
    # one thing dropped for another is a change, with or without a subject
    ("Nadia dropped Vim for Zed.", ("Nadia", None, "Zed")),
    ("Ditched Trello for Linear, the boards got messy.", (USER, None, "Linear")),
    # another name kept for a narrower use is an aside
    ("I use memoQ for CAT work, Trados only when a client insists.", (USER, "cat_work", "memoQ")),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_common_forms(text: str, expected: tuple[str, str | None, str]) -> None:
    [triple] = extract_facts(text)
    assert (triple.subject, triple.relation, triple.value) == expected


def test_a_verb_and_its_object_is_no_value() -> None:
    found = extract_facts("I've accepted an offer from Greenway Studio as a senior architect.")
    assert all(not t.value.startswith("accepted") for t in found)
    # "has started at Stripe as a designer" is a verb's perfect, not "has X as a key"
    found = extract_facts("Priya has started at Stripe as a designer.")
    assert all(not t.value.startswith("started") for t in found)
    [mentor] = extract_facts("Priya has Tom as a mentor.")
    assert (mentor.relation, mentor.value) == ("mentor", "Tom")


def test_corrections_and_retractions() -> None:
    [fix] = extract_facts("Actually, Alice's editor is Helix, not Vim.")
    assert fix.correction and fix.previous == "Vim" and fix.value == "Helix"
    [gone] = extract_facts("Alice doesn't use Vim anymore")
    assert gone.negated and gone.value == "Vim" and gone.relation is None
    [moved] = extract_facts("Alice switched her main db from MySQL to Postgres")
    assert moved.previous == "MySQL"


@pytest.mark.parametrize(
    ("text", "subject", "value"),
    [
        ("I'm not allergic to penicillin after all.", USER, "penicillin"),
        (
            "Turns out I'm not allergic to penicillin after all, the test was negative.",
            USER,
            "penicillin",
        ),
        ("Sam is no longer allergic to nuts.", "Sam", "nuts"),
    ],
)
def test_an_allergy_retracted(text: str, subject: str, value: str) -> None:
    """ "not allergic to X" retracts X (no "not X" tail after a value "I am"), and "the test was
    negative" is a clause, no value replacing it."""
    [gone] = extract_facts(text)
    assert (gone.subject, gone.value, gone.negated) == (subject, value, True)


@pytest.mark.parametrize(
    "text",
    ["Sam and I split up in March.", "I broke up with Sam last week.", "Sam and I have separated."],
)
def test_a_partner_left_is_retracted(text: str) -> None:
    [gone] = extract_facts(text)
    assert (gone.subject, gone.value, gone.negated) == (USER, "Sam", True)


def test_a_label_and_an_aside_both_fall_away() -> None:
    """ "Keep this stored: my Airbnb host ... is Joana, check-in after 3": without the label
    and the aside after the comma the clause reads."""
    [host] = extract_facts("Keep this stored: my Airbnb host in Lisbon is Joana, check-in after 3.")
    assert (host.subject, host.relation, host.value) == (USER, "airbnb_host", "Joana")


def test_pronouns_point_at_the_last_named_subject() -> None:
    triples = extract_facts("Bob is great. He switched to Emacs. Their OS is Debian.")
    assert [(t.subject, t.relation, t.value) for t in triples] == [
        ("Bob", None, "Emacs"),
        ("Bob", "os", "Debian"),
    ]
    assert extract_facts("He switched to Emacs.") == []  # nobody to point at


def test_a_he_or_she_after_a_partner_or_relative_is_that_person() -> None:
    """ "Partner is Tomás, he works at Estúdio Vale": the partner's employer, not the writer's;
    "My manager is Hugo. He's great" is the same shape with no key after it."""
    triples = extract_facts("Partner is Tomás, he works at Estúdio Vale.")
    assert [(t.subject, t.relation, t.value) for t in triples] == [
        (USER, "partner", "Tomás"),
        ("Tomás", "employer", "Estúdio Vale"),
    ]
    triples = extract_facts("My sister is Ines. She got a new job at Farfetch as a buyer.")
    assert [(t.subject, t.relation, t.value) for t in triples][1:] == [
        ("Ines", "employer", "Farfetch")
    ]


def test_a_kin_word_before_a_name_is_the_writers_kin() -> None:
    """ "Husband Dev works nights at ...": the writer's husband, and where he works."""
    triples = extract_facts("Husband Dev works nights at the Royal Infirmary as a radiographer.")
    assert [(t.subject, t.relation, t.value) for t in triples] == [
        (USER, "husband", "Dev"),
        ("Dev", "employer", "Royal Infirmary"),
    ]
    assert extract_facts("Aunt Priya's party went fine.") == []


def test_a_clause_of_they_and_a_verb_is_no_part_of_the_value() -> None:
    [client] = extract_facts("My main client is Kodansha USA, they send scripts every week.")
    assert (client.relation, client.value) == ("main_client", "Kodansha USA")


def test_dropping_one_value_for_another_is_one_change() -> None:
    [change] = extract_facts("Bob quit Emacs and moved over to Helix")
    assert (change.value, change.previous, change.negated) == ("Helix", "Emacs", False)


@pytest.mark.parametrize(
    "text",
    [
        "Switched to Neovim, VS Code was getting slow on the monorepo.",
        "Switched to Neovim.",
        "I switched to Neovim, VS Code was getting slow.",
    ],
)
def test_a_subjectless_note_and_a_comma_splice(text: str) -> None:
    """A note that opens on a change verb is the writer's; a second clause after a comma with
    a subject and verb of its own is not part of the value."""
    [triple] = extract_facts(text)
    assert (triple.subject, triple.value) == (USER, "Neovim")


def test_two_clauses_share_their_subject() -> None:
    triples = extract_facts("Alice uses Vim and lives in Paris")
    assert [(t.subject, t.relation, t.value) for t in triples] == [
        ("Alice", None, "Vim"),
        ("Alice", "city", "Paris"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "We talked about the roadmap.",
        "The weather is nice and it is sunny",
        "Alice thinks it is fine",
        "what editor does Alice use?",
        "",
        # how a thing is going is no value of it
        "Team is great.",
        "Our walks are now chaos.",
        "School is closed tomorrow.",
        "My laptop is due for a refresh.",
        "Behaviour points for Y10 are up 20% on last term.",
        "booked Denver -> Toronto on Air Canada for May 24-31, seat 22A.",
    ],
)
def test_plain_notes_state_no_fact(text: str) -> None:
    assert extract_facts(text) == []


def test_dependencies_give_entities_not_a_current_value() -> None:
    found = extract("svc-a depends on svc-b.")
    assert found.triples == [] and found.entities == ["svc-a", "svc-b"]


@pytest.mark.parametrize(
    ("name", "normal"),
    [
        ("Primary Databases", "primary_database"),
        ("primaryDatabase", "primary_database"),
        ("the deploy-tool", "deploy_tool"),
        ("my cities", "city"),
        ("OS", "os"),
    ],
)
def test_relation_names_are_snake_case_and_singular(name: str, normal: str) -> None:
    assert normalize_relation(name) == normal


def test_lexical_similarity_orders_the_cues() -> None:
    same = lexical_similarity("main db", "primary database")
    nested = lexical_similarity("editor", "code editor")
    different_kind = lexical_similarity("home city", "birth city")
    unrelated = lexical_similarity("editor", "city")
    assert same > nested > different_kind > unrelated == 0.0
    assert lexical_similarity("os", "operating system") == 1.0  # an abbreviation spelled out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Vim -> Neovim.", (USER, None, "Neovim", "Vim")),
        ("Not Vim anymore, Helix now.", (USER, None, "Helix", "Vim")),
        ("Switched from MySQL to Postgres.", (USER, None, "Postgres", "MySQL")),
        ("my shell: bash -> fish", (USER, "shell", "fish", "bash")),
        ("Alice: Emacs → Zed (editor)", ("Alice", "editor", "Zed", "Emacs")),
        ("Bob is not using Jenkins anymore, Buildkite now.", ("Bob", None, "Buildkite", "Jenkins")),
        ("I'm using Podman instead of Docker.", (USER, None, "Podman", "Docker")),
        ("Carol joined the data platform team.", ("Carol", "team", "data platform", None)),
    ],
)
def test_note_style_changes(text: str, expected: tuple[str, str | None, str, str | None]) -> None:
    [triple] = extract_facts(text)
    assert (triple.subject, triple.relation, triple.value, triple.previous) == expected


def test_a_switch_is_not_a_correction() -> None:
    [switch] = extract_facts("Actually I switched to Neovim last month.")
    assert (switch.verb, switch.correction) == ("switch", False)
    [fix] = extract_facts("Actually, my editor is Emacs.")
    assert fix.correction


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Correction: Bea's phone isn't a Pixel 7, it's a Pixel 8.", ("Bea", "phone", "Pixel 8")),
        ("My shell isn't zsh, it's fish.", (USER, "shell", "fish")),
        ("Update on Bea: her team went from Growth to Platform.", ("Bea", "team", "Platform")),
        ("Bea's Pixel broke, so her phone is an iPhone 15 now.", ("Bea", "phone", "iPhone 15")),
        ("I've stopped using Chrome and switched to Firefox.", (USER, None, "Firefox")),
        ("Bea moved to Lyon over the weekend.", ("Bea", None, "Lyon")),
        ("Bea's laptop changed to a Dell a couple of weeks ago.", ("Bea", "laptop", "Dell")),
        # a comma splice after a contraction, a place inside the value's place, an appositive
        ("My partner is Jamie, we've been together six years.", (USER, "partner", "Jamie")),
        ("I live in Seattle, in Capitol Hill.", (USER, "city", "Seattle")),
        ("My sister Carmen lives in Austin.", ("Carmen", "city", "Austin")),
        (
            "Our new intern Priscilla Tan works at Tidewater.",
            ("Priscilla Tan", "employer", "Tidewater"),
        ),
    ],
)
def test_more_forms(text: str, expected: tuple[str, str | None, str]) -> None:
    triples = [t for t in extract_facts(text) if not t.negated]
    assert (triples[-1].subject, triples[-1].relation, triples[-1].value) == expected


def test_a_move_for_a_reason_keeps_its_key_and_dates_are_no_entities() -> None:
    [move] = extract_facts("Carmen moved from Austin to Denver for her medical residency.")
    assert (move.subject, move.relation, move.value, move.hint) == (
        "Carmen",
        None,
        "Denver",
        "city",
    )
    found = extract("Tomás Alvarez's last day is the 30th, he's joining Stripe.")
    assert "30th" not in found.entities and "Tomás Alvarez" in found.entities
    [own] = extract_facts("My manager is Grace Liu now.")  # no appositive: the key stays mine
    assert (own.subject, own.relation, own.value) == (USER, "manager", "Grace Liu")


def test_a_role_an_action_advice_and_a_date_next_week_are_no_values() -> None:
    [joined] = extract_facts("Ama Owusu joined the data team as an analyst.")
    assert (joined.subject, joined.relation, joined.value) == ("Ama Owusu", "team", "data")
    assert extract_facts("Ama's team is hiring three contractors for Atlas.") == []
    assert extract_facts("Ama recommended Kotlin over Java for the new app.") == []
    assert extract_facts("Ama pushed the launch review to next Thursday at 10.") == []
    [hobby] = extract_facts("Ama's hobby is restoring old bikes.")  # a gerund value stays
    assert (hobby.relation, hobby.value) == ("hobby", "restoring old bikes")


def test_no_anchored_value_from_what_a_key_is_doing(mem_store: MemoryStore) -> None:
    """A clause no pattern reads, naming a key the subject has, with a name in it: "her team is
    hiring for Atlas" says what the team does, not that Atlas is her team."""
    mem_store.save("Ama Owusu is on the Payments team.")
    mem_store.save("Ama Owusu's team is hiring two contractors for Atlas.")
    assert [f.object for f in mem_store.facts("Ama Owusu", "team")] == ["Payments"]


def test_an_unknown_verb_before_a_name_is_a_guess_never_a_plan() -> None:
    [guess] = extract_facts("Bea rides a Brompton.")
    assert (guess.subject, guess.relation, guess.value) == ("Bea", None, "Brompton")
    assert guess.verb == "any"
    assert extract_facts("Bea rides a Brompton to work.") == []  # a phrase, not a name
    assert extract_facts("Bea might buy a Brompton.") == []
    assert extract_facts("Bea met Carlos.") == []


def test_lowercase_services_in_hosting_and_dependency_statements() -> None:
    hosted = extract("ingest is deployed on rack-4.")
    assert [(t.subject, t.relation, t.value) for t in hosted.triples] == [
        ("ingest", "runs_on", "rack-4")
    ]
    linked = extract("gateway forwards every request to ingest.")
    assert linked.triples == [] and linked.entities == ["gateway", "ingest"]
    assert extract_facts("it is deployed on rack-4.") == []


def test_a_generic_head_noun_names_the_same_key() -> None:
    assert lexical_similarity("gym membership", "gym") == lexical_similarity("main bank", "bank")
    assert lexical_similarity("email provider", "email service") >= 0.95
    assert lexical_similarity("password manager", "password") < 0.5  # "manager" is not generic
    assert lexical_similarity("phone number", "phone") < 0.95


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a title or an initial ends in a full stop but not the sentence
        ("Ulla's dentist is Dr. Albescu.", ("Ulla", "dentist", "Dr. Albescu")),
        ("Priya's manager is J. Okafor. She moved to Lisbon.", ("Priya", "manager", "J. Okafor")),
        # "have got" is "have"; an aside in brackets is no part of the value
        ("I've got Drone CI as my CI service.", (USER, "ci_service", "Drone CI")),
        (
            "Tariq's CI setup is Argo Workflows (was Drone CI)",
            ("Tariq", "ci_setup", "Argo Workflows"),
        ),
    ],
)
def test_titles_initials_have_got_and_asides(
    text: str, expected: tuple[str, str | None, str]
) -> None:
    first = next(t for t in extract_facts(text) if not t.negated)
    assert (first.subject, first.relation, first.value) == expected


def test_a_phrase_of_place_or_manner_is_no_value() -> None:
    values = {t.value for t in extract_facts("Oluwaseun runs in the Diadora Gara now.")}
    assert not any(v.split()[0].casefold() in {"in", "the"} for v in values)
    assert extract_facts("I have got to leave early.") == []
    assert extract_facts("I moved so that my commute is shorter.") == []


def test_the_particle_of_a_phrasal_verb_is_no_part_of_the_value_left() -> None:
    for text, old, new in [
        ("I swapped Surfshark out for IVPN.", "Surfshark", "IVPN"),
        ("Dana traded the Corolla in for a Mazda.", "Corolla", "Mazda"),
    ]:
        triple = next(t for t in extract_facts(text) if not t.negated)
        assert (triple.previous, triple.value) == (old, new)


def test_a_machine_named_as_code_is_the_value_not_its_kind() -> None:
    for text, value in [
        ("orchard-sync runs on the juniper-vm-8 box.", "juniper-vm-8"),
        ("cart-api is hosted on db-07 server", "db-07"),
        ("svc-a is hosted on the prod server", "prod server"),  # no code name: as written
    ]:
        triple = next(t for t in extract_facts(text) if not t.negated)
        assert (triple.relation, triple.value) == ("runs_on", value)


def test_a_note_that_opens_on_a_verb_is_the_writers_in_each_clause() -> None:
    triples = extract_facts("Dropped my iPhone in a lake and replaced it with a Pixel 8.")
    assert [(t.subject, t.value) for t in triples] == [(USER, "Pixel 8")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # someone else makes the change; the writer's value changes (a medicine: the medication)
        (
            "Neurologist switched me from sumatriptan to rizatriptan, apparently it works faster.",
            [(USER, "medication", "rizatriptan")],
        ),
        (
            "Callum got promoted to head of sound at the Quayside Players!",
            [("Callum", "role", "head of sound")],
        ),
        ("I report to the general counsel, Ewa Borkowska.", [(USER, "manager", "Ewa Borkowska")]),
        ("First day at Vistula Freight.", [(USER, "employer", "Vistula Freight")]),
        # a new home: the town (the last place named); its key is the subject's own place key
        (
            "We finally got the keys to the house in Heaton Moor, Stockport.",
            [(USER, None, "Stockport")],
        ),
        # a person introduced by name; "she" is then that person, and "mum" is a mother
        (
            "Mum's name is Heike. She lives in Katowice with my stepdad Jerzy.",
            [(USER, "mother", "Heike"), ("Heike", "city", "Katowice")],
        ),
        ("Dad is Joseph, Mum is Grace.", [(USER, "father", "Joseph"), (USER, "mother", "Grace")]),
        (
            "Best friend is Achieng Odhiambo, we were at JKUAT together.",
            [(USER, "best_friend", "Achieng Odhiambo")],
        ),
        # a title's full stop ends no sentence
        ("My manager is Eng. Peter Otieno.", [(USER, "manager", "Eng. Peter Otieno")]),
        # a state, a verb and its object: no values
        ("ugh, three night shifts in a row. my body clock is destroyed", []),
        (
            "Njeri got admitted to the bar and has joined Kariuki & Mwangi Advocates"
            " as an associate.",
            [],
        ),
        # ... but a value may open on a participle after its article
        ("My car is a refurbished Tesla.", [(USER, "car", "refurbished Tesla")]),
    ],
)
def test_notes_as_people_type_them(text: str, expected: list[tuple[str, str | None, str]]) -> None:
    assert [(t.subject, t.relation, t.value) for t in extract_facts(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "My mom is allergic to sulfa drugs.",
        "My mom is starting chemo for breast cancer in January.",
        "My partner is a nurse.",
        "My sister is pregnant.",
    ],
)
def test_who_a_relative_is_is_a_name(text: str) -> None:
    """What is said of a relative or partner is no value of the key that names them."""
    assert [t for t in extract_facts(text) if t.subject == USER] == []


def test_a_memory_that_names_a_relative_keeps_its_place_in_search(store: MemoryStore) -> None:
    """ "My mom Linda watches the kids" names the mother; a later sentence about her that is no
    name must not replace Linda and push the memory down as stale."""
    store.save("My mom Linda watches the kids on Tuesdays and Thursdays.")
    store.save("My mom is starting chemo for breast cancer in January.")
    assert [f.object for f in store.facts("user", "mother")] == ["Linda"]
    hits = store.search("Which days does Grandma have the kids?", k=2)
    assert any("Tuesdays" in h.memory.content for h in hits)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We moved to Leeds in May.", (USER, None, "Leeds")),
        ("My wife and I moved to Leeds.", (USER, None, "Leeds")),
        ("My family and I moved to Leeds.", (USER, None, "Leeds")),
        ("Our family relocated to Porto.", (USER, "city", "Porto")),
        ("Our database is MySQL 8.", (USER, "database", "MySQL 8")),
        ("We're on Fedora now.", (USER, None, "Fedora")),
        ("Hannah left for college, so our new sitter is Brianna.", (USER, "sitter", "Brianna")),
        ("We switched broadband to BT for the new house.", (USER, "broadband", "BT")),
    ],
)
def test_the_writers_household_speaks_for_the_writer(
    text: str, expected: tuple[str, str | None, str]
) -> None:
    [triple] = extract_facts(text)
    assert (triple.subject, triple.relation, triple.value) == expected


def test_a_named_partner_stays_and_what_befalls_a_thing_is_no_value() -> None:
    [engaged] = extract_facts("Talia and I got engaged!")
    assert (engaged.subject, engaged.relation, engaged.value) == (USER, "fiance", "Talia")
    assert extract_facts("Our badge photos are being retaken Monday.") == []
    assert extract_facts("My street is getting repaved this week.") == []


@pytest.mark.parametrize(
    ("text", "relation", "value"),
    [
        ("New line manager is Ama Boateng, she starts on the 3rd.", "line_manager", "Ama Boateng"),
        ("Team lead is Ravi Shah.", "team_lead", "Ravi Shah"),
        ("New manager is Marcus.", "manager", "Marcus"),
    ],
)
def test_an_ownerless_note_may_say_what_kind_of_manager(
    text: str, relation: str, value: str
) -> None:
    [triple] = extract_facts(text)
    assert (triple.subject, triple.relation, triple.value) == (USER, relation, value)


def test_an_owner_is_no_kind_and_a_hedged_likeness_is_no_value() -> None:
    assert extract_facts("Her manager is Bob Ng.") == []
    assert extract_facts("Saturday parkrun is pretty much my church.") == []
    assert extract_facts("Nadia is practically my sister at this point.") == []
    [literal] = extract_facts("Buddhism is my religion.")
    assert (literal.subject, literal.relation, literal.value) == (USER, "religion", "Buddhism")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a name, then where the named one is: the value is the name
        ("My physio is Dr Keane at Riverside Clinic.", (USER, "physio", "Dr Keane")),
        ("Noor's tailor is Mr Aziz in Bradford.", ("Noor", "tailor", "Mr Aziz")),
        ("I work at Ocado in Hatfield.", (USER, "employer", "Ocado")),
        # an acronym keeps its case ("GP", not "gP")
        ("GP is Dr Imogen Shaw at the Elm Street practice.", (USER, "doctor", "Dr Imogen Shaw")),
        # a date after "on" is the value, as after "is"
        ("My birthday is on 9 February.", (USER, "birthday", "9 February")),
        ("Kemi's anniversary is on the 2nd of July.", ("Kemi", "anniversary", "2nd of July")),
        # "last quarter" says when, as "last month" does
        ("We moved CI from Travis to CircleCI last quarter.", (USER, "ci", "CircleCI")),
        # naming by "called" or "named"
        ("Our kitten is called Sheldon.", (USER, "kitten", "Sheldon")),
    ],
)
def test_a_place_after_a_name_a_date_after_on_and_a_name_given(
    text: str, expected: tuple[str, str | None, str]
) -> None:
    [triple] = extract_facts(text)
    assert (triple.subject, triple.relation, triple.value) == expected


def test_a_departure_after_a_comma_is_a_clause_of_its_own() -> None:
    triples = extract_facts("My new boss is Ines Carvalho, Duarte retired in June.")
    first = triples[0]  # "boss" is the manager key
    assert (first.subject, first.relation, first.value) == (USER, "manager", "Ines Carvalho")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a clause after ", so" and a name of more than one letter is read on its own
        (
            "Dr Rao's moved to a practice in Hobart, so Dr Felix Hartmann is my GP now.",
            (USER, "doctor", "Dr Felix Hartmann"),
        ),
        # "'s" before a participle and where it leads is "has"
        ("Dean's joined Huon Aquaculture.", ("Dean", "employer", "Huon Aquaculture")),
        # a medicine is a medication whatever it is taken for; a teacher works where they teach
        ("I'm on levothyroxine for my thyroid.", (USER, "medication", "levothyroxine")),
        ("I teach chemistry at Oakwood Academy.", (USER, "employer", "Oakwood Academy")),
        # a hyphenated key may open on a preposition
        ("Our on-call rotation is PagerDuty.", (USER, "on_call_rotation", "PagerDuty")),
        ("Hannah's moved down to Manchester for work.", ("Hannah", None, "Manchester")),
        # the person after the role, and "up here" says where
        (
            "My boss is the head pastry chef, Henrique Valente.",
            (USER, "manager", "Henrique Valente"),
        ),
        (
            "My boss up here is the executive chef, Paulo Esteves.",
            (USER, "manager", "Paulo Esteves"),
        ),
        # "our" as "my" after the value
        ("Euan Baird is our team leader now.", (USER, "team_leader", "Euan Baird")),
    ],
)
def test_a_clause_after_so_a_has_contraction_and_a_person_after_the_role(
    text: str, expected: tuple[str, str | None, str]
) -> None:
    assert expected in [(t.subject, t.relation, t.value) for t in extract_facts(text)]


@pytest.mark.parametrize(
    ("text", "value"),
    [("Finally upgraded to a Pixel 9.", "Pixel 9"), ("Just switched to Helix.", "Helix")],
)
def test_a_note_opening_on_an_adverb_and_a_change_is_the_writers(text: str, value: str) -> None:
    assert [(t.subject, t.value) for t in extract_facts(text)] == [(USER, value)]


def test_got_before_a_change_names_nobody() -> None:
    """ "Got moved to the Payments team": the writer's (the parse reads it), nobody called Got."""
    assert extract_facts("Got moved to the Payments team.") == []


def test_a_possessive_before_an_adjective_stays_a_possessive() -> None:
    read = [(t.subject, t.relation, t.value) for t in extract_facts("Dean's used car is a Golf.")]
    assert read == [("Dean", "used_car", "Golf")]


@pytest.mark.parametrize(
    "text", ["When is our anniversary?", "Which day is my apprentice at college?"]
)
def test_a_question_word_is_no_value(text: str) -> None:
    assert extract_facts(text) == []


def test_a_time_after_in_is_no_place_and_a_plan_on_a_date_has_no_owner() -> None:
    assert extract_facts("Priya's cousin went to Lisbon in August without her.") == []
    assert extract_facts("The offsite is on 12 March.") == []
