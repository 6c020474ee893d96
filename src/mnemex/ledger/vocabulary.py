"""How questions and statements name a key: the words, stems and cues of relation names.

A question names a relation by its core words ("editor"), by a word they derive from ("edit"),
or by a cue of the kinds of value it holds ("work", "company" for `employer`; "boss" for
`manager`; "live", "based" for `city`). Both the search door (which key a question asks for) and
the reading of unparsed statements (ledger/anchor.py: which key a clause names) use these.
"""

from __future__ import annotations

import functools
import re

from mnemex.ledger import kinds
from mnemex.ledger.relations import core, expanded, singular
from mnemex.text import ALNUM, STOPWORDS

TOKEN = re.compile(rf"{ALNUM}[\w\-.]*{ALNUM}|{ALNUM}")
FIRST_PERSON = frozenset({"i", "my", "me", "mine", "myself"})
# Query words that ask for a key without naming it come from the kinds of value a relation
# holds (ledger/kinds.py: "work", "company" for `employer`; "boss", "report" for `manager`;
# "live", "based" for `city`), plus these for keys no kind covers. "where" alone is a weak cue:
# "where does Bob work" asks for his employer, not his city.
CUES: dict[str, frozenset[str]] = {
    "run": frozenset("host hosted machine server node deployed box".split()),  # runs_on
}
WEAK_CUES: dict[str, frozenset[str]] = {"place": frozenset({"where"})}
CUE_MATCH = 0.75
WEAK_MATCH = 0.5  # as much as half a relation's words: "where are my passwords" is not a place
NAMED_BONUS = 0.02  # of equal matches, the relation whose own word the question uses
MIN_MATCH = 0.5  # share of a relation's core words the query must contain
HEAD_BONUS = 0.01  # breaks ties only


def stem(word: str) -> str:
    """A crude stem that lets "running" meet "run" and "databases" meet "database"."""
    word = singular(word.casefold())
    for suffix in ("ning", "ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def query_words(text: str) -> set[str]:
    """Stems of the query's words, abbreviations spelled out ("db" -> "database")."""
    out: set[str] = set()
    for token in TOKEN.findall(text.replace("'s ", " ").replace("’s ", " ")):
        for word in expanded(token):
            out.add(stem(word))
        if "-" in token:  # "to-do" is also "todo", as a relation of function words is named
            out.add(stem(token.replace("-", "")))
    return out


def _present(part: str, words: set[str]) -> bool:
    """A relation word in the query, itself or a word it derives from ("edit" for "editor")."""
    if part in words:
        return True
    return len(part) >= 5 and any(len(w) >= 4 and part.startswith(w) for w in words)


@functools.lru_cache(maxsize=4096)
def _parts(relation: str) -> tuple[str, ...]:
    """The stems of a relation's core words ("runs_on" -> run): what a question must name. A
    relation of function words is named by them joined ("to_do_app" -> todo, as "to-do list")."""
    full = expanded(relation)
    kept = tuple(stem(w) for w in core(full) if w not in STOPWORDS)
    return kept or ("".join(w for w in full if w in STOPWORDS) or relation,)


@functools.cache
def _cues(relation: str) -> tuple[frozenset[str], frozenset[str]]:
    """(cue stems, weak cue stems) that ask for a relation: its kinds' words and cues."""
    strong: set[str] = set()
    weak: set[str] = set()
    for kind in kinds.families_of(relation):
        family = kinds.FAMILIES[kind]
        strong.update(stem(w) for w in family.words | family.cues)
        weak.update(WEAK_CUES.get(kind, ()))
    strong.update(CUES.get(_parts(relation)[-1], ()))  # the head word: "run", not "on"
    return frozenset(strong), frozenset(weak)


@functools.cache
def _strong_cues() -> frozenset[str]:
    """Every kind's cue stems: the words that ask for some kind of value."""
    return frozenset(
        stem(w) for family in kinds.FAMILIES.values() for w in family.words | family.cues
    )


def relation_match(relation: str, words: set[str]) -> float:
    """Share of the relation's core words the query contains (or a cue of its head word)."""
    parts = _parts(relation)
    direct = sum(1 for part in parts if _present(part, words)) / len(parts)
    strong, weak = _cues(relation)
    # A weak cue asks only when the query names no other kind: "where does Ines work" asks for
    # her employer even when the ledger holds her city and no employer.
    weak_asks = bool(words & weak) and not words & _strong_cues()
    cue = CUE_MATCH if words & strong else WEAK_MATCH if weak_asks else 0.0
    # Of two relations matching as much, the one whose head noun the query names is asked for:
    # "which language does Amara code in" is her main_programming_language, not her code_editor.
    head = HEAD_BONUS if _present(parts[-1], words) else 0.0
    named = NAMED_BONUS if direct > 0 else 0.0
    return max(direct, cue) + head + named


def names_some_part(relation: str, words: set[str]) -> bool:
    """Whether a query names at least one core word of a relation (a cue alone does not)."""
    return any(_present(part, words) for part in _parts(relation))


def names_relation(relation: str, words: set[str]) -> bool:
    """Whether a query names every core word of a relation: `relation_match(...) >= 1` without
    scoring cues (a cue scores 0.75 and a bonus 0.03 at most, so only all the words reach 1)."""
    parts = _parts(relation)
    if len(parts) > 30:  # (n - 1) / n + 0.03 would reach 1: score it
        return relation_match(relation, words) >= 1
    return all(_present(part, words) for part in parts)
