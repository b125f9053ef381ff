"""Expressions of the rule language compiled into plain functions of one play.

The rule finder (:mod:`cardrules.eleusis.induction`) judges thousands of small
expressions (``card is red``, ``card.rank > prev.rank``, ``count(x in line where x is
odd) % 2``) on thousands of plays.  :func:`compile_plays` compiles them from their text,
through the parser, the type checker and the code generator, all at once into one
generated module: each becomes a function ``f(l, c)`` of the main line ``l`` and the
judged card ``c``, with no depth rule (the caller evaluates it only where the line holds
at least :attr:`PlayFunction.depth` cards).  A word added to the vocabulary is then one
more expression to compile, with no code of the caller's.

>>> from cardrules import parse_card, parse_cards
>>> red, step = compile_plays(["card is red", "card.rank - prev.rank"], want=[True, False])
>>> red.fn((), parse_card("4D")), step.fn(parse_cards("2S 9C"), parse_card("JH")), step.depth
(True, 2, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..cards import Card
from .ast import Type
from .check import Env, Variable, check
from .codegen import CodeGen, exec_source
from .parser import parse_expression
from .rules import depth_of
from .vocabulary import STANDARD, Vocabulary

__all__ = ["PlayFunction", "compile_plays", "play_env"]


@attrs.frozen
class PlayFunction:
    """One compiled expression: ``fn(line, card)`` and the rule's depth (the largest
    ``N`` of a ``prevN`` it reads; it may be called only on lines of that many cards)."""

    text: str
    fn: Callable[[Sequence[Card], Card], Any] = attrs.field(eq=False, repr=False)
    depth: int


def play_env(vocabulary: Vocabulary = STANDARD) -> Env:
    """The variables of a play: ``card`` is ``c``, ``prevN`` is ``l[-N]`` (read without
    a test: the caller keeps to lines long enough), ``position`` is ``len(l) + 1``."""
    variables = {"card": Variable(Type.CARD, "c"), "position": Variable(Type.INT, "(len(l) + 1)")}
    for n in range(1, 10):
        variables["prev" if n == 1 else f"prev{n}"] = Variable(Type.CARD, f"l[-{n}]")
    return Env(variables, line="l", length="len(l)", vocabulary=vocabulary)


def compile_plays(
    texts: Sequence[str], *, want: Sequence[bool] | None = None, vocabulary: Vocabulary = STANDARD
) -> list[PlayFunction]:
    """Compile each expression of ``texts`` (booleans; where ``want[i]`` is false, an
    integer expression) in the words of ``vocabulary``, into one generated module.
    Raises :class:`~cardrules.lang.RuleSyntaxError` / :class:`~cardrules.lang.RuleTypeError`
    for a text that is not such an expression."""
    env = play_env(vocabulary)
    sources: list[str] = []
    namespace: dict[str, object] = {}
    depths: list[int] = []
    for i, text in enumerate(texts):
        boolean = want is None or want[i]
        tree = parse_expression(text)
        checked = check(tree, env, text, want=Type.BOOL if boolean else Type.INT)
        gen = CodeGen(checked, prefix=f"p{i}_")
        gen.hoist_common(tree)
        value = gen.cond(tree) if boolean else gen.expr(tree)
        body = [*gen.statements, f"return {value}"]
        sources.append(f"def _play{i}(l, c):\n" + "".join(f"    {line}\n" for line in body))
        namespace.update(gen.globals)
        depths.append(depth_of(tree))
    scope = exec_source("".join(sources), "plays", namespace) if sources else {}
    return [
        PlayFunction(t, scope[f"_play{i}"], d) for i, (t, d) in enumerate(zip(texts, depths, strict=True))
    ]
