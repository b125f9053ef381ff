"""Fuzz the exact ``equivalent`` against random probes, and time it on big random rules.

    PYTHONPATH=src python benchmarks/fuzz_equivalent.py [SEED] [SECONDS]

Random pairs of rules of depth <= 2 without aggregates (30 to 150 syntax nodes: far
bigger than published rules), either unrelated or one rewritten from the other (same
meaning, or one comparison loosened).  For each pair:

* ``equivalent`` said ``None``: 3,000 random plays (lines of 0 to 60 cards) must all
  agree (``MISSED`` otherwise);
* it gave a counterexample: the two rules must disagree on it (``FAKE``), and 2,000
  random plays on shorter lines must all agree (``NOTMIN``).

Prints the pairs that took over a second (``SLOW``), the failures, and a summary.
docs/performance/equivalent.rst records a run.
"""

from __future__ import annotations

import random
import sys
import time
import warnings

from cardrules import Card, standard_deck
from cardrules.errors import CardRulesError
from cardrules.lang import EquivalenceNotProven, Rule, compile_rule, equivalent

DECK = standard_deck()
INTS = [
    "card.rank", "prev.rank", "prev2.rank", "position", "3", "7", "13", "position % 4",
    "(position // 3) % 5", "abs(card.rank - prev.rank)", "min(position, 9)", "max(prev2.rank, 5)",
    "[3, 1, 4, 1, 5][position - 1]", "[2, 7, 1][card.rank % 4]", "position * 2 - card.rank",
]  # fmt: skip
BOOLS = [
    "card is red", "prev is odd", "prev2 is face", "card == prev", "card != prev2", "prev == prev2",
    "card.suit == next(prev.suit, [spades, hearts, diamonds, clubs])", "position is even", "has(prev2)",
    "card.color == prev2.color", "card is number", "position in {2..6}", "card.suit in {hearts, clubs}",
]  # fmt: skip


def integer(rng: random.Random, depth: int) -> str:
    if depth <= 0 or rng.random() < 0.4:
        return rng.choice(INTS)
    op = rng.choice(["+", "-", "*", "%", "//"])
    if op in ("%", "//"):
        return f"({integer(rng, depth - 1)}) {op} {rng.choice([2, 3, 4, 5, 7])}"
    return f"({integer(rng, depth - 1)}) {op} ({integer(rng, depth - 1)})"


def boolean(rng: random.Random, depth: int) -> str:
    if depth <= 0 or rng.random() < 0.3:
        if rng.random() < 0.5:
            return rng.choice(BOOLS)
        op = rng.choice(["<", "<=", "==", "!=", ">", ">="])
        return f"{integer(rng, 1)} {op} {integer(rng, 1)}"
    k = rng.random()
    if k < 0.3:
        return f"({boolean(rng, depth - 1)}) and ({boolean(rng, depth - 1)})"
    if k < 0.6:
        return f"({boolean(rng, depth - 1)}) or ({boolean(rng, depth - 1)})"
    if k < 0.75:
        return f"not ({boolean(rng, depth - 1)})"
    return f"if {boolean(rng, depth - 1)} then {boolean(rng, depth - 1)} else {boolean(rng, depth - 1)}"


def rewrite(rng: random.Random, text: str) -> str:
    return rng.choice(
        [f"not not ({text})", f"({text}) or false", f"({text}) and true", text.replace("<=", "<", 1)]
    )


def differs(a: Rule, b: Rule, line: list[Card], card: Card) -> bool:
    return a.accepts(line, card) != b.accepts(line, card)


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    budget = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    rng = random.Random(seed)
    warnings.simplefilter("error", EquivalenceNotProven)
    end = time.time() + budget
    pairs = bad = 0
    times: list[float] = []
    while time.time() < end:
        x = boolean(rng, 3)
        y = rewrite(rng, x) if rng.random() < 0.6 else boolean(rng, 3)
        try:
            a, b = compile_rule(x), compile_rule(y)
        except CardRulesError:
            continue
        if a.depth > 2 or b.depth > 2:
            continue
        t = time.perf_counter()
        found = equivalent(a, b)
        times.append(time.perf_counter() - t)
        pairs += 1
        if times[-1] > 1.0:
            print(f"SLOW {times[-1]:.2f} s: {x} | {y}", flush=True)
        if found is None:
            for _ in range(3000):
                n = rng.choice([0, 1, 2, 3, 4, 5, rng.randint(0, 60)])
                line, card = [rng.choice(DECK) for _ in range(n)], rng.choice(DECK)
                if differs(a, b, line, card):
                    bad += 1
                    print(f"MISSED: {x} | {y}", flush=True)
                    break
            continue
        line, card = list(found[0]), found[1]
        if not differs(a, b, line, card):
            bad += 1
            print(f"FAKE: {x} | {y}", flush=True)
        for _ in range(2000 if line else 0):
            n = rng.randint(0, len(line) - 1)
            if differs(a, b, [rng.choice(DECK) for _ in range(n)], rng.choice(DECK)):
                bad += 1
                print(f"NOTMIN: {x} | {y}", flush=True)
                break
    times.sort()
    if times:
        median, worst = times[len(times) // 2], times[-1]
        over = sum(t > 2.0 for t in times)
        print(
            f"{pairs} pairs, {bad} failures; median {median * 1000:.1f} ms, worst {worst:.2f} s, {over} over 2 s"
        )


if __name__ == "__main__":
    main()
