"""Keeping the entity graph clean: `maint scan` finds what is wrong, `maint fix` mends it.

Findings: stale relations (every memory behind them archived or forgotten: the graph decays with
the memories), cascade expiry (an entity whose relations have all expired and that no live memory
mentions), duplicate entities (one real thing as two nodes: the same key up to case and accents,
a known alias, a short form or a first name of the tenant's one person of that name, or a name a
letter or two off with the same category and a shared neighbour), orphans (no memory, relation or
fact: also what cascade expiry leaves), junk (a date, a weekday, a phrase or a common word as a
node), self-loops, reversed relations (`reports_to` read as the other end `manages`) and vague
ones (`related_to`: reported, not fixed). Fixes never delete: a merge moves every memory link,
edge and fact to the kept node, keeps the other name as an alias and expires the merged node
under a new name; an orphan or junk node is expired (junk becomes a tag of the memories that
named it). Each fix is one audit event (`maint_fix`) carrying what it changed, and
`undo(fix_id)` puts it back.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from mnemex import gazetteer
from mnemex.analysis import canon, described
from mnemex.analysis.relations import INVERSES, VAGUE
from mnemex.clock import to_micros
from mnemex.errors import NotFoundError
from mnemex.limits import normalize_tag
from mnemex.models import LIVE_STATUSES, Entity, Relation, new_id
from mnemex.store.base import Tx
from mnemex.text import normalize_name

PAGE = 1_000
TYPO_RATIO = 0.9  # difflib ratio of two folded names a letter or two apart ("Kubernets")
KINDS = ("duplicate", "orphan", "junk", "self_loop", "reversed", "vague", "stale", "cascade")
_WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())


@dataclass(slots=True)
class Finding:
    """One thing wrong with the graph and the fix `maint fix` would make."""

    kind: str
    entities: list[str]
    names: list[str]
    reason: str
    fix: str
    relation: str | None = None
    fixed: bool = False
    fix_id: str | None = None


@dataclass(slots=True)
class MaintReport:
    """What a scan found (and, after `fix`, what was changed)."""

    findings: list[Finding] = field(default_factory=list)
    dry_run: bool = True

    @property
    def counts(self) -> dict[str, int]:
        """Findings per kind."""
        return {k: sum(f.kind == k for f in self.findings) for k in KINDS}


def _all(tx: Tx) -> tuple[list[Entity], list[Relation]]:
    entities: list[Entity] = []
    while True:
        page = tx.list_entities(PAGE, len(entities))
        entities += page
        if len(page) < PAGE:
            break
    relations: list[Relation] = []
    while True:
        batch = tx.entity_relations(PAGE, len(relations))
        relations += batch
        if len(batch) < PAGE:
            break
    return [e for e in entities if e.expired_at is None], relations


def _canonical(name: str) -> str:
    """The name's key, known aliases resolved, with its spaces and hyphens closed up: "De
    Souza" and "DeSouza", "La Trobe Street" and "Latrobe Street", "Mary-Jane" and "Mary Jane"."""
    known = gazetteer.canonical_map().get(name.casefold())
    return re.sub(r"[\s-]+", "", normalize_name(known[0] if known else name))


def _keep_first(a: Entity, b: Entity, mentions: dict[str, int]) -> tuple[Entity, Entity]:
    """(kept, merged): the longer name, then the more mentioned, then the older node."""

    def rank(e: Entity) -> tuple[int, int, float]:
        return (-len(e.name.split()), -mentions.get(e.id, 0), e.created_at.timestamp())

    return (a, b) if rank(a) <= rank(b) else (b, a)


