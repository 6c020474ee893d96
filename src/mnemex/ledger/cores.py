"""Clauses the statement patterns leave unread, read again from their dependency parse.

The patterns of ledger/extract.py read a clause as a whole, so an aside breaks them: "I live in
Austin, in the Mueller neighbourhood" or "I drive a 2016 Honda Fit" states nothing to them,
though "I live in Austin" and "I drive a Honda Fit" do. The parse (spaCy's dependency parser,
given by the caller) finds each predicate, its subject and each of its complements, and a
clause becomes its *cores*: subject, verb and one complement at a time, with only the
modifiers of the words kept ("I live in Austin", "I live in the Mueller neighbourhood",
"I work as a product designer", "I work at Copperline Health"). A verb under another
("keeps telling me to get a Tesla") gives no core of its own: a complement of a complement is
a mention, not the subject's value; nor does a plan ("might get a dog"), a negation, or an
addition ("a second pet", "also allergic to": the ledger holds one value a key).

A few everyday predicates name their key through their own words, each with the kind of
value it takes (`PREDICATES`): "drive" a car, "allergic to" an allergy, "take" a medicine,
"work as" or "be" an occupation (a role) and "at" a name (an employer), "have" or "adopt" an
animal (a pet, by its name), "be" a diet, "live in" a neighbourhood, "go to", "attend" or
"start at" a school by its name, "bank with" a bank, "be" a lasting condition ("lactose
intolerant"). Any other core is read by
the statement patterns, and kept when it names a value or a key of a known kind, or a change
from a value it names. ledger/save.py adds these readings to the patterns' own; where the
anchors (ledger/anchor.py) read the same clause off the ledger's values as another key, the
anchors' key stands.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from mnemex.embed import load_tokenizer
from mnemex.gazetteer import MEDICINE, ROLE_NOUNS
from mnemex.ledger import extract, kinds
from mnemex.ledger.extract import USER, Triple
from mnemex.ledger.patterns import NOT_NAMES, RELATIVE_TIME, WHEN

# Arcs that keep a word inside its phrase ("a used blue Toyota RAV4", "the clinician tools
# team"); anything else under it (a relative clause, an aside, a prepositional phrase) is cut.
_MODIFIERS = frozenset("det amod compound nummod poss nmod quantmod case".split())
_SUBJECTS = frozenset("nsubj nsubjpass".split())
# A predicate under another verb speaks of something else's value or of a plan.
_EMBEDDED = frozenset("aux auxpass xcomp advcl relcl acl pcomp csubj amod prep ccomp".split())
_FIRST_PERSON = frozenset("i we".split())
# Words that add a value beside the held one ("a second pet", "also allergic to"): the ledger
# holds one value a key, so such a statement changes none.
_ADDING = frozenset("also too another second third other additional extra".split())
# Prepositions whose object is no value the subject holds: one left ("moved from Mueller"), one
# compared ("quieter than the Highlands", "a car like Dana's"), one spoken of, a time ("at the
# shop until Thursday").
_NOT_HELD = frozenset("from than like unlike about until till since during before after".split())
_HEDGES = frozenset("guess think suppose reckon believe figure".split())
_MODALS = frozenset("will 'll would 'd might may could should can must".split())

# Everyday predicates that name a key by themselves: (lemma of the verb or adjective,
# preposition or "" for a direct object or a complement) -> key. Kind checks follow.
PREDICATES: dict[tuple[str, str], tuple[str, ...]] = {
    ("drive", ""): ("car",),
    ("live", "in"): ("neighbourhood",),
    ("allergic", "to"): ("allergy",),
    ("take", ""): ("medication",),
    ("work", "as"): ("role",),
    ("start", "as"): ("role",),
    ("be", ""): ("diet", "role", "condition"),
    ("go", ""): ("diet",),
    ("become", ""): ("diet", "role"),
    ("be", "at"): ("employer",),
    ("be", "with"): ("employer",),
    ("be", "for"): ("employer",),
    ("work", "at"): ("employer",),
    ("start", "at"): ("employer", "school"),
    ("bank", "with"): ("bank",),
    ("have", ""): ("pet",),
    ("adopt", ""): ("pet",),
    ("get", ""): ("pet",),
    ("report", "to"): ("manager",),
    ("go", "to"): ("school",),
    ("attend", ""): ("school",),
}
ANIMALS = frozenset(
    """dog puppy cat kitten rabbit bunny hamster guinea parrot budgie tortoise turtle lizard
    gecko snake ferret horse pet pony goldfish fish beagle terrier retriever labrador spaniel
    collie poodle greyhound dachshund corgi husky shepherd pug bulldog whippet tabby""".split()
)
TEAMS = frozenset("team squad".split())
_ONTO = frozenset(["", "on", "onto", "to", "into"])
_DETERMINERS = frozenset("the a an my our his her their this that".split())
SCHOOLS = frozenset("school primary secondary academy college nursery kindergarten high".split())
AREAS = frozenset("neighbourhood neighborhood district quarter suburb borough".split())
# Lasting conditions said with "I am": "lactose intolerant", "coeliac", "asthmatic".
CONDITIONS = frozenset(
    "intolerant coeliac celiac diabetic asthmatic epileptic anaemic anemic".split()
)
DIETS = frozenset(
    """vegetarian vegan pescatarian pescetarian keto paleo flexitarian halal kosher
    gluten-free dairy-free plant-based""".split()
)


@dataclass(frozen=True, slots=True)
class Word:
    """One parsed word: its text, fine tag, dependency arc, head's index and lemma."""

    text: str
    tag: str
    dep: str
    head: int
    lemma: str


