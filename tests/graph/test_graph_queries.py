"""Graph queries, upkeep and the enrichment that keeps one node per real thing, through the
facade and each interface."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import mnemex
from mnemex import MemoryStore, Settings
from mnemex.errors import InvalidInputError, NotFoundError
from mnemex.interfaces.cli import app as cli
from mnemex.interfaces.http import create_app
from tests.clients import rest

RELATIONS = [
    {"from_entity": "Alice", "to_entity": "Atlas", "relation_type": "works on"},
    {"from_entity": "Alice", "to_entity": "Initech", "relation_type": "works for"},
    {"from_entity": "Bob", "to_entity": "Alice", "relation_type": "manages"},
    {"from_entity": "Atlas", "to_entity": "PostgreSQL", "relation_type": "uses"},
]
ENTITIES = [
    {"name": "Alice", "category": "person"},
    {"name": "Atlas", "category": "project"},
    {"name": "Initech", "category": "organization"},
]


@pytest.fixture
def graph_store(mem_store: MemoryStore) -> MemoryStore:
    mem_store.upsert_entities(ENTITIES, RELATIONS)
    return mem_store


def test_neighbours_filter_by_category_and_relation(graph_store: MemoryStore) -> None:
    whole = graph_store.graph("Alice", depth=2, memories=False)
    assert {n.label for n in whole.nodes} == {"Alice", "Atlas", "Initech", "Bob", "PostgreSQL"}
    assert {e.type for e in whole.edges} == {"works_on", "works_at", "manages", "uses"}
    projects = graph_store.graph("Alice", depth=1, categories=["project"])
    assert {n.label for n in projects.nodes} == {"Alice", "Atlas"}
    typed = graph_store.graph("Alice", depth=2, relation_types=["works for"])  # a synonym
    assert {n.label for n in typed.nodes} == {"Alice", "Initech"}
    with pytest.raises(InvalidInputError):
        graph_store.graph("Alice", depth=9)


def test_shortest_path_and_as_of(graph_store: MemoryStore) -> None:
    path = graph_store.path("Bob", "PostgreSQL")
    assert [n.label for n in path.nodes] == ["Bob", "Alice", "Atlas", "PostgreSQL"]
    assert [e.type for e in path.edges] == ["manages", "works_on", "uses"]
    assert graph_store.path("Initech", "Initech").edges == []
    with pytest.raises(NotFoundError):
        graph_store.path("Bob", "Nobody")
    assert graph_store.graph("Alice", as_of="2000-01-01").nodes == []


def test_a_category_a_person_set_is_kept(mem_store: MemoryStore) -> None:
    mem_store.upsert_entities([{"name": "Zed", "category": "technology"}], [])
    mem_store.save("Zed is my new friend from the climbing gym, she is great")
    assert mem_store.entity("Zed").category == "technology"


def test_one_node_per_person_and_no_junk(settings: Settings, clock: Any) -> None:
    with mnemex.open(":memory:", settings=settings, clock=clock) as store:
        store.save("Priya Nair is my new manager")
        store.save("Priya wants weekly 1:1s starting Monday")
        store.save("Lunch with José Álvarez at the Thai place on August 21")
        store.save("jose alvarez likes hiking in the Alps")
        hits = store.memories(entity="Priya Nair")
        assert {m.content for m in hits} >= {"Priya wants weekly 1:1s starting Monday"}
        names = {e.name for e in store.entities(limit=100)}
        assert "Priya" not in names and "Lunch" not in names and "Thai" not in names
        assert not any("August" in n for n in names)
        assert [n for n in names if n.casefold().startswith("jos")] == ["José Álvarez"]
        for memory in store.memories(limit=10):
            assert not {"fact", "preference", "update", "decision"} & set(memory.tags)
            assert len(memory.tags) <= 5


@pytest.mark.parametrize("first_said", ["kin", "client"])
def test_a_first_name_the_user_calls_family_is_not_a_stranger_of_that_name(
    settings: Settings, clock: Any, first_said: str
) -> None:
    kin = "My nephew Amir turns seven on Saturday, need a Lego set"
    client = "New client Amir Khalil lodged a fresh claim last week"
    with mnemex.open(":memory:", settings=settings, clock=clock) as store:
        for text in (kin, client) if first_said == "kin" else (client, kin):
            store.save(text)
        assert [m.content for m in store.memories(entity="Amir Khalil")] == [client]
        assert store.entity("Amir") is not None
        found = store.maint_scan().findings
        assert not [f for f in found if f.kind == "duplicate"]  # no merge proposed either
        # Called by what the user calls him, or by name alone, the nephew is the nephew.
        store.save("my nephew Amir loved the Lego")
        assert len(store.memories(entity="Amir")) == 2


@pytest.mark.parametrize(
    ("part", "full"),
    [
        (
            "Travis (night driver, truck 305) swapped shifts with Omar this week",
            "Travis Keller, freight broker in Louisville, keeps calling with cheap loads",
        ),
        (
            "Dr Naidoo at the Rondebosch practice says it is from diving - he wants me out",
            "Kavitha Naidoo is the new honours student on the penguin project. She's 22",
        ),
    ],
)
@pytest.mark.parametrize("first", ["part", "full"])
def test_a_name_s_part_is_not_a_person_described_otherwise(
    settings: Settings, clock: Any, part: str, full: str, first: str
) -> None:
    """What the notes say a person is (a night driver, a freight broker) or a he and a she
    keep two people of one first name or surname apart, whichever is saved first."""
    with mnemex.open(":memory:", settings=settings, clock=clock) as store:
        for text in (part, full) if first == "part" else (full, part):
            store.save(text)
        whole = full.split(",", maxsplit=1)[0].split(" is ", maxsplit=1)[0]
        assert [m.content for m in store.memories(entity=whole)] == [full]
        found = store.maint_scan().findings
        assert not [f for f in found if f.kind == "duplicate"]


@pytest.mark.parametrize(
    "texts",
    [
        ("Priya, our tech lead, wants weekly 1:1s", "Priya Nair is the tech lead on Orion"),
        ("Dr. Osei says my iron is low, he wants a retest", "Samuel Osei, my GP, moved surgery"),
        ("Mrs Sinclair is off sick again", "Morag Sinclair, the depute, emailed; she's back"),
    ],
)
def test_a_name_s_part_described_alike_still_links(
    settings: Settings, clock: Any, texts: tuple[str, str]
) -> None:
    with mnemex.open(":memory:", settings=settings, clock=clock) as store:
        for text in texts:
            store.save(text)
        whole = texts[1].split(",")[0].split(" is ")[0]
        linked = {m.content for m in store.memories(entity=whole)}
        proposed = [f for f in store.maint_scan().findings if f.kind == "duplicate"]
        assert linked == set(texts) or len(proposed) == 1


def test_the_user_s_family_keeps_its_first_name_link(settings: Settings, clock: Any) -> None:
    with mnemex.open(":memory:", settings=settings, clock=clock) as store:
        store.save("My wife Elif Demir is a pediatric nurse")
        store.save("my wife Elif starts nights on Monday")
        store.save("Elif wants the car on Friday")
        assert len(store.memories(entity="Elif Demir")) == 3


def test_a_lowercase_word_is_not_the_name_it_spells(settings: Settings, clock: Any) -> None:
    """A common word is not the name it spells: "the delta between" is no airline, "a bun" no
    JavaScript runtime; a lowercase name used as a modifier ("the heron launch") still links."""
    with mnemex.open(":memory:", settings=settings, clock=clock) as store:
        delta = store.save("Delta lost the car seat on the way back, claim filed")
        diff = store.save("the delta between staging and prod configs is huge, diff them")
        assert "Delta" in delta.memory.entities and "Delta" not in diff.memory.entities
        assert "Bun" in store.save("Bun vs Deno for the CLI: we benchmarked both").memory.entities
        lunch = store.save("Bring a bun and apple slices in the lunchbox")
        assert "Bun" not in lunch.memory.entities
        store.save("Heron is the code name of the new mobile app")
        assert "Heron" in store.save("the heron launch slipped a week").memory.entities
        assert "Heron" not in store.save("a heron at the pond every morning").memory.entities


def test_a_title_and_a_surname_are_the_one_person_so_named(store: MemoryStore) -> None:
    store.save("Dr. Osei wants to add a second drug")  # no full name known: as said
    assert store.entity("Dr. Osei").category == "person"
    store.save("Dr. Amara Osei is dad's endocrinologist at Lakeview Endocrine Clinic")
    node = store.entity("Amara Osei")  # the titled node took the full name
    assert node.category == "person" and "Dr. Osei" in node.aliases
    store.save("Dr Osei started dad on Jardiance 10mg")
    store.save("Dr. Amara called back about the dose")
    assert len(store.memories(entity="Amara Osei")) == 4
    assert "Dr Osei" in store.entity("Amara Osei").aliases  # as the person was called
    people = [e.name for e in store.entities(limit=100) if "Osei" in e.name or "Amara" in e.name]
    assert people == ["Amara Osei"]
    # Two people of one surname: a title and the surname stay as said.
    store.save("Helena Carvalho runs the bakery and Joaquim Carvalho keeps the books")
    store.save("Mr. Carvalho signed the lease")
    assert store.entity("Mr. Carvalho").name == "Mr. Carvalho"


@pytest.mark.parametrize(
    ("full", "titled"),
    [
        ("Hilary Pemberton", "Judge Pemberton"),
        ("Bastien Garnier", "Monsieur Garnier"),
        ("Gareth Whitlock", "Professor Whitlock"),
        ("Klaus Hoffmann", "Herr Hoffmann"),
        ("Takeshi Ono", "Ono-san"),
    ],
)
def test_titles_of_many_kinds_and_languages_name_the_one_person_so_named(
    store: MemoryStore, full: str, titled: str
) -> None:
    store.save(f"{full} is on the committee for the spring review.")
    store.save(f"{titled} wants the draft by Friday.")
    assert len(store.memories(entity=full)) == 2
    assert titled in store.entity(full).aliases


def test_a_name_typed_without_its_letters_or_apostrophe_is_the_same_node(
    store: MemoryStore,
) -> None:
    """Letters NFKD leaves alone (ø, æ, ł, ı) and apostrophes inside a name are folded in the
    key; spaces or hyphens closed up are a duplicate `maint scan` proposes."""
    store.save("Søren Kjær is the Danish set designer.")
    store.save("Soren Kjaer emailed the revised ground plan.")
    store.save("Kieran O'Donnell from the council can confirm the address.")
    store.save("Kieran ODonnell called back about the housing letter.")
    assert len(store.memories(entity="Søren Kjær")) == 2
    assert len(store.memories(entity="Kieran O'Donnell")) == 2
    store.save("Rehearsal room is on La Trobe Street this season.")
    store.save("Courier dropped the props on Latrobe Street.")
    merges = [set(f.names) for f in store.maint_scan().findings if f.kind == "duplicate"]
    assert {"La Trobe Street", "Latrobe Street"} in merges
    # What someone is, read by the ledger, is no node of its own.
    assert "Danish set designer" not in [e.name for e in store.entities(limit=100)]


def test_a_title_before_a_common_surname_names_no_one(mem_store: MemoryStore) -> None:
    people = [{"name": f"{first} Lee", "category": "person"} for first in "Ann Bo Cy Di".split()]
    mem_store.upsert_entities([*people, {"name": "Wei Park", "category": "person"}], [])
    mem_store.save("Dr. Lee moved the appointment to Friday")
    assert mem_store.entity("Dr. Lee").name == "Dr. Lee"  # four Lees: whom it means is unsaid
    mem_store.save("Dr. Park moved the appointment to Friday")
    assert mem_store.entity("Dr. Park").name == "Wei Park"  # the one Park


def test_maint_scan_fix_and_undo(mem_store: MemoryStore) -> None:
    mem_store.upsert_entities(
        [{"name": "Amazon Web Services", "category": "technology"}, {"name": "AWS"}],
        [{"from_entity": "Loop", "to_entity": "Loop", "relation_type": "uses"}],
    )
    mem_store.save("The AWS bill doubled", entities=["AWS"])
    report = mem_store.maint_scan()
    kinds = {f.kind for f in report.findings}
    assert {"duplicate", "self_loop"} <= kinds
    assert mem_store.maint_fix().dry_run and mem_store.entity("AWS").name == "AWS"
    fixed = mem_store.maint_fix(dry_run=False, kinds=["duplicate"])
    merge = next(f for f in fixed.findings if f.kind == "duplicate")
    assert merge.fixed and merge.fix_id
    assert mem_store.entity("AWS").name == "Amazon Web Services"
    assert [m.content for m in mem_store.memories(entity="Amazon Web Services")] == [
        "The AWS bill doubled"
    ]
    assert any(e.kind == "maint_fix" for e in mem_store.events(limit=5))
    mem_store.maint_undo(merge.fix_id)
    assert mem_store.entity("AWS").name == "AWS"
    assert [m.content for m in mem_store.memories(entity="AWS")] == ["The AWS bill doubled"]
    with pytest.raises(InvalidInputError):
        mem_store.maint_fix(kinds=["everything"])
    with pytest.raises(NotFoundError):
        mem_store.maint_undo("fix_nothing")


def test_a_short_name_is_the_longer_one_only_for_the_same_kind_of_thing(
    mem_store: MemoryStore,
) -> None:
    mem_store.upsert_entities(
        [
            {"name": "Harbor", "category": "project"},
            {"name": "Harbor Dental", "category": "organization"},
            {"name": "Hartwell Mill", "category": "organization"},
            {"name": "Hartwell"},
        ],
        [],
    )
    pairs = {
        frozenset(f.entities) for f in mem_store.maint_scan().findings if f.kind == "duplicate"
    }
    ids = {name: mem_store.entity(name).id for name in ("Harbor", "Harbor Dental", "Hartwell")}
    assert frozenset({ids["Harbor"], ids["Harbor Dental"]}) not in pairs
    assert frozenset({ids["Hartwell"], mem_store.entity("Hartwell Mill").id}) in pairs


def test_a_short_names_node_is_not_taken_by_another_kind_of_thing(mem_store: MemoryStore) -> None:
    mem_store.upsert_entities([{"name": "Harbor", "category": "project"}], [])
    mem_store.save("Dentist is Dr. Luis Ortiz at Harbor Dental, cleaning booked for the 9th")
    assert mem_store.entity("Harbor").name == "Harbor"  # the project keeps its node
    assert mem_store.entity("Harbor Dental").category == "organization"
    mem_store.save("Our flour comes from Hartwell Mill, 20 sacks every fortnight")
    mem_store.save("Hartwell delivery came a day late, we ran out of strong white")
    assert len(mem_store.memories(entity="Hartwell Mill")) == 2  # one supplier
    assert mem_store.entity("Hartwell Mill").category == "organization"


@pytest.mark.anyio
async def test_rest_routes(graph_store: MemoryStore) -> None:
    async with rest(create_app(graph_store)) as client:
        graph = await client.get(
            "/v1/graph", params={"entity": "Alice", "category": ["project"], "memories": False}
        )
        assert graph.status_code == 200, graph.text
        assert {n["label"] for n in graph.json()["nodes"]} == {"Alice", "Atlas"}
        path = await client.get(
            "/v1/graph/path", params={"from_entity": "Bob", "to_entity": "Atlas"}
        )
        assert [n["label"] for n in path.json()["nodes"]] == ["Bob", "Alice", "Atlas"]
        scan = await client.get("/v1/maint/scan")
        assert scan.status_code == 200 and "findings" in scan.json()
        fix = await client.post("/v1/maint/fix", json={"dry_run": True})
        assert fix.json()["dry_run"] is True
        missing = await client.post("/v1/maint/undo/fix_none")
        assert missing.status_code == 404


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def test_cli_graph_path_and_maint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMEX_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MNEMEX_EMBED_MODEL", "none")
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    body = tmp_path / "graph.json"
    body.write_text(json.dumps({"entities": ENTITIES, "relationships": RELATIONS}))
    assert runner.invoke(cli, ["--db", db, "upsert-entities", str(body)]).exit_code == 0
    out = runner.invoke(cli, ["--db", db, "graph", "Alice", "--relation", "uses", "--depth", "2"])
    assert out.exit_code == 0, out.output
    shown = runner.invoke(cli, ["--db", db, "path", "Bob", "PostgreSQL", "--json"])
    assert [n["label"] for n in json.loads(shown.output)["nodes"]][-1] == "PostgreSQL"
    scan = runner.invoke(cli, ["--db", db, "maint", "scan"])
    assert scan.exit_code == 0, scan.output
    fix = runner.invoke(cli, ["--db", db, "maint", "fix", "--json"])
    assert json.loads(fix.output)["dry_run"] is True


def test_a_nickname_a_memory_gives_folds_its_node_undoably(mem_store: MemoryStore) -> None:
    """ "Dima" had a node of its own until a memory says who Dima is: the merge is a
    `maint_fix` event like any other, and `maint undo` puts the node back."""
    mem_store.save("Dima wants a written plan for the cutover by Friday")
    assert mem_store.entity("Dima").name == "Dima"
    saved = mem_store.save("Dmitri Volkov is our Android lead. Everyone calls him Dima.")
    assert saved.enrichment["merged_entities"] == ["Dima"]
    assert mem_store.entity("Dima").name == "Dmitri Volkov"
    assert len(mem_store.memories(entity="Dmitri Volkov")) == 2
    fix = next(e for e in mem_store.events(limit=10) if e.kind == "maint_fix")
    assert fix.payload["names"] == ["Dmitri Volkov", "Dima"]
    mem_store.maint_undo(fix.subject_id)
    assert mem_store.entity("Dima").name == "Dima"
    assert len(mem_store.memories(entity="Dima")) == 1


def test_a_first_name_ner_alone_took_for_a_firm_is_the_full_names_node(
    mem_store: MemoryStore,
) -> None:
    mem_store.save("Kasia can babysit Saturday 6-11, she charges $22/hr now")
    assert mem_store.entity("Kasia").category == "organization"  # the small model's label
    mem_store.save("Kasia Nowak is free most Wednesdays")
    assert mem_store.entity("Kasia").name == "Kasia Nowak"
    assert mem_store.entity("Kasia Nowak").category == "person"
    # nor one a message said is someone in particular
    mem_store.save("Grace, our paralegal, is off sick today, so I'm covering her files myself.")
    assert mem_store.entity("Grace").category == "organization"
    mem_store.save("First meeting with Grace Mwangi on Thursday, she's a new client")
    assert mem_store.entity("Grace").name == "Grace"
    # a place the sentence itself says is one keeps its node
    mem_store.save("We moved to Sofia last spring, the flat is near the centre")
    mem_store.save("Sofia Harrington is my niece")
    assert mem_store.entity("Sofia").name == "Sofia"
    assert mem_store.entity("Sofia").category == "place"


def test_a_fact_whose_value_is_an_entity_is_an_edge_with_the_fact_s_validity(
    store: MemoryStore, clock: Any
) -> None:
    """The ledger's facts between two entities are edges (never a value such as "vegan"): the
    current one now, the superseded one as it stood, from either end and in the whole graph."""
    first = store.save("Dana's manager is Omar Haddad", subject="Dana Cruz", relation="manager",
                       value="Omar Haddad", entities=["Dana Cruz", "Omar Haddad"])  # fmt: skip
    clock.advance(days=30)
    second = store.save("Dana's manager is now Lin Wu", subject="Dana Cruz", relation="manager",
                        value="Lin Wu", entities=["Dana Cruz", "Lin Wu"])  # fmt: skip
    store.save("Dana is vegan", subject="Dana Cruz", relation="diet", value="vegan")
    now = store.graph("Dana Cruz", depth=1, memories=False)
    assert {n.label for n in now.nodes} == {"Dana Cruz", "Lin Wu"}
    assert [(e.type, e.source_memory, e.expired_at) for e in now.edges] == [
        ("manager", second.id, None)
    ]
    with_memories = store.graph("Lin Wu", depth=1)  # from the value's end
    assert ("manager", second.id) in {(e.type, e.source_memory) for e in with_memories.edges}
    then = store.graph("Dana Cruz", depth=1, as_of=clock.now - timedelta(days=10))
    assert [(e.type, e.source_memory, e.expired_at) for e in then.edges] == [
        ("manager", first.id, None)
    ]
    whole = {(e.meta.get("value"), e.expired_at is None) for e in store.graph().edges}
    assert {("Omar Haddad", False), ("Lin Wu", True)} <= whole
    assert "vegan" not in {e.meta.get("value") for e in store.graph().edges}
    assert [e.type for e in store.path("Lin Wu", "Dana Cruz").edges] == ["manager"]
    assert store.path("Omar Haddad", "Lin Wu").edges == []  # no longer joined


def test_the_first_person_s_node_is_a_person_unless_the_user_says_otherwise(
    store: MemoryStore,
) -> None:
    """The ledger's subject of "I ..." / "my ..." statements is a node of the graph; its
    category is person, set once, never over a category the user gave it."""
    store.save("My manager is Raj Patel.")
    assert store.entity("user").category == "person"
    store.upsert_entities([{"name": "user", "category": "other"}])
    store.save("My dentist is Dr Amira Haddad.")
    assert store.entity("user").category == "other"
