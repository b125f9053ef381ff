"""``cardrules rule``: check Eleusis rule files and judge cards with them.

``cardrules rule check FILE...`` compiles each file (a bare expression, or named
rules); on a fault it prints the located message and exits with status 1.  For each good
rule it prints its name, the history depth it uses and the share of cards it accepts on
random main lines (:func:`cardrules.lang.tools.acceptance`), with a warning under 10% or
over 90% (published advice: such rules are too hard, or too easy, to find).

``cardrules rule judge FILE --line "5H 7C" CARD...`` says, for each card, whether it may
extend the main line, and why.  A file of several rules needs ``--rule NAME``.

``check`` also prints each rule's profile (:func:`cardrules.lang.analysis.profile`).
``cardrules rule diff A B`` compares two rules, as a god checks a scientist's guess:
each of ``A``/``B`` is a rule file, ``FILE:NAME`` for one rule of a file of several, or
rule text.  It prints ``equivalent`` (exit status 0), or a main line and a card that
tells them apart with both rules' explanations (status 1); status 2 on a bad argument.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

from ..cards import Card, parse_card, parse_cards
from ..errors import CardRulesError
from ..lang.analysis import EquivalenceNotProven, equivalent, profile
from ..lang.ast import unparse
from ..lang.errors import SourceError
from ..lang.parser import parse_rule_text
from ..lang.rules import Rule, compile_rule, compile_rules
from ..lang.tools import acceptance

#: Below / above these shares, ``check`` warns that a rule is too hard / too easy.
LOW, HIGH = 0.10, 0.90


def register(sub: Any) -> None:
    p = sub.add_parser("rule", help="check Eleusis rule files and judge cards with them")
    rsub = p.add_subparsers(dest="rule_command", metavar="ACTION")
    c = rsub.add_parser("check", help="compile rule files; print each rule's depth and acceptance")
    c.add_argument("files", nargs="+", metavar="FILE")
    c.add_argument("--lines", type=int, default=2000, help="random main lines for the acceptance share")
    c.set_defaults(func=run_check)
    j = rsub.add_parser("judge", help="judge cards after a main line")
    j.add_argument("file", metavar="FILE")
    j.add_argument("cards", nargs="+", metavar="CARD")
    j.add_argument("--line", default="", help='the main line, starter first, e.g. "5H 7C"')
    j.add_argument("--rule", default=None, help="the rule's name, in a file of several rules")
    j.set_defaults(func=run_judge)
    d = rsub.add_parser("diff", help="compare two rules: 'equivalent', or a play that tells them apart")
    d.add_argument("a", metavar="A", help="a rule file, FILE:NAME, or rule text (the god's rule)")
    d.add_argument("b", metavar="B", help="the same for the other rule (a scientist's guess)")
    d.add_argument(
        "--max-length",
        type=int,
        default=10,
        help="longest main line sampled when the search cannot be exact (default 10)",
    )
    d.set_defaults(func=run_diff)
    p.set_defaults(func=lambda args: _usage(p))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def load_rules(path: str) -> dict[str, Rule]:
    """The rules of a file: named rules by name; a bare expression under the file's stem.
    Raises :class:`~cardrules.CardRulesError` (an unreadable file included)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CardRulesError(f"{path}: cannot read: {exc}") from None
    parts = parse_rule_text(text)
    if parts and parts[0][0] is None:
        return {Path(path).stem: compile_rule(text, name=Path(path).stem)}
    return compile_rules(text)


def _describe(rule: Rule, lines: int) -> tuple[str, float]:
    share = acceptance(rule, lines=lines)
    depth = f"looks back {rule.depth}" if rule.depth else "looks back 0"
    extras = []
    if rule.uses_has:
        extras.append("uses has()")
    if rule.start_tree is not None:
        extras.append("judges the starter")
    extra = f", {', '.join(extras)}" if extras else ""
    return f"{depth}{extra}, accepts {share:.0%}", share


def run_check(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            rules = load_rules(path)
        except SourceError as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            status = 1
            continue
        except CardRulesError as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            status = 1
            continue
        for name, rule in rules.items():
            summary, share = _describe(rule, args.lines)
            print(f"{path}: {name}: {summary}")
            print(f"{path}: {name}: profile: {profile(rule, lines=args.lines)}")
            if share < LOW:
                print(f"{path}: {name}: warning: accepts under {LOW:.0%} of cards: very hard to play")
            elif share > HIGH:
                print(f"{path}: {name}: warning: accepts over {HIGH:.0%} of cards: hard to tell from chance")
    return status


def run_judge(args: argparse.Namespace) -> int:
    rules = load_rules(args.file)
    if args.rule is not None:
        if args.rule not in rules:
            names = ", ".join(map(repr, rules))
            raise CardRulesError(f"{args.file} has no rule {args.rule!r}; it has {names}")
        rule = rules[args.rule]
    elif len(rules) == 1:
        rule = next(iter(rules.values()))
    else:
        raise CardRulesError(f"{args.file} holds several rules; choose one with --rule ({', '.join(rules)})")
    line = parse_cards(args.line)
    for token in args.cards:
        card = parse_card(token)
        verdict = "right" if rule.accepts(line, card) else "wrong"
        print(f"{card}: {verdict}: {rule.explain(line, card)}")
    return 0


def rule_argument(arg: str) -> Rule:
    """A rule named on the command line: a file holding one rule, ``FILE:NAME``, or rule
    text.  Raises :class:`~cardrules.CardRulesError`."""
    path = Path(arg)
    if path.is_file():
        rules = load_rules(arg)
        if len(rules) == 1:
            return next(iter(rules.values()))
        raise CardRulesError(f"{arg} holds several rules; choose one as {arg}:NAME ({', '.join(rules)})")
    head, sep, name = arg.rpartition(":")
    if sep and Path(head).is_file():
        rules = load_rules(head)
        if name not in rules:
            raise CardRulesError(f"{head} has no rule {name!r}; it has {', '.join(map(repr, rules))}")
        return rules[name]
    return compile_rule(arg)


def _line_text(line: tuple[Card, ...]) -> str:
    if not line:
        return "an empty main line"
    if len(line) <= 8:
        return f"the main line {' '.join(map(str, line))}"
    head = " ".join(map(str, line[:2]))
    tail = " ".join(map(str, line[-3:]))
    return f"a main line of {len(line)} cards ({head} ... {tail})"


def run_diff(args: argparse.Namespace) -> int:
    try:
        a, b = rule_argument(args.a), rule_argument(args.b)
    except CardRulesError as exc:
        print(f"cardrules: {exc}", file=sys.stderr)
        return 2
    for label, rule in (("A", a), ("B", b)):
        named = f' (rule "{rule.name}")' if rule.name else ""
        start = "; its start: part is not compared" if rule.start_tree is not None else ""
        print(f"{label}: {unparse(rule.tree)}{named}{start}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", EquivalenceNotProven)
        found = equivalent(a, b, max_length=args.max_length)
    if found is None:
        print("equivalent")
        for w in caught:
            if issubclass(w.category, EquivalenceNotProven):
                print(f"note: {w.message}")
        return 0
    line, card = found
    print(f"not equivalent: after {_line_text(line)}, the card {card} (position {len(line) + 1})")
    for label, rule in (("A", a), ("B", b)):
        verdict = "right" if rule.accepts(line, card) else "wrong"
        print(f"  {label} says {verdict}: {rule.explain(line, card)}")
    return 1
