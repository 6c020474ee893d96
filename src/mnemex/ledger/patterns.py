"""The grammar of plain statements: the regular expressions ledger/extract.py reads them with.

It walks a text with these: leads and tails that carry no value, the statement
patterns (possessives, change verbs, verbs that name their key, a last guess at any short verb
phrase before a name), negations, links between names, reported speech and headings. Each
pattern's second member is the key a verb implies ("?switch", "?use", "?any": a verb that names
none), or None when the pattern names its relation.
"""

from __future__ import annotations

import re

from mnemex.ledger import shorthand
from mnemex.text import SENTENCE_BREAK, UPPER

# A subject: capitalised words ("Alice", "Project Atlas") or an identifier with a hyphen, digit
# or dot ("svc-billing", "host-3"); "I" is the user.
NAME = shorthand.NAME

SUBJ = rf"(?P<subj>{NAME}|I)"

# Services are often named in lower case ("billing runs on host-3"): a single lowercase word
# leading a sentence names one only before a verb of hosting or dependency.
LOWER_ID = r"(?-i:[a-z][a-z0-9]{2,})"

IDENT = rf"(?:{NAME}|{LOWER_ID})"

SERVICE = rf"(?P<subj>{NAME}|(?!(?i:it|this|that|which|who|what|there)\b){LOWER_ID}|I)"

REL = r"(?P<rel>[A-Za-z][A-Za-z0-9\- ]{0,40}?)"

VAL = r"(?P<val>[^\s,;:][^,;:]{0,60}?)"

PRON = r"(?:his|her|their|its|my|our|the|your)"

FROM = r"(?:\s+from\s+(?P<prev>[^,;:]{1,60}?))?"

# "is", and the verbs that say the same of a current value.
BE = r"(?:is|are|was|has\s+been|have\s+been|remains|stays|has\s+become|became|is\s+still)"

NOW = (
    r"(?:\s+(?:now|currently|still|also|officially|finally|just|recently|mostly|mainly|"
    r"primarily|usually|generally|actually|lately))?"
)

MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)

DAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"

LEAD = re.compile(
    r"^(?:(?P<fix>actually|in fact|correction|to correct myself|sorry|oops|no wait|wait)"
    r"|update|fyi|(?:please\s+)?note(?:\s+that)?|keep in mind(?:\s+that)?|heads up|btw"
    r"|by the way|remember|remember that|for the record"
    r"|just so you know|quick update|news|these days|nowadays|now|currently|lately|recently"
    r"|(?:since|as of|starting|from|in|on|by)\s+[\w ]{1,20}?(?=,)"
    r"|(?:i|we)\s+(?:just\s+)?(?:learned|learnt|heard|noticed|found\s+out|realized|realised"
    r"|saw|read|was\s+told|were\s+told|gather)(?:\s+that)?"
    r"|(?:it\s+)?(?:turns\s+out|looks\s+like|seems\s+like|seems|appears)(?:\s+that)?"
    r"|apparently|evidently|so|ok|okay|also)\b[\s,:\-—]*",
    re.IGNORECASE,
)

# Adverbs of time that end many statements and are never part of a value.
TAIL = re.compile(
    r"(?:,\s*(?:as far as I know|I think|I believe|apparently|if I remember (?:correctly|right)"
    r"|it seems|I guess|probably|I'm told|I hear|so I hear|afaik|iirc"
    # a place within the value's place ("in Seattle, in Capitol Hill"): the value stays Seattle
    r"|(?:in|near|just outside|outside)\s+(?:the\s+)?"
    rf"(?-i:[{UPPER}])[\w'.-]*(?:\s+(?-i:[{UPPER}])[\w'.-]*){{0,3}})"
    # whom the value is shared with ("lives in Katowice with my stepdad Jerzy"): Katowice
    r"|\s+with\s+(?:my|his|her|their|our)\s+[^,;]{1,40}"
    r"|(?:\s+|,\s*)(?:now|nowadays|these days|lately|recently|again|instead|too|as well|"
    r"for good|after all|from now on|today|this week|this month|this year|since then|at the moment|"
    r"right now|full[- ]time|for now|going forward|permanently|anymore|any more|yesterday|"
    r"for (?:years|ages|a while|months|weeks|a long time|\d+ (?:years|months|weeks))|"
    r"(?:\d+|a|an|one|two|three|a\s+couple\s+of|a\s+few|few|several)\s+"
    r"(?:days?|weeks?|months?|years?)\s+ago|day\s+to\s+day|every\s+day|daily|"
    r"(?:over|during|at|by|since|from|on|in)\s+the\s+(?:weekend|holidays?|break|"
    r"(?:start|end|beginning|middle)\s+of\s+(?:the|this|last)\s+(?:week|month|year))|"
    r"(?:since|as of|starting|from|in|on|last|this|next|earlier)\s+(?:\w+\s?){0,3}?(?:\d{4}|"
    r"week|weekend|month|quarter|sprint|term|semester|year|night|morning|evening|spring|"
    rf"summer|autumn|fall|winter|{DAYS}|"
    rf"{MONTHS})))$",
    re.IGNORECASE,
)

