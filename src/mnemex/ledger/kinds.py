"""Kinds of values and the keys they belong to: an editor is an `editor`, a city a `city`.

A kind links three things the ledger needs: the words of relation names that hold it (a value of
kind "place" fits `city`, `home_city`, `location`), the key to start when a subject has none of
them, and the words a question uses to ask for it ("where does Bob work" asks for an employer).
A value's kind comes from the category table (ledger/lexicon.py), its shape (a phone number,
an e-mail address) or the entity label analysis gave it (spaCy: GPE, ORG, PERSON).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from mnemex.ledger import lexicon
from mnemex.ledger.patterns import DAYS, MONTHS
from mnemex.ledger.relations import expanded, root, singular
from mnemex.text import NAME_PARTICLES


@dataclass(frozen=True, slots=True)
class Family:
    """The relation words that hold one kind of value, its default key and its question cues."""

    words: frozenset[str]  # relation words (singular, abbreviations spelled out)
    default: str | None  # the key a subject gets when it has none of these (None: never guessed)
    cues: frozenset[str]  # question words (stems) that ask for this kind without naming it


def _family(words: str, default: str | None, cues: str = "") -> Family:
    return Family(frozenset(words.split()), default, frozenset(cues.split()))


FAMILIES: dict[str, Family] = {
    "editor": _family("editor ide", "editor", "edit"),
    "database": _family("database datastore", "database", "store data"),
    "language": _family("language", "language", "code write program"),
    "operating_system": _family("operating distro distribution", "operating_system", "run"),
    "browser": _family("browser", "browser", "browse web"),
    "cloud": _family("cloud hosting", "cloud_provider", "host hosted"),
    "deploy": _family("deploy deployer", "deploy_tool", "deploy ship"),
    "ci": _family("continuous integration ci pipeline", "ci", "build"),
    "framework": _family("framework", "framework", "build"),
    "shell": _family("shell", "shell", ""),
    "terminal": _family("terminal", "terminal", ""),
    "queue": _family("queue messaging broker", "queue", "event message"),
    "place": _family(
        "city town location residence home base country neighbourhood neighborhood district suburb",
        "city",
        "live based reside located",
    ),
    "org": _family(
        "employer company workplace job work organization firm", "employer", "work employ job"
    ),
    "person": _family("manager boss lead supervisor mentor report", None, "report"),
    "team": _family("team squad group department", "team", "team"),
    "phone": _family("phone number mobile cell telephone", "phone_number", "call reach phone"),
    "email": _family("email mail", "email", "email mail write"),
    "website": _family("website site url homepage blog", "website", "site"),
}
# Relation words that name a value that does not change by moving or switching ("home town",
# "birth city"): a change verb never lands on such a key.
STATIC_WORDS = frozenset("birth native origin hometown born".split())

# Shapes that say what a value is, whatever the sentence around it.
_PHONE = re.compile(r"^\+?[\d\s().\-]{7,20}\d$")
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")
_URL = re.compile(r"^(?:https?://|www\.)\S+$|^[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|app)$")
# Entity categories of analysis (analysis/enrich.py CATEGORY_BY_LABEL) -> kind.
_CATEGORY_KINDS = {"place": "place", "organization": "org", "person": "person"}

# How much each source of a kind is worth as evidence (see ledger/keyguess.py): the category
# table and a value's shape are near certain; spaCy's small model often labels unknown product
# names ORG and anything after "moved to" GPE, so its labels count for less.
LEXICON_STRENGTH = 0.9
SHAPE_STRENGTH = 0.95
LABEL_STRENGTH = 0.55


@dataclass(frozen=True, slots=True)
class ValueKind:
    """A kind a value is thought to be, and how sure that is (evidence strength in [0, 1])."""

    kind: str
    strength: float
    source: str  # "lexicon" | "shape" | "label"


def value_kinds(value: str, category: str | None = None) -> list[ValueKind]:
    """The kinds `value` may be, strongest first; `category` is analysis's entity category."""
    found: list[ValueKind] = []
    known = lexicon.kind_of(value)
    if known is not None:
        found.append(ValueKind(known, LEXICON_STRENGTH, "lexicon"))
    shape = None if known is not None else _shape(value)  # "Fly.io" is a cloud, not a site
    if shape is not None:
        found.append(ValueKind(shape, SHAPE_STRENGTH, "shape"))
    labelled = _CATEGORY_KINDS.get(category or "")
    if labelled is not None and all(kind.kind != labelled for kind in found):
        # Kept beside the table's kind: "Phoenix" is a framework and, labelled GPE, a city.
        found.append(ValueKind(labelled, LABEL_STRENGTH, "label"))
    return found


