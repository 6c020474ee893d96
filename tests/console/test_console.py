"""The console in a real browser, on a seeded store: every view shows what the store holds,
search, entity pages, time travel on the graph and the facts, settling a review, and tokens.

Each view has a check that asserts on its content (`CHECKS`); `test_a_broken_view_fails_its_check`
serves a console with one view broken and shows that its check fails.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mnemex
from bench.console_seed import serving
from mnemex import Settings

Page = Any
DOCS = Path(__file__).resolve().parents[2] / "docs"


def open_view(page: Page, view: str) -> None:
    page.goto(f"/#/{view}")
    name = view.partition("/")[0]
    page.wait_for_selector(f"#view[data-view='{name}'][data-ready=yes]")
    assert page.locator("#view .error").count() == 0, page.inner_text("#view")


def check_search(page: Page) -> None:
    open_view(page, "search")
    page.fill("#search-query", "editor")
    page.click("#view form button.primary")
    first = page.locator(".hit").first
    first.wait_for()
    assert "Alice switched to Neovim" in first.inner_text()
    assert "current" in first.inner_text() and "ledger #1" in first.inner_text()
    page.check("#search-history")
    page.fill("#search-query", "Alice editor Vim")
    page.click("#view form button.primary")
    page.wait_for_selector(".hit.superseded")
    assert "Alice uses Vim" in page.inner_text(".hit.superseded")


def check_memories(page: Page) -> None:
    open_view(page, "memories")
    assert page.locator("tr.memory").count() == 25
    page.click("#page-next")
    page.wait_for_function("document.querySelector('#page-info').textContent === '26-50'")
    page.fill("#filter-tag", "deploy")
    page.click("#view form button.primary")
    page.wait_for_function("document.querySelector('#page-info').textContent.startsWith('1-')")
    rows = page.locator("tr.memory")
    assert rows.count() > 0
    for i in range(rows.count()):
        assert "deploy" in rows.nth(i).inner_text()
    page.fill("#filter-tag", "")
    page.select_option("#filter-status", "archived")
    page.click("#view form button.primary")
    page.wait_for_selector("tr.memory:has-text('Lunch order')")


def check_timeline(page: Page) -> None:
    open_view(page, "timeline")
    groups = {
        g: page.inner_text(f"[data-group='{g}']")
        for g in ("Today", "Yesterday", "This week", "Earlier")
    }
    assert "Carol is allergic to peanuts" in groups["Today"]
    assert "Hiro asked for Grafana access" in groups["Yesterday"]
    assert "Grace booked the Borealis retro" in groups["This week"]
    assert "Alice's code editor is Zed" in groups["Earlier"]
    assert page.locator("[data-group='Earlier'] .card").count() > 100


def graph_count(page: Page) -> tuple[int, int]:
    text = page.inner_text("#graph-count")
    found = re.match(r"(\d+) entities, (\d+) ghosts", text)
    assert found, text
    return int(found[1]), int(found[2])


def check_graph(page: Page) -> None:
    open_view(page, "graph")
    live, ghosts = graph_count(page)
    assert live >= 24 and ghosts == 0
    legend = page.inner_text("#graph-legend")
    assert all(word in legend for word in ("person", "project", "technology"))
    layouts = page.locator("#graph-layout option").all_inner_texts()
    assert len(layouts) >= 3
    page.select_option("#graph-layout", "circle")
    assert page.evaluate("window.mnemexGraph.nodes(':visible').length") == live
    page.uncheck("[data-category='person']")
    assert graph_count(page)[0] < live


def check_entity(page: Page) -> None:
    open_view(page, "entity/Alice")
    assert page.inner_text("#entity-name") == "Alice"
    facts = page.inner_text("#view table")
    assert "Neovim" in facts and "Vim (superseded" in facts
    assert "works_on" in page.inner_text("#view")
    assert page.locator("#entity-memories .card").count() > 5


def check_facts(page: Page) -> None:
    open_view(page, "facts")
    assert "Alice · editor: Neovim" in page.inner_text("#profile")
    table = page.inner_text("#facts-table")
    assert "Lisbon" in table and "Toronto (superseded" in table


def check_reviews(page: Page) -> None:
    open_view(page, "reviews")
    card = page.locator(".review").first
    text = card.inner_text()
    assert "Alice's code editor is Zed" in text and "would replace Neovim" in text


def check_decay(page: Page) -> None:
    open_view(page, "decay")
    assert page.locator("#strength-plot .bars div").count() == 10
    page.wait_for_selector("#decay-preview h2")
    assert "Below the forget threshold" in page.inner_text("#decay-preview")
    assert "Lunch order" in page.inner_text("#view")


def check_activity(page: Page) -> None:
    open_view(page, "activity")
    kinds = set(page.locator("tr.event td:nth-child(2)").all_inner_texts())
    assert {"save", "fact_superseded", "pin"} <= kinds
    page.select_option("#activity-kind", "pin")
    page.wait_for_function(
        "[...document.querySelectorAll('tr.event td:nth-child(2)')]"
        ".every((td) => td.textContent === 'pin')"
    )


def check_settings(page: Page) -> None:
    open_view(page, "settings")
    assert page.inner_text("#store-location").endswith("store.db")
    assert "KiB" in page.inner_text("#store-size") or "MiB" in page.inner_text("#store-size")
    assert "half_life_days" in page.inner_text("#view")


CHECKS: dict[str, Callable[[Page], None]] = {
    "search": check_search,
    "memories": check_memories,
    "timeline": check_timeline,
    "graph": check_graph,
    "entity": check_entity,
    "facts": check_facts,
    "reviews": check_reviews,
    "decay": check_decay,
    "activity": check_activity,
    "settings": check_settings,
}


@pytest.mark.parametrize("view", list(CHECKS))
def test_every_view_shows_the_store(page: Page, view: str, artefacts: Path) -> None:
    CHECKS[view](page)
    page.screenshot(path=str(artefacts / f"{view}.png"))


def set_slider(page: Page, slider: str, step: int) -> None:
    page.evaluate(
        "([id, step]) => { const r = document.getElementById(id); r.value = String(step);"
        " r.dispatchEvent(new Event('input')); }",
        [slider, step],
    )


def test_time_travel_on_the_facts(page: Page, artefacts: Path) -> None:
    check_facts(page)
    set_slider(page, "facts-time", 100)  # ~100 days ago: before the switch to Neovim
    page.wait_for_function("document.querySelector('#facts-table').dataset.asOf !== 'now'")
    alice = page.inner_text("[data-key='Alice/editor'] .fact-value")
    assert "Vim" in alice and "Neovim" not in alice
    assert "Toronto" in page.inner_text("[data-key='Bob/city'] .fact-value")
    page.screenshot(path=str(artefacts / "facts-time-travel.png"))
    set_slider(page, "facts-time", 0)  # the oldest moment: before any fact was recorded
    page.wait_for_selector("#facts-table .facts-empty")


def docs_shot(page: Page, artefacts: Path, name: str) -> None:
    """A screenshot for the artefacts folder; with MNEMEX_DOCS_SCREENSHOTS=1 also the README's
    copy under docs/ (how docs/console-*.png are made)."""
    page.screenshot(path=str(artefacts / f"{name}.png"))
    if os.environ.get("MNEMEX_DOCS_SCREENSHOTS") == "1":
        page.screenshot(path=str(DOCS / f"console-{name}.png"))


def test_time_travel_on_the_graph(page: Page, artefacts: Path) -> None:
    open_view(page, "graph")
    now, _ = graph_count(page)
    docs_shot(page, artefacts, "graph")
    legacy = "window.mnemexGraph.nodes().filter((n) => n.data('label') === 'Legacy CI')"
    assert page.evaluate(f"{legacy}.hasClass('gone')")  # expired 30 days ago
    set_slider(page, "graph-time", 160)  # ~40 days ago: it existed, and has expired since
    assert page.evaluate(f"{legacy}.hasClass('ghost')")
    assert graph_count(page)[1] >= 1
    docs_shot(page, artefacts, "time-travel")
    set_slider(page, "graph-time", 0)  # the oldest moment: only what existed then
    assert graph_count(page)[0] < now


def test_play_runs_from_the_oldest_memory_to_now(page: Page) -> None:
    open_view(page, "facts")
    page.click("#facts-time-play")
    page.wait_for_function("document.querySelector('#facts-time-label').textContent !== 'now'")
    page.wait_for_function(
        "document.querySelector('#facts-time-label').textContent === 'now'", timeout=20_000
    )
    assert page.inner_text("#facts-time-play") == "play"


def test_search_then_open_an_entity_from_the_graph(page: Page) -> None:
    open_view(page, "search")
    page.fill("#search-query", "Grafana access")
    page.click("#view form button.primary")
    page.locator(".hit").first.wait_for()
    page.click(".hit a[href='#/entity/Hiro']")
    page.wait_for_selector("#view[data-view='entity'][data-ready=yes]")
    assert page.inner_text("#entity-name") == "Hiro"
    open_view(page, "graph")
    point = page.evaluate(
        "(() => { const n = window.mnemexGraph.nodes().filter((x) => x.data('label') === 'Atlas');"
        " const p = n.renderedPosition(); const b = document.querySelector('#graph-canvas')"
        ".getBoundingClientRect(); return [b.left + p.x, b.top + p.y]; })()"
    )
    page.mouse.move(*point)
    page.wait_for_selector("#graph-tip:not([hidden])")
    assert "Atlas (project)" in page.inner_text("#graph-tip")
    page.mouse.click(*point)
    page.click("#open-entity")
    page.wait_for_selector("#view[data-view='entity'][data-ready=yes]")
    assert page.inner_text("#entity-name") == "Atlas"


def test_edit_pin_forget_and_restore_a_memory(page: Page, seeded: Any) -> None:
    store, names = seeded
    open_view(page, f"memories/{names['pinned']}")
    page.fill("#edit-content", "Carol is allergic to peanuts and sesame")
    page.click("#panel button.primary")
    page.wait_for_selector("#edit-status:text('saved')")
    assert store.get(names["pinned"]).content.endswith("and sesame")
    page.click("#panel button:text('close')")
    page.wait_for_selector("tr.memory:has-text('and sesame') button:text('unpin')")
    row = page.locator("tr.memory:has-text('and sesame')")
    row.locator("button:text('unpin')").click()
    page.wait_for_selector("tr.memory:has-text('and sesame') button:text-is('pin')")
    assert "pinned" not in store.get(names["pinned"]).tags
    page.locator("tr.memory:has-text('and sesame') button:text('forget')").click()
    page.wait_for_function("!document.querySelector('#memory-list').textContent.includes('sesame')")
    assert store.get(names["pinned"]).status == "deleted"
    store.restore(names["pinned"])
    store.pin(names["pinned"])


def test_approving_a_review_changes_the_fact(page: Page, seeded: Any) -> None:
    """Runs last of the seeded tests: it changes Alice's editor."""
    check_reviews(page)
    page.click(".review [data-decision='approve']")
    page.wait_for_selector("#review-result:has-text('approved')")
    open_view(page, "facts")
    assert "Zed" in page.inner_text("[data-key='Alice/editor'] .fact-value")
    assert seeded[0].facts("Alice", "editor")[0].object == "Zed"


