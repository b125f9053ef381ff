"""Haggis speed, side by side with RLCard's Dou Dizhu, in one run.

Run in the benchmark environment (it has rlcard; cardrules never depends on it)::

    PYTHONPATH=src python benchmarks/bench_haggis.py [--seconds 5]

1. Leading from a fresh 17-card hand: ``legal_actions`` of a freshly dealt state (every
   distinct declaration, plus the two bets), over many seeded deals, for 2 and 3
   players.  "cold" empties every cache of the module before each hand (nothing built
   before is reused); "steady" is what a long simulation sees (caches warm from other
   hands, never from this one).  Completeness: the lists are checked against the
   brute-force oracle of ``tests/haggis_oracle.py`` (every shape filled with every card
   that can stand in it).
2. Random 2-player playouts through the public API (``GAMES["haggis"]``:
   ``legal_actions``, ``view`` of the player to act, ``RandomAgent``, ``apply``, chance
   resolved by the seed; RLCard's steps also build each player's observation), against
   RLCard's Dou Dizhu random agents, both timed in this process: ``env.run`` with
   ``RandomAgent`` (RLCard's documented way to play random agents) and a lean loop of
   ``env.step`` with a uniform choice among the legal action ids.

   The Haggis playouts are measured twice: from cold caches (a new process's first
   seconds of play, after part 1 emptied them), and steady, after ``--warm`` CPU seconds
   more of play (what a long simulation sees once the caches of hand pieces have filled;
   no measured game is one played before: the seeds differ).  The steady measurement
   alternates with RLCard's ``env.run`` for ``--rounds`` rounds, and each round's ratio
   compares two measurements taken one after the other: on a machine shared with other
   work the speed of both changes from minute to minute.

Times are CPU time of this process (``time.process_time``) so that other programs
sharing the machine distort them less; wall-clock rates are printed too.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

import cardrules.haggis as hg  # noqa: E402
from cardrules import GAMES  # noqa: E402
from cardrules.agents import RandomAgent  # noqa: E402


def clear_caches() -> None:
    hg.combos.clear_caches()


def fresh_hands(players: int, hands: int, cold: bool) -> tuple[list[float], list[int], list]:
    times, counts = [], []
    # deal first: dealing is not part of listing the declarations
    states = [hg.new_game(players=players, seed=f"bench:{cold}:{players}:{i}") for i in range(hands)]
    for state in states:
        if cold:
            clear_caches()
        t = time.process_time()
        actions = hg.legal_actions(state)
        times.append(time.process_time() - t)
        counts.append(sum(1 for a in actions if type(a) is hg.Play))
    return times, counts, states


def check_complete(states, limit: int) -> int:
    from haggis_oracle import as_tuples, hand_oracle

    checked = 0
    for state in states[:limit]:
        plays = [a.combo for a in hg.legal_actions(state) if type(a) is hg.Play]
        hand = state.hands[0]
        nsuits = 4 if state.players == 2 else 5
        assert len(plays) == len(set(plays)), "a declaration is listed twice"
        assert as_tuples(plays) == hand_oracle(hand, nsuits), "the oracle disagrees"
        checked += 1
    return checked


def haggis_playouts(seconds: float, tag: str = "playout") -> tuple[int, float, float]:
    g = GAMES["haggis"]
    steps = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    i = 0
    while time.process_time() - cpu0 < seconds:
        state = g.new_game(players=2, seed=f"{tag}:{i}")
        agents = [RandomAgent(f"{i}:0"), RandomAgent(f"{i}:1")]
        while not state.is_over:
            p = state.to_act
            actions = g.legal_actions(state)
            state = g.apply(state, agents[p](g.view(state, p), actions))
            steps += 1
        i += 1
    return steps, time.process_time() - cpu0, time.perf_counter() - wall0


def rlcard_run(seconds: float) -> tuple[int, float, float] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent as RLRandom
    except ImportError:
        return None
    env = rlcard.make("doudizhu", config={"seed": 0})
    env.set_agents([RLRandom(num_actions=env.num_actions) for _ in range(env.num_players)])
    steps = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.process_time() - cpu0 < seconds:
        trajectories, _ = env.run(is_training=False)
        # each player's trajectory alternates state, action, state, ...: count actions
        steps += sum(len(tr) // 2 for tr in trajectories)
    return steps, time.process_time() - cpu0, time.perf_counter() - wall0


def rlcard_lean(seconds: float) -> tuple[int, float, float] | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("doudizhu", config={"seed": 0})
    rng = random.Random(0)
    steps = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.process_time() - cpu0 < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, time.process_time() - cpu0, time.perf_counter() - wall0


def rate(measured: tuple[int, float, float]) -> float:
    """Steps per CPU second of a measurement (steps, CPU seconds, wall seconds)."""
    return measured[0] / measured[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per playout measurement")
    ap.add_argument("--hands", type=int, default=300, help="fresh hands per player count")
    ap.add_argument("--oracle", type=int, default=30, help="hands checked against the oracle")
    ap.add_argument("--warm", type=float, default=10.0, help="CPU seconds of play before the steady measurement")
    ap.add_argument("--rounds", type=int, default=5, help="alternating steady rounds of Haggis and RLCard")
    args = ap.parse_args()
    print(
        f"# Haggis benchmark: CPython {platform.python_version()}, {os.cpu_count()} cores, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.1f}"
    )
    print()
    print("## Leading from a fresh 17-card hand (legal_actions of a fresh deal)")
    print(
        f"{'players':>7} {'caches':>7} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} {'declarations (median, min-max)':>32}"
    )
    for players in (2, 3):
        for label, cold in (("cold", True), ("steady", False)):
            times, counts, states = fresh_hands(players, args.hands, cold)
            times.sort()
            print(
                f"{players:>7} {label:>7} {statistics.median(times) * 1e3:>10.3f} "
                f"{times[int(0.9 * len(times))] * 1e3:>8.3f} {times[-1] * 1e3:>8.3f} "
                f"{statistics.median(counts):>20.0f} ({min(counts)}-{max(counts)})"
            )
        checked = check_complete(states, args.oracle)
        print(f"{'':>7} complete: {checked} hands agree with the brute-force oracle")
    print()
    print("## Random playouts (steps/s; a step is one player action)")
    rows = []
    clear_caches()
    h = haggis_playouts(args.seconds)
    r1 = rlcard_run(args.seconds)  # right after, so that both see the machine alike
    rows.append(("cardrules haggis, 2 players, cold caches", h))
    r2 = rlcard_lean(args.seconds)
    haggis_playouts(args.warm, tag="warm-up")
    # steady: Haggis and RLCard's env.run alternate, round by round, and each round's
    # ratio compares two measurements taken one after the other (a machine shared with
    # other work changes speed from minute to minute, for both)
    steady, runs = [], []
    for i in range(args.rounds):
        steady.append(haggis_playouts(args.seconds, tag=f"steady:{i}"))
        got = rlcard_run(args.seconds)
        if got:
            runs.append(got)
    hw = max(steady, key=rate)
    rows.append((f"cardrules haggis, 2 players, steady (best of {len(steady)})", hw))
    if r1:
        rows.append(("rlcard doudizhu, env.run + RandomAgent", r1))
    if runs:
        best = max(runs, key=rate)
        rows.append((f"rlcard doudizhu, env.run (best of {len(runs)})", best))
    if r2:
        rows.append(("rlcard doudizhu, lean env.step loop", r2))
    print(f"{'':<48} {'steps':>8} {'cpu steps/s':>12} {'wall steps/s':>13}")
    for name, (steps, cpu, wall) in rows:
        print(f"{name:<48} {steps:>8} {steps / cpu:>12.0f} {steps / wall:>13.0f}")
    if r1:
        print(f"haggis (cold) / rlcard (env.run, just after): {rate(h) / rate(r1):.1f}x")
    if runs:
        ratios = [rate(a) / rate(b) for a, b in zip(steady, runs, strict=True)]
        print(
            "haggis (steady) / rlcard (env.run), round by round: "
            + " ".join(f"{x:.1f}x" for x in ratios)
            + f"; median {statistics.median(ratios):.1f}x"
        )
        print(f"haggis (steady, best) / rlcard (env.run, best): {rate(hw) / rate(best):.1f}x")
    if r2:
        print(f"haggis (steady, best) / rlcard (lean loop): {rate(hw) / rate(r2):.1f}x")


if __name__ == "__main__":
    main()
