"""The lexical channel's words: user text -> plain search terms, with no query syntax at all.

Words are cut the way FTS5's unicode61 tokenizer cuts them (letters and digits; everything else,
quotes, `*`, parentheses, emoji, separates), so `AND`, `NEAR(` or a stray quote are only words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
MAX_TERMS = 32

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


def prune_common(terms: Sequence[T], dfs: Sequence[int], limit: int) -> list[T]:
    """Drop terms found in more than `limit` rows, unless that would drop every term."""
    kept = [term for term, df in zip(terms, dfs, strict=True) if df <= limit]
    return kept or list(terms)


def common_cutoff(corpus_size: int, common_share: float) -> int:
    """Rows above which a query term counts as too common to search (at least 50)."""
    return max(50, int(corpus_size * common_share))
