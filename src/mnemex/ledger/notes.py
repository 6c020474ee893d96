"""How people write notes of themselves and the people in their life: a name given ("Mum's
name is Heike"), a note with no "my" ("Best friend is Achieng", "Diet is vegetarian"), a
label as the key ("Manager: Priya Shah"), the one partner or parent named after the word ("my
partner Callum"), an aside after a value, someone named as what they are to the writer. Read
by ledger/extract.py and ledger/anchor.py."""

from __future__ import annotations

import re

from mnemex.ledger.patterns import NAMED, PEOPLE_NOUNS
from mnemex.text import UPPER

# "Mum's name is Heike", "my dog's name is Biscuit": who the person (or pet) is, by name; "she"
# in what follows is Heike.
NAMING = re.compile(
    rf"^(?:(?:my|our)\s+)?(?P<who>{PEOPLE_NOUNS})(?:['’]s\s+(?:first\s+|full\s+)?name\s+is"
    rf"|\s+is\s+(?:called|named))\s+(?P<name>{NAMED})$",  # "our cat is called Mruczek"
    re.IGNORECASE,
)

# "Manager: Priya Shah", "new boss - Elin Strand", "Allergies: penicillin": a note's label is
# the key when it is a person's place in the writer's life or a key people keep of themselves.
_NOTE_KEYS = (
    r"allerg(?:y|ies)|medications?|meds|diet|car|bike|birthday|anniversary|dentist|doctor|vet"
    r"|phone|email|address|employer|job|role|job title|title|team|school|gym|editor|laptop|city"
    r"|hometown|neighbou?rhood|commute|pronouns|blood type|shoe size|dress size|insurance"
)
# "Best friend is Achieng Odhiambo", "Manager is Grace Liu", "New ward manager is Marcus
# Fenwick": a note that leaves out its "my" (one word may say what kind: never an owner's).
OWNERLESS = re.compile(
    rf"^(?=(?:(?:best|closest|oldest|old|new|childhood|current|older|younger|little|big)\s+)?"
    r"(?:(?!(?:his|her|their|its|the|a|an|this|that|these|those|your|my|our|whose|which|what"
    r"|who|every|each|any|no|some)\s)[a-z]+\s+)?"
    rf"(?:{PEOPLE_NOUNS})\s+(?:is|are)\s+(?-i:[{UPPER}])"
    # "Son Kai goes to ...", "Husband Dev works nights ...": the kin word, then the name
    rf"|(?:{PEOPLE_NOUNS})\s+(?-i:[{UPPER}][\w-]+)\s+(?-i:[a-z])"
    # "Diet is vegetarian these days", "Commute is now the metro": a key people keep of
    # themselves, no one called Diet
    rf"|(?=(?-i:[A-Z]))(?:{_NOTE_KEYS})\s+(?:is|are)\s)",
    re.IGNORECASE,
)

# "My partner Callum ...", "my mam, Siobhán, ...": who holds a place in the writer's life that
# one person holds at a time (not a sister or a friend: there may be several).
ONE_OF_A_KIND = re.compile(
    r"^(?i:my|our)\s+(?:(?i:new|current)\s+)?"
    r"(?P<who>(?i:mum|mom|mam|mother|dad|father|wife|husband|partner|spouse|boyfriend|girlfriend"
    r"|fianc[eé]e?|manager|boss)),?\s+"
    rf"(?P<name>(?-i:[{UPPER}])[\w'’-]+(?:\s+(?-i:[{UPPER}])[\w'’-]+)?)(?=[\s,.!?;:]|$)"
)

KEYED_NOTE = re.compile(
    r"^(?:(?:new|current|my|our)\s+)?(?P<key>(?:[a-z]+\s+)?(?:"
    rf"{PEOPLE_NOUNS}|{_NOTE_KEYS}))\s*(?::|\s[-–—])\s+(?=\S)",
    re.IGNORECASE,
)

# An aside on a value in lowercase ("Dra. Paola Reyes, head of exotics", "Vim, which I love");
# not a clause of its own (", it's a Pixel 8", ", not Munich", ", in the Mueller area").
ASIDE = re.compile(
    r",\s+(?!(?:it|it's|it’s|its|he|she|they|we|you|this|that|there|not|but|and|or|so|now"
    r"|then|never|no|in|at|on|near|with|from|to|for|by|of|off|into|onto)\b)[a-z]"
    # "I use memoQ, Trados only when a client insists": another name kept for a narrower use
    rf"|,\s+[{UPPER}][\w.+-]*(?:\s+[{UPPER}][\w.+-]*)*\s+(?:only|just|mostly|occasionally"
    r"|sometimes|when|if)\s"
)

# Someone named as what they are to the writer ("sold the Tsuru to my cousin Beto"): a person,
# never the value of a thing's key.
PERSON_BEFORE = re.compile(
    rf"\b(?:my|our|his|her|their)\s+(?:[\w-]+\s+)?(?i:{PEOPLE_NOUNS}),?\s*$", re.IGNORECASE
)