NOT_PREV = re.compile(
    rf"(?:,\s*|\s+)(?:not|rather than|instead of|no longer|over(?=\s+(?-i:[{UPPER}])))\s+"
    r"(?P<prev>[^,;]{1,60}?)"
    r"(?:\s+(?:anymore|any more))?$",
    re.IGNORECASE,
)

AS_REL = re.compile(rf"\s+(?:as|for)\s+{PRON}?\s*(?P<rel>[a-z][a-z\- ]{{0,40}})$", re.I)
# "joined the platform team as a developer": a role, not the key of what was joined.
AS_ROLE = re.compile(r"^\s+as\s+an?\s+", re.I)
# "moved the demo to next Tuesday at 3pm": a time relative to the day it was said is an event's,
# never a lasting value (and would be wrong a week later).
RELATIVE_TIME = re.compile(
    r"^(?:next|this|tomorrow|tonight|today|later|in\s+(?:a|an|\d+|two|three)\s+(?:days?|weeks?|"
    r"months?))\b",
    re.I,
)
# "the team is hiring two developers": a verb going on, not a value of the key.
PROGRESSIVE = re.compile(
    r"^[a-z]+ing\s+(?:a|an|the|some|our|their|his|her|my|its|new|more|\d+|two|three|four|five)\b",
    re.I,
)

# Verbs that change a key without naming it, and the key they lean to when nothing else is known.
SWITCH = (
    r"(?:has\s+|have\s+)?(?:(?:switched|changed|moved|migrated|converted|gone|went|transitioned"
    r"|upgraded|downgraded|switch|change|move|migrate|set|updated|update)(?:\s+(?:over|on))?"
    r"|moved\s+(?:down|back|across|away))"  # "moved down to Manchester"
)

USE = (
    r"(?:uses|use|is using|am using|are using|has started using|started using|began using"
    r"|start using|has adopted|adopted|went with|relies on|rely on|prefers|prefer|"
    r"has been using|have been using|been using|has picked up|picked up|picked|is now on|"
    r"go with|goes with|going with|stick with|sticks with|stuck with|"
    r"went back to|goes back to|is back with|returned to|came back to|"
    r"chose|has chosen|settled on|is on|am on|runs|is running|works with|writes in"
    r"|swears by|is back to|am back to|is back on|am back on|has returned to)"
)

# A value that is a name and nothing else: capitalised words, digits, symbols ("HP EliteBook 840",
# "Code::Blocks", "Barry's"), not a phrase ("VK Music and pays for Qobuz").
NAMED = rf"(?-i:[{UPPER}][^\s,;:]*(?:\s+(?:[^\s,;:]*[{UPPER}0-9][^\s,;:]*|&|of|de|la|du|von|van))*)"

# A named thing someone owns ("my iPhone"), the owner before a name ("replaced my iPhone with
# a Pixel": the iPhone), and an "it" that is a clause's object ("and replaced it with").
OWNED = re.compile(rf"\b((?:my|his|her|their|our)\s+(?-i:[a-z])?{NAMED})")
OWNER = re.compile(rf"^(?:my|his|her|their|our)\s+(?=[^\s]*[{UPPER}0-9])")
IT_OBJECT = re.compile(r"^(?P<verb>[a-z]+)\s+it\b")

UNSURE = re.compile(
    r"\b(?:might|may|could|should|would|will|wants?|wanted|plans?|planning|considers?|"
    r"considering|tries|try|trying|tried|hopes?|hoping|wish(?:es)?|thinks?|thinking|maybe|"
    r"perhaps|wonders?|asked|needs?|likes?|loves?|hates?|met|visited|saw|emailed|called|"
    r"recommend(?:s|ed)?|suggest(?:s|ed)?|advis(?:es|ed)|propos(?:es|ed)|urg(?:es|ed))\b",
    re.IGNORECASE,
)

