"""The rule playground of the docs (docs/playground.rst).

Its Python side (``docs/_static/playground/playground.py``) and the bundling script
(``docs/bundle_playground.py``) are tested here under CPython, always.  The page itself
is tested in headless Chromium: a built docs tree is bundled with Pyodide and the
wheels, served from a localhost web server, and driven with Playwright.  Those tests
need

* the ``playwright`` package (pip only: the browser is the system's Chromium,
  ``/usr/bin/chromium`` or ``CARDRULES_CHROMIUM``);
* ``CARDRULES_DOCS_DIR``: a build of the docs (``sphinx-build -b html docs DIR``);
* ``CARDRULES_PYODIDE_DIR``: the npm package ``pyodide`` (``node_modules/pyodide``);
* ``CARDRULES_WHEEL_DIR``: cardrules' pure-Python wheel and the lark and attrs wheels;

and skip, saying what is missing, without them (the page without the bundle needs only
the first two).  With ``CARDRULES_PLAYGROUND_REQUIRED=1`` a missing input fails them
instead, so that a CI run cannot pass by skipping.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import os
import shutil
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from cardrules import parse_card, parse_cards
from cardrules.eleusis import RuleSyntaxError, compile_rule
from cardrules.tricks import TableError, builtin, compile_tables

ROOT = Path(__file__).resolve().parent.parent
PAGE_DIR = ROOT / "docs" / "_static" / "playground"
CHROMIUM = os.environ.get("CARDRULES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: how long the page may take to load Python (about 10 s on two loaded cores)
LOAD_MS = 60_000
#: how long one answer to typing may take
ANSWER_MS = 15_000


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


playground = _load("cardrules_docs_playground", PAGE_DIR / "playground.py")
bundler = _load("cardrules_docs_bundle_playground", ROOT / "docs" / "bundle_playground.py")

COLOURS = "card.color != prev.color"
TABLES = """\
table high:
    class led when card.suit == lead.suit
    class off
    led beats off
    otherwise by ranks standard
