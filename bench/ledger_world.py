"""The worlds `mnemex eval ledger` saves and questions: the peer protocol and the held-out set.

`build` follows the published protocol (bench/data/ledger_protocol.json) in one of two wording
sets; `build_heldout` builds the third, held-out set (bench/data/ledger_heldout.json): a single
user and other people, keys beyond the protocol's six, and values that belong to one subject only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bench import wordings
from bench.corpus import sentences
from mnemex.ledger.extract import USER

data = wordings.load("ledger_protocol")  # the peer protocol
heldout = wordings.load("ledger_heldout")
START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
FILLER_NOTES = 150  # unrelated notes, so a question never has the store to itself


@dataclass(slots=True)
class Statement:
    """One thing said, when, and the key it states (None for filler)."""

    content: str
    when: datetime
    key: tuple[str, str, str] | None = None  # (subject, relation, value)


@dataclass(slots=True)
class Question:
    """A question, what a right answer names, and the values that would be stale."""

    kind: str  # "current" | "static" | "two_hop"
    text: str
    person: str
    answer: str
    stale: list[str] = field(default_factory=list)


@dataclass(slots=True)
class World:
    """Everything a run saves and asks."""

    statements: list[Statement]
    questions: list[Question]


def _their(rng: random.Random) -> str:
    return rng.choice(("their", "her", "his"))


@dataclass(frozen=True, slots=True)
class Wordings:
    """The statement templates a world is told in."""

    first: tuple[str, ...]
    changes: tuple[str, ...]
    by_relation: dict[str, tuple[str, ...]]


BENCHMARK = Wordings(data.FIRST, data.CHANGES, data.CHANGES_BY_RELATION)
UNSEEN = Wordings(data.UNSEEN_FIRST, data.UNSEEN_CHANGES, data.UNSEEN_BY_RELATION)


def _key_history(
    rng: random.Random,
    person: str,
    relation: str,
    world: World,
    start: datetime,
    wordings: Wordings,
) -> None:
    names, values = data.RELATIONS[relation]
    history = rng.sample(values, rng.randint(2, 4) + 1)  # 2-4 changes: 3-5 distinct values
    when = start
    for index, value in enumerate(history):
        if index == 0:
            template = rng.choice(wordings.first)
        else:
            when += timedelta(days=rng.randint(20, 120))
            template = rng.choice(wordings.changes + wordings.by_relation.get(relation, ()))
        text = template.format(
            p=person, r=rng.choice(names), v=value, o=history[max(index - 1, 0)], their=_their(rng)
        )
        world.statements.append(Statement(text, when, (person, relation, value)))
    question = rng.choice(data.QUESTIONS[relation]).format(p=person)
    world.questions.append(Question("current", question, person, history[-1], history[:-1]))


def build(seed: int, keys: int, wordings: Wordings = BENCHMARK) -> World:
    """The statements and questions of one seed."""
    rng = random.Random(seed)
    world = World([], [])
    pairs = [(p, r) for p in data.PEOPLE for r in data.RELATIONS]
    for person, relation in rng.sample(pairs, min(keys, len(pairs))):
        start = START + timedelta(days=rng.randint(0, 60))
        _key_history(rng, person, relation, world, start, wordings)
    facts = [(x, a) for x in data.PROJECTS for a in data.STATIC]
    for project, attribute in rng.sample(facts, 40):
        statement, question, values = data.STATIC[attribute]
        value = rng.choice(values)
        when = START + timedelta(days=rng.randint(0, 400))
        key = (f"Project {project}", attribute, value)
        world.statements.append(Statement(statement.format(x=project, v=value), when, key))
        world.questions.append(Question("static", question.format(x=project), project, value))
    services = rng.sample(data.SERVICES, 20)
    hosts = rng.sample(data.HOSTS, 10)
    for index in range(10):
        a, b, c = services[2 * index], services[2 * index + 1], hosts[index]
        when = START + timedelta(days=rng.randint(0, 400))
        world.statements.append(
            Statement(
                data.CHAIN_DEPENDS.format(a=a, b=b), when, (f"svc-{a}", "depends on", f"svc-{b}")
            )
        )
        world.statements.append(
            Statement(
                data.CHAIN_RUNS.format(b=b, c=c),
                when + timedelta(days=1),
                (f"svc-{b}", "runs on", f"host-{c}"),
            )
        )
        world.questions.append(
            Question("two_hop", data.CHAIN_QUESTION.format(a=a), f"svc-{a}", f"host-{c}")
        )
    for index, text in enumerate(sentences(FILLER_NOTES, seed=seed)):
        when = START + timedelta(days=index * 400 / FILLER_NOTES)
        world.statements.append(Statement(text, when))
    world.statements.sort(key=lambda s: s.when)
    return world


HELDOUT_PEOPLE = 10  # people besides the user in one held-out world
HELDOUT_USER_KEYS = 9
HELDOUT_PERSON_KEYS = 4
HELDOUT_STATIC = 6  # people (and the user) asked where they grew up
HELDOUT_CHAINS = 5


def _phone(rng: random.Random) -> str:
    """A phone number in one of a few national formats."""
    return rng.choice(
        (
            f"+44 7700 900{rng.randint(100, 999)}",
            f"(415) 555-{rng.randint(1000, 9999)}",
            f"+351 912 {rng.randint(100, 999)} {rng.randint(100, 999)}",
        )
    )


class _Values:
    """Values handed out so that no value belongs to two subjects of one world."""

    def __init__(self, rng: random.Random, wording: Any) -> None:
        self.rng = rng
        self.left = {name: list(pool) for name, (_, pool) in wording.RELATIONS.items()}

    def enough(self, relation: str, count: int) -> bool:
        return relation == "phone number" or len(self.left[relation]) >= count

    def take(self, relation: str, count: int) -> list[str]:
        if relation == "phone number":
            return [_phone(self.rng) for _ in range(count)]
        chosen = self.rng.sample(self.left[relation], count)
        self.left[relation] = [v for v in self.left[relation] if v not in chosen]
        return chosen


def _heldout_templates(h: Any, relation: str, first: bool, me: bool) -> tuple[str, ...]:
    """The wordings a statement of `relation` may take: generic, for tools, for this key."""
    sets: dict[tuple[bool, bool], tuple[tuple[str, ...], tuple[str, ...], dict[str, Any]]] = {
        (True, True): (h.ME_FIRST, h.ME_FIRST_TOOL, h.ME_FIRST_BY_RELATION),
        (True, False): (h.FIRST, h.FIRST_TOOL, h.FIRST_BY_RELATION),
        (False, True): (h.ME_CHANGES, h.ME_CHANGES_TOOL, h.ME_CHANGES_BY_RELATION),
        (False, False): (h.CHANGES, h.CHANGES_TOOL, h.CHANGES_BY_RELATION),
    }
    generic, tool, specific = sets[(first, me)]
    return generic + (tool if relation in h.TOOLS else ()) + tuple(specific.get(relation, ()))


def _heldout_key(
    rng: random.Random,
    wording: Any,
    world: World,
    person: str,
    relation: str,
    history: list[str],
) -> None:
    me = person == USER
    when = START + timedelta(days=rng.randint(0, 60))
    names = wording.RELATIONS[relation][0]
    for index, value in enumerate(history):
        if index:
            when += timedelta(days=rng.randint(20, 120))
        template = rng.choice(_heldout_templates(wording, relation, index == 0, me))
        text = template.format(
            p=person, r=rng.choice(names), v=value, o=history[max(index - 1, 0)], their=_their(rng)
        )
        world.statements.append(Statement(text, when, (person, relation, value)))
    asked = wording.ME_QUESTIONS if me else wording.QUESTIONS
    question = rng.choice(asked[relation]).format(p=person)
    world.questions.append(Question("current", question, person, history[-1], history[:-1]))


def build_heldout(seed: int, wording: Any = heldout) -> World:
    """A world told in a wording set of its own (bench/data/ledger_heldout.json by default):
    the user and other people, each value held by one of them."""
    h = wording
    rng = random.Random(seed)
    world = World([], [])
    values = _Values(rng, h)
    people = rng.sample(h.PEOPLE, HELDOUT_PEOPLE)
    for person in [USER, *people]:
        want = HELDOUT_USER_KEYS if person == USER else HELDOUT_PERSON_KEYS
        order = rng.sample(list(h.RELATIONS), len(h.RELATIONS))
        for relation in [r for r in order if values.enough(r, 4)][:want]:
            history = values.take(relation, rng.randint(2, 4))  # 1-3 changes
            _heldout_key(rng, h, world, person, relation, history)
    static = getattr(h, "STATIC_RELATION", "home town")
    towns = rng.sample(h.HOME_TOWNS, HELDOUT_STATIC + 1)
    for person, town in zip([USER, *people[:HELDOUT_STATIC]], towns, strict=True):
        me = person == USER
        text = (h.ME_STATIC if me else h.STATIC).format(p=person, v=town)
        when = START + timedelta(days=rng.randint(0, 400))
        world.statements.append(Statement(text, when, (person, static, town)))
        question = h.ME_STATIC_QUESTION if me else h.STATIC_QUESTION
        world.questions.append(Question("static", question.format(p=person), person, town))
    services = rng.sample(h.SERVICES, 2 * HELDOUT_CHAINS)
    hosts = rng.sample(h.HOSTS, HELDOUT_CHAINS)
    for index in range(HELDOUT_CHAINS):
        a, b, c = services[2 * index], services[2 * index + 1], hosts[index]
        when = START + timedelta(days=rng.randint(0, 400))
        depends = h.CHAIN_DEPENDS.format(a=a, b=b)
        world.statements.append(Statement(depends, when, (a, "depends on", b)))
        hosted = h.CHAIN_HOSTED.format(b=b, c=c)
        world.statements.append(Statement(hosted, when + timedelta(days=1), (b, "runs on", c)))
        world.questions.append(Question("two_hop", h.CHAIN_QUESTION.format(a=a), a, c))
    for index, text in enumerate(sentences(FILLER_NOTES, seed=seed)):
        world.statements.append(Statement(text, START + timedelta(days=index * 400 / FILLER_NOTES)))
    world.statements.sort(key=lambda s: s.when)
    return world
