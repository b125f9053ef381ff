"""``cardrules rule``: check Eleusis rule files and judge cards with them.

``cardrules rule check RULE...`` compiles each rule file (a bare expression, or named
rules) or rule text; on a fault it prints the located message and exits with status 1.  For each good
rule it prints one line: its name, its profile (:func:`cardrules.lang.analysis.profile`:
the history depth it uses, what it reads, its size) and the share of cards it accepts on
random main lines (:func:`cardrules.lang.tools.acceptance`), with a warning under 10% or
over 90% (published advice: such rules are too hard, or too easy, to find).

``cardrules rule judge RULE --line "5H 7C" CARD...`` says, for each card, whether it may
extend the main line, and why.  A file of several rules needs ``FILE:NAME`` or
``--name NAME``.

``cardrules rule diff A B`` compares two rules (how a god checks a scientist's guess):
it prints ``equivalent`` (exit status 0) or the shortest main line and card they judge
differently, with both rules' explanations (status 1); status 2 when a rule cannot be
read.  ``A`` and ``B`` are rule files, ``FILE:NAME`` (or ``--name-a``/``--name-b``) for
one rule of a file of several, or rule text.  It uses
:func:`cardrules.lang.analysis.equivalent`: exact for rules without aggregates that look
back at most 2 cards, else a bounded search (every main line of up to two cards, then
seeded random lines up to ``--max-length``), whose "equivalent" is followed by a
``note:`` saying it is not proven.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import warnings
from pathlib import Path
from typing import Any

from ..cards import Card, parse_card, parse_cards, standard_deck
from ..errors import CardRulesError
from ..lang.analysis import EquivalenceNotProven, equivalent, profile
from ..lang.ast import unparse
from ..lang.parser import parse_rule_text
from ..lang.rules import Rule, compile_registered, compile_registered_rules
from ._rulefiles import split_rule_arg

_COMMENT = re.compile(r"#[^\n]*")

#: Below / above these shares, ``check`` warns that a rule is too hard / too easy.
LOW, HIGH = 0.10, 0.90


EXAMPLES = {
    "rule": """\