@dataclass(frozen=True, slots=True)
class Core:
    """Subject, verb and one complement of a predicate, as a short clause."""

    subject: str  # USER for "I" / "we", else the subject's words (its name when it has one)
    text: str  # "I live in Austin"
    value: str  # "Austin"
    predicate: tuple[str, str]  # (lemma, preposition or "")
    head: str  # the complement's head word, lower case ("neighbourhood", "dog")
    named: str | None  # a name the complement gives itself ("a dog, Pasha": Pasha)
    via: str = ""  # the noun a prepositional value hangs from ("an electrician with X")
    noun: bool = False  # a common noun with "a" / "an" ("a nurse"), not "much quieter"
    adding: bool = False  # "a second pet": one more value beside the held one
    left: str | None = None  # the value a move leaves ("from public realm onto ...")
    state: bool = False  # an adjective or a passive ("is due", "is booked at"): no value of a key
    proper: bool = False  # the complement is a name ("Copperline Health"), not "a gym"
    compound: bool = False  # a noun before the head ("the payments team"), not "a great team"


def cores(words: Sequence[Word]) -> list[Core]:
    """The cores of one parsed clause, in order."""
    found: list[Core] = []
    children: list[list[int]] = [[] for _ in words]
    for index, word in enumerate(words):
        if word.head != index:
            children[word.head].append(index)
    for index, verb in enumerate(words):
        if not verb.tag.startswith(("VB", "MD")) or not _main(words, children, index):
            continue
        subject = _subject_of(words, children, index)
        if subject is None:
            continue
        if verb.tag == "VBD" and verb.lemma.casefold() == "be":
            continue  # "I was a conductor for twelve years": what was, not what is
        if any(
            words[c].dep == "appos" and words[c].tag in ("NN", "NNS") for c in children[subject]
        ):
            continue  # "My sister Lena's kids are Finn": whose, the parse cannot tell
        # A participle goes on with its clause ("I might join Acme, reporting to ..."): the
        # clause's negation, plan or addition is its own too.
        ruling = [index, verb.head] if _participle(words, children, index) else [index]
        near = [(c, words[r]) for r in ruling for c in children[r]]
        if any(words[c].dep == "neg" for c, _ in near):
            continue  # "I don't drive a car": the patterns' negations read what they can
        if any(_planned(words[c], ruler) for c, ruler in near):
            continue  # "I might get a dog": a plan or a wish
        if any(words[c].text.casefold() in _ADDING for c, _ in near):
            continue  # "I'm also allergic to ...": one more value, not a new one
        owner = _owner(words, children, subject)
        auxiliaries = [c for c in children[index] if words[c].dep in ("aux", "auxpass")]
        verbs = [*(words[c] for c in auxiliaries), verb]
        head = " ".join(
            [_speaker(words, children, subject, owner), *_agreeing(words, subject, verbs)]
        )
        moves = {words[c].text.casefold(): c for c in children[index] if words[c].dep == "prep"}
        objected = any(words[c].dep == "dobj" for c in children[index])
        passive = any(words[c].dep == "auxpass" for c in children[index])
        to = next((moves[p] for p in ("to", "onto", "into") if p in moves), None)
        old = _objects(words, children, moves["from"]) if "from" in moves else []
        new = _objects(words, children, to) if to is not None else []
        if old and new and to is not None:  # "moved from Mueller to Hyde Park": one change
            landing = words[to].text.casefold()
            lead = f"{head} from {_phrase(words, children, old[0])} {landing}"
            predicate = (verb.lemma.casefold(), landing)
            moved = _core(words, children, owner, lead, predicate, new[0])
            found.append(replace(moved, left=_phrase(words, children, old[0], proper=True)))
        for c in children[index]:
            if c < subject or (words[c].dep == "prep" and c in moves.values() and old and new):
                continue  # "At Copperline I'm on ...": a lead the patterns read themselves
            if words[c].dep == "prep" and words[c].text.casefold() in _NOT_HELD:
                continue  # "moved from Mueller": a value left, not one held
            if words[c].dep == "prep" and objected:
                continue  # "moved the demo to Tuesday": where the object went, not the subject
            read = _complement(words, children, owner, head, verb, c)
            found.extend(replace(core, state=True) if passive else core for core in read)
    return found


