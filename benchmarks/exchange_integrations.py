"""The first token of an Aegis exchange through the integer encoding, beside the native
``legal_actions`` of the same states: the exchange decisions of ``games`` random games
(seeded as ``bench_integrations.py``'s), each position made afresh; microseconds per
decision, best of ``repeats``.

    python benchmarks/exchange_integrations.py [games] [repeats]
"""

from __future__ import annotations

import random
import sys
import timeit
from typing import Any

from cardrules import GAMES
from cardrules.integrations.encoding import encoding_for


def exchange_states(games: int) -> list[Any]:
    g = GAMES["aegis"]
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        s = g.new_game(players=2, seed=seed)
        while not s.is_over:
            actions = g.legal_actions(s)
            if s.phase == "exchange" and type(s.to_act) is int:
                out.append(s)
            s = g.apply(s, rng.choice(actions))
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    g = GAMES["aegis"]
    enc = encoding_for("aegis", players=2)
    states = exchange_states(games)

    def native() -> None:
        for s in states:
            g.legal_actions(s)

    def position() -> None:
        for s in states:
            enc.enter(s)

    def first_token() -> None:
        for s in states:
            enc.legal_tokens(enc.enter(s))

    print(f"aegis-2, {games} games, {len(states)} exchange decisions, best of {repeats}; microseconds each")
    for name, run in (("native legal_actions", native), ("the position", position), ("position + legal ids", first_token)):
        best = min(timeit.repeat(run, number=10, repeat=repeats)) / 10 / len(states) * 1e6
        print(f"{name:24} {best:6.2f}")


if __name__ == "__main__":
    main()