ISNT = r"(?:isn't|isn’t|is\s+not|wasn't|wasn’t|was\s+not|is\s+no\s+longer)"

ITS = r",?\s+(?:it's|it’s|it\s+is|it\s+was|but|now\s+it's|now)\s+"

PATTERNS: list[tuple[re.Pattern[str], str | None]] = [
    # "Correction: Jomo's notes app isn't Simplenote, it's Notability"
    (
        re.compile(rf"^{SUBJ}(?:'s|’s)\s+{REL}\s+{ISNT}\s+(?P<prev>[^,;]{{1,60}}?){ITS}{VAL}$"),
        None,
    ),
    (
        re.compile(rf"^(?P<my>my)\s+{REL}\s+{ISNT}\s+(?P<prev>[^,;]{{1,60}}?){ITS}{VAL}$", re.I),
        None,
    ),
    # "Alice's editor is Vim", "Alice's main db has changed from MySQL to Postgres"
    (re.compile(rf"^{SUBJ}(?:'s|’s)\s+{REL}\s+{BE}{NOW}\s+{VAL}$"), None),
    (
        re.compile(
            rf"^{SUBJ}(?:'s|’s)\s+{REL}\s+(?:has\s+been\s+|has\s+|was\s+|is\s+|got\s+)?"
            rf"(?:changed|switched|moved|updated|set|went|gone)(?:\s+over)?{FROM}\s+to\s+{VAL}$"
        ),
        None,
    ),
    (re.compile(rf"^{SUBJ}(?:'s|’s)\s+{REL}:\s*{VAL}$"), None),
    # "My boss is the head pastry chef, Henrique Valente": the person, after the role
    (
        re.compile(
            rf"^(?P<my>my)\s+{REL}\s+(?:is|are){NOW}\s+(?:the|our|a|an)\s+[a-z][\w -]{{0,40}},"
            rf"\s+(?P<val>{NAMED})$",
            re.I,
        ),
        None,
    ),
    # "My editor is Vim", "my primary database changed to Postgres"
    (re.compile(rf"^(?P<my>my)\s+{REL}\s+(?:is|are){NOW}\s+{VAL}$", re.I), None),
    (
        re.compile(
            rf"^(?P<my>my)\s+{REL}\s+(?:has\s+)?(?:changed|switched|moved|went|gone)"
            rf"{FROM}\s+to\s+{VAL}$",
            re.I,
        ),
        None,
    ),
    # "The deploy tool of Project Atlas is Argo CD"
    (re.compile(rf"^the\s+{REL}\s+(?:of|for)\s+{SUBJ}\s+(?:is|are){NOW}\s+{VAL}$", re.I), None),
    # ... and as a note writes it: "Ops lead for Heron is Marta Kowalski", a name after "for"
    # and a name or a code for the value ("Slack channel for Orion is #orion-eng")
    (
        re.compile(
            rf"^(?=[A-Z]){REL}\s+(?:of|for)\s+{SUBJ}\s+(?:is|are){NOW}\s+"
            rf"(?=[{UPPER}#@]|[a-z][\w.]*[-_\d]){VAL}$"
        ),
        None,
    ),
    # "Vim is Alice's editor", "Helix is now my editor"
    (re.compile(rf"^{VAL}\s+is{NOW}\s+{SUBJ}(?:'s|’s)\s+(?:new\s+)?{REL}$"), None),
    (
        re.compile(
            r"^(?!(?:what|when|where|which|who|whose|why|how|here|there)\b)"
            rf"{VAL}\s+is{NOW}\s+(?P<my>my|our)\s+(?:new\s+)?{REL}$",
            re.I,
        ),
        None,
    ),
    # "Neurologist switched me from sumatriptan to rizatriptan", "they moved me over to Leeds":
    # someone else makes the change, the writer's value changes.
    (
        re.compile(
            r"^(?:[\w'’.-]+\s+){1,3}?(?:switched|moved|changed|transferred|put)\s+(?P<my>me)"
            rf"(?:\s+over)?{FROM}\s+(?:to|onto)\s+{VAL}$",
            re.I,
        ),
        "?switch",
    ),
    # "Moved Heron's CI over to Buildkite", "we migrated Atlas's queue to Kafka": the named
    # owner's key changes, whoever made the change
    (
        re.compile(
            rf"^(?:(?:I|we|{NAMED}){NOW}\s+)?(?i:{SWITCH}|swapped|transferred)\s+"
            rf"(?P<subj>{NAMED})['’]s\s+{REL}(?:\s+over)?{FROM}\s+(?:to|onto)\s+{VAL}$"
        ),
        None,
    ),
    # "Alice switched her editor to Helix", "Alice moved their database from X to Y"
    (
        re.compile(
            rf"^{SUBJ}{NOW}\s+{SWITCH}\s+(?:{PRON}\s+)?{REL}(?:\s+over)?{FROM}\s+to\s+{VAL}$"
        ),
        None,
    ),
    # "Alice lives in Lisbon", "Alice works at Acme": verbs that name their key.
    (
        re.compile(
            rf"^{SUBJ}{NOW}\s+(?:lives|live|is living|resides|is based|am based)\s+in\s+"
            # "in Jalatlaco, Oaxaca city", "in Partick, Glasgow": the town is the last place
            rf"(?:(?P<within>[^,;:]{{1,40}}),\s+(?=(?-i:[{UPPER}])))?{VAL}(?:\s+(?-i:city|town))?$"
        ),
        "city",
    ),
    (
        re.compile(
            rf"^{SUBJ}{NOW}\s+(?:works|work|is working|am working)"
            # "works nights at", "works part-time for": when or how, then where
            r"(?:\s+(?:nights|days|weekends|shifts|evenings|mornings|remotely|part[- ]time"
            r"|full[- ]time|freelance|mostly))?"
            rf"\s+(?:at|for)\s+{VAL}$"
        ),
        "employer",
    ),
    (re.compile(rf"^{SUBJ}{NOW}\s+(?:has\s+)?joined\s+{VAL}$"), "employer"),
    # "Tomás got a new job at RTP as a mixing engineer", "I've taken a job with Ørsted"
    (
        re.compile(
            rf"^{SUBJ}(?:['’]s(?=\s))?{NOW}\s+(?:has\s+|have\s+|is\s+|am\s+)?"
            r"(?:got|gotten|landed|took|taken|taking|accepted|started)\s+(?:a\s+)?(?:new\s+)?job"
            # "a job teaching science at Highland Park Middle School": what the job is, then where
            rf"(?:\s+[a-z]+ing(?:\s+[a-z]+){{0,2}})?\s+(?:at|with)\s+{VAL}$"
        ),
        "employer",
    ),
    # "Callum got promoted to head of sound": the role the subject holds from now on
    (
        re.compile(
            rf"^{SUBJ}{NOW}\s+(?:got|was|has\s+been|have\s+been|am|is|['’]s\s+been)\s+"
            rf"promoted\s+to\s+{VAL}(?:\s+at\s+[^,;]+)?$"
        ),
        "role",
    ),
    # "I report to the general counsel, Ewa Borkowska": the person, after the role
    (
        re.compile(
            rf"^{SUBJ}{NOW}\s+(?:reports|report|am reporting|is reporting)\s+(?:directly\s+)?to"
            rf"\s+(?:(?:the|my|our|a|an)\s+[\w -]{{1,40}},\s+)?{VAL}$"
        ),
        "manager",
    ),
    # "Talia and I got engaged", "I'm engaged to Sam": the partner's new standing
    (
        re.compile(
            rf"^(?P<val>{NAMED})\s+and\s+(?P<my>I)(?:\s+just)?\s+(?:got|are|have\s+got)\s+"
            r"engaged$",
        ),
        "fiance",
    ),
    (
        re.compile(rf"^(?P<my>I)(?:\s+just)?(?:\s+got|\s+am|['’]m)\s+engaged\s+to\s+{VAL}$"),
        "fiance",
    ),
    # "First day at Vistula Freight", "started at Acme on Monday": a new employer
    (
        re.compile(rf"^(?P<my>(?:my\s+)?first\s+(?:day|week|shift)\s+(?:at|with))\s+{VAL}$", re.I),
        "employer",
    ),
    # "Found a flat in Żoliborz", "got the keys to the house in Heaton Moor, Stockport": a home
    (
        re.compile(
            rf"^(?:(?:we|I)(?:['’]ve)?{NOW}\s+)?(?P<my>found|bought|rented|got\s+the\s+keys\s+to"
            r"|moved\s+into|signed\s+(?:the|a)\s+lease\s+(?:on|for)|closed\s+on)\s+"
            r"(?:a|an|the|our|my)\s+"
            r"(?:new\s+)?(?:\w+\s+)?(?:flat|house|apartment|place|home|condo|cottage)\s+in\s+"
            # "in Heaton Moor, Stockport": the town is the last place named
            rf"(?:[^,;:]{{1,40}},\s+(?=(?-i:[{UPPER}])))?{VAL}$",
            re.I,
        ),
        "?move",  # a town or a neighbourhood: the subject's own place keys decide (keyguess)
    ),
    (
        re.compile(
            rf"^{SERVICE}{NOW}\s+(?:runs|is running|is hosted|is deployed|lives)\s+on\s+{VAL}$"
        ),
        "runs_on",
    ),
    (
        re.compile(rf"^{SUBJ}{NOW}\s+is\s+(?:written|implemented|built)\s+in\s+{VAL}$"),
        "language",
    ),
    (re.compile(rf"^{SUBJ}{NOW}\s+is\s+(?:owned|maintained|led)\s+by\s+{VAL}$"), "owner"),
    (re.compile(rf"^{SUBJ}{NOW}\s+(?:codes|writes code|programs)\s+in\s+{VAL}$"), "language"),
    # "I teach chemistry at Oakwood Academy": where the teacher works
    (
        re.compile(
            rf"^{SUBJ}{NOW}\s+teach(?:es)?\s+[a-zA-Z0-9 -]{{1,30}}?\s+at\s+(?P<val>{NAMED})$"
        ),
        "employer",
    ),
    # "Alice switched to Helix", "I moved to Berlin", "Bob now uses Postgres"
    (re.compile(rf"^{SUBJ}{NOW}\s+{SWITCH}{FROM}\s+(?:to|over\s+to)\s+{VAL}$"), "?switch"),
    (re.compile(rf"^{SUBJ}{NOW}\s+(?:has\s+)?relocated{FROM}\s+to\s+{VAL}$"), "city"),
    (re.compile(rf"^{SUBJ}{NOW}\s+{USE}\s+{VAL}$"), "?use"),
    (  # "Bob has Emacs as his editor": "has" only with the key named; not "has started at
        # Stripe as a designer", a verb's perfect
        re.compile(
            rf"^{SUBJ}{NOW}\s+(?:has|have)\s+(?![a-z]+ed\s){VAL}\s+as\s+(?:{PRON}\s+)?{REL}$"
        ),
        None,
    ),
    (
        re.compile(
            rf"^{SUBJ}{NOW}\s+(?:has\s+)?(?:gave up(?:\s+on)?|given up(?:\s+on)?|ditched|"
            rf"dropped|left|traded(?:\s+in)?|swapped|"
            rf"exchanged|substituted)\s+"
            rf"(?P<prev>[^,;]{{1,60}}?)\s+(?:for|in favou?r of)\s+{VAL}$"
        ),
        "?use",
    ),
    (
        re.compile(rf"^(?i:for|as)\s+{PRON}\s+{REL},?\s+{SUBJ}{NOW}\s+{USE}\s+{VAL}$"),
        None,
    ),
    (re.compile(rf"^{SUBJ}{NOW}\s+replaced\s+(?P<prev>[^,;]{{1,60}}?)\s+with\s+{VAL}$"), "?use"),
    # Last: any short verb phrase before a name ("I bank with Ally", "Alice drives a Volvo",
    # "Bob's playlists live on Tidal"): the key is guessed from the value (ledger/keyguess.py).
    (
        re.compile(
            rf"^{SUBJ}(?:(?:'s|’s)\s+[a-z]+)?{NOW}\s+(?:[a-z]+\s+){{1,4}}?"
            rf"(?:(?:on|in|at|with|for|into)\s+)?(?:(?:a|an|the|my|his|her|their)\s+)?"
            rf"(?P<val>{NAMED})$"
        ),
        "?any",
    ),
]


