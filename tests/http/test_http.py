"""The REST API in-process (httpx on the ASGI app): every route, the error shape, limits, auth."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mnemex import MemoryStore
from mnemex.interfaces.http import create_app, is_loopback
from mnemex.interfaces.http.routes import ENDPOINTS
from tests.clients import rest

pytestmark = pytest.mark.anyio

ERROR_KEYS = {"code", "message", "details"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def app(mem_store: MemoryStore) -> Any:
    return create_app(mem_store, mcp=False)


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The one error shape: exactly {"error": {"code", "message", "details"}}."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == ERROR_KEYS
    assert body["error"]["code"] == code and isinstance(body["error"]["details"], dict)
    return dict(body["error"])


async def test_memory_routes_round_trip(app: Any) -> None:
    async with rest(app) as client:
        created = await client.post(
            "/v1/memories", json={"content": "Priya owns the billing service", "tags": ["team"]}
        )
        assert created.status_code == 201 and created.json()["action"] == "created"
        memory_id = created.json()["id"]
        batch = await client.post(
            "/v1/memories/batch",
            json={"items": [{"content": "standup at 10:30"}, {"content": "retro on Friday"}]},
        )
        assert batch.status_code == 201 and len(batch.json()["results"]) == 2
        listed = (await client.get("/v1/memories", params={"limit": 2})).json()
        assert len(listed["items"]) == 2 and listed["next_offset"] == 2
        tagged = (await client.get("/v1/memories", params={"tags": "team"})).json()
        assert [m["id"] for m in tagged["items"]] == [memory_id]
        assert (await client.get(f"/v1/memories/{memory_id}")).json()["tags"] == ["team"]
        patched = await client.patch(
            f"/v1/memories/{memory_id}", json={"tags": ["team", "billing"], "strength": 1.5}
        )
        assert patched.json()["tags"] == ["team", "billing"] and patched.json()["strength"] == 1.5
        forgotten = await client.delete(f"/v1/memories/{memory_id}")
        assert forgotten.json() == {"id": memory_id, "status": "deleted"}
        restored = await client.post(f"/v1/restore/{memory_id}")
        assert restored.json()["status"] == "active"
        purged = await client.delete(f"/v1/memories/{memory_id}", params={"hard": "true"})
        assert purged.json()["status"] == "purged"
        assert_error(await client.get(f"/v1/memories/{memory_id}"), 404, "not_found")


async def test_search_and_recall(app: Any, mem_store: MemoryStore) -> None:
    saved = mem_store.save("The VPN certificate expires in March", tags=["it"])
    mem_store.save("Lunch options near the office")
    async with rest(app) as client:
        hits = (await client.post("/v1/search", json={"query": "vpn certificate"})).json()
        assert hits["hits"][0]["memory"]["id"] == saved.id
        explained = await client.post(
            "/v1/search", json={"query": "vpn", "explain": True, "tags": ["it"], "k": 3}
        )
        assert "bm25" in explained.json()["hits"][0]["channels"]
        recalled = (await client.post("/v1/recall", json={"prompt": "vpn certificate?"})).json()
    assert recalled["block"].startswith("<recalled-memory>") and saved.id in recalled["block"]


async def test_graph_and_entities(app: Any) -> None:
    async with rest(app) as client:
        upserted = await client.post(
            "/v1/entities",
            json={
                "entities": [
                    {"name": "Atlas", "category": "project", "tags": ["q3"]},
                    {"name": "atlas", "aliases": ["Project Atlas"], "summary": "The new CRM"},
                    {"name": "Mateo", "category": "person"},
                ],
                "relationships": [
                    {"from_entity": "mateo", "to_entity": "PROJECT ATLAS", "relation_type": "Leads"}
                ],
            },
        )
        assert upserted.status_code == 200, upserted.text
        body = upserted.json()
        assert [e["name"] for e in body["entities"]] == ["Atlas", "Mateo"]
        assert body["entities"][0]["summary"] == "The new CRM"
        assert body["relations"][0]["type"] == "leads" and len(body["created"]) == 2
        listed = (await client.get("/v1/entities", params={"limit": 1})).json()
        assert [e["name"] for e in listed["items"]] == ["Atlas"] and listed["next_offset"] == 1
        graph = (await client.get("/v1/graph", params={"entity": "Mateo", "depth": 1})).json()
        assert {n["label"] for n in graph["nodes"]} == {"Mateo", "Atlas"}
        too_many = await client.post("/v1/entities", json={"entities": [{"name": "x"}] * 101})
        assert_error(too_many, 400, "invalid_input")
        assert_error(await client.get("/v1/graph", params={"entity": "Nobody"}), 404, "not_found")


async def test_decay_stats_and_export(app: Any, mem_store: MemoryStore) -> None:
    mem_store.save("an old note")
    async with rest(app) as client:
        status = (await client.get("/v1/decay/status")).json()
        assert status["curve"] == "power_law" and status["memories"]["active"] == 1
        run = (await client.post("/v1/decay/run", json={})).json()
        assert run["dry_run"] is True and run["candidates"] == []
        assert (await client.get("/v1/stats")).json()["memories"]["total"] == 1
        exported = await client.get("/v1/export")
    assert exported.headers["content-type"].startswith("application/x-ndjson")
    records = [json.loads(line) for line in exported.text.splitlines()]
    assert any("an old note" in json.dumps(record) for record in records)


async def test_health_and_openapi(app: Any) -> None:
    async with rest(app) as client:
        health = (await client.get("/health")).json()
        document = (await client.get("/openapi.json")).json()
    assert health["status"] == "ok" and health["store"]["ok"] is True
    assert set(health["models"]) == {"embeddings", "ner"} and "location" not in health["store"]
    declared = {(method.upper(), path) for path, ops in document["paths"].items() for method in ops}
    served = {(endpoint.method, endpoint.path) for endpoint in ENDPOINTS}
    assert served | {("GET", "/health")} == declared
    search = document["paths"]["/v1/search"]["post"]
    schema = search["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert document["components"]["schemas"][schema.rsplit("/", 1)[1]]["required"] == ["query"]


async def test_every_kind_of_error_has_the_one_shape(app: Any) -> None:
    async with rest(app) as client:
        assert_error(await client.get("/v1/nothing-here"), 404, "not_found")
        assert_error(await client.put("/v1/memories"), 405, "method_not_allowed")
        typed = {"Content-Type": "application/json"}
        bad = await client.post("/v1/search", content=b"{not json", headers=typed)
        assert_error(bad, 400, "bad_request")
        invalid = assert_error(
            await client.post("/v1/search", json={"query": 1, "bogus": 2}), 422, "validation_error"
        )
        assert {e["field"] for e in invalid["details"]["errors"]} == {"query", "bogus"}
        limit = assert_error(
            await client.post("/v1/search", json={"query": "x", "k": 5000}), 400, "invalid_input"
        )
        assert limit["details"] == {"field": "k", "limit": 1000}
        assert_error(await client.get("/v1/timeline", params={"bogus": 2}), 422, "validation_error")
        assert_error(await client.get("/v1/graph", params={"depth": "x"}), 422, "validation_error")


async def test_a_crash_is_a_500_in_the_same_shape(
    app: Any, mem_store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(MemoryStore, "stats", explode)
    async with rest(app) as client:
        error = assert_error(await client.get("/v1/stats"), 500, "internal_error")
    assert "boom" not in error["message"]


async def test_request_size_is_limited(mem_store: MemoryStore) -> None:
    app = create_app(mem_store, mcp=False, max_body=1024)
    async with rest(app) as client:
        big = await client.post("/v1/memories", json={"content": "x" * 2000})
        assert_error(big, 413, "payload_too_large")

        async def chunks() -> Any:  # no Content-Length: counted while streaming
            for _ in range(10):
                yield b" " * 512

        streamed = await client.post("/v1/memories", content=chunks())
        assert_error(streamed, 413, "payload_too_large")
        fine = await client.post("/v1/memories", json={"content": "small"})
    assert fine.status_code == 201


async def test_tokens_gate_every_route_but_health(mem_store: MemoryStore) -> None:
    app = create_app(mem_store, mcp=False, require_token=True)
    _, secret = mem_store.tokens.create("team")
    async with rest(app) as anonymous:
        assert_error(await anonymous.get("/v1/stats"), 401, "unauthorized")
        assert (await anonymous.get("/v1/stats")).headers["www-authenticate"] == "Bearer"
        assert (await anonymous.get("/health")).status_code == 200
        assert (await anonymous.get("/openapi.json")).status_code == 200
    async with rest(app, token="mnx_wrong") as wrong:
        assert_error(await wrong.get("/v1/stats"), 401, "unauthorized")
    async with rest(app, token=secret) as client:
        assert (await client.get("/v1/stats")).json()["tenant"] == "team"


async def test_on_loopback_a_token_is_optional_but_checked(mem_store: MemoryStore) -> None:
    app = create_app(mem_store, mcp=False)
    token, secret = mem_store.tokens.create("other")
    async with rest(app) as anonymous:
        assert (await anonymous.get("/v1/stats")).json()["tenant"] == "default"
    async with rest(app, token=secret) as client:
        assert (await client.get("/v1/stats")).json()["tenant"] == "other"
    mem_store.tokens.revoke(token.id)
    async with rest(app, token=secret) as revoked:
        assert_error(await revoked.get("/v1/stats"), 401, "unauthorized")


def test_loopback_addresses() -> None:
    assert all(is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.9"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "192.168.1.4", "::", "example.org"))


async def test_ledger_routes(app: Any, mem_store: MemoryStore) -> None:
    mem_store.save("Omar uses Emacs", subject="Omar", relation="editor", value="Emacs")
    mem_store.save("Omar moved to Helix", subject="Omar", relation="editor", value="Helix")
    async with rest(app) as client:
        facts = (await client.get("/v1/facts", params={"subject": "Omar"})).json()["facts"]
        assert [f["object"] for f in facts] == ["Helix"]
        history = await client.get(
            "/v1/facts", params={"subject": "Omar", "include_history": "true"}
        )
        assert {f["object"] for f in history.json()["facts"]} >= {"Emacs", "Helix"}
        timeline = (await client.get("/v1/timeline", params={"subject": "Omar"})).json()
        assert timeline["facts"][-1]["object"] == "Helix"
        profile = (await client.get("/v1/profile")).json()
        assert any(f["object"] == "Helix" for f in profile["facts"])
        reviews = (await client.get("/v1/reviews")).json()
        assert isinstance(reviews["reviews"], list)
        missing = await client.post("/v1/reviews/rev_nope", json={"decision": "approve"})
    assert_error(missing, 404, "not_found")


async def test_analyze_route(app: Any) -> None:
    async with rest(app) as client:
        analysis = await client.post(
            "/v1/analyze", json={"message": "Please remember that my cat is called Miso"}
        )
    assert analysis.json()["action"] in {"MUST_SAVE", "SHOULD_SAVE"}


async def test_mcp_over_http_needs_a_token_too(mem_store: MemoryStore) -> None:
    app = create_app(mem_store, require_token=True)
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    async with rest(app) as anonymous:
        assert_error(await anonymous.post("/mcp", json=ping), 401, "unauthorized")


async def test_decay_run_previews_unless_confirmed(
    app: Any, mem_store: MemoryStore, clock: Any
) -> None:
    old = mem_store.save("lunch was a falafel wrap")
    mem_store.update(old.id, kind="note")
    clock.advance(days=400)
    async with rest(app) as client:
        preview = (await client.post("/v1/decay/run", json={"dry_run": False})).json()
        assert preview["dry_run"] is True and [c["id"] for c in preview["candidates"]] == [old.id]
        assert mem_store.get(old.id).status == "active"
        body = {"dry_run": False, "confirm": True}
        done = (await client.post("/v1/decay/run", json=body)).json()
    assert done["dry_run"] is False and done["affected"] == 1
    assert mem_store.get(old.id).status == "archived"
