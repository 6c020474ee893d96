"""Statements no pattern reads, read off what the ledger already knows (no grammar needed).

A clause that names a known subject and either a relation the store uses ("editor") or a value the
store has seen for a relation ("Neovim", an editor of someone) states that key: "Looks like Alice
went all in on Neovim" changes Alice's editor, whatever the wording. Of two values of one key, the
one the subject holds now (or the one after "from", "over", "instead of", "replaced") is the old
value, the other the new one.

A statement about a value the subject holds now, marked as being left ("cancelled Tidal and pays
for Qobuz instead", "Scratch Vim, Helix these days", "I quit Gold's and joined Blink"), also
names the value that replaces it, even one the ledger has never seen: the key is the held
value's. First-person statements are the user's.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from mnemex.ledger import kinds
from mnemex.ledger.extract import USER, Triple
from mnemex.ledger.history import LEDGER_STATUSES, store_order
from mnemex.ledger.notes import PERSON_BEFORE
from mnemex.ledger.patterns import OPENING_VERB, WHEN
from mnemex.ledger.resolve import CALENDAR
from mnemex.ledger.vocabulary import names_relation, query_words
from mnemex.models import Fact, FactStatus
from mnemex.store.base import Tx
from mnemex.text import NOT_AN_END, TITLES, UPPER, names_value, value_key

# A name: capitalised words ("VS Code", "Arch Linux", "Argo CD"), a brand's inner capital
# ("iPhone 15", "macOS") or an identifier ("host-3").
_JOINED = rf"(?:[&/][{UPPER}][\w+#\-]*)*"  # "M&S", "AT&T", "S/Lab"
_WORD = rf"(?:[{UPPER}][\w+#\-]*{_JOINED}|\d[\w\-]*)(?:\.[\w+#\-]+)*"  # "Node.js"; not "Bob. The"
_TITLED = rf"(?:{'|'.join(TITLES)})\.\s+[^\W\d_][\w\-]*"  # "Dr. Østergaard" is one name
_SPAN = re.compile(
    rf"(?<![\w-])(?:{_TITLED}|[{UPPER}][\w+#\-]*{_JOINED}(?:\.[\w+#\-]+)*|[a-z]{{1,3}}[A-Z][\w+#\-]*"
    rf"|[a-z][a-z0-9]*-[\w\-]+|\d[\w.\-]*[A-Za-z][\w.\-]*)(?:\s+{_WORD})*(?![\w-])"
)
# Words just before a value that make it the value being left ("from Vim", "over Vim").
_OLD_CUE = re.compile(
    r"\b(?:from|over|instead\s+of|rather\s+than|replaced?|swapped|dropped|ditched|quit|left|"
    r"abandoned|no\s+longer\s+\w+|not|n't\s+\w+|stopped\s+using|than|scratch|cancell?ed|"
    r"closed|sold|gave\s+up(?:\s+on)?|given\s+up(?:\s+on)?|tired\s+of|no\s+more|old|"
    r"got\s+rid\s+of|moved\s+off|leaving|out\s+of)\s+(?:\w+\s+){0,1}$",
    re.IGNORECASE,
)
_FULL_STOP = re.compile(rf"(?<=[.!?]){NOT_AN_END}\s+")  # not ";": "closed X; it's Y now"
# Words that say a held thing is gone for good, with nothing in its place.
_GONE = re.compile(
    r"\b(?:sold|scrapped|totall?ed|written\s+off|gave\s+away|given\s+away|got\s+rid\s+of"
    r"|cancell?ed)\b",
    re.IGNORECASE,
)
_GONE_BEFORE = re.compile(
    rf"{_GONE.pattern}\s+(?:(?:the|my|our|his|her|their|a|an|old)\s+)*$", re.I
)
_GONE_AFTER = re.compile(
    rf"^\s*(?:(?:is|was|has\s+been|got|finally|just)\s+)*{_GONE.pattern}", re.I
)


def _gone(clause: str, span: Span) -> bool:
    """Whether the clause says the value is gone: "sold the Leaf", "Clio sold"."""
    return bool(
        _GONE_BEFORE.search(clause[: span.start])
        or _GONE_AFTER.match(clause[span.start + len(span.text) :])
    )


# Words that say a value changed: with a held value marked as left, the other name is the new one.
# Not "now" or "new": conversation is full of them.
_CHANGE = re.compile(
    r"\b(?:instead|anymore|any\s+more|no\s+longer|no\s+more|switch\w*|replac\w*|swap\w*|"
    r"ditch\w*|dropped|quit|cancell?ed|closed|sold|traded|gave\s+up|given\s+up|stopped|"
    r"scratch|jump\w*|migrat\w*|upgraded|downgraded)\b|->|→",
    re.IGNORECASE,
)
_SPEAKER = re.compile(rf"^\s*[{UPPER}][\w.\-]*(?:\s+[{UPPER}][\w.\-]*)?\s*:\s")
_FIRST_PERSON = re.compile(r"\b(?:I|my|me|mine|I'm|I've|I'd)(?![\w'])")
# Capitalised words that start a clause without naming a value ("Scratch Vim", "Note: ...").
_STARTERS = frozenset(
    """
    scratch note quick update heads correction fyi all no please finally so also btw just still
    well ok okay yes yeah hey sadly luckily apparently honestly anyway after since as for in on
    at by from with then now today yesterday the a an my our your his her their its this that
    these those there it he she they we you i what which who where when why how if but and or
    """.split()
)
# Clauses that wonder, plan or ask state no current value ("Alice might try Zed", "We'll do a
# few days at Freycinet in the school holidays").
_TENTATIVE = re.compile(
    r"\b(?:whether|if|maybe|perhaps|might|may|could|should|would|will|['’]ll|considering|"
    r"thinking\s+about|"
    r"wants?\s+to|plans?\s+to|planning|hopes?\s+to|tries|trying|try|asked|wonders?|unless|"
    r"recommend(?:s|ed)?|suggest(?:s|ed)?|advis(?:es|ed)|propos(?:es|ed)|urg(?:es|ed))\b",
    re.IGNORECASE,
)
# Verbs of leaving a value, capitalised at a sentence's start ("Leaving Fernleaf!"): no part
# of the name after them.
_LEAVING = frozenset(
    "leaving left quit quitting dropped ditched sold cancelled canceled swapped replaced".split()
)
# Clauses that add a value beside the held one ("Signed up for ProtonVPN too", "a second
# car") replace nothing.
_ADDING = re.compile(r"\b(?:too|also|as\s+well|another|second|additional)\b", re.IGNORECASE)
_AT = re.compile(r"\s+(?:at|in)\s+(?:the\s+)?")
# A key pointed at ("everywhere in this city", "at that job") is the one held, not named anew.
_POINTED = re.compile(r"\b(?:this|that|these|those|the\s+same)\s+[\w-]+", re.IGNORECASE)
ANCHORED_CONFIDENCE = 0.6  # below a pattern's 0.9: the words were not understood, only anchored
RELATIONS_CONSIDERED = 50


@dataclass(frozen=True, slots=True)
class Span:
    """A name in a clause and where it starts."""

    text: str
    start: int


def spans(clause: str) -> list[Span]:
    """The names of a clause, in order."""
    return [Span(m.group(0).rstrip("."), m.start()) for m in _SPAN.finditer(clause)]


def _subjects(tx: Tx, found: list[Span]) -> tuple[dict[int, str], list[Span]]:
    """Spans that name a subject the ledger has facts about (start -> subject id), and the rest.

    A span that starts a sentence may carry a capitalised word before the name ("Honestly
    Carol"): its tails are tried too.
    """
    subjects: dict[int, str] = {}
    rest: list[Span] = []
    for span in found:
        words = span.text.split()
        for skip in range(len(words)):
            name = " ".join(words[skip:])
            entity = tx.find_entity(name)
            if entity is not None and tx.has_facts(entity.id):
                subjects[span.start + span.text.index(name)] = entity.id
                break
        else:
            rest.append(span)
    return subjects, rest


def value_relations(tx: Tx, span: Span) -> Counter[str]:
    """How often each relation holds this value in the ledger (any subject)."""
    return Counter(tx.value_relations(value_key(span.text), LEDGER_STATUSES))


def _user(tx: Tx, clause: str) -> str | None:
    """The user's entity id, when the clause speaks in the first person (or is a note that
    opens with its verb, or a change to a value the user holds: "Clio sold, got a Duster")
    and the user has facts."""
    entity = tx.find_entity(USER)
    if entity is None or not tx.has_facts(entity.id):
        return None
    if _FIRST_PERSON.search(clause) or OPENING_VERB.match(clause.lstrip()):
        return entity.id  # "Sold the Yaris and bought a Leaf": a note opening with its verb
    if _CHANGE.search(clause) is None:
        return None
    # The clause must open on the held value: "Theo turned down the St. Paul offer" is Theo's.
    held = [f.object for f in tx.facts_for_key(entity.id, None, (FactStatus.ACTIVE,))]
    first = next(iter(_values(tx, spans(clause), clause)), None)  # "Cancelled PureGym"
    named = first is not None and any(names_value(first.text, value) for value in held)
    return entity.id if named else None


def _values(tx: Tx, found: list[Span], clause: str) -> list[Span]:
    """Value spans, a leading clause word dropped ("Scratch Vim" -> "Vim", "Leaving Fernleaf"),
    and a span split where a value the ledger knows ends it ("Honestly Neovim"); never a month
    or a weekday."""
    out = []
    for span in found:
        words = [(m.start(), m.group(0)) for m in re.finditer(r"\S+", span.text)]
        while words and (
            words[0][1].casefold() in _STARTERS
            or words[0][1].casefold() in _LEAVING
            or _opens(clause, span.start + words[0][0])
        ):
            words = words[1:]
        for skip in range(1, len(words)):
            if tx.facts_with_value(value_key(" ".join(w for _, w in words[skip:])), limit=1):
                words = words[skip:]
                break
        if words and not _timed(" ".join(w for _, w in words)):  # "done by March": a time
            offset = words[0][0]
            out.append(Span(span.text[offset:], span.start + offset))
    return out


# A change that lands on the value just before it: "from MongoDB to ", "from Vim over to ".
_ARRIVED = re.compile(r"\bfrom\s+\S.{0,60}?\s+(?:over\s+)?(?:to|into|onto)\s+(?:the\s+)?$", re.I)


def _timed(text: str) -> bool:
    """A month, a weekday or a date ("March", "Mondays", "March 3"): when, never what."""
    return text.casefold().removesuffix("s") in CALENDAR or WHEN.match(text) is not None


def _opens(clause: str, start: int) -> bool:
    """Whether the word at `start` opens a sentence as a note's verb ("... Ended up buying")."""
    opening = start == 0 or re.search(r"[.!?;]\s+$", clause[:start]) is not None
    return opening and OPENING_VERB.match(clause[start:]) is not None


