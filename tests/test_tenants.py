"""Tenant isolation: with beta's token, every REST route and every MCP tool (over HTTP) neither
reads nor changes anything of alpha's. Each case checks that alpha's ids and secret word never
appear in beta's answer, that alpha's export is byte-identical afterwards, and the status."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from mnemex import MemoryStore
from mnemex.interfaces.http import create_app
from mnemex.interfaces.http.routes import ENDPOINTS
from mnemex.interfaces.mcp.server import TOOLS
from tests.clients import call, mcp_http, rest
from tests.conftest import FakeClock

pytestmark = pytest.mark.anyio
SECRET = "alphasecret"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@dataclass
class World:
    """A store with alpha's data, and beta's token."""

    store: MemoryStore
    alpha: MemoryStore
    beta_token: str
    ids: dict[str, str] = field(default_factory=dict)

    def leaks(self, answer: str, asked: str) -> list[str]:
        """Alpha's ids and secret word found in `answer` that beta did not send itself."""
        return [m for m in (SECRET, *self.ids.values()) if m in answer and m not in asked]


@pytest.fixture
def world(mem_store: MemoryStore, clock: FakeClock) -> Iterator[World]:
    alpha = mem_store.for_tenant("alpha")
    saved = alpha.save(
        f"{SECRET}: the launch codes are in the blue binder", entities=["AlphaCorp"], tags=["ops"]
    )
    alpha.save(f"{SECRET} payroll runs on the 25th", tags=["ops"])
    relation = alpha.relate("AlphaCorp", "AlphaPartner", "supplies")
    ids = {"memory": saved.id, "relation": relation.id}
    entity = alpha.graph("AlphaCorp", depth=1).nodes[0]
    ids["entity"] = entity.id
    if hasattr(MemoryStore, "facts"):
        alpha.save(f"{SECRET} Dana is CEO", subject="AlphaCorp", relation="ceo", value="Dana")
        reviews = alpha.reviews(limit=1)
        ids["review"] = reviews[0].id if reviews else "rev_none"
    clock.advance(days=400)  # alpha's memories have faded: a hard gc would take them
    _, secret = mem_store.tokens.create("beta")
    yield World(mem_store, alpha, secret, ids)


def alpha_export(world: World) -> list[str]:
    return list(world.alpha.export())


# (method, path, request, status) for beta; "{id}" is one of alpha's ids.
REST_CASES: list[tuple[str, str, dict[str, Any], int]] = [
    ("POST", "/v1/memories", {"json": {"content": "beta note"}}, 201),
    ("POST", "/v1/memories/batch", {"json": {"items": [{"content": "b1"}]}}, 201),
    ("GET", "/v1/memories", {"params": {"limit": 100}}, 200),
    ("GET", "/v1/memories/{id}", {}, 404),
    ("PATCH", "/v1/memories/{id}", {"json": {"content": "hijacked"}}, 404),
    ("DELETE", "/v1/memories/{id}", {"params": {"hard": "true"}}, 404),
    ("POST", "/v1/restore/{id}", {}, 404),
    ("POST", "/v1/search", {"json": {"query": f"{SECRET} launch codes"}}, 200),
    ("POST", "/v1/recall", {"json": {"prompt": f"{SECRET} payroll"}}, 200),
    ("POST", "/v1/analyze", {"json": {"message": f"{SECRET} payroll runs"}}, 200),
    ("GET", "/v1/profile", {}, 200),
    ("GET", "/v1/facts", {"params": {"subject": "AlphaCorp"}}, 200),
    ("GET", "/v1/timeline", {"params": {"subject": "AlphaCorp"}}, 200),
    ("GET", "/v1/reviews", {"params": {"status": "open"}}, 200),
    ("POST", "/v1/reviews/{id}", {"json": {"decision": "reject"}}, 404),
    ("GET", "/v1/graph", {"params": {"entity": "AlphaCorp"}}, 404),
    ("GET", "/v1/graph/path", {"params": {"from_entity": "AlphaCorp",
                                         "to_entity": "AlphaPartner"}}, 404),
    ("GET", "/v1/maint/scan", {}, 200),
    ("POST", "/v1/maint/fix", {"json": {"dry_run": False}}, 200),
    ("POST", "/v1/maint/undo/{fix_id}", {}, 404),
    ("GET", "/v1/entities", {}, 200),
    ("POST", "/v1/entities", {"json": {"entities": [{"name": "AlphaCorp"}]}}, 200),
    ("GET", "/v1/decay/status", {}, 200),
    ("POST", "/v1/decay/run", {"json": {"dry_run": False, "hard": True, "confirm": True}}, 200),
    ("GET", "/v1/stats", {}, 200),
    ("GET", "/v1/export", {}, 200),
    ("GET", "/v1/graph", {}, 200),  # the whole graph: beta's own entities only
    ("GET", "/v1/entities/{name}", {}, 404),
    ("POST", "/v1/relations", {"json": {"from_entity": "AlphaCorp", "to_entity": "AlphaPartner",
                                        "relation_type": "supplies"}}, 200),
    ("POST", "/v1/memories/{id}/pin", {"json": {"pinned": True}}, 404),
    ("POST", "/v1/memories/{id}/touch", {"json": {"boost": True}}, 404),
    ("POST", "/v1/observe", {"json": {"ids": ["{memory}"]}}, 404),
    ("GET", "/v1/keys", {"params": {"subject": "AlphaCorp"}}, 200),
    ("GET", "/v1/resolve/{kind}/{prefix}", {}, 404),
    ("GET", "/v1/events", {"params": {"limit": 1000}}, 200),
    ("GET", "/v1/settings", {}, 200),
    ("POST", "/v1/promote", {"json": {"id": "{memory}", "dry_run": False}}, 404),
    ("GET", "/v1/clusters", {"params": {"threshold": 0.1}}, 200),
    ("POST", "/v1/clusters/{id}/consolidate", {"json": {"dry_run": False}}, 404),
    ("POST", "/v1/reindex", {}, 200),
    ("POST", "/v1/import", {"json": {"lines": ['{"format": "mnemex-export", "version": 1}']}}, 200),
]  # fmt: skip


