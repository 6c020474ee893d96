"""The shapes a clause or a value takes that decide what it says, whatever its words: a hedged
likeness ("is basically my religion"), a participle before a name ("has joined Kariuki"), what
befalls a thing ("being retaken Monday"), a name and where it is ("Dr Hughes at Park Lane
Surgery"), a date after "is on", the "has" in "Dean's joined". Read by ledger/extract.py."""

from __future__ import annotations

import re

from mnemex.ledger.patterns import DAYS, MONTHS
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
    rf"^(?P<name>(?:[{UPPER}][\w.'’&-]*\s+){{0,3}}[{UPPER}][\w.'’&-]*)\s+(?:at|in)\s+"
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
