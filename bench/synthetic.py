"""A deterministic synthetic corpus of agent memories, each with a question that looks for it.

Memories read like what an assistant keeps about its user: preferences, decisions, dates,
people, errors and their fixes, errands, travel. About sixty fact templates, each with a few
phrasings and its own question, are filled from word lists (people, places, projects, tools,
foods...) drawn with a Zipf law, so some names recur in thousands of memories and most in a
handful, as in real notes. Prefixes, asides and follow-up sentences vary the length from a few
words to a paragraph. Memory `i` depends only on (seed, i): a corpus of 10,000 is the first
10,000 memories of a corpus of 100,000, which lets benchmarks share cached embeddings.

Questions share one or two specific words with their memory (a name, a project) and paraphrase
the rest, as a person asking an agent would; several memories may answer the same question
equally well (a common name with a common topic), which is what a real store looks like too.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

VERSION = 1  # bump when the generated text changes: it keys cached embeddings

_FIRST = """
    Aaliyah Aarav Abdul Ada Adrian Aiko Alan Alba Alejandro Alice Amara Amir Ana Anders Andrea
    Anika Anton Arjun Astrid Aya Beatriz Ben Bilal Bruno Camila Carlos Carmen Chen Chiara Chloe
    Daniel Dara Dev Diego Dmitri Ebo Elena Eli Emeka Emma Erik Esther Fatima Felix Femi Finn
    Freya Gabriel Grace Hana Hannah Hassan Helga Hiro Ibrahim Ines Ingrid Isaac Ivan Jae Jamal
    James Javier Jin Joao Jonas Jorge Julia Kai Kalani Karim Kate Kenji Kiran Kofi Lars Leila
    Lena Leo Liam Lina Lucas Lucia Luis Maya Malik Marco Maria Marta Mateo Mei Mia Mina Mohammed
    Nadia Naomi Nia Nikhil Nina Noah Nora Olga Omar Oscar Pablo Paolo Pedro Priya Rafael Rania
    Ravi Rosa Rui Sade Sam Sara Sebastian Selin Sven Tariq Tomas Uma Valentina Vera Victor Wei
    Yara Yuki Yusuf Zara Zoe Zeynep
""".split()
_LAST = """
    Abe Adeyemi Ahmed Alvarez Andersen Bauer Becker Bianchi Brooks Castillo Chen Costa Cruz Das
    Diaz Dubois Eriksson Fischer Fontaine Garcia Gomez Gupta Haddad Hansen Hoffmann Horvat Ibrahim
    Ito Ivanova Jensen Kaur Khan Kim Kowalski Kruger Larsen Lee Lin Lopez Mahmoud Martin Mendes
    Meyer Moreau Murphy Nakamura Nguyen Novak Okafor Olsen Ortiz Park Patel Perez Petrov Popescu
    Quinn Ramos Rao Reyes Rossi Sato Schmidt Silva Singh Sokolov Suzuki Tanaka Torres Usman
    Varga Vogel Wagner Walsh Wang Weber Wong Yamamoto Yilmaz Zhang Zimmermann
""".split()
_CITIES = """
    Accra Amsterdam Athens Austin Bangalore Barcelona Berlin Bogota Boston Brisbane Brussels
    Budapest Cairo Calgary Chicago Copenhagen Dakar Denver Dublin Edinburgh Florence Geneva Hanoi
    Helsinki Istanbul Jakarta Kyoto Lagos Lima Lisbon Ljubljana London Lyon Madrid Manila Marseille
    Melbourne Milan Montreal Mumbai Munich Nairobi Naples Oaxaca Osaka Oslo Paris Porto Prague
    Quebec Reykjavik Riga Rome Santiago Seattle Seoul Seville Singapore Stockholm Sydney Taipei
    Tallinn Tbilisi Tokyo Toronto Valencia Vancouver Vienna Vilnius Warsaw Zagreb Zurich
""".split()
_ADJECTIVES = """
    amber arctic ashen autumn azure blazing bold brave bright brisk bronze calm cedar cobalt
    copper coral crimson crystal dusky electric emerald fierce frosty gentle gilded golden granite
    hidden hollow indigo iron ivory jade jolly lunar marble mellow misty nimble northern obsidian
    onyx opal pale polar proud quiet rapid royal ruby rustic sable scarlet silent silver solar
    steady stone stormy sunny swift tidal topaz velvet violet wild windy winter wooden
