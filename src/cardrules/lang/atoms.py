"""Position atoms: the largest parts of a rule that depend on the position (or on
``has``) and on no card.

On a line of 2 or more cards, a rule of depth at most 2 without aggregates judges by the
last two cards, the judged card and its atoms' values only, so the exact searches of
:mod:`cardrules.lang.analysis` and :mod:`cardrules.lang.inplay` evaluate the atoms once
per length (:func:`atom_evaluator`) and skip a length whose values were seen before.

>>> from cardrules.lang import compile_rule
>>> from cardrules.lang.ast import unparse
>>> atoms = position_atoms(compile_rule("position % 3 == 0 and card.rank > prev.rank or has(prev2)").tree)
>>> [unparse(a) for a in atoms]
['position % 3 == 0', 'has(prev2)']
>>> atom_evaluator(atoms)(4, 3)
(False, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from . import ast as A
from .ast import Type
from .check import Env, Variable, check
from .codegen import CodeGen, build_function
from .vocabulary import STANDARD, Vocabulary

__all__ = ["atom_env", "atom_evaluator", "largest_parts", "position_atoms", "substitute"]


def position_atoms(tree: A.Expr) -> list[A.Expr]:
    """The position atoms of ``tree``, left to right."""
    flags: dict[int, tuple[bool, bool]] = {}  # id -> (uses the position, uses a card)

    def scan(node: A.Expr | A.Range) -> tuple[bool, bool]:
        if isinstance(node, A.Call) and node.func == "has":
            result = (True, False)
        elif isinstance(node, A.Name):
            result = (node.name == "position", node.name != "position")
        else:
            pos = cards = False
            for kid in A.children(node):
                p, c = scan(kid)
                pos, cards = pos or p, cards or c
            result = (pos, cards)
        flags[id(node)] = result
        return result

    scan(tree)

    def choose(node: A.Expr | A.Range) -> bool | None:
        pos, cards = flags[id(node)]
        if not pos:
            return False
        return True if not cards else None

    return largest_parts(tree, choose)


def largest_parts(tree: A.Expr, choose: Callable[[A.Expr | A.Range], bool | None]) -> list[A.Expr]:
    """The largest sub-expressions of ``tree`` that ``choose`` takes, left to right:
    ``choose(node)`` says ``True`` (take it whole), ``False`` (leave it and everything
    in it) or ``None`` (look at its children)."""
    out: list[A.Expr] = []
    stack: list[A.Expr | A.Range] = [tree]
    while stack:
        node = stack.pop()
        verdict = choose(node)
        if verdict is None:
            stack.extend(reversed(A.children(node)))
        elif verdict and not isinstance(node, A.Range):  # a range is never a part
            out.append(node)
    return out


def atom_env(vocabulary: Vocabulary = STANDARD) -> Env:
    """The variables of an atom: ``position`` (the parameter ``_pos``), and the ``prevN``
    for ``has`` only (an atom reads no card; ``has`` reads the length ``_n``)."""
    variables = {"position": Variable(Type.INT, "_pos")}
    for n in range(1, 10):
        variables["prev" if n == 1 else f"prev{n}"] = Variable(Type.CARD, "None", True)
    return Env(variables, line="()", length="_n", vocabulary=vocabulary)


def atom_evaluator(
    atoms: Sequence[A.Expr], vocabulary: Vocabulary = STANDARD
) -> Callable[[int, int], tuple[object, ...]]:
    """One generated function of ``(position, length)`` returning every atom's value
    (``None`` for *nothing*)."""
    env = atom_env(vocabulary)
    statements: list[str] = []
    codes: list[str] = []
    namespace: dict[str, object] = {}
    for i, atom in enumerate(atoms):
        gen = CodeGen(check(atom, env, want=None), prefix=f"x{i}_")
        codes.append(gen.expr(atom))
        statements.extend(gen.statements)
        namespace.update(gen.globals)
    body = [*statements, f"return ({', '.join(codes)},)" if codes else "return ()"]
    fn, _ = build_function("atoms", ("_pos", "_n"), body, namespace)
    return fn


def substitute(node: A.Expr, names: dict[int, str]) -> A.Expr:
    """``node`` with each atom (by ``id``) replaced by a :class:`~cardrules.lang.ast.Name`."""
    if id(node) in names:
        return A.Name(names[id(node)])
    if isinstance(node, (A.Const, A.Name)):
        return node

    def r(n: A.Expr) -> A.Expr:
        return substitute(n, names)

    if isinstance(node, A.Attribute):
        return A.Attribute(r(node.obj), node.attr)
    if isinstance(node, A.Neg):
        return A.Neg(r(node.operand))
    if isinstance(node, A.Arith):
        return A.Arith(node.op, r(node.left), r(node.right))
    if isinstance(node, A.Compare):
        return A.Compare(node.op, r(node.left), r(node.right))
    if isinstance(node, A.Member):
        return A.Member(r(node.elem), node.items, node.negated)
    if isinstance(node, A.Is):
        return A.Is(r(node.subject), node.prop, node.negated)
    if isinstance(node, A.Not):
        return A.Not(r(node.operand))
    if isinstance(node, A.BoolOp):
        return A.BoolOp(node.op, tuple(r(o) for o in node.operands))
    if isinstance(node, A.If):
        return A.If(tuple((r(c), r(v)) for c, v in node.branches), r(node.orelse))
    if isinstance(node, A.Call):
        return A.Call(node.func, tuple(a if isinstance(a, A.ListLit) else r(a) for a in node.args))
    if isinstance(node, A.Index):
        return A.Index(node.items, r(node.index))
    raise TypeError(f"unexpected node {node!r}")  # pragma: no cover - aggregates are refused earlier
