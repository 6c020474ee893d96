"""The third, held-out wording set of `mnemex eval ledger`: other people, other keys, new values.

Written before the second ledger pass changed the extractor, value typing or question matching,
and never used to tune them (the README reports its first run). It differs from the protocol
sets on purpose:

- a single user ("I", "my") with keys of their own, besides other people;
- keys beyond the protocol's six: employer, manager, team, phone number, favourite food, browser,
  cloud provider, and a static home town;
- every value belongs to one subject only, so no other subject's facts say which key a value is:
  what a verb statement changes must come from the value itself and the subject's own keys;
- statement and question wordings of its own (verb-only changes, corrections, "from X to Y",
  "instead of", arrows), and two-hop chains worded apart from the protocol's.
"""

from __future__ import annotations


def _pool(block: str) -> tuple[str, ...]:
    """Values written one after another, separated by "|"."""
    return tuple(v.strip() for v in block.replace("\n", "").split("|") if v.strip())


PEOPLE = """
    Wanjiru Yusuf Ingrid Matteo Sakura Olek Thandiwe Rafael Aino Kwame Leilani Dmitra Esperanza
    Bartosz
""".split()

# relation -> (ways people name it, values). Value pools are large enough that no value is
# given to two subjects in one world.
RELATIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "editor": (
        ("editor", "text editor", "IDE"),
        _pool(
            """
            Vim|Neovim|Emacs|VS Code|Helix|Zed|Sublime Text|Kakoune|IntelliJ IDEA|PyCharm|Nano|
            Cursor|Eclipse|Xcode|Notepad++|Lapce|Micro|BBEdit
            """
        ),
    ),
    "employer": (
        ("employer", "company", "workplace"),
        _pool(
            """
            Globex|Initech|Shopify|Datadog|Spotify|Klarna|Zalando|Canva|Atlassian|GitLab|
            Mozilla|Deliveroo|Monzo|Cloudflare|Twilio|Grafana Labs|Hooli|Umbrella Corp
            """
        ),
    ),
    "city": (
        ("city", "home city"),
        _pool(
            """
            Porto|Montreal|Kyoto|Valencia|Accra|Denver|Adelaide|Krakow|Tallinn|Seoul|Bogota|
            Edinburgh|Bilbao|Hanoi|Cape Town|Vancouver|Utrecht|Lyon
            """
        ),
    ),
    "manager": (
        ("manager", "boss", "line manager"),
        _pool(
            """
            Priscila Duarte|Henrik Lund|Aisha Bello|Tomoko Arai|Marcus Webb|Fatima Zahra|
            Liam Doherty|Mei Lin|Jorge Castillo|Annika Berg|Samuel Osei|Chloe Martin|Raj Patel|
            Elif Kaya|Nikolai Petrov|Grace Otieno|Pablo Ruiz|Hannah Weiss
            """
        ),
    ),
    "team": (
        ("team", "squad"),
        _pool(
            """
            Payments|Platform|Search|Growth|Infrastructure|Data|Mobile|Security|Billing|
            Checkout|Identity|Design Systems|Ads|Risk|Onboarding|Observability|Core API|
            Developer Experience
            """
        ),
    ),
    "phone number": (("phone number", "number", "mobile number"), ()),  # generated per world
    "favourite food": (
        ("favourite food", "favorite dish", "comfort food"),
        _pool(
            """
            ramen|tacos|pho|sushi|dumplings|paella|falafel|biryani|lasagna|pad thai|ceviche|
            pierogi|jollof rice|shakshuka|khachapuri|bibimbap|moussaka|pupusas
            """
        ),
    ),
    "browser": (
        ("browser", "web browser"),
        _pool(
            """
            Firefox|Chrome|Safari|Brave|Vivaldi|Arc|Microsoft Edge|Opera|LibreWolf|Chromium|
            Tor Browser|Zen Browser|Waterfox|Floorp
            """
        ),
    ),
    "cloud provider": (
        ("cloud provider", "cloud", "hosting provider"),
        _pool(
            """
            AWS|Google Cloud|Azure|DigitalOcean|Hetzner|Linode|Fly.io|Render|Heroku|OVHcloud|
            Scaleway|Oracle Cloud|Vultr|Railway
            """
        ),
    ),
    "operating system": (
        ("operating system", "OS", "distro"),
        _pool(
            """
            Ubuntu|Fedora|macOS|Windows 11|Arch Linux|Debian|NixOS|Pop!_OS|Linux Mint|openSUSE|
            elementary OS|Manjaro|FreeBSD|Gentoo|EndeavourOS|Zorin OS
            """
        ),
    ),
    "database": (
        ("database", "main db", "datastore"),
        _pool(
            """
            PostgreSQL|MySQL|SQLite|MongoDB|Redis|Cassandra|Neo4j|SurrealDB|ClickHouse|DuckDB|
            CockroachDB|MariaDB|Firestore|TiDB|ScyllaDB|Couchbase|SQL Server
            """
        ),
    ),
    "programming language": (
        ("programming language", "main language", "language of choice"),
        _pool(
            """
            Python|Rust|Go|TypeScript|Kotlin|Elixir|Java|Scala|Swift|C#|Ruby|Haskell|OCaml|Zig|
            Clojure|Julia|Dart|Gleam
            """
        ),
    ),
}
# Keys people switch tools for: verb-only wordings ("switched to Z") are used for these.
TOOLS = frozenset(
    {"editor", "browser", "cloud provider", "operating system", "database", "programming language"}
)
HOME_TOWNS = _pool(
    "Cork|Bergen|Mombasa|Recife|Gdansk|Hobart|Sapporo|Graz|Tartu|Arequipa|Kumasi|Da Nang|Leeds|"
    "Rosario"
)

