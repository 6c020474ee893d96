"""Statement patterns: (subject, relation, value) triples from plain sentences, with no model.

`extract_facts` is the one entry point; the analysis layer can call it on any message. A triple
whose relation is None came from a verb that does not say which key it changes ("Alice switched
to Neovim"): the ledger infers the key from what it already knows (see ledger/infer.py).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from mnemex.gazetteer import MEDICINE
from mnemex.ledger import kinds, shorthand
from mnemex.ledger.negations import NEGATIONS
from mnemex.ledger.notes import ASIDE, KEYED_NOTE, NAMING, ONE_OF_A_KIND, OWNERLESS
from mnemex.ledger.patterns import (
    ABOUT,
    ADVERBS,
    AND_VERB,
    APPOSITIVE,
    AS_REL,
    AS_ROLE,
    CLAUSE,
    DIARY,
    FRAMES,
    FRAMING,
    GROUP,
    HAVE_GOT,
    HEADING,
    I_AM,
    I_HAVE,
    IT_OBJECT,
    LABEL,
    LEAD,
    LEADING_PREPOSITIONS,
    LINKS,
    NOT_KEY,
    NOT_NAMES,
    NOT_PREV,
    OPENING_VERB,
    OUR,
    OWNED,
    OWNER,
    PARTICLES,
    PATTERNS,
    PROGRESSIVE,
    PRONOUN_OWNER,
    PRONOUN_SUBJECT,
    PRONOUNS,
    RELATION_CUT,
    RELATION_STOP,
    RELATION_TIME,
    RELATIVE_TIME,
    REPORTED,
    SENTENCES,
    SO,
    SPLICE,
    SUBJECT_HEAD,
    TAIL,
    UNSURE,
    VALUE_STOP,
    VERB_OF_KEY,
    WE,
    WHEN,
)
from mnemex.ledger.relations import normalize_relation
from mnemex.ledger.shapes import (
    CODE_NAME,
    DASH,
    DATED_ON,
    GOING_ON,
    HAS_DONE,
    HEDGED,
    LOCATED,
    MACHINE_HEADS,
    MADE_WITH,
    PERFECT,
    REASON,
    REGIONS,
    UNDERGOING,
    diary_past,
    is_role,
    temporal_form,
)

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
    parsed: bool = False  # read from a clause's parse (ledger/cores.py), not its whole wording


@dataclass(slots=True)
class Extraction:
    """Triples and the entity names a text mentions (subjects, objects, dependency targets)."""

    triples: list[Triple] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    clauses: int = 0  # clauses read; a text is all facts when every clause gave a triple
    unread: list[tuple[str, str]] = field(
        default_factory=list
    )  # (clause, statement) no pattern read


def extract(text: str) -> Extraction:
    """Every triple and entity name the statement patterns find in `text`."""
    found = Extraction()
    speaker: str | None = None  # who "he", "she", "their" point at: the last named subject
    for raw in SENTENCES.split(text):
        sentence = I_AM.sub("I am", _as_writer(raw.strip().strip(".!?;").strip()))
        sentence = HAVE_GOT.sub(r"\1", HAS_DONE.sub(r"\1 has ", I_HAVE.sub("I have", sentence)))
        sentence = _with_owner(HEADING.sub("", sentence))
        reported = REPORTED.match(sentence) or ABOUT.match(sentence)
        if reported is not None:
            groups = reported.groupdict()
            speaker = groups.get("speaker") or groups.get("source") or groups.get("about")
            sentence = reported.group("rest")
        elif (framed := FRAMING.match(sentence)) is not None:
            sentence = framed.group("rest")
        speaker = _named_head(sentence) or speaker
        start = len(found.triples)
        for clause in _clauses(sentence):
            speaker = _add_clause(found, _resolve(clause, speaker), raw.strip()) or speaker
        found.triples[start:] = _replacements(found.triples[start:])
    # "My mom is allergic to sulfa drugs", "my sister is pregnant": who a relative or partner
    # is, is a name; anything else is said of them.
    found.triples[:] = [
        t
        for t in found.triples
        if t.relation is None or not kinds.people_key(t.relation) or kinds.person_named(t.value)
    ]
    return found


# What "we" and "are" become when the writer speaks for the household.
_AS_I = {"'re": " am", "are": " am", "were": " was", "'ve": "'ve", "'ll": "'ll", "'d": "'d"}


def _as_writer(sentence: str) -> str:
    """ "We moved to Leeds" as "I moved to Leeds", "Our rent is ..." as "My rent is ..."."""
    lead = WE.match(sentence)
    if lead is not None:
        verb = lead.group("verb").replace("’", "'").strip()
        sentence = "I" + _AS_I.get(verb, "") + sentence[lead.end() :]
    return OUR.sub("My ", sentence, count=1)


def _with_owner(sentence: str) -> str:
    """ "Best friend is Achieng", "Mum is Grace": the writer's, as "My best friend is ..."."""
    if OWNERLESS.match(sentence):
        acronym = sentence[1:2].isupper()  # "GP is Dr Rao": the GP, not a "gP"
        return "My " + (sentence if acronym else sentence[0].lower() + sentence[1:])
    return sentence


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
    head = SUBJECT_HEAD.match(sentence)
    if head is None:
        return None
    words = [w for w in head.group(0).replace(",", " ").split()]
    if words[0].casefold() in {"actually", "so", "and"}:
        words = words[1:]
    if not words or words[0].casefold() in NOT_NAMES or words == ["I"]:
        return None
    return " ".join(words)


