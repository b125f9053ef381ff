"""``docs/cli.rst`` cannot go stale: every command and every option of the real
``--help`` is on the page, and every ``$ cardrules ...`` line of its console blocks (and
of Getting started's) is run, its output compared with the page's (``...`` stands for
any text: alone on a line, for any number of lines).

The commands run as the page says, from the directory of the source (the one that
holds ``pyproject.toml``), here a temporary one that has the source's ``examples``.
``$ printf 'TEXT' > FILE`` writes a file the next commands read, and
``$ printf 'TEXT' | cardrules ...`` types TEXT at the command.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from cardrules.cli import COMMANDS, build_parser, main, parsers

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "docs" / "cli.rst"


def console_blocks(path: Path) -> list[tuple[int, list[str]]]:
    """The console blocks of an rst page: (line number, lines without their indent)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        if lines[i].strip() != ".. code-block:: console":
            i += 1
            continue
        start = i + 1
        i += 1
        while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith(":")):
            i += 1
        body: list[str] = []
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith("   ")):
            body.append(lines[i][3:].rstrip())
            i += 1
        while body and not body[-1]:
            body.pop()
        blocks.append((start, body))
    return blocks


def examples(path: Path) -> list[tuple[str, str, str]]:
    """``(where, command, expected output)`` for each ``$`` line of the page's console
    blocks whose every command is ``cardrules`` or ``printf``."""
    found = []
    for start, body in console_blocks(path):
        commands: list[tuple[str, list[str]]] = []
        for line in body:
            if line.startswith("$ "):
                commands.append((line[2:], []))
            elif commands:
                commands[-1][1].append(line)
        if not commands or any(
            shlex.split(c, comments=True)[0] not in ("cardrules", "printf") for c, _ in commands
        ):
            continue
        for command, output in commands:
            while output and not output[-1]:
                output.pop()
            found.append((f"{path.name}:{start}", command, "\n".join(output)))
    return found


def matches(expected: str, actual: str) -> bool:
    parts = []
    for line in expected.splitlines():
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(map(re.escape, line.split("..."))) + r"\n")
    return re.fullmatch("".join(parts), actual) is not None


def run(command: str, cwd: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    argv = shlex.split(command, comments=True)
    stdin = ""
    if argv[0] == "printf":
        text = argv[1].encode().decode("unicode_escape")
        if argv[2] == ">":
            (cwd / argv[3]).write_text(text, encoding="utf-8")
            return ""
        assert argv[2] == "|", command
        stdin, argv = text, argv[3:]
    assert argv[0] == "cardrules", command
    if "--load" in argv:  # a game of one's own stays registered: run it in a process of its own
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        code = "import sys; from cardrules.cli import main; sys.exit(main(sys.argv[1:]))"
        done = subprocess.run([sys.executable, "-c", code, *argv[1:]], input=stdin, cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=120)  # fmt: skip
        return done.stdout + done.stderr
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), contextlib.suppress(SystemExit):
        main(argv[1:])  # SystemExit: --help, --version, a usage error
    return out.getvalue()


def _clean(text: str) -> str:
    # the pages show --version with the C loops; a machine without a compiler says so
    text = text.replace("(pure Python)", "(C loops)")
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return "".join(line + "\n" for line in lines)


@pytest.mark.parametrize("page", ["cli.rst", "getting-started.rst"])
def test_every_command_on_the_page_prints_what_the_page_shows(page, tmp_path, monkeypatch):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")  # --help as wide as the page
    found = examples(ROOT / "docs" / page)
    assert len(found) >= (18 if page == "cli.rst" else 2)
    for where, command, expected in found:
        actual = _clean(run(command, tmp_path, monkeypatch))
        assert matches(_clean(expected), actual), (
            f"{where}: $ {command}\n--- the page:\n{expected}\n--- the command:\n{actual}"
        )


def test_the_matcher_can_fail():
    assert matches("a\n...\nd\n", "a\nb\nc\nd\n") and matches("a ... d\n", "a b c d\n")
    assert not matches("a\nd\n", "a\nb\nd\n") and not matches("a ... d\n", "a b c\n")


def _sections() -> dict[str, str]:
    """The page's text under each ``cardrules COMMAND`` title."""
    text = CLI.read_text(encoding="utf-8")
    parts = re.split(r"^``cardrules (\w+)``\n-+\n", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_the_page_shows_every_command_and_every_option_of_its_help():
    text = CLI.read_text(encoding="utf-8")
    sections = _sections()
    assert sorted(sections) == sorted(COMMANDS)
    top = build_parser()
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:  # the command list: name and help
                assert f"``{choice.dest}``" in text and " ".join(choice.help.split()) in " ".join(
                    text.split()
                )
        elif action.help != argparse.SUPPRESS:
            assert all(
                f"``{o}" in text for o in action.option_strings if o.startswith("--") and o != "--help"
            )
    for parser in parsers(top):
        words = parser.prog.split()[1:]
        if not words:
            continue
        section = sections[words[0]]
        for action in parser._actions:
            if action.help == argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
                continue
            for option in action.option_strings:
                if option.startswith("--") and option != "--help":
                    assert f"``{option}" in section, (parser.prog, option)


def test_the_readme_s_commands_run(tmp_path, monkeypatch):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## The command line", 1)[1].split("\n## ", 1)[0]
    lines = [line.strip() for line in block.splitlines() if line.startswith("    cardrules ")]
    assert len(lines) >= 8
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    for line in lines:
        argv = shlex.split(line, comments=True)
        expanded = [arg for a in argv[1:] for arg in (sorted(map(str, Path().glob(a))) if "*" in a else [a])]
        monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            status = main(expanded)
        assert status == 0, (line, out.getvalue()[-2000:])
        assert "--games" not in argv or int(argv[argv.index("--games") + 1]) <= 20, line
        assert "strong" not in argv, line  # the search agent in many games takes minutes