def test_every_route_has_an_isolation_case() -> None:
    covered = {(method, path) for method, path, *_ in REST_CASES}
    assert covered == {(endpoint.method, endpoint.path) for endpoint in ENDPOINTS}


@pytest.mark.parametrize(
    ("method", "path", "request_", "status"),
    [pytest.param(m, p, r, s, id=f"{m} {p}") for m, p, r, s in REST_CASES],
)
async def test_rest_route_stays_in_its_tenant(
    world: World, method: str, path: str, request_: dict[str, Any], status: int
) -> None:
    before = alpha_export(world)
    app = create_app(world.store, mcp=False, require_token=True)
    async with rest(app, token=world.beta_token) as beta:
        url = path.replace("{id}", world.ids["review" if "reviews" in path else "memory"])
        url = url.replace("{name}", "AlphaCorp").replace("{kind}", "memory")
        url = url.replace("{prefix}", world.ids["memory"][:20])
        request_ = _filled(request_, world.ids)
        response = await beta.request(method, url, **request_)
        assert response.status_code == status, response.text
        assert world.leaks(response.text, f"{url} {request_}") == []
        seen = await beta.post("/v1/search", json={"query": SECRET, "k": 100})
        assert seen.status_code == 200 and world.leaks(seen.text, "") == []
    assert alpha_export(world) == before


# tool -> (arguments for beta, whether it must fail)
TOOL_CASES: dict[str, tuple[dict[str, Any], bool]] = {
    "save_memory": ({"content": "beta note"}, False),
    "search_memory": ({"query": f"{SECRET} launch codes"}, False),
    "recall": ({"prompt": f"{SECRET} payroll"}, False),
    "analyze_message": ({"message": f"{SECRET} payroll runs"}, False),
    "analyze_for_recall": ({"message": f"what about {SECRET}?"}, False),
    "open_memories": ({"memory_ids": ["{memory}"]}, False),
    "touch_memory": ({"memory_id": "{memory}", "boost": True}, True),
    "observe_memory_usage": ({"memory_ids": ["{memory}"]}, True),
    "forget_memory": ({"memory_id": "{memory}", "hard": True}, True),
    "restore_memory": ({"memory_id": "{memory}"}, True),
    "create_relation": (
        {"from_entity": "AlphaCorp", "to_entity": "AlphaPartner", "relation_type": "supplies"},
        False,
    ),
    "read_graph": ({}, False),
    "query_graph": ({"entity": "AlphaCorp"}, True),
    "graph_path": ({"from_entity": "AlphaCorp", "to_entity": "AlphaPartner"}, True),
    "maint_scan": ({}, False),
    "maint_fix": ({"dry_run": False}, False),
    "get_profile": ({}, False),
    "get_facts": ({"subject": "AlphaCorp", "include_history": True}, False),
    "timeline": ({"subject": "AlphaCorp"}, False),
    "review_queue": ({}, False),
    "resolve_review": ({"review_id": "{review}", "decision": "approve"}, True),
    "gc": ({"dry_run": False, "hard": True, "confirm": True}, False),
    "promote_memory": ({"memory_id": "{memory}", "dry_run": False}, True),
    "cluster_memories": ({"threshold": 0.1}, False),
    "consolidate_memories": ({"cluster_id": "clu_none", "dry_run": False}, True),
    "memory_stats": ({}, False),
    "list_memories": ({"status": "active", "limit": 200}, False),
    "update_memory": ({"memory_id": "{memory}", "content": "hijacked", "pinned": True}, True),
    "get_entity": ({"name": "AlphaCorp"}, True),
    "activity_log": ({"limit": 200}, False),
}


def test_every_tool_has_an_isolation_case() -> None:
    assert set(TOOL_CASES) == set(TOOLS)


def _filled(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, str):
        for name, ident in ids.items():
            value = value.replace("{" + name + "}", ident)
        return value
    if isinstance(value, list):
        return [_filled(item, ids) for item in value]
    if isinstance(value, dict):
        return {key: _filled(item, ids) for key, item in value.items()}
    return value


@pytest.mark.parametrize(
    ("tool", "arguments", "fails"),
    [pytest.param(t, a, f, id=t) for t, (a, f) in TOOL_CASES.items()],
)
async def test_mcp_tool_stays_in_its_tenant(
    world: World, tool: str, arguments: dict[str, Any], fails: bool
) -> None:
    before = alpha_export(world)
    app = create_app(world.store, require_token=True)
    async with mcp_http(app, token=world.beta_token) as beta:
        asked = _filled(arguments, world.ids)
        data, failed = await call(beta, tool, **asked)
        assert failed == fails, data
        if fails:
            assert data["error"]["code"] == "not_found"
        assert world.leaks(str(data), str(asked)) == []
        seen, failed = await call(beta, "search_memory", query=SECRET, k=100)
        assert not failed and world.leaks(str(seen), "") == []
    assert alpha_export(world) == before
