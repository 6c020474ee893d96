"""Statement patterns: (subject, relation, value) triples from plain sentences, with no model.

`extract_facts` is the one entry point; the analysis layer can call it on any message. A triple
whose relation is None came from a verb that does not say which key it changes ("Alice switched
to Neovim"): the ledger infers the key from what it already knows (see ledger/infer.py).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from mnemex.ledger import shorthand
from mnemex.ledger.relations import normalize_relation

USER = "user"  # the subject of first-person statements ("I use Vim", "my editor is Vim")


@dataclass(frozen=True, slots=True)
class Triple:
    """One fact stated by a sentence; `negated` retracts `value` instead of asserting it."""

    subject: str
    relation: str | None
    value: str
    statement: str
    temporal_form: str = "ongoing"
    correction: bool = False
    negated: bool = False
    previous: str | None = None  # "switched from Vim to Helix": the value it replaces
    hint: str | None = None  # the key a verb suggests when nothing better is known
    implied: bool = False  # the relation comes from the verb ("codes in"), not a named key
    confidence: float = 0.9
    # The class of a change verb: "move", "join", "switch", "use", or "any" (a verb nothing is
    # known of, "Bob drives a Volvo": its key is taken only when the guess is sure).
    verb: str | None = None


@dataclass(slots=True)
class Extraction:
    """Triples and the entity names a text mentions (subjects, objects, dependency targets)."""

    triples: list[Triple] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    clauses: int = 0  # clauses read; a text is all facts when every clause gave a triple
    unread: list[tuple[str, str]] = field(
        default_factory=list
    )  # (clause, statement) no pattern read


# A subject: capitalised words ("Alice", "Project Atlas") or an identifier with a hyphen, digit
# or dot ("svc-billing", "host-3"); "I" is the user.
_NAME = shorthand.NAME
_SUBJ = rf"(?P<subj>{_NAME}|I)"
# Services are often named in lower case ("billing runs on host-3"): a single lowercase word
# leading a sentence names one only before a verb of hosting or dependency.
_LOWER_ID = r"(?-i:[a-z][a-z0-9]{2,})"
_IDENT = rf"(?:{_NAME}|{_LOWER_ID})"
_SERVICE = rf"(?P<subj>{_NAME}|(?!(?i:it|this|that|which|who|what|there)\b){_LOWER_ID}|I)"
_REL = r"(?P<rel>[A-Za-z][A-Za-z0-9\- ]{0,40}?)"
_VAL = r"(?P<val>[^\s,;:][^,;:]{0,60}?)"
_PRON = r"(?:his|her|their|its|my|our|the|your)"
_FROM = r"(?:\s+from\s+(?P<prev>[^,;:]{1,60}?))?"
# "is", and the verbs that say the same of a current value.
_BE = r"(?:is|are|was|has\s+been|have\s+been|remains|stays|has\s+become|became|is\s+still)"
_NOW = (
    r"(?:\s+(?:now|currently|still|also|officially|finally|just|recently|mostly|mainly|"
    r"primarily|usually|generally|actually|lately))?"
)

_MONTHS = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
_DAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_LEAD = re.compile(
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
_TAIL = re.compile(
    r"(?:,\s*(?:as far as I know|I think|I believe|apparently|if I remember (?:correctly|right)"
    r"|it seems|I guess|probably|I'm told|I hear|so I hear|afaik|iirc)"
    r"|(?:\s+|,\s*)(?:now|nowadays|these days|lately|recently|again|instead|too|as well|"
    r"for good|from now on|today|this week|this month|this year|since then|at the moment|"
    r"right now|full[- ]time|for now|going forward|permanently|anymore|any more|yesterday|"
    r"for (?:years|ages|a while|months|weeks|a long time|\d+ (?:years|months|weeks))|"
    r"(?:\d+|a|an|one|two|three|a\s+couple\s+of|a\s+few|few|several)\s+"
    r"(?:days?|weeks?|months?|years?)\s+ago|day\s+to\s+day|every\s+day|daily|"
    r"(?:over|during|at|by|since|from|on|in)\s+the\s+(?:weekend|holidays?|break|"
    r"(?:start|end|beginning|middle)\s+of\s+(?:the|this|last)\s+(?:week|month|year))|"
    r"(?:since|as of|starting|from|in|on|last|this|next|earlier)\s+(?:\w+\s?){0,3}?(?:\d{4}|"
    rf"week|month|year|spring|summer|autumn|fall|winter|{_DAYS}|{_MONTHS})))$",
    re.IGNORECASE,
)
_NOT_PREV = re.compile(
    r"(?:,\s*|\s+)(?:not|rather than|instead of|no longer|over(?=\s+(?-i:[A-Z])))\s+"
    r"(?P<prev>[^,;]{1,60}?)"
    r"(?:\s+(?:anymore|any more))?$",
    re.IGNORECASE,
)
_AS_REL = re.compile(rf"\s+(?:as|for)\s+{_PRON}?\s*(?P<rel>[a-z][a-z\- ]{{0,40}})$", re.I)

# Verbs that change a key without naming it, and the key they lean to when nothing else is known.
_SWITCH = (
    r"(?:has\s+|have\s+)?(?:switched|changed|moved|migrated|converted|gone|went|transitioned"
    r"|upgraded|downgraded|switch|change|move|migrate|set|updated|update)(?:\s+(?:over|on))?"
)
_USE = (
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
_NAMED = r"(?-i:[A-Z][^\s,;:]*(?:\s+(?:[^\s,;:]*[A-Z0-9][^\s,;:]*|&|of|de|la|du|von|van))*)"
_UNSURE = re.compile(
    r"\b(?:might|may|could|should|would|will|wants?|wanted|plans?|planning|considers?|"
    r"considering|tries|try|trying|tried|hopes?|hoping|wish(?:es)?|thinks?|thinking|maybe|"
    r"perhaps|wonders?|asked|needs?|likes?|loves?|hates?|met|visited|saw|emailed|called)\b",
    re.IGNORECASE,
)
_ISNT = r"(?:isn't|isn’t|is\s+not|wasn't|wasn’t|was\s+not|is\s+no\s+longer)"
_ITS = r",?\s+(?:it's|it’s|it\s+is|it\s+was|but|now\s+it's|now)\s+"
_PATTERNS: list[tuple[re.Pattern[str], str | None]] = [
    # "Correction: Jomo's notes app isn't Simplenote, it's Notability"
    (
        re.compile(
            rf"^{_SUBJ}(?:'s|’s)\s+{_REL}\s+{_ISNT}\s+(?P<prev>[^,;]{{1,60}}?){_ITS}{_VAL}$"
        ),
        None,
    ),
    (
        re.compile(
            rf"^(?P<my>my)\s+{_REL}\s+{_ISNT}\s+(?P<prev>[^,;]{{1,60}}?){_ITS}{_VAL}$", re.I
        ),
        None,
    ),
    # "Alice's editor is Vim", "Alice's main db has changed from MySQL to Postgres"
    (re.compile(rf"^{_SUBJ}(?:'s|’s)\s+{_REL}\s+{_BE}{_NOW}\s+{_VAL}$"), None),
    (
        re.compile(
            rf"^{_SUBJ}(?:'s|’s)\s+{_REL}\s+(?:has\s+been\s+|has\s+|was\s+|is\s+|got\s+)?"
            rf"(?:changed|switched|moved|updated|set|went|gone)(?:\s+over)?{_FROM}\s+to\s+{_VAL}$"
        ),
        None,
    ),
    (re.compile(rf"^{_SUBJ}(?:'s|’s)\s+{_REL}:\s*{_VAL}$"), None),
    # "My editor is Vim", "my primary database changed to Postgres"
    (re.compile(rf"^(?P<my>my)\s+{_REL}\s+(?:is|are){_NOW}\s+{_VAL}$", re.I), None),
    (
        re.compile(
            rf"^(?P<my>my)\s+{_REL}\s+(?:has\s+)?(?:changed|switched|moved|went|gone)"
            rf"{_FROM}\s+to\s+{_VAL}$",
            re.I,
        ),
        None,
    ),
    # "The deploy tool of Project Atlas is Argo CD"
    (re.compile(rf"^the\s+{_REL}\s+(?:of|for)\s+{_SUBJ}\s+(?:is|are){_NOW}\s+{_VAL}$", re.I), None),
    # "Vim is Alice's editor", "Helix is now my editor"
    (re.compile(rf"^{_VAL}\s+is{_NOW}\s+{_SUBJ}(?:'s|’s)\s+(?:new\s+)?{_REL}$"), None),
    (re.compile(rf"^{_VAL}\s+is{_NOW}\s+(?P<my>my)\s+(?:new\s+)?{_REL}$", re.I), None),
    # "Alice switched her editor to Helix", "Alice moved their database from X to Y"
    (
        re.compile(
            rf"^{_SUBJ}{_NOW}\s+{_SWITCH}\s+(?:{_PRON}\s+)?{_REL}(?:\s+over)?{_FROM}\s+to\s+{_VAL}$"
        ),
        None,
    ),
    # "Alice lives in Lisbon", "Alice works at Acme": verbs that name their key.
    (
        re.compile(
            rf"^{_SUBJ}{_NOW}\s+(?:lives|live|is living|resides|is based|am based)\s+in\s+{_VAL}$"
        ),
        "city",
    ),
    (
        re.compile(
            rf"^{_SUBJ}{_NOW}\s+(?:works|work|is working|am working)\s+(?:at|for)\s+{_VAL}$"
        ),
        "employer",
    ),
    (re.compile(rf"^{_SUBJ}{_NOW}\s+(?:has\s+)?joined\s+{_VAL}$"), "employer"),
    (re.compile(rf"^{_SUBJ}{_NOW}\s+reports\s+to\s+{_VAL}$"), "manager"),
    (
        re.compile(
            rf"^{_SERVICE}{_NOW}\s+(?:runs|is running|is hosted|is deployed|lives)\s+on\s+{_VAL}$"
        ),
        "runs_on",
    ),
    (
        re.compile(rf"^{_SUBJ}{_NOW}\s+is\s+(?:written|implemented|built)\s+in\s+{_VAL}$"),
        "language",
    ),
    (re.compile(rf"^{_SUBJ}{_NOW}\s+is\s+(?:owned|maintained|led)\s+by\s+{_VAL}$"), "owner"),
    (re.compile(rf"^{_SUBJ}{_NOW}\s+(?:codes|writes code|programs)\s+in\s+{_VAL}$"), "language"),
    # "Alice switched to Helix", "I moved to Berlin", "Bob now uses Postgres"
    (re.compile(rf"^{_SUBJ}{_NOW}\s+{_SWITCH}{_FROM}\s+(?:to|over\s+to)\s+{_VAL}$"), "?switch"),
    (re.compile(rf"^{_SUBJ}{_NOW}\s+(?:has\s+)?relocated{_FROM}\s+to\s+{_VAL}$"), "city"),
    (re.compile(rf"^{_SUBJ}{_NOW}\s+{_USE}\s+{_VAL}$"), "?use"),
    (  # "Bob has Emacs as his editor": "has" only with the key named
        re.compile(rf"^{_SUBJ}{_NOW}\s+(?:has|have)\s+{_VAL}\s+as\s+(?:{_PRON}\s+)?{_REL}$"),
        None,
    ),
    (
        re.compile(
            rf"^{_SUBJ}{_NOW}\s+(?:has\s+)?(?:gave up(?:\s+on)?|given up(?:\s+on)?|ditched|"
            rf"dropped|left|traded(?:\s+in)?|swapped|"
            rf"exchanged|substituted)\s+"
            rf"(?P<prev>[^,;]{{1,60}}?)\s+(?:for|in favou?r of)\s+{_VAL}$"
        ),
        "?use",
    ),
    (
        re.compile(rf"^(?i:for|as)\s+{_PRON}\s+{_REL},?\s+{_SUBJ}{_NOW}\s+{_USE}\s+{_VAL}$"),
        None,
    ),
    (re.compile(rf"^{_SUBJ}{_NOW}\s+replaced\s+(?P<prev>[^,;]{{1,60}}?)\s+with\s+{_VAL}$"), "?use"),
    # Last: any short verb phrase before a name ("I bank with Ally", "Alice drives a Volvo",
    # "Bob's playlists live on Tidal"): the key is guessed from the value (ledger/keyguess.py).
    (
        re.compile(
            rf"^{_SUBJ}(?:(?:'s|’s)\s+[a-z]+)?{_NOW}\s+(?:[a-z]+\s+){{1,4}}?"
            rf"(?:(?:on|in|at|with|for|into)\s+)?(?:(?:a|an|the|my|his|her|their)\s+)?"
            rf"(?P<val>{_NAMED})$"
        ),
        "?any",
    ),
]
_NEGATIONS = [
    re.compile(
        rf"^{_SUBJ}\s+(?:no\s+longer|doesn't|does\s+not|don't|do\s+not|isn't|is\s+not|am\s+not)"
        rf"\s+(?:use|uses|using|work\s+(?:at|for)|live\s+in|run\s+on|on)\s+{_VAL}$"
    ),
    re.compile(
        rf"^{_SUBJ}\s+(?:has\s+|have\s+)?(?:stopped|quit|dropped|abandoned)\s+(?:using\s+)?{_VAL}$"
    ),
    re.compile(  # verbs that leave a named thing ("left Google", not "gave up Vim for Zed")
        rf"^{_SUBJ}\s+(?:has\s+|have\s+)?(?:left|cancell?ed|sold|gave\s+up(?:\s+on)?"
        rf"|given\s+up(?:\s+on)?|got\s+rid\s+of|moved\s+out\s+of|moved\s+away\s+from)"
        rf"\s+(?:(?:the|my|his|her|their)\s+)?(?P<val>{_NAMED})$"
    ),
    re.compile(rf"^{_SUBJ}(?:'s|’s)\s+{_REL}\s+is\s+(?:no\s+longer|not)\s+{_VAL}$"),
    re.compile(rf"^(?P<my>my)\s+{_REL}\s+is\s+(?:no\s+longer|not)\s+{_VAL}$", re.I),
]
# Verbs that link two names without a single current value: only the entities are kept.
_LINKS = re.compile(
    rf"^{_SERVICE}\s+(?:depends|relies)\s+on\s+(?P<val>{_IDENT})$|"
    rf"^(?P<subj2>{_NAME}|{_LOWER_ID})\s+(?:calls|talks\s+to|reads\s+from|writes\s+to|needs"
    rf"|requires|(?:sends|forwards|routes|proxies|delegates|hands|passes|pushes)"
    rf"(?:\s+[a-z]+){{0,4}}\s+to)\s+(?P<val2>{_IDENT})$"
)
# "Alice told me (that) ...": the rest is a statement whose pronouns point at Alice.
_REPORTED = re.compile(
    rf"^(?:(?P<speaker>{_NAME})\s+(?:told\s+(?:me|us|the\s+team|everyone)|mentioned|said|says"
    r"|reported|explained|noted|confirmed|wrote|shared|let\s+(?:me|us)\s+know|announced"
    r"|pointed\s+out|admitted|clarified)(?:\s+that)?|(?i:according\s+to)\s+"
    rf"(?P<source>{_NAME}))[\s,:]+(?P<rest>.+)$"
)
_ABOUT = re.compile(
    rf"^(?i:update|news|note|fyi|heads\s+up|quick\s+update)\s+(?i:on|about|from|re|regarding)"
    rf"\s+(?P<about>{_NAME})\s*[:,\-—–]+\s*(?P<rest>.+)$"
)
_PRONOUN_SUBJECT = re.compile(r"^(?:he|she|they)\b", re.IGNORECASE)
_PRONOUN_OWNER = re.compile(r"^(?:his|her|their)\s+", re.IGNORECASE)
# Adverbs that carry no value ("is now using", "mostly codes in") and verbs that only frame
# another ("decided to go with", "will use"): dropped before the patterns read a clause.
_ADVERBS = re.compile(
    r"\s+(?:now|currently|still|also|just|finally|officially|recently|mostly|mainly|primarily"
    r"|actually|really|already|lately|usually|generally|basically|happily|reluctantly|fully"
    r"|completely|totally|entirely|permanently|quietly|eventually)(?=\s)",
    re.IGNORECASE,
)
_FRAMES = re.compile(
    r"\s+(?:has\s+|have\s+)?(?:decided|chose|chosen|opted|started|began|wants|wanted|plans"
    r"|planned|is\s+going|are\s+going|am\s+going|intends|agreed|went\s+ahead)\s+to(?=\s)"
    r"|\s+(?:will|would|'ll)(?=\s)",
    re.IGNORECASE,
)
_I_AM = re.compile(r"\bI['’]m\b")  # "I'm using Helix": the patterns read "I am"
_I_HAVE = re.compile(r"\bI['’]ve\b")
# A heading before the statement ("Heads up: Malik joined ..."): never its subject.
_HEADING = re.compile(
    r"^(?i:heads\s+up|fyi|reminder|note|quick\s+note|update|quick\s+update|news|btw|psa)"
    r"\s*[:\-—–]\s+"
)
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|\n+")
# "Alice uses Vim and lives in Lisbon": a second clause that starts with a verb shares the subject.
_AND_VERB = re.compile(
    r",?\s+(?:and|but)\s+(?=(?:now\s+|also\s+|still\s+)?(?:lives|works|uses|prefers|switched|"
    r"moved|runs|is|has|joined|reports|started|relocated|codes|writes|went|signed|bought|pays|"
    r"got|drives|trains|orders|picked|chose|settled|replaced)\b)"
)
_SUBJECT_HEAD = re.compile(rf"^(?:(?i:actually|so|and),?\s+)?(?:{_NAME}|I)(?=\s|['’]s\s)")
_PRONOUNS = frozenset(
    "it he she they we i you this that there these those its his her their our my your".split()
)
_VALUE_STOP = frozenset("it that this them him her something anything nothing one".split())
_RELATION_STOP = frozenset(
    "name thing idea point problem question reason over back on it them that this".split()
)
# Words a relation name never starts with ("went from Oslo to Rome" names no key "from_oslo").
_NOT_KEY = frozenset("from to over back on in at with for into".split())
# Time words that creep into a relation phrase ("favourite editor these days") or lead it.
_RELATION_TIME = re.compile(
    r"\b(?:these days|nowadays|now|currently|at the moment|lately|right now|today)\b|"
    r"^(?:new|current|present|latest)\s+",
    re.IGNORECASE,
)


def extract(text: str) -> Extraction:
    """Every triple and entity name the statement patterns find in `text`."""
    found = Extraction()
    speaker: str | None = None  # who "he", "she", "their" point at: the last named subject
    for raw in _SENTENCES.split(text):
        sentence = _I_AM.sub("I am", raw.strip().strip(".!?;").strip())
        sentence = _I_HAVE.sub("I have", sentence)
        sentence = _HEADING.sub("", sentence)
        reported = _REPORTED.match(sentence) or _ABOUT.match(sentence)
        if reported is not None:
            groups = reported.groupdict()
            speaker = groups.get("speaker") or groups.get("source") or groups.get("about")
            sentence = reported.group("rest")
        speaker = _named_head(sentence) or speaker
        start = len(found.triples)
        for clause in _clauses(sentence):
            speaker = _add_clause(found, _resolve(clause, speaker), raw.strip()) or speaker
        found.triples[start:] = _replacements(found.triples[start:])
    return found


def _replacements(triples: list[Triple]) -> list[Triple]:
    """ "Dropped Vim and switched to Helix": one change of a key, not a retraction and a value."""
    out: list[Triple] = []
    for triple in triples:
        last = out[-1] if out else None
        if (
            last is not None
            and last.negated
            and not triple.negated
            and last.subject == triple.subject
            and triple.previous is None
            and (triple.relation is None or last.relation in (None, triple.relation))
        ):
            out[-1] = dataclasses.replace(triple, previous=last.value)
        else:
            out.append(triple)
    return out


def _named_head(sentence: str) -> str | None:
    """The name a sentence starts with ("Bob is great" -> Bob), if it starts with one."""
    head = _SUBJECT_HEAD.match(sentence)
    if head is None:
        return None
    words = [w for w in head.group(0).replace(",", " ").split()]
    if words[0].casefold() in {"actually", "so", "and"}:
        words = words[1:]
    if not words or words[0].casefold() in _NOT_NAMES or words == ["I"]:
        return None
    return " ".join(words)


def _resolve(clause: str, speaker: str | None) -> str:
    """The clause with a leading pronoun replaced by the subject it points at."""
    if speaker is None:
        return clause
    lead = _LEAD.match(clause)
    head, body = (clause[: lead.end()], clause[lead.end() :]) if lead else ("", clause)
    if _PRONOUN_SUBJECT.match(body):
        return head + _PRONOUN_SUBJECT.sub(speaker, body, count=1)
    if _PRONOUN_OWNER.match(body):
        return head + _PRONOUN_OWNER.sub(f"{speaker}'s ", body, count=1)
    return clause


_SO = re.compile(r",\s+so\s+(?=(?:his|her|their|my|I|he|she|they|it|[A-Z])\b)")


def _clauses(sentence: str) -> list[str]:
    if not sentence or len(sentence) > 300:
        return []
    cause, *effect = _SO.split(sentence, maxsplit=1)
    if effect:  # "Bob's laptop died, so his work machine is a Framework now"
        return [*_clauses(cause), *_clauses(effect[0])]
    parts = _AND_VERB.split(sentence)
    if len(parts) == 1:
        return parts
    head = _SUBJECT_HEAD.match(parts[0])
    if head is None:
        return parts[:1]
    return [parts[0], *(f"{head.group(0)} {part}" for part in parts[1:])]


def _add_clause(found: Extraction, sentence: str, statement: str) -> str | None:
    """Add the triple and the entity names of one clause; returns its named subject."""
    found.clauses += 1
    triple = _sentence_triple(sentence, statement)
    linked = _linked_names(sentence)  # named by their place in the pattern, whatever their case
    names = linked
    if triple is not None:
        found.triples.append(triple)
        if triple.verb != "any":  # a guessed fact's names wait for its key (ledger/save.py)
            names = [triple.subject, triple.value, *names]
            linked = [*linked, triple.subject]
    if (triple is None or triple.verb == "any") and not names and not statement.endswith("?"):
        # No pattern read it (a question states nothing), or only guessed at it: the ledger may
        # still read it off the values it knows (ledger/anchor.py), which comes first.
        found.unread.append((sentence, statement))
    for name in names:
        if name != USER and name not in found.entities and (name in linked or looks_named(name)):
            found.entities.append(name)
    if triple is not None and triple.subject != USER:
        return triple.subject
    return None


def extract_facts(text: str) -> list[Triple]:
    """The (subject, relation, value) triples stated in `text`, in order."""
    return extract(text).triples


_LABEL = re.compile(r"^[A-Za-z][\w ]{0,24}:\s+(?=\S)")  # "Quick note: ...", "Status: ..."


def _sentence_triple(sentence: str, statement: str) -> Triple | None:
    """The triple of one clause; a short label before a colon is tried without it too."""
    triple = _clause_triple(sentence, statement)
    label = _LABEL.match(sentence)
    if triple is None and label is not None:
        triple = _clause_triple(sentence[label.end() :], statement)
    return triple


def _clause_triple(sentence: str, statement: str) -> Triple | None:
    correction = False
    lead = _LEAD.match(sentence)
    while lead and lead.end() > 0:
        correction = correction or lead.group("fix") is not None
        sentence = sentence[lead.end() :]
        lead = _LEAD.match(sentence)
    correction = correction or re.search(r"\bactually\b", sentence, re.IGNORECASE) is not None
    bare = sentence
    sentence = _FRAMES.sub("", _ADVERBS.sub("", sentence))
    previous = None
    negated_tail = _NOT_PREV.search(sentence)
    if negated_tail:
        previous = _clean_value(negated_tail.group("prev"))
        sentence = sentence[: negated_tail.start()]
    sentence = _strip_tail(sentence)
    if not sentence:
        return None
    negation = _negation(sentence, statement, correction)
    if negation is not None:
        return negation
    for pattern, hint in _PATTERNS:
        match = pattern.match(sentence)
        if match is None:
            continue
        triple = _triple(match, hint, statement, correction, previous)
        if triple is not None:
            return triple
    return _shorthand(_strip_tail(bare), statement)


def _shorthand(sentence: str, statement: str) -> Triple | None:
    """A note-style change ("Vim -> Neovim", "not Vim anymore, Neovim now"); no subject: user."""
    parts = shorthand.read(sentence)
    if parts is None:
        return None
    value, previous = _clean_value(parts.value), _clean_value(parts.previous)
    relation = None if parts.relation is None else _relation(parts.relation)
    subject = USER if parts.subject is None else " ".join(parts.subject.split())
    if value is None or (parts.relation is not None and relation is None):
        return None
    if subject.split()[0].casefold() in _NOT_NAMES:
        return None
    return Triple(
        subject=subject,
        relation=relation,
        value=value,
        statement=statement,
        previous=previous,
        confidence=0.9 if relation else 0.7,
        verb=parts.verb,
    )


def _strip_tail(sentence: str) -> str:
    sentence = sentence.strip()
    while True:
        tail = _TAIL.search(sentence)
        if tail is None:
            return sentence.strip(" ,")
        sentence = sentence[: tail.start()].strip()


# Capitalised words that start sentences without naming anyone.
_NOT_NAMES = frozenset(
    """
    he she they it we you this that these those there the a an my our your his her their its
    what which who where when why how if then so but and or also here today yesterday everyone
    someone nobody somebody no all please scratch update quick correction
    """.split()
)


def _subject(match: re.Match[str]) -> str | None:
    groups = match.groupdict()
    if groups.get("my"):
        return USER
    subject = groups.get("subj")
    if subject is None:
        return None
    subject = " ".join(subject.split())
    if subject.split()[0].casefold() in _NOT_NAMES:
        return None
    return USER if subject == "I" else subject


def _triple(
    match: re.Match[str], hint: str | None, statement: str, correction: bool, previous: str | None
) -> Triple | None:
    subject = _subject(match)
    value = _clean_value(match.group("val"))
    if subject is None or value is None:
        return None
    groups = match.groupdict()
    relation = None
    if groups.get("rel"):
        relation = _relation(groups["rel"])
        if relation is None:
            return None
    as_rel = _AS_REL.search(value)
    if as_rel and relation is None:  # "uses Kafka for messaging", "switched to Helix as her editor"
        relation = _relation(as_rel.group("rel"))
        value = _clean_value(value[: as_rel.start()]) or ""
        if not value:
            return None
    verb_hint = None
    implied = False
    verb = _VERB_OF_KEY.get(hint or "")
    if hint is not None and not hint.startswith("?"):
        implied = relation is None
        relation = relation or hint
    elif hint == "?switch":
        relocated = re.search(r"\bmoved(?!\s+on\b)", match.group(0)) is not None
        verb_hint = "city" if relocated else None
        verb = "move" if relocated else "switch"
        correction = False  # "actually I switched to X": X follows a value that held
    elif hint == "?use":
        verb = "use"
    elif hint == "?any":  # a verb nothing is known of: a guess is taken only when sure
        if _UNSURE.search(match.group(0)):
            return None  # "Carol might try Emacs" states no value
        verb = "any"
    prev = previous or (_clean_value(groups["prev"]) if groups.get("prev") else None)
    group = _GROUP.match(value)
    if group is not None and (relation is None or implied or relation == "team"):
        # "joined the Payments team", "is on the data squad": the phrase names the key.
        relation, value, implied = "team", group.group("name"), False
        prev = _GROUP.sub(r"\g<name>", prev) if prev else prev
    return Triple(
        subject=subject,
        relation=relation,
        value=value,
        statement=statement,
        temporal_form=_form(match.group(0)),
        correction=correction,
        previous=prev,
        hint=verb_hint,
        implied=implied,
        confidence=0.9 if relation else 0.7,
        verb=verb,
    )


_GROUP = re.compile(r"^(?P<name>.+?)\s+(?:team|squad)$", re.IGNORECASE)
# The change a verb that names its key stands for, should its key yield to the value's kind.
_VERB_OF_KEY = {"city": "move", "employer": "join"}


def _negation(sentence: str, statement: str, correction: bool) -> Triple | None:
    for pattern in _NEGATIONS:
        match = pattern.match(sentence)
        if match is None:
            continue
        subject = _subject(match)
        value = _clean_value(match.group("val"))
        if subject is None or value is None:
            continue
        rel = match.groupdict().get("rel")
        relation = _relation(rel) if rel else None
        return Triple(
            subject=subject,
            relation=relation,
            value=value,
            statement=statement,
            temporal_form="completed",
            correction=correction,
            negated=True,
        )
    return None


def _relation(text: str) -> str | None:
    relation = normalize_relation(_RELATION_TIME.sub(" ", text.strip()))
    parts = relation.split("_")
    if not relation or relation in _RELATION_STOP or len(parts) > 4 or parts[0] in _NOT_KEY:
        return None
    return relation


def _clean_value(text: str | None) -> str | None:
    if text is None:
        return None
    value = " ".join(text.strip(" \"'`“”‘’()").split())
    value = re.sub(r"^(?:the|a|an)\s+", "", value, flags=re.IGNORECASE)
    value = _strip_tail(value).strip(" \"'`“”‘’")
    if not value or value.casefold() in _VALUE_STOP or len(value.split()) > 6:
        return None
    if value.split()[0].casefold() in _PRONOUNS:  # "it keeps coming up" is a clause, not a value
        return None
    return value


def _form(text: str) -> str:
    lowered = text.casefold()
    if re.search(r"\b(?:usually|every|always|often|each)\b", lowered):
        return "habitual"
    if re.search(r"\b(?:was|used to|had)\b", lowered):
        return "completed"
    return "ongoing"


def looks_named(text: str) -> bool:
    """A value that names something (Postgres, macOS, host-3), not a phrase (tabs over spaces)."""
    return any(ch.isupper() or ch.isdigit() for ch in text) or "-" in text


def _linked_names(sentence: str) -> list[str]:
    match = _LINKS.match(_strip_tail(sentence))
    if match is None:
        return []
    pairs = [match.group("subj"), match.group("val"), match.group("subj2"), match.group("val2")]
    return [" ".join(name.split()) for name in pairs if name and name != "I"]
