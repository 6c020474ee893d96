"""Read-time resolution: among the statements a search found about one subject's attribute,
answer with the latest assertion (or, for a question about the past, the one before it).

The safety net for every statement the save side could not key. It needs no extraction:

1. **Subject**: the names the question shares with the candidates' entities (a first name
   matches a full name), but not the asked attribute's ("Which VPN ...") nor the value a
   question about the past counts back from ("... before Hyperoptic"), and of those the ones
   at least half as many candidates speak of as the most named one; a question in the first
   person with no such name is about the user. Only statements about the subject are read.
2. **Same attribute**: the best-ranked candidate about the subject is the seed; a learned model
   (`attribute.py`) gives each other statement P(it speaks of the attribute the question asks),
   from its closeness to the question and the seed once the subject's shared part is removed.
   A statement of where the subject comes from ("grew up in", "was born in") joins no group
   but one asking that.
3. **Assertion, not mention**: the statement reader (`assertion.py`, MiniLM fine-tuned on
   labelled statements) gives P(it sets the subject's own value) rather than naming a value.
4. **Time**: each statement gets P(it is the latest to set the value), its two probabilities
   times the chance that no later statement does; the likeliest answers a question about now.
   A named period or `as_of` leaves out what came after; "before", "used to", "previously" ask
   for the one that set the value before the current one (restatements of it skipped).

Nothing is hidden: the answer moves to the top and every other hit keeps its place below it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
import numpy.typing as npt

from mnemex.ledger import aspects, assertion, attribute
from mnemex.ledger.attribute import tokens
from mnemex.ledger.patterns import OPENING_VERB, PEOPLE_NOUNS
from mnemex.text import STOPWORDS, UPPER

ANCHOR_FLOOR = 0.5  # P(same attribute) at which a statement joins the ledger answer's group
ANCHOR_LINK = 0.3  # ... and the least centred cosine to it (templated notes look alike)
# P(assertion) below which the ledger's answer reads as a mention and stops being the anchor:
# the model's own boundary, lower than `floor`, for the write side already read it as a value.
ANCHOR_MENTION = 0.5
POOL = 20  # candidates read, best first
RESTATED = 0.05  # weight of a restatement of the current value when asking for the one before
NAMED = 0.2  # the least P(sets the value) of the statement a "before Y" question starts from
FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|my|me|mine|myself)\b", re.IGNORECASE)
# A statement speaks of the user also as one of a household: "We bought a Subaru", "our vet".
HOUSEHOLD = re.compile(r"\b(?:we|we're|we've|we'd|our|ours|us|ourselves)\b", re.IGNORECASE)
_PAST = re.compile(
    r"\b(?:before|used\s+to|did\b[^?.]*\buse\s+to|previous(?:ly)?|prior\s+to|formerly|former|originally|"
    r"at\s+first|in\s+the\s+past|until|earlier|back\s+then|back\s+when|any\s?more|"
    r"no\s+longer|(?:the|his|her|their|my)\s+old|first\s+one|had\s+been)\b",
    re.IGNORECASE,
)
_SINCE = re.compile(r"\b(?:before|until|prior\s+to)\b", re.IGNORECASE)  # "before Y"
# Where someone comes from holds for life: "I grew up in Kumasi" answers no question about where
# they live or work now (nor does the save side let it replace a current value), only one that
# asks where they come from.
ORIGIN = re.compile(
    r"\b(?:gr[eo]w(?:s|ing)?\s+up|(?:was|were|am|is|are)\s+born|born\s+and\s+(?:raised|bred)|"
    r"(?:was|were)\s+raised|originally\s+(?:from|hails?)|hails?\s+from|native\s+of)\b",
    re.IGNORECASE,
)
# A question whose subject is one of the writer's people ("Where does my mum live?", "What does
# my sister do now?"): it asks of them, not of the writer. Not "Who is my manager?" nor "What is
# my partner called?", which ask who the person is.
ASKED_OF_KIN = re.compile(
    r"\b(?:does|did|do|is|was|has|had|will|would|can|could)\s+(?:my|our)\s+"
    rf"(?P<who>{PEOPLE_NOUNS})s?\s+"
    r"(?!(?:now|at|in|on|for|from|to|this|these|called|named|still|currently|again)\b)[a-z]{2,}",
    re.IGNORECASE,
)

_CAPITALISED = re.compile(rf"\b[{UPPER}]\w*")
CALENDAR = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday "
    "saturday sunday".split()
)

Vector = npt.NDArray[np.float32]
Span = frozenset[str]  # the words of one name written as a value ("qatar", "airways")
# Capitalised words one after another are one name ("Qatar Airways", "Boulderwelt München
# Ost"), up to a full stop after a word longer than a title's ("Dr. Rahimi" is one name).
_CAPITAL = re.compile(rf"[{UPPER}0-9][\w.+&'’-]*")
_ENDS = re.compile(r"\w{4,}\.$")
# A sentence, a clause after a colon or semicolon, a bracket or a heading ("[home] ") opens here.
_OPENS = re.compile(r"(?:^|[.!?:;]\s+|\(\s*|\[[^\]]*\]\s*)$")


class Mode(Enum):
    """What time a question asks about."""

    NOW = "now"
    PAST = "past"  # the value before the current one
    AT = "at"  # the value at a time (a named period, or as_of)


def mode_of(question: str, period_end: int | None) -> Mode:
    """The question's time: a named period, else a cue of the past, else now."""
    if period_end is not None:
        return Mode.AT
    return Mode.PAST if _PAST.search(question) else Mode.NOW