def _speaker(words: Sequence[Word], children: list[list[int]], subject: int, owner: str) -> str:
    """The subject as the patterns read it: "I" for the user (also "we"), a name for "my wife
    Elif Demir", else its words."""
    if owner == USER:
        return "I"
    return owner if words[subject].tag.startswith("NN") else _phrase(words, children, subject)


_FIRST_PERSON_VERB = {"are": "am", "'re": "am", "’re": "am", "were": "was"}


def _agreeing(words: Sequence[Word], subject: int, verbs: Sequence[Word]) -> list[str]:
    """The verbs as they agree with "I" when "we" is the subject ("we are" -> "I am")."""
    if words[subject].text.casefold() != "we":
        return [verb.text for verb in verbs]
    return [_FIRST_PERSON_VERB.get(verb.text.casefold(), verb.text) for verb in verbs]


def _planned(word: Word, verb: Word) -> bool:
    """A modal that makes the predicate a plan or a wish; "will be" states what is settled
    ("At Corvid I'll be on the payments team"), "will get" does not."""
    if word.dep != "aux" or word.lemma.casefold() not in _MODALS:
        return False
    return not (word.lemma.casefold() in ("will", "'ll") and verb.lemma.casefold() == "be")


def _main(words: Sequence[Word], children: list[list[int]], index: int) -> bool:
    """A predicate of the clause's own: not under another verb, except the request a note
    opens with ("Remember that I'm allergic to penicillin": no subject of its own) and the
    user's hedge ("I guess I'm pescatarian now")."""
    dep = words[index].dep
    if _participle(words, children, index):
        return _main(words, children, words[index].head)  # "..., reporting to Ada Nwosu"
    if dep == "ccomp":
        head = words[index].head
        subjects = [words[c].text.casefold() for c in children[head] if words[c].dep in _SUBJECTS]
        # "I guess I'm pescatarian now": the user's own hedged statement, not reported speech
        return not subjects or (subjects == ["i"] and words[head].lemma.casefold() in _HEDGES)
    return dep not in _EMBEDDED


