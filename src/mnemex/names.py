"""Entity names: the one case- and accent-insensitive key every backend and layer agrees on."""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")


def normalize_name(name: str) -> str:
    """The key of an entity name ("  Neo Vim " -> "neo vim"): NFKC, casefolded, spaces collapsed."""
    folded = unicodedata.normalize("NFKC", name).casefold().strip()
    return _SPACES.sub(" ", folded)
