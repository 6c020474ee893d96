"""The LoCoMo release read into plain records: turns with dates, questions with clean evidence.

The data (CC BY-NC 4.0) is read from a path and never copied into the repository. Quirks the
data README lists are handled here, once: joined evidence ids ("D8:6; D9:17") are split on
`[;,\\s]`, and ids naming no turn ("D:11:26", "D30:05", missing turns) are dropped; a question
left with no evidence is skipped.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_SPLIT = re.compile(r"[;,\s]+")
_SESSION = re.compile(r"^session_(\d+)$")


@dataclass(frozen=True, slots=True)
class Turn:
    """One utterance: who said it, what, when (its session's date) and its dialogue id."""

    dia_id: str
    session: int
    speaker: str
    text: str
    caption: str | None
    observed_at: datetime


@dataclass(frozen=True, slots=True)
class Question:
    """A question, its category and the dialogue ids of the turns that answer it."""

    text: str
    category: int
    evidence: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Conversation:
    """One LoCoMo sample: its turns in order and its scored questions."""

    sample_id: str
    speakers: tuple[str, str]
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]

    def session_of(self, dia_id: str) -> int:
        """The session number of a dialogue id ("D3:14" -> 3)."""
        return int(dia_id[1:].split(":", 1)[0])


def parse_date(text: str) -> datetime:
    """A LoCoMo session date ("1:56 pm on 8 May, 2023") as an aware UTC datetime."""
    return datetime.strptime(" ".join(text.split()), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def _turns(conversation: dict[str, Any]) -> list[Turn]:
    sessions = sorted(int(match.group(1)) for key in conversation if (match := _SESSION.match(key)))
    turns: list[Turn] = []
    for number in sessions:
        when = parse_date(conversation[f"session_{number}_date_time"])
        for raw in conversation[f"session_{number}"]:
            turns.append(
                Turn(
                    dia_id=raw["dia_id"],
                    session=number,
                    speaker=raw["speaker"],
                    text=raw["text"],
                    caption=raw.get("blip_caption") or None,
                    observed_at=when,
                )
            )
    return turns


def clean_evidence(raw: list[Any], known: set[str]) -> tuple[str, ...]:
    """Evidence ids split on separators, deduplicated, keeping only ids that name a turn."""
    found: list[str] = []
    for item in raw:
        for part in _SPLIT.split(str(item)):
            if part in known and part not in found:
                found.append(part)
    return tuple(found)


def _questions(items: list[dict[str, Any]], known: set[str]) -> list[Question]:
    questions = []
    for item in items:
        category = int(item.get("category", 0))
        if category not in CATEGORIES:
            continue  # category 5 (adversarial) has no answer in the conversation
        evidence = clean_evidence(item.get("evidence", []), known)
        if evidence:
            questions.append(Question(str(item["question"]), category, evidence))
    return questions


def load(path: str | Path) -> list[Conversation]:
    """Every conversation of the release, with categories 1-4 questions that keep evidence."""
    with open(path, encoding="utf-8") as handle:
        samples = json.load(handle)
    conversations = []
    for sample in samples:
        body = sample["conversation"]
        turns = _turns(body)
        known = {turn.dia_id for turn in turns}
        conversations.append(
            Conversation(
                sample_id=str(sample["sample_id"]),
                speakers=(body["speaker_a"], body["speaker_b"]),
                turns=tuple(turns),
                questions=tuple(_questions(sample["qa"], known)),
            )
        )
    return conversations


def memory_text(turn: Turn) -> str:
    """What is saved for a turn: "Speaker: text", plus the shared image's caption if any."""
    text = f"{turn.speaker}: {turn.text}"
    if turn.caption:
        text += f" [shared a photo: {turn.caption}]"
    return text