# Verbs that link two names without a single current value: only the entities are kept.
LINKS = re.compile(
    rf"^{SERVICE}\s+(?:depends|relies)\s+on\s+(?P<val>{IDENT})$|"
    rf"^(?P<subj2>{NAME}|{LOWER_ID})\s+(?:calls|talks\s+to|reads\s+from|writes\s+to|needs"
    rf"|requires|(?:sends|forwards|routes|proxies|delegates|hands|passes|pushes)"
    rf"(?:\s+[a-z]+){{0,4}}\s+to)\s+(?P<val2>{IDENT})$"
)

# "Alice told me (that) ...": the rest is a statement whose pronouns point at Alice.
REPORTED = re.compile(
    rf"^(?:(?P<speaker>{NAME})\s+(?:told\s+(?:me|us|the\s+team|everyone)|mentioned|said|says"
    r"|reported|explained|noted|confirmed|wrote|shared|let\s+(?:me|us)\s+know|announced"
    r"|pointed\s+out|admitted|clarified)(?:\s+that)?|(?i:according\s+to|per)\s+"
    rf"(?P<source>{NAME}))[\s,:]+(?P<rest>.+)$"
)

# A lead that frames a statement without naming anyone ("Noting down that Priya's dentist is
# ...", "Just so you know that my ..."): the statement is what follows it.
FRAMING = re.compile(
    r"^[A-Za-z']+(?:\s+[a-z']+){0,4}?(?<!\bso)(?<!\bsuch)(?<!\bnow)(?<!\bexcept)\s+that\s+"
    rf"(?P<rest>(?:[{UPPER}]|my\b|our\b).+)$"
)

