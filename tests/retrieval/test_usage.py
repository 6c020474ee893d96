"""Usage learning: used memories gain, co-used partners are pulled in."""

from __future__ import annotations

import mnemex
from mnemex import Settings
from tests.conftest import FakeClock


def test_used_memories_rank_higher(settings: Settings, clock: FakeClock) -> None:
    config = settings.replace(embed_model="none", usage_weight=1.0, temporal_weight=0.0)
    with mnemex.open(":memory:", settings=config, clock=clock) as store:
        first = store.save("release notes for the mobile app").id
        second = store.save("release notes for the web app").id
        assert next(h.memory.id for h in store.search("release notes")) == first
        store.observe([second])
        hits = store.search("release notes", explain=True)
        assert hits[0].memory.id == second and "usage" in hits[0].channels
        off = config.replace(usage_weight=0.0, co_usage_weight=0.0)
        with mnemex.open(":memory:", settings=off, clock=clock) as plain:
            a = plain.save("release notes for the mobile app").id
            b = plain.save("release notes for the web app").id
            plain.observe([b])
            assert next(h.memory.id for h in plain.search("release notes")) == a


def test_co_used_partner_is_pulled_in(settings: Settings, clock: FakeClock) -> None:
    config = settings.replace(embed_model="none", co_usage_weight=1.0)
    with mnemex.open(":memory:", settings=config, clock=clock) as store:
        runbook = store.save("database failover runbook").id
        clock.advance(hours=2)  # another episode: no neighbour context between the two
        contact = store.save("on-call phone: ask Priya").id
        assert [h.memory.id for h in store.search("failover")] == [runbook]
        store.observe([runbook, contact])
        hits = store.search("failover", explain=True)
        assert [h.memory.id for h in hits] == [runbook, contact]
        assert "co_use" in hits[1].channels
        store.forget(contact)
        assert [h.memory.id for h in store.search("failover")] == [runbook]
