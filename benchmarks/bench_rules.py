"""Benchmarks of the Eleusis rule language, measured side by side in one run.

    PYTHONPATH=src python benchmarks/bench_rules.py [--quick]

1. ``Rule.accepts`` against a hand-written Python predicate, for the ten example rules
   of the rule language's reference (the predicates apply the same missing-history rule);
2. compiling a typical rule (the parser cached, as in a running program);
3. ``Rule.allowed`` against 52 calls of ``accepts``;
4. aggregates against a hand-written loop, on main lines of 10 to 1000 cards;
5. sums, minima and maxima over windows, list order (``index``), successors without
   wrapping (``after``) and ``isqrt``, against hand-written predicates: on the random
   cases of part 1, and (whole-line windows) on main lines of 10 to 1000 cards;
6. a word of the program's own (``Vocabulary.with_property``) against a hand-written
   predicate that calls the same function, on the random cases of part 1.

Prints small tables; docs/performance/rules.rst records a run.
"""

from __future__ import annotations

import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone

from cardrules import Card, Color, Suit, standard_deck
from cardrules.lang import Vocabulary, compile_rule
from cardrules.lang.rules import _compile_rule  # compile_rule without its cache

DECK = standard_deck()
RED, BLACK = Color.RED, Color.BLACK
_NEXT_SUIT = {
    Suit.SPADES: Suit.HEARTS,
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
}
_PRIMES = {2, 3, 5, 7, 11, 13}


# -- hand-written predicates, as a programmer would write them ---------------------------


def alternate(line: Sequence[Card], card: Card) -> bool:
    if len(line) < 1:
        return True
    return card.color != line[-1].color


def suit_cycle(line: Sequence[Card], card: Card) -> bool:
    if len(line) < 1:
        return True
    return card.suit == _NEXT_SUIT[line[-1].suit]


def odd_black(line: Sequence[Card], card: Card) -> bool:
    if len(line) < 1:
        return True
    if line[-1].rank % 2 == 1:
        return card.color == BLACK
    return card.color == RED


def mod3(line: Sequence[Card], card: Card) -> bool:
    if len(line) < 1:
        return True
    r = line[-1].rank % 3
    if r == 0:
        return card.rank > 10
    if r == 1:
        return card.rank % 2 == 1
    return card.rank % 2 == 0


def suit_or_rank(line: Sequence[Card], card: Card) -> bool:
    if len(line) < 1:
        return True
    prev = line[-1]
    return card.suit == prev.suit or card.rank == prev.rank


def higher_same_colour(line: Sequence[Card], card: Card) -> bool:
    if len(line) < 1:
        return True
    prev = line[-1]
    if card.rank > prev.rank:
        return card.color == prev.color
    return card.color != prev.color


def position_parity(line: Sequence[Card], card: Card) -> bool:
    if (len(line) + 1) % 2 == 0:
        return card.color == RED
    return card.color == BLACK


def primes(line: Sequence[Card], card: Card) -> bool:
    return card.rank in _PRIMES


def within_two(line: Sequence[Card], card: Card) -> bool:
    if len(line) < 1:
        return True
    return abs(card.rank - line[-1].rank) <= 2


def sum_three(line: Sequence[Card], card: Card) -> bool:
    if len(line) < 2:
        return True
    return (card.rank + line[-1].rank + line[-2].rank) % 2 == 0


SPEC_RULES: list[tuple[str, Callable[[Sequence[Card], Card], bool]]] = [
    ("card.color != prev.color", alternate),
    ("card.suit == next(prev.suit, [spades, hearts, diamonds, clubs])", suit_cycle),
    ("if prev is odd then card is black else card is red", odd_black),
    (
        "if prev.rank % 3 == 0 then card is face elif prev.rank % 3 == 1 then card is odd else card is even",
        mod3,
    ),
    ("card.suit == prev.suit or card.rank == prev.rank", suit_or_rank),
    (
        "if card.rank > prev.rank then card.color == prev.color else card.color != prev.color",
        higher_same_colour,
    ),
    ("if position is even then card is red else card is black", position_parity),
    ("card.rank in {2, 3, 5, 7, 11, 13}", primes),
    ("abs(card.rank - prev.rank) <= 2", within_two),
    ("(card.rank + prev.rank + prev2.rank) % 2 == 0", sum_three),
]


def count_reds(line: Sequence[Card], card: Card) -> bool:
    n = 0
    for x in line:
        if x.color == RED:
            n += 1
    return card.rank % 2 == n % 2


def never_repeat(line: Sequence[Card], card: Card) -> bool:  # a loop on purpose: the baseline
    for x in line:  # noqa: SIM110
        if x.rank == card.rank:
            return False
    return True


def never_lower(line: Sequence[Card], card: Card) -> bool:  # a loop on purpose
    for x in line:  # noqa: SIM110
        if not card.rank >= x.rank:
            return False
    return True


AGGREGATES: list[tuple[str, Callable[[Sequence[Card], Card], bool]]] = [
    ("card.rank % 2 == count(x in line where x is red) % 2", count_reds),
    ("not any(x in line where x.rank == card.rank)", never_repeat),
    ("all(x in line where card.rank >= x.rank)", never_lower),
]