ABOUT = re.compile(
    rf"^(?i:update|news|note|fyi|heads\s+up|quick\s+update)\s+(?i:on|about|from|re|regarding)"
    rf"\s+(?P<about>{NAME})\s*[:,\-—–]+\s*(?P<rest>.+)$"
)

PRONOUN_SUBJECT = re.compile(r"^(?:he|she|they)\b", re.IGNORECASE)

PRONOUN_OWNER = re.compile(r"^(?:his|her|their)\s+", re.IGNORECASE)

# Adverbs that carry no value ("is now using", "mostly codes in") and verbs that only frame
# another ("decided to go with", "will use"): dropped before the patterns read a clause.
ADVERBS = re.compile(
    r"\s+(?:now|currently|still|also|just|finally|officially|recently|mostly|mainly|primarily"
    r"|actually|really|already|lately|usually|generally|basically|happily|reluctantly|fully"
    r"|completely|totally|entirely|permanently|quietly|eventually)(?=\s)",
    re.IGNORECASE,
)

FRAMES = re.compile(
    r"\s+(?:has\s+|have\s+)?(?:decided|chose|chosen|opted|started|began|wants|wanted|plans"
    r"|planned|is\s+going|are\s+going|am\s+going|intends|agreed|went\s+ahead)\s+to(?=\s)"
    r"|\s+(?:will|would|'ll)(?=\s)",
    re.IGNORECASE,
)