""".split()
_NOUNS = """
    albatross anchor antelope arrow aspen badger beacon bison bluefin bramble canyon cardinal
    cedar comet condor coyote crane cypress delta dolphin dune eagle ember falcon fern finch
    fjord fox galaxy gecko glacier harbor hawk heron horizon ibis jaguar kestrel lantern lark
    lynx magpie maple meadow mesa meteor mongoose moose nebula orca osprey otter owl panther
    pelican pepper pine plover prairie quartz raven reef ridge river robin sequoia sparrow
    spruce summit swallow thistle thunder tiger tundra walrus willow wolf wren yak zephyr
""".split()
_TOOLS = """
    Postgres MySQL SQLite Redis Kafka RabbitMQ Elasticsearch ClickHouse Snowflake BigQuery
    Terraform Ansible Kubernetes Docker Podman Nomad Helm ArgoCD Jenkins CircleCI Grafana
    Prometheus Datadog Sentry PagerDuty Neovim Emacs VSCode IntelliJ Zed Rust Go Python
    TypeScript Kotlin Swift Elixir Haskell Django FastAPI Flask Rails Spring React Svelte Vue
    Angular Tailwind Figma Notion Obsidian Jira Linear Slack Zoom Airflow Dagster Spark Pandas
    Polars DuckDB PyTorch Vite Webpack Bazel Gradle Nginx Caddy Envoy Vault Consul Tailscale
""".split()
_FOODS = """
    peanuts shellfish gluten dairy sesame soy eggs walnuts cashews mustard celery lupin
    strawberries kiwi avocado mushrooms cilantro garlic onions coconut
""".split()
_DISHES = """
    ramen pho tacos sushi paella risotto biryani falafel dumplings curry lasagna ceviche
    shakshuka pierogi goulash bibimbap moussaka empanadas laksa tagine pad-thai gnocchi
""".split()
_HOBBIES = """
    bouldering pottery chess sailing birdwatching woodworking knitting cycling salsa dancing
    running photography gardening baking surfing hiking calligraphy astronomy origami fencing
    kayaking beekeeping skiing tennis
""".split()
_TEAMS = """
    payments billing search platform infra mobile growth security data design support
    onboarding analytics identity checkout logistics research marketing finance legal
""".split()
_SERVICES = """
    gateway scheduler indexer notifier ledger exporter crawler renderer uploader mailer
    resolver tracker compactor planner router auditor
""".split()
_ERRORS = """
    timeout deadlock out-of-memory segfault 502 503 401 connection-reset disk-full
    certificate-expired race-condition null-pointer stack-overflow rate-limit
""".split()
_CAUSES = [
    cause.strip()
    for cause in """
    a stale DNS cache|an expired TLS certificate|a missing index on the orders table|
    a connection pool that was too small|a retry loop without backoff|a clock skew between hosts|
    a leaked file descriptor|an unbounded queue|a misconfigured load balancer|
    a dependency upgrade that changed defaults|a cron job running twice|a full temp directory
""".split("|")
]
_PETS = "dog cat parrot rabbit tortoise hamster ferret gecko".split()
_PET_NAMES = """
    Biscuit Pepper Mochi Luna Milo Ziggy Olive Pumpkin Noodle Waffles Maple Clover Pixel Rocket
    Juniper Bean Sushi Tofu Nacho Pickles
""".split()
_RELATIVES = "sister brother mother father daughter son cousin aunt uncle grandmother".split()
_WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
_MONTHS = """
    January February March April May June July August September October November December
""".split()
_BOOK_WORDS = """
    silence river memory glass city garden night atlas winter orchard machine lantern empire
    ocean salt paper thread signal harbor mirror
