"""Fixtures of the browser tests: a seeded store served for real, and Debian's chromium driven
by Playwright for Python (never `playwright install`: .ci/run installs the chromium package).

Outside CI a machine without chromium or Playwright skips these tests; in CI (CI=true) that is a
failure, so the console is always tested there.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mnemex
from bench.console_seed import seed, serving
from mnemex import MemoryStore, Settings

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
ARTEFACTS = Path(__file__).parent / "artefacts"


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install -y chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = _missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests cannot run in CI: {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def seeded(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[MemoryStore, dict[str, str]]]:
    folder = tmp_path_factory.mktemp("console")
    names = seed(folder / "store.db")
    settings = Settings.load(env={}, data_dir=folder / "data")
    with mnemex.open(str(folder / "store.db"), settings=settings) as store:
        yield store, names


@pytest.fixture(scope="module")
def url(seeded: tuple[MemoryStore, dict[str, str]]) -> Iterator[str]:
    with serving(seeded[0]) as address:
        yield address


@pytest.fixture(scope="module")
def artefacts() -> Path:
    shutil.rmtree(ARTEFACTS, ignore_errors=True)
    ARTEFACTS.mkdir(parents=True)
    return ARTEFACTS


@pytest.fixture
def page(browser: Any, url: str) -> Iterator[Any]:
    """A fresh tab; any script error on it fails the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=url)
    tab = context.new_page()
    tab.set_default_timeout(20_000)  # generous: CI machines are shared
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield tab
    context.close()
    assert errors == []
