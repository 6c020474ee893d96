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
    Cluster,
    ConsolidateResult,
    Entity,
    Fact,
    GcReport,
    Graph,
    GraphNode,
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
    "Cluster",
    "ConflictError",
    "ConsolidateResult",
    "Entity",
    "Fact",
    "GcReport",
    "Graph",
    "GraphNode",
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
) -> MemoryStore:
    """Open a store: None for the default file in the user data dir, a path, or ":memory:"."""
    from mnemex.store import open_backend

    settings = settings or Settings.load()
    backend = open_backend(target, settings)
    return MemoryStore(backend, settings, tenant=tenant, clock=clock)
