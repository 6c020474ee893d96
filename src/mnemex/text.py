"""Text helpers every layer shares: words, stopwords, query terms, names, value keys, previews.

Words are cut the way FTS5's unicode61 tokenizer cuts them (letters and digits; everything else,
quotes, `*`, parentheses, emoji, separates), so `AND`, `NEAR(` or a stray quote are only words.
Entity names and stated values each have one comparable form that every backend and layer
agrees on (`normalize_name`, `value_key`).
"""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def _ranges(chars: list[str]) -> str:
    """A regex character-class body for `chars` (sorted), runs written as ranges."""
    out: list[str] = []
    start = prev = chars[0]
    for char in [*chars[1:], ""]:
        if char and ord(char) == ord(prev) + 1:
            prev = char
            continue
        out.append(start if start == prev else f"{start}-{prev}")
        start = prev = char
    return "".join(out)


# Capital letters of names, in regex character classes: A-Z and the Latin ones with accents
# ("Élodie", "Øyvind", "Łukasz"); `[A-Z]` alone reads "Chloé" as "Chlo" and misses "Åre".
UPPER = _ranges([chr(c) for c in range(0x41, 0x250) if chr(c).isupper() and chr(c).isalpha()])
# Lowercase words inside a person's name ("Jasper van Dijk", "Ana de la Cruz", "Omar bin Said").
NAME_PARTICLES = r"(?:van|von|de|der|den|da|das|dos|du|di|del|della|la|le|ter|ten|bin|ibn|al|el)"
ALNUM = r"[^\W_]"  # a letter (any script, accented) or a digit: `[A-Za-z0-9]` misses "é"
MAX_TERMS = 32
PREVIEW_CHARS = 80

# Function words that carry no topic; dropped from queries unless nothing else is left.
STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its
    itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    s t d ll m re ve don doesn didn isn wasn weren aren won ever also get got let may might must
    shall us
    """.split()
)


def words(text: str) -> list[str]:
    """Lowercased words of `text` as the index sees them."""
    return [word.casefold() for word in _WORD.findall(text)]


def query_terms(text: str) -> list[str]:
    """Distinct content words of a query, in order; only stopwords if that is all there is."""
    seen: list[str] = []
    for word in words(text):
        if word not in seen:
            seen.append(word)
    content = [word for word in seen if word not in STOPWORDS]
    return (content or seen)[:MAX_TERMS]


# Titles and initials end in a full stop without ending the sentence ("Dr. Albescu", "J. Okafor").
TITLES = (
    "Dr",
    "Mr",
    "Mrs",
    "Ms",
    "Mx",
    "Prof",
    "Rev",
    "Capt",
    "Sgt",
    "Mme",
    "Mlle",
    "St",
    "Sr",
    "Jr",
    "Mt",
    # Titles of office, rank and profession ("Eng. Peter Otieno", "Cllr. Ahmed", "Ing. Rossi").
    "Eng",
    "Engr",
    "Ing",
    "Arch",
    "Hon",
    "Cllr",
    "Col",
    "Gen",
    "Lt",
    "Maj",
    "Cmdr",
    "Insp",
    "Det",
    "Supt",
    "Fr",
    "Atty",
    "Sen",
    "Gov",
    # ... and in Spanish, Portuguese and Italian ("Dra. Paola Reyes", "Lic. Ortega", "Dott. Rossi")
    "Dra",
    "Sra",
    "Srta",
    "Lic",
    "Arq",
    "Dott",
    "Mtro",
    "Mtra",
)
NOT_AN_END = "".join(rf"(?<!\b{title}\.)" for title in TITLES) + (
    r"(?<!\b[A-Z]\.)(?<!\be\.g\.)(?<!\bi\.e\.)"
)
SENTENCE_BREAK = re.compile(rf"(?<=[.!?;]){NOT_AN_END}\s+|\n+")
_SPACES = re.compile(r"\s+")


# Latin letters that are no base letter plus an accent, so NFKD leaves them be: written as the
# letters an English keyboard types for them ("Søren Kjær" is "Soren Kjaer", "Łódź" "Lodz").
_LETTERS = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h"}
)
# Apostrophes inside a name: "O'Donnell" and "ODonnell" are one key, typed either way.
_APOSTROPHES = re.compile(r"(?<=\w)['’ʼ`](?=\w)")


def normalize_name(name: str) -> str:
    """The key of an entity name ("  José  Álvarez " -> "jose alvarez"): NFKC, casefolded,
    accents dropped, letters without a base letter transliterated, apostrophes inside it
    dropped, spaces collapsed: one node whatever the keyboard."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    bare = "".join(c for c in folded if not unicodedata.combining(c)).translate(_LETTERS)
    return _SPACES.sub(" ", _APOSTROPHES.sub("", unicodedata.normalize("NFC", bare)).strip())


def lettered(word: str) -> bool:
    """Whether a word is letters alone, hyphens and apostrophes aside ("O'Neill",
    "Nakamura-Reid", "Tanabe-san"; not "V70", "C++")."""
    return word.replace("-", "").replace("'", "").replace("’", "").isalpha()


_ARTICLE = re.compile(r"^(?:the|a|an)\s+")


def value_key(value: str) -> str:
    """The comparable form of a value: case, accents, spacing, articles and end marks removed
    ("Neovim" and "neovim." are one value); the store indexes it (facts.object_key)."""
    folded = unicodedata.normalize("NFKC", value).casefold().strip(" .!?\"'`")
    return _ARTICLE.sub("", " ".join(folded.split()))


def same_value(a: str, b: str) -> bool:
    """Whether two stated values are the same value ("Neovim" and "neovim." are)."""
    return value_key(a) == value_key(b)


def names_value(said: str, value: str) -> bool:
    """Whether a stated name names a stored value: the same value, or its first or last words
    ("iPhone" for "iPhone 13", "Civic" for "Honda Civic", "Ridgeway" for "Ridgeway Logistics"),
    or, said with a capital, a run of its words ("Focus" for "2016 Ford Focus estate")."""
    if same_value(said, value):
        return True
    words, whole = value_key(said).split(), value_key(value).split()
    if not words or len(" ".join(words)) < 3 or len(words) >= len(whole):
        return False
    if whole[: len(words)] == words or whole[-len(words) :] == words:
        return True
    runs = (whole[i : i + len(words)] for i in range(1, len(whole) - len(words)))
    return said[:1].isupper() and len(" ".join(words)) >= 4 and words in runs


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """The start of a text on one line, cut at a word where possible."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0]
    return (cut if len(cut) > limit // 2 else flat[:limit]) + "…"


# Words that make up acknowledgements ("ok thanks", "yes please go ahead"): a message made only
# of these has nothing to recall for.
ACKNOWLEDGEMENTS = frozenset(
    """
    ok okay k kk yes y yeah yep yup no n nope sure thanks thank you thx ty a lot cool nice great
    good perfect awesome done lgtm continue go on ahead proceed right correct got it sounds
    makes sense agreed fine alright all please do looks ship that this is
    """.split()
)
_ACK_WORD = re.compile(r"\w+")


def is_trivial(message: str) -> bool:
    """A message with nothing to recall for: an acknowledgement, emoji or punctuation only."""
    words = _ACK_WORD.findall(message.casefold())
    if not words:
        return True
    return all(word in ACKNOWLEDGEMENTS for word in words)