_SUIT_PLACE = {Suit.CLUBS: 1, Suit.DIAMONDS: 2, Suit.HEARTS: 3, Suit.SPADES: 4}


# The window references are explicit loops, the fastest Python (a generator expression
# given to sum/min/max is about twice as slow on lines of 10 cards).


def rank_sum(line: Sequence[Card], card: Card) -> bool:
    total = 0
    for x in line:
        total += x.rank
    return total + card.rank <= 42


def red_rank_sum(line: Sequence[Card], card: Card) -> bool:
    total = 0
    for x in line:
        if x.color is RED:
            total += x.rank
    return total % 2 == card.rank % 2


def above_last_three(line: Sequence[Card], card: Card) -> bool:
    if not line:
        return False  # the maximum of no cards is nothing: no comparison holds
    high = 0
    for x in line[-3:]:
        if x.rank > high:
            high = x.rank
    return high < card.rank


def at_least_the_lowest(line: Sequence[Card], card: Card) -> bool:
    if not line:
        return False
    low = 99
    for x in line:
        if x.rank < low:
            low = x.rank
    return card.rank >= low


def higher_suit(line: Sequence[Card], card: Card) -> bool:
    if len(line) < 1:
        return True
    return _SUIT_PLACE[card.suit] > _SUIT_PLACE[line[-1].suit]


def one_rank_up(line: Sequence[Card], card: Card) -> bool:
    if len(line) < 1:
        return True
    r = line[-1].rank
    return r != 13 and card.rank == r + 1


def triangular_red(line: Sequence[Card], card: Card) -> bool:
    n = 8 * (len(line) + 1) + 1
    r = math.isqrt(n)
    return (card.color is RED) == (r * r == n)


SUMS: list[tuple[str, Callable[[Sequence[Card], Card], bool]]] = [
    ("sum(x.rank for x in line) + card.rank <= 42", rank_sum),
    ("sum(x.rank for x in line where x is red) % 2 == card.rank % 2", red_rank_sum),
    ("max(x.rank for x in last 3) < card.rank", above_last_three),
    ("card.rank >= min(x.rank for x in line)", at_least_the_lowest),
    (
        "index(card.suit, [clubs, diamonds, hearts, spades]) > "
        "index(prev.suit, [clubs, diamonds, hearts, spades])",
        higher_suit,
    ),
    ("card.rank == after(prev.rank, [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K])", one_rank_up),
    (
        "(card is red) == (isqrt(8 * position + 1) * isqrt(8 * position + 1) == 8 * position + 1)",
        triangular_red,
    ),
]


def is_prime(card: Card) -> bool:
    return card.rank in _PRIMES


def own_prime(line: Sequence[Card], card: Card) -> bool:
    return is_prime(card)


def own_prime_after_prime(line: Sequence[Card], card: Card) -> bool:
    if len(line) < 1:
        return True
    if is_prime(line[-1]):
        return is_prime(card)
    return card.color == RED


OWN_WORDS = Vocabulary.standard().with_property("prime", is_prime, explain="a prime rank", reads={"rank"})
OWN: list[tuple[str, Callable[[Sequence[Card], Card], bool]]] = [
    ("card is prime", own_prime),
    ("if prev is prime then card is prime else card is red", own_prime_after_prime),
]


# -- timing ----------------------------------------------------------------------------