# {p} a person, {r} a name of the relation, {v} the value, {o} the value it replaces,
# {their} a possessive. Third-person wordings first, then the user's (first person).
FIRST = (
    "{p}'s {r} is {v}.",
    "From what I hear, {p}'s {r} is {v}.",
    "{p} said {their} {r} is {v}.",
)
FIRST_BY_RELATION: dict[str, tuple[str, ...]] = {
    "employer": ("{p} works at {v}.", "{p} is an engineer at {v}."),
    "city": ("{p} lives in {v}.", "{p} is based in {v}."),
    "manager": ("{p} reports to {v}.",),
    "team": ("{p} is on the {v} team.",),
    "phone number": ("You can reach {p} on {v}.",),
    "favourite food": ("{p} loves {v} more than anything.",),
}
FIRST_TOOL = ("{p} uses {v}.", "{p} works in {v} every day.")
CHANGES = (
    "{p}'s {r} is now {v}.",
    "Correction: {p}'s {r} is {v}, not {o}.",
    "{p}'s {r} went from {o} to {v}.",
    "{p}: {o} -> {v} ({r}).",
)
CHANGES_TOOL = (
    "{p} switched to {v}.",
    "Actually {p} switched to {v} last month.",
    "{p} moved to {v} in the spring.",
    "{p} now uses {v}.",
    "{p} started using {v}.",
    "{p} went with {v} in the end.",
    "{p} is not on {o} anymore, {v} now.",
    "{p} is using {v} instead of {o}.",
    "{p} went from {o} to {v}.",
)
CHANGES_BY_RELATION: dict[str, tuple[str, ...]] = {
    "employer": (
        "{p} moved to {v}.",
        "{p} joined {v}.",
        "{p} left {o} and joined {v}.",
        "{p} started a new job at {v}.",
        "{p} works at {v} now.",
    ),
    "city": (
        "{p} moved to {v}.",
        "{p} relocated to {v} in March.",
        "{p} lives in {v} now.",
    ),
    "manager": (
        "{p} reports to {v} now.",
        "{v} is {p}'s new manager.",
        "{p} has a new boss: {v}.",
    ),
    "team": (
        "{p} moved to the {v} team.",
        "{p} joined the {v} team.",
        "{p} is on the {v} team now.",
    ),
    "phone number": (
        "{p}'s new number is {v}.",
        "{p} changed {their} number to {v}.",
    ),
    "favourite food": (
        "These days {p}'s favourite food is {v}.",
        "{p} is into {v} now, not {o} anymore.",
    ),
}
STATIC = "{p} grew up in {v}."

