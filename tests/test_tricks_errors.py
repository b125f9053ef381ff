"""Every fault in table text is a TableError at the right line and column."""

from __future__ import annotations

import textwrap

import pytest

from cardrules import CardRulesError
from cardrules.tricks import TableError, compile_tables

GOOD = """\
table t:
    class a when card.suit == lead.suit
    class b
    a beats b
    otherwise by ranks standard
"""


def fault(text: str) -> TableError:
    with pytest.raises(TableError) as info:
        compile_tables(textwrap.dedent(text))
    return info.value


# (text, line, column, words the message must contain)
CASES = [
    # syntax
    ("table t:\n    class a when\n", 2, 17, "unexpected end of text"),
    (
        "table t:\n    class a whem card.suit == lead.suit\n    class b\n",
        2,
        18,
        "unexpected 'card': expected 'beats'",
    ),
    ("table t:\n    class a\n    a beats\n", 3, 12, "unexpected end of text: expected a name"),
    # a condition cut short just before a relation: shown where the condition ends
    (
        "table t:\n    class a when card.suit == lead.suit and\n    class b\n    a beats b\n",
        3,
        5,
        "unexpected 'class'",
    ),
    (
        "table t:\n    class a when card.suit == lead.suit and\n    a beats b\n",
        2,
        44,
        "the condition ends with 'and' and nothing after it, so the next line ('a beats b')",
    ),
    (
        "table t:\n    class a when card.rank >=  # high\n\n    # cards\n    a beats b, c\n",
        2,
        30,
        "ends with '>='",
    ),
    ("table t:\n    class a\n    otherwise by ranks standard then sooner\n", 3, 38, "unexpected 'sooner'"),
    ("table t:\n    class a\n    a ! b\n", 3, 7, "unexpected character '!'"),
    ("ranks r: A > K >\n", 1, 17, "unexpected end of text"),
    ("table t:\n", 1, 9, "unexpected end of text: expected 'class'"),
    # unknown names
    (
        "table t:\n    class a when card.suit == lead.suit\n    class b\n    a beats c\n",
        4,
        13,
        "unknown class c (classes of table t: a, b)",
    ),
    (
        "table t:\n    class a when card.suit == lead.suit\n    class b\n    c beats a\n",
        4,
        5,
        "unknown class c",
    ),
    (
        "table t:\n    class a\n    otherwise by ranks nosuch\n",
        3,
        24,
        "unknown ranks order nosuch (known: standard, cycle3",
    ),
    ("table t:\n    class a\n    otherwise by suits standard\n", 3, 24, "standard is a rank order"),
    ("table t:\n    class a\n    otherwise by ranks elements\n", 3, 24, "elements is a suit order"),
    (
        "ranks r:\n    group x = A > K > Q > J > 10 > 9 > 8\n    group y = 7 > 6 > 5 > 4 > 3 > 2\n    x beat z\n",
        4,
        12,
        "unknown group z in ranks r (groups: x, y)",
    ),
    ("ranks r: A > K > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 1\n", 1, 59, "'1' is not a rank"),
    ("ranks r: A > K > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > T\n", 1, 59, "'T' is not a rank"),
    ("suits s: spades > clubs > hearts > moons\n", 1, 36, "moons is not a suit"),
    # ranks missing or repeated; groups
    ("ranks r: A > K > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3\n", 1, 1, "ranks r does not place 2"),
    (
        "ranks r: A > K > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 2 > K\n",
        1,
        63,
        "rank K appears twice in ranks r (first at line 1, column 14)",
    ),
    (
        "ranks r:\n    group x = A > K > Q > J > 10 > 9 > 8\n    group y = 7 > 6 > 5 > 4 > 3 > 2 > A\n    x beat y\n",
        3,
        39,
        "rank A appears twice",
    ),
    (
        "ranks r:\n    group x = A > K > Q > J\n    group y = 10 > 9 > 8 > 7\n    group z = 6 > 5 > 4 > 3 > 2\n"
        "    x beat y\n    y beat z\n",
        1,
        1,
        "groups x and z of ranks r have no relation",
    ),
    (
        "ranks r:\n    group x = A > K > Q > J > 10 > 9 > 8\n    group y = 7 > 6 > 5 > 4 > 3 > 2\n"
        "    x beat y\n    y beat x\n",
        5,
        5,
        "y beat x contradicts x beat y at line 4, column 5",
    ),
    (
        "ranks r:\n    group x = A > K > Q > J > 10 > 9 > 8\n    group y = 7 > 6 > 5 > 4 > 3 > 2\n"
        "    x beat y\n    x beat y\n",
        5,
        5,
        "stated twice",
    ),
    (
        "ranks r:\n    group x = A > K > Q > J > 10 > 9 > 8\n    group y = 7 > 6 > 5 > 4 > 3 > 2\n    x beat x\n",
        4,
        12,
        "group x cannot beat itself",
    ),
    (
        "ranks r:\n    group x = A > K > Q > J > 10 > 9 > 8\n    group x = 7 > 6 > 5 > 4 > 3 > 2\n",
        3,
        11,
        "group x is defined twice",
    ),
    # suits
    ("suits s: spades > clubs > hearts\n", 1, 1, "suits s does not place diamonds"),
    ("suits s: spades > clubs > hearts > diamonds > ♠\n", 1, 47, "spades appears twice in suits s"),
    # catch-all class
    (
        "table t:\n    class a when card.suit == lead.suit\n    class b when card.rank == 2\n",
        1,
        1,
        "table t has no catch-all class",
    ),
    ("table t:\n    class a\n    class b when card.rank == 2\n    class c\n", 2, 5, "class a has no 'when'"),
    # relations
    (
        "table t:\n    class a when card.suit == lead.suit\n    class b\n    a beats b\n    b beats a\n",
        5,
        13,
        "b beats a contradicts a beats b at line 4, column 13",
    ),
    (
        "table t:\n    class a when card.suit == lead.suit\n    class b\n    a beats b, a\n",
        4,
        16,
        "class a cannot beat itself",
    ),
    (
        "table t:\n    class a when card.suit == lead.suit\n    class b\n    a beats b\n    a beats b\n",
        5,
        13,
        "stated twice",
    ),
    ("table t:\n    class a when card.suit == lead.suit\n    class a\n", 3, 11, "class a is defined twice"),
    # definitions
    (
        "table t:\n    class a\ntable t:\n    class b\n",
        3,
        7,
        "table t is defined twice (first at line 1, column 7)",
    ),
    (
        "ranks standard: A > K > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 2\n"
        "ranks standard: A > K > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 2\n",
        2,
        7,
        "ranks standard is defined twice",
    ),
    # when: the shared checker, located where it points
    ("table t:\n    class a when card is purple\n    class b\n", 2, 26, "unknown property 'purple'"),
    (
        "table t:\n    class a when card.rank == spades\n    class b\n",
        2,
        28,
        "card.rank is an integer and spades is a suit",
    ),
    ("table t:\n    class a when prev is red\n    class b\n", 2, 18, "unknown name 'prev' in a trick table"),
    ("table t:\n    class a when position == 2\n    class b\n", 2, 18, "unknown name 'position'"),
    ("table t:\n    class a when card.rnak == 2\n    class b\n", 2, 23, "did you mean 'rank'"),
    (
        "table t:\n    class a when count(x in line where x is red) > 2\n    class b\n",
        2,
        18,
        "looks at the main line, which does not exist in a trick table",
    ),
    ("table t:\n    class a when has(prev2)\n    class b\n", 2, 18, "main line"),
    (
        "table t:\n    class a when card.rank\n    class b\n",
        2,
        18,
        "a 'when' condition must be true or false, but card.rank is an integer",
    ),
    ("table t:\n    class a when card.rank % 0 == 1\n    class b\n", 2, 30, "positive"),
    (
        "table t:\n    class a when card.suit = lead.suit\n    class b\n",
        2,
        28,
        "unexpected '=': use == to compare",
    ),
    ("table t:\n    class a when card.rank ==\n    class b\n", 3, 5, "unexpected 'class': expected a value"),
    (
        "table t:\n    class a when card.suit == lead.suit and\n    otherwise by ranks standard\n",
        3,
        5,
        "unexpected 'otherwise'",
    ),
    ("table t:\n    class a when card.rank in {5..2}\n    class b\n", 2, 33, "is empty"),
    # otherwise
    ("table t:\n    class a\n    otherwise\n", 3, 5, "'otherwise' needs"),
    (
        "table t:\n    class a\n    otherwise by ranks standard, ranks standard\n",
        3,
        40,
        "already in the tie-break chain",
    ),
]


