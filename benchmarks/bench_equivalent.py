"""Benchmark of ``equivalent`` (the rule tools), measured in one run.

    PYTHONPATH=src python benchmarks/bench_equivalent.py [--quick]

1. Pairs of rules of depth <= 2 without aggregates (the exact search), from everyday
   rewrites to worst cases (whole cards compared in all three slots with a position
   modulus; answers hundreds of cards long): the best of a few runs each, and the
   answer.
2. Every pair of the example rules (``examples/rules``) that the exact search decides:
   total and slowest pair.
3. The reference, measured in the same run: a naive check that merely tries every
   main line of 0, 1 and 2 cards with every card through ``Rule.accepts`` (far from
   exact: it cannot see past 2 cards), for the first pair.

docs/performance/equivalent.rst records a run.
"""

from __future__ import annotations

import itertools
import platform
import sys
import time
import warnings
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from cardrules import standard_deck
from cardrules.lang import EquivalenceNotProven, Rule, compile_rule, equivalent
from cardrules.lang.analysis import DECK
from cardrules.lang.parser import parse_rule_text
from cardrules.lang.rules import compile_rules

PAIRS = [
    ("alternate colours, rewritten", "card.color != prev.color", "(card is red) == (prev is black)"),
    ("colours vs suits", "card.color != prev.color", "card.suit != prev.suit"),
    (
        "divisible by three, rewritten",
        "if prev.rank % 3 == 0 then card is face elif prev.rank % 3 == 1 then card is odd else card is even",
        "(prev.rank % 3 == 0 and card.rank > 10) or (prev.rank % 3 == 1 and card is odd)"
        " or (prev.rank % 3 == 2 and card is even)",
    ),
    (
        "even sum of three, mod 2 vs mod 4",
        "(card.rank + prev.rank + prev2.rank) % 2 == 0",
        "(card.rank + prev.rank + prev2.rank) % 4 in {0, 2}",
    ),
    (
        "sum decides colour, rewritten",
        "if prev.rank + prev2.rank > 13 then card is red else card is black",
        "(prev.rank + prev2.rank >= 14) == (card.color == red)",
    ),
    (
        "suit cycle vs an if-chain",
        "card.suit == next(prev.suit, [spades, hearts, diamonds, clubs])",
        "if prev is spades then card is hearts elif prev is hearts then card is diamonds "
        "elif prev is diamonds then card is clubs else card is spades",
    ),
    (
        "even places red, rewritten",
        "if position is even then card is red else card is black",
        "(position % 2 == 0) == (card.color == red)",
    ),
    (
        "digits of pi vs one more digit",
        "card.rank == [3, 1, 4, 1, 5, 9, 2, 6, 5, 3][position - 1]",
        "card.rank == [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5][position - 1]",
    ),
    ("whole cards, 3 slots", "card == prev or card == prev2", "prev2 == card or prev == card"),
    (
        "whole cards, 3 slots, position % 37",
        "card != prev and card != prev2 and card.rank + prev2.rank <= prev.rank + position % 37",
        "card != prev and card != prev2 and card.rank + prev2.rank <= prev.rank + position % 37 + 0",
    ),
    (
        "rank and suit in 3 slots, position % 37",
        "card.suit == prev.suit and card.suit == prev2.suit and card.rank + prev2.rank <= prev.rank + position % 37",
        "card.suit == prev2.suit and prev.suit == card.suit and card.rank + prev2.rank - prev.rank <= position % 37",
    ),
    ("answer 996 cards long", "position * position != 994009", "true"),
    (
        "threshold 100000",
        "position * card.rank > 99999",
        "position * card.rank > 99999 or position > 100000",
    ),
]


