"""The web table is an extra: the library never imports it, ``import cardrules`` needs no
web package, and ``cardrules serve`` without the extra says how to install it."""

from __future__ import annotations

import ast
import contextlib
import subprocess
import sys
from pathlib import Path

from cardrules.cli import main, serve_cmd

SRC = Path(__file__).resolve().parents[1] / "src" / "cardrules"
WEB_PACKAGES = ("starlette", "uvicorn", "websockets", "anyio", "httpx")


def test_import_cardrules_loads_no_web_package():
    code = (
        "import sys, cardrules, cardrules.agents, cardrules.search, cardrules.cli, cardrules.eleusis\n"
        "from cardrules.cli import build_parser; build_parser()\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {WEB_PACKAGES!r} or m.startswith('cardrules.web')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(SRC.parent)})  # fmt: skip
    assert out.stdout.strip() == "[]"


def test_only_the_serve_command_imports_the_web_package():
    importers = set()
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC.parent)
        if rel.parts[1] == "web":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and (
                node.module.startswith("cardrules.web") or (node.level and node.module.split(".")[0] == "web")
            ):
                importers.add(rel.as_posix())
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] in WEB_PACKAGES for a in node.names):
                importers.add(rel.as_posix())
    assert importers == {"cardrules/cli/serve_cmd.py"}


def test_serve_without_the_extra_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setattr(serve_cmd, "missing", lambda: ["starlette", "uvicorn"])
    assert main(["serve", "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert err == "cardrules: cardrules serve needs starlette, uvicorn, which are not installed: pip install 'cardrules[web]'\n"


def test_serve_is_a_command(capsys):
    with contextlib.suppress(SystemExit):
        main(["serve", "--help"])
    assert "--fast-commits" in capsys.readouterr().out