""".split()
_SHOPS = "pharmacy|bakery|hardware store|post office|dry cleaner|bike shop|florist".split("|")
_PREFIXES = ("", "", "", "", "", "Note: ", "Reminder: ", "FYI: ", "Heads up: ", "Update: ")
_ASIDES = (
    "",
    "",
    "",
    " (mentioned at standup)",
    " according to {p2}",
    " as of last week",
    " (from the {month} retro)",
    ", per the email thread",
    " - {p2} confirmed",
)
_FOLLOW_UPS = (
    "{p2} will follow up on {weekday}.",
    "This came up while planning the {project2} migration.",
    "Double-check with {p2} before the {month} review.",
    "It was a long discussion but everyone agreed in the end.",
    "Keep this in mind for the next quarterly plan.",
    "The notes are in the shared drive under {project2}.",
    "Not urgent, but it keeps coming up.",
    "{p2} disagreed at first and then came around.",
    "Worth revisiting after the {city} offsite.",
    "I should write this down properly somewhere.",
    "There is a ticket for it in the {team2} backlog.",
    "Ask {p2} if anything changed since then.",
)


@dataclass(frozen=True, slots=True)
class Template:
    """One kind of fact: ways to say it and a question that looks for it."""

    phrasings: tuple[str, ...]
    question: tuple[str, ...]


def _t(phrasings: str, question: str) -> Template:
    return Template(tuple(phrasings.split(" || ")), tuple(question.split(" || ")))


# Each fact: phrasings separated by " || ", then questions separated the same way.
_TEMPLATES = (
    _t(
        "{p} prefers {tool} over {tool2} for day-to-day work || "
        "{p} switched from {tool2} to {tool} and is not going back",
        "which tool does {p} like to use || what did {first} switch to",
    ),
    _t(
        "The {project} launch moved to {month} {day} because the vendor contract slipped || "
        "{project} will now launch on {month} {day}, two weeks later than planned",
        "when is the {project} launch || launch date for {project}",
    ),
    _t(
        "{p} is allergic to {food}, so no {food} when ordering for the {team} team || "
        "Careful with {food}: {first} has a serious allergy",
        "what is {first} allergic to || food allergy {p}",
    ),
    _t(
        "Flight to {city} on {weekday} at {hour}:{minute}, booking code {code} || "
        "Booked the {city} trip: leaves {weekday} {hour}:{minute}, confirmation {code}",
        "flight details for the {city} trip || when do I fly to {city}",
    ),
    _t(
        "{p}'s {relative} lives in {city} and visits every {month} || "
        "{first} is flying out to see their {relative} in {city} in {month}",
        "where does {first}'s {relative} live || who does {first} visit in {city}",
    ),
    _t(
        "To restart the {service} on {host}, drain the queue first, then restart the unit || "
        "Runbook: the {service} on {host} must be drained before any restart",
        "how do I restart the {service} || restarting {service} on {host}",
    ),
    _t(
        "Decided: the {project} API uses {tool} instead of {tool2}; {p} signed off on {weekday} || "
        "We picked {tool} over {tool2} for {project} after the benchmark {p} ran",
        "what did we choose for the {project} API || why {tool} for {project}",
    ),
    _t(
        "{p} recommended the book 'The {book1} of {book2}' - worth reading on the next trip || "
        "Reading list: 'The {book1} of {book2}', suggested by {first}",
        "what book did {first} recommend || book suggestion from {p}",
    ),
    _t(
        "The {project} budget for Q{quarter} is {amount}k euros, approved by {p} || "
        "{p} approved {amount}k for {project} this quarter",
        "how much is the {project} budget || who approved the {project} budget",
    ),
    _t(
        "The {error} errors in the {service} came from {cause}; fixing that resolved it || "
        "Root cause of the {service} {error} incident: {cause}",
        "what caused the {error} in the {service} || how was the {service} {error} fixed",
    ),
    _t(
        "{p} has a {pet} called {pet_name} who needs medication twice a day || "
        "{first}'s {pet} {pet_name} is staying with us while they travel",
        "what is the name of {first}'s {pet} || who is {pet_name}",
    ),
    _t(
        "{p} goes {hobby} every {weekday} evening and hates meetings after five || "
        "{first} took up {hobby} this year and is surprisingly good at it",
        "what does {first} do on {weekday} evenings || {first}'s hobby",
    ),
    _t(
        "The {team} team standup moved to {hour}:{minute} on {weekday}s || "
        "From now on the {team} sync is {weekday} at {hour}:{minute}",
        "when is the {team} standup || {team} team meeting time",
    ),
    _t(
        "{p}'s birthday is {month} {day}; they like {dish} and hate surprises || "
        "Birthday reminder: {p}, {month} {day} - book dinner at a {dish} place",
        "when is {first}'s birthday || birthday {p}",
    ),
    _t(
        "The Wi-Fi password at the {city} office is {code} || "
        "Guest network in {city}: password {code}, changes every {month}",
        "wifi password for the {city} office",
    ),
    _t(
        "{p} joined the {team} team as lead and reports to {p2} || "
        "New lead on {team}: {p}, reporting to {p2}",
        "who leads the {team} team || who does {first} report to",
    ),
    _t(
        "Our favourite {dish} place near the {city} office closes at {hour} on {weekday}s || "
        "Best {dish} in {city} is the small place by the station, cash only",
        "where to get {dish} in {city} || {dish} restaurant near the office",
    ),
    _t(
        "{p} is out from {month} {day} for two weeks; {p2} covers the {project} on-call || "
        "While {first} is on leave in {month}, {p2} owns {project} incidents",
        "who covers for {first} || who is on call for {project} in {month}",
    ),
    _t(
        "The {service} dashboard lives in {tool} under the {team} folder || "
        "Metrics for the {service} are on the {team} {tool} board",
        "where is the {service} dashboard || {service} metrics",
    ),
    _t(
        "Pick up the prescription at the {shop} on {weekday}, it is ready after {hour} || "
        "Errand: {shop} on {weekday}, ask for the order under {first}'s name",
        "what do I need from the {shop} || errands for {weekday}",
    ),
    _t(
        "Migration plan for {project}: move from {tool2} to {tool} by end of {month} || "
        "{project} leaves {tool2} for {tool}; cutover targeted for {month}",
        "what is the {project} migration plan || when does {project} move to {tool}",
    ),
    _t(
        "{p} wants the {project} demo to focus on latency, not features || "
        "Feedback from {first}: the {project} demo spent too long on features",
        "what did {first} say about the {project} demo",
    ),
    _t(
        "The lease on the {city} apartment ends {month} {day}; notice is due a month before || "
        "Apartment in {city}: landlord needs notice before {month} {day}",
        "when does the {city} lease end",
    ),
    _t(
        "{p} speaks {language} and can help with the {city} customers || "
        "Ask {first} for anything in {language}, they lived in {city} for years",
        "who speaks {language} || who can help with {city} customers",
    ),
    _t(
        "Use {tool} version {version} for {project}; newer versions break the build || "
        "{project} is pinned to {tool} {version} until the plugin is fixed",
        "which {tool} version for {project} || why is {project} pinned",
    ),
    _t(
        "Dentist appointment on {weekday} {month} {day} at {hour}:{minute} || "
        "Moved the dentist to {month} {day}, {hour}:{minute}",
        "when is my dentist appointment",
    ),
    _t(
        "{p} and {p2} are co-authoring the {project} design doc, due {weekday} || "
        "The {project} design doc is owned by {first} with help from {p2}",
        "who is writing the {project} design doc || {project} design doc deadline",
    ),
    _t(
        "The {team} on-call rotation changes every {weekday} at noon; "
        "handover notes go in {tool} || "
        "On-call handover for {team} happens {weekday} noon, written up in {tool}",
        "when does the {team} on-call rotate",
    ),
    _t(
        "Customer {company} asked for an export of their data by {month} {day} || "
        "{company} needs their data export before {month} {day}, {p} is on it",
        "what does {company} need || deadline for the {company} export",
    ),
    _t(
        "{p} runs a marathon in {city} in {month} and is training every morning || "
        "{first} signed up for the {city} marathon this {month}",
        "which marathon is {first} running",
    ),
    _t(
        "The {service} cache TTL is {number} seconds; shorter caused load spikes on {tool} || "
        "Keep the {service} TTL at {number}s, lower values hammered {tool}",
        "what is the {service} cache ttl || why is the {service} ttl {number}",
    ),
    _t(
        "{p} prefers written updates to calls and reads email only in the morning || "
        "Don't call {first}; send a short written summary instead",
        "how does {first} like to get updates",
    ),
    _t(
        "Renew the car insurance before {month} {day}; the quote from {company} was cheapest || "
        "Car insurance: {company} offered the best price, renewal due {month} {day}",
        "when is the car insurance due || which insurer",
    ),
    _t(
        "The {project} retro found that reviews were the bottleneck, not testing || "
        "Takeaway from the {project} retrospective: code review slows us down the most",
        "what did the {project} retro conclude",
    ),
    _t(
        "{p} is vegetarian and loves {dish}; good choice for the {team} dinner || "
        "For team dinners remember {first} is vegetarian",
        "what can {first} eat || dinner options for {first}",
    ),
    _t(
        "Backups of the {service} database run at {hour}:00 and are kept {number} days || "
        "{service} backups: nightly at {hour}:00, retention {number} days",
        "how long are {service} backups kept || when do backups run",
    ),
    _t(
        "{p} lent me '{book1} and {book2}'; give it back at the {month} meetup || "
        "I still have {first}'s copy of '{book1} and {book2}'",
        "whose book do I have || return book to {first}",
    ),
    _t(
        "The {company} contract renews every {month}; {p} negotiates it || "
        "{p} handles the {company} renewal each {month}",
        "who handles the {company} contract || when does {company} renew",
    ),
    _t(
        "My {relative} {first} is getting married in {city} on {month} {day} || "
        "Wedding: {first} ({relative}) in {city}, {month} {day}, need to book hotels",
        "when is {first}'s wedding || wedding in {city}",
    ),
    _t(
        "The {team} team uses {tool} for planning and {tool2} for docs || "
        "Planning happens in {tool}, docs in {tool2} - that is the {team} setup",
        "what does the {team} team plan in",
    ),
    _t(
        "The interview loop for the {team} role is {number} rounds; {p} does the system design || "
        "Hiring for {team}: {p} runs the design interview",
        "who does the design interview for {team} || how many interview rounds",
    ),
    _t(
        "Parking at the {city} office: level {level}, spot {number}, badge needed after {hour} || "
        "My parking spot in {city} is {number} on level {level}",
        "where do I park at the {city} office",
    ),
    _t(
        "{p} is learning {language} before moving to {city} next {month} || "
        "{first} moves to {city} in {month} and takes {language} lessons",
        "when is {first} moving to {city} || why is {first} learning {language}",
    ),
    _t(
        "Gift idea for {p}: a {hobby} class, they mentioned it twice || "
        "{first} would love a {hobby} lesson as a present",
        "gift idea for {first}",
    ),
    _t(
        "The {service} alert threshold is {number} ms at p95, paging {team} || "
        "{team} gets paged when the {service} p95 goes over {number} ms",
        "what is the {service} alert threshold || who gets paged for {service}",
    ),
    _t(
        "{p} found a bug in {tool} that drops rows when {cause}; workaround in the wiki || "
        "Known {tool} issue: rows vanish with {cause}, see {first}'s workaround",
        "known issue in {tool} || what bug did {first} find",
    ),
    _t(
        "Kids' school in {city} starts at {hour}:{minute}; pickup is {p}'s job on {weekday}s || "
        "{first} does school pickup on {weekday}",
        "who picks up the kids on {weekday} || when does school start",
    ),
    _t(
        "Hotel in {city} is booked until {month} {day}, breakfast included, near the old town || "
        "{city} hotel: checkout {month} {day}, reservation under {first}",
        "when is checkout in {city} || hotel booking {city}",
    ),
)

_LANGUAGES = """
    Portuguese Japanese Korean Swahili Turkish Polish Greek Hindi Arabic Finnish Dutch Czech
    Vietnamese Hungarian Spanish Italian German French Mandarin Norwegian
