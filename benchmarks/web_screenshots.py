"""The screenshots of the web table in the docs (``docs/_static/web/*.png``), run by hand::

    python benchmarks/web_screenshots.py

Starts ``cardrules serve`` on a free localhost port with a new database, makes a table
of each game (a person at one seat, the computer at the others), plays a few seeded
moves in headless Chromium (Playwright, the system's ``/usr/bin/chromium``) and saves
the page, 900 pixels wide, and the lobby.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "src"))

from bench_web import Server  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

OUT = ROOT / "docs" / "_static" / "web"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
TABLES = {
    "aegis": (["human", "greedy"], {}, 4),
    "gunsore": (["human", "greedy"], {}, 6),
    "haggis": (["human", "greedy", "greedy"], {}, 2),
    "eleusis": (["random", "human", "greedy", "greedy", "random"], {}, 6),
}


def create(url: str, game: str, seats: list[str], rules: dict[str, object]) -> str:
    body = json.dumps({"game": game, "seats": seats, "rules": rules}).encode()
    request = urllib.request.Request(f"{url}/tables", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return url + json.load(answer)["links"][0]["url"]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        server = Server(Path(tmp) / "shots.db")
        server.start()
        url = f"http://127.0.0.1:{server.port}"
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 900, "height": 560})
            page.goto(url + "/")
            page.select_option("#game", "eleusis")
            page.wait_for_selector("#seat-4")
            page.click("#create")
            page.wait_for_selector("a.join")
            page.screenshot(path=str(OUT / "lobby.png"), full_page=True)
            for game, (seats, rules, moves) in TABLES.items():
                rng = random.Random(game)
                page = browser.new_page(viewport={"width": 900, "height": 760})
                page.goto(create(url, game, seats, rules))
                for _ in range(moves):
                    page.wait_for_function(
                        "() => document.body.dataset.status === 'over' || "
                        "document.querySelector('#actions button.action') !== null"
                    )
                    step = int(page.evaluate("document.body.dataset.step"))
                    buttons = page.locator("#actions button.action")
                    buttons.nth(rng.randrange(min(buttons.count(), 8))).click()
                    page.wait_for_function(f"() => Number(document.body.dataset.step) > {step}")
                page.wait_for_selector("#actions button.action")
                page.screenshot(path=str(OUT / f"{game}.png"))
                print(OUT / f"{game}.png")
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
