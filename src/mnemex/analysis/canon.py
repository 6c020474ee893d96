"""What a name is: a real thing worth a node or junk, and which kind of thing.

Junk is told apart by the tagger in context, not by a list of sentences: a single word spaCy tags
as a common noun, adjective or verb where it stands ("Lunch with Mei", "Standup moved to 9:30") is
a word, not a name, unless the gazetteer or the store already knows it. Dates, times and
weekdays are values. A category comes from, in order of trust: the gazetteer (a known technology,
product or company), the context around the mention (a head noun that says what it is: "the
Orion project", "Zed is an editor", "the Globex account", "at Initech"), the ledger's lexicon of
technology names, then spaCy's NER label. Each category is a vote; the entity keeps the kind most
votes gave it, and a category a person set is never overridden.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mnemex import gazetteer
from mnemex.text import NAME_PARTICLES, UPPER, lettered

CATEGORIES = (
    "person",
    "organization",
    "project",
    "place",
    "technology",
    "product",
    "event",
    "concept",
    "other",
)
BY_LABEL = {
    "PERSON": "person",
    "ORG": "organization",
    "TECH": "technology",
    "PRODUCT": "product",
    "GPE": "place",
    "LOC": "place",
    "FAC": "place",
    "EVENT": "event",
    "WORK_OF_ART": "product",
    "LANGUAGE": "concept",
    "SERVICE": "project",  # a service or component of one ("auth-gateway")
    "CONCEPT": "concept",  # a standard or a practice the gazetteer knows ("GDPR", "Scrum")
    "MEDICINE": "concept",  # a generic drug name ("apixaban")
}
# Head nouns that say what the name beside them is ("the Orion project", "Zed is an editor").
_HEADS: dict[str, str] = {}
for _category, _words in {
    "project": "project projects initiative initiatives effort program programme roadmap epic "
    "migration rewrite launch service services pipeline backend repo codebase runbook "
    "dashboards module modules tests staging prod demo standup",
    "organization": "team teams company companies startup client clients customer customers "
    "vendor vendors agency firm bank school university college account org organisation "
    "organization group department lab labs inc corp ltd llc gmbh supplier",
    "technology": "editor editors ide database databases db language languages framework "
    "frameworks library libraries tool tools formatter linter compiler runtime server cli "
    "api sdk package plugin extension terminal shell browser os cloud queue cache stack "
    "engine protocol format",
    "product": "app apps application device phone laptop car watch product products "
    "subscription plan game console headphones",
    "place": "city town village country office neighbourhood neighborhood street park "
    "restaurant cafe café bar hotel airport station beach lake mountain region island",
    "event": "conference meetup summit workshop wedding party festival offsite retreat "
    "hackathon trip concert birthday anniversary",
    "person": "manager lead engineer designer developer friend sister brother mother father "
    "mom dad son daughter wife husband partner boss colleague coworker teammate doctor "
    "dentist cousin aunt uncle neighbour neighbor founder ceo cto intern mentor",
    # An animal is none of the named kinds: "our dog Biscuit", "the cat, Miso".
    "other": "dog dogs cat cats puppy pup kitten pet pets horse pony rabbit bunny hamster "
    "guinea parrot budgie tortoise turtle goldfish lizard gecko snake ferret",
}.items():
    for _word in _words.split():
        _HEADS.setdefault(_word, _category)
PRODUCT_KINDS = frozenset({"editor", "browser", "terminal"})
_AFTER = re.compile(r"^\s+([a-z]+)\b")
_NAMING_HEADS = frozenset({"project", "organization", "technology", "product"})
_DESCRIBED = re.compile(r"^\s*(?:is|was|,|:|-)\s")
_DESCRIPTION_WORDS = 5
_DESCRIPTION_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")  # "dog-friendly" is one word, no dog
_STOP_DESCRIPTION = frozenset("on at in for with from of to by who that which and but".split())
_BEFORE = re.compile(r"\b(?:the|a|an|our|my|their|his|her)\s+([a-z]+)\s+$")
_PROJECT_BEFORE = re.compile(
    r"\b(?:works?|working|worked|lead|leads|leading|led|manager|owner|engineer|designer|"
    r"developer|pm|team)\s+(?:on|for)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_EVENT_NAME = re.compile(
    r"[a-z](?:Con|Conf)\b|\b(?:Summit|Conference|Festival|Fest|Meetup)\b"
    # The last word of a longer name that names a gathering ("RCN Congress", "Chicago
    # Marathon", "AGU Fall Meeting", "Coinwell Hack Week").
    r"|\s(?:Congress|Convention|Symposium|Assembly|Meeting|Workshop|Tutorial|Hackathon|Hack Week|"
    r"Expo|Fair|Gala|Show|Retreat|Offsite|Marathon|Half|Triathlon|Sportive|Comp|Tournament|"
    r"Championships?|Cup|Sing|Recital)$"
)
_AT = re.compile(r"\b(?:at|for|joined|join|hired by|acquired)\s+$", re.IGNORECASE)
_NAMED = re.compile(r"\b([a-z]+)\s+(?:named|called)\s+$", re.IGNORECASE)
_PERSON_AFTER = re.compile(
    r"^(?:'s|’s)\s+(?:birthday|husband|wife|partner|mum|mom|dad|kids?|son|daughter|brother|"
    r"sister)\b|^\s+(?:and (?:her|his|I|me)|is (?:pregnant|hosting|visiting|sick|allergic)|says|"
    r"said|told|wants|thinks|asked|called|texted|(?:can(?:'|’)?t|cannot|won(?:'|’)t) stand|hates|"
    r"loves|got (?:married|engaged)|proposed|was born)\b"
)
_UNSURE_LABELS = frozenset({"NAME", "GPE", "ORG", "LOC"})
_VERB_AFTER = re.compile(r"^\s+(?:has\s+|have\s+|just\s+)?[a-z]+ed\b")
_PLACE_BEFORE = re.compile(r"\b(?:in|to|from|near|visiting|visit|around)\s+$", re.IGNORECASE)
# spaCy's fine tags of words that are not names standing alone.
WORD_TAGS = frozenset(
    {"NN", "NNS", "JJ", "JJR", "JJS", "VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "RB", "UH", "CD"}
)
GENERIC = frozenset(
    "lunch dinner breakfast standup stand-up meeting sync retro review call demo brunch "
    "developer engineer manager user customer team "
    # roles, titles and family words: said of someone, not someone's name
    "pm ceo cto cfo vp hr qa dr dr. mr mrs ms prof doctor dentist physio vet nurse mum mom "
    "dad mother father grandma grandpa "
    # generic acronyms of work: kinds of things, not things
    "ci cd api apis cli sdk ui ux pr prs mvp eta fyi asap faq todo tbd".split()
)
ORG_NAME_TAILS = frozenset(
    "labs lab inc corp ltd llc gmbh group insurance bank clinic hospital airlines airways "
    "university college school foundation agency "
    # Heads of the names of firms, shops and institutions, which spaCy's small model often
    # calls a person ("Hartwell Mill", "Greenleaf Organics", "Quarry Analytics").
    "co company collective partners associates consulting analytics logistics solutions "
    "supplies organics foods mill mills bakery brewery roasters coffee cafe "
    "café kitchen studio studios academy institute society council association "
    "elementary pharmacy dental health medical cardiology neurology dermatology pediatrics "
    "paediatrics orthopedics physiotherapy veterinary vets".split()
)
_ALIAS_DECLARED = re.compile(
    rf"\b(?:goes by|aka|a\.k\.a\.|also known as|known as|nicknamed)\s+([{UPPER}][\w'’-]+)"
)
# "Everyone calls him Dima", "we call her Bea": the name just before is the node (not when a
# person calls them so: "Priya calls him ..." may speak of someone else).
_ALIAS_CALLED = re.compile(
    r"\b(?i:everyone|everybody|we|they|people|friends|family|the \w+|I)\s+"
    r"(?:all\s+|usually\s+|just\s+|always\s+)?(?:calls?|call)\s+(?:him|her|them)\s+"
    rf"([{UPPER}][\w'’-]+)\b(?!\s*[{UPPER}])"
)
# A name's brackets: "(Bernie to everyone)", "(my husband, Dan to everyone)", "(Bea for short)",
# or a bare word that is a form of the first name ("Bernadette Walsh (Bernie)").
_ALIAS_PAREN = re.compile(
    rf"^\s*\((?:[^()]{{0,40}}?,\s*)?([{UPPER}][\w'’-]+)"
    r"(\s+(?:to\s+(?:everyone|everybody|friends|family|us|the\s+\w+|his\s+\w+|her\s+\w+)"
    r"|for\s+short))?\s*\)"
)
_VALUE_START = re.compile(
    r"^(?:on|in|at|by|to|for|from|since|until|every|each|last|next|this|the|a|an|about|"
    r"around|before|after|allergic|very|really|not|no)\b",
    re.IGNORECASE,
)
_HAS_DATE = re.compile(
    r"\b(?:\d{1,2}(?:st|nd|rd|th)?|\d{4})\b.*\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|"
    r"dec)|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d",
    re.IGNORECASE,
)

# A size, a weight, a distance, a share or a time of day is a value, not a thing: "1.2GB",
# "25 kg", "80%", "Monday 8am", "9:30".
_QUANTITY = re.compile(
    r"^\d+(?:[.,]\d+)?\s?(?:KB|MB|GB|TB|PB|KiB|MiB|GiB|TiB|kb|mb|gb|tb|kg|mg|g|lbs?|km|cm|mm|mi|"
    r"ft|ms|secs?|mins?|hrs?|h|mph|kph|%)$"
)
_TIME_OF_DAY = re.compile(
    r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)(?!\w)|\b\d{1,2}:\d{2}\b", re.IGNORECASE
)


def junk_word(tag: str | None, word: str, source: str) -> bool:
    """A single-word mention that its own sentence uses as an ordinary word."""
    if source in ("ruler", "store", "pattern"):
        return False
    if word.casefold() in GENERIC:
        return True
    return tag in WORD_TAGS


# Job titles are what someone is, not a thing: "Director of Engineering", "Staff Engineer",
# "Head of Platform", "VP of Sales" are a person's attribute (the ledger's `title`), never a
# node, and neither are their words ("Director", "Engineering"). A title is a run of
# capitalised words, joined by "of" / "and" / "&", with one of these role nouns in it.
ROLE_NOUNS = gazetteer.ROLE_NOUNS
_TITLE_WORD = re.compile(rf"(?<![\w-])(?:[{UPPER}][\w-]*|of|and|&|for|the)(?![\w-])")
_CONNECTORS = frozenset({"of", "and", "&", "for", "the"})
_TITLE_BEFORE = re.compile(r"\b(?:as|a|an|the|now|new|our|their|his|her)\s+$", re.IGNORECASE)


def title_spans(text: str) -> list[tuple[int, int]]:
    """Where the message names a job title: a run of capitalised words with a role noun,
    through "of ..." after it ("Head of Platform") but not into a name after it ("Lead
    Engineer Sam Park": the title ends at "Engineer"). A lone role noun counts after "as",
    "a", "the", "now", "our" ("She is the new CTO")."""
    words = [(m.start(), m.end(), m.group(0)) for m in _TITLE_WORD.finditer(text)]
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        if words[i][2].casefold() in _CONNECTORS:
            i += 1
            continue
        run = [words[i]]  # capitalised words and connectors, adjacent in the text
        while i + 1 < len(words) and text[run[-1][1] : words[i + 1][0]].strip() == "":
            i += 1
            run.append(words[i])
        i += 1
        while run and run[-1][2].casefold() in _CONNECTORS:
            run.pop()
        roles = [n for n, w in enumerate(run) if w[2].casefold() in ROLE_NOUNS]
        if not roles:
            continue
        last = roles[-1]
        if last + 1 < len(run) and run[last + 1][2].casefold() in _CONNECTORS:
            last = len(run) - 1  # "Head of Platform", "VP of Sales and Marketing"
        first = roles[0]  # and the capitalised words right before it ("Chief Happiness")
        while first > 0 and run[first - 1][2].casefold() not in _CONNECTORS:
            first -= 1
        if first == last and not _TITLE_BEFORE.search(text[: run[first][0]]):
            continue
        spans.append((run[first][0], run[last][1]))
    return spans


# Words before a name that say what it is: "Project Kestrel" is also called "Kestrel".
NAME_HEADS = frozenset("project operation team program programme lake mount mt".split())
# What a person is to the user ("my nephew Amir", "Claire, my old flatmate"): a lone first name
# so introduced is that person, not another of the tenant's people who shares the first name.
KIN = frozenset(
    """
    husband wife partner boyfriend girlfriend fiance fiancé fiancee fiancée son daughter kid
    child baby brother sister sibling mum mom mother dad father stepson stepdaughter stepmum
    stepmom stepdad grandson granddaughter grandma grandmother granny nan nana grandad granddad
    grandpa grandfather nephew niece cousin aunt auntie uncle flatmate roommate housemate friend
    bestie
    """.split()
)
# Kin words that open a note before a name and are no part of it ("Husband Dev works nights");
# an aunt, an uncle, a grandparent or a cousin is called by the word ("Aunt Priya").
KIN_BEFORE_NAMES = KIN - frozenset(
    "aunt auntie uncle nan nana granny grandma grandmother grandpa grandfather grandad granddad "
    "cousin".split()
)
_KIN_WORDS = "|".join(sorted(KIN, key=len, reverse=True))
_KIN_BEFORE = re.compile(
    rf"\b(?:my|our)\s+(?:[\w-]+\s+){{0,2}}?({_KIN_WORDS})\s*,?\s*$", re.IGNORECASE
)
_KIN_AFTER = re.compile(
    rf"^\s*(?:,|\()\s*(?:my|our)\s+(?:[\w-]+\s+){{0,2}}?({_KIN_WORDS})\b", re.IGNORECASE
)


def kin_word(text: str, start: int, end: int) -> str | None:
    """What the message calls the person named at [start, end) to the user, if anything:
    "nephew" in "My nephew Amir turns seven" and in "Amir, my nephew, turns seven"."""
    match = _KIN_BEFORE.search(text[:start]) or _KIN_AFTER.match(text[end:])
    return match.group(1).casefold() if match else None


# What a person is, said beside a lone name: "Grace, our paralegal, ...", "our nanny Grace".
_ROLE_AFTER = re.compile(
    r"^\s*,\s*(?:my|our|the)\s+(?:[\w-]+\s+){0,2}?([a-z][a-z-]+)"
    r"(?=\s*(?:[,.;)]|$)|\s+(?:at|from|for|in|on|of|who|with|and)\b)"
)
_ROLE_BEFORE = re.compile(r"\b(?:my|our)\s+(?:[\w-]+\s+){0,2}?([a-z][a-z-]+)\s*,?\s*$")


def role_word(text: str, start: int, end: int) -> str | None:
    """What the message says the person named at [start, end) is, beside the name: "paralegal"
    in "Grace, our paralegal, is off sick" and in "our paralegal Grace"."""
    match = _ROLE_AFTER.match(text[end:]) or _ROLE_BEFORE.search(text[:start])
    return match.group(1).casefold() if match else None


def other_kin(kin: str | None, other: str | None) -> bool:
    """Whether a person called `kin` to the user is someone else than a person called `other`
    (or nothing): "my nephew Amir" is not the Amir Khalil nobody called a nephew."""
    return kin is not None and kin != other


# Titles written before a name ("Dr Okafor", "Professor Whitlock", "Madame Roux", "Frau Berger").
# No word that is also a common first name ("Don", "Major") nor a family word ("Auntie").
_TITLE_WORDS = (
    "dr mr mrs ms mx miss prof doctor professor judge coach nurse sister father rev "
    "reverend pastor rabbi imam sir dame lord lady captain capt officer detective sergeant sgt "
    "councillor councilor mayor senator governor ambassador chef "
    "inspector monsieur madame mme mademoiselle mlle herr frau señor senor señora senora "
    "signor signora senhor senhora"
).split()
TITLES = frozenset(
    _TITLE_WORDS
    + [
        f"{t}."
        for t in ("dr", "mr", "mrs", "ms", "mx", "prof", "rev", "capt", "sgt", "mme", "mlle")
    ]
)
# Honorifics written after a name with a hyphen ("Ono-san", "Kim-ssi", "Park-nim").
_SUFFIXES = ("san", "sama", "sensei", "kun", "chan", "ssi", "nim", "ji")
_TITLE_AFTER = re.compile(rf"^([^\W\d_][\w'’]*)-(?:{'|'.join(_SUFFIXES)})$")
# Words after a name that make it a company's: "Halcyon Labs" is also "Halcyon".
ORG_TAILS = frozenset(
    "labs lab inc inc. corp corp. ltd ltd. llc gmbh group co co. technologies "
    # A firm or a practice called by its distinctive part: "Hartwell Mill" is also
    # "Hartwell", "Greenleaf Organics" "Greenleaf", "Harbor Dental" "Harbor".
    "mill mills organics collective analytics logistics partners associates consulting foods "
    "bakery brewery roasters dental pharmacy veterinary cardiology neurology dermatology".split()
)


def short_forms(name: str) -> list[str]:
    """Shorter names of the same thing: "Project Kestrel" -> "Kestrel", "Halcyon Labs" ->
    "Halcyon"."""
    words = name.split()
    if len(words) < 2:
        return []
    if words[0].casefold() in NAME_HEADS:
        return [" ".join(words[1:])]
    if words[-1].casefold() in ORG_TAILS:
        return [" ".join(words[:-1])]
    return []


def untitled(name: str) -> str | None:
    """The name without a title ("Dr. Okafor" -> "Okafor", "Ono-san" -> "Ono"), or None when
    it has none."""
    words = name.split()
    if len(words) >= 2 and words[0].casefold() in TITLES and all(map(_name_word, words[1:])):
        return " ".join(words[1:])  # not "Lord of the Rings", "Sister Act 2"
    after = _TITLE_AFTER.match(name)
    return after.group(1) if after else None


def _name_word(word: str) -> bool:
    """A word of a person's name: capitalised letters ("O'Neill", "Nakamura-Reid") or a
    particle ("van", "de")."""
    return bool(re.fullmatch(NAME_PARTICLES, word)) or (word[:1].isupper() and lettered(word))


def surname_alone(name: str) -> bool:
    """Whether what follows a title is a surname alone: one word, or particles and one word
    ("Osei", "van Wyk", "de la Cruz"), not a first name and a surname."""
    words = name.split()
    return all(re.fullmatch(NAME_PARTICLES, w) for w in words[:-1])


def titled_spellings(surname: str) -> list[str]:
    """Every way a title and this name are written as one node's name ("Dr Osei", "Osei-san")."""
    return [f"{title} {surname}" for title in sorted(TITLES)] + [
        f"{surname}-{suffix}" for suffix in _SUFFIXES
    ]


def nameworthy(name: str) -> bool:
    """Whether a name the ledger read (a subject or a value) is a thing, not a phrase or a date:
    "on August 21", "allergic to peanuts" and "Danish set designer" are values; "Neovim" and
    "svc-orders" are names."""
    text = name.strip()
    if not text or _VALUE_START.match(text) or _HAS_DATE.search(text):
        return False
    if _QUANTITY.match(text) or _TIME_OF_DAY.search(text):
        return False
    if text[0] in "#@":  # "#orion-eng", "@kenji": where to write, not a thing
        return False
    words = text.split()
    if len(words) > 4 or title_spans(text) == [(0, len(text))]:
        return False
    if len(words) > 1 and words[-1] in ROLE_NOUNS:
        return False  # "Danish set designer", "Lead data engineer": what someone is
    return not (len(words) > 1 and text == text.lower())


def from_context(text: str, start: int, end: int) -> str | None:
    """The category the words around a mention give it, or None: the word right after it
    ("Orion project"), the head of a description ("Zed is the fastest editor"), the word
    before it ("the client Globex")."""
    before, after = text[:start].casefold(), text[end:].casefold()
    match = _AFTER.match(after)
    # "the Orion project" says what Orion is; "the Japan trip", "Okafor's office" do not.
    if match and _HEADS.get(match.group(1)) in _NAMING_HEADS:
        return _HEADS[match.group(1)]
    described = _DESCRIBED.match(after)
    if described:
        for word in _DESCRIPTION_WORD.findall(after[described.end() :])[:_DESCRIPTION_WORDS]:
            if word in _HEADS:
                return _HEADS[word]
            if word in _STOP_DESCRIPTION:
                break
    match = _BEFORE.search(before)
    if match and match.group(1) in _HEADS and match.group(1) != "team":
        return _HEADS[match.group(1)]
    return None


def categorise(
    label: str, source: str, text: str, start: int, end: int, lexicon_kind: str | None
) -> tuple[str, int] | None:
    """The best category of one mention and how much it counts (a vote's weight): the
    gazetteer and the context count double; the lexicon and NER's label once."""
    if _EVENT_NAME.search(text[start:end]):
        return "event", 2  # "Snowflake Summit": the gathering, not the maker's product
    if label == "MEDICINE":
        return "concept", 2
    if source == "ruler" and label in BY_LABEL:
        name = text[start:end]
        if label == "TECH" and any(name.casefold() == a.casefold() for a in gazetteer.APPS):
            return "product", 2
        if label == "TECH" and lexicon_kind in PRODUCT_KINDS:
            return "product", 2  # an editor or a browser is a product one installs
        return BY_LABEL[label], 2
    name = text[start:end]
    if len(name.split()) >= 2 and name.split()[-1].casefold() in ORG_NAME_TAILS:
        return "organization", 2
    context = from_context(text, start, end)
    if context is not None and (label != "PERSON" or context in ("person", "other")):
        return context, 3  # what the sentence says it is outweighs a label seen twice
    before = text[:start]
    named = _NAMED.search(before)
    if named:
        return _HEADS.get(named.group(1).casefold(), "other"), 3
    if label != "PERSON" and _PROJECT_BEFORE.search(before):
        return "project", 2
    if lexicon_kind is not None:
        return ("product" if lexicon_kind in PRODUCT_KINDS else "technology"), 1
    if label in ("ORG", "PRODUCT", "GPE") and _AT.search(before):
        return "organization", 1
    if label == "PRODUCT" and source == "spacy":
        # The small model calls many unknown names a product; one that does something
        # ("Globex signed") is an organisation, otherwise no vote.
        return ("organization", 1) if _VERB_AFTER.match(text[end:]) else None
    lone = " " not in name and (label == "NAME" or not name.isupper())  # not "the HOA said"
    if label in _UNSURE_LABELS and lone and _PERSON_AFTER.match(text[end:]):
        # An unknown name that has a birthday, is hosting us or got married is someone, whatever
        # place or firm the small model took a lone first name for ("Marcus and I got married").
        return "person", 1
    category = BY_LABEL.get(label)
    return None if category is None else (category, 1)


SURE_VOTE = 2  # a vote this heavy came from the gazetteer or the context, not NER's label alone


def category_guessed(details: Mapping[str, Any], category: str | None) -> bool:
    """Whether a node's category rests on NER's labels alone (no vote of SURE_VOTE for it):
    the small model calls many lone first names a firm or a place ("Naomi", "Akosua"). A
    category a person set, or one on a node from before this was recorded, counts as sure."""
    sure = details.get("category_sure")
    if category is None or sure is None or details.get("category_set_by") == "user":
        return False
    return category not in sure


def guessed_first_name(details: Mapping[str, Any], category: str | None) -> bool:
    """Whether a lone name's node may be a person's whatever its category says: the category is
    NER's guess (`category_guessed`) and no message said who it is ("Grace, our paralegal")."""
    return category_guessed(details, category) and not details.get("role")


def voted(votes: Mapping[str, int]) -> str | None:
    """The category most votes gave (ties: the first in CATEGORIES)."""
    if not votes:
        return None
    order = {c: i for i, c in enumerate(CATEGORIES)}
    return min(votes, key=lambda c: (-votes[c], order.get(c, len(order))))


# Words an acronym may skip: a title's connectors, and those of place and family names.
LINKING_WORDS = _CONNECTORS | {"de", "la", "du", "von", "van", "on", "at"}
_NAME_PARTS = re.compile(rf"[{UPPER}][^\W\d_{UPPER}]*|[^\W\d_]+|\d+")


def initials(name: str, *, linking: bool = True) -> str:
    """The acronym a name's words (and their capitalised parts) give: "Amazon Web Services" ->
    "AWS", "GitHub Actions" -> "GHA"; without `linking` words, "National Center for Atmospheric
    Research" -> "NCAR"."""
    parts = _NAME_PARTS.findall(name)
    if not linking:
        parts = [p for p in parts if p.casefold() not in LINKING_WORDS] or parts
    return "".join(p[0].upper() for p in parts)


def acronym_of(short: str, name: str) -> bool:
    """Whether `short` (2 to 5 capitals, "&" or "/" between them allowed: "H&F") is the acronym
    of the longer name, its linking words ("of", "for", "&") counted or not."""
    letters = re.sub(r"[&/.]", "", short)
    return (
        short.isupper()
        and letters.isalnum()
        and 2 <= len(letters) <= 5
        and len(name.split()) >= 2
        and letters in {initials(name), initials(name, linking=False)}
    )


def declared_aliases(text: str, names: list[tuple[str, int, int]]) -> dict[str, list[str]]:
    """Other names a message gives a named thing: "Jessica Moreno ..., goes by Jess", "Dmitri
    Volkov ... everyone calls him Dima", "Bernadette Walsh (Bernie to everyone)", "Daniel Brooks
    (Dan)" (a bare bracketed word only when it is a form of the first name, not "(Stripe)");
    "Mum (Ruth)" (the name in brackets is the node; the word before it its alias)."""
    found: dict[str, list[str]] = {}
    for match in _ALIAS_DECLARED.finditer(text):
        before = [n for n in names if n[2] <= match.start()]
        if before:
            found.setdefault(before[0][0], []).append(match.group(1))
    for match in _ALIAS_CALLED.finditer(text):
        before = [n for n in names if n[2] <= match.start() and " " in n[0]]
        if before and not before[-1][0].casefold().startswith(match.group(1).casefold() + " "):
            found.setdefault(before[-1][0], []).append(match.group(1))
    for name, _, end in names:
        paren = _ALIAS_PAREN.match(text[end:])
        if paren is None or " " not in name or paren.group(1) in name.split():
            continue
        word, first = paren.group(1).casefold(), name.split()[0].casefold()
        if paren.group(2) or (len(word) >= 3 and (word[:3] == first[:3] or word in first)):
            found.setdefault(name, []).append(paren.group(1))
    for name, start, _ in names:
        word = re.search(r"([A-Za-z][\w'’-]+)\s*$", text[:start].rstrip(" ("))
        if word and text[:start].rstrip().endswith("(") and word.group(1).casefold() in GENERIC:
            found.setdefault(name, []).append(word.group(1))
    return found


def names_its_kind(word: str) -> bool:
    """Whether a noun after a name says what the name is ("Orion project", "Initech team")."""
    return _HEADS.get(word.casefold()) in _NAMING_HEADS
