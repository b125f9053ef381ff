"""The Pygments lexers of the rule language and the trick-table language.

Every example rule, every shipped table and every rule or table block of the docs lexes
without an error token; a few tokens are checked by type; Pygments finds the lexers by
name through the entry points.
"""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

import pytest

pytest.importorskip("pygments", reason="the lexers need Pygments (the docs and test extras install it)")

from pygments import lex
from pygments.token import Error, Token

from cardrules.pygments_lexers import EleusisLexer, TrickTableLexer

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted((ROOT / "examples" / "rules").glob("*.rule"))
TABLE_FILES = sorted((ROOT / "src" / "cardrules" / "tables").glob("*.tricks"))
LEXERS = {alias: cls for cls in (EleusisLexer, TrickTableLexer) for alias in cls.aliases}


def tokens(text: str, lexer: type) -> list[tuple[object, str]]:
    return [(t, v) for t, v in lex(text, lexer()) if v.strip()]


def assert_clean(text: str, lexer: type, where: str) -> None:
    found = list(lex(text, lexer()))
    errors = [v for t, v in found if t in Error]
    assert not errors, f"{where}: error tokens {errors!r}"
    assert "".join(v for _, v in found).rstrip("\n") == text.rstrip("\n")


def doc_blocks() -> list[tuple[str, str, str]]:
    """(where, alias, text) of every code-block and literalinclude of the docs in one
    of the lexers' languages."""
    blocks = []
    directive = re.compile(r"^( *)\.\. (code-block|literalinclude):: *(\S+)\n")
    for path in sorted((ROOT / "docs").rglob("*.rst")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        for i, line in enumerate(lines):
            m = directive.match(line)
            if not m:
                continue
            indent, kind, arg = len(m.group(1)), m.group(2), m.group(3)
            body = []
            j = i + 1
            options = {}
            while j < len(lines) and re.match(rf"^ {{{indent + 1},}}:(\S+):(.*)$", lines[j]):
                key, value = re.match(r"^ *:(\S+):(.*)$", lines[j]).groups()  # type: ignore[union-attr]
                options[key] = value.strip()
                j += 1
            if kind == "literalinclude":
                alias = options.get("language", "")
                if alias in LEXERS:
                    text = (path.parent / arg).read_text(encoding="utf-8")
                    blocks.append((f"{path.name}:{i + 1}", alias, text))
                continue
            if arg not in LEXERS:
                continue
            while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
                body.append(lines[j])
                j += 1
            text = "".join(body)
            depth = min(len(b) - len(b.lstrip()) for b in body if b.strip())
            text = "".join(b[depth:] if b.strip() else "\n" for b in body).strip("\n") + "\n"
            blocks.append((f"{path.name}:{i + 1}", arg, text))
    return blocks


def test_there_is_something_to_lex() -> None:
    assert len(RULE_FILES) >= 30 and TABLE_FILES
    aliases = {alias for _, alias, _ in doc_blocks()}
    assert "eleusis" in aliases and "cardrules-tables" in aliases


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_every_example_rule_lexes_cleanly(path: Path) -> None:
    assert_clean(path.read_text(encoding="utf-8"), EleusisLexer, path.name)


@pytest.mark.parametrize("path", TABLE_FILES, ids=lambda p: p.name)
def test_every_shipped_table_lexes_cleanly(path: Path) -> None:
    assert_clean(path.read_text(encoding="utf-8"), TrickTableLexer, path.name)


def test_every_rule_and_table_block_of_the_docs_lexes_cleanly() -> None:
    for where, alias, text in doc_blocks():
        assert_clean(text, LEXERS[alias], where)


def test_rule_tokens_by_type() -> None:
    found = tokens(
        '# the reds\nrule "odd then black":\n  start: card is not face\n'
        "  play: if prev3.rank in {J..K, 2} then card is ♥ else count(x in last 4 where x is red) >= abs(-1)",
        EleusisLexer,
    )
    assert found[0] == (Token.Comment.Single, "# the reds")
    assert found[1:3] == [(Token.Keyword.Declaration, "rule"), (Token.Literal.String.Double, '"odd then black"')]
    expected = [
        (Token.Keyword.Declaration, "start"),
        (Token.Name.Builtin, "card"),
        (Token.Operator.Word, "is"),
        (Token.Operator.Word, "not"),
        (Token.Name.Property, "face"),
        (Token.Keyword.Declaration, "play"),
        (Token.Keyword, "if"),
        (Token.Name.Builtin, "prev3"),
        (Token.Name.Attribute, "rank"),
        (Token.Operator.Word, "in"),
        (Token.Name.Constant, "J"),
        (Token.Operator, ".."),
        (Token.Literal.Number.Integer, "2"),
        (Token.Name.Property, "♥"),
        (Token.Keyword, "count"),
        (Token.Name, "x"),
        (Token.Keyword, "last"),
        (Token.Keyword, "where"),
        (Token.Name.Property, "red"),
        (Token.Operator, ">="),
        (Token.Name.Function, "abs"),
    ]
    for token in expected:
        assert token in found, token
    # A constant outside `is` is a constant; after `is`, the same word is a property.
    assert (Token.Name.Constant, "red") in tokens("card.color == red", EleusisLexer)
    assert (Token.Name.Property, "red") in tokens("card is red", EleusisLexer)
    # Names that only start like a keyword or a name of the language are plain names.
    assert tokens("cards_x + isle + index2", EleusisLexer)[::2] == [
        (Token.Name, "cards_x"),
        (Token.Name, "isle"),
        (Token.Name, "index2"),
    ]


def test_table_tokens_by_type() -> None:
    found = tokens(
        "ranks cycle3:\n    group aces = A\n    aces beat faces\n"
        "table aegis:\n    class trump when card.suit == key.suit\n    class other\n"
        "    trump beats other\n    otherwise by ranks cycle3, suits elements, then later\n",
        TrickTableLexer,
    )
    for token in [
        (Token.Keyword.Declaration, "ranks"),
        (Token.Name.Class, "cycle3"),
        (Token.Keyword.Declaration, "group"),
        (Token.Name.Class, "aces"),
        (Token.Name.Constant, "A"),
        (Token.Keyword, "beat"),
        (Token.Keyword.Declaration, "table"),
        (Token.Name.Class, "aegis"),
        (Token.Keyword.Declaration, "class"),
        (Token.Name.Class, "trump"),
        (Token.Keyword, "when"),
        (Token.Name.Builtin, "key"),
        (Token.Name.Attribute, "suit"),
        (Token.Keyword, "beats"),
        (Token.Keyword, "otherwise"),
        (Token.Keyword, "by"),
        (Token.Name.Class, "elements"),
        (Token.Keyword, "then"),
        (Token.Keyword, "later"),
    ]:
        assert token in found, token


def test_pygments_finds_the_lexers_by_name_and_file_name() -> None:
    from pygments.lexers import find_lexer_class_by_name, find_lexer_class_for_filename

    points = {ep.name: ep.value for ep in metadata.entry_points(group="pygments.lexers")}
    if "eleusis" not in points:
        pytest.skip("cardrules is not installed (its entry points are not registered)")
    assert points["eleusis"] == "cardrules.pygments_lexers:EleusisLexer"
    for alias, cls in LEXERS.items():
        assert find_lexer_class_by_name(alias) is cls
    assert find_lexer_class_for_filename("secret.rule") is EleusisLexer
    assert find_lexer_class_for_filename("variant.tricks") is TrickTableLexer
