"""Story sets for `mnemex eval ledger --stories`: changed facts told in free wording, with traps.

A story set (schema in bench/data/README.md) holds stories: one subject, one attribute, the
statements made about it over time (each labelled `assert`, `change` or `mention`: a mention
names a value without changing the subject's) and questions about the current value, the value
before it and the value at a time. Every story of a set is saved into one store in day order,
interleaved with the others and with unrelated notes; then each question is asked and the top
hit judged:

- current@1: the top hit is a statement of the story setting its latest value;
- stale@1: the top hit is a statement of the story setting an older value;
- trap@1: the top hit is one of the story's mentions (a value it never had, or had not then);
- past@1 / at@1: the top hit sets (or, for a change, names) the value that held before the
  current one / at the asked time.
"""

from __future__ import annotations

import functools
import json
import random
import re
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench import DATA, pg_server
from bench.corpus import sentences
from bench.timing import percentile, timed
from mnemex.config import Settings

START = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)  # day 0 is the first of January
FILLER_NOTES = 150
SETTING = ("assert", "change")  # statement kinds that set the subject's value
KINDS = (*SETTING, "mention")
ASKED = ("current", "past", "at")  # question kinds
VERDICTS = ("current", "stale", "trap", "past", "at")  # what a top hit can count as


@dataclass(frozen=True, slots=True)
class Said:
    """One statement of a story."""

    day: int
    text: str
    kind: str
    value: str


@dataclass(slots=True)
class Story:
    """One subject's attribute over time, and the questions asked about it."""

    id: str
    subject: str
    attribute: str
    said: list[Said]
    aliases: dict[str, list[str]] = field(default_factory=dict)
    current: list[str] = field(default_factory=list)
    past: list[tuple[str, str]] = field(default_factory=list)  # (question, value)
    at: list[tuple[str, int, str]] = field(default_factory=list)  # (question, day, value)

    @property
    def latest(self) -> str:
        """The value the last setting statement gave."""
        return [s.value for s in self.said if s.kind in SETTING][-1]

    def names(self, text: str, value: str) -> bool:
        """True when `text` names `value` or one of its aliases (whole words, any case)."""
        return any(
            re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text, re.IGNORECASE)
            for form in [value, *self.aliases.get(value, [])]
        )


class StoryError(ValueError):
    """A story set that does not follow the schema (names the story and the field)."""


def _story(raw: dict[str, Any]) -> Story:
    name = str(raw.get("id", "?"))
    try:
        said = [
            Said(int(s["day"]), str(s["text"]), str(s["kind"]), str(s["value"]))
            for s in raw["statements"]
        ]
        questions = raw.get("questions", {})
        story = Story(
            id=name,
            subject=str(raw["subject"]),
            attribute=str(raw["attribute"]),
            said=said,
            aliases={str(k): [str(a) for a in v] for k, v in raw.get("aliases", {}).items()},
            current=[str(q) for q in questions.get("current", [])],
            past=[(str(q["q"]), str(q["value"])) for q in questions.get("past", [])],
            at=[(str(q["q"]), int(q["day"]), str(q["value"])) for q in questions.get("at", [])],
        )
    except (KeyError, TypeError, ValueError) as err:
        raise StoryError(f"story {name}: {err!r}") from err
    bad = [s.kind for s in said if s.kind not in KINDS]
    if bad or not any(s.kind in SETTING for s in said):
        raise StoryError(f"story {name}: kinds {bad or 'without a setting statement'}")
    return story


def paths(names: list[str]) -> list[Path]:
    """The story set files named (a path, or a bench/data name); all of bench/data by default."""
    if not names:
        return sorted(DATA.glob("ledger_stories_*.json"))
    found = []
    for name in names:
        path = Path(name) if name.endswith(".json") else DATA / f"{name.strip()}.json"
        if not path.is_file():
            raise StoryError(f"no story set at {path}")
        found.append(path)
    return found