def transcript(text: str) -> bool:
    """Whether a text is a line of a transcript ("Caroline: I went ..."): someone else speaking."""
    return _SPEAKER.match(text) is not None


def read(tx: Tx, clause: str, statement: str, *, spoken: bool = False) -> Triple | None:
    """The triple a clause states about a known subject, anchored on known relations and values.

    `spoken`: the clause comes from a transcript line, so "I" is not the user and values that
    come and go in conversation do not replace held ones.
    """
    if _TENTATIVE.search(clause) or _ADDING.search(clause):
        return None
    spoken = spoken or transcript(statement)
    subjects, rest = _subjects(tx, spans(clause))
    if not subjects:
        user = None if spoken else _user(tx, clause)
        if user is not None:
            subjects = {-1: user}
    if len(set(subjects.values())) != 1:
        return None  # no known subject, or several: whose value it is cannot be told
    values = _values(tx, rest, clause)
    if not values:
        return None
    first = min(values, key=lambda s: s.start)
    before = [start for start in subjects if start < first.start]
    subject_id = subjects[max(before)] if before else subjects[min(subjects)]
    words = query_words(_POINTED.sub(" ", clause))
    mentioned = [r for r in tx.fact_relations(RELATIONS_CONSIDERED) if names_relation(r, words)]
    if any(_acting(clause, relation) for relation in mentioned):
        return None
    known = {span.start: value_relations(tx, span) for span in values}
    left = None if spoken else _left_value(clause, values, _held(tx, subject_id, values))
    if left is not None and mentioned:
        # A key the clause names that the subject does not hold gives way to the key of the
        # value it leaves ("Yusuf swapped their supermarket, it's Ocado now instead of Aldi":
        # others have a `supermarket`, Yusuf's Aldi is his `grocery`).
        own = {f.relation for f in tx.facts_for_key(subject_id, None, (FactStatus.ACTIVE,))}
        mentioned = [r for r in mentioned if r in own]
    relation = (
        left[1] if left is not None and not mentioned else _relation(mentioned, known, values)
    )
    if relation is None:
        return None
    subject_at = next(start for start, sid in subjects.items() if sid == subject_id)
    # A name the ledger has never seen as a value counts only after the subject, and only when
    # the clause names the relation ("Alice has Zed as her editor", not "Looks like Alice ...")
    # or leaves a value the subject holds ("Alice dropped Vim for Zed"); only a capitalised one.
    opened = mentioned or (left is not None and left[1] == relation)
    candidates = [
        s
        for s in values
        if relation in known[s.start]
        or (
            not known[s.start]
            and opened
            and s.start > subject_at
            and _capitalised(s)
            and (kinds.people_key(relation) or not PERSON_BEFORE.search(clause[: s.start]))
        )
    ]
    holding = [f.object for f in tx.facts_for_key(subject_id, relation, (FactStatus.ACTIVE,))]
    # The held value a clause names is the one it leaves; only without one does a cue word
    # mark it ("accepted an offer from Greenway" after "Leaving Fernleaf" leaves no Greenway).
    held = [s for s in candidates if any(names_value(s.text, value) for value in holding)]
    if any(_ARRIVED.search(clause[: s.start]) for s in held):
        return None  # "migrating from MongoDB to PostgreSQL" while on PostgreSQL: no change
    old = held or [s for s in candidates if _is_old(clause, s, holding)]
    # A value never seen before belongs to the sentence of the value it replaces ("sold the
    # Leaf. Bergen parking is criminal": Bergen is no car), unless the key is named ("No more
    # Vim for Carol. The new editor is Zed.").
    new = [
        s
        for s in candidates
        if s not in old
        and (mentioned or _one_sentence(clause, old, s, known))
        and not _placed(clause, candidates, s)
    ]
    if old and not new and _gone(clause, old[0]) and not kinds.people_key(relation):
        subject = tx.subject_name(subject_id)  # "sold the Leaf": no car now
        return (
            None
            if subject is None
            else Triple(
                subject=subject,
                relation=relation,
                value=old[0].text,
                statement=statement,
                negated=True,
                confidence=ANCHORED_CONFIDENCE,
            )
        )
    # "Carol, who hated Vim, settled for Helix": of several new-looking values the statement
    # lands on the first one after the value it leaves ("from the Pixel 7 to an iPhone 15, Theo
    # talked me into it"), else on the last one.
    after = [s for s in new if old and s.start > old[0].start]
    landing = after[0] if after else new[-1] if new else None
    if landing is None or not kinds.same_form(landing.text, holding):
        return None
    if not known[landing.start] and kinds.people_key(relation):
        # "gossip with my mam, and a bit of French": a clause that names a relative seldom
        # says who the relative is; only a pattern that reads it so sets one.
        return None
    subject = tx.subject_name(subject_id)
    if subject is None:
        return None
    return Triple(
        subject=subject,
        relation=relation,
        value=landing.text,
        statement=statement,
        previous=old[0].text if old else None,
        confidence=ANCHORED_CONFIDENCE,
    )