""".split()
_COMPANIES_A = "Acme Globex Initech Umbrella Stark Wayne Hooli Vandelay Soylent Tyrell".split()
_COMPANIES_B = "Labs Systems Foods Logistics Health Media Bank Motors Energy Retail".split()
_SLOT = re.compile(r"\{(\w+)\}")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Memory:
    """One synthetic memory and a question an agent would ask to find it again."""

    text: str
    query: str


@cache
def _zipf_weights(count: int) -> list[float]:
    return list(itertools.accumulate(1.0 / (rank + 1) for rank in range(count)))


def _zipf(rng: random.Random, items: Sequence[T]) -> T:
    """An item drawn with probability proportional to 1 / rank (a few common, most rare)."""
    return rng.choices(items, cum_weights=_zipf_weights(len(items)))[0]


@cache
def _projects() -> list[str]:
    """Code names ("Amber Falcon"), shuffled once so popularity is unrelated to spelling."""
    names = [f"{a.title()} {n.title()}" for a in _ADJECTIVES for n in _NOUNS]
    random.Random(1).shuffle(names)
    return names


@cache
def _people() -> list[tuple[str, str]]:
    pairs = [(first, last) for first in _FIRST for last in _LAST]
    random.Random(2).shuffle(pairs)
    return pairs


def _slots(rng: random.Random) -> dict[str, str]:
    first, last = _zipf(rng, _people())
    other = _zipf(rng, _people())
    tool, tool2 = rng.sample(_TOOLS, 2)
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return {
        "p": rng.choice([first, f"{first} {last}"]),
        "first": first,
        "p2": other[0] if rng.random() < 0.5 else f"{other[0]} {other[1]}",
        "project": _zipf(rng, _projects()),
        "project2": _zipf(rng, _projects()),
        "city": _zipf(rng, _CITIES),
        "tool": tool,
        "tool2": tool2,
        "food": rng.choice(_FOODS),
        "dish": rng.choice(_DISHES),
        "hobby": rng.choice(_HOBBIES),
        "team": rng.choice(_TEAMS),
        "team2": rng.choice(_TEAMS),
        "service": f"{rng.choice(_SERVICES)} service",
        "host": f"{rng.choice(_NOUNS)}-{rng.randint(1, 40):02d}",
        "error": rng.choice(_ERRORS),
        "cause": rng.choice(_CAUSES),
        "pet": rng.choice(_PETS),
        "pet_name": rng.choice(_PET_NAMES),
        "relative": rng.choice(_RELATIVES),
        "weekday": rng.choice(_WEEKDAYS),
        "month": rng.choice(_MONTHS),
        "day": str(rng.randint(1, 28)),
        "hour": str(rng.randint(7, 19)),
        "minute": rng.choice(["00", "15", "30", "45"]),
        "code": "".join(rng.choice(letters) for _ in range(6)),
        "book1": rng.choice(_BOOK_WORDS).title(),
        "book2": rng.choice(_BOOK_WORDS).title(),
        "quarter": str(rng.randint(1, 4)),
        "amount": str(rng.randrange(5, 400, 5)),
        "shop": rng.choice(_SHOPS),
        "language": rng.choice(_LANGUAGES),
        "version": f"{rng.randint(1, 9)}.{rng.randint(0, 20)}",
        "company": f"{rng.choice(_COMPANIES_A)} {rng.choice(_COMPANIES_B)}",
        "number": str(rng.choice([30, 60, 90, 120, 250, 300, 500, 800, 14, 7, 42, 17])),
        "level": str(rng.randint(-3, 4)),
    }


def _fill(text: str, slots: dict[str, str]) -> str:
    return _SLOT.sub(lambda match: slots[match.group(1)], text)


def memory(index: int, seed: int = 11) -> Memory:
    """Memory number `index` of the corpus `seed` (independent of every other memory)."""
    rng = random.Random(f"{seed}:{index}")
    template = rng.choice(_TEMPLATES)
    slots = _slots(rng)
    body = _fill(rng.choice(template.phrasings), slots)
    text = rng.choice(_PREFIXES) + body + _fill(rng.choice(_ASIDES), slots) + "."
    for follow_up in rng.sample(_FOLLOW_UPS, rng.choice([0, 0, 0, 1, 1, 2])):
        text += " " + _fill(follow_up, slots)
    question = _fill(rng.choice(template.question), slots)
    return Memory(text=text[0].upper() + text[1:], query=question)


def corpus(count: int, seed: int = 11) -> list[Memory]:
    """The first `count` memories of corpus `seed`."""
    return [memory(index, seed) for index in range(count)]
