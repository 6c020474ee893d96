"""The console's files: served from the package at / and /console/, open without a token
(they hold no data), nothing outside the web folder, the vendored library as `make vendor`
recorded it, and no address of another host in any page."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest

from mnemex import MemoryStore
from mnemex.interfaces.http import create_app
from mnemex.interfaces.http.console import web_root
from tests.clients import rest

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def app(mem_store: MemoryStore) -> Any:
    return create_app(mem_store, require_token=True, mcp=False)


async def test_pages_are_served_without_a_token_and_data_is_not(app: Any) -> None:
    async with rest(app) as client:
        index = await client.get("/")
        assert index.status_code == 200 and "text/html" in index.headers["content-type"]
        assert '<script type="module" src="/console/js/app.js">' in index.text
        script = await client.get("/console/js/api.js")
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]
        assert (await client.get("/console/vendor/cytoscape.min.js")).status_code == 200
        assert (await client.get("/v1/memories")).status_code == 401


async def test_nothing_outside_the_web_folder_is_served(app: Any) -> None:
    async with rest(app) as client:
        for path in (
            "/console/../__init__.py",
            "/console/%2e%2e/service.py",
            "/console/vendor/SOURCES",  # not a served type
            "/console/nothing.js",
        ):
            response = await client.get(path)
            # 404 from the console, or 401 where the client folded "/.." out of the path
            assert response.status_code in (401, 404), path
            assert "import" not in response.text


def test_the_vendored_library_is_what_make_vendor_recorded() -> None:
    vendor = web_root() / "vendor"
    lines = (vendor / "SOURCES").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("cytoscape ") and "MIT" in lines[0]
    recorded = dict(reversed(line.split()) for line in lines[1:])
    assert set(recorded) == {"cytoscape.min.js", "cytoscape.LICENSE"}
    for name, digest in recorded.items():
        assert hashlib.sha256((vendor / name).read_bytes()).hexdigest() == digest, name
    assert "Permission is hereby granted" in (vendor / "cytoscape.LICENSE").read_text()


def test_no_page_reaches_another_host() -> None:
    own = [p for p in Path(web_root()).rglob("*") if p.suffix in (".html", ".js", ".css")]
    own = [p for p in own if "vendor" not in p.parts]
    assert len(own) >= 8
    for path in own:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"https?://", text), path  # same origin only, no CDN