@pytest.mark.parametrize("text, line, column, words", CASES)
def test_faults_are_located(text, line, column, words):
    exc = fault(text)
    assert isinstance(exc, CardRulesError)
    assert (exc.line, exc.column) == (line, column), str(exc)
    assert words in str(exc)


def test_the_message_shows_the_line_and_a_caret():
    exc = fault(GOOD.replace("a beats b", "a beats c"))
    lines = str(exc).splitlines()
    assert lines[0] == "line 4, column 13: unknown class c (classes of table t: a, b)"
    assert lines[1].strip() == "a beats c"
    assert lines[2].index("^") == lines[1].index("c", 8)


def test_good_text_compiles():
    assert list(compile_tables(GOOD)) == ["t"]
    assert compile_tables("") == {}
    assert compile_tables("# nothing but a comment\n") == {}


def test_not_text():
    with pytest.raises(TableError, match="must be a string"):
        compile_tables(b"table t: class a")  # type: ignore[arg-type]


def test_layout_is_free():
    one_line = "table t: class a when card.suit == lead.suit class b a beats b otherwise by ranks standard"
    assert compile_tables(one_line)["t"].relations == compile_tables(GOOD)["t"].relations


def test_table_errors_are_source_errors_and_pickle():
    import pickle

    from cardrules.lang import SourceError

    exc = fault(GOOD.replace("a beats b", "a beats c"))
    assert isinstance(exc, SourceError)
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is TableError and str(back) == str(exc) and (back.line, back.column) == (4, 13)


def test_errors_of_use_have_no_place():
    import pickle

    from cardrules import parse_cards
    from cardrules.tricks import builtin

    with pytest.raises(TableError) as info:
        builtin("aegis").winner(parse_cards("2H 3H"))
    exc = info.value
    assert (exc.line, exc.column) == (0, 0) and str(
        exc
    ) == "table aegis uses key: call it with key=<the key card>"
    back = pickle.loads(pickle.dumps(exc))
    assert str(back) == str(exc) and back.line == 0


def test_pathological_text_is_refused_at_once():
    deep = "table t:\n  class a when " + "(" * 60 + "true" + ")" * 60 + "\n  class b\n"
    exc = fault(deep)
    assert exc.line == 2 and "nested too deeply" in str(exc)
    exc = fault("# " + "x" * 200_000)
    assert "too long" in str(exc)