def load(path: Path) -> list[Story]:
    """The stories of one set file."""
    return [_story(raw) for raw in json.loads(path.read_text())["stories"]]


@dataclass(frozen=True, slots=True)
class Entry:
    """A statement as saved: when, and which story and statement it is (None for a filler)."""

    when: datetime
    text: str
    story: int | None = None
    index: int = -1


def timeline(stories: list[Story], seed: int) -> list[Entry]:
    """Every statement at its day (a seeded hour, so stories interleave) and the filler notes."""
    rng = random.Random(seed)
    entries = [
        Entry(START + timedelta(days=s.day, minutes=rng.randrange(8 * 60)), s.text, n, i)
        for n, story in enumerate(stories)
        for i, s in enumerate(story.said)
    ]
    last = max(s.day for story in stories for s in story.said)
    notes = sentences(FILLER_NOTES, seed)
    entries += [
        Entry(START + timedelta(days=rng.randrange(last + 1), minutes=rng.randrange(600)), text)
        for text in notes
    ]
    return sorted(entries, key=lambda e: e.when)


Search = Callable[[str, int, "datetime | None"], list[str]]  # question, k, as_of -> memory ids


def _setting_before(story: Story, value: str) -> int | None:
    """The index of the statement that set the value before `value`'s first setting."""
    setting = [(i, s) for i, s in enumerate(story.said) if s.kind in SETTING]
    for position, (_, s) in enumerate(setting):
        if s.value == value and position > 0:
            return setting[position - 1][0]
    return None


@dataclass(slots=True)
class Tally:
    """Counts of one row."""

    hits: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))
    asked: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ASKED, 0))
    latencies: list[float] = field(default_factory=list)
    misses: list[dict[str, str]] = field(default_factory=list)

    def metrics(self) -> dict[str, float]:
        """Rates per question kind, and the median latency."""
        cur = max(self.asked["current"], 1)
        return {
            "current@1": self.hits["current"] / cur,
            "stale@1": self.hits["stale"] / cur,
            "trap@1": self.hits["trap"] / cur,
            "past@1": self.hits["past"] / max(self.asked["past"], 1),
            "at@1": self.hits["at"] / max(self.asked["at"], 1),
            "questions": float(sum(self.asked.values())),
            "p50_ms": percentile(self.latencies, 50),
        }


def _questions(stories: list[Story]) -> Iterator[tuple[int, str, str, str, int | None]]:
    """(story, kind, question, expected value, day) for every question of the set."""
    for n, story in enumerate(stories):
        for q in story.current:
            yield n, "current", q, story.latest, None
        for q, value in story.past:
            yield n, "past", q, value, None
        for q, day, value in story.at:
            yield n, "at", q, value, day


def _verdict(story: Story, kind: str, expected: str, said: Said) -> str:
    """What a statement of the asked story counts as for a question of `kind`."""
    if kind == "current":
        if said.kind == "mention":
            return "trap"
        return "current" if said.value == expected else "stale"
    names_it = said.value == expected or (
        said.kind == "change" and story.names(said.text, expected)
    )
    return kind if names_it and said.kind in SETTING else "wrong"


def _sibling_verdict(story: Story, kind: str, expected: str, text: str) -> str:
    """What a statement of another story of the same subject counts as. Its labels are about
    its own attribute, so it is judged by the values of the asked story it names: a writer's
    trap for one attribute ("Meera switched post offices to Edgware" in her parcel-locker story)
    can state another attribute's current value, or an old one."""
    if story.names(text, expected):
        return kind
    if kind != "current":
        return "other"
    older = {s.value for s in story.said if s.kind in SETTING and s.value != expected}
    return "stale" if any(story.names(text, value) for value in older) else "other"