@dataclass(frozen=True, slots=True)
class Candidate:
    """One search candidate as resolution reads it (rank order is the list order)."""

    id: str
    text: str
    entities: Sequence[str]
    when: int  # microseconds: observed_at, else created_at
    vector: Vector | None


def subject_names(question: str, candidates: Sequence[Candidate]) -> set[str]:
    """The candidates' entity names the question names (whole, or by a first name). A question
    that writes names with capitals names no one in lowercase: the "yoga" of "Where does
    Benjamin do his yoga classes?" is neither the entity Yoga nor the first name of Yoga Loft."""
    said = tokens(question)
    capitalised = {t.casefold() for t in _CAPITALISED.findall(question)}
    if not capitalised - set(said[:1]):  # no capital past the first word: any word may name
        capitalised = set(said)
    asked = set(said) - STOPWORDS
    found: set[str] = set()
    for candidate in candidates:
        for name in candidate.entities:
            parts = tokens(name)
            if not parts or parts[0] not in capitalised:
                continue
            if " ".join(parts) in " ".join(said) or parts[0] in asked:
                found.add(parts[0])
    return found


def core_names(question: str, names: set[str], members: Sequence[Candidate]) -> set[str]:
    """The names of the question's subject among those it shares with the candidates. Not a
    name in the place of the asked attribute ("Which VPN ...") or of the value a question about
    the past counts back from ("... before Hyperoptic"): both are entities too, and taken for
    the subject they were masked out of every statement and the question lost its attribute or
    its value. Of the rest, the ones at least half as many candidates speak of as the most
    named one."""
    asked = tokens(question)
    placed = set(asked[1:2]) if asked[:1] in (["which"], ["what"]) else set()
    cue = _SINCE.search(question)
    if cue is not None:
        placed |= set(tokens(question[cue.end() :]))
    names = names - placed
    said = [set(tokens(c.text)) for c in members]
    counts = {name: sum(name in words for words in said) for name in names}
    most = max(counts.values(), default=0)
    return {name for name, count in counts.items() if 2 * count >= most}


def about(
    candidate: Candidate, names: set[str], first_person: bool, kin: str | None = None
) -> bool:
    """True when the candidate speaks of one of the names (or of the user, in the first person,
    alone or as one of a household, or in a note that opens with its verb; of the writer's
    `kin` when the question asks of them: "Where does my mum live?" reads what mentions "mum")."""
    if names:
        return bool(names & set(tokens(candidate.text)))
    text = candidate.text
    if first_person and kin is not None:
        said = set(tokens(text))
        return kin in said or f"{kin}s" in said
    return (
        first_person
        and (
            FIRST_PERSON.search(text) or HOUSEHOLD.search(text) or OPENING_VERB.match(text.lstrip())
        )
        is not None
    )


def _subject_words(members: Sequence[Candidate], names: set[str]) -> set[str]:
    """The subject's names and every word of its whole name ("ethan", "cole" for "Ethan Cole")."""
    return names | {
        part
        for c in members
        for name in c.entities
        if (parts := tokens(name)) and parts[0] in names
        for part in parts
    }


def _latest(p: npt.NDArray[np.float64], upto: int) -> npt.NDArray[np.float64]:
    """P(statement i is the latest that sets the value, among the first `upto` in time order):
    it does (p[i]) and none of the later ones before `upto` does."""
    after = np.concatenate([np.cumprod((1.0 - p[:upto])[::-1])[::-1][1:], [1.0]])
    out = np.zeros(len(p))
    out[:upto] = p[:upto] * after
    return out