def _participle(words: Sequence[Word], children: list[list[int]], index: int) -> bool:
    """A participle that goes on with its clause's subject ("I'm on the tools team, reporting
    to Ada Nwosu"), not one with a subject of its own."""
    return (
        words[index].dep == "advcl"
        and words[index].tag == "VBG"
        and words[index].head != index
        and not any(words[c].dep in _SUBJECTS for c in children[index])
    )


def _complement(
    words: Sequence[Word], children: list[list[int]], owner: str, head: str, verb: Word, c: int
) -> list[Core]:
    """The cores of one complement of a predicate: "a designer", "in Austin", "allergic to"."""
    word = words[c]
    lemma = verb.lemma.casefold()
    out: list[Core] = []
    if word.dep in ("dobj", "attr", "oprd"):
        # "I'm Rosa Delgado, a physio at Eastfield Clinic": what the name is, is the subject's.
        named = word.dep == "attr" and word.tag.startswith("NNP")
        said = [c, *(a for a in children[c] if named and words[a].dep == "appos")]
        for n in said:
            out.append(_core(words, children, owner, head, (lemma, ""), n))
            lead = f"{head} {_phrase(words, children, n)}"
            for p, o in _preps(words, children, n):  # "an electrician with Lonestar Grid"
                predicate = (lemma, words[p].text.casefold())
                via = words[n].text
                out.append(
                    _core(words, children, owner, f"{lead} {words[p].text}", predicate, o, via)
                )
    elif word.dep == "prep":
        for o in _objects(words, children, c):
            predicate = (lemma, word.text.casefold())
            out.append(_core(words, children, owner, f"{head} {word.text}", predicate, o))
            for p, o2 in _preps(words, children, o):  # "as a designer at Copperline": at
                predicate = (lemma, words[p].text.casefold())
                lead = f"{head} {words[p].text}"
                out.append(_core(words, children, owner, lead, predicate, o2, words[o].text))
    elif word.dep == "acomp":
        adjective = word.text.casefold()
        text = f"{head} {word.text}"
        value = _phrase(words, children, c)  # "lactose intolerant"
        out.append(Core(owner, text, value, (lemma, ""), adjective, None, state=True))
        for p, o in [*_preps(words, children, c), *_misread(words, children, c, adjective)]:
            predicate = (adjective, words[p].text.casefold())  # "allergic to penicillin"
            lead = f"{head} {word.text} {words[p].text}"
            out.append(_core(words, children, owner, lead, predicate, o))
    return out


def _preps(words: Sequence[Word], children: list[list[int]], index: int) -> list[tuple[int, int]]:
    """(preposition, its object) under a word, but for those that hold no value ("than")."""
    return [
        (p, o)
        for p in children[index]
        if words[p].dep == "prep" and words[p].text.casefold() not in _NOT_HELD
        for o in _objects(words, children, p)
    ]


def _misread(
    words: Sequence[Word], children: list[list[int]], index: int, adjective: str
) -> list[tuple[int, int]]:
    """("to", its object) where the parser read an unknown noun after an adjective that takes
    "to" as an infinitive ("allergic to ibuprofen": "to" an aux, "ibuprofen" a verb)."""
    if (adjective, "to") not in PREDICATES:
        return []
    return [
        (a, x)
        for x in children[index]
        if words[x].dep == "xcomp" and not children[x][1:]
        for a in children[x]
        if words[a].dep == "aux" and words[a].text.casefold() == "to" and a == x - 1
    ]


def _core(
    words: Sequence[Word],
    children: list[list[int]],
    owner: str,
    lead: str,
    predicate: tuple[str, str],
    c: int,
    via: str = "",
) -> Core:
    value = _phrase(words, children, c, proper=True)
    adding = any(words[d].text.casefold() in _ADDING for d in children[c])
    named = next(
        (
            n
            for a in children[c]
            if words[a].dep in ("appos", "acl")  # "a dog, Pasha", "a cat called Pixel"
            for n in _name_in(words, children, a)
        ),
        None,
    )
    head = words[c].text.casefold()
    noun = words[c].tag in ("NN", "NNS") and any(  # not "Declan Mercer", not "much quieter"
        words[d].dep == "det" and words[d].text.casefold() in ("a", "an") for d in children[c]
    )
    proper = words[c].tag.startswith("NNP") or words[c].tag == "CD"
    compound = any(  # "payments", "data science", "urban greening"; not "great"
        words[d].dep == "compound" or words[d].tag.startswith(("NN", "VBG"))
        for d in children[c]
        if d < c
    )
    return Core(
        owner,
        f"{lead} {value}",
        value,
        predicate,
        head,
        named,
        via.casefold(),
        noun,
        adding,
        proper=proper,
        compound=compound,
    )