I_AM = re.compile(r"\bI['’]m\b")  # "I'm using Helix": the patterns read "I am"

I_HAVE = re.compile(r"\bI['’]ve\b")

# "We moved to Leeds", "My wife and I rent in Headingley": the writer's household speaks for
# the writer (read-time resolution counts "we" and "our" as the writer's too); "verb" is what
# follows, to agree with "I". A named partner stays ("Talia and I got engaged": a fiance).
WE = re.compile(
    r"^(?i:(?:my|our)\s+[a-z]+(?:\s+[a-z]+)?\s+and\s+I|we"
    r"|(?:my|our)\s+(?:whole\s+)?(?:family|household)(?!\s+(?:is|are|was|were)\b))"
    r"(?P<verb>['’](?:re|ve|ll|d)\b|\s+(?:are|were)\b|(?=\s))"
)
OUR = re.compile(r"^(?i:our)\s+(?=[a-z])")  # "Our rent is ...": the writer's
HAVE_GOT = re.compile(r"\b(have|has)\s+got\b(?!\s+to\b)")  # "I've got Drone CI": I have Drone CI

# A heading before the statement ("Heads up: Malik joined ..."): never its subject.
HEADING = re.compile(
    r"^(?i:heads\s+up|fyi|reminder|note|quick\s+note|update|quick\s+update|news|btw|psa)"
    r"\s*[:\-—–]\s+"
)

SENTENCES = SENTENCE_BREAK  # not after "Dr." or an initial

# "Alice uses Vim and lives in Lisbon": a second clause that starts with a verb shares the subject.
AND_VERB = re.compile(
    r",?\s+(?:and|but)\s+(?=(?:now\s+|also\s+|still\s+)?(?:lives|works|uses|prefers|switched|"
    r"moved|runs|is|has|joined|reports|started|relocated|codes|writes|went|signed|bought|pays|"
    r"got|drives|trains|orders|picked|chose|settled|replaced)\b)"
)

SUBJECT_HEAD = re.compile(rf"^(?:(?i:actually|so|and),?\s+)?(?:{NAME}|I)(?=\s|['’]s\s)")