examples:
  cardrules rule check rules/*.rule
  cardrules rule check 'card.rank > prev.rank'
  cardrules rule judge 'card.color != prev.color' --line "5H 7C" 9D 10S
  cardrules rule diff god.rule 'card is red'""",
    "check": """\
examples:
  cardrules rule check odd-black-even-red.rule     a file of one or more rules
  cardrules rule check 'card.rank > prev.rank'     rule text
  cardrules rule check --lines 500 a.rule b.rule""",
    "judge": """\
examples:
  cardrules rule judge 'card.color != prev.color' --line "5H 7C" 9D 10S
  cardrules rule judge rules.txt --name alternate --line "5H" 6S
  cardrules rule judge rules.txt:alternate 6S""",
    "diff": """\
examples:
  cardrules rule diff god.rule 'card is red'
  cardrules rule diff rules.txt:a rules.txt:b
  cardrules rule diff 'card.rank > 6' 'card.rank >= 7'""",
}

_RULE_ARG = "a rule file, FILE:NAME for one rule of a file of several, or rule text"


def _parser(sub: Any, name: str, **kwargs: Any) -> Any:
    return sub.add_parser(
        name, epilog=EXAMPLES[name], formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs
    )


def register(sub: Any) -> None:
    p = _parser(
        sub,
        "rule",
        help="check Eleusis rules and judge cards with them",
        description="Check Eleusis secret rules, judge cards with them, compare two rules.",
    )
    rsub = p.add_subparsers(dest="rule_command", metavar="ACTION")
    c = _parser(
        rsub,
        "check",
        help="compile rules; print each rule's depth, acceptance and profile",
        description="Compile each rule; print its history depth, the share of cards it accepts on "
        "random main lines and its profile; warn under 10% or over 90%.  Exit status 1 on a fault.",
    )
    c.add_argument("files", nargs="+", metavar="RULE", help=_RULE_ARG)
    c.add_argument(
        "--lines", type=int, default=2000, help="random main lines for the acceptance share (default 2000)"
    )
    c.set_defaults(func=run_check)
    j = _parser(
        rsub,
        "judge",
        help="judge cards after a main line",
        description="Say for each card whether it may extend the main line, and why.",
    )
    j.add_argument("file", metavar="RULE", help=_RULE_ARG)
    j.add_argument("cards", nargs="+", metavar="CARD", help="a card to judge, e.g. 9D")
    j.add_argument("--line", default="", help='the main line, starter first, e.g. "5H 7C" (default: empty)')
    j.add_argument("--name", default=None, help="the rule's name, in a file of several rules (or FILE:NAME)")
    j.set_defaults(func=run_judge)
    d = _parser(
        rsub,
        "diff",
        help="compare two rules: equivalent, or a card they judge differently",
        description="Compare two rules: print 'equivalent' (status 0) or the shortest main line and "
        "card they judge differently (status 1); status 2 when a rule cannot be read.",
    )
    d.add_argument("first", metavar="A", help=_RULE_ARG + " (the god's rule)")
    d.add_argument("second", metavar="B", help="the same for the other rule (a scientist's guess)")
    d.add_argument("--name-a", default=None, help="the rule's name in A, if A holds several (or FILE:NAME)")
    d.add_argument("--name-b", default=None, help="the rule's name in B, if B holds several (or FILE:NAME)")
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
    if not _COMMENT.sub("", text).strip():
        return {}
    parts = parse_rule_text(text)
    if parts and parts[0][0] is None:
        return {Path(path).stem: compile_registered(text, name=Path(path).stem)}
    return compile_registered_rules(text)


def _describe(rule: Rule, lines: int) -> tuple[str, float]:
    """One line for ``rule``: its profile (:func:`cardrules.lang.analysis.profile`), with
    what else it uses, and the share of cards it accepts; and that share."""
    p = profile(rule, lines=lines)
    uses = [f"looks back {p.depth}"]
    if p.uses_position:
        uses.append("uses position")
    if p.uses_line:
        uses.append("looks at the whole line")
    if rule.uses_has:
        uses.append("uses has()")
    if rule.start_tree is not None:
        uses.append("judges the starter")
    reads = ", ".join(a for a in ("rank", "suit", "color") if a in p.attributes) or "nothing"
    branches = "1 branch" if p.branches == 1 else f"{p.branches} branches"
    share = p.acceptance
    accepts = "never accepts" if share == 0 else "always accepts" if share == 1 else f"accepts {share:.0%}"
    return f"{', '.join(uses)}; reads {reads}; {branches}, size {p.size}; {accepts}", share


def run_check(args: argparse.Namespace) -> int:
    status = 0
    for path in args.files:
        try:
            file, name = split_rule_arg(path, None)
        except CardRulesError as exc:  # no such file
            print(f"cardrules: {exc}", file=sys.stderr)
            status = 1
            continue
        try:
            if file is None:
                rules = {"": compile_registered(path)}
            else:
                rules = load_rules(file)
                if name is not None:
                    rules = {name: _pick(file, rules, name, "FILE:NAME")}
        except CardRulesError as exc:  # SourceError included: located, with a caret
            where = path if file is not None else "rule"
            print(f"{where}: {exc}", file=sys.stderr)
            status = 1
            continue
        is_file = file is not None
        if not rules:
            print(f"{path}: no rule in this file", file=sys.stderr)
            status = 1
        for name, rule in rules.items():
            # rule text is named once: its line starts with the text itself
            label = f"{file}: {name}" if is_file else " ".join(path.split())
            summary, share = _describe(rule, args.lines)
            print(f"{label}: {summary}")
            if share == 0:
                print(f"{label}: warning: never accepts a card: unplayable")
            elif share < LOW:
                print(f"{label}: warning: accepts under {LOW:.0%} of cards: very hard to play")
            elif share == 1:
                print(f"{label}: warning: accepts every card: nothing to find")
            elif share > HIGH:
                print(f"{label}: warning: accepts over {HIGH:.0%} of cards: hard to tell from chance")
    return status


def run_judge(args: argparse.Namespace) -> int:
    rule = rule_arg(args.file, args.name, "--name")
    line = parse_cards(args.line)
    for token in args.cards:
        card = parse_card(token)
        verdict = "right" if rule.accepts(line, card) else "wrong"
        print(f"{card}: {verdict}: {rule.explain(line, card)}")
    return 0


def _pick(where: str, rules: dict[str, Rule], name: str | None, option: str) -> Rule:
    if name is not None:
        if name not in rules:
            names = ", ".join(map(repr, rules))
            raise CardRulesError(f"{where} has no rule {name!r}; it has {names}")
        return rules[name]
    if len(rules) == 1:
        return next(iter(rules.values()))
    if not rules:
        raise CardRulesError(f"{where} holds no rule")
    raise CardRulesError(
        f"{where} holds several rules; choose one with {option} or {where}:NAME ({', '.join(rules)})"
    )


def rule_arg(arg: str, name: str | None, option: str) -> Rule:
    """A rule from a file name, ``FILE:NAME``, or rule text given on the command line."""
    path, name = split_rule_arg(arg, name, option)
    if path is not None:
        return _pick(path, load_rules(path), name, option)
    if name is not None:
        raise CardRulesError(f"{option} picks a rule of a rule file, and {arg!r} is no file")
    return compile_registered(arg)


Difference = tuple[tuple[Card, ...], Card]


def _bounded_difference(a: Rule, b: Rule, *, samples: int = 2000, seed: int = 0) -> Difference | None:
    """The first main line and card ``a`` and ``b`` judge differently: every line of
    0, 1 and 2 cards in canonical order, then ``samples`` seeded random lines of 3 to 10
    cards per length; ``None`` if none is found (which proves nothing)."""
    deck = standard_deck()
    fa, fb = a.accepts, b.accepts
    lines: list[tuple[Card, ...]] = [()]
    lines += [(x,) for x in deck]
    lines += [(x, y) for x in deck for y in deck]
    for line in lines:
        for card in deck:
            if fa(line, card) is not fb(line, card):
                return line, card
    rng = random.Random(seed)
    for length in range(3, 11):
        for _ in range(samples // 8):
            line = tuple(rng.choice(deck) for _ in range(length))
            for card in deck:
                if fa(line, card) is not fb(line, card):
                    return line, card
    return None


def _line_text(line: tuple[Card, ...]) -> str:
    if not line:
        return "(empty)"
    if len(line) <= 8:
        return " ".join(map(str, line))
    head = " ".join(map(str, line[:2]))
    tail = " ".join(map(str, line[-3:]))
    return f"of {len(line)} cards ({head} ... {tail})"


def run_diff(args: argparse.Namespace) -> int:
    try:
        a = rule_arg(args.first, args.name_a, "--name-a")
        b = rule_arg(args.second, args.name_b, "--name-b")
    except CardRulesError as exc:
        print(f"cardrules: {exc}", file=sys.stderr)
        return 2
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
    print(f"different: main line {_line_text(line)}, card {card} (position {len(line) + 1})")
    print(f"  A says {'right' if a.accepts(line, card) else 'wrong'}: {a.explain(line, card)}")
    print(f"  B says {'right' if b.accepts(line, card) else 'wrong'}: {b.explain(line, card)}")
    for label, rule in (("A", a), ("B", b)):
        named = f' (rule "{rule.name}")' if rule.name else ""
        start = "; its start: part is not compared" if rule.start_tree is not None else ""
        print(f"  {label} is {unparse(rule.tree)}{named}{start}")
    return 1