def _duplicates(
    entities: list[Entity], relations: list[Relation], mentions: dict[str, int]
) -> list[Finding]:
    live = [r for r in relations if r.expired_at is None]
    neighbours: dict[str, set[str]] = {}
    for r in live:
        neighbours.setdefault(r.from_id, set()).add(r.to_id)
        neighbours.setdefault(r.to_id, set()).add(r.from_id)
    by_key: dict[str, list[Entity]] = {}
    shorts: dict[str, list[Entity]] = {}
    firsts: dict[str, list[Entity]] = {}
    for e in entities:
        by_key.setdefault(_canonical(e.name), []).append(e)
        words = e.name.split()
        if e.category == "person" and len(words) >= 2:
            firsts.setdefault(normalize_name(words[0]), []).append(e)
        for short in canon.short_forms(e.name):
            shorts.setdefault(normalize_name(short), []).append(e)
    found: list[Finding] = []
    seen: set[frozenset[str]] = set()

    def add(a: Entity, b: Entity, reason: str) -> None:
        pair = frozenset({a.id, b.id})
        if a.id == b.id or pair in seen:
            return
        seen.add(pair)
        keep, drop = _keep_first(a, b, mentions)
        found.append(
            Finding("duplicate", [keep.id, drop.id], [keep.name, drop.name], reason,
                    f"merge {drop.name!r} into {keep.name!r}")
        )  # fmt: skip

    for group in by_key.values():
        for other in group[1:]:
            add(group[0], other, "the same name (case, accents or alias)")
    for full, alone in _short_pairs(by_key, shorts):
        add(full, alone, "a short form of its name")
    for e in entities:
        words = e.name.split()
        if len(words) == 1 and (
            e.category in (None, "person") or canon.guessed_first_name(e.details, e.category)
        ):
            people = firsts.get(normalize_name(e.name), [])
            if len(people) == 1 and not described.told_apart(e.details, people[0].details):
                add(people[0], e, "a first name of the tenant's one person so named")
    people = [e for e in entities if e.category == "person" and len(e.name.split()) >= 2]
    surnames: dict[str, list[Entity]] = {}
    for e in people:
        if canon.untitled(e.name) is None:
            surnames.setdefault(normalize_name(e.name.split()[-1]), []).append(e)
    for e in entities:
        base = canon.untitled(e.name)
        if base is not None and canon.surname_alone(base):  # "Dr Osei", "Dr van Wyk"
            same = surnames.get(normalize_name(base.split()[-1]), [])
            if len(same) == 1 and not described.told_apart(e.details, same[0].details):
                add(same[0], e, "a title and the surname of the tenant's one person so named")
        if e.name.isupper():
            longer = [o for o in entities if canon.acronym_of(e.name, o.name)]
            kinds = (longer[0].category, e.category) if len(longer) == 1 else ("?", "!")
            if None in kinds or kinds[0] == kinds[1]:
                add(longer[0], e, "the acronym of its name")
    ordered = sorted(entities, key=lambda e: normalize_name(e.name))
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 : i + 30]:
            if a.category != b.category or a.category is None:
                continue
            x, y = normalize_name(a.name), normalize_name(b.name)
            if len(x) < 6 or x[:2] != y[:2] or " " in x or " " in y:
                continue
            shared = neighbours.get(a.id, set()) & neighbours.get(b.id, set())
            if difflib.SequenceMatcher(None, x, y).ratio() >= TYPO_RATIO and shared:
                add(a, b, "names a letter or two apart, same category, a shared neighbour")
    return found


def _short_pairs(
    by_key: dict[str, list[Entity]], shorts: dict[str, list[Entity]]
) -> list[tuple[Entity, Entity]]:
    """(longer, short) names of one thing: "Hartwell" for "Hartwell Mill", unless the short
    name's node is another kind of thing ("Harbor", a project, is not "Harbor Dental")."""
    return [
        (other, e)
        for key, longer in shorts.items()
        for e in by_key.get(key, [])
        for other in longer
        if None in (e.category, other.category) or e.category == other.category
    ]


def _junk(entity: Entity) -> bool:
    key = entity.name.strip().casefold()
    if key == "user":  # the ledger's first person
        return False
    return key in _WEEKDAYS or key in canon.GENERIC or not canon.nameworthy(entity.name)


def scan(tx: Tx) -> MaintReport:
    """Everything wrong with the tenant's graph, with the fix for each."""
    entities, relations = _all(tx)
    mentions = tx.mention_counts([e.id for e in entities])
    report = MaintReport()
    report.findings += _duplicates(entities, relations, mentions)
    live = [r for r in relations if r.expired_at is None]
    touched = {r.from_id for r in live} | {r.to_id for r in live}
    names = {e.id: e.name for e in entities}
    for e in entities:
        if _junk(e):
            report.findings.append(
                Finding("junk", [e.id], [e.name], "a value or a common word, not a thing",
                        "expire it; its name becomes a tag of the memories that named it")
            )  # fmt: skip
        elif (
            e.id not in touched
            and not mentions.get(e.id)
            and e.name != "user"
            and not tx.has_facts(e.id)
        ):
            report.findings.append(
                Finding("orphan", [e.id], [e.name], "no memory, relation or fact", "expire it")
            )
    _decay(tx, report, entities, live, names)
    for r in live:
        ends = [names.get(r.from_id, r.from_id), names.get(r.to_id, r.to_id)]
        if r.from_id == r.to_id:
            report.findings.append(
                Finding("self_loop", [r.from_id], ends[:1], f"{r.type} to itself", "expire it",
                        relation=r.id)
            )  # fmt: skip
        elif r.type in INVERSES:
            report.findings.append(
                Finding("reversed", [r.from_id, r.to_id], ends, f"{r.type} reads backwards",
                        f"{ends[1]} {INVERSES[r.type]} {ends[0]}", relation=r.id)
            )  # fmt: skip
        elif r.type in VAGUE:
            report.findings.append(
                Finding("vague", [r.from_id, r.to_id], ends, f"{r.type} says little",
                        "none (name the relation)", relation=r.id)
            )  # fmt: skip
    return report