def _name_in(words: Sequence[Word], children: list[list[int]], index: int) -> list[str]:
    """The proper name an aside gives ("Pasha", "a tabby cat named Simit"), if any."""
    if words[index].tag.startswith("NNP"):
        return [_phrase(words, children, index)]
    return [
        n
        for c in children[index]
        if words[c].dep not in ("det", "amod")
        for n in _name_in(words, children, c)
    ][:1]


def _objects(words: Sequence[Word], children: list[list[int]], p: int) -> list[int]:
    return [o for o in children[p] if words[o].dep == "pobj"]


def _subject_of(words: Sequence[Word], children: list[list[int]], index: int) -> int | None:
    for c in children[index]:
        if words[c].dep in _SUBJECTS:
            return c
    if (words[index].dep == "conj" and words[index].head != index) or _participle(
        words, children, index
    ):
        return _subject_of(words, children, words[index].head)  # "... and shoot film"
    return None


def _owner(words: Sequence[Word], children: list[list[int]], subject: int) -> str:
    """Who a subject is: the user for "I" and "we", the name for "my wife Elif Demir"."""
    if words[subject].text.casefold() in _FIRST_PERSON:
        return USER
    for a in children[subject]:
        if words[a].dep == "appos" and words[a].tag.startswith("NNP"):
            return _phrase(words, children, a)
    if words[subject].tag.startswith("NNP") and any(
        words[a].dep == "compound" and kinds.people_key(words[a].text.casefold())
        for a in children[subject]
    ):
        return _phrase(words, children, subject, proper=True)  # "my niece Kerry", parsed so
    return _phrase(words, children, subject)


def _phrase(
    words: Sequence[Word], children: list[list[int]], index: int, proper: bool = False
) -> str:
    """The word with its modifiers ("a 2016 Honda Fit"), hyphenated pieces joined; `proper`:
    a name from its first proper word on ("a used blue Toyota RAV4": Toyota RAV4)."""
    kept = {index}
    stack = [index]
    while stack:
        top = stack.pop()
        for c in children[top]:
            if words[c].dep in _MODIFIERS or words[c].text in ("-", "&") or _joined(words, top, c):
                kept.add(c)
                stack.append(c)
    first = min(kept)
    if proper and words[index].tag.startswith("NNP"):
        first = min(i for i in kept if words[i].tag.startswith("NNP"))
    span = range(first, max(kept) + 1)  # contiguous: "three - year - old" stays whole
    text = " ".join(words[i].text for i in span if i in kept or words[i].text == "-")
    return text.replace(" - ", "-").replace(" 's", "'s").replace(" ’s", "’s")


def _joined(words: Sequence[Word], head: int, c: int) -> bool:
    """A name joined to a name by "&" ("Kaplan & Roe"): one name."""
    return (
        words[c].dep == "conj"
        and words[head].tag.startswith("NNP")
        and words[c].tag.startswith("NNP")
        and any(w.text == "&" for w in words[min(head, c) : max(head, c)])
    )


def verbs(words: Sequence[Word]) -> set[str]:
    """The words the parse takes for verbs ("Sold the Fit": Sold is no one's name)."""
    return {w.text for w in words if w.tag.startswith("VB")}


_OWNERS = re.compile(r"\b(?:my|our|his|her|their)\b|['’]s\b", re.IGNORECASE)
# An aside naming the value a statement replaces: "Tariq's CI setup is now Wercker (was Zuul)".
_WAS = re.compile(r"\((?:was|previously|formerly|before that|used to be)\s+([^()]{1,60})\)", re.I)


