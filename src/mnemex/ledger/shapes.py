"""The shapes a clause or a value takes that decide what it says, whatever its words: a hedged
likeness ("is basically my religion"), a participle before a name ("has joined Kariuki"), what
befalls a thing ("being retaken Monday"), a name and where it is ("Dr Hughes at Park Lane
Surgery"), a date after "is on", the "has" in "Dean's joined", why a value came ("since Rui
retired"), a note on a past verb ("Moved my notes ..."), a region after a town ("Austin,
Texas"). Read by ledger/extract.py."""

from __future__ import annotations

import re

from mnemex.gazetteer import ROLE_NOUNS
from mnemex.ledger.patterns import DAYS, MONTHS, OPENING_VERB
from mnemex.text import UPPER

# "Ski touring is basically my religion", "the gym is like my second home": a hedged likeness,
# not the value of a key.
HEDGED = re.compile(
    r"\b(?:is|are|was|were)\s+(?:basically|practically|pretty\s+much|kind\s+of|kinda|sort\s+of"
    r"|literally|virtually|more\s+or\s+less|like|almost|essentially)\s+(?:my|our|his|her|their"
    r"|your)\s",
    re.IGNORECASE,
)

# "has joined Kariuki & Mwangi Advocates": a past participle and the name it takes, with no
# article between them ("a refurbished Tesla" is a value).
PERFECT = re.compile(rf"^[a-z]{{3,}}ed\s+(?-i:[{UPPER}])")

# "Dr Hughes at Park Lane Surgery", "Sunita Rao at Brightwave", "Dishoom in Manchester": a name,
# then where the named one is; the value is the name.
LOCATED = re.compile(
    rf"^(?P<name>[{UPPER}][\w.'’&-]*(?:\s+[{UPPER}0-9][\w.'’&-]*){{0,3}})\s+(?:at|in|on)\s+"
    rf"(?:the\s+)?(?!(?i:{MONTHS}|{DAYS})\b)[{UPPER}]"  # "in May" is a time
)

# "Our badge photos are being retaken Monday", "the street is getting repaved": what happens to
# the thing, not a value of it.
UNDERGOING = re.compile(r"^(?:being|getting)\s+[a-z]", re.IGNORECASE)

# "My birthday is on 3 November", "Ama's anniversary is on the 14th of May": the date is the
# value ("on" and "the" say when, as "is" does).
DATED_ON = re.compile(
    rf"^(?P<key>(?:(?i:my|our)|[{UPPER}][\w'’-]*['’]s)\s+[a-z][a-z ]{{0,30}}?\s+is)\s+on\s+"
    rf"(?:the\s+)?(?=\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+(?i:{MONTHS})\b|(?i:{MONTHS})\s+\d)"
)

# "Dean's joined Huon", "he's started at Monzo": the "'s" before a verb's participle and where
# it leads is "has" (not "is": "Dean's based in Leeds", "Dean's married to Sue"; not a
# possessive: "Dean's used car").
HAS_DONE = re.compile(
    rf"\b((?i:he|she|it)|[{UPPER}][\w-]*)['’]s\s+"
    r"(?=(?!(?:based|located|engaged|married|interested|involved|obsessed|related|scared|"
    r"excited|tired|bored|retired|qualified|employed|settled|booked|registered|signed)\b)"
    r"(?:[a-z]{2,}ed|left|gone|been|got|taken|become|begun|made|found|bought|sold|quit|run)\s+"
    r"(?:to|at|from|in|into|over|on|with|for|the|a|an|my|his|her|their|our|up|down|back|out|"
    rf"[{UPPER}]\w*)\b)"
)

# "Ama's team is hiring for Atlas": something going on, no value held
GOING_ON = re.compile(r"\b(?:is|are|was|were)\s+[a-z]+ing\b", re.IGNORECASE)
# "Heron's frontend is written in Svelte": what it is made with is the value, Svelte
MADE_WITH = re.compile(
    r"^(?:written|built|implemented|coded|made|powered|hosted|deployed|running)\s+"
    r"(?:in|with|on|by)\s+(?=\S)",
    re.IGNORECASE,
)
# "switched dentists - now going to ...": a dash ends a clause, the change is after it
DASH = re.compile(r"\s[-–—]+\s")
# A machine named as code names it, then what it is: "the heron-prod-2 box", "db-07 server".
MACHINE_HEADS = frozenset("box server machine host node vm instance".split())
CODE_NAME = re.compile(r"^[a-z][\w.]*[-_\d][\w.-]*$")

