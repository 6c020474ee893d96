"""The world of `mnemex eval ledger`: people, keys, values, statement and question templates.

Protocol of Context-Intelligence v2: 20 people x 6 relations x 7 values, 90 sampled keys each
changing 2-4 times 20-120 days apart, 40 static project facts, 10 two-hop chains. The statement
templates below were written for the benchmark, apart from the wordings the extractor was built
on (tests/test_ledger_extract.py), and the questions apart from the statements.
"""

from __future__ import annotations

PEOPLE = """
    Amara Bruno Chiara Deniz Emeka Freya Gustavo Hana Ivan Jonas Kavya Lucia Mikkel Noor Oscar
    Paloma Quentin Rania Soren Tomasz
""".split()

# relation -> (ways people name it, seven values)
RELATIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "editor": (
        ("editor", "code editor"),
        ("Vim", "Neovim", "Emacs", "VS Code", "Helix", "Zed", "Sublime Text"),
    ),
    "primary database": (
        ("primary database", "main database"),
        ("PostgreSQL", "MySQL", "SQLite", "MongoDB", "CockroachDB", "MariaDB", "DynamoDB"),
    ),
    "operating system": (
        ("operating system", "OS"),
        ("Ubuntu", "Fedora", "macOS", "Windows", "Arch Linux", "Debian", "NixOS"),
    ),
    "city": (
        ("city", "home city"),
        ("Lisbon", "Berlin", "Toronto", "Osaka", "Nairobi", "Austin", "Melbourne"),
    ),
    "main language": (
        ("main language", "main programming language"),
        ("Python", "Rust", "Go", "TypeScript", "Kotlin", "Elixir", "Java"),
    ),
    "deploy tool": (
        ("deploy tool", "deployment tool"),
        ("Terraform", "Ansible", "Argo CD", "Helm", "Pulumi", "Kamal", "Spinnaker"),
    ),
}

# A first statement of a key, then changes. {p} person, {r} a name of the relation, {v} the
# value, {o} the value it replaces, {their} a possessive.
FIRST = (
    "{p} told me {their} {r} is {v}.",
    "For the record, {p} works with {v} as {their} {r}.",
    "{p} mentioned that {their} {r} is {v}.",
    "{p}'s {r} is {v}, as far as I know.",
)
CHANGES = (
    "{p} has moved on to {v}.",
    "{p} is now using {v} instead of {o}.",
    "{p} decided to go with {v} for {their} {r}.",
    "Heads up: {p}'s {r} changed from {o} to {v}.",
    "{p} dropped {o} and switched to {v}.",
    "{p} replaced {o} with {v}.",
    "{v} is {p}'s {r} now.",
    "{p} set {their} {r} to {v}.",
)
# Relation-specific ways of saying the same change, used for some changes of these keys.
CHANGES_BY_RELATION: dict[str, tuple[str, ...]] = {
    "city": ("{p} relocated to {v}.", "{p} lives in {v} these days."),
    "main language": ("{p} writes most of {their} code in {v} now.",),
    "operating system": ("{p} runs {v} on {their} laptop now.",),
}

# Unseen wordings: written after the extractor stopped changing and never used to change it, so
# the "unseen wordings" row measures extraction on statements it was not built on.
UNSEEN_FIRST = (
    "Quick note: {p} uses {v} as {their} {r}.",
    "{p}'s {r}? {v}.",
    "I learned that {p} has {v} as {their} {r}.",
    "{p} said {their} {r} has been {v} for years.",
)
UNSEEN_CHANGES = (
    "{p} finally made the switch to {v}.",
    "{p} has been on {v} since last month.",
    "{p} no longer uses {o}; {their} {r} is {v} now.",
    "These days {p} prefers {v} over {o}.",
    "{p} migrated from {o} to {v} last week.",
    "Looks like {p} swapped {o} for {v}.",
    "{p}'s new {r} is {v}.",
    "{p} is all in on {v} now.",
)
UNSEEN_BY_RELATION: dict[str, tuple[str, ...]] = {
    "city": ("{p} packed up and moved to {v}.", "{p} now calls {v} home."),
    "main language": ("{p} has been writing {v} full-time.",),
    "operating system": ("{p} reinstalled {their} machine with {v}.",),
    "deploy tool": ("{p} ships everything with {v} now.",),
    "editor": ("{p} does all {their} editing in {v} these days.",),
    "primary database": ("{p} moved {their} data over to {v}.",),
}

QUESTIONS: dict[str, tuple[str, ...]] = {
    "editor": ("Which editor does {p} use?", "What does {p} edit code with?"),
    "primary database": ("What is {p}'s primary database?", "Which database does {p} rely on?"),
    "operating system": ("Which operating system is {p} on?", "What OS does {p} run?"),
    "city": ("Where does {p} live?", "Which city is {p} based in?"),
    "main language": ("What is {p}'s main language?", "Which language does {p} mostly code in?"),
    "deploy tool": ("What does {p} deploy with?", "Which deploy tool does {p} use?"),
}

PROJECTS = "Atlas Borealis Cobalt Delta Ember Fjord Garnet Harbor Iris Juniper".split()
# attribute -> (statement, question, values)
STATIC: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "license": (
        "Project {x} is released under the {v} license.",
        "Which license does project {x} use?",
        ("MIT", "Apache-2.0", "GPL-3.0", "BSD-3-Clause", "MPL-2.0"),
    ),
    "ci": (
        "Project {x} runs its CI on {v}.",
        "Where does project {x} run CI?",
        ("GitHub Actions", "GitLab CI", "Jenkins", "CircleCI", "Buildkite"),
    ),
    "queue": (
        "Project {x} sends its events through {v}.",
        "What message queue does project {x} use for events?",
        ("Kafka", "RabbitMQ", "NATS", "Pulsar", "SQS"),
    ),
    "docs": (
        "The docs of project {x} are hosted on {v}.",
        "Where are the docs of project {x} hosted?",
        ("Read the Docs", "Netlify", "GitHub Pages", "Vercel", "Confluence"),
    ),
}

SERVICES = """
    orders billing ledger search auth mailer gateway reports uploads pricing catalog payments
    inventory profile notify audit metrics scheduler export import
""".split()
HOSTS = "amber birch cedar dune elm fern gale hazel iron jade kelp lark".split()
CHAIN_DEPENDS = "svc-{a} depends on svc-{b}."
CHAIN_RUNS = "svc-{b} runs on host-{c}."
CHAIN_QUESTION = "What machine is svc-{a} ultimately running on?"