def read(words: Sequence[Word], statement: str) -> list[Triple]:
    """What the cores of one parsed clause state: the key an everyday predicate names, when
    the value is of the kind it takes, else the patterns' reading of the core."""
    out: list[Triple] = []
    was = _WAS.search(statement)
    verbal = verbs(words)
    for core in cores(words):
        if core.adding:
            continue
        triple = _predicate_triple(core, statement) or _pattern_triple(core, statement)
        if triple is None or not _named_subject(triple.subject) or _timed(triple.value):
            continue
        if triple.previous is None and was is not None:
            previous = extract.clean_value(was.group(1))  # names the key it leaves
            triple = replace(triple, previous=previous) if previous != triple.value else triple
        if triple.relation is None and triple.previous is None:
            continue  # a guess at the key, with no value it replaces: the whole clause's
        if triple.subject.split()[0] in verbal:
            continue  # "Told Jo, moved the review": no one called "Told Jo"
        if triple.relation is not None and triple.relation in {t.relation for t in out}:
            continue  # one value of a key to a clause: "I live in Austin, in Mueller" is no move
        if any(t.value == triple.value for t in out):
            continue  # "moved from Mueller to Hyde Park": the change, not Hyde Park again
        out.append(triple)
    return out


def _pattern_triple(core: Core, statement: str) -> Triple | None:
    """The patterns' reading of a core, when it names a value or a key of a known kind: "my
    brain is toast after that" is no key of anyone's, nor is a state ("the report is due",
    "dinner is booked at Ox Club")."""
    if core.state or len(_OWNERS.findall(core.text)) > 1:
        return None  # nor does a chain of owners ("my sister Lena's kids are Finn")
    triple = extract.read_clause(core.text, statement)
    if triple is None or triple.relation is None or core.proper:
        return triple
    # A common noun is a value only of a kind the key holds ("my editor is vim"), not "I
    # joined a gym" (an employer?) nor "my family is awesome - me, the missus".
    fitting = (kinds.fits(k.kind, triple.relation) for k in kinds.value_kinds(triple.value))
    return triple if any(fitting) else None


def _timed(value: str) -> bool:
    """A date or a time ("Tuesday", "Mondays", "the 14th", "next week"), which no key holds
    here."""
    single = value.removesuffix("s") if " " not in value else value
    return any(p.match(v) is not None for p in (WHEN, RELATIVE_TIME) for v in (value, single))


def _named_subject(subject: str) -> bool:
    """The user or a name ("Elif Demir"), not "the vet", "everyone" or "my wife"."""
    first = subject.split(maxsplit=1)[0]
    return subject == USER or (first[:1].isupper() and first.casefold() not in NOT_NAMES)


def _predicate_triple(core: Core, statement: str) -> Triple | None:
    keys = PREDICATES.get(core.predicate, ())
    relation = next((r for r in keys if _fits(r, core, statement)), None)
    if relation is None and core.head in TEAMS and core.predicate[1] in _ONTO:
        relation = "team" if _fits("team", core) else None  # "joined", "moved onto" a team
    if relation is None:
        return None
    value = core.named if relation == "pet" and core.named else core.value
    if relation in ("neighbourhood", "team"):
        value = value.rsplit(" ", 1)[0]  # "the Mueller neighbourhood": Mueller
    cleaned = extract.clean_value(value)
    if cleaned is None:
        return None
    previous = None if core.left is None else extract.clean_value(core.left)
    return Triple(core.subject, relation, cleaned, statement, previous=previous, confidence=0.8)