ME_FIRST = ("My {r} is {v}.", "For the record, my {r} is {v}.")
ME_FIRST_BY_RELATION: dict[str, tuple[str, ...]] = {
    "employer": ("I work at {v}.",),
    "city": ("I live in {v}.",),
    "manager": ("I report to {v}.",),
    "team": ("I'm on the {v} team.",),
    "phone number": ("My number is {v}.",),
    "favourite food": ("I love {v}.",),
}
ME_FIRST_TOOL = ("I use {v}.", "I do everything in {v}.")
ME_CHANGES = (
    "My {r} is {v} now.",
    "My {r} changed from {o} to {v}.",
    "Update: my {r} is {v}, not {o}.",
)
ME_CHANGES_TOOL = (
    "Actually I switched to {v} last month.",
    "I switched to {v}.",
    "I moved to {v}.",
    "I now use {v}.",
    "I've started using {v}.",
    "I went with {v} in the end.",
    "Not {o} anymore, {v} now.",
    "I'm using {v} instead of {o}.",
    "Switched from {o} to {v}.",
    "{o} -> {v}.",
)
ME_CHANGES_BY_RELATION: dict[str, tuple[str, ...]] = {
    "employer": (
        "I moved to {v}.",
        "I joined {v} last week.",
        "I left {o} for {v}.",
        "I started a new job at {v}.",
    ),
    "city": ("I moved to {v}.", "We relocated to {v}.", "I live in {v} now."),
    "manager": ("I report to {v} now.", "{v} is my new manager.", "My new boss is {v}."),
    "team": ("I moved to the {v} team.", "I joined the {v} team.", "I'm on the {v} team now."),
    "phone number": ("Got a new number: {v}.", "My new phone number is {v}."),
    "favourite food": ("These days my favourite food is {v}.", "I'm really into {v} now."),
}
ME_STATIC = "I grew up in {v}."

QUESTIONS: dict[str, tuple[str, ...]] = {
    "editor": ("What editor does {p} code in?", "Which text editor is {p} using?"),
    "employer": ("Where does {p} work?", "Which company is {p} at?"),
    "city": ("Where does {p} live these days?", "What city is {p} in?"),
    "manager": ("Who is {p}'s manager?", "Who does {p} report to?"),
    "team": ("Which team is {p} on?", "What team does {p} work in?"),
    "phone number": ("What is {p}'s phone number?", "How do I call {p}?"),
    "favourite food": ("What is {p}'s favourite food?", "What does {p} like to eat most?"),
    "browser": ("Which browser does {p} use?", "What does {p} browse the web with?"),
    "cloud provider": ("Which cloud is {p} on?", "Where does {p} host things?"),
    "operating system": ("What OS does {p} run?", "Which operating system is {p} using?"),
    "database": ("Which database does {p} use?", "What does {p} store data in?"),
    "programming language": ("What language does {p} write?", "What does {p} mostly code in?"),
}
ME_QUESTIONS: dict[str, tuple[str, ...]] = {
    "editor": ("what editor do I use", "Which editor am I on?"),
    "employer": ("Where do I work?", "Which company do I work for?"),
    "city": ("Where do I live?", "What city am I in these days?"),
    "manager": ("Who is my manager?", "Who do I report to?"),
    "team": ("Which team am I on?", "what team do I work in"),
    "phone number": ("What's my phone number?", "Which number can people reach me on?"),
    "favourite food": ("What is my favourite food?", "What do I like to eat most?"),
    "browser": ("Which browser do I use?", "what do I browse with"),
    "cloud provider": ("Which cloud am I on?", "Where do I host my stuff?"),
    "operating system": ("What OS am I running?", "Which operating system do I use?"),
    "database": ("Which database do I use?", "What do I keep my data in?"),
    "programming language": ("What language do I code in?", "Which language do I write most?"),
}
STATIC_QUESTION = "Where did {p} grow up?"
ME_STATIC_QUESTION = "Where am I from originally?"

# Two-hop chains worded apart from the protocol: "{a} relies on {b}" + "{b} is hosted on {c}".
SERVICES = """
    cart-api pay-api user-api feed-api mail-worker image-worker quote-api stock-api tax-api
    ship-api promo-api auth-proxy
""".split()
HOSTS = "node-ash node-oak node-yew node-elm node-fir node-bay".split()
CHAIN_DEPENDS = "{a} relies on {b}."
CHAIN_HOSTED = "{b} is hosted on {c}."
CHAIN_QUESTION = "Which server does {a} end up running on?"
