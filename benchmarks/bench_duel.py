"""Duplicate deals: one search agent's settings against another's (or the greedy agents).

    python benchmarks/bench_duel.py [--deals N] [--only aegis,gunsore,haggis2,haggis3]
                                    [--new belief=model,belief_epsilon=0.1]
                                    [--against strong|greedy] [--seed S] [--start D]

Each deal (a seeded game: its seed fixes every shuffle) is played once with the *new*
agent in each seat in turn and the other seats taken by the *old* agents, so every
player of the new settings meets the same cards as the old ones did: 2 games a deal for
two players, 3 for three players (two old agents against one new).  The new agent is
:class:`~cardrules.search.ISMCTSAgent` with :data:`STRONG`'s settings for the game and the
``--new`` options over them; the old agents are :data:`STRONG`'s (``--against strong``)
or the game's ``GreedyAgent`` (``--against greedy``).

Printed per pairing: games, wins of the new agent (a tie at the top counts as half a
win for each tied player), the win rate with its Wilson 95% interval, a fair share
(1/players), the mean time of one decision of the new and of the old agents (ms), and
the deals in which one seat won every game whichever agent sat there (the cards decided
them: only the other deals can show a difference between the agents).
A line is printed as soon as its games are played.  ``--start D`` plays the deals from
``D`` on (``--deals 100 --start 100``: the second half of ``--deals 200``), so a long run
can be split between processes and its games added up.
"""

from __future__ import annotations

import argparse
import ast
import sys
import time
from typing import Any

from cardrules import GAMES
from cardrules.agents import greedy_agent
from cardrules.search import ISMCTSAgent
from cardrules.simulation import wilson_interval

PAIRINGS = {
    "aegis": ("aegis", 2),
    "gunsore": ("gunsore", 2),
    "haggis2": ("haggis", 2),
    "haggis3": ("haggis", 3),
}

#: ``strong_agent``'s settings (``SEARCH_SETTINGS``), written out: the baseline a duel is
#: measured against stays these settings when ``strong_agent`` changes.
STRONG: dict[str, dict[str, Any]] = {
    "aegis": {"iterations": 600, "rollout": "policy", "belief": "policy"},
    "gunsore": {"iterations": 500, "prior": "greedy", "widening": 1.0},
    "haggis": {"iterations": 40, "rollout": "greedy", "prior": "greedy", "widening": 1.0},
}


def options(text: str) -> dict[str, Any]:
    """``"belief=model,belief_epsilon=0.1"`` as a dict (values read as Python literals
    where they are one, else as text)."""
    out: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        try:
            out[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            out[key] = value
    return out


class _Timed:
    """An agent that adds the time of each of its decisions with more than one choice."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.time = 0.0
        self.decisions = 0

    def __call__(self, view: Any, legal: Any) -> Any:
        t = time.perf_counter()
        action = self.agent(view, legal)
        if len(legal) > 1:
            self.time += time.perf_counter() - t
            self.decisions += 1
        return action


def duel(
    key: str, deals: int, seed: str, new: dict[str, Any], against: str, start: int = 0
) -> tuple[float, int]:
    name, n = PAIRINGS[key]
    g = GAMES[name]
    settings = {**STRONG[name], **new}
    wins = 0.0
    games = 0
    new_time = [0.0, 0]
    old_time = [0.0, 0]
    decided = 0  # deals in which one seat won every game, whichever agent sat there
    for d in range(start, start + deals):
        seats_won: set[int] | None = None
        for seat in range(n):
            s = f"{seed}:{d}"
            agents: list[_Timed] = []
            for p in range(n):
                if p == seat:
                    agents.append(_Timed(ISMCTSAgent(name, seed=f"{s}:new:{p}", **settings)))
                elif against == "greedy":
                    agents.append(_Timed(greedy_agent(name, f"{s}:old:{p}")))
                else:
                    agents.append(_Timed(ISMCTSAgent(name, seed=f"{s}:old:{p}", **STRONG[name])))
            state = g.new_game(players=n, seed=s)
            while not state.is_over:
                p = state.to_act
                state = g.apply(state, agents[p](g.view(state, p), g.legal_actions(state)))
            if seat in state.winners:
                wins += 1 / len(state.winners)
            games += 1
            seats_won = set(state.winners) if seats_won is None else seats_won & set(state.winners)
            for p, a in enumerate(agents):
                box = new_time if p == seat else old_time
                box[0] += a.time
                box[1] += a.decisions
        decided += bool(seats_won)
    lo, hi = wilson_interval(wins, games)
    extra = ",".join(f"{k}={v}" for k, v in new.items()) or "(strong)"
    print(
        f"{key:8} new {extra} vs {against}: {games:>4} games  wins {wins:>6.1f}  rate {wins / games:.3f}"
        f"  [{lo:.3f}, {hi:.3f}]  fair {1 / n:.3f}"
        f"  new {1000 * new_time[0] / max(new_time[1], 1):5.1f} ms  old {1000 * old_time[0] / max(old_time[1], 1):5.1f} ms"
        f"  one seat won all: {decided}/{deals} deals",
        flush=True,
    )
    return wins, games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20, help="deals per pairing (each played once per seat)")
    ap.add_argument("--only", default=",".join(PAIRINGS))
    ap.add_argument("--new", default="belief=model", help="ISMCTSAgent options over STRONG's, k=v,k=v")
    ap.add_argument("--against", default="strong", choices=["strong", "greedy"])
    ap.add_argument("--seed", default="duel")
    ap.add_argument("--start", type=int, default=0, help="the first deal (deals start..start+N-1)")
    args = ap.parse_args(argv)
    new = options(args.new)
    print(f"python {sys.version.split()[0]}; {args.deals} deals per pairing, each in every seat", flush=True)
    for key in args.only.split(","):
        duel(key, args.deals, args.seed, new, args.against, args.start)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
