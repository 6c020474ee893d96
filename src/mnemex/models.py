"""Plain typed records returned by the Python API, and their JSON form."""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_id(prefix: str) -> str:
    """A sortable id: prefix + 48-bit millisecond time + 80 random bits, Crockford base32."""
    value = (int(time.time() * 1000) << 80) | int.from_bytes(os.urandom(10), "big")
    chars = []
    for _ in range(26):
        value, digit = divmod(value, 32)
        chars.append(_CROCKFORD[digit])
    return f"{prefix}_{''.join(reversed(chars)).lower()}"


class MemoryStatus(StrEnum):
    """Where a memory is in its life: searchable (active, promoted) or set aside."""

    ACTIVE = "active"
    PROMOTED = "promoted"
    ARCHIVED = "archived"
    DELETED = "deleted"


LIVE_STATUSES = (MemoryStatus.ACTIVE.value, MemoryStatus.PROMOTED.value)
PIN_TAG = "pinned"  # a pinned memory: gc never archives it (MemoryStore.pin)


class FactStatus(StrEnum):
    """Where a fact is in the ledger: the current value of its key, history, parked for a
    review, archived (a rejected or repeated observation), or stated by a forgotten memory."""

    ACTIVE = "active"
    SUPERSEDED = "superseded"
    PENDING = "pending"
    ARCHIVED = "archived"
    DELETED = "deleted"  # out of the ledger until its memory is restored


SaveAction = Literal["created", "superseded", "unchanged", "duplicate"]


@dataclass(slots=True)
class Memory:
    """One remembered piece of text with its temporal state; `score` is computed when read."""

    id: str
    content: str
    tags: list[str]
    entities: list[str]
    strength: float
    source: str | None
    context: str | None
    meta: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    observed_at: datetime | None
    last_used: datetime
    use_count: int
    review_count: int
    last_review: datetime | None
    status: str
    content_hash: str
    vault_path: str | None = None
    superseded_by: str | None = None
    tenant: str = "default"
    score: float = 0.0
    kind: str = "note"  # what it is (decay/kinds.py): sets its half-life
    stability: float = 1.0  # how far spaced uses stretched its half-life (x 1 .. x cap)
    pinned: bool = False  # gc never archives it
    duplicate_of: str | None = None  # the memory it repeats (folded into it in search)
    repeat_count: int = 0  # how many later saves repeated it


@dataclass(slots=True)
class SaveResult:
    """What `save` did: the memory, and what the engine decided or filled in on its own."""

    id: str
    memory: Memory
    action: SaveAction = "created"
    superseded: list[str] = field(default_factory=list)
    duplicate_of: str | None = None
    enrichment: dict[str, Any] = field(default_factory=dict)
    facts: list[Fact] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Citation:
    """Where an ingested memory came from: `ref` is "path:start-end" (pages "path:p3-4")."""

    ref: str
    path: str
    start: int
    end: int
    unit: str = "line"  # "line" or "page"
    heading: str | None = None

    @classmethod
    def of(cls, memory: Memory) -> Citation | None:
        """The citation `ingest` wrote in a memory's meta (`meta["ingest"]`), if any."""
        source = memory.meta.get("ingest") if isinstance(memory.meta, dict) else None
        if not isinstance(source, dict):
            return None
        path, lines = source.get("path"), source.get("lines")
        if not isinstance(path, str) or not isinstance(lines, list) or len(lines) != 2:
            return None
        start, end = int(lines[0]), int(lines[1])
        unit = "page" if source.get("unit") == "page" else "line"
        span = f"{start}" if start == end else f"{start}-{end}"
        ref = f"{path}:{'p' if unit == 'page' else ''}{span}"
        heading = source.get("heading")
        return cls(ref, path, start, end, unit, heading if isinstance(heading, str) else None)


@dataclass(slots=True)
class ChannelScore:
    """One retrieval channel's opinion of a hit (rank is 1-based)."""

    rank: int
    score: float


@dataclass(slots=True)
class SearchHit:
    """A memory found by `search`, its fused score and, with `explain=True`, each channel's part."""

    memory: Memory
    score: float
    channels: dict[str, ChannelScore] = field(default_factory=dict)
    citation: Citation | None = None  # for memories from ingested files (filled in here)

    def __post_init__(self) -> None:
        if self.citation is None:
            self.citation = Citation.of(self.memory)


@dataclass(slots=True)
class Recall:
    """Memories recalled for a prompt and the text block ready to inject into an agent's context."""

    hits: list[SearchHit]
    block: str


@dataclass(slots=True)
class Entity:
    """A person, project, tool or place that memories mention."""

    id: str
    name: str
    category: str | None
    aliases: list[str]
    tags: list[str]
    summary: str | None
    details: dict[str, Any]
    strength: float
    created_at: datetime
    updated_at: datetime
    expired_at: datetime | None = None
    tenant: str = "default"


@dataclass(slots=True)
class Relation:
    """A typed edge between two nodes (entities or memories), with the memory that stated it."""

    id: str
    from_kind: str
    from_id: str
    to_kind: str
    to_id: str
    type: str
    strength: float
    source_memory: str | None
    created_at: datetime
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    expired_at: datetime | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    tenant: str = "default"