def test_a_broken_view_fails_its_check(browser: Any, url: str) -> None:
    """The checks bite: the same facts check on a console whose facts view lost its history
    column (a plausible regression) fails."""
    context = browser.new_context(base_url=url)
    page = context.new_page()

    def broken(route: Any) -> None:
        body = route.fetch().text().replace("history && older.length", "false")
        route.fulfill(body=body, headers={"Content-Type": "text/javascript"})

    page.route("**/console/js/ledger.js", broken)
    with pytest.raises(AssertionError):
        check_facts(page)
    context.close()


def test_the_console_asks_for_a_token_once_and_shows_one_tenant(
    browser: Any, tmp_path: Path
) -> None:
    settings = Settings.load(env={"MNEMEX_EMBED_MODEL": "none"}, data_dir=tmp_path / "data")
    with mnemex.open(str(tmp_path / "t.db"), settings=settings) as store:
        store.for_tenant("alice").save("Alice keeps her notes in Obsidian", entities=["Alice"])
        store.for_tenant("bob").save("Bob keeps his notes on paper", entities=["Bob"])
        _, secret = store.tokens.create("alice", "console")
        with serving(store, require_token=True) as address:
            context = browser.new_context(base_url=address)
            page = context.new_page()
            page.goto("/#/memories")
            page.wait_for_selector("#login[open]")
            page.fill("#login-token", "mnx_wrong")
            page.click("#login-form button")
            page.wait_for_selector("#login-error:text('That token was refused.')")
            page.fill("#login-token", secret)
            page.click("#login-form button")
            page.wait_for_selector("#view[data-view='memories'][data-ready=yes]")
            text = page.inner_text("#memory-list")
            assert "Obsidian" in text and "paper" not in text
            assert page.inner_text("#tenant") == "tenant alice"
            page.reload()  # the token is kept for the tab: no second prompt
            page.wait_for_selector("#view[data-view='memories'][data-ready=yes]")
            assert not page.locator("#login[open]").count()
            assert "Obsidian" in page.inner_text("#memory-list")
            context.close()
