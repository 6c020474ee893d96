"""A store worth looking at: a few hundred memories over half a year, entities with relations
(two of them expired), facts with history, an open review, archived and pinned memories.

Saved through the public API with a clock that walks from 200 days ago to now, so the graph and
the facts have a past to travel to. Used by the browser tests and `mnemex bench console`, which
also serve it for real with `serving`.
"""

from __future__ import annotations

import random
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import uvicorn

import mnemex
from mnemex import MemoryStore, Settings
from mnemex.interfaces.http import create_app

PEOPLE = ["Alice", "Bob", "Carol", "Dmitri", "Esther", "Farid", "Grace", "Hiro", "Ines", "Jonas"]
PROJECTS = ["Atlas", "Borealis", "Cobalt", "Dynamo", "Ember", "Fjord"]
TOOLS = ["Neovim", "PostgreSQL", "Kubernetes", "Terraform", "Grafana", "Redis", "Rust", "Python"]
PLACES = ["Lisbon", "Toronto", "Osaka", "Nairobi"]
TOPICS = ["deploy", "review", "standup", "incident", "design", "hiring", "budget", "release"]
SENTENCES = [
    "{p} reviewed the {t} plan for {j}",
    "{p} fixed a {t} incident on {j} using {x}",
    "Standup: {p} will pair on {j} this week",
    "{p} wants the {j} dashboards in {x}",
    "Decision: {j} moves its {t} checks to {x}",
    "{p} flew to {c} for the {j} offsite",
]
START = timedelta(days=200)


class Clock:
    """The seed's clock: moved by hand."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def seed(path: Path, *, memories: int = 300, rng_seed: int = 7) -> dict[str, str]:
    """Fill a new store at `path`; returns names the tests look for."""
    rng = random.Random(rng_seed)
    now = datetime.now(UTC)
    clock = Clock(now - START)
    settings = Settings.load(env={}, data_dir=path.parent / "data")
    with mnemex.open(str(path), settings=settings, clock=clock) as store:
        store.save("Alice uses Vim", subject="Alice", relation="editor", value="Vim")
        store.save("Bob lives in Toronto", subject="Bob", relation="city", value="Toronto")
        items = []
        for i in range(memories):
            person, project = rng.choice(PEOPLE), rng.choice(PROJECTS)
            tool, topic, city = rng.choice(TOOLS), rng.choice(TOPICS), rng.choice(PLACES)
            text = rng.choice(SENTENCES).format(p=person, j=project, x=tool, t=topic, c=city)
            items.append(
                {
                    "content": f"{text} (note {i})",
                    "tags": [topic],
                    "entities": [person, project, tool],
                    "source": rng.choice(["chat", "notes"]),
                    "strength": round(rng.uniform(0.2, 2.0), 2),
                }
            )
        step = (START - timedelta(days=100)) / len(items)  # from 200 to 100 days ago
        for chunk in range(0, len(items), 50):  # saved in batches as time goes by
            store.save_many(items[chunk : chunk + 50])
            clock.now += step * 50
        store.upsert_entities(
            [{"name": p, "category": "person"} for p in PEOPLE]
            + [{"name": j, "category": "project"} for j in PROJECTS]
            + [{"name": x, "category": "technology"} for x in TOOLS]
            + [{"name": "Legacy CI", "category": "technology", "summary": "The old build farm"}],
            [
                {"from_entity": p, "to_entity": rng.choice(PROJECTS), "relation_type": "works_on"}
                for p in PEOPLE
            ]
            + [{"from_entity": "Atlas", "to_entity": "Legacy CI", "relation_type": "built_by"}],
        )
        clock.now = now - timedelta(days=60)
        store.save("Alice switched to Neovim", subject="Alice", relation="editor", value="Neovim")
        store.save("Bob moved to Lisbon", subject="Bob", relation="city", value="Lisbon")
        clock.now = now - timedelta(days=30)
        store.save("Legacy CI was shut down", entities=["Legacy CI"])
        _expire(store, "Legacy CI", clock.now)
        clock.now = now - timedelta(days=20)
        review = store.save(
            "Alice's code editor is Zed", subject="Alice", relation="code editor", value="Zed"
        )
        # The timeline groups by the viewer's calendar day, so the recent saves sit inside
        # today, yesterday and three days ago whatever the hour the seed runs at.
        local = now.astimezone()
        midnight = local.replace(hour=0, minute=0, second=0, microsecond=0).astimezone(UTC)
        clock.now = midnight - timedelta(days=3) + timedelta(hours=12)
        store.save("Grace booked the Borealis retro for Thursday", entities=["Grace", "Borealis"])
        clock.now = midnight - timedelta(hours=12)
        store.save("Hiro asked for Grafana access", entities=["Hiro", "Grafana"])
        clock.now = now - (now - midnight) / 2
        pinned = store.save("Carol is allergic to peanuts", tags=["health"], entities=["Carol"])
        store.pin(pinned.id)
        faded = store.save("Lunch order: two falafel wraps", tags=["errand"])
        with store.backend.write(store.tenant) as tx:  # as gc would, for this one only
            tx.update_memory(faded.id, {"status": "archived"})
        reviews = store.reviews()
    return {
        "review_id": reviews[0].id if reviews else "",
        "review_memory": review.id,
        "pinned": pinned.id,
        "faded": faded.id,
    }


def _expire(store: mnemex.MemoryStore, name: str, when: datetime) -> None:
    """Mark an entity and its edges expired (graph upkeep does this in real stores)."""
    entity = store.entity(name)
    with store.backend.write(store.tenant) as tx:
        tx.update_entity(entity.id, {"expired_at": when})
        conn = tx.conn  # type: ignore[attr-defined]
        conn.execute(
            "UPDATE relations SET expired_at = ? WHERE tenant = ? AND (from_id = ? OR to_id = ?)",
            (int(when.timestamp() * 1_000_000), store.tenant, entity.id, entity.id),
        )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(store: MemoryStore, *, require_token: bool = False) -> Iterator[str]:
    """The console and API of `store` at the URL yielded, until the block ends."""
    port = free_port()
    app = create_app(store, require_token=require_token, mcp=False)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