def _shape(value: str) -> str | None:
    text = value.strip()
    if _EMAIL.match(text):
        return "email"
    if _URL.match(text):
        return "website"
    if _PHONE.match(text) and sum(ch.isdigit() for ch in text) >= 7:
        return "phone"
    return None


# A quantity: a number with at most a currency sign and a short unit ("100mg", "£40", "27:40",
# "60/40", "3 days"); not an address or a name with a number ("12 Elm Street", "Year 10").
_MEASURE = re.compile(r"^[~<>]?[£$€]?\d[\d.,:/]*\s?(?:[A-Za-z%]{1,5})?$")


def is_measure(value: str) -> bool:
    """Whether a value is a quantity rather than a name or a thing."""
    return _MEASURE.match(value.strip()) is not None


# A calendar date or a weekday ("14th March", "Sept 1, 2026", "2026-09-01", "1/9/26", "Fridays").
_DATE = re.compile(
    rf"^(?:(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTHS})\.?"
    rf"|(?:{MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?)(?:,?\s+\d{{4}})?$"
    rf"|^\d{{4}}-\d{{2}}-\d{{2}}$|^\d{{1,2}}/\d{{1,2}}/\d{{2,4}}$|^(?:{DAYS})s?$",
    re.IGNORECASE,
)


def form(value: str) -> str:
    """What shape of thing a value is: a "date", a "measure" (a quantity) or a "name"."""
    text = value.strip()
    if _DATE.match(text):
        return "date"
    return "measure" if is_measure(text) else "name"


def same_form(value: str, held: list[str]) -> bool:
    """Whether `value` could be a new value of a key holding `held`: a quantity replaces a
    quantity, a date a date, a name a name (a GP is not replaced by "100mg", a birthday on 14th
    March by the restaurant it was spent at). True when nothing is held."""
    shape = form(value)
    return not held or any(shape == form(other) for other in held)


@functools.lru_cache(maxsize=8192)
def relation_words(relation: str) -> frozenset[str]:
    """The words of a relation name, abbreviations spelled out, each also without its ending."""
    words = {singular(w) for w in expanded(relation)}
    return frozenset(words | {root(w) for w in words})


def fits(kind: str, relation: str) -> bool:
    """Whether a key named `relation` holds values of `kind` ("place" fits `home_city`)."""
    family = FAMILIES.get(kind)
    return family is not None and bool(relation_words(relation) & family.words)


def families_of(relation: str) -> list[str]:
    """The kinds a relation holds, by its words (`code_editor` -> editor)."""
    return [kind for kind in FAMILIES if fits(kind, relation)]


# Keys of who someone is to the subject. A relative is one key each ("sister", "mother");
# a partner is one key at every stage (girlfriend, fiancé, husband: `STANDING`).
STANDING = "partner"
_STANDING_WORDS = frozenset(
    "partner boyfriend girlfriend fiance fiancee husband wife spouse".split()
)
_RELATIVES = frozenset(
    "mother father parent sister brother sibling son daughter child grandmother grandfather "
    "grandparent grandson granddaughter grandchild aunt uncle cousin niece nephew twin "
    "stepmother stepfather stepbrother stepsister stepson stepdaughter stepchild godmother "
    "godfather godparent godson goddaughter godchild".split()
)
# Other words for one relative: "Lena's kids" are her children.
_RELATIVE_WORDS = {
    "kid": "child",
    "children": "child",
    "grandkid": "grandchild",
    "grandchildren": "grandchild",
}


def people_key(relation: str) -> str | None:
    """Which person a key names the subject's own, if it is such a key: `STANDING` for a
    partner at any stage, else the relative ("sister"); None for any other key."""
    words = relation_words(relation)
    if words & _STANDING_WORDS:
        return STANDING
    relatives = sorted({_RELATIVE_WORDS.get(w, w) for w in words} & _RELATIVES)
    return relatives[0] if relatives else None


_PARTICLES_OF_NAMES = frozenset(NAME_PARTICLES.removeprefix("(?:").removesuffix(")").split("|"))


def person_named(value: str) -> bool:
    """A value that names a person: capitalised words (particles and titles between)."""
    words = value.replace(".", " ").split()
    return (
        0 < len(words) <= 5
        and words[0][:1].isupper()
        and all(w[:1].isupper() or w.casefold() in _PARTICLES_OF_NAMES for w in words)
    )


def is_static(relation: str) -> bool:
    """A key a change verb does not change: where someone was born or grew up."""
    words = relation_words(relation)
    return bool(words & STATIC_WORDS) or {"home", "town"} <= words
