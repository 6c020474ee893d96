"""The same hostile values through REST, MCP (in-process) and the CLI: one typed JSON error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mcp import Client
from mnemex import MemoryStore, Settings
from mnemex.interfaces.cli import app as cli_app
from mnemex.interfaces.http import create_app
from mnemex.interfaces.mcp.server import build_server
from tests.clients import call, rest
from tests.hostile.test_bounds_api import nested

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def deep_body(depth: int) -> bytes:
    return b'{"content": "deep", "meta": ' + b'{"a": ' * depth + b"1" + b"}" * depth + b"}"


def error_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    return dict(body["error"])


@pytest.mark.parametrize("depth", [600, 990, 1_000, 100_000])
async def test_rest_deep_meta_is_a_400_and_stores_nothing(
    mem_store: MemoryStore, depth: int
) -> None:
    app = create_app(mem_store, mcp=False)
    headers = {"content-type": "application/json"}
    async with rest(app) as client:
        response = await client.post("/v1/memories", content=deep_body(depth), headers=headers)
        error = error_of(response, 400)
        assert error["details"]["field"] in ("meta", "body"), error  # body: too deep to parse
        assert error["details"]["limit"], error
        assert (await client.get("/v1/memories")).json()["items"] == []
        saved = (await client.post("/v1/memories", json={"content": "plain"})).json()["id"]
        patch = await client.patch(
            f"/v1/memories/{saved}",
            content=b'{"meta": ' + b'{"a": ' * depth + b"1" + b"}" * depth + b"}",
            headers=headers,
        )
        assert error_of(patch, 400)["details"]["field"] in ("meta", "body")
        assert (await client.get(f"/v1/memories/{saved}")).status_code == 200


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        (
            "/v1/memories",
            {"content": "x", "observed_at": "9999-12-31T23:59:59-05:00"},
            "observed_at",
        ),
        (
            "/v1/memories",
            {"content": "x", "observed_at": "0001-01-01T00:00:00+05:00"},
            "observed_at",
        ),
        ("/v1/search", {"query": "x", "as_of": "9999-12-31T23:59:59-05:00"}, "as_of"),
        ("/v1/search", {"query": "x", "window_days": 1e6}, "window_days"),
        ("/v1/search", {"query": "x", "k": 5_000}, "k"),
        ("/v1/memories", {"content": "x", "tags": ["a\u0000"]}, "tags"),
        ("/v1/memories", {"content": "x", "entities": ["a\u0000"]}, "entities"),
        ("/v1/memories", {"content": "x", "meta": {"a": "\u0000"}}, "meta"),
    ],
)
async def test_rest_odd_values_name_their_field(
    mem_store: MemoryStore, path: str, body: dict[str, Any], field: str
) -> None:
    app = create_app(mem_store, mcp=False)
    async with rest(app) as client:
        response = await client.post(path, json=body)
        assert response.status_code in (400, 422), response.text
        error = error_of(response, response.status_code)
        named = error["details"].get("field") or [e["field"] for e in error["details"]["errors"]]
        assert field in str(named), error


async def test_rest_lone_surrogate_is_a_400(mem_store: MemoryStore) -> None:
    app = create_app(mem_store, mcp=False)
    async with rest(app) as client:
        for path in ("/v1/memories", "/v1/search"):
            raw = b'{"content": "a \\ud800", "query": "a \\ud800"}'
            response = await client.post(
                path, content=raw, headers={"content-type": "application/json"}
            )
            error_of(response, 400)


def text_of(result: Any) -> tuple[Any, bool]:
    return json.loads(result.content[0].text), bool(result.is_error)


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("save_memory", {"content": "deep", "meta": nested(40)}, "meta"),
        ("save_memory", {"content": "a \ud800"}, "content"),
        ("save_memory", {"content": "x", "tags": ["a\x00"]}, "tags"),
        ("search_memory", {"query": "a \ud800"}, "query"),
        ("search_memory", {"query": "x", "window_days": 1e6}, "window_days"),
        ("search_memory", {"query": "x", "k": "many"}, "k"),
        ("search_memory", {"query": "x", "k": 5_000}, "k"),
        ("search_memory", {"query": "x", "colour": "red"}, "colour"),
        (
            "save_memory",
            {"content": "x", "observed_at": "9999-12-31T23:59:59-05:00"},
            "observed_at",
        ),
    ],
)
async def test_mcp_errors_share_the_json_shape(
    mem_store: MemoryStore, tool: str, arguments: dict[str, Any], field: str
) -> None:
    async with Client(build_server(mem_store)) as client:
        data, failed = await call(client, tool, **arguments)
        assert failed, data
        assert isinstance(data, dict) and set(data) == {"error"}, data
        assert set(data["error"]) == {"code", "message", "details"}
        assert field in json.dumps(data["error"]["details"]), data
        assert data["error"]["code"] in ("invalid_input", "validation_error")


async def test_one_k_limit_everywhere(mem_store: MemoryStore) -> None:
    limit = Settings().max_k
    async with Client(build_server(mem_store)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        for name in ("search_memory", "recall"):
            assert tools[name].input_schema["properties"]["k"]["maximum"] == limit
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert f"[1, {limit}]" in readme
    document = create_app(mem_store, mcp=False).state.openapi
    search = document["components"]["schemas"]["SearchIn"]["properties"]["k"]
    assert search["maximum"] == limit


runner = CliRunner()


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MNEMEX_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MNEMEX_CONFIG", raising=False)
    monkeypatch.delenv("MNEMEX_VAULT_DIR", raising=False)
    return tmp_path


def cli(*args: str, input: str | None = None) -> Any:
    return runner.invoke(cli_app, list(args), input=input)


def assert_clean_failure(result: Any, code: str | None = None) -> None:
    assert result.exit_code not in (0,), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    if code is not None:
        assert code in result.output, result.output


def test_cli_bad_text_and_paths(cli_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(cli_env / "s.db")
    saved = cli("--db", db, "save", "hello there", "--json")
    memory_id = json.loads(saved.output)["id"]
    assert_clean_failure(cli("--db", db, "save", "a \udcff b"), "invalid_input")
    assert_clean_failure(cli("--db", db, "search", "a \udcff"), "invalid_input")
    assert_clean_failure(cli("--db", db, "save", "deep", "--meta", json.dumps(nested(700))))
    assert_clean_failure(cli("--db", db, "export", str(cli_env / "nodir" / "x.jsonl")))
    assert_clean_failure(cli("--db", db, "import", str(cli_env / "missing.jsonl")))
    (cli_env / "afile").write_text("x")
    assert_clean_failure(cli("--db", str(cli_env / "afile" / "x.db"), "save", "hi"))
    monkeypatch.setenv("MNEMEX_VAULT_DIR", str(cli_env / "afile"))
    assert_clean_failure(cli("--db", db, "promote", memory_id, "--apply"))
    monkeypatch.delenv("MNEMEX_VAULT_DIR")
    monkeypatch.setenv("MNEMEX_CONFIG", str(cli_env / "nope.toml"))
    assert_clean_failure(cli("--db", db, "stats"), "MNEMEX_CONFIG")
    (cli_env / "bad.toml").write_text("x = [")
    monkeypatch.setenv("MNEMEX_CONFIG", str(cli_env / "bad.toml"))
    assert_clean_failure(cli("--db", db, "stats"), "MNEMEX_CONFIG")


def test_cli_invalid_utf8_on_stdin(cli_env: Path) -> None:
    db = str(cli_env / "s.db")
    result = runner.invoke(cli_app, ["--db", db, "save", "-"], input=b"a \xff b")
    assert_clean_failure(result)