def _before(
    p: npt.NDArray[np.float64], values: list[set[Span]], current: int, asked: set[Span]
) -> int | None:
    """The statement that set the value before the current one (statements in time order).

    "before Y" starts from the first likely statement naming Y, where Y is the value in force;
    otherwise from the current one. Statements naming only the value in force there restate it
    and hardly count; one naming it and more is the change to it, and an earlier statement
    naming the more (the old value) answers before it does.
    """
    start = next(
        (i for i, named in enumerate(values) if _meet(asked, named) and p[i] >= NAMED), current
    )
    # The value in force there: the one asked about when the statement names several ("is on
    # Max now, dropped Disney+" for "before Max"), else every value it names.
    held = {value for value in values[start] if _meet(asked, {value})} or values[start]
    # The change to it names the value it replaced ("Notion got too slow ...; she's writing in
    # Obsidian"): the latest earlier statement of that value answers.
    replaced = _other_than(values[start], held)
    named = [i for i in range(start) if _meet(values[i], replaced) and p[i] >= NAMED]
    if named:
        return named[-1]
    weights = p.copy()
    for i in range(start):
        if values[i] and all(_meet({value}, held) for value in values[i]):
            weights[i] *= RESTATED
    chances = _latest(weights, start)
    if chances.max() <= 0:
        return None
    found = int(np.argmax(chances))
    old = _other_than(values[found], held) if _meet(values[found], held) else set()
    earlier = [i for i in range(found) if _meet(values[i], old) and p[i] >= NAMED]
    return earlier[-1] if earlier else found


def _meet(some: Collection[Span], others: Collection[Span]) -> bool:
    """Whether a value of `some` is one of `others`: the same name, or one written in part
    ("BT" of "BT Full Fibre", "Apollo" of "Apollo Pharmacy"); "Qatar Airways" is no "British
    Airways"."""
    return any(a <= b or b <= a for a in some for b in others)


def _other_than(spans: set[Span], held: Collection[Span]) -> set[Span]:
    """The values of `spans` that are none of `held`."""
    return {value for value in spans if not _meet({value}, held)}


def _asked_value(question: str, subject: set[str]) -> set[Span]:
    """The value a question about the past counts back from: the names after "before" /
    "until" / "prior to" ("What TV service did Lucas have before Prime?" -> Prime, not TV),
    else every name of the question but the subject's."""
    named = {span for span, _ in _spans(question, subject)}
    cue = _SINCE.search(question)
    if cue is None:
        return named
    return {span for span, _ in _spans(question[cue.end() :], subject)} or named


def _spans(text: str, subject: set[str]) -> list[tuple[Span, bool]]:
    """The names a text writes with capitals, each as the words of the whole name (singular,
    casefolded; the subject's, the calendar's and small words left out), and whether it opens
    a sentence (where any word has a capital)."""
    runs: list[tuple[int, list[str]]] = []
    end = 0
    for word in _CAPITAL.finditer(text):
        joined = bool(runs) and not text[end : word.start()].strip(" \t")
        if joined and not _ENDS.search(runs[-1][1][-1]):
            runs[-1][1].append(word.group())
        else:
            runs.append((word.start(), [word.group()]))
        end = word.end()
    out = []
    for start, run in runs:
        words = {_singular(w) for w in tokens(" ".join(run))} - STOPWORDS - subject - CALENDAR
        if words:
            opening = start == 0 or _OPENS.search(text[:start]) is not None
            out.append((frozenset(words), opening))
    return out


def _values(texts: Sequence[str], subject: set[str]) -> list[set[Span]]:
    """The names each statement gives (its subject's left out), each whole ("Qatar Airways",
    so no "British Airways" shares a value with it), with a name opening a sentence when
    another statement writes a word of it as a name ("Notion got too slow for Fatima; she's
    writing in Obsidian" names the Notion of "Fatima switched to Notion"), and in a statement
    written with no capitals, the names others write whose words it has ("ama's writing in
    ulysses these days"; where a statement names things with capitals, a lowercase "notes" is
    no "Apple Notes")."""
    found = [_spans(text, subject) for text in texts]
    known = {span for spans in found for span, opening in spans if not opening}
    known_words = set().union(*known)
    values = []
    for text, spans in zip(texts, found, strict=True):
        named = {span for span, opening in spans if not opening or span & known_words}
        if not spans:
            said = {_singular(word) for word in tokens(text)}
            named = {span for span in known if span <= said}
        values.append(named)
    return values


def _singular(name: str) -> str:
    """A name without a plural or possessive ending: "before the Sennheisers" names the
    Sennheiser, "Bose's" the Bose."""
    name = name.removesuffix("'s").removesuffix("’s")
    return name[:-1] if len(name) > 4 and name.endswith("s") and not name.endswith("ss") else name


