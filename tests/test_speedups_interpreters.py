"""cardrules in sub-interpreters (CPython 3.12 and later).

A sub-interpreter with its own GIL refuses the abi3 C module (that build cannot declare
per-interpreter GIL support), so cardrules must fall back to its pure-Python twins there
and give the same games as the main interpreter (a build on one interpreter's full API,
as on free-threaded CPython, declares that support and loads there); a sub-interpreter
that shares the main GIL loads the C module.  Each case runs in a fresh Python process, so that a failure
cannot take a test worker down with it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cardrules
from cardrules import _hotloops

pytestmark = pytest.mark.skipif(
    sys.version_info < (3, 12), reason="per-interpreter GILs need CPython 3.12 or later"
)

#: Where the cardrules under test comes from (a source checkout or an installed one).
HOME = str(Path(cardrules.__file__).resolve().parent.parent)

#: The code a sub-interpreter runs: a seeded random game of every game, written as JSON
#: into a file (sub-interpreters share no objects with the main one).
PLAY = """
import json, random, sys
sys.path[:0] = {path!r}
import cardrules._hotloops as h
from cardrules import GAMES, to_json
out = {{"implementation": h.IMPLEMENTATION}}
for name in ("aegis", "eleusis", "gunsore", "haggis"):
    g = GAMES[name]
    state = g.new_game(seed="sub")
    rng = random.Random(7)
    moves = 0
    while not state.is_over and moves < 3000:
        legal = g.legal_actions(state)
        state = g.apply(state, legal[rng.randrange(len(legal))])
        moves += 1
    out[name] = to_json(state)
with open({target!r}, "w") as f:
    json.dump(out, f)
"""

RUNNER = """
import sys
try:
    import _interpreters as interpreters  # CPython 3.13
    make = lambda isolated: interpreters.create("isolated" if isolated else "legacy")
except ImportError:
    import _xxsubinterpreters as interpreters  # CPython 3.12
    make = lambda isolated: interpreters.create(isolated=isolated)
isolated = sys.argv[1] == "isolated"
interp = make(isolated)
failure = interpreters.run_string(interp, sys.argv[2])
interpreters.destroy(interp)
if failure is not None:
    raise SystemExit(f"the sub-interpreter failed: {failure}")
# CPython 3.12.1 aborts at the exit of a process whose isolated sub-interpreter imported
# lark ("free(): invalid pointer"; plain ``import lark`` does it, without cardrules;
# 3.13 does not): the work is done and written, so leave without the final cleanup.
import os
os._exit(0)
"""


def _play_in_subinterpreter(kind: str, tmp_path: Path) -> dict[str, str]:
    target = tmp_path / f"{kind}.json"
    code = PLAY.format(path=[HOME, *sys.path], target=str(target))
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, kind, code], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, str] = json.loads(target.read_text())
    return result


def _play_here(tmp_path: Path) -> dict[str, str]:
    """The same games played by the same code in this interpreter."""
    target = tmp_path / "here.json"
    exec(PLAY.format(path=[], target=str(target)), {})
    result: dict[str, str] = json.loads(target.read_text())
    del result["implementation"]
    return result


#: Whether the C module in use is the abi3 build (one wheel for every CPython), which
#: cannot declare support for interpreters with their own GIL; a build on the full API of
#: one interpreter (the free-threaded CPython's) declares it.
ABI3 = _hotloops.c_speedups is not None and _hotloops.c_speedups.__file__.endswith(".abi3.so")


def test_an_interpreter_with_its_own_gil_plays_the_same_games(tmp_path: Path) -> None:
    sub = _play_in_subinterpreter("isolated", tmp_path)
    # the abi3 module is refused there: cardrules falls back to pure Python
    assert sub.pop("implementation") == ("Python" if ABI3 or _hotloops.c_speedups is None else "C")
    assert sub == _play_here(tmp_path)


@pytest.mark.skipif(_hotloops.IMPLEMENTATION != "C", reason="cardrules._speedups is not in use")
def test_an_interpreter_sharing_the_gil_loads_the_c_module_and_plays_the_same_games(tmp_path: Path) -> None:
    sub = _play_in_subinterpreter("legacy", tmp_path)
    assert sub.pop("implementation") == "C"
    assert sub == _play_here(tmp_path)
