"""Relations between the names of a message: graph edges, or attributes of a single entity.

"Olu works on Payments" links two entities (a relationship). "Dell is a developer with 15 years
experience" describes one: it becomes an attribute (a tag and a summary line of Dell), never the
entities "Developer" or "15 Years Experience". Patterns run between named mentions, so only what
the entity extractor or the conversation context calls a name can be an end of an edge.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mnemex.analysis import canon
from mnemex.text import STOPWORDS

# Verb phrase -> relation type. Longest phrases first so "is working on" wins over "working".
VERBS = {
    "works on": "works_on",
    "is working on": "works_on",
    "worked on": "works_on",
    "works at": "works_at",
    "works for": "works_at",
    "is working at": "works_at",
    "owns": "owns",
    "is the owner of": "owns",
    "uses": "uses",
    "is using": "uses",
    "used": "uses",
    "manages": "manages",
    "is managing": "manages",
    "built": "built",
    "builds": "built",
    "created": "built",
    "wrote": "built",
    "leads": "leads",
    "is leading": "leads",
    "led": "leads",
    "maintains": "maintains",
    "founded": "founded",
    "joined": "member_of",
    "reports to": "reports_to",
    "depends on": "depends_on",
    "runs on": "runs_on",
    "talks to": "talks_to",
    "is part of": "part_of",
    "belongs to": "part_of",
    "lives in": "lives_in",
    "is based in": "based_in",
}
# Other names of the same relation type ("employer" and "works for" are works_at).
SYNONYMS = {
    **{verb.replace(" ", "_"): kind for verb, kind in VERBS.items()},
    "employed_by": "works_at",
    "employer": "works_at",
    "works_with": "works_with",
    "colleague_of": "works_with",
    "member": "member_of",
    "joined": "member_of",
    "in_team": "member_of",
    "manager_of": "manages",
    "managed_by": "reports_to",
    "boss": "reports_to",
    "reports": "reports_to",
    "lead_of": "leads",
    "leader_of": "leads",
    "owner_of": "owns",
    "owned_by": "owned_by",
    "located_in": "based_in",
    "lives_at": "lives_in",
    "resides_in": "lives_in",
    "uses_tool": "uses",
    "relies_on": "depends_on",
    "requires": "depends_on",
    "created_by": "built_by",
    "authored": "built",
    "related": "related_to",
    "relates_to": "related_to",
    "associated_with": "related_to",
    "linked_to": "related_to",
    "connected_to": "related_to",
}
# Types that say nothing about how two things relate (maint scan reports them).
VAGUE = frozenset({"related_to", "at", "with", "has", "is", "and", "mentions", "leads_to"})
# A type and the type that reads the same edge the other way round.
INVERSES = {"reports_to": "manages", "built_by": "built", "owned_by": "owns"}


def relation_name(kind: str) -> str:
    """A relation type in snake_case, through the synonym table ("works for" -> works_at)."""
    key = "_".join(kind.strip().casefold().replace("-", " ").split())
    return SYNONYMS.get(key, key)


_VERB_ALT = "|".join(sorted((re.escape(v) for v in VERBS), key=len, reverse=True))
_ADVERB = r"(?:(?:also|now|currently|still|mainly|mostly|actively|already|actually)\s+)?"
_DET = r"(?:(?:the|a|an|our|my|their|his|her|its)\s+)?"
_BETWEEN_VERB = re.compile(rf"^\s+{_ADVERB}(?P<verb>{_VERB_ALT})\s+{_DET}$", re.IGNORECASE)
_BETWEEN_ARROW = re.compile(r"^\s*(?:->|→|=>|-->)\s*$")
_BETWEEN_AT = re.compile(
    r"^(?:\s*,\s*|\s+(?:is|was)\s+)(?:(?:a|an|the)\s+)?(?P<role>[a-z][a-z -]{0,40}?)\s+"
    r"(?:at|@)\s+$|^\s+(?:at|@)\s+$|^\s+(?P<work>works?|worked|working)\b[^.;,]{0,50}?\s+at\s+$",
    re.IGNORECASE,
)
# "the Berlin office": a name used as a modifier is not the object of the verb.
_COMPOUND = re.compile(r"^\s+(?P<word>[a-z][a-z-]+)\b")
_IS = re.compile(r"^\s+(?:is|was)\s+$", re.IGNORECASE)
_POSSESSIVE_ROLE = re.compile(r"^(?:'s|’s)\s+(?P<role>[a-z]+(?:[ -][a-z]+)?)\b")
_VERB_AFTER = re.compile(rf"^\s+{_ADVERB}(?P<verb>{_VERB_ALT})\s+(?P<rest>[^.;!?\n]+)", re.I)
_IS_A = re.compile(
    r"^\s+(?:is|was)\s+(?P<rest>(?:a|an|the|one of the)\s+[^.;!?\n]+)", re.IGNORECASE
)
_CLAUSE_END = re.compile(r"\s+(?:and|but|while|because|so|although|though|whereas)\s+.*$", re.I)
_SIDE = r"[\w.+#/-]+(?: [\w.+#/-]+){0,2}"
_ARROW = re.compile(rf"(?P<a>{_SIDE})\s*(?:->|→|=>|-->)\s*(?P<b>{_SIDE})")
_ROLE_STOP = re.compile(r"\s+(?:with|at|for|in|on|who|that|and|from|of|since|,)\b.*$", re.I)


@dataclass(slots=True)
class Span:
    """A named thing in the text: a mention or a pronoun resolved by the context."""

    name: str
    start: int
    end: int


@dataclass(slots=True)
class Found:
    """A relationship (two entities) or an attribute (one entity and a value)."""

    kind: str  # "relationship" | "attribute"
    subject: str
    type: str
    object: str | None = None
    value: str | None = None
    tags: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form used in Analysis.relations."""
        return dataclasses.asdict(self)