"""


# -- the page's Python side, under CPython -------------------------------------------------


def test_a_rule_reads_back_as_str_rule() -> None:
    reply = json.loads(playground.rule("card.color!=prev.color"))
    assert reply == {"ok": True, "rule": str(compile_rule(COLOURS)), "depth": 1}


def test_a_typo_is_the_librarys_error_with_its_caret() -> None:
    text = "card.color != prev.colr"
    with pytest.raises(RuleSyntaxError) as caught:
        compile_rule(text)
    reply = json.loads(playground.rule(text))
    assert reply["ok"] is False
    assert reply["error"] == str(caught.value)
    assert (reply["line"], reply["column"]) == (caught.value.line, caught.value.column)
    assert reply["error"].splitlines()[-1].strip() == "^"


def test_the_allowed_cards_and_a_warning_for_a_line_the_rule_refuses() -> None:
    rule = compile_rule(COLOURS)
    reply = json.loads(playground.next_cards(COLOURS, "5H 8C"))
    assert reply["allowed"] == [str(c) for c in rule.allowed(parse_cards("5H 8C"))]
    assert reply["warning"] is None and reply["starters"] == []
    bad = json.loads(playground.next_cards(COLOURS, "5H 8C 9S"))
    assert bad["warning"].startswith("9S is not right after 5H 8C: ")
    empty = json.loads(playground.next_cards('rule "odd start":\n    start: card is odd\n    play: true', ""))
    assert len(empty["starters"]) == 28 and "3H" in empty["starters"] and "4H" not in empty["starters"]
    typo = json.loads(playground.next_cards(COLOURS, "5H 8X"))
    assert typo["ok"] is False and typo["where"] == "line" and "8X" in typo["error"]


def test_explain_is_rule_explain() -> None:
    rule = compile_rule(COLOURS)
    line, card = parse_cards("5H 8C"), parse_card("9S")
    reply = json.loads(playground.explain(COLOURS, "5H 8C", "9S"))
    assert reply == {"ok": True, "card": "9S", "right": False, "explanation": rule.explain(line, card)}


def test_a_science_round_is_reported_turn_by_turn() -> None:
    events: list[dict[str, Any]] = []
    reply = json.loads(playground.science(COLOURS, 3, 20, lambda text: events.append(json.loads(text))))
    assert reply["ok"] and reply["solved"] and reply["rule"] == COLOURS
    assert reply["score"] == 20 - reply["turns"] - 2 * reply["wrong_guesses"]
    assert events[0]["event"] == "start" and len(events[0]["hand"]) == 12
    turns = [e for e in events if e["event"] == "turn"]
    assert [e["turn"] for e in turns] == list(range(1, reply["turns"] + 1))
    assert sum(e["event"] == "wrong" for e in events) == reply["wrong_guesses"]
    assert [e for e in events if e["event"] == "guess"][-1]["rule"] == COLOURS
    main = turns[-1]["main"]
    assert all(
        compile_rule(COLOURS).accepts(parse_cards(" ".join(main[:i])), parse_card(main[i]))
        for i in range(1, len(main))
    )


def test_tables_and_the_winner_of_a_trick() -> None:
    reply = json.loads(playground.tables(TABLES))
    assert [t["name"] for t in reply["tables"]] == ["high"]
    assert reply["tables"][0]["classes"] == ["led", "off"]
    won = json.loads(playground.trick(TABLES, "high", "5C AD 9C", ""))
    assert won == {"ok": True, "winner": 2, "card": "9C", "classes": ["led", "off", "led"]}
    assert won["winner"] == compile_tables(TABLES)["high"].winner(parse_cards("5C AD 9C"))
    text = TABLES.replace("==", "=")
    with pytest.raises(TableError) as caught:
        compile_tables(text)
    assert json.loads(playground.tables(text))["error"] == str(caught.value)
    whist = builtin("whist").source
    needs_key = json.loads(playground.trick(whist, "whist", "5C AD", ""))
    assert needs_key["ok"] is False and needs_key["where"] == "key" and "key" in needs_key["error"]
    assert json.loads(playground.trick(whist, "whist", "5C AD 2H", "7H"))["card"] == "2H"


# -- the bundling script ---------------------------------------------------------------------


def _wheel(folder: Path, name: str) -> None:
    with zipfile.ZipFile(folder / name, "w") as z:
        z.writestr("x.txt", "x")


def _fake_inputs(tmp: Path, cardrules_wheel: str) -> tuple[Path, Path, Path]:
    pyodide, wheels, out = tmp / "pyodide", tmp / "wheels", tmp / "out"
    for folder in (pyodide, wheels, out / "_static" / "playground"):
        folder.mkdir(parents=True)
    for name in bundler.PYODIDE_FILES:
        (pyodide / name).write_text(name)
    (pyodide / "package.json").write_text('{"name": "pyodide", "version": "9.8.7"}')
    (pyodide / "console.html").write_text("not needed")
    for name in (cardrules_wheel, "lark-1.3.1-py3-none-any.whl", "attrs-26.1.0-py3-none-any.whl"):
        _wheel(wheels, name)
    (out / "playground.html").write_text("<html></html>")
    (out / "_static" / "playground" / "playground.js").write_text("")
    return pyodide, wheels, out


def test_the_bundle_copies_the_runtime_and_the_wheels_and_names_them(tmp_path: Path) -> None:
    pyodide, wheels, out = _fake_inputs(tmp_path, "cardrules-0.1.0-py3-none-any.whl")
    assert bundler.main(["--pyodide", str(pyodide), "--wheels", str(wheels), "--out", str(out)]) == 0
    page = out / "_static" / "playground"
    manifest = json.loads((page / "manifest.json").read_text())
    assert manifest == {
        "pyodide": "pyodide/",
        "pyodide_version": "9.8.7",
        "wheel_dir": "wheels/",
        "wheels": [
            "cardrules-0.1.0-py3-none-any.whl",
            "lark-1.3.1-py3-none-any.whl",
            "attrs-26.1.0-py3-none-any.whl",
        ],
    }
    assert sorted(p.name for p in (page / "pyodide").iterdir()) == sorted(bundler.PYODIDE_FILES)
    assert sorted(p.name for p in (page / "wheels").iterdir()) == sorted(manifest["wheels"])
    # Again: the bundle is replaced, not added to.
    (page / "wheels" / "stale-1-py3-none-any.whl").write_text("")
    assert bundler.main(["--pyodide", str(pyodide), "--wheels", str(wheels), "--out", str(out)]) == 0
    assert len(list((page / "wheels").iterdir())) == 3


def test_the_bundle_refuses_the_wheel_with_the_c_accelerator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pyodide, wheels, out = _fake_inputs(tmp_path, "cardrules-0.1.0-cp310-abi3-linux_x86_64.whl")
    assert bundler.main(["--pyodide", str(pyodide), "--wheels", str(wheels), "--out", str(out)]) == 1
    assert "no pure-Python cardrules wheel" in capsys.readouterr().err
    assert not (out / "_static" / "playground" / "manifest.json").exists()


def test_the_bundle_needs_a_built_page_and_the_pyodide_package(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pyodide, wheels, out = _fake_inputs(tmp_path, "cardrules-0.1.0-py3-none-any.whl")
    (pyodide / "pyodide.asm.wasm").unlink()
    assert bundler.main(["--pyodide", str(pyodide), "--wheels", str(wheels), "--out", str(out)]) == 1
    assert "lacks pyodide.asm.wasm" in capsys.readouterr().err
    assert bundler.main(["--pyodide", str(pyodide), "--wheels", str(wheels), "--out", str(tmp_path)]) == 1
    assert "is not a build of the docs with the playground" in capsys.readouterr().err


# -- the page in headless Chromium -------------------------------------------------------------


def _missing(what: str) -> None:
    if os.environ.get("CARDRULES_PLAYGROUND_REQUIRED") == "1":
        pytest.fail(f"CARDRULES_PLAYGROUND_REQUIRED=1, but {what}")
    pytest.skip(what)


def _env_dir(name: str, check: str) -> Path:
    value = os.environ.get(name)
    if not value:
        _missing(f"{name} is not set (see this file's docstring)")
    path = Path(value or "")
    if not (path / check).exists():
        _missing(f"{name}={value} holds no {check}")
    return path


def _site(tmp: Path, *, bundled: bool) -> Path:
    """The playground page of the built docs (the page and _static/), bundled or not."""
    docs = _env_dir("CARDRULES_DOCS_DIR", "playground.html")
    if bundled:
        pyodide = _env_dir("CARDRULES_PYODIDE_DIR", "pyodide.asm.wasm")
        wheels = _env_dir("CARDRULES_WHEEL_DIR", ".")
        if not list(wheels.glob("cardrules-*-py3-none-any.whl")):
            _missing(f"CARDRULES_WHEEL_DIR={wheels} holds no pure-Python cardrules wheel")
    site = tmp / "site"
    site.mkdir()
    shutil.copy2(docs / "playground.html", site / "playground.html")
    shutil.copytree(
        docs / "_static",
        site / "_static",
        ignore=shutil.ignore_patterns("manifest.json", "pyodide", "wheels"),
    )
    # The page's own files as they are in this checkout, over the built copies.
    for path in PAGE_DIR.iterdir():
        shutil.copy2(path, site / "_static" / "playground" / path.name)
    if bundled:
        try:
            bundler.bundle(pyodide, wheels, site)
        except bundler.BundleError as e:
            _missing(f"the bundle cannot be made: {e}")
    return site


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """``python -m http.server``'s handler (as the page's docs suggest), without its log."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install playwright; the browser is the system's Chromium)")
    if not os.path.exists(CHROMIUM):
        _missing(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set CARDRULES_CHROMIUM)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


