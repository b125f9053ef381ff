"""Two versions of the library's code at a fixed time a move: each game's ``strong_agent``
of this checkout against the same agent of another checkout, on duplicate deals.

    python benchmarks/bench_versions.py --other /tmp/old/src [--time 0.1] [--deals 50]
                                        [--only aegis,gunsore,haggis] [--start D]

``--other`` is the ``src`` directory of another checkout of cardrules (for instance
``git worktree add /tmp/old <commit>``): its agent runs in a process of its own, started
with that directory first on ``sys.path``, which reads positions on its standard input
and answers with its choice.  Both agents are the game's :func:`cardrules.strong_agent`
with ``time_per_move`` seconds a decision: the agents are the same, so what differs is
how much search each version's code does in that time (a faster game, more iterations).

A position travels as :func:`cardrules.to_json` of the whole state (the format is the
same in both versions); each side works out the player's view and the legal actions
itself and sees only the view, and the other side answers with the index of its choice
among the legal actions (whose order is the same in both versions).  Only one agent
thinks at a time, so both have the machine alike.

Each deal (a seeded game: its seed fixes every shuffle) is played twice, the versions
swapping seats, so each version meets the same cards in the same seat.  Printed per game:
games, the win rate of this checkout's agent (a tie counts half) with its Wilson 95%
interval, and each side's mean iterations a decision and mean time a decision (ms).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

GAMES_PLAYED = {"aegis": 2, "gunsore": 2, "haggis": 2}


def serve() -> None:
    """The other version's side: one JSON line in, one out, until the input ends."""
    from cardrules import GAMES, from_json
    from cardrules.agents import strong_agent

    agents: dict[tuple[int, int], Any] = {}
    for line in sys.stdin:
        ask = json.loads(line)
        if ask.get("new_game"):
            agents.clear()
            continue
        state = from_json(ask["state"])
        g = GAMES[ask["game"]]
        p = state.to_act
        key = (ask["deal"], p)
        if key not in agents:
            agents[key] = strong_agent(g, f"{ask['deal']}:{p}", time_per_move=ask["time"])
        legal = g.legal_actions(state)
        began = time.process_time()
        choice = agents[key](g.view(state, p), legal)
        spent = time.process_time() - began
        iterations = getattr(agents[key], "iterations_done", 0)
        print(json.dumps({"index": legal.index(choice), "iterations": iterations, "cpu": spent}), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--other", help="the src directory of the other checkout")
    ap.add_argument("--time", type=float, default=0.1, help="seconds a decision, both sides (default 0.1)")
    ap.add_argument("--deals", type=int, default=50, help="deals a game, each played twice (default 50)")
    ap.add_argument("--start", type=int, default=0, help="the first deal's seed (default 0)")
    ap.add_argument("--only", default=",".join(GAMES_PLAYED), help="games, comma-separated")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve()
        return 0
    if not args.other:
        ap.error("--other SRC is required")

    from cardrules import GAMES, to_json
    from cardrules.agents import strong_agent
    from cardrules.simulation import wilson_interval

    env = dict(os.environ, PYTHONPATH=os.path.abspath(args.other))
    other = subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "--serve"],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert other.stdin is not None and other.stdout is not None
    print(f"this checkout against {args.other}, {args.time} s a decision, deals {args.start}..{args.start + args.deals - 1}")
    print(f"{'game':8} {'games':>5} {'win rate':>9} {'95% interval':>16} {'iter/dec (this, other)':>24} {'ms/dec (this, other)':>22}")
    for name in args.only.split(","):
        g = GAMES[name]
        players = GAMES_PLAYED[name]
        wins = 0.0
        games = 0
        iters = {"this": [0, 0], "other": [0, 0]}  # iterations, decisions
        cpu = {"this": 0.0, "other": 0.0}
        for deal in range(args.start, args.start + args.deals):
            for this_seat in range(players):
                other.stdin.write(json.dumps({"new_game": True}) + "\n")
                state = g.new_game(players=players, seed=f"versions:{deal}")
                mine = strong_agent(g, f"{deal}:{this_seat}", time_per_move=args.time)
                while not state.is_over:
                    p = state.to_act
                    legal = g.legal_actions(state)
                    if p == this_seat:
                        began = time.process_time()
                        action = mine(g.view(state, p), legal)
                        cpu["this"] += time.process_time() - began
                        iters["this"][0] += getattr(mine, "iterations_done", 0)
                        iters["this"][1] += 1
                    else:
                        ask = {"game": name, "state": to_json(state), "deal": deal, "time": args.time}
                        other.stdin.write(json.dumps(ask) + "\n")
                        other.stdin.flush()
                        answer = json.loads(other.stdout.readline())
                        action = legal[answer["index"]]
                        cpu["other"] += answer["cpu"]
                        iters["other"][0] += answer["iterations"]
                        iters["other"][1] += 1
                    state = g.apply(state, action)
                winners = state.winners
                if this_seat in winners:
                    wins += 1 / len(winners)
                games += 1
        lo, hi = wilson_interval(wins, games)
        per = {k: v[0] / max(1, v[1]) for k, v in iters.items()}
        ms = {k: 1000 * cpu[k] / max(1, iters[k][1]) for k in cpu}
        print(
            f"{name:8} {games:5} {wins / games:9.1%} {f'[{lo:.1%}, {hi:.1%}]':>16} "
            f"{per['this']:11.0f} {per['other']:11.0f} {ms['this']:10.0f} {ms['other']:10.0f}",
            flush=True,
        )
    other.stdin.close()
    other.wait(30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
