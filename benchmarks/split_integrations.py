"""Where the integer encoding's time goes, apart from OpenSpiel and PettingZoo.

The same random games as ``bench_integrations.py`` are replayed token by token through
``cardrules.integrations.encoding`` (no framework), with a timer around each phase:

* a chance step: the outcome list, then the draw, in place as the OpenSpiel state draws
  (a deal's last card, which applies the native ``Shuffle``, is counted apart as native
  work);
* a decision step: the legal ids (the native ``legal_actions`` is timed apart, once more,
  at each position with nothing pending, and first: where a game keeps the legal actions
  of a state, as Haggis does, the ``legal`` column then holds only the encoding's part),
  decoding the chosen id, the native ``apply``, and the next position (after an action,
  or after a token that only extends it).

Milliseconds for all the games, best of ``repeats`` (by the sum of the phases).  The timer
costs about 0.1 us a call; its cost is measured and taken off each phase.

    python benchmarks/split_integrations.py [games] [repeats]
"""

from __future__ import annotations

import sys
import time
from typing import Any

import pyspiel
from bench_integrations import CASES, Recorded, native

from cardrules.integrations import openspiel as cos
from cardrules.integrations.encoding import _Drawing, _moved

PHASES = ("outcomes", "draw", "deal", "legal", "native_legal", "decode", "apply", "enter", "pending")


def split(enc: Any, games: list[Recorded]) -> tuple[dict[str, float], int, int]:
    clock = time.perf_counter_ns
    t = dict.fromkeys(PHASES, 0)
    chance = decisions = 0
    timer = 0
    for rec in games:
        pos = enc.initial()
        for token in rec.tokens:
            a = clock()
            timer += clock() - a
            if pos._deal is not None:  # drawn in place, as the OpenSpiel state draws
                chance += 1
                if type(pos) is not _Drawing:
                    pos = _moved(pos, _Drawing)
                t0 = clock()
                enc._chance_outcomes(pos)
                t1 = clock()
                done = enc._draw(pos, token)
                t2 = clock()
                t["outcomes"] += t1 - t0
                t["draw" if done is None else "deal"] += t2 - t1
                if done is not None:
                    pos = done
                continue
            decisions += 1
            if not pos.pending:
                u0 = clock()
                enc._legal_of(pos.state)
                t["native_legal"] += clock() - u0
            t0 = clock()
            enc._legal(pos)
            t1 = clock()
            action = enc.completes(pos, token)
            t2 = clock()
            t["legal"] += t1 - t0
            t["decode"] += t2 - t1
            if action is None:
                pos = enc.apply(pos, token)
                t["pending"] += clock() - t2
            else:
                state = enc.game.apply(pos.state, action)
                t3 = clock()
                pos = enc.enter(state)
                t["apply"] += t3 - t2
                t["enter"] += clock() - t3
    calls = (chance + decisions) and timer / (chance + decisions)
    counts = {"outcomes": chance, "draw": chance, "deal": 0, "native_legal": 0, "pending": 0}
    out = {k: max(0.0, v - calls * counts.get(k, decisions)) / 1e6 for k, v in t.items()}
    return out, chance, decisions


def main() -> None:
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    print(f"{n_games} games, best of {repeats}; milliseconds for all the games")
    print(f"{'game':10} {'native':>6} {'chance':>6} {'decide':>6} | " + " ".join(f"{p:>8}" for p in PHASES))
    for name, players in CASES:
        game = pyspiel.load_game(cos.GAME_NAMES[name], {"players": players})
        games = [Recorded(name, players, seed, game) for seed in range(n_games)]
        nat = min(native(name, players, games) for _ in range(repeats)) * 1e3
        runs = [split(game.encoding, games) for _ in range(repeats)]
        best, chance, decisions = min(runs, key=lambda r: sum(r[0].values()))
        print(
            f"{name + '-' + str(players):10} {nat:6.1f} {chance:6} {decisions:6} | "
            + " ".join(f"{best[p]:8.2f}" for p in PHASES),
            flush=True,
        )


if __name__ == "__main__":
    main()