# A slow pair from benchmarks/fuzz_equivalent.py (rules of about 100 syntax nodes, far beyond any
# published rule).
MONSTER = (
    "if ((prev == prev2) or (card.suit in {hearts, clubs})) and (prev.rank != max(prev2.rank, 5)) "
    "then (if ((position // 3) % 5) // 5 >= min(position, 9) then card != prev2 "
    "else card.suit in {hearts, clubs}) or (not (card == prev)) "
    "else if 7 <= prev2.rank then (position in {2..6}) and (has(prev2)) "
    "else ((position * 2 - card.rank) // 5 == ([2, 7, 1][card.rank % 4]) + (min(position, 9))) "
    "or ([3, 1, 4, 1, 5][position - 1] > (max(prev2.rank, 5)) + (position % 4))"
)


def best_of(fn: Callable[[], object], runs: int) -> tuple[float, object]:
    best = float("inf")
    result: object = None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def describe(found: object) -> str:
    if found is None:
        return "equivalent"
    assert isinstance(found, tuple)
    line, card = found
    return f"differ: {len(line)} line cards, card {card}"


def naive(a: Rule, b: Rule) -> object:
    fa, fb = a.accepts, b.accepts
    lines: list[tuple[object, ...]] = [()]
    lines += [(c,) for c in DECK]
    lines += list(itertools.product(DECK, DECK))
    for line in lines:
        seq = list(line)
        for card in DECK:
            if fa(seq, card) != fb(seq, card):
                return line, card
    return None


def example_rules() -> list[Rule]:
    root = Path(__file__).resolve().parents[1] / "examples" / "rules"
    rules: list[Rule] = []
    for path in sorted(root.glob("*.rule")):
        text = path.read_text(encoding="utf-8")
        parts = parse_rule_text(text)
        if parts and parts[0][0] is None:
            rules.append(compile_rule(text, name=path.stem))
        else:
            rules.extend(compile_rules(text).values())
    return rules


def main() -> None:
    quick = "--quick" in sys.argv
    runs = 1 if quick else 3
    print(f"equivalent benchmark, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(f"CPython {platform.python_version()} on {platform.machine()}, {len(standard_deck())}-card deck\n")

    print(f"{'pair':<40} {'time':>10}  answer")
    worst = 0.0
    for label, x, y in PAIRS:
        a, b = compile_rule(x), compile_rule(y)
        seconds, found = best_of(lambda a=a, b=b: equivalent(a, b), runs)  # type: ignore[misc]
        worst = max(worst, seconds)
        print(f"{label:<40} {seconds * 1000:>7.1f} ms  {describe(found)}")
    print(f"{'slowest':<40} {worst * 1000:>7.1f} ms")
    a, b = compile_rule(MONSTER), compile_rule(f"({MONSTER}) or false")
    seconds, found = best_of(lambda: equivalent(a, b), 1)
    print(f"{'a fuzzed pair of 100-node rules':<40} {seconds * 1000:>7.1f} ms  {describe(found)}\n")

    rules = [r for r in example_rules() if r.depth <= 2 and "count(" not in str(r)]
    rules = [r for r in rules if not any(w in str(r) for w in ("any(", "all("))]
    pairs = list(itertools.combinations(rules, 2))
    total = slowest = 0.0
    slow_pair = ""
    same = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error", EquivalenceNotProven)
        for a, b in pairs:
            t = time.perf_counter()
            found = equivalent(a, b)
            dt = time.perf_counter() - t
            same += found is None
            total += dt
            if dt > slowest:
                slowest, slow_pair = dt, f"{a.name} / {b.name}"
    print(f"all {len(pairs)} pairs of the {len(rules)} exact example rules: total {total * 1000:.0f} ms, ")
    print(f"  slowest {slowest * 1000:.1f} ms ({slow_pair}); {same} pairs equivalent\n")

    a, b = compile_rule(PAIRS[0][1]), compile_rule(PAIRS[0][2])
    ref, _ = best_of(lambda: naive(a, b), 1)
    exact, _ = best_of(lambda: equivalent(a, b), runs)
    print("reference: every line of 0-2 cards x every card through accepts (not exact)")
    print(f"  {PAIRS[0][0]}: naive {ref * 1000:.0f} ms, equivalent (exact) {exact * 1000:.1f} ms")


if __name__ == "__main__":
    main()
