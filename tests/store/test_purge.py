"""A hard forget removes the memory's rows on every backend: facts, relations, reviews, entities,
term statistics; on PostgreSQL no row of any table of the tenant keeps one of its words.

(That no file of a SQLite store keeps them is tests/hostile/test_purge.py: it greps the files.)
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from mnemex import MemoryStore
from tests.conftest import FakeClock

T0 = datetime(2026, 1, 1, tzinfo=UTC)
PURGED = ["vexmoorfield", "plumbobium", "gralnikov", "snorkelbeast", "helix"]
WORDS = ["zorblatt", "quuxington", *PURGED]
SECRET = (
    "Zorblatt Quuxington moved to Vexmoorfield and keeps a snorkelbeast, says the plumbobium report"
)


def _rows_with_words(store: MemoryStore) -> list[str]:
    """(table: word) for every PostgreSQL row of the tenant whose text holds a purged word."""
    found = []
    with store.backend.read(store.tenant) as tx:
        conn = tx.conn  # type: ignore[attr-defined]
        tables = [
            str(row[0])
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            )
        ]
        for table in tables:
            for word in WORDS:
                hit = conn.execute(
                    f"SELECT 1 FROM {table} AS t WHERE strpos(lower(t::text), %s) > 0 LIMIT 1",
                    (word,),
                ).fetchone()
                if hit is not None:
                    found.append(f"{table}: {word}")
    return found


def test_purge_removes_what_only_the_memory_held(store: MemoryStore, clock: FakeClock) -> None:
    clock.now = T0
    store.save_many([{"content": f"filler note {i} about the garden"} for i in range(4)])
    store.save(
        "Zorblatt Quuxington uses Vim as his editor",
        subject="Zorblatt Quuxington",
        relation="editor",
        value="Vim",
        observed_at=T0,
    )
    secret = store.save(
        SECRET,
        tags=["plumbobium"],
        entities=["Zorblatt Quuxington"],
        meta={"note": "snorkelbeast"},
        subject="Zorblatt Quuxington",
        relation="city",
        value="Vexmoorfield",
    ).id
    store.relate("Zorblatt Quuxington", "Gralnikov", "knows", source_memory=secret)
    parked = store.save(
        "Zorblatt Quuxington's code editor is Helix", observed_at=T0 + timedelta(days=10)
    ).id  # an alias review naming this memory and its fact
    assert [r.payload["memory_id"] for r in store.reviews()] == [parked]
    postgres = store.backend.info()["backend"] == "postgresql"
    if postgres:
        assert _rows_with_words(store), "the words should be in the tables before the purge"

    with store.backend.write(store.tenant) as tx:
        gone = tx.purge_memories([secret, parked, secret])
    store.backend.compact_purged()

    assert gone["memories"] == 2 and gone["facts"] == 2 and gone["relations"] == 1, gone
    assert gone["reviews"] == 1 and gone["entities"] == 3, gone  # Gralnikov and two values
    assert store.reviews() == []
    assert [f.object for f in store.facts("Zorblatt Quuxington", include_history=True)] == ["Vim"]
    assert {e.name for e in store.entities()} == {"Zorblatt Quuxington", "Vim"}
    assert store.search("snorkelbeast Vexmoorfield", fill=False) == []  # no fill: no match
    assert len(store.memories()) == 5
    exported = "\n".join(store.export()).lower()
    assert "zorblatt" in exported and not [w for w in PURGED if w in exported]
    if postgres:
        left = _rows_with_words(store)
        assert any(row.endswith("zorblatt") for row in left)  # the entity with the Vim fact
        assert [row for row in left if row.split(": ")[1] in PURGED] == []