def _fits(relation: str, core: Core, statement: str = "") -> bool:
    """Whether the complement is a value of the kind the predicate's key takes."""
    if relation == "neighbourhood":  # "in the Mueller neighbourhood"; a city is the patterns'
        return core.head in AREAS
    if relation == "team":  # "on the payments insights team", not "we make a great team"
        return core.head in TEAMS and core.compound
    if relation == "car":  # a make or a model: "a 2016 Honda Fit", not "the school carpool"
        return extract.looks_named(core.value)
    if relation == "pet":  # by its name: "a cat called Pixel", not "a cat"
        return core.head in ANIMALS and core.named is not None
    if relation == "bank":  # "I bank with Monzo", not "bank with care"
        return core.proper
    if relation == "school":  # "goes to Oakfield Primary", not "goes to the gym"
        return core.head in SCHOOLS and core.value[:1].isupper()
    if relation == "diet":
        return core.head in DIETS
    if relation == "medication":
        return MEDICINE.search(core.value) is not None
    if relation == "role":  # "I am tech lead", "she's a nurse"
        return core.head in ROLE_NOUNS or (core.noun and occupation(core.head))
    if relation == "manager":  # "reporting to Ada Nwosu", not "reports to the board"
        return core.proper
    if relation == "employer":  # "an electrician with Lonestar Grid", not "a dog with fleas";
        # "started at Stripe as a designer": a job by the role it starts as, for a school may
        # be named in any language ("Defne started at Minik Adımlar Anaokulu")
        started = core.predicate == ("start", "at") and core.proper and core.head not in SCHOOLS
        started = started and _STARTS_AS.search(statement) is not None
        return (started or occupation(core.via)) and core.value[:1].isupper()
    if relation == "condition":  # "lactose intolerant", not "intolerant of fools"
        return core.head in CONDITIONS and (core.head != "intolerant" or " " in core.value)
    return True


_STARTS_AS = re.compile(r"\bstart(?:s|ed|ing)?\b.*\bas\s+(?:an?|the|our|their|his|her)\s", re.I)
# Nouns of people by what they do: "-er", "-or", "-ist", "-ian" and a few whole words.
_AGENT = ("er", "or", "ist", "ian", "ant", "ent")
_TRADES = frozenset(
    """nurse doctor surgeon physician dentist lawyer attorney solicitor barrister chef cook
    pilot paramedic midwife vet clerk cashier barista plumber electrician carpenter mechanic
    firefighter officer detective paralegal therapist pharmacist professor lecturer tutor
    coach priest rabbi imam nanny physio medic gp radiographer sonographer osteopath
    chiropractor doula carer baker butcher barber hairdresser bartender waitress sommelier
    roofer bricklayer janitor caretaker secretary actuary judge magistrate notary author
    actress dj chauffeur courier steward stewardess soldier guard diplomat mayor vicar
    minister chaplain monk nun entrepreneur executive coder buyer grocer fishmonger
    winemaker shepherd fisherman miner astronaut referee umpire athlete jockey lifeguard
    apprentice trainee postdoc academic headteacher headmaster childminder
    beekeeper shopkeeper bookkeeper housekeeper zookeeper gamekeeper postman postwoman
    policeman policewoman fireman salesman handyman homemaker housewife househusband
    sysadmin""".split()
)
_NOT_AGENT = frozenset(
    """fan member user beginner owner customer partner brother sister mother father daughter
    neighbor neighbour lover fighter number order corner center centre water winter summer
    dinner letter paper matter other player""".split()
)


def occupation(noun: str) -> bool:
    """Whether a noun names what someone does for a living ("designer", "nurse"). An "-er" or
    "-or" noun is one when what is left is a word ("design", "write", "blog"): a
    "rollercoaster" or a "lifesaver" is not."""
    if noun in ROLE_NOUNS or noun in _TRADES:
        return True
    if len(noun) <= 5 or not noun.endswith(_AGENT) or noun in _NOT_AGENT:
        return False
    if not noun.endswith(("er", "or")):
        return True
    stem = noun[:-2]
    single = stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem  # "blogg": blog
    known = _words()
    return any(len(w) > 2 and w in known for w in (stem, stem + "e", single))


@functools.cache
def _words() -> frozenset[str]:
    """The whole words of MiniLM's vocabulary (about 20,000 common English words)."""
    vocabulary = load_tokenizer(8).get_vocab()
    return frozenset(w for w in vocabulary if w.isalpha() and not w.startswith("#"))