def _role_tag(phrase: str) -> list[str]:
    head = _ROLE_STOP.sub("", phrase.strip())
    words = [w for w in re.findall(r"[a-z][a-z-]*", head.casefold()) if w not in STOPWORDS]
    words = [w for w in words if w not in {"one", "of"}]
    return ["-".join(words[-2:])] if words else []


def _pair(text: str, a: Span, b: Span) -> Found | None:
    between = text[a.end : b.start]
    verb = _BETWEEN_VERB.match(between)
    compound = _COMPOUND.match(text[b.end :])
    modifier = compound and compound.group("word") not in STOPWORDS
    if modifier and compound and canon.names_its_kind(compound.group("word")):
        modifier = False  # "leads the Orion project": the project is Orion
    if verb and not modifier:
        return Found("relationship", a.name, VERBS[verb.group("verb").casefold()], b.name)
    if _BETWEEN_ARROW.match(between):
        return Found("relationship", a.name, "leads_to", b.name)
    if _IS.match(between):
        role = _POSSESSIVE_ROLE.match(text[b.end :])
        if role:
            kind = "_".join(role.group("role").casefold().replace("-", " ").split())
            return Found("relationship", a.name, f"{kind}_of", b.name)
    at = _BETWEEN_AT.match(between)
    if at:
        title: str | None = at.group("role")
        tags = _role_tag(title) if title else []
        kind = "works_at" if title or at.group("work") else "at"
        return Found("relationship", a.name, kind, b.name, tags=tags)
    return None


def _attribute(text: str, a: Span, covered: set[int]) -> Found | None:
    after = text[a.end :]
    verb = _VERB_AFTER.match(after)
    if verb and a.end + verb.start("rest") not in covered:
        value = _CLAUSE_END.sub("", verb.group("rest")).strip(" ,")
        return Found("attribute", a.name, VERBS[verb.group("verb").casefold()], value=value)
    is_a = _IS_A.match(after)
    if is_a and a.end + is_a.start("rest") not in covered:
        value = _CLAUSE_END.sub("", is_a.group("rest")).strip(" ,")
        return Found("attribute", a.name, "is", value=value, tags=_role_tag(value))
    return None


def arrows(text: str) -> list[Found]:
    """ "X -> Y" edges: both sides are names by construction."""
    return [
        Found("relationship", m.group("a").strip(), "leads_to", m.group("b").strip())
        for m in _ARROW.finditer(text)
    ]


def _reattach(found: list[Found], relation: Found) -> Found:
    """ "Alice uses Kubernetes at Microsoft": the place belongs to Alice, not to Kubernetes."""
    previous = found[-1] if found else None
    if relation.type == "at" and previous is not None and previous.object == relation.subject:
        relation.subject = previous.subject
    return relation


def extract(text: str, spans: Sequence[Span]) -> list[Found]:
    """Relationships between consecutive named spans, and attributes of single ones."""
    ordered = sorted(spans, key=lambda s: s.start)
    found: list[Found] = arrows(text)
    linked: set[int] = set()
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 : i + 3]:
            relation = _pair(text, a, b)
            if relation is not None and relation.type != "leads_to":
                found.append(_reattach(found, relation))
                linked.add(i)
                break
    starts = {span.start for span in ordered}
    for i, a in enumerate(ordered):
        if i in linked:
            continue
        attribute = _attribute(text, a, starts)
        if attribute is not None:
            found.append(attribute)
    return found
