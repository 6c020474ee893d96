"""Earlier memories that wrote a new entity's name: linked to it when it is created.

A name is often written before anything recognises it: "she's put a note on healthroster"
before "Rota for March is up on HealthRoster", "faure requiem: tenors are exposed" before "the
Fauré Requiem by Easter". When a save creates an entity, the tenant's earlier memories that
write its name or an alias (in any case, with or without accents) and link nothing of that name
are linked to it, so the node gathers every memory that names it and `search(entity=...)` finds
them all.

A name written in another case than the entity's is linked only when one of its words is no
dictionary word: "a frank talk" is no Frank and "breathe easy" no Breathe Easy (nor "aire unit"
the Aire Unit: "aire" is a WordNet word), but "healthroster" is HealthRoster. A name that is
also a common word of the gazetteer's ("Go", "Swift") is linked only as written. Only whole
words count: never a word of a longer capitalised name ("Longmeadow" in "Longmeadow Dairy") or
of a longer name the memory already links ("Breathe Easy" in "Breathe Easy VAP audit"), and
never a person's one-word alias ("Ellie" of Ellie Thornton may be another Ellie).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from mnemex import gazetteer
from mnemex.analysis.entities import WORD_RUN
from mnemex.analysis.words import dictionary_words
from mnemex.models import Entity
from mnemex.store.base import MemoryFilter, Tx
from mnemex.text import STOPWORDS, normalize_name

SCANNED = 20  # earlier memories read per new entity, best lexical match first
_SHORTEST = 4  # characters of a one-word name: "IV", "Tue" are too short to find safely


@dataclass(frozen=True, slots=True)
class _Word:
    said: str  # as written, a possessive "'s" dropped
    folded: str  # accents and case gone
    start: int
    end: int


def _words(text: str) -> list[_Word]:
    """The text's words as written and as folded."""
    words = []
    for match in WORD_RUN.finditer(text.replace("’", "'")):
        said = match.group(0)
        said = said[:-2] if said.endswith("'s") else said
        words.append(_Word(said, normalize_name(said), match.start(), match.end()))
    return words


def _forms(entity: Entity) -> list[list[str]]:
    """The entity's name and aliases as written, each a list of words; of a person's aliases
    only the longer ones ("Ellie" may be another Ellie than Ellie Thornton)."""
    forms = []
    for name in dict.fromkeys([entity.name, *entity.aliases]):
        words = [w.said for w in _words(name)]
        first_name = entity.category == "person" and name != entity.name and len(words) == 1
        if words and not first_name and (len(words) > 1 or len(name) >= _SHORTEST):
            forms.append(words)
    return forms


def _named(text: str, word: _Word | None, between: tuple[int, int]) -> bool:
    """Whether `word`, next to a match with only spaces `between`, is a capitalised word of
    the same name ("Longmeadow" in "Longmeadow Dairy"), not "The" or a word after a comma."""
    if word is None or text[between[0] : between[1]].strip():
        return False
    return word.said[:1].isupper() and word.folded not in STOPWORDS


def _writes(text: str, form: list[str], common: frozenset[str], exact_only: bool) -> bool:
    """Whether the text writes the name `form` as a whole name: as written, or in another case
    when one of its words is no dictionary word; never as part of a longer capitalised name."""
    said = _words(text)
    want = [normalize_name(w) for w in form]
    size = len(want)
    for start in range(len(said) - size + 1):
        window = said[start : start + size]
        if [w.folded for w in window] != want:
            continue
        before = said[start - 1] if start else None
        after = said[start + size] if start + size < len(said) else None
        if _named(text, before, (before.end if before else 0, window[0].start)) or _named(
            text, after, (window[-1].end, after.start if after else 0)
        ):
            continue
        if [w.said for w in window] == form:
            return True
        if not exact_only and any(w not in common for w in want):
            return True
    return False


def _inside_linked(form: list[str], linked: Sequence[str]) -> bool:
    """Whether the name is only a word of a longer name the memory links already."""
    name = normalize_name(" ".join(form))
    return any(name in normalize_name(other) and name != normalize_name(other) for other in linked)


@functools.cache
def _ambiguous() -> frozenset[str]:
    return frozenset(normalize_name(name) for name in gazetteer.ambiguous())


def link_earlier(tx: Tx, memory_id: str, created: Sequence[Entity]) -> list[str]:
    """Link each new entity to the earlier memories that write its name; the ids linked."""
    linked_ids: list[str] = []
    common = dictionary_words()
    ambiguous = _ambiguous()
    for entity in created:
        if entity.expired_at is not None:
            continue  # folded into another node by this same save
        forms = _forms(entity)
        if not forms:
            continue
        # each form as one term: a phrase to FTS5 ("aire unit"), its words to PostgreSQL's BM25
        terms = list(dict.fromkeys(normalize_name(" ".join(form)) for form in forms))
        exact = normalize_name(entity.name) in ambiguous
        hits = [i for i, _ in tx.lexical_search(terms, SCANNED, MemoryFilter()) if i != memory_id]
        memories = tx.get_memories(hits)
        links = tx.memory_entity_ids(hits)
        for memory in (memories[i] for i in hits if i in memories):
            folded = normalize_name(memory.content)
            if entity.id in links.get(memory.id, []) or not any(term in folded for term in terms):
                continue
            if not any(
                _writes(memory.content, form, common, exact)
                and not _inside_linked(form, memory.entities)
                for form in forms
            ):
                continue
            tx.link_entities(memory.id, [*links.get(memory.id, []), entity.id])
            tx.update_memory(memory.id, {"entities": [*memory.entities, entity.name]})
            linked_ids.append(memory.id)
    return linked_ids