def best_of(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def per_call(
    pred: Callable[[Sequence[Card], Card], bool], cases: list[tuple[Sequence[Card], Card]], repeat: int
) -> float:
    def run() -> None:
        for line, card in cases:
            pred(line, card)

    return best_of(run, repeat) / len(cases) * 1e9


def main() -> None:
    quick = "--quick" in sys.argv
    repeat = 5 if quick else 15
    rng = random.Random(1)
    cases: list[tuple[Sequence[Card], Card]] = []
    for _ in range(2000):
        n = rng.randint(0, 10)
        cases.append((tuple(rng.choice(DECK) for _ in range(n)), rng.choice(DECK)))

    print(f"cardrules rule benchmarks, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(f"CPython {platform.python_version()} on {platform.machine()}, {platform.system()}")
    print()
    print("1. accepts vs a hand-written predicate (ns per call, 2000 random cases, best of runs)")
    print(f"   {'rule':<60} {'compiled':>9} {'by hand':>9} {'ratio':>6}")
    ratios = []
    for text, hand in SPEC_RULES:
        rule = compile_rule(text)
        for line, card in cases:
            assert rule.accepts(line, card) is hand(line, card), (text, line, card)
        # interleave the two measurements so load changes hit both alike
        t_rule = min(per_call(rule.accepts, cases, 1) for _ in range(repeat))
        t_hand = min(per_call(hand, cases, 1) for _ in range(repeat))
        ratios.append(t_rule / t_hand)
        print(f"   {text[:60]:<60} {t_rule:9.0f} {t_hand:9.0f} {t_rule / t_hand:6.2f}")
    print(f"   median ratio compiled/by hand: {statistics.median(ratios):.2f}")
    print()

    print(
        "2. compiling a rule (parser loaded once, compile_rule's cache bypassed; microseconds, best of runs)"
    )
    for text in (SPEC_RULES[3][0], SPEC_RULES[0][0], AGGREGATES[0][0]):
        _compile_rule(text, None)
        t = best_of(lambda text=text: [_compile_rule(text, None) for _ in range(20)], repeat) / 20  # type: ignore[misc]
        print(f"   {t * 1e6:7.0f} us  {text[:70]}")
    print()

    print("3. allowed(line) vs 52 accepts (microseconds per call)")
    line = cases[5][0] or (DECK[0],)
    for text, _ in SPEC_RULES[:3]:
        rule = compile_rule(text)
        t_allowed = best_of(lambda rule=rule: [rule.allowed(line) for _ in range(200)], repeat) / 200  # type: ignore[misc]
        t_52 = (
            best_of(lambda rule=rule: [[rule.accepts(line, c) for c in DECK] for _ in range(200)], repeat)
            / 200
        )  # type: ignore[misc]
        print(f"   {t_allowed * 1e6:6.1f} vs {t_52 * 1e6:6.1f}  {text[:60]}")
    print()

    print("4. aggregates vs a hand-written loop (microseconds per call)")
    print(f"   {'rule':<55} {'cards':>6} {'compiled':>9} {'by hand':>9} {'ratio':>6}")
    agg_ratios = []
    for text, hand in AGGREGATES:
        rule = compile_rule(text)
        for length in (10, 100, 1000):
            lines = [tuple(rng.choice(DECK) for _ in range(length)) for _ in range(20)]
            card = DECK[51]  # KC: never-repeat and never-lower scan the whole line
            agg_cases = [(ln, card) for ln in lines]
            for ln, c in agg_cases:
                assert rule.accepts(ln, c) is hand(ln, c)
            t_rule = min(per_call(rule.accepts, agg_cases, 1) for _ in range(repeat)) / 1000
            t_hand = min(per_call(hand, agg_cases, 1) for _ in range(repeat)) / 1000
            agg_ratios.append(t_rule / t_hand)
            print(f"   {text[:55]:<55} {length:6d} {t_rule:9.2f} {t_hand:9.2f} {t_rule / t_hand:6.2f}")
    print(f"   largest ratio: {max(agg_ratios):.2f}")
    print()

    print("5. sums, min/max over windows, index, after, isqrt vs a hand-written predicate")
    print("   (ns per call on the 2000 random cases of part 1)")
    print(f"   {'rule':<60} {'compiled':>9} {'by hand':>9} {'ratio':>6}")
    new_ratios = []
    for text, hand in SUMS:
        rule = compile_rule(text)
        for line, card in cases:
            assert rule.accepts(line, card) is hand(line, card), (text, line, card)
        t_rule = min(per_call(rule.accepts, cases, 1) for _ in range(repeat))
        t_hand = min(per_call(hand, cases, 1) for _ in range(repeat))
        new_ratios.append(t_rule / t_hand)
        print(f"   {text[:60]:<60} {t_rule:9.0f} {t_hand:9.0f} {t_rule / t_hand:6.2f}")
    print("   whole-line windows on long lines (microseconds per call)")
    print(f"   {'rule':<55} {'cards':>6} {'compiled':>9} {'by hand':>9} {'ratio':>6}")
    for text, hand in SUMS[:4]:
        rule = compile_rule(text)
        for length in (10, 100, 1000):
            lines = [tuple(rng.choice(DECK) for _ in range(length)) for _ in range(20)]
            agg_cases = [(ln, DECK[51]) for ln in lines]
            for ln, c in agg_cases:
                assert rule.accepts(ln, c) is hand(ln, c)
            t_rule = min(per_call(rule.accepts, agg_cases, 1) for _ in range(repeat)) / 1000
            t_hand = min(per_call(hand, agg_cases, 1) for _ in range(repeat)) / 1000
            new_ratios.append(t_rule / t_hand)
            print(f"   {text[:55]:<55} {length:6d} {t_rule:9.2f} {t_hand:9.2f} {t_rule / t_hand:6.2f}")
    print(f"   largest ratio: {max(new_ratios):.2f}")
    print()

    print("6. a word of the program's own vs a hand-written predicate calling the same function")
    print(f"   {'rule':<60} {'compiled':>9} {'by hand':>9} {'ratio':>6}")
    for text, hand in OWN:
        rule = compile_rule(text, vocabulary=OWN_WORDS)
        for line, card in cases:
            assert rule.accepts(line, card) is hand(line, card), (text, line, card)
        t_rule = min(per_call(rule.accepts, cases, 1) for _ in range(repeat))
        t_hand = min(per_call(hand, cases, 1) for _ in range(repeat))
        print(f"   {text[:60]:<60} {t_rule:9.0f} {t_hand:9.0f} {t_rule / t_hand:6.2f}")


if __name__ == "__main__":
    main()
