"""The hint in a real browser (Playwright and the system's Chromium, as
``tests/test_web_browser.py``): on a table made with hints, the Hint button asks for the
search's analysis and the page lists each legal move with its value."""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the web-test extra)")

from web_helpers import CHROMIUM, CHROMIUM_ARGS, ServeProcess  # noqa: E402

if not os.path.exists(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    process = ServeProcess(tmp_path_factory.mktemp("web") / "tables.db")
    process.start()
    yield process
    process.stop()


def _link(server: ServeProcess, hints: bool) -> str:
    body: dict[str, Any] = {"game": "aegis", "seats": ["human", "greedy"], "rules": {"target": 5}, "hints": hints}
    request = urllib.request.Request(
        f"{server.url}/tables", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return server.url + json.load(answer)["links"][0]["url"]


def test_the_hint_button_shows_the_search_s_analysis(server):
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page()
            page.set_default_timeout(15_000)
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(_link(server, True))
            page.wait_for_selector("#actions button")
            page.wait_for_selector("#advice-ask", state="visible")
            page.click("#advice-ask")
            page.wait_for_selector("#advice-lines li")
            lines = page.locator("#advice-lines li").all_text_contents()
            assert lines and all("visits" in line for line in lines)
            assert page.locator("#advice").is_visible()
            # a table without hints shows no button
            page.goto(_link(server, False))
            page.wait_for_selector("#actions button")
            assert not page.locator("#advice-ask").is_visible()
            assert errors == []
        finally:
            browser.close()
