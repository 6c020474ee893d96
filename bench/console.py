"""`mnemex bench console`: how fast the web console loads, and whether the graph stays usable
with thousands of entities.

Two stores, each served by the real app on loopback and opened in Debian's chromium (Playwright):
- the seeded store of the browser tests: the first load of `/` (a new browser context each
  time, so nothing is cached) until the Search view is ready, and each view's load after it;
- a store of `--entities` entities and about twice as many relations: the graph view until it
  is drawn, a change of layout, and one move of the time slider.
Times are medians (and maxima) over `--runs` loads, in milliseconds.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import mnemex
from bench.console_seed import seed, serving
from mnemex import Settings

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
VIEWS = ("memories", "timeline", "graph", "facts", "reviews", "decay", "activity", "settings")


def _ms(samples: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(1000 * statistics.median(samples), 1),
        "max_ms": round(1000 * max(samples), 1),
    }


@contextmanager
def timed(samples: list[float]) -> Iterator[None]:
    """Append the seconds the block took to `samples`."""
    start = time.perf_counter()
    yield
    samples.append(time.perf_counter() - start)


def _ready(page: Any, view: str) -> None:
    page.wait_for_selector(f"#view[data-view='{view}'][data-ready=yes]", timeout=60_000)


def big_store(path: Path, entities: int) -> None:
    """`entities` entities in six categories, each linked to two others."""
    settings = Settings.load(env={"MNEMEX_EMBED_MODEL": "none"}, data_dir=path.parent / "data")
    categories = ["person", "project", "technology", "place", "organisation", "product"]
    with mnemex.open(str(path), settings=settings) as store:
        names = [f"Entity {i:05d}" for i in range(entities)]
        for start in range(0, entities, 100):
            chunk = names[start : start + 100]
            store.upsert_entities(
                [
                    {"name": n, "category": categories[i % len(categories)]}
                    for i, n in enumerate(chunk)
                ],
                [
                    {
                        "from_entity": n,
                        "to_entity": names[(start + i * 7 + k) % entities],
                        "relation_type": "related_to",
                    }
                    for i, n in enumerate(chunk)
                    for k in (1, 13)
                ],
            )


def run(runs: int = 10, entities: int = 2_000) -> list[dict[str, Any]]:
    """The rows of the benchmark (see the module's docstring)."""
    from playwright.sync_api import sync_playwright

    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        seeded = Path(folder) / "seeded" / "store.db"
        seeded.parent.mkdir()
        seed(seeded)
        settings = Settings.load(env={}, data_dir=seeded.parent / "data")
        with mnemex.open(str(seeded), settings=settings) as store, serving(store) as url:
            first: list[float] = []
            views: dict[str, list[float]] = {view: [] for view in VIEWS}
            for _ in range(runs):
                context = browser.new_context(base_url=url)
                page = context.new_page()
                with timed(first):
                    page.goto("/")
                    _ready(page, "search")
                for view in VIEWS:
                    with timed(views[view]):
                        page.goto(f"/#/{view}")
                        _ready(page, view)
                context.close()
            rows.append({"store": "seeded (310 memories)", "step": "first load of /", **_ms(first)})
            rows += [
                {"store": "seeded (310 memories)", "step": f"open {view}", **_ms(samples)}
                for view, samples in views.items()
            ]
        big = Path(folder) / "big" / "store.db"
        big.parent.mkdir()
        big_store(big, entities)
        settings = Settings.load(env={"MNEMEX_EMBED_MODEL": "none"}, data_dir=big.parent / "data")
        with mnemex.open(str(big), settings=settings) as store, serving(store) as url:
            drawn: list[float] = []
            relayout: list[float] = []
            slide: list[float] = []
            label = f"{entities:,} entities"
            for _ in range(runs):
                context = browser.new_context(base_url=url, viewport={"width": 1280, "height": 860})
                page = context.new_page()
                with timed(drawn):
                    page.goto("/#/graph")
                    _ready(page, "graph")
                count = page.evaluate("window.mnemexGraph.nodes().length")
                assert count == entities, count
                with timed(relayout):
                    page.select_option("#graph-layout", "circle")
                with timed(slide):
                    page.evaluate(
                        "(() => { const r = document.getElementById('graph-time');"
                        " r.value = '100'; r.dispatchEvent(new Event('input')); })()"
                    )
                context.close()
            rows.append({"store": label, "step": "graph view drawn", **_ms(drawn)})
            rows.append({"store": label, "step": "layout change (circle)", **_ms(relayout)})
            rows.append({"store": label, "step": "time slider move", **_ms(slide)})
        browser.close()
    return rows