PRONOUNS = frozenset(
    "it he she they we i you this that there these those its his her their our my your".split()
)

# A value is a name or a noun phrase, never a phrase of place or manner ("runs in the Diadora").
LEADING_PREPOSITIONS = frozenset("in on at into onto to from with by for of about".split())

# The particle of a phrasal verb after its object ("traded the Corolla in", "swapped X out").
PARTICLES = frozenset("out off in up over away back down".split())

VALUE_STOP = frozenset(
    "it that this them him her something anything nothing one which who whom whose what".split()
)

RELATION_STOP = frozenset(
    "name thing idea point problem question reason over back on it them that this up down out "
    "off away".split()
)

# Words a relation name never starts with ("went from Oslo to Rome" names no key "from_oslo").
NOT_KEY = frozenset("from to over back on in at with for into".split())

# A capitalised verb that opens a note, followed by its object or particle ("Dropped my iPhone
# ...", "Switched to ..."): no name ("Meiling moved", "Starling is" are names).
OPENING_VERB = re.compile(
    r"^(?:[A-Z][a-z]{2,}ed|[A-Z][a-z]{3,}ing|Ended|Sold|Bought|Got|Took|Made|Left|Quit|Gave|"
    r"Found|Lost|Broke|Sent|Spent|Drove|Began|Became)\s+"
    r"(?:my|our|the|a|an|it|to|from|over|up|off|out|back|into|with|in)\b"
)

# A value that is a clause: a past-tense verb and its object ("accepted an offer from X").
CLAUSE = re.compile(
    r"^[a-z]{3,}ed\s+(?:a|an|the|my|his|her|their|our|its|it|them|me|us)\b"
    # "my body clock is destroyed": a state the thing is in, not a value it holds
    r"|^[a-z]{3,}ed(?:\s+[a-z]+)*$"  # "the school is closed tomorrow"
    # "her mother is very happy": how someone is, not who or what
    r"|^(?:very|so|really|quite|pretty|super|extremely|rather|fairly|incredibly|totally)\s"
    # "the team is great", "our walks are now chaos": how it is going, not what it is
    r"|^(?:great|good|fine|ok|okay|awful|terrible|amazing|brilliant|busy|hectic|boring|chaos"
    r"|chaotic|lovely|nice|hard|tough|crazy|mad|quiet|rubbish|grim|fun|stressful|exhausting"
    r"|due|short|long|late|early|ready|done|over|broken|dead|slow|fast|full|empty|down|up|off|out"
    r"|a\s+(?:nightmare|mess|disaster|joke))(?:\s+(?:for|to)\b.*)?$"
)
# Words after which a relation phrase says where or when, not what ("manager there", "manager at
# Corvid", "manager from Monday" are the key "manager").
RELATION_CUT = frozenset("at from in on with since starting until till there here".split())

# Time words that creep into a relation phrase ("favourite editor these days") or lead it.
RELATION_TIME = re.compile(
    r"\b(?:these days|nowadays|now|currently|at the moment|lately|right now|today)\b|"
    r"^(?:new|current|present|latest)\s+",
    re.IGNORECASE,
)

