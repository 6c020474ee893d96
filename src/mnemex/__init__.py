"""Mnemex: a local-first temporal memory engine for LLM agents.

import mnemex
with mnemex.open("team.db") as store:
    store.save("Alice switched to Neovim", tags=["tools"])
    hits = store.search("which editor does Alice use")
"""

from __future__ import annotations

import os

from mnemex.clock import Clock
from mnemex.config import Settings
from mnemex.errors import (
    ConflictError,
    InvalidInputError,
    MnemexError,
    ModelUnavailableError,
    NotFoundError,
    StorageError,
    StoreBusyError,
    UnauthorizedError,
)
from mnemex.models import (
    Analysis,
    ChannelScore,
    Citation,
    Cluster,
    ConsolidateResult,
    Entity,
    Fact,
    GcReport,
    Graph,
    GraphNode,
    IngestProblem,
    IngestReport,
    Memory,
    PromoteReport,
    Recall,
    Relation,
    Review,
    SaveResult,
    SearchHit,
)
from mnemex.service import MemoryStore

__version__ = "0.1.0"

__all__ = [
    "Analysis",
    "ChannelScore",
    "Citation",
    "Cluster",
    "ConflictError",
    "ConsolidateResult",
    "Entity",
    "Fact",
    "GcReport",
    "Graph",
    "GraphNode",
    "IngestProblem",
    "IngestReport",
    "InvalidInputError",
    "Memory",
    "MemoryStore",
    "MnemexError",
    "ModelUnavailableError",
    "NotFoundError",
    "PromoteReport",
    "Recall",
    "Relation",
    "Review",
    "SaveResult",
    "SearchHit",
    "Settings",
    "StorageError",
    "StoreBusyError",
    "UnauthorizedError",
    "open",
]


def open(
    target: str | os.PathLike[str] | None = None,
    *,
    tenant: str = "default",
    settings: Settings | None = None,
    clock: Clock | None = None,
    create: bool = True,
) -> MemoryStore:
    """Open a store: None for the default file in the user data dir, a path, or ":memory:".

    `create=False` opens only a store that exists: a file path with nothing there raises
    NotFoundError instead of creating an empty store (read commands use it)."""
    from pathlib import Path

    from mnemex.store import open_backend, resolve_target

    settings = settings or Settings.load()
    if not create:
        location = resolve_target(target, settings)
        remote = location == ":memory:" or location.startswith(("postgresql://", "postgres://"))
        if not remote and not Path(location).exists():
            raise NotFoundError(
                "store",
                location,
                f"no store at {location}: nothing has been saved there (check --db / MNEMEX_DB)",
            )
    backend = open_backend(target, settings)
    return MemoryStore(backend, settings, tenant=tenant, clock=clock)
