"""Judge a real Eleusis table: the program holds the secret rule, the people hold the cards.

    python examples/eleusis_table.py RULEFILE [--sudden-death 30]

Type, one per line:

    start 7H        the card turned as the starter (refused if the start: clause rejects it)
    5H              a card played (or a string: 5H 6C 7D)
    none 3H 5D 9C   a scientist says it has no right card, showing its hand
    layout          draw the table
    why 5H          (God only) why the rule accepts or rejects 5H now
    quit

The judge answers "right" or "wrong" (and what to draw, or "expelled" in sudden death),
keeps the main line and side lines, and counts the cards for sudden death.  This is the
program of the tutorial "Run an Eleusis table" (docs/games/eleusis-tutorial.rst).
"""

from __future__ import annotations

import argparse
import sys

from cardrules import CardRulesError, parse_card, parse_cards
from cardrules.cards import Card
from cardrules.eleusis import Rule, compile_rule, layout_text


class TableJudge:
    """The layout of a real table and the judgments of its secret rule."""

    def __init__(self, rule: Rule, starter: Card, sudden_death: int = 30) -> None:
        if not rule.accepts_start(starter):
            raise CardRulesError(f"{starter} cannot start: put it under the stock and turn the next card")
        self.rule = rule
        self.main: tuple[Card, ...] = (starter,)
        self.sides: tuple[tuple[int, tuple[Card, ...]], ...] = ()
        self.count = 0
        self.sudden_death = sudden_death

    def play(self, cards: tuple[Card, ...]) -> str:
        sudden = self.count >= self.sudden_death
        self.count += len(cards)
        if self.rule.accepts_string(self.main, cards):
            self.main += cards
            return "right"
        self.sides += ((len(self.main) - 1, cards),)
        return "wrong: expelled" if sudden else f"wrong: draw {2 * len(cards)}"

    def no_play(self, hand: tuple[Card, ...]) -> str:
        sudden = self.count >= self.sudden_death
        right = sorted((c for c in set(hand) if self.rule.accepts(self.main, c)), key=lambda c: c.index)
        if not right:
            return "right: shuffle your hand into the stock and take 4 cards fewer"
        self.main += (right[0],)
        self.count += 1
        return f"wrong: {right[0]} goes on the main line; " + ("expelled" if sudden else "draw 5")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rule", help="the rule file")
    parser.add_argument("--sudden-death", type=int, default=30)
    args = parser.parse_args(argv)
    try:
        with open(args.rule, encoding="utf-8") as f:
            rule = compile_rule(f.read())
    except (OSError, CardRulesError) as exc:
        print(f"cannot use {args.rule}: {exc}", file=sys.stderr)
        return 1
    judge: TableJudge | None = None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command, rest = words[0].lower(), " ".join(words[1:])
        try:
            if command == "quit":
                break
            if command == "start":
                judge = TableJudge(rule, parse_card(rest), args.sudden_death)
                print(f"starter {judge.main[0]}")
            elif judge is None:
                print("turn a starter first: start CARD")
            elif command == "layout":
                print(layout_text(judge))
            elif command == "why":
                print(rule.explain(judge.main, parse_card(rest)))
            elif command == "none":
                print(judge.no_play(parse_cards(rest)))
            else:
                print(judge.play(parse_cards(line)))
        except CardRulesError as exc:
            print(f"? {exc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