def _resolve(clause: str, speaker: str | None) -> str:
    """The clause with a leading pronoun replaced by the subject it points at."""
    if speaker is None:
        return clause
    lead = LEAD.match(clause)
    head, body = (clause[: lead.end()], clause[lead.end() :]) if lead else ("", clause)
    if PRONOUN_SUBJECT.match(body):
        return head + PRONOUN_SUBJECT.sub(speaker, body, count=1)
    if PRONOUN_OWNER.match(body):
        return head + PRONOUN_OWNER.sub(f"{speaker}'s ", body, count=1)
    return clause


def _clauses(sentence: str) -> list[str]:
    if not sentence or len(sentence) > 300:
        return []
    cause, *effect = SO.split(sentence, maxsplit=1)
    if effect:  # "Bob's laptop died, so his work machine is a Framework now"
        return [*_clauses(cause), *_clauses(effect[0])]
    first, *spliced = SPLICE.split(sentence, maxsplit=1)
    if spliced:
        return [*_clauses(first), *_clauses(spliced[0])]
    if DIARY.match(sentence):
        sentence = _mine(sentence)
    parts = AND_VERB.split(sentence)
    if len(parts) == 1:
        return parts
    parts = [parts[0], *(_carried(parts[0], part) for part in parts[1:])]
    if OPENING_VERB.match(parts[0]):  # "Dropped my iPhone ... and replaced it": the writer
        return [parts[0], *(f"I {part}" for part in parts[1:])]
    head = SUBJECT_HEAD.match(parts[0])
    if head is None:
        return parts[:1]
    return [parts[0], *(f"{head.group(0)} {part}" for part in parts[1:])]


def _mine(note: str) -> str:
    """A subjectless note as the writer's: "Switched to Neovim" as "I switched to Neovim"."""
    return f"I {note[0].lower()}{note[1:]}"


def _carried(first: str, part: str) -> str:
    """ "Dropped my iPhone in a lake and replaced it with a Pixel 8": the "it" a later clause
    takes as its object is the named thing the first clause owns (the last one it names)."""
    owned = OWNED.findall(first)
    if not owned or IT_OBJECT.match(part) is None:
        return part
    return IT_OBJECT.sub(lambda m: f"{m.group('verb')} {owned[-1]}", part, count=1)