def score(stories: list[Story], where: dict[str, tuple[int, int]], search: Search) -> Tally:
    """Ask every question and judge its top hit (`where`: memory id -> (story, statement))."""
    tally = Tally()
    for n, kind, question, expected, _day in _questions(stories):
        story = stories[n]
        ids, ms = timed(functools.partial(search, question, 5, None))
        tally.latencies.append(ms)
        tally.asked[kind] += 1
        top = where.get(ids[0]) if ids else None
        if top is not None and top[0] == n:
            verdict = _verdict(story, kind, expected, story.said[top[1]])
        elif top is not None and stories[top[0]].subject == story.subject:
            verdict = _sibling_verdict(story, kind, expected, stories[top[0]].said[top[1]].text)
        else:
            verdict = "other"
        if verdict in tally.hits:
            tally.hits[verdict] += 1
        if verdict not in ("current", "past", "at"):
            tally.misses.append(
                {
                    "kind": kind,
                    "q": question,
                    "want": expected,
                    "got": verdict,
                    "top": _shown(stories, top, bool(ids)),
                }
            )
    return tally


def _shown(stories: list[Story], top: tuple[int, int] | None, found: bool) -> str:
    """What a miss's top hit said: a statement (of another story: prefixed with its subject and
    attribute), a filler note, or nothing found."""
    if top is None:
        return "(a filler note)" if found else "(no hit)"
    story = stories[top[0]]
    return f"[{story.subject} / {story.attribute}] {story.said[top[1]].text}"


def run_row(stories: list[Story], settings: Settings, *, keyed: bool, seed: int) -> Tally:
    """Save one set into a fresh store (plain text, or keyed by the labels) and score it."""
    import mnemex

    clock = _Clock()
    where: dict[str, tuple[int, int]] = {}
    with mnemex.open(pg_server.fresh_target(), settings=settings, clock=clock) as store:
        for entry in timeline(stories, seed):
            clock.now = entry.when
            story = stories[entry.story] if entry.story is not None else None
            said = story.said[entry.index] if story is not None else None
            if keyed and story is not None and said is not None and said.kind in SETTING:
                saved = store.save(
                    entry.text, subject=story.subject, relation=story.attribute, value=said.value
                )
            else:
                saved = store.save(entry.text)
            if entry.story is not None:
                where.setdefault(saved.id, (entry.story, entry.index))
        clock.now += timedelta(days=1)

        def search(question: str, k: int, as_of: datetime | None) -> list[str]:
            return [hit.memory.id for hit in store.search(question, k=k, as_of=as_of)]

        return score(stories, where, search)


class _Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


ABLATIONS: dict[str, dict[str, Any]] = {
    "no read-time resolution": {"ledger_resolve": False},
    "no assertion model": {"assertion_reader": False, "assertion_veto": 0.0},
    "no aspect encoder": {"aspect_encoder": False},
    "no ledger extraction": {"ledger_extract": False},
}


def run(
    paths: list[Path],
    seeds: list[int],
    base: Settings,
    *,
    ablations: bool = False,
    misses: bool = False,
) -> list[dict[str, Any]]:
    """Unkeyed and keyed rows for each set (and the ablations, unkeyed), averaged over seeds
    (the seed orders the saves and picks the filler notes)."""
    out: list[dict[str, Any]] = []
    for path in paths:
        stories = load(path)
        variants: list[tuple[str, Settings, bool]] = [
            (f"unkeyed, {path.stem}", base, False),
            (f"keyed, {path.stem}", base, True),
        ]
        if ablations:
            variants += [
                (f"unkeyed, {path.stem}, ablation: {name}", base.replace(**change), False)
                for name, change in ABLATIONS.items()
            ]
        for name, settings, keyed in variants:
            tallies = [run_row(stories, settings, keyed=keyed, seed=seed) for seed in seeds]
            line: dict[str, Any] = {"row": name, "seeds": len(seeds)}
            per_seed = [t.metrics() for t in tallies]
            for metric in per_seed[0]:
                values = [m[metric] for m in per_seed]
                line[metric] = round(statistics.fmean(values), 3)
            if misses:
                line["misses"] = tallies[0].misses
            out.append(line)
    return out
