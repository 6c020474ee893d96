"""Note-style statements of a change: "Vim -> Neovim", "not Vim anymore, Neovim now",
"switched from Vim to Neovim" with no subject (in a personal memory, the user).

`read` returns the raw parts of such a clause; ledger/extract.py cleans them into a Triple.
A subject may lead ("Alice: Vim -> Neovim", "my editor: Vim -> Neovim") and a relation may
follow in brackets ("Vim -> Neovim (editor)"); without one, the replaced value names the key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mnemex.text import UPPER

# A subject: capitalised words ("Alice", "Project Atlas") or an identifier with a hyphen, digit
# or dot ("svc-billing", "host-3").
_CAPITALISED = rf"[{UPPER}][\w.\-]*"
NAME = rf"(?:{_CAPITALISED}|[a-z][a-z0-9]*[\-_][\w\-]+)(?:\s+(?:{_CAPITALISED}|\d[\w.\-]*)){{0,3}}"
_PART = r"[^,;:()]{1,60}?"
_REL = r"[A-Za-z][A-Za-z\- ]{0,40}?"
_OWNER = r"(?:my|his|her|their|our)\s+"
_ARROW = re.compile(
    rf"^(?:(?:(?P<my>my)\s+(?P<rel>{_REL})|(?P<subj>{NAME})(?:'s|’s)\s+(?P<rel2>{_REL})"
    rf"|(?P<subj2>{NAME}))\s*[:,]?\s+)?"
    # "booked Denver -> Toronto on Air Canada": a trip, not a change of a value
    r"(?!(?:[a-z]+ed|flew|drove|took|got|went|rode|caught|flying|driving)\s)"
    rf"(?P<prev>{_PART})\s*(?:->|→|=>|-->|⟶)\s*(?P<val>{_PART})"
    rf"(?:\s*\((?:{_OWNER})?(?P<rel3>{_REL})\))?$"
)
_NO_LONGER = re.compile(
    rf"^(?:(?P<subj>{NAME}|I)\s+(?:am|is|are|'m|’m)\s+)?(?:not|no\s+longer|no\s+more)"
    rf"(?:\s+(?:on|using|with|in|at))?\s+(?P<prev>{_PART})(?:\s+(?:anymore|any\s+more))?"
    rf"\s*[,;:—–-]+\s*(?:(?:it's|it’s|it\s+is|now|but)\s+)?"
    # a value, not a clause of its own ("not allergic to X, the test came back negative")
    r"(?=\S)(?!.*\b(?:is|was|were|are|has|had)\b|the\s+[a-z]+\s+[a-z]+)"
    rf"(?P<val>{_PART})(?:\s+now)?$",
    re.IGNORECASE,
)
_SUBJECTLESS = re.compile(
    rf"^(?P<verb>switched|moved|migrated|went|changed|upgraded)(?:\s+over)?"
    rf"(?:\s+{_OWNER}(?P<rel>{_REL}))?(?:\s+from\s+(?P<prev>{_PART}))?\s+(?:over\s+)?to\s+"
    rf"(?P<val>{_PART})$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Parts:
    """The raw parts of a shorthand change (the caller cleans and checks them)."""

    subject: str | None  # None: the user
    relation: str | None
    value: str
    previous: str | None
    verb: str


def read(clause: str) -> Parts | None:
    """The change a note-style clause states, if it is one."""
    text = clause.strip()
    arrow = _ARROW.match(text)
    if arrow is not None:
        groups = arrow.groupdict()
        relation = groups["rel"] or groups["rel2"] or groups["rel3"]
        subject = groups["subj"] or groups["subj2"]
        return Parts(subject, relation, groups["val"], groups["prev"], "switch")
    gone = _NO_LONGER.match(text)
    if gone is not None:
        subject = gone.group("subj")
        subject = None if subject is None or subject.casefold() == "i" else subject
        return Parts(subject, None, gone.group("val"), gone.group("prev"), "switch")
    bare = _SUBJECTLESS.match(text)
    if bare is not None:
        verb = "move" if bare.group("verb").casefold() == "moved" else "switch"
        return Parts(None, bare.group("rel"), bare.group("val"), bare.group("prev"), verb)
    return None