def _add_clause(found: Extraction, sentence: str, statement: str) -> str | None:
    """Add the triple and the entity names of one clause; returns its named subject."""
    found.clauses += 1
    sentence = _with_owner(_as_writer(sentence))  # "..., Mum is Grace": the writer's mother
    if (note := KEYED_NOTE.match(sentence)) is not None:  # "Manager: Priya Shah"
        sentence = f"My {note.group('key').lower()} is {sentence[note.end() :]}"
    naming = NAMING.match(_strip_tail(sentence))
    if naming is not None:  # "Mum's name is Heike": the user's mother, and "she" after it
        who, name = naming.group("who").casefold(), " ".join(naming.group("name").split())
        found.triples.append(Triple(USER, normalize_relation(who), name, statement))
        found.entities.append(name)
        return name
    kin = ONE_OF_A_KIND.match(sentence)
    if kin is not None and kin.group("name").casefold() not in NOT_NAMES:
        name = kin.group("name")
        found.triples.append(Triple(USER, normalize_relation(kin.group("who")), name, statement))
    triple = read_clause(sentence, statement)
    if (triple is None or triple.relation is None) and diary_past(sentence):
        keyed = read_clause(_mine(sentence), statement)
        if keyed is not None and keyed.relation is not None:
            sentence, triple = _mine(sentence), keyed
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
        if name == USER or name in found.entities or WHEN.match(name):
            continue
        if name in linked or looks_named(name):
            found.entities.append(name)
    if triple is not None and triple.subject != USER:
        return triple.subject
    if triple is not None and triple.relation and kinds.people_key(triple.relation):
        return triple.value if kinds.person_named(triple.value) else None  # "Partner is Tomás, he"
    return None


def names_own_key(triple: Triple) -> bool:
    """Whether the wording itself says the value is the writer's own, by a key it names ("my
    husband's name is Antoine", "Dr Felix Hartmann is my GP now", "Manager: Priya Shah"): no
    mention of someone else's, whatever the statement reader makes of it."""
    return (
        triple.subject == USER
        and triple.relation is not None
        and not (triple.implied or triple.parsed or triple.negated)
        and triple.verb is None
        and triple.previous is None
    )


def extract_facts(text: str) -> list[Triple]:
    """The (subject, relation, value) triples stated in `text`, in order."""
    return extract(text).triples


def read_clause(sentence: str, statement: str) -> Triple | None:
    """The triple of one clause; a short label before a colon is tried without it too, and
    the clause without a lowercase aside after a comma ("Dra. Paola Reyes, head of exotics")."""
    triple = _clause_triple(sentence, statement)
    label = LABEL.match(sentence)
    unlabelled = [sentence[label.end() :]] if label is not None else []
    if triple is None and unlabelled:
        triple = _clause_triple(unlabelled[0], statement)
    for text in [*unlabelled, sentence]:
        aside = ASIDE.search(text) if triple is None else None
        if aside is not None:
            triple = _clause_triple(text[: aside.start()], statement)
    return triple


def _clause_triple(sentence: str, statement: str) -> Triple | None:
    correction = False
    lead = LEAD.match(sentence)
    while lead and lead.end() > 0:
        correction = correction or lead.group("fix") is not None
        sentence = sentence[lead.end() :]
        lead = LEAD.match(sentence)
    correction = correction or re.search(r"\bactually\b", sentence, re.IGNORECASE) is not None
    sentence = APPOSITIVE.sub("", sentence, count=1)
    sentence = DATED_ON.sub(r"\g<key> ", sentence, count=1)
    if HEDGED.search(sentence):
        return None
    bare = sentence
    sentence = FRAMES.sub("", ADVERBS.sub("", sentence))
    negation = _negation(_strip_tail(sentence), statement, correction)
    if negation is not None:  # "I am not allergic to X": no "not X" tail after a value
        return negation
    previous = None
    negated_tail = NOT_PREV.search(sentence)
    if negated_tail:
        previous = clean_value(negated_tail.group("prev"))
        sentence = sentence[: negated_tail.start()]
    sentence = _strip_tail(sentence)
    if not sentence:
        return None
    negation = _negation(sentence, statement, correction) if negated_tail else None
    if negation is not None:  # the same sentence was read above when no tail was cut
        return negation
    for pattern, hint in PATTERNS:
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
    value, previous = clean_value(parts.value), clean_value(parts.previous)
    relation = None if parts.relation is None else _relation(parts.relation)
    subject = USER if parts.subject is None else " ".join(parts.subject.split())
    if value is None or (parts.relation is not None and relation is None):
        return None
    if subject.split()[0].casefold() in NOT_NAMES:
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
        tail = TAIL.search(sentence)
        if tail is None:
            return sentence.strip(" ,")
        sentence = sentence[: tail.start()].strip()