def _placed(clause: str, candidates: list[Span], span: Span) -> bool:
    """Whether the span says where the name just before it is ("Dr Moreno at Smile Studio",
    "Monzo in London"): no value of its own."""
    return any(
        _AT.fullmatch(clause[other.start + len(other.text) : span.start]) is not None
        for other in candidates
        if other.start < span.start
    )


def _one_sentence(clause: str, old: list[Span], span: Span, known: dict[int, Counter[str]]) -> bool:
    """Whether a new value may replace the old one: one the ledger knows for the key may be
    anywhere; an unseen one in a later sentence must not open it ("Ended up buying a Kia
    Niro" after "Sold the Jazz", not "Bergen parking is criminal" after "sold the Leaf")."""
    if not old or known[span.start] or span.start < old[0].start:
        return True
    between = list(_FULL_STOP.finditer(clause, old[0].start + len(old[0].text), span.start))
    return not between or clause[between[-1].end() : span.start].strip() != ""


def _acting(clause: str, relation: str) -> bool:
    """Whether the clause says what the key's referent is doing, not what it is: "Dana's team is
    hiring two developers for Kestrel" names her team, and Kestrel is no team of hers."""
    words = "|".join(re.escape(w) for w in relation.split("_") if len(w) > 2)
    return (
        bool(words)
        and re.search(
            rf"\b(?:{words})s?\s+(?:is|are|was|were)\s+[a-z]+ing\b", clause, re.IGNORECASE
        )
        is not None
    )