def _decay(
    tx: Tx,
    report: MaintReport,
    entities: list[Entity],
    live: list[Relation],
    names: dict[str, str],
) -> None:
    """Stale relations and the entities left with nothing alive."""
    sources = [r.source_memory for r in live if r.source_memory]
    memories = tx.get_memories(sources)
    alive = {m.id for m in memories.values() if m.status in LIVE_STATUSES}
    stale = {r.id for r in live if r.source_memory and r.source_memory not in alive}
    for r in live:
        if r.id in stale:
            ends = [names.get(r.from_id, r.from_id), names.get(r.to_id, r.to_id)]
            report.findings.append(
                Finding("stale", [r.from_id, r.to_id], ends, "its memory is archived or gone",
                        "expire it (restorable)", relation=r.id)
            )  # fmt: skip
    still = [r for r in live if r.id not in stale]
    linked = {r.from_id for r in still} | {r.to_id for r in still}
    had = {r.from_id for r in live} | {r.to_id for r in live}
    mentioned = tx.entity_memory_ids([e.id for e in entities if e.id in had])
    for e in entities:
        if e.id not in had or e.id in linked:
            continue
        ids = mentioned.get(e.id, [])
        if any(m.status in LIVE_STATUSES for m in tx.get_memories(ids).values()):
            continue
        report.findings.append(
            Finding("cascade", [e.id], [e.name], "its relations expire and no live memory "
                    "mentions it", "expire it (restorable)")
        )  # fmt: skip


def fix(
    tx: Tx, report: MaintReport, now: datetime, kinds: frozenset[str] | None = None
) -> MaintReport:
    """Apply the fixes of a scan (except vague relations), each one audit event."""
    now_us = to_micros(now)
    report.dry_run = False
    for finding in report.findings:
        if finding.kind == "vague" or (kinds and finding.kind not in kinds):
            continue
        present = tx.get_entities(finding.entities)
        if any(e not in present or present[e].expired_at is not None for e in finding.entities):
            continue  # an earlier fix of this run already took it
        undo = _apply(tx, finding, now, now_us)
        if undo is None:
            continue
        finding.fixed = True
        finding.fix_id = _logged(tx, finding.kind, finding.names, undo, now_us)
    return report


def _logged(
    tx: Tx, kind: str, names: list[str], undo: dict[str, Any], now_us: int, **extra: str
) -> str:
    """Record one fix as the `maint_fix` audit event `undo` reads; returns its id."""
    fix_id = new_id("fix")
    tx.log_event("maint_fix", now_us, fix_id, {"kind": kind, "names": names, "undo": undo, **extra})
    return fix_id


def _apply(tx: Tx, f: Finding, now: datetime, now_us: int) -> dict[str, Any] | None:
    if f.kind == "duplicate":
        return merge(tx, f.entities[0], f.entities[1], now)
    if f.kind in ("orphan", "junk"):
        entity_id = f.entities[0]
        memories = tx.entity_memory_ids([entity_id]).get(entity_id, [])
        tagged: list[str] = []
        if f.kind == "junk":
            tag = normalize_tag(f.names[0])[:64]
            for memory in tx.get_memories(memories).values():
                if tag and tag not in memory.tags:
                    tx.update_memory(memory.id, {"tags": [*memory.tags, tag]})
                    tagged.append(memory.id)
        tx.update_entity(entity_id, {"expired_at": now})
        return {"expired": entity_id, "tag": normalize_tag(f.names[0])[:64], "tagged": tagged}
    if f.kind == "cascade":
        tx.update_entity(f.entities[0], {"expired_at": now})
        return {"expired": f.entities[0], "tag": "", "tagged": []}
    if f.kind in ("self_loop", "stale") and f.relation:
        tx.update_relation(f.relation, {"expired_at": now})
        return {"relation": f.relation, "expired": True}
    if f.kind == "reversed" and f.relation:
        r = tx.relations_by_ids([f.relation])[f.relation]
        tx.update_relation(r.id, {"from_id": r.to_id, "to_id": r.from_id, "type": INVERSES[r.type]})
        return {"relation": r.id, "was": [r.from_id, r.to_id, r.type]}
    return None