def _subject(match: re.Match[str]) -> str | None:
    groups = match.groupdict()
    if groups.get("my"):
        return USER
    subject = groups.get("subj")
    if subject is None:
        return None
    subject = " ".join(subject.split())
    if subject.split()[0].casefold() in NOT_NAMES:
        return None
    if " " not in subject and OPENING_VERB.match(match.string[match.start("subj") :]):
        return USER  # "Dropped my iPhone in a lake and replaced it ...": the writer's note
    if subject.split()[0].casefold() in NOT_KEY:
        # "At Copperline I'm on the intake team": a place or a time leads the sentence
        return USER if subject.split()[-1] == "I" else None
    return USER if subject == "I" else subject


def _moved(match: re.Match[str], hint: str | None) -> bool:
    """A change verb that relocates its subject ("moved to Denver", not "moved on to Go")."""
    return hint == "?switch" and re.search(r"\bmoved(?!\s+on\b)", match.group(0)) is not None


def _triple(
    match: re.Match[str], hint: str | None, statement: str, correction: bool, previous: str | None
) -> Triple | None:
    subject = _subject(match)
    value = clean_value(match.group("val"))
    if subject is None or value is None:
        return None
    groups = match.groupdict()
    relation = None
    if groups.get("rel"):
        relation = _relation(groups["rel"])
        if relation is None:
            return None
    if groups.get("within") and value.casefold() in REGIONS:  # "Austin, Texas": Austin
        value = clean_value(groups["within"]) or value
    relocated = _moved(match, hint)
    if PROGRESSIVE.match(value) or RELATIVE_TIME.match(value):
        return None  # "Dana's team is hiring two developers", "moved the demo to next Tuesday"
    as_rel = AS_REL.search(value)
    hired = hint == "employer"  # "got a new job at Microsoft as a UX researcher": a role
    if as_rel and AS_ROLE.match(as_rel.group(0)) and (hired or is_role(as_rel.group("rel"))):
        value = clean_value(value[: as_rel.start()]) or ""  # "joined X as a developer": X
        as_rel = None
        if not value:
            return None
    purpose = relocated or relation is not None
    if as_rel and purpose and as_rel.group(0).lstrip().lower().startswith("for"):
        # "moved to Denver for her residency", "switched broadband to BT for the new house": a
        # move's "for", or one after a named key, gives a purpose, not the key
        value = clean_value(value[: as_rel.start()]) or ""
        as_rel = None
        if not value:
            return None
    if relation is None:
        relation, value = _key_of_value(value, as_rel)
        if not value:
            return None
    verb_hint = None
    implied = False
    verb = VERB_OF_KEY.get(hint or "")
    if hint is not None and not hint.startswith("?"):
        implied = relation is None
        relation = relation or hint
    elif hint == "?move":  # a new home
        verb_hint, verb = "city", "move"
    elif hint == "?switch":
        verb_hint = "city" if relocated else None
        verb = "move" if relocated else "switch"
        correction = False  # "actually I switched to X": X follows a value that held
    elif hint == "?use":
        verb = "use"
    elif hint == "?any":  # a verb nothing is known of: a guess is taken only when sure
        if UNSURE.search(match.group(0)) or GOING_ON.search(match.group(0)):
            return None  # "Carol might try Emacs", "Ama's team is hiring for Atlas": no value
        verb = "any"
    said_before = OWNER.sub("", groups["prev"]) if groups.get("prev") else None
    prev = previous or clean_value(said_before)  # "replaced my iPhone with": the iPhone
    group = GROUP.match(value)
    if group is not None and (relation is None or implied or relation == "team"):
        # "joined the Payments team", "is on the data squad": the phrase names the key.
        relation, value, implied = "team", group.group("name"), False
        prev = GROUP.sub(r"\g<name>", prev) if prev else prev
    return Triple(
        subject=subject,
        relation=relation,
        value=value,
        statement=statement,
        temporal_form=temporal_form(match.group(0)),
        correction=correction,
        previous=prev,
        hint=verb_hint,
        implied=implied,
        confidence=0.9 if relation else 0.7,
        verb=verb,
    )


