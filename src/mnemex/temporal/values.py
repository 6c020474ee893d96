"""The comparable form of a stated value: what makes "Neovim" and "neovim." the same value.

Kept apart from the ledger so the store can index it (facts.object_key) without importing the
ledger's logic.
"""

from __future__ import annotations

import re
import unicodedata

_ARTICLE = re.compile(r"^(?:the|a|an)\s+")


def value_key(value: str) -> str:
    """The comparable form of a value: case, accents, spacing, articles and end marks removed."""
    folded = unicodedata.normalize("NFKC", value).casefold().strip(" .!?\"'`")
    return _ARTICLE.sub("", " ".join(folded.split()))


def same_value(a: str, b: str) -> bool:
    """Whether two stated values are the same value ("Neovim" and "neovim." are)."""
    return value_key(a) == value_key(b)
