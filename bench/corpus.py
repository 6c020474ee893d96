"""A deterministic synthetic corpus for speed benchmarks: memory-like sentences, Zipf words."""

from __future__ import annotations

import random

_SYLLABLES = """
    ka lo mi ne ra to su vi za de fo gu hi ja ke li mo nu pa qui re sa te vu wo xe yo zu bar cen
    dor fel gan hom jun kor lem nar pol rin sel tam ver
""".split()
_PEOPLE = """
    Alice Bob Carmen Dmitri Elena Farid Grace Hiro Ines Jamal Kofi Lena Mateo Nadia Omar Priya
""".split()
_TOPICS = """
    deploy database editor budget meeting release migration design review roadmap incident
""".split()
_TEMPLATES = (
    "{p} said the {t} for {w1} moves to {w2} next week",
    "{p} prefers {w1} over {w2} when working on the {t}",
    "Note: the {t} of {w1} depends on {w2} and {w3}",
    "{p} decided to use {w1} for the {t} because {w2} was too slow",
    "Remember that {p} owns the {w1} {t} and reports to {w2}",
    "The {w1} team shipped {w2} after the {t} with {p}",
)


def vocabulary(size: int, seed: int = 7) -> list[str]:
    """`size` distinct pronounceable pseudo-words."""
    rng = random.Random(seed)
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def sentences(count: int, seed: int = 11, vocab_size: int = 20_000) -> list[str]:
    """`count` memory-like sentences whose rare words follow a Zipf law (like real text)."""
    rng = random.Random(seed)
    vocab = vocabulary(vocab_size, seed)
    weights = [1.0 / (rank + 1) for rank in range(len(vocab))]
    picks = rng.choices(vocab, weights=weights, k=count * 4)
    out = []
    for i in range(count):
        w1, w2, w3, w4 = picks[4 * i : 4 * i + 4]
        text = rng.choice(_TEMPLATES).format(
            p=rng.choice(_PEOPLE), t=rng.choice(_TOPICS), w1=w1, w2=w2, w3=w3
        )
        out.append(f"{text} ({w4} #{i})")
    return out


def key_words(text: str, count: int = 2) -> list[str]:
    """The first `count` corpus words of a sentence (not template, name or topic words)."""
    fixed = {w.casefold() for w in _PEOPLE + _TOPICS}
    for template in _TEMPLATES:
        fixed.update(w.casefold() for w in template.replace(":", " ").split() if "{" not in w)
    found = [w for w in text.replace("(", " ").split() if w.isalpha() and w.casefold() not in fixed]
    return found[:count]