def _key_of_value(value: str, as_rel: re.Match[str] | None) -> tuple[str | None, str]:
    """The key a value names itself when the statement names none, and the value: a medicine
    is the medication ("on levothyroxine for my thyroid"); "for/as <key>" after it names its
    key ("uses Kafka for messaging", "switched to Helix as her editor"). "" when none is left."""
    before = clean_value(value[: as_rel.start()]) if as_rel else value
    if before and MEDICINE.fullmatch(before):
        return "medication", before
    if as_rel:
        return _relation(as_rel.group("rel")), before or ""
    return None, value


def _negation(sentence: str, statement: str, correction: bool) -> Triple | None:
    for pattern in NEGATIONS:
        match = pattern.match(sentence)
        if match is None:
            continue
        subject = _subject(match)
        value = clean_value(match.group("val"))
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


def _cut(words: list[str], i: int) -> bool:
    """Whether the relation phrase ends before word i: a word of place or time ("manager
    at Corvid", "manager there"), or one of direction before it ("boss up here")."""
    word = words[i].casefold()
    if word in RELATION_CUT:
        return True
    after = words[i + 1].casefold() if i + 1 < len(words) else ""
    return word in {"up", "down", "over", "out", "back", "round"} and after in {"here", "there"}


def _relation(text: str) -> str | None:
    if DASH.search(text):  # "I switched dentists - now going to X": a dash ends a clause
        return None
    words = RELATION_TIME.sub(" ", text.strip()).split()
    cut = next((i for i, w in enumerate(words) if i and _cut(words, i)), len(words))
    relation = normalize_relation(" ".join(words[:cut]))
    parts = relation.split("_")
    # "on-call rotation", "in-house counsel": no "on" before a key ("in-laws" are people)
    hyphenated = bool(words) and "-" in words[0] and "law" not in words[0].casefold()
    if not relation or relation in RELATION_STOP or len(parts) > 4:
        return None
    return None if parts[0] in NOT_KEY and not hyphenated else relation


def clean_value(text: str | None) -> str | None:
    if text is None:
        return None
    value = " ".join(text.strip(" \"'`“”‘’()").split())
    value = value.split(" (")[0]  # "Argo Workflows (was Drone CI": an aside is no part of it
    words = value.split()
    if len(words) > 1 and words[-1] in PARTICLES:  # "swapped Surfshark out for IVPN"
        value = " ".join(words[:-1])
    elif len(words) > 1 and words[-1].casefold() in MACHINE_HEADS and CODE_NAME.search(words[-2]):
        value = " ".join(words[:-1])  # "runs on the juniper-vm-8 box": the box is juniper-vm-8
    if PERFECT.match(value) or UNDERGOING.match(value):
        return None
    value = MADE_WITH.sub("", re.sub(r"^(?:the|a|an)\s+", "", value, flags=re.IGNORECASE))
    value = _strip_tail(REASON.sub("", value)).strip(" \"'`“”‘’")
    located = LOCATED.match(value)
    if located is not None:
        value = located.group("name")
    if not value or value.casefold() in VALUE_STOP or len(value.split()) > 6:
        return None
    # "it keeps coming up" is a clause, not a value; "runs in the Diadora Gara" a place
    if value.split()[0].casefold() in PRONOUNS | LEADING_PREPOSITIONS:
        return None
    if CLAUSE.match(value):  # "accepted an offer from Greenway": a verb and its object
        return None
    return value


def looks_named(text: str) -> bool:
    """A value that names something (Postgres, macOS, host-3), not a phrase (tabs over spaces)."""
    return any(ch.isupper() or ch.isdigit() for ch in text) or "-" in text


def _linked_names(sentence: str) -> list[str]:
    match = LINKS.match(_strip_tail(sentence))
    if match is None:
        return []
    pairs = [match.group("subj"), match.group("val"), match.group("subj2"), match.group("val2")]
    return [" ".join(name.split()) for name in pairs if name and name != "I"]
