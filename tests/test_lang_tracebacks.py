"""Generated code is readable in tracebacks: the rule code generator and the table
compiler register their source with linecache, one filename per compiled unit."""

from __future__ import annotations

import gc
import linecache
import traceback

import pytest

from cardrules import parse_card, parse_cards
from cardrules.eleusis import compile_rule
from cardrules.errors import InvalidCardError
from cardrules.lang.codegen import exec_source
from cardrules.lang.errors import SourceError
from cardrules.tricks import TableError, builtin, compile_tables


def _frames(exc: BaseException) -> list[traceback.FrameSummary]:
    return list(traceback.extract_tb(exc.__traceback__))


def test_a_traceback_through_a_rule_shows_the_generated_source() -> None:
    rule = compile_rule("card.color != prev.color and card.rank > 3")
    with pytest.raises(InvalidCardError) as info:
        rule.accepts([5], parse_card("2H"))
    generated = [f for f in _frames(info.value) if f.filename.startswith("<cardrules accepts")]
    assert generated, _frames(info.value)
    # The line shown is the line of the generated code that raised, as Python reads it.
    frame = generated[-1]
    assert frame.line == linecache.getline(frame.filename, frame.lineno).strip()
    assert "_not_cards" in (frame.line or "")
    text = "".join(traceback.format_exception(info.value))
    assert "_not_cards" in text
    assert linecache.getline(frame.filename, 1).startswith("def accepts(line, card):")
    assert "".join(linecache.getlines(frame.filename)) == rule.code


def test_a_traceback_through_a_trick_table_shows_the_generated_source() -> None:
    with pytest.raises(TableError) as info:
        builtin("aegis").winner([5, 6], key=parse_card("2S"))
    generated = [f for f in _frames(info.value) if f.filename.startswith("<cardrules trick table aegis #")]
    assert generated and "_bad" in (generated[-1].line or "")
    lines = linecache.getlines(generated[-1].filename)
    assert any(line.startswith("def winner(cards, *, key=None):") for line in lines)


def test_every_compiled_unit_has_its_own_filename() -> None:
    a = compile_rule("card.rank > 3 # a")
    b = compile_rule("card.rank > 3 # b")  # equal code, compiled twice
    files = {a.accepts.__code__.co_filename, b.accepts.__code__.co_filename}
    assert len(files) == 2
    t1 = compile_tables("table t:\n    class a when card.rank == 2\n    class b\n")["t"]
    t2 = compile_tables("table t:\n    class a when card.rank == 3\n    class b\n")["t"]
    f1, f2 = (t.winner.__code__.co_filename for t in (t1, t2))
    assert f1 != f2
    assert "card.rank == 2" in "".join(linecache.getlines(f1))
    assert "card.rank == 3" in "".join(linecache.getlines(f2))


def test_a_collected_unit_leaves_the_line_cache() -> None:
    # Compiling many rules (a server judging users' rules) must not grow the cache forever.
    scope = exec_source("def f(x):\n    return x + 1\n", "test unit", {}, keep_with="f")
    name = scope["f"].__code__.co_filename
    assert scope["f"](1) == 2 and linecache.getlines(name) == ["def f(x):\n", "    return x + 1\n"]
    del scope
    for _ in range(3):  # a free-threaded CPython may free it only a collection later
        gc.collect()
    # A collection can run inside linecache.checkcache, which fails on a key removed
    # while it reads them: the entry goes with the next compilation, not in the collection.
    assert name in linecache.cache
    linecache.checkcache()
    exec_source("def g(x):\n    return x\n", "test unit", {}, keep_with="g")
    assert name not in linecache.cache


def test_tables_still_judge_after_the_move() -> None:
    # The compiler moved into cardrules.lang.tables; the public API is unchanged.
    t = compile_tables("table high:\n    class led when card.suit == lead.suit\n    class off\n"
                       "    led beats off\n    otherwise by ranks standard\n")["high"]  # fmt: skip
    assert t.winner(parse_cards("5C AD 9C")) == 2
    assert type(t).__module__ == "cardrules.tricks" and type(TableError("x")).__module__ == "cardrules.tricks"


@pytest.mark.parametrize(("call", "text"), [
    (compile_rule, "card.rnk > 3"),
    (compile_rule, "card.rank > 3 and"),
    (compile_tables, "table x: nonsense"),
])
def test_a_typo_s_traceback_is_the_caller_s_line_and_the_message(call, text) -> None:
    # The message says what is wrong and where; the compiler's own frames add nothing.
    with pytest.raises(SourceError) as info:
        call(text)
    frames = _frames(info.value)
    assert len(frames) <= 3, [f"{f.filename}:{f.name}" for f in frames]
    assert not any(f.filename.endswith(("check.py", "parser.py", "rules.py", "tables.py")) for f in frames)
    shown = "".join(traceback.format_exception(info.value))
    assert len(shown.splitlines()) <= 12, shown
    assert "During handling" not in shown and "direct cause" not in shown
    assert text.splitlines()[0] in shown and "^" in shown  # the located message is all there
