"""How fast a compiled trick table judges a trick, next to hand-written Python.

Run: ``PYTHONPATH=src python benchmarks/bench_tricks.py``.  Every implementation judges the
same 20,000 seeded random Aegis tricks (two cards, and five cards for the loop) in one
run; each is checked against the others first.  Prints ns per trick (best of 7 rounds,
the implementations interleaved so that load on a shared machine hits them alike).

- ``if-chain``: the Aegis rules as plain Python: classify both cards with an ``if`` chain,
  settle the classes with an ``if`` chain, then compare ranks in cycle3 (a lookup table).
  This is the yardstick: the compiled table is compared with it.
- ``specialised``: the fastest hand-written Aegis two-card judge we could write, which
  uses facts of Aegis a table does not know (the lead is always trump or leader).
- ``table.winner``: ``cardrules.tricks.builtin("aegis").winner``.
- ``table.beats`` and an interpreted design (classify to strings, a set of
  relations, a Python rank comparison), for context.
"""

from __future__ import annotations

import platform
import random
import sys
import time
from collections.abc import Callable, Sequence

from cardrules import Card
from cardrules.cards import standard_deck
from cardrules.tricks import builtin

DECK = standard_deck()
N = 20_000
ROUNDS = 7

# cycle3 as a lookup: CYCLE[a][b] is True iff rank a beats rank b.
_GROUP = [3, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1]  # ace 0, faces 1, numbers 2
CYCLE = [
    [(a > b) if _GROUP[a] == _GROUP[b] else (_GROUP[b] - _GROUP[a]) % 3 == 1 for b in range(14)]
    for a in range(14)
]


def if_chain_winner(cards: Sequence[Card], key: Card) -> int:
    """The Aegis rules as a plain if-chain, for any number of cards."""
    lead = cards[0]
    ks, kr, ls = key.suit, key.rank, lead.suit
    best = 0
    holder = lead
    for i in range(1, len(cards)):
        card = cards[i]
        # classes: 0 trump, 1 leader, 2 killer, 3 other
        s = card.suit
        c = 0 if s is ks else 1 if s is ls else 2 if card.rank == kr else 3
        s = holder.suit
        h = 0 if s is ks else 1 if s is ls else 2 if holder.rank == kr else 3
        if c == 0:
            wins = h in (1, 3) or (h == 0 and CYCLE[card.rank][holder.rank])
        elif c == 1:
            wins = h in (2, 3) or (h == 1 and CYCLE[card.rank][holder.rank])
        elif c == 2:
            wins = h == 0 or (h in (2, 3) and CYCLE[card.rank][holder.rank])
        else:
            wins = h in (2, 3) and CYCLE[card.rank][holder.rank]
        if wins:
            best = i
            holder = card
    return best


def specialised_winner(cards: Sequence[Card], key: Card) -> int:
    """Two-card Aegis, using that the lead is always trump or leader."""
    lead, card = cards
    ks = key.suit
    if lead.suit is ks:
        if card.suit is ks:
            return 1 if CYCLE[card.rank][lead.rank] else 0
        return 1 if card.rank == key.rank else 0
    if card.suit is ks:
        return 1
    if card.suit is lead.suit:
        return 1 if CYCLE[card.rank][lead.rank] else 0
    return 0


_REL = frozenset({("trump", "leader"), ("trump", "other"), ("killer", "trump"), ("leader", "killer"),
                  ("leader", "other")})  # fmt: skip


def _interp_class(card: Card, lead: Card, key: Card) -> str:
    if card.suit is key.suit:
        return "trump"
    if card.suit is lead.suit:
        return "leader"
    if card.rank == key.rank:
        return "killer"
    return "other"


def _interp_cycle(a: int, b: int) -> int:
    def group(r: int) -> int:
        return 0 if r == 1 else (1 if r >= 11 else 2)

    ga, gb = group(a), group(b)
    if ga == gb:
        return (a > b) - (a < b)
    return 1 if (gb - ga) % 3 == 1 else -1


def interpreted_winner(cards: Sequence[Card], key: Card) -> int:
    """An interpreted table: class names, a relation set, a rank function."""
    lead = cards[0]
    best = 0
    for i in range(1, len(cards)):
        a, b = _interp_class(cards[i], lead, key), _interp_class(cards[best], lead, key)
        if (a, b) in _REL or ((b, a) not in _REL and _interp_cycle(cards[i].rank, cards[best].rank) > 0):
            best = i
    return best


def main() -> None:
    rng = random.Random(2026)
    two = [(tuple(rng.sample(DECK, 2)), rng.choice(DECK)) for _ in range(N)]
    five = [(tuple(rng.sample(DECK, 5)), rng.choice(DECK)) for _ in range(N)]
    table = builtin("aegis")
    winner, beats = table.winner, table.beats
    for cards, key in two + five:
        want = if_chain_winner(cards, key)
        assert winner(cards, key=key) == want == interpreted_winner(cards, key), (cards, key)
        if len(cards) == 2:
            assert specialised_winner(cards, key) == want
            assert beats(cards[1], cards[0], lead=cards[0], key=key) == bool(want)

    def loop_of(
        fn: Callable[[Sequence[Card], Card], int], tricks: list[tuple[tuple[Card, ...], Card]]
    ) -> Callable[[], None]:
        def loop() -> None:
            for cards, key in tricks:
                fn(cards, key)

        return loop

    def table_loop(tricks: list[tuple[tuple[Card, ...], Card]]) -> Callable[[], None]:
        def loop() -> None:
            for cards, key in tricks:
                winner(cards, key=key)

        return loop

    def beats_loop() -> None:
        for (lead, card), key in two:
            beats(card, lead, lead=lead, key=key)

    def nothing() -> None:
        pass

    # Rows: name, 2-card loop, 5-card loop.  The rounds interleave the implementations
    # (best of ROUNDS each), so a burst of load on the shared machine hits them alike.
    rows: list[tuple[str, Callable[[], None], Callable[[], None]]] = [
        ("if-chain (hand-written)", loop_of(if_chain_winner, two), loop_of(if_chain_winner, five)),
        ("specialised (hand-written)", loop_of(specialised_winner, two), nothing),
        ("table.winner (compiled)", table_loop(two), table_loop(five)),
        ("table.beats (compiled)", beats_loop, nothing),
        (
            "interpreted",
            loop_of(interpreted_winner, two),
            loop_of(interpreted_winner, five),
        ),
    ]
    best = [[float("inf"), float("inf")] for _ in rows]
    for _ in range(ROUNDS):
        for r, (_, two_loop, five_loop) in enumerate(rows):
            for k, loop in enumerate((two_loop, five_loop)):
                if loop is nothing:
                    continue
                t0 = time.perf_counter()
                loop()
                best[r][k] = min(best[r][k], time.perf_counter() - t0)
    ns = [[t / N * 1e9 if t != float("inf") else float("nan") for t in b] for b in best]
    print(f"Aegis tricks, ns per trick, best of {ROUNDS} interleaved rounds of {N}; CPython {platform.python_version()} "
          f"on {platform.machine()}, {sys.platform}")  # fmt: skip
    print(f"{'implementation':32} {'2 cards':>8} {'5 cards':>8}")
    for (name, _, _), (t2, t5) in zip(rows, ns, strict=True):
        print(f"{name:32} {t2:8.0f} {t5:8.0f}")
    ratio = ns[2][0] / ns[0][0]
    print(f"table.winner / if-chain on two cards: {ratio:.2f}x")


if __name__ == "__main__":
    main()