class _Served:
    def __init__(self, site: Path) -> None:
        handler = functools.partial(_Quiet, directory=str(site))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/playground.html"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


@pytest.fixture(scope="module")
def page(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The bundled playground, loaded and ready (Python loaded once for the module)."""
    site = _site(tmp_path_factory.mktemp("bundled"), bundled=True)
    served = _Served(site)
    context = browser.new_context()
    # Nothing but the local server: a request elsewhere would mean the page is not offline.
    elsewhere: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(served.url.rsplit("/", 1)[0]):
            r.continue_()
        else:
            elsewhere.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(served.url)
        pg.wait_for_selector("#pg-status.pg-ready", timeout=LOAD_MS)
        yield pg
        assert not errors, errors
        assert not elsewhere, f"the page asked for files off the local server: {elsewhere}"
    finally:
        context.close()
        served.close()


def _wait_text(page: Any, selector: str, expected: str, timeout: float = ANSWER_MS) -> None:
    """Wait until the element's text is exactly ``expected`` (carets and all)."""
    try:
        page.wait_for_function(
            "([s, t]) => document.querySelector(s).textContent === t",
            arg=[selector, expected],
            timeout=timeout,
        )
    except Exception:
        actual = page.text_content(selector)
        raise AssertionError(f"{selector} shows {actual!r}, not {expected!r}") from None


def _mode(page: Any, mode: str) -> None:
    page.check(f'input[name="pg-mode"][value="{mode}"]')


def test_the_page_shows_what_loading_took_and_the_default_rule(page: Any) -> None:
    status = page.text_content("#pg-status-text")
    assert status.startswith("Ready: cardrules ") and "loaded in" in status, status
    assert page.evaluate("document.querySelector('#pg-progress').value") == 4


def test_the_page_compiles_a_rule_and_shows_str_rule(page: Any) -> None:
    _mode(page, "rule")
    page.fill("#pg-source", "card.color!=prev.color")
    _wait_text(page, "#pg-result", str(compile_rule("card.color!=prev.color")))
    assert "pg-ok" in page.get_attribute("#pg-result", "class")
    page.fill("#pg-source", 'rule "odd start":\n  start: card is odd\n  play: card.rank>prev.rank')
    _wait_text(
        page, "#pg-result", 'rule "odd start":\n    start: card is odd\n    play: card.rank > prev.rank'
    )


def test_a_typo_shows_the_librarys_error_with_line_column_and_caret(page: Any) -> None:
    _mode(page, "rule")
    text = "card.suit == prev.suit or\n  card.rnk == prev.rank"
    with pytest.raises(RuleSyntaxError) as caught:
        compile_rule(text)
    assert caught.value.line == 2
    page.fill("#pg-source", text)
    _wait_text(page, "#pg-result", str(caught.value))
    assert "pg-error" in page.get_attribute("#pg-result", "class")
    shown = page.text_content("#pg-result").splitlines()
    assert shown[0].startswith("line 2, column ")
    assert shown[2].index("^") == shown[1].index("card.rnk") + len("card.")
    assert page.is_disabled("#pg-science")
    page.fill("#pg-source", COLOURS)
    _wait_text(page, "#pg-result", COLOURS)


def test_the_allowed_cards_after_a_main_line_and_explain(page: Any) -> None:
    _mode(page, "rule")
    rule = "card.rank > prev.rank"
    page.fill("#pg-source", rule)
    page.fill("#pg-line", "2S 9H")
    allowed = compile_rule(rule).allowed(parse_cards("2S 9H"))
    _wait_text(page, "#pg-allowed", f"Allowed next ({len(allowed)}): " + " ".join(str(c) for c in allowed))
    lit = page.eval_on_selector_all("#pg-deck .pg-yes", "bs => bs.map(b => b.dataset.card)")
    assert sorted(lit) == sorted(str(c) for c in allowed)
    page.click('#pg-deck button[data-card="4D"]')
    explanation = compile_rule(rule).explain(parse_cards("2S 9H"), parse_card("4D"))
    _wait_text(page, "#pg-explain", f"4D is wrong: {explanation}")
    page.fill("#pg-line", "2S 9H 4D")
    _wait_text(page, "#pg-line-warning", json.loads(playground.next_cards(rule, "2S 9H 4D"))["warning"])
    page.fill("#pg-line", "2S 9X")
    _wait_text(page, "#pg-allowed", json.loads(playground.next_cards(rule, "2S 9X"))["error"])


def test_a_science_round_runs_turn_by_turn_to_its_end(page: Any) -> None:
    _mode(page, "rule")
    page.fill("#pg-source", COLOURS)
    _wait_text(page, "#pg-result", COLOURS)
    page.fill("#pg-seed", "3")
    page.fill("#pg-turns", "20")
    page.wait_for_selector("#pg-science:not([disabled])", timeout=ANSWER_MS)
    page.click("#pg-science")
    page.wait_for_selector(".pg-science-result.pg-done", timeout=90_000)
    result = page.text_content("#pg-science-result")
    turns = page.eval_on_selector_all("#pg-turns-list li.pg-turn", "ls => ls.map(l => l.textContent)")
    guesses = page.eval_on_selector_all("#pg-turns-list li.pg-guess", "ls => ls.map(l => l.textContent)")
    wrong = page.eval_on_selector_all("#pg-turns-list li.pg-refuted", "ls => ls.length")
    assert page.text_content("#pg-turns-list li.pg-start").startswith("Starter ")
    assert [t.split(":")[0] for t in turns] == [f"Turn {n}" for n in range(1, len(turns) + 1)]
    # The time bound on a decision may bind in the browser, so the round need not be
    # the one CPython plays with this seed; it is whole and consistent all the same.
    if result.startswith("Solved at turn "):
        assert result.startswith(
            f"Solved at turn {len(turns)} with {wrong} wrong guesses: score {max(0, 20 - len(turns) - 2 * wrong)}."
        )
        assert len(guesses) == wrong + 1 and result.endswith(f"The guess: {COLOURS}")
    else:
        assert result == f"Not solved in 20 turns ({wrong} wrong guesses): score 0.", result
    assert not page.is_disabled("#pg-science") and page.is_disabled("#pg-stop")


def test_a_trick_table_and_the_winner_of_a_trick(page: Any) -> None:
    _mode(page, "tables")
    page.fill("#pg-source", TABLES)
    _wait_text(page, "#pg-result", "table high: classes led, off")
    page.fill("#pg-key", "")
    page.fill("#pg-trick", "5C AD 9C")
    _wait_text(page, "#pg-winner", "9C wins (card 3). Classes: 5C led, AD off, 9C led.")
    text = TABLES.replace("==", "=")
    with pytest.raises(TableError) as caught:
        compile_tables(text)
    page.fill("#pg-source", text)
    _wait_text(page, "#pg-result", str(caught.value))
    _mode(page, "rule")
    _wait_text(page, "#pg-result", COLOURS)


def test_stop_ends_a_round_and_python_is_loaded_again(page: Any) -> None:
    _mode(page, "rule")
    page.fill("#pg-source", "(card.rank + prev.rank) % 3 == 1")
    _wait_text(page, "#pg-result", "(card.rank + prev.rank) % 3 == 1")
    page.wait_for_selector("#pg-science:not([disabled])", timeout=ANSWER_MS)
    page.click("#pg-science")
    page.wait_for_selector("#pg-turns-list li.pg-start", timeout=ANSWER_MS)
    page.click("#pg-stop")
    _wait_text(page, "#pg-science-result", "Stopped.")
    page.wait_for_selector("#pg-status.pg-ready", timeout=LOAD_MS)
    page.fill("#pg-source", COLOURS)
    _wait_text(page, "#pg-result", COLOURS)


def test_without_the_bundle_the_page_says_what_it_needs(browser: Any, tmp_path: Path) -> None:
    served = _Served(_site(tmp_path, bundled=False))
    context = browser.new_context()
    try:
        pg = context.new_page()
        pg.goto(served.url)
        pg.wait_for_selector("#pg-status.pg-missing", timeout=ANSWER_MS)
        text = pg.text_content("#pg-status-text")
        assert "needs the docs built with its bundle" in text, text
        assert "Running the playground from a build of the docs" in text
        assert pg.text_content("#pg-result") == "…"
    finally:
        context.close()
        served.close()
