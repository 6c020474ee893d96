"""Request bodies and query strings of the REST API, named as the Python API names them.

Types and shapes are checked here (a mismatch is a 422); limits and meaning are checked by the
store (a 400 that names the field and the limit), so no rule is written twice.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from mnemex.config import MAX_K

# Advertised, checked by the store (its error names the field and the limit, as elsewhere).
K_RANGE: dict[str, Any] = {"minimum": 1, "maximum": MAX_K}


class Strict(BaseModel):
    """A request part that rejects unknown fields (a typo is an error, not a silent default)."""

    model_config = ConfigDict(extra="forbid")


class MemoryPatch(Strict):
    """Fields of a memory to change; fields left out keep their value."""

    content: str | None = None
    tags: list[str] | None = None
    entities: list[str] | None = None
    strength: float | None = None
    source: str | None = None
    context: str | None = None
    meta: dict[str, Any] | None = None
    observed_at: str | None = Field(None, description="ISO 8601 time the memory is about.")


class MemoryIn(MemoryPatch):
    """A memory to save: the content, optional details and an optional fact key."""

    content: str
    subject: str | None = None
    relation: str | None = None
    value: str | None = None
    skip_duplicate: bool = False


class MemoryBatch(Strict):
    """Several memories saved in one transaction (all checked before any is written)."""

    items: list[MemoryIn] = Field(max_length=1_000)


class MemoryList(Strict):
    """A page of memories, most recently used (or, `order=created`, observed) first."""

    limit: int = 50
    offset: int = 0
    status: list[str] | None = None
    tags: list[str] | None = None
    entity: str | None = None
    source: str | None = None
    min_strength: float | None = None
    max_strength: float | None = None
    order: Literal["used", "created"] = "used"


class Forget(Strict):
    """How to forget: soft (restorable, the default) or hard."""

    hard: bool = False


class SearchIn(Strict):
    """A search: the parameters of `MemoryStore.search`."""

    query: str
    k: int = Field(10, json_schema_extra=K_RANGE)
    tags: list[str] | None = None
    entity: str | None = None
    status: str | list[str] | None = None
    window_days: float | None = None
    as_of: str | None = None
    include_history: bool = False
    context: str | None = None
    explain: bool = False
    fill: bool = True


class RecallIn(Strict):
    """A recall: the parameters of `MemoryStore.recall`."""

    prompt: str
    k: int = Field(5, json_schema_extra=K_RANGE)
    context: str | None = None


class AnalyzeIn(Strict):
    """A message to analyse: the parameters of `MemoryStore.analyze`."""

    message: str
    context: str | None = None
    session_id: str | None = None


class ProfileQuery(Strict):
    """How many profile facts."""

    limit: int = Field(20, ge=1, le=1_000)


class FactsQuery(Strict):
    """Which facts: a key (or part of one), a time, and whether to include superseded values."""

    subject: str | None = None
    relation: str | None = None
    as_of: str | None = None
    include_history: bool = False


class TimelineQuery(Strict):
    """Whose timeline."""

    subject: str


class GraphQuery(Strict):
    """The neighbourhood of an entity, or (no entity) the whole entity graph."""

    entity: str | None = None
    depth: int = 2
    limit: int = 2_000
    category: list[str] | None = None
    relation: list[str] | None = None
    as_of: str | None = None
    memories: bool = True


class MaintFixIn(Strict):
    """Which upkeep fixes to make; a dry run unless dry_run is false."""

    dry_run: bool = True
    kinds: list[str] | None = None


class PathQuery(Strict):
    """The shortest chain of relations between two entities."""

    from_entity: str
    to_entity: str
    relation: list[str] | None = None
    as_of: str | None = None


class EventsQuery(Strict):
    """A page of the audit log, newest first, optionally of one kind."""

    kind: str | None = None
    limit: int = 100


class TouchIn(Strict):
    """A use of a memory now; `boost` also adds strength."""

    boost: bool = False


class ObserveIn(Strict):
    """Memories used together in a conversation."""

    ids: list[str] = Field(min_length=1, max_length=1_000)
    context: str | list[str] | None = None


class RelateIn(Strict):
    """A typed edge between two entities (created if new)."""

    from_entity: str
    to_entity: str
    relation_type: str
    strength: float = 1.0
    source_memory: str | None = None


class KeysQuery(Strict):
    """Whose keys (all subjects when left out)."""

    subject: str | None = None


class PromoteIn(Strict):
    """Promote one memory, or (`auto`) all that qualify; a dry run lists them only."""

    id: str | None = None
    auto: bool = False
    dry_run: bool = True


class ClusterQuery(Strict):
    """Groups of similar memories."""

    threshold: float | None = None
    limit: int = 50


class ConsolidateIn(Strict):
    """Preview (default) or merge a cluster."""

    dry_run: bool = True
    threshold: float | None = None


class ImportIn(Strict):
    """The lines of a JSONL export (GET /v1/export), imported all or nothing."""

    lines: list[str] = Field(max_length=1_000_000)


class PinIn(Strict):
    """Pin (gc never archives it) or unpin a memory."""

    pinned: bool = True


class EntityList(Strict):
    """A page of entities, alphabetically."""

    limit: int = Field(100, ge=1, le=1_000)
    offset: int = Field(0, ge=0, le=1_000_000)


class EntityIn(Strict):
    """An entity to create or update (matched by name, ignoring case)."""

    name: str
    category: str | None = None
    aliases: list[str] | None = None
    tags: list[str] | None = None
    summary: str | None = None
    details: dict[str, Any] | None = None


class RelationshipIn(Strict):
    """A typed edge between two entities (created if new)."""

    from_entity: str
    to_entity: str
    relation_type: str
    strength: float | None = None


class EntitiesIn(Strict):
    """Up to 100 entities and their relationships, written as given (no analysis)."""

    entities: list[EntityIn] = Field(default_factory=list)
    relationships: list[RelationshipIn] = Field(default_factory=list)


class ReviewsQuery(Strict):
    """Which reviews."""

    status: Literal["open", "approved", "rejected"] = "open"
    limit: int = Field(50, ge=1, le=1_000)


class ReviewDecision(Strict):
    """A decision on a review."""

    decision: Literal["approve", "reject"]
    note: str | None = None


class DecayRun(Strict):
    """A decay pass: list (dry_run) or, confirmed, archive memories below the forget threshold."""

    dry_run: bool = True
    hard: bool = False
    confirm: bool = False  # with dry_run false: archive for real (a preview otherwise)


class ErrorDetail(BaseModel):
    """What went wrong: a stable code, a message naming the field, and details."""

    code: str
    message: str
    details: dict[str, Any] = Field(default_factory=dict)


class ErrorBody(BaseModel):
    """The one error shape of every REST response with a 4xx or 5xx status."""

    error: ErrorDetail