def _held(tx: Tx, subject_id: str, values: list[Span]) -> list[Fact]:
    """The subject's current facts holding one of the clause's values, in the store's order (a
    subject can hold hundreds of keys; these few are all `_left_value` looks at)."""
    found: dict[str, Fact] = {}
    for key in dict.fromkeys(value_key(span.text) for span in values):
        found.update(
            (f.id, f)
            for f in tx.facts_with_value(key, status=FactStatus.ACTIVE, subject_id=subject_id)
        )
    if not found:  # "dropped my iPhone" leaves the iPhone 13 the subject holds
        found.update(
            (f.id, f)
            for f in tx.facts_for_key(subject_id, None, (FactStatus.ACTIVE,))
            if any(names_value(span.text, f.object) for span in values)
        )
    return sorted(found.values(), key=store_order)


def _left_value(clause: str, values: list[Span], own: list[Fact]) -> tuple[Span, str] | None:
    """A value the subject holds now (among `own`, its current facts) that the clause leaves
    behind, and its key.

    Left: a cue word right before it ("dropped Vim", "from Vim"), or a change word in the clause
    ("Vim is out, switched to Helix").
    """
    changed = _CHANGE.search(clause) is not None
    cued = [span for span in values if _OLD_CUE.search(clause[: span.start]) is not None]
    for span in values:
        # A change word leaves a held value only when no other value is the one it names
        # ("We sold the Octavia. Parking in Żoliborz is hopeless" leaves no home).
        if span not in cued and (not changed or cued):
            continue
        for fact in own:
            if fact.status == FactStatus.ACTIVE and names_value(span.text, fact.object):
                return span, fact.relation
    return None


def _relation(
    mentioned: list[str], known: dict[int, Counter[str]], values: list[Span]
) -> str | None:
    """The key: a relation named in the clause, else the one the clause's known values share."""
    if mentioned:
        return mentioned[0]
    shared: Counter[str] = Counter()
    for span in values:
        shared.update(known[span.start])
    if not shared:
        return None
    return shared.most_common(1)[0][0]


def _capitalised(span: Span) -> bool:
    """A new name, not a hyphenated word ("go-to", "all-in") the identifier pattern also takes."""
    return any(ch.isupper() or ch.isdigit() for ch in span.text)


def _is_old(clause: str, span: Span, holding: list[str]) -> bool:
    """Whether a value is the one being left: held now, or right after "from", "over", ..."""
    if any(names_value(span.text, value) for value in holding):
        return True
    return _OLD_CUE.search(clause[: span.start]) is not None