@dataclass(slots=True)
class GraphNode:
    """A node of a graph answer: an entity or a memory, with a short label.

    In a whole-store graph an entity node also carries when it appeared and expired and how many
    memories mention it (the console sizes and dates nodes by these).
    """

    id: str
    kind: str
    label: str
    category: str | None = None
    created_at: datetime | None = None
    expired_at: datetime | None = None
    mentions: int = 0


@dataclass(slots=True)
class Graph:
    """The neighbourhood of an entity, `depth` hops out."""

    nodes: list[GraphNode]
    edges: list[Relation]


@dataclass(slots=True)
class Fact:
    """One value of one (subject, relation) key in the bi-temporal ledger."""

    id: str
    subject: str
    subject_id: str
    relation: str
    object: str
    object_id: str | None
    statement: str
    temporal_form: str
    observed_at: datetime
    valid_from: datetime
    valid_to: datetime | None
    recorded_at: datetime
    status: str
    superseded_by: str | None
    memory_id: str | None
    confidence: float = 1.0
    tenant: str = "default"


@dataclass(slots=True)
class Review:
    """An uncertain decision the engine left to a person: supersede, conflict, merge or alias."""

    id: str
    kind: str
    payload: dict[str, Any]
    confidence: float
    status: str
    created_at: datetime
    resolved_at: datetime | None = None
    resolution: str | None = None
    tenant: str = "default"


# Labels of an `Analysis.entities` mention that is a value, not a name: a save makes no entity
# of a date, a time, a version or an address.
VALUE_LABELS = frozenset({"DATE", "TIME", "VERSION", "EMAIL", "URL", "IP"})


@dataclass(slots=True)
class Analysis:
    """What `analyze` found in a message and what it recommends doing with it."""

    action: str = "NONE"
    intent: str = "NONE"
    confidence: float = 0.0
    probabilities: dict[str, float] = field(default_factory=dict)
    save_request: bool = False
    recall_request: bool = False
    importance_marker: bool = False
    entities: list[dict[str, Any]] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    strength: float = 1.0
    relations: list[dict[str, Any]] = field(default_factory=list)
    duplicate_of: str | None = None
    reasoning: str = ""
    duplicate_score: float | None = None
    intent_model: str = "none"  # "embed" | "lexical" | "none": which classifier answered
    kind: str = "note"  # what a memory of it would be (decay/kinds.py): sets its half-life
    errors: list[str] = field(default_factory=list)  # components that failed (and were skipped)


@dataclass(slots=True)
class Event:
    """One entry of the audit log: a save, recall, supersession, review ruling, gc run, ..."""

    id: str
    kind: str
    at: datetime
    subject_id: str | None
    payload: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class ScoredMemory:
    """A memory with the score that put it on a lifecycle list."""

    id: str
    preview: str
    score: float
    use_count: int


@dataclass(slots=True)
class GcReport:
    """Memories below the forget threshold, and whether they were archived (or deleted) now."""

    dry_run: bool
    hard: bool
    threshold: float
    candidates: list[ScoredMemory]
    affected: int
    nearing: list[ScoredMemory] = field(default_factory=list)  # live, just above the threshold
    # Below the threshold but kept, by why: request, pinned, ledger (states a current value),
    # reinforced (spaced uses stretched its half-life past `reinforced_stability`).
    spared: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class PromoteReport:
    """Memories that qualify for the vault and the notes written for them."""

    dry_run: bool
    candidates: list[ScoredMemory]
    notes: dict[str, str]


@dataclass(slots=True)
class Cluster:
    """Similar memories; the id is derived from the members, so the same input gives the same id."""

    id: str
    member_ids: list[str]
    cohesion: float
    previews: list[str]


@dataclass(slots=True)
class ConsolidateResult:
    """The merged memory a cluster becomes (a preview when `dry_run`)."""

    cluster_id: str
    dry_run: bool
    content: str
    tags: list[str]
    entities: list[str]
    source_ids: list[str]
    memory_id: str | None = None


@dataclass(slots=True)
class IngestProblem:
    """A file (or a line of one) that ingest skipped, and why: a stable code and a message."""

    path: str
    code: str  # binary, encoding, too_large, unreadable, parse_error, unsupported, bad_line
    message: str


@dataclass(slots=True)
class IngestReport:
    """What one `ingest` run did: files by outcome, chunks by outcome, turns kept and skipped."""

    files: int = 0  # files looked at
    added: int = 0  # files seen for the first time
    updated: int = 0  # files changed since the last run
    unchanged: int = 0  # same bytes, same settings: nothing done
    deleted: int = 0  # files gone since the last run: their memories archived
    chunks_added: int = 0
    chunks_kept: int = 0  # unchanged chunks of changed files (their memories and usage kept)
    chunks_archived: int = 0
    turns_kept: int = 0  # transcript turns saved as memories
    skipped: dict[str, int] = field(default_factory=dict)  # why chunks or turns were not saved
    problems: list[IngestProblem] = field(default_factory=list)
    seconds: float = 0.0


def to_jsonable(value: Any) -> Any:
    """Records, datetimes and paths as JSON-ready values (times as ISO 8601 UTC)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            spec.name: to_jsonable(getattr(value, spec.name)) for spec in dataclasses.fields(value)
        }
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {str(key): to_jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(item) for item in value]
    return value
