"""``cardrules rule``: check Eleusis rule files and judge cards with them.

``cardrules rule check FILE...`` compiles each file (a bare expression, or named
rules); on a fault it prints the located message and exits with status 1.  For each good
rule it prints its name, the history depth it uses and the share of cards it accepts on
random main lines (:func:`cardrules.lang.tools.acceptance`), with a warning under 10% or
over 90% (published advice: such rules are too hard, or too easy, to find).

``cardrules rule judge FILE --line "5H 7C" CARD...`` says, for each card, whether it may
extend the main line, and why.  A file of several rules needs ``--rule NAME``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..cards import parse_card, parse_cards
from ..errors import CardRulesError
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