def fold_aliases(tx: Tx, aliases: dict[str, list[str]], now: datetime) -> list[str]:
    """Merge the nodes a memory shows to be another name of one of its entities ("dima", a node
    of its own, then "Dmitri Volkov ... everyone calls him Dima"), as `maint fix` would: one
    `maint_fix` audit event each, undoable. Returns the merged names."""
    merged: list[str] = []
    for name, said in aliases.items():
        keep = tx.find_entity(name)
        if keep is None or keep.expired_at is not None:
            continue
        for alias in said:
            other = tx.find_entity(alias)
            if (
                other is None
                or other.id == keep.id
                or other.expired_at is not None
                or normalize_name(other.name) != normalize_name(alias)
            ):
                continue
            undo = merge(tx, keep.id, other.id, now)
            reason = "a name the memory gives it"
            _logged(tx, "duplicate", [keep.name, other.name], undo, to_micros(now), reason=reason)
            merged.append(other.name)
    return merged


def merge(tx: Tx, keep_id: str, drop_id: str, now: datetime) -> dict[str, Any]:
    """Merge entity `drop_id` into `keep_id`: links, edges and facts move, the dropped name and
    its aliases become aliases of the kept node, the dropped node is expired under a new name.
    Returns what `undo` needs."""
    found = tx.get_entities([keep_id, drop_id])
    keep, drop = found[keep_id], found[drop_id]
    moved = tx.move_entity_links(drop_id, keep_id, to_micros(now))
    tomb = f"{drop.name} (merged into {keep.name}, {drop.id[-6:]})"
    tx.update_entity(drop_id, {"name": tomb, "expired_at": now})
    for alias in drop.aliases:
        tx.remove_alias(drop_id, alias)
    added = [a for a in [drop.name, *drop.aliases] if tx.add_alias(keep_id, a)]
    tags = list(dict.fromkeys([*keep.tags, *drop.tags]))
    changes: dict[str, Any] = {"tags": tags} if tags != keep.tags else {}
    if keep.category is None and drop.category is not None:
        changes["category"] = drop.category
    if changes:
        tx.update_entity(keep_id, changes)
    return {
        "keep": keep_id,
        "drop": drop_id,
        "name": drop.name,
        "aliases": drop.aliases,
        "added_aliases": added,
        "keep_tags": keep.tags,
        "keep_category": keep.category,
        "moved": moved,
    }


def undo(tx: Tx, fix_id: str, now: datetime) -> dict[str, Any]:
    """Put back what one fix changed; returns its audit payload."""
    events = [e for e in tx.list_events("maint_fix", 10_000) if e["subject_id"] == fix_id]
    if not events:
        raise NotFoundError("fix", fix_id)
    payload: dict[str, Any] = events[0]["payload"]
    done = [e for e in tx.list_events("maint_undo", 10_000) if e["subject_id"] == fix_id]
    if done:
        return payload
    u = payload["undo"]
    if payload["kind"] == "duplicate":
        _unmerge(tx, u)
    elif "expired" in u and payload["kind"] in ("orphan", "junk", "cascade"):
        tx.update_entity(u["expired"], {"expired_at": None})
        for memory in tx.get_memories(u.get("tagged", [])).values():
            tx.update_memory(memory.id, {"tags": [t for t in memory.tags if t != u["tag"]]})
    elif payload["kind"] in ("self_loop", "stale"):
        tx.update_relation(u["relation"], {"expired_at": None})
    elif payload["kind"] == "reversed":
        a, b, kind = u["was"]
        tx.update_relation(u["relation"], {"from_id": a, "to_id": b, "type": kind})
    tx.log_event("maint_undo", to_micros(now), fix_id, {"kind": payload["kind"]})
    return payload


def _unmerge(tx: Tx, u: dict[str, Any]) -> None:
    keep, drop, moved = u["keep"], u["drop"], u["moved"]
    for alias in u["added_aliases"]:
        tx.remove_alias(keep, alias)
    tx.update_entity(drop, {"name": u["name"], "expired_at": None})
    for alias in u["aliases"]:
        tx.add_alias(drop, alias)
    tx.update_entity(keep, {"tags": u["keep_tags"], "category": u["keep_category"]})
    links = tx.memory_entity_ids(moved["memories"] + moved["shared"])
    for memory_id in moved["memories"] + moved["shared"]:
        ids = [i for i in links.get(memory_id, []) if i != drop]
        if memory_id in moved["memories"]:
            ids = [i for i in ids if i != keep]
        tx.link_entities(memory_id, [*ids, drop])
    for relation_id, from_id, to_id in moved["relations"]:
        tx.update_relation(relation_id, {"from_id": from_id, "to_id": to_id})
    for relation_id in moved["expired_relations"]:
        tx.update_relation(relation_id, {"expired_at": None})
    tx.move_fact_subjects(moved["facts"], moved["object_facts"], drop)