# "Sofia Lopes since Rui retired", "AXA after Mapfre doubled the premium": why or when the value
# came, a clause of its own (a conjunction, someone or something named, a verb), is no part of it.
REASON = re.compile(
    r"\s+(?:since|after|because|when|once|now\s+that|as\s+soon\s+as)\s+"
    rf"(?:(?:the|my|his|her|their|our|its)(?:\s+[a-z]+){{1,2}}|he|she|it|they|we|I"
    rf"|\w*[{UPPER}][\w.'’-]*(?:\s+[{UPPER}][\w.'’-]*)*)\s+"
    r"(?:[a-z]{2,}ed|is|was|were|has|had|got|went|lost|left|came|broke|died|quit|fell|ran|made"
    r"|took|became|said|looks|seems|gets|goes|keeps|costs)\b.*$"
)


def diary_past(sentence: str) -> bool:
    """ "Moved my notes over to Logseq": a note that opens on a past verb and the writer's own
    thing is the writer's ("I moved my notes ..."); "Moved the demo to Q3" says nothing of whose."""
    words = sentence.split(maxsplit=2)
    return (
        len(words) > 2
        and OPENING_VERB.match(sentence) is not None
        and not words[0].endswith("ing")
        and words[1].casefold() in ("my", "our")
    )


def temporal_form(text: str) -> str:
    """Whether a clause says what usually holds, what held, or what holds now."""
    lowered = text.casefold()
    if re.search(r"\b(?:usually|every|always|often|each)\b", lowered):
        return "habitual"
    if re.search(r"\b(?:was|used to|had)\b", lowered):
        return "completed"
    return "ongoing"


def is_role(text: str) -> bool:
    """Whether "as a <text>" names a role someone takes ("developer", "senior engineer")."""
    words = text.lower().split()
    return bool(words) and words[-1] in ROLE_NOUNS


# Regions a town is written before ("Austin, Texas", "Leeds, UK"): after a comma such a name is
# where the town is, not the town; any other place after the comma is the town ("Partick,
# Glasgow": a district, then its city).
REGIONS = frozenset(
    name.strip()
    for name in """
    alabama, alaska, arizona, arkansas, california, colorado, connecticut, delaware, florida,
    georgia, hawaii, idaho, illinois, indiana, iowa, kansas, kentucky, louisiana, maine,
    maryland, massachusetts, michigan, minnesota, mississippi, missouri, montana, nebraska,
    nevada, new hampshire, new jersey, new mexico, new york, north carolina, north dakota, ohio,
    oklahoma, oregon, pennsylvania, rhode island, south carolina, south dakota, tennessee,
    texas, utah, vermont, virginia, washington, west virginia, wisconsin, wyoming, dc, d.c.,
    ontario, quebec, québec, british columbia, alberta, manitoba, saskatchewan, nova scotia,
    new brunswick, newfoundland, new south wales, nsw, victoria, queensland, tasmania,
    western australia, south australia, england, scotland, wales, northern ireland, ireland, uk,
    u.k., usa, us, u.s., america, canada, australia, new zealand, germany, france, spain,
    portugal, italy, netherlands, belgium, switzerland, austria, poland, sweden, norway,
    denmark, finland, iceland, greece, turkey, türkiye, czechia, czech republic, hungary,
    romania, bulgaria, croatia, serbia, slovenia, slovakia, ukraine, estonia, latvia, lithuania,
    mexico, brazil, argentina, chile, colombia, peru, ecuador, uruguay, india, pakistan,
    bangladesh, sri lanka, nepal, china, japan, korea, south korea, taiwan, vietnam, thailand,
    malaysia, singapore, indonesia, philippines, israel, egypt, morocco, nigeria, ghana, kenya,
    ethiopia, south africa, uae, saudi arabia, qatar
    """.split(",")
)
