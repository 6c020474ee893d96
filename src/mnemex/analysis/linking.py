"""Linking a message's names to the tenant's stored entities: known names get their stored
spelling and id, and stored names NER missed are found again, unless the word is a common word
that spells the name ("the delta between") or a first name the user calls family that would
link to a stranger of that name. Also the names an edited memory keeps."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mnemex import gazetteer
from mnemex.analysis import canon, described, entities
from mnemex.analysis.entities import (
    WORD_RUN,
    Mention,
    Token,
    merge,
    tag_at,
)
from mnemex.analysis.words import dictionary_words
from mnemex.config import Settings
from mnemex.models import Entity
from mnemex.text import STOPWORDS, normalize_name

Lookup = Callable[[Sequence[str]], dict[str, Entity]]


def _ngrams(text: str, longest: int = 3) -> list[tuple[str, int, int]]:
    words = [(m.group(0), m.start(), m.end()) for m in WORD_RUN.finditer(text)]
    grams = []
    for size in range(longest, 0, -1):
        for i in range(len(words) - size + 1):
            chunk = words[i : i + size]
            edges = (chunk[0][0].casefold(), chunk[-1][0].casefold())
            if edges[0] in STOPWORDS or edges[1] in STOPWORDS or len(chunk[0][0]) < 2:
                continue  # a stored name neither starts nor ends with "the", "of", ...
            grams.append((text[chunk[0][1] : chunk[-1][2]], chunk[0][1], chunk[-1][2]))
    return grams


def _common_word(gram: str, entity: Entity, words: Sequence[Token], start: int, end: int) -> bool:
    """Whether a lowercase word the store knows capitalised is the word, not the name: "the
    delta between staging and prod" beside the airline Delta, "a heron at the pond" beside the
    Heron app. It must be a dictionary word tagged a common noun, verb or adjective where it
    stands, and not a noun naming the noun after it for a thing that is not a person ("the
    falcon launch slipped" is Project Falcon's launch; "rose petals" are no one's, and "a frank
    talk" or "nice acidity" are adjectives); "renee" or "tomek" in lowercase still link. An
    acronym is never its word in lowercase ("my cat Mochi" beside CAT tools)."""
    if gram != gram.casefold() or entity.name == entity.name.casefold() or " " in gram:
        return False
    tag = tag_at(words, start, end)
    after = next((t.tag for t in words if t.start >= end), None)
    naming = tag in _NOUN_TAGS and after in _NOUN_TAGS and entity.category != "person"
    naming = naming and not entity.name.isupper()
    return tag in canon.WORD_TAGS and not naming and gram in dictionary_words()


_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})


def _someone_else(text: str, start: int, end: int, entity: Entity) -> bool:
    """Whether a part of a name the store would link to a longer name is another person: "my
    nephew Amir" beside the tenant's client Amir Khalil, whom nobody called a nephew, or "Mr
    Jacobs next door (retired, in his 80s)" beside Ebrahim Jacobs, the new postdoc."""
    if normalize_name(entity.name) == normalize_name(text[start:end]):
        return False
    return described.told_apart(described.said_of(text, start, end), entity.details)


def link(
    text: str, mentions: list[Mention], lookup: Lookup, words: Sequence[Token] | None = None
) -> list[Mention]:
    """Give known names their stored spelling and id, and add stored names NER missed.

    `lookup` takes many names and returns the stored entity of each one it knows (one read);
    `words`, the tagged words of `text`, tell a common word from a stored name it spells.
    """
    grams = _ngrams(text)
    known = lookup([m.text for m in mentions if m.named] + [gram for gram, _, _ in grams])
    for mention in mentions:
        entity = known.get(mention.text) if mention.named else None
        if entity is not None and not _someone_else(text, mention.start, mention.end, entity):
            # a node first met in lower case takes the capitals it is later written with
            relettered = entity.name.islower() and not mention.text.islower()
            relettered = relettered and normalize_name(mention.text) == normalize_name(entity.name)
            mention.text = mention.text if relettered else entity.name
            mention.entity_id = entity.id
    extra: list[Mention] = []
    ambiguous = gazetteer.ambiguous()
    for gram, start, end in grams:
        entity = known.get(gram)
        if entity is None or any(m.start < end and start < m.end for m in mentions + extra):
            continue
        if entity.name in ambiguous and gram != entity.name:
            continue  # "we go with Postgres": the word, not the language Go
        if words is not None and _common_word(gram, entity, words, start, end):
            continue
        if _someone_else(text, start, end, entity):
            continue
        extra.append(
            Mention(entity.name, entity.category or "KNOWN", start, end, "store", entity.id)
        )
    return merge(mentions + extra + _expansions(text, mentions + extra, lookup, words))


# Tags of the words a written-out name is made of: adjectives, nouns, participles
# ("continuous renal replacement therapy", "Ventilator-associated pneumonia").
_NAME_WORD_TAGS = frozenset({"JJ", "NN", "NNS", "NNP", "NNPS", "VBN", "VBG"})
_LONGEST_ACRONYM = 5


def _runs(text: str, words: Sequence[Token]) -> dict[str, tuple[int, int]]:
    """Acronyms of three to five letters that runs of name words spell, with where the first
    such run is: adjectives, nouns and participles where they stand, with linking words
    inside ("all pending items" spells no API: "all" is no name word)."""
    runs = list(WORD_RUN.finditer(text))
    said = [r.group(0).casefold() for r in runs]
    naming = [
        tag_at(words, r.start(), r.end()) in _NAME_WORD_TAGS or word in canon.LINKING_WORDS
        for r, word in zip(runs, said, strict=True)
    ]
    found: dict[str, tuple[int, int]] = {}
    for i in range(len(runs)):
        for j in range(i + 1, min(i + 2 * _LONGEST_ACRONYM, len(runs))):
            if not naming[j] or not text[runs[j - 1].end() : runs[j].start()].isspace():
                break  # a word no name holds, or a comma between
            if said[i] in STOPWORDS or said[j] in STOPWORDS or not naming[i]:
                continue
            start, end = runs[i].start(), runs[j].end()
            phrase = text[start:end]
            if not phrase.replace(" ", "").replace("-", "").isalpha():
                break
            for short in {canon.initials(phrase), canon.initials(phrase, linking=False)}:
                if 3 <= len(short) <= _LONGEST_ACRONYM:
                    found.setdefault(short, (start, end))
    return found


def _titled(phrase: str) -> bool:
    """Whether every word of the phrase but a linking word starts with a capital."""
    return all(
        w[:1].isupper() for w in phrase.replace("-", " ").split() if w not in canon.LINKING_WORDS
    )


def _expansions(
    text: str, mentions: list[Mention], lookup: Lookup, words: Sequence[Token] | None
) -> list[Mention]:
    """The tenant's acronyms written out: a run of name words whose initials spell an acronym
    the store knows ("continuous renal replacement therapy" beside CRRT, "Advanced Life
    Support" beside ALS) names that node, and the run becomes its alias; not across a name
    already found, and for an acronym the gazetteer knows as a name of its own (AWS, EMR) only
    a run written as a name ("Amazon Web Services", not "electronic medical record")."""
    found = {} if words is None else _runs(text, words)
    known = lookup(list(found)) if found else {}
    extra = []
    for short, (start, end) in found.items():
        entity = known.get(short)
        if entity is None or entity.name != short or not canon.acronym_of(short, text[start:end]):
            continue
        if short.casefold() in gazetteer.canonical_map() and not _titled(text[start:end]):
            continue  # Amazon's EMR is no "electronic medical record"; AWS "Amazon Web Services"
        if any(
            m.start < end and start < m.end and m.entity_id not in (None, entity.id)
            for m in mentions
        ):
            continue
        extra.append(
            Mention(entity.name, entity.category or "KNOWN", start, end, "store", entity.id)
        )
    return extra


def refreshed_entities(
    old_text: str, new_text: str, old_entities: Sequence[str], settings: Settings
) -> list[str]:
    """A memory's entities after its text was edited.

    Names the old text mentioned and the new one does not are dropped; names never in the text
    (given by the caller) stay; names the new text mentions join.
    """

    def mentioned(name: str, text: str) -> bool:
        return normalize_name(name) in normalize_name(text)

    kept = [e for e in old_entities if mentioned(e, new_text) or not mentioned(e, old_text)]
    found = entities.extract(new_text, use_spacy=settings.analysis_spacy)
    names = kept + [m.text[: settings.max_entity_chars] for m in found if m.named]
    unique = {normalize_name(name): name for name in reversed(names)}
    return list(reversed(unique.values()))[: settings.max_entities]
