"""Promotion: lasting memories become Markdown notes in a vault, one note per memory."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from mnemex.clock import MICROS_PER_DAY, to_micros
from mnemex.config import Settings
from mnemex.engine import Engine, require
from mnemex.errors import InvalidInputError
from mnemex.models import Memory, MemoryStatus, PromoteReport, ScoredMemory
from mnemex.store.base import MemoryFilter
from mnemex.text import preview

_SLUG = re.compile(r"[^a-z0-9]+")
_WIKILINK_UNSAFE = re.compile(r"[\[\]|#^]")


def qualifies(memory: Memory, score: float, now: datetime, settings: Settings) -> bool:
    """Lasting: strong and used at least once, used often in a short time, or reinforced by
    spaced uses (stability at least `reinforced_stability`, which gc also spares).

    A fresh memory that was never used does not qualify, however high its initial strength.
    """
    if memory.use_count >= 1 and score >= settings.promote_threshold:
        return True
    if memory.stability >= settings.reinforced_stability:
        return True  # spaced uses made it last: the vault is where lasting memories go
    age_days = (to_micros(now) - to_micros(memory.created_at)) / MICROS_PER_DAY
    return (
        memory.use_count >= settings.promote_min_uses and age_days <= settings.promote_window_days
    )


def note_name(memory: Memory) -> str:
    """A stable, readable file name: the first words of the memory and the end of its id."""
    slug = _SLUG.sub("-", memory.content.casefold())[:48].strip("-") or "memory"
    return f"{slug}-{memory.id[-8:]}.md"


def render_note(memory: Memory, score: float) -> str:
    """The note: YAML front matter (written by a YAML library), the text, and entity wikilinks."""
    front: dict[str, Any] = {
        "id": memory.id,
        "created": memory.created_at.isoformat(),
        "observed": memory.observed_at.isoformat() if memory.observed_at else None,
        "tags": list(memory.tags),
        "entities": list(memory.entities),
        "strength": round(memory.strength, 3),
        "use_count": memory.use_count,
        "score_at_promotion": round(score, 4),
        "kind": memory.kind,
        "stability": round(memory.stability, 3),
        "mnemex": f"mnemex show {memory.id}",  # the memory this note came from
        "source": memory.source,
    }
    lines = [
        "---",
        yaml.safe_dump(front, sort_keys=False, allow_unicode=True).rstrip("\n"),
        "---",
        "",
        memory.content.rstrip(),
        "",
    ]
    links = [_WIKILINK_UNSAFE.sub(" ", name).strip() for name in memory.entities]
    links = [link for link in links if link]
    if links:
        lines += ["## Entities", "", " ".join(f"[[{link}]]" for link in links), ""]
    return "\n".join(lines)


def write_note(memory: Memory, score: float, vault: Path) -> Path:
    """Write (or rewrite) the memory's note atomically and return its path."""
    path = vault / note_name(memory)
    temporary = path.with_suffix(".md.tmp")
    try:
        vault.mkdir(parents=True, exist_ok=True)
        temporary.write_text(render_note(memory, score), encoding="utf-8")
        temporary.replace(path)
    except OSError as exc:
        raise InvalidInputError(
            "vault_dir", f"cannot write notes in {vault}: {exc.strerror or exc}"
        ) from exc
    return path


def vault_of(engine: Engine, tenant: str) -> Path:
    """A tenant's own vault folder: the vault itself for `default`, else `tenants/<name>-<hash>`
    (the hash keeps names that differ only in unsafe characters apart)."""
    root = engine.settings.vault_path
    if tenant == "default":
        return root
    safe = re.sub(r"[^A-Za-z0-9_-]+", "-", tenant).strip("-")[:40] or "tenant"
    digest = hashlib.sha256(tenant.encode("utf-8")).hexdigest()[:8]
    return root / "tenants" / f"{safe}-{digest}"


def run(engine: Engine, tenant: str, memory_id: str | None, *, dry_run: bool) -> PromoteReport:
    """Promote one memory (`memory_id`) or every qualifying active one; list only if `dry_run`."""
    now = engine.clock()
    now_us = to_micros(now)
    with engine.backend.read(tenant) as tx:
        if memory_id is not None:
            chosen = [engine.scored(require(tx, memory_id), now_us)]
        else:
            live = tx.iter_memories(MemoryFilter(statuses=(MemoryStatus.ACTIVE.value,)))
            scored = (engine.scored(memory, now_us) for memory in live)
            chosen = [m for m in scored if qualifies(m, m.score, now, engine.settings)]
    candidates = [ScoredMemory(m.id, preview(m.content), m.score, m.use_count) for m in chosen]
    notes: dict[str, str] = {}
    if not dry_run:
        for memory in chosen:
            notes[memory.id] = str(write_note(memory, memory.score, vault_of(engine, tenant)))
        with engine.backend.write(tenant) as tx:
            for promoted, path in notes.items():
                tx.update_memory(
                    promoted, {"status": MemoryStatus.PROMOTED.value, "vault_path": path}
                )
                tx.log_event("promote", now_us, promoted, {"path": path})
    return PromoteReport(dry_run=dry_run, candidates=candidates, notes=notes)
