"""Relation names: one normal form (snake_case, singular) and a lexical similarity between names."""

from __future__ import annotations

import functools
import re
import unicodedata

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NON_WORD = re.compile(r"[^0-9a-z]+")

# Words that only point at the key ("my editor", "the city"): dropped from relation names.
_DETERMINERS = frozenset("the a an my your his her their our its this that these those one".split())
# Modifiers that rank a value without changing what it is: "main db" and "database" are one
# key. Words such as "backup", "birth" or "work" are not here: they name a different key.
WEAK_MODIFIERS = frozenset(
    """
    main primary principal default preferred usual favourite favorite current new present
    chief go to daily regular standard everyday core
    """.split()
)
# Head nouns that name the vehicle of a thing, not the thing: "gym membership" is the gym,
# "music app" and "music service" are both where the music is. Dropped after another word.
GENERIC_HEADS = frozenset(
    "app application service provider membership subscription account platform client".split()
)
# Abbreviations people use for relation words (lexical cue, not a thesaurus).
ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "db": ("database",),
    "dbs": ("database",),
    "rdbms": ("database",),
    "datastore": ("database",),
    "os": ("operating", "system"),
    "lang": ("language",),
    "pl": ("programming", "language"),
    "ide": ("editor",),
    "ci": ("continuous", "integration"),
    "cd": ("deploy",),
    "deployment": ("deploy",),
    "k8s": ("kubernetes",),
    "hometown": ("home", "town"),
    "org": ("organization",),
    "repo": ("repository",),
    "env": ("environment",),
}
# British and American spellings of the same word.
SPELLINGS = {
    "favourite": "favorite",
    "colour": "color",
    "licence": "license",
    "organisation": "organization",
    "centre": "center",
    "programme": "program",
    "behaviour": "behavior",
}
# Everyday words for a key and the word the record keeps ("my mum" is my mother, "my boss" my
# manager).
SAME_KEY = {
    "boss": "manager",
    "mum": "mother",
    "mom": "mother",
    "mam": "mother",
    "mummy": "mother",
    "mommy": "mother",
    "dad": "father",
    "daddy": "father",
    "hubby": "husband",
    "gp": "doctor",
}
_SINGULAR_KEEP = frozenset("os is us ss as yes this has was bus".split())


def singular(word: str) -> str:
    """A plural English noun in its singular form, by the regular rules (databases -> database)."""
    if len(word) <= 3 or word in _SINGULAR_KEEP or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "zes", "sses")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def words(name: str) -> list[str]:
    """The lowercase singular words of a relation name, determiners dropped."""
    text = unicodedata.normalize("NFKC", _CAMEL.sub(" ", name)).casefold()
    text = text.replace("'s ", " ").replace("’s ", " ").replace("e-mail", "email")
    parts = [SPELLINGS.get(part, part) for part in _NON_WORD.split(text) if part]
    parts = [SAME_KEY.get(part, part) for part in parts]
    kept = [part for part in parts if part not in _DETERMINERS] or parts
    return [singular(part) for part in kept]


def normalize_relation(name: str) -> str:
    """The stored form of a relation: "Primary Databases" -> "primary_database"."""
    return "_".join(words(name))


def expanded(name: str) -> list[str]:
    """The words of a relation with abbreviations spelled out ("main_db" -> main, database)."""
    return list(_expanded(name))


@functools.lru_cache(maxsize=8192)
def _expanded(name: str) -> tuple[str, ...]:
    # The ledger asks this of the same few hundred relation names on every save and search.
    out: list[str] = []
    for word in words(name.replace("_", " ")):
        out.extend(ABBREVIATIONS.get(word, (word,)))
    return tuple(out)


def core(tokens: list[str]) -> list[str]:
    """The words that say what a relation is: weak modifiers and a generic head noun removed
    (unless that is all)."""
    kept = [token for token in tokens if token not in WEAK_MODIFIERS] or tokens
    if len(kept) > 1 and (kept[-1] in GENERIC_HEADS or kept[-1] in _GENERIC_ROOTS):
        kept = kept[:-1]
    return kept


def root(word: str) -> str:
    """A word without its derivational ending: "editor", "editing" -> "edit" (lexical cue)."""
    for suffix in ("ing", "ment", "ion", "er", "or", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


_GENERIC_ROOTS = frozenset(root(word) for word in GENERIC_HEADS)  # lexical_similarity's roots


def lexical_similarity(a: str, b: str) -> float:
    """How likely two relation names name the same key, from their words alone, in [0, 1].

    The levels are ordinal cues (the thresholds that act on them are calibrated on a labelled
    set, see bench/relations.py): same words once abbreviations and weak modifiers are set aside;
    same head noun with extra words on one side only; same head noun; shared words.
    """
    ta, tb = [root(t) for t in expanded(a)], [root(t) for t in expanded(b)]
    if not ta or not tb:
        return 0.0
    ca, cb = core(ta), core(tb)
    if ca == cb:
        return 1.0 if ta == tb else 0.95
    sa, sb = set(ca), set(cb)
    shared = len(sa & sb) / len(sa | sb)
    if ca[-1] == cb[-1]:
        nested = sa <= sb or sb <= sa
        return 0.7 + 0.1 * shared if nested else 0.45 + 0.2 * shared
    return 0.5 * shared