def _aspects(texts: Sequence[str], question: str) -> tuple[Vector, Vector] | None:
    """The statements' and the question's aspect vectors, None without the encoder."""
    found = aspects.vectors([*texts, question])
    return None if found is None else (found[:-1], found[-1:])


def about_subject(question: str, candidates: Sequence[Candidate]) -> list[Candidate]:
    """The best `POOL` candidates that speak of the subject the question names (read before
    any vector is loaded: most questions name none, and resolution then costs nothing more)."""
    pool = list(candidates[:POOL])
    names = subject_names(question, pool)
    first_person = FIRST_PERSON.search(question) is not None
    kin = kin_asked(question)
    return [c for c in pool if about(c, names, first_person, kin)]


def kin_asked(question: str) -> str | None:
    """The writer's person a question asks of ("mum" in "Where does my mum live?"), if any."""
    found = ASKED_OF_KIN.search(question)
    return None if found is None else found.group("who").casefold()


def resolve(
    question: str,
    query: Vector | None,
    members: Sequence[Candidate],
    *,
    period_end: int | None = None,
    floor: float = 0.5,
    anchor: str | None = None,
    read: bool = True,
    aspect: bool = True,
    elsewhere: Collection[str] = (),
) -> str | None:
    """The id of the statement about the subject (`about_subject`'s, with their vectors) that
    answers the question's attribute at its time, or None.

    `anchor`: the memory stating the value the ledger read off plain text for the question. It
    is the seed, only statements much like it form its group, and only a later assertion among
    them answers instead (the ledger missed the change). An anchor that reads as a mention is
    no anchor: the question is resolved as if the ledger had no answer. `floor`: the least
    P(assertion) a statement must have to answer; `read`: False counts every statement as an
    assertion (the ablation without the statement reader); `aspect`: False groups statements
    without the aspect encoder (by the embedding model's cosines alone).
    """
    members = [c for c in members if c.vector is not None]
    if query is None or len(members) < 2:
        return None
    names = core_names(question, subject_names(question, members), members)
    # A value's or an attribute's name let in statements of other subjects ("Hot Pod Yoga" for
    # "hot", every "VPN" for "Which VPN am I paying for?"): read the subject's alone.
    first_person = FIRST_PERSON.search(question) is not None
    kin = kin_asked(question)
    members = [c for c in members if about(c, names, first_person, kin)]
    if len(members) < 2:
        return None
    seed = next((i for i, c in enumerate(members) if c.id == anchor), None)
    if anchor is not None and seed is None:
        return None  # the ledger's answer is not about the subject the question names
    if (
        seed is not None
        and read
        and assertion.probabilities([members[seed].text])[0] < ANCHOR_MENTION
    ):
        seed = None  # read off a mention: resolve as if the ledger had no answer
    texts = [c.text for c in members]
    relevant, _ = attribute.probabilities(
        texts,
        np.stack([c.vector for c in members if c.vector is not None]).astype(np.float32),
        question,
        query,
        _subject_words(members, names),
        seed,
        attribute.LINK if seed is None else ANCHOR_LINK,
        _aspects(texts, question) if aspect else None,
    )
    if seed is not None:  # values held under other keys do not join the anchor's group
        relevant = relevant * np.array([c.id not in elsewhere for c in members])
    if not ORIGIN.search(question):
        relevant = relevant * np.array([ORIGIN.search(c.text) is None for c in members])
    floor_of = attribute.FLOOR if seed is None else ANCHOR_FLOOR
    if len({c.when for c, r in zip(members, relevant, strict=True) if r >= floor_of}) < 2:
        return None  # no attribute with statements of two times to choose between
    asserted = assertion.probabilities(texts) if read else np.ones(len(members))
    # Time order; among statements of one moment the better-ranked counts as the later.
    order = sorted(range(len(members)), key=lambda i: (members[i].when, -i))
    p = np.array([relevant[i] * (asserted[i] if asserted[i] >= floor else 0.0) for i in order])
    mode = mode_of(question, period_end)
    if mode is Mode.AT and period_end is not None:
        p *= np.array([members[i].when < period_end for i in order])
    chances = _latest(p, len(order))
    if chances.max() <= 0:
        return None
    best = int(np.argmax(chances))
    if mode is Mode.PAST:
        subject = _subject_words(members, names) | CALENDAR
        values = _values([members[i].text for i in order], subject)
        asked = _asked_value(question, subject)
        before = _before(p, values, best, asked)
        return None if before is None else members[order[before]].id
    latest = members[order[best]]
    if seed is not None and latest.when <= members[seed].when:
        return None  # the ledger's answer is the latest assertion: it stands
    return latest.id
