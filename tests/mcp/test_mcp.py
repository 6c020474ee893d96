"""The MCP server, in-process through the SDK's client: the tool contract and every tool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mcp import Client
from mnemex import MemoryStore
from mnemex.interfaces.mcp.server import INSTRUCTIONS, build_server
from tests.clients import call, ok

pytestmark = pytest.mark.anyio

# The tool contract: name -> parameters in order, required ones starred. Changing a tool's
# name or parameters breaks every agent prompt and config that uses it: update this on purpose.
CONTRACT = {
    "save_memory": "content* tags entities strength source context meta observed_at subject "
    "relation value skip_duplicate",
    "search_memory": "query* k offset tags entity window_days as_of include_history",
    "recall": "prompt* k context",
    "analyze_message": "message* context",
    "analyze_for_recall": "message* context",
    "open_memories": "memory_ids*",
    "touch_memory": "memory_id* boost",
    "observe_memory_usage": "memory_ids* context",
    "forget_memory": "memory_id* hard",
    "restore_memory": "memory_id*",
    "create_relation": "from_entity* to_entity* relation_type* strength",
    "read_graph": "limit offset",
    "query_graph": "entity* depth categories relation_types as_of",
    "graph_path": "from_entity* to_entity* relation_types as_of",
    "maint_scan": "",
    "maint_fix": "dry_run kinds",
    "get_profile": "limit",
    "get_facts": "subject relation as_of include_history limit offset",
    "timeline": "subject* limit offset",
    "review_queue": "status limit",
    "resolve_review": "review_id* decision* note",
    "gc": "dry_run hard confirm",
    "promote_memory": "memory_id auto dry_run",
    "cluster_memories": "threshold limit",
    "consolidate_memories": "cluster_id* dry_run threshold",
    "memory_stats": "",
    "list_memories": "tags entity status limit offset",
    "update_memory": "memory_id* content tags strength pinned",
    "get_entity": "name*",
    "activity_log": "kind limit",
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def server(mem_store: MemoryStore) -> Any:
    return build_server(mem_store)


async def test_every_tool_name_and_parameter_is_pinned(server: Any) -> None:
    async with Client(server) as client:
        tools = (await client.list_tools()).tools
    found = {}
    for tool in tools:
        required = set(tool.input_schema.get("required", []))
        found[tool.name] = " ".join(
            name + ("*" if name in required else "") for name in tool.input_schema["properties"]
        )
        assert len(tool.description or "") > 40, tool.name
        assert tool.annotations is not None and tool.annotations.read_only_hint is not None
    assert found == CONTRACT


async def test_save_search_open_and_use_a_memory(server: Any) -> None:
    async with Client(server) as client:
        saved = await ok(
            client,
            "save_memory",
            # States no fact: saving it again is a duplicate (a restated fact is "unchanged").
            content="Alice demoed Neovim at the meetup",
            tags=["tools"],
            entities=["Alice"],
        )
        assert saved["action"] == "created" and saved["entities"][0] == "Alice"
        again = await ok(client, "save_memory", content="Alice demoed Neovim at the meetup")
        assert again["action"] == "duplicate" and again["duplicate_of"] == saved["id"]
        found = await ok(client, "search_memory", query="alice neovim meetup demo")
        assert found["items"][0]["id"] in {saved["id"], again["id"]}
        opened = await ok(client, "open_memories", memory_ids=[saved["id"], "mem_missing"])
        assert opened["memories"][0]["content"] == "Alice demoed Neovim at the meetup"
        assert opened["missing"] == ["mem_missing"]
        touched = await ok(client, "touch_memory", memory_id=saved["id"], boost=True)
        assert touched["id"] == saved["id"]
        used = await ok(client, "observe_memory_usage", memory_ids=[saved["id"]], context="work")
        assert used["items"][0]["id"] == saved["id"]


async def test_search_pages_with_previews(server: Any, mem_store: MemoryStore) -> None:
    mem_store.save_many([{"content": f"quokka note {i} " + "padding " * 60} for i in range(5)])
    async with Client(server) as client:
        first = await ok(client, "search_memory", query="quokka", k=2)
        second = await ok(client, "search_memory", query="quokka", k=2, offset=first["next_offset"])
        last = await ok(client, "search_memory", query="quokka", k=2, offset=4)
    ids = [hit["id"] for hit in first["items"] + second["items"] + last["items"]]
    assert len(ids) == len(set(ids)) == 5
    assert "next_offset" not in last
    assert all(len(hit["preview"]) <= 201 for hit in first["items"])


async def test_a_hit_search_filled_in_says_it_is_only_the_nearest(
    server: Any, mem_store: MemoryStore
) -> None:
    """ "Why did I begin that language app?" matches nothing closely (cosine 0.247 to its
    answer): the agent gets the nearest memory, marked as such; a close match is not."""
    saved = mem_store.save("I'm learning Tamil on Duolingo so I can talk to Paati properly.")
    async with Client(server) as client:
        weak = await ok(client, "search_memory", query="Why did I begin that language app?")
        close = await ok(client, "search_memory", query="learning Tamil on Duolingo")
    assert [(h["id"], h.get("nearest_only")) for h in weak["items"]] == [(saved.id, True)]
    assert [(h["id"], h.get("nearest_only")) for h in close["items"]] == [(saved.id, None)]


async def test_recall_returns_an_injectable_block(server: Any, mem_store: MemoryStore) -> None:
    saved = mem_store.save("The deploy window is Tuesday 10:00", tags=["ops"])
    async with Client(server) as client:
        recalled = await ok(client, "recall", prompt="when is the deploy window?")
    assert recalled["ids"] == [saved.id]
    assert recalled["block"].startswith("<recalled-memory>")
    assert "Tuesday 10:00" in recalled["block"]


async def test_forget_and_restore(server: Any, mem_store: MemoryStore) -> None:
    saved = mem_store.save("Temporary note about the zeppelin")
    async with Client(server) as client:
        assert (await ok(client, "forget_memory", memory_id=saved.id))["status"] == "deleted"
        assert (await ok(client, "search_memory", query="zeppelin"))["items"] == []
        assert (await ok(client, "restore_memory", memory_id=saved.id))["status"] == "active"
        await ok(client, "forget_memory", memory_id=saved.id, hard=True)
        error, failed = await call(client, "restore_memory", memory_id=saved.id)
    assert failed and error["error"]["code"] == "not_found"


async def test_graph_tools(server: Any, mem_store: MemoryStore) -> None:
    mem_store.save("Kofi leads the Atlas project", entities=["Kofi", "Atlas"])
    async with Client(server) as client:
        relation = await ok(
            client, "create_relation", from_entity="kofi", to_entity="Atlas", relation_type="leads"
        )
        assert relation["type"] == "leads"
        page = await ok(client, "read_graph", limit=1)
        assert [e["name"] for e in page["items"]] == ["Atlas"] and page["next_offset"] == 1
        rest = await ok(client, "read_graph", limit=1, offset=1)
        assert [e["name"] for e in rest["items"]] == ["Kofi"]
        graph = await ok(client, "query_graph", entity="KOFI", depth=1)
    labels = {node["label"] for node in graph["nodes"]}
    assert {"Kofi", "Atlas", "Kofi leads the Atlas project"} <= labels
    assert any(edge["type"] == "leads" for edge in graph["edges"])


async def test_lifecycle_tools(server: Any, mem_store: MemoryStore) -> None:
    mem_store.save_many(
        [{"content": "the build server is slow on mondays"} for _ in range(3)]
        + [{"content": "lunch is at noon"}]
    )
    async with Client(server) as client:
        gc = await ok(client, "gc")
        assert gc["dry_run"] is True and gc["total"] == 0
        unconfirmed = await ok(client, "gc", dry_run=False)
        assert unconfirmed["dry_run"] is True and "confirm_required" in unconfirmed
        promoted = await ok(client, "promote_memory", auto=True)
        assert promoted["dry_run"] is True
        clusters = (await ok(client, "cluster_memories"))["items"]
        assert len(clusters) == 1 and len(clusters[0]["member_ids"]) == 3
        merged = await ok(
            client, "consolidate_memories", cluster_id=clusters[0]["id"], dry_run=False
        )
        assert merged["memory_id"] and len(merged["source_ids"]) == 3
        stats = await ok(client, "memory_stats")
    assert stats["memories"]["active"] == 2 and stats["memories"]["archived"] == 3


async def test_errors_share_the_json_error_shape(server: Any) -> None:
    async with Client(server) as client:
        missing, failed = await call(client, "touch_memory", memory_id="mem_nope")
        assert failed and missing["error"]["code"] == "not_found"
        too_long, failed = await call(client, "save_memory", content="x" * 60_000)
    assert failed and too_long["error"] == {
        "code": "invalid_input",
        "message": "content: is 60000 characters, over the limit",
        "details": {"field": "content", "limit": 50_000},
    }


async def test_ledger_tools(server: Any, mem_store: MemoryStore) -> None:
    mem_store.save("Alice uses Vim", subject="Alice", relation="editor", value="Vim")
    mem_store.save("Alice uses Neovim now", subject="Alice", relation="editor", value="Neovim")
    async with Client(server) as client:
        facts = await ok(client, "get_facts", subject="Alice", relation="editor")
        assert [f["value"] for f in facts["items"]] == ["Neovim"]
        history = await ok(client, "get_facts", subject="Alice", include_history=True)
        assert {f["value"] for f in history["items"]} >= {"Vim", "Neovim"}
        steps = await ok(client, "timeline", subject="Alice")
        assert [f["value"] for f in steps["items"]][-1] == "Neovim"
        profile = await ok(client, "get_profile")
        assert any(f["value"] == "Neovim" for f in profile["items"])
        queue = await ok(client, "review_queue")
        assert isinstance(queue["items"], list)
        error, failed = await call(
            client, "resolve_review", review_id="rev_nope", decision="reject"
        )
    assert failed and error["error"]["code"] == "not_found"


async def test_analysis_tools(server: Any) -> None:
    async with Client(server) as client:
        keep = await ok(client, "analyze_message", message="Remember: I always deploy on Fridays")
        assert keep["action"] in {"MUST_SAVE", "SHOULD_SAVE"}
        ask = await ok(client, "analyze_for_recall", message="What did I say about deploys?")
    assert ask["should_search"] is True


def test_the_readme_system_prompt_is_the_servers_instructions() -> None:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert INSTRUCTIONS in readme