SO = re.compile(rf",\s+so\s+(?=(?:his|her|their|my|our|I|he|she|they|we|it|[{UPPER}]\w*)\b)")
# A comma splice: a second clause with a subject and a verb of its own ("Switched to Neovim,
# VS Code was getting slow"); without the split the first clause's value runs into it.
SPLICE = re.compile(
    # ", apparently it works faster": a comment on what was said, after a sentence adverb
    r",\s+(?:(?:apparently|honestly|luckily|sadly|thankfully|hopefully|frankly|basically)\s+)?"
    rf"(?=(?:[{UPPER}][\w.+-]*(?:\s+[{UPPER}][\w.+-]*)*|it|he|she|they|we)\s+"
    r"(?:is|was|were|are|am|has|had|have|kept|got)\b"
    r"|(?i:he|she|they|we|I)['’](?:s|re|ve|m|d|ll)\b"  # "..., we've been together"
    r"|(?:it|he|she|they|we)\s+[a-z]{3,}(?:ed|s)\b"
    r"|(?:they|we|you)\s+[a-z]{2,}\b"  # "..., they send scripts every week"
    rf"|[{UPPER}][\w'’-]+\s+(?:left|quit|retired|resigned)\b"  # "..., Sunita left for Monzo"
    # "..., Obsidian sync got too pricey": a name, the thing of it it speaks of, and a verb
    rf"|[{UPPER}][\w.+-]*(?:\s+[{UPPER}][\w.+-]*)*\s+[a-z]{{3,}}\s+"
    r"(?:is|was|were|are|has|had|got|kept|went|became)\b"
    # ", which I love", ", leads the ecosystem group": a comment on the value just named
    r"|(?:which|who|whom|whose)\b"
    r"|[a-z]{3,}s\s+(?:the|a|an|my|his|her|their|our|to|in|on|at|for|with)\b"
    r"|(?:he|she|they|we)\s+(?:came|went|said|told|"
    r"left|took|made|began|knew|thought|just|also|still|never|finally)\b)"  # ", he came over"
)
# A note with no subject that opens on a change verb is the writer's ("Switched to Neovim").
DIARY = re.compile(
    r"^(?=(?:(?:finally|just|recently|eventually|also|anyway)\s+)?"
    r"(?:got\s+(?=(?:moved|switched|transferred)\b))?"
    r"(?:switched|changed|moved|migrated|converted|upgraded|downgraded|transitioned|"
    r"transferred)\s+(?:over\s+)?(?:to|from|back)\b"
    # "Dropped memoQ for Phrase TMS", "Swapped the Fiesta for a Yaris": one thing for another
    r"|(?:ditched|dropped|swapped|traded|exchanged|gave\s+up)\s+[^,;]{1,60}?\s+"
    rf"(?:for|in\s+favou?r\s+of)\s+(?:the\s+|a\s+|an\s+)?(?-i:\w*[{UPPER}])"
    rf"|replaced\s+[^,;]{{1,60}}?\s+with\s+(?:the\s+|a\s+|an\s+)?(?-i:\w*[{UPPER}])"
    # "Gave the Focus to my brother": a thing handed on
    r"|(?:sold|gave|passed)\s+(?:the|my|our)\s+[^,;]{1,40}?\s+(?:away|on|to)\b)",
    re.IGNORECASE,
)

LABEL = re.compile(r"^[A-Za-z][\w ]{0,24}:\s+(?=\S)")  # "Quick note: ...", "Status: ..."

# Capitalised words that start sentences without naming anyone.
NOT_NAMES = frozenset(
    """
    he she they it we you this that these those there the a an my our your his her their its
    what which who where when why how if then so but and or also here today yesterday everyone
    someone nobody somebody no all both each every most many several please scratch update quick
    correction
    """.split()
)

GROUP = re.compile(r"^(?P<name>.+?)\s+(?:team|squad)$", re.IGNORECASE)

# The change a verb that names its key stands for, should its key yield to the value's kind.
VERB_OF_KEY = {"city": "move", "employer": "join"}

# "My sister Carmen lives in Austin": a relationship noun before a name only introduces the
# subject; the statement is about Carmen. A closed class (kin, household, work, care, pets), so
# "My team uses Jira" and "My editor is Helix" are left alone.
PEOPLE_NOUNS = (
    r"sister|brother|sibling|mum|mom|mother|dad|father|parent|wife|husband|partner|spouse"
    r"|boyfriend|girlfriend|fianc[eé]e?|son|daughter|kid|child|cousin|aunt|uncle|niece|nephew"
    r"|grand(?:ma|pa|mother|father|son|daughter)|(?:mother|father|sister|brother)[- ]in[- ]law"
    r"|friend|colleague|co-?worker|teammate|manager|boss|lead|mentor|intern|report|neighbou?r"
    r"|flatmate|roommate|housemate|landlord|landlady|doctor|dentist|gp|therapist|vet|cat|dog"
    r"|puppy|kitten|pet"
)
APPOSITIVE = re.compile(
    r"^(?i:my|our)\s+(?:(?i:new|old|best|little|big|older|younger|eldest|oldest|youngest"
    rf"|baby|twin|acting|former|current)\s+)?(?i:{PEOPLE_NOUNS}),?\s+(?=(?-i:[{UPPER}])\w)"
)

# A value that is a date or a bare number ("the 30th", "14 March", "4"): a value, never a node.
WHEN = re.compile(
    rf"^(?:\d[\d.,:/-]*(?:st|nd|rd|th)?(?:\s+(?:of\s+)?(?:{MONTHS}))?|(?:{MONTHS})\s+\d{{1,2}}"
    rf"(?:st|nd|rd|th)?|{DAYS})$",
    re.IGNORECASE,
)
