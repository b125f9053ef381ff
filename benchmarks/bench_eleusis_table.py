"""The scientist at the New Eleusis table (``strong_agent("eleusis")``) against the greedy
players, and three of it against each other.

    python benchmarks/bench_eleusis_table.py duel --rules god|easy|hard|unseen|default [--rounds 300] [--first 0]
        [--prophet-sure 0.9] [--jobs 1] [--out FILE.jsonl]
    python benchmarks/bench_eleusis_table.py self --rules god|easy|hard|unseen [--rounds 60] [--out FILE.jsonl]
    python benchmarks/bench_eleusis_table.py summary FILE.jsonl ...

``duel``: 4-player rounds (God and three scientists).  The secret rule is drawn by the
computer God (``--rules god``: ``choose_rule(players=4, seed=k)``, medium difficulty) or
taken in turn from ``benchmarks/unseen_rules.rules`` (``--rules unseen``: rules written
before the scientist was tuned, never tuned on), round ``k`` dealt with seed ``k``.  The
scientist sits in seat ``1 + k % 3`` (every seat rotation in turn), greedy players
(:class:`cardrules.eleusis.GreedyAgent`) in the two others; each round is also played
with a greedy player in the scientist's seat (same deal, same rule), the baseline for
"more points than the greedy player in the same seat".  A scientist wins a round when
its score is the highest among the scientists (a tie of ``k`` counts ``1/k``; a third
is even).

``self``: three scientists; whether rounds end, how often a prophet is found and how
often its calls are right (each call checked against the secret rule), and what God
scores.  ``--rules easy`` and ``--rules hard`` draw the computer God's rules of those
difficulties (``god`` is its default, medium); ``--rules default`` plays the default
rule (alternating colours) in every round.  ``--prophet-sure`` sets the scientist's
threshold for becoming prophet (:data:`cardrules.eleusis.player.PROPHET_SURE`).

Each round is one line of JSON in ``--out``, so a long run can be summed up while it
goes (``summary``), with 95% intervals (Wilson for rates, two standard errors for means).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from cardrules import eleusis
from cardrules.eleusis import GreedyAgent, Judge, Play, choose_rule, compile_rules, default_rule
from cardrules.eleusis.player import PROPHET_SURE, TableScientist
from cardrules.simulation import play

UNSEEN = Path(__file__).with_name("unseen_rules.rules")
#: ``--rules``: the computer God's rules ("god" is its default difficulty, medium)
DIFFICULTIES = ("god", "easy", "hard")
PLAYERS = 4
MAX_ACTIONS = 3000


def _rule(kind: str, k: int) -> tuple[str, Any]:
    if kind == "default":
        return "default", default_rule()
    if kind in DIFFICULTIES:
        rule = choose_rule(players=PLAYERS, seed=k, difficulty="medium" if kind == "god" else kind)
        return rule.source, rule
    rules = compile_rules(UNSEEN.read_text())
    name = sorted(rules)[k % len(rules)]
    return name, rules[name]


class _Watch:
    """Wraps an agent: its decisions' times and prophet offers taken."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.times: list[float] = []
        self.cpu: list[float] = []
        self.prophet = 0

    def __call__(self, view: Any, legal: Any) -> Any:
        t = time.perf_counter()
        c = time.process_time()
        action = self.agent(view, legal)
        self.times.append(time.perf_counter() - t)
        self.cpu.append(time.process_time() - c)
        if type(action).__name__ == "BecomeProphet":
            self.prophet += 1
        return action


def _right_call(state: Any, action: Any) -> bool:
    """Whether a prophet's ``Judge`` agrees with the secret rule."""
    rule = state.rules.secret
    pending = state.pending
    if type(pending) is Play:
        return bool(rule.accepts_string(state.main, pending.cards)) == action.right
    hand = state.hands[state.turn]
    if action.right:
        return not any(rule.accepts(state.main, c) for c in hand)
    return bool(rule.accepts(state.main, action.card))


def _round(agents: list[Any], k: int, rule: Any) -> tuple[Any, int, int, int]:
    calls = [0, 0]  # prophet's calls, right ones
    actions = [0]

    def seen(state: Any, action: Any) -> None:
        actions[0] += 1
        if type(action) is Judge:
            calls[0] += 1
            calls[1] += _right_call(state, action)

    final = play("eleusis", agents, seed=k, rules=eleusis.Rules(secret=rule), max_actions=MAX_ACTIONS,
                 on_action=seen)  # fmt: skip
    return final, calls[0], calls[1], actions[0]


def _share(scores: tuple[int, ...], seat: int) -> float:
    top = max(scores[1:])
    if scores[seat] != top:
        return 0.0
    return 1.0 / sum(1 for s in scores[1:] if s == top)


def duel(kind: str, k: int, sure: float = PROPHET_SURE) -> dict[str, Any]:
    name, rule = _rule(kind, k)
    seat = 1 + k % 3
    watch = _Watch(TableScientist(k, prophet_sure=sure))
    agents: list[Any] = [GreedyAgent(f"{k}:0")]
    agents += [watch if p == seat else GreedyAgent(f"{k}:{p}") for p in range(1, PLAYERS)]
    final, _, _, n = _round(agents, k, rule)
    base, _, _, _ = _round([GreedyAgent(f"{k}:{p}") for p in range(PLAYERS)], k, rule)
    return {
        "mode": "duel", "rules": kind, "k": k, "rule": name, "seat": seat, "scores": list(final.scores),
        "base": list(base.scores), "win": _share(final.scores, seat), "base_win": _share(base.scores, seat),
        "over": final.is_over, "actions": n, "prophet": watch.prophet,
        "true_prophet": final.prophet == seat,
        "overthrown": seat in final.former_prophets and final.prophet != seat,
        "max_s": max(watch.times, default=0.0), "mean_s": sum(watch.times) / max(1, len(watch.times)),
        "decisions": len(watch.times),
        "max_cpu": max(watch.cpu, default=0.0),
        "mean_cpu": sum(watch.cpu) / max(1, len(watch.cpu)),
        "over_1s": sum(t > 1.0 for t in watch.times),
        "cpu_over_1s": sum(t > 1.0 for t in watch.cpu),
    }  # fmt: skip


def selfplay(kind: str, k: int, sure: float = PROPHET_SURE) -> dict[str, Any]:
    name, rule = _rule(kind, k)
    watches = [_Watch(TableScientist(f"{k}:{p}", prophet_sure=sure)) for p in range(1, PLAYERS)]
    final, calls, right, n = _round([GreedyAgent(k), *watches], k, rule)
    times = [t for w in watches for t in w.times]
    cpu = [t for w in watches for t in w.cpu]
    return {
        "mode": "self", "rules": kind, "k": k, "rule": name, "scores": list(final.scores),
        "over": final.is_over, "actions": n, "prophets": sum(w.prophet for w in watches),
        "overthrown": len(final.former_prophets) - (final.prophet is not None), "calls": calls, "right_calls": right,
        "max_s": max(times, default=0.0), "mean_s": sum(times) / max(1, len(times)), "decisions": len(times),
        "max_cpu": max(cpu, default=0.0), "mean_cpu": sum(cpu) / max(1, len(cpu)),
        "over_1s": sum(t > 1.0 for t in times), "cpu_over_1s": sum(t > 1.0 for t in cpu),
    }  # fmt: skip


def _wilson(x: float, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = x / n
    z = 1.96
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def _mean(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, n - 1))
    return m, 2 * sd / math.sqrt(n)


def summary(paths: list[str]) -> None:
    rows = [json.loads(line) for p in paths for line in Path(p).read_text().splitlines() if line.strip()]
    for mode in ("duel", "self"):
        for kind in (*DIFFICULTIES, "unseen", "default"):
            rs = [r for r in rows if r["mode"] == mode and r["rules"] == kind]
            if not rs:
                continue
            n = len(rs)
            print(f"{mode} on {kind} rules: {n} rounds")
            if mode == "duel":
                wins = sum(r["win"] for r in rs)
                lo, hi = _wilson(wins, n)
                base = sum(r["base_win"] for r in rs)
                blo, bhi = _wilson(base, n)
                m, e = _mean([r["scores"][r["seat"]] for r in rs])
                bm, be = _mean([r["base"][r["seat"]] for r in rs])
                d, de = _mean([r["scores"][r["seat"]] - r["base"][r["seat"]] for r in rs])
                g, ge = _mean([r["scores"][0] for r in rs])
                print(f"  God's score {g:.1f} ± {ge:.1f}")
                became = sum(r["prophet"] > 0 for r in rs)
                over = sum(r["overthrown"] for r in rs)
                print(f"  scientist wins {wins / n:.1%} [{lo:.1%}, {hi:.1%}] (greedy in its seat: {base / n:.1%}"
                      f" [{blo:.1%}, {bhi:.1%}])")  # fmt: skip
                print(f"  points a round: scientist {m:.1f} ± {e:.1f}, greedy in the same seat {bm:.1f} ± {be:.1f},"
                      f" difference {d:+.1f} ± {de:.1f}")  # fmt: skip
                print(f"  prophet in {became / n:.1%} of rounds; overthrown in {over} of {became}")
                for seat in (1, 2, 3):
                    sr = [r for r in rs if r["seat"] == seat]
                    if sr:
                        print(
                            f"    seat {seat}: {len(sr)} rounds, wins {sum(r['win'] for r in sr) / len(sr):.1%}"
                        )
            else:
                calls = sum(r["calls"] for r in rs)
                right = sum(r["right_calls"] for r in rs)
                lo, hi = _wilson(right, calls)
                g, ge = _mean([r["scores"][0] for r in rs])
                lead, le = _mean([max(r["scores"][1:]) - min(r["scores"][1:]) for r in rs])
                print(
                    f"  God's score {g:.1f} ± {ge:.1f}; the best scientist's lead over the last {lead:.1f} ± {le:.1f}"
                )
                print(
                    f"  rounds ended: {sum(r['over'] for r in rs)} of {n}; a prophet in"
                    f" {sum(r['prophets'] > 0 for r in rs)}; overthrown {sum(r['overthrown'] for r in rs)} times"
                )
                print(f"  prophets' calls right: {right} of {calls} ({right / max(1, calls):.1%}"
                      f" [{lo:.1%}, {hi:.1%}])")  # fmt: skip
            timed = [r for r in rs if "max_cpu" in r]
            if timed:
                decisions = sum(r["decisions"] for r in timed)
                print(
                    f"  processor seconds a decision: mean {sum(r['mean_cpu'] * r['decisions'] for r in timed) / decisions:.3f},"
                    f" slowest {max(r['max_cpu'] for r in timed):.2f}; over 1 s: {sum(r['cpu_over_1s'] for r in timed)}"
                    f" of {decisions} decisions (wall clock: {sum(r['over_1s'] for r in timed)}; {len(timed)} rounds)"
                )
            times = [r["max_s"] for r in rs]
            means = [r["mean_s"] for r in rs]
            print(f"  seconds a decision: mean {sum(means) / n:.2f}, slowest {max(times):.2f};"
                  f" decisions over 1 s in {sum(t > 1.0 for t in times)} rounds")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("mode", choices=["duel", "self", "summary"])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--rules", choices=[*DIFFICULTIES, "unseen", "default"], default="god")
    ap.add_argument("--prophet-sure", type=float, default=PROPHET_SURE)
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out")
    args = ap.parse_args(argv)
    if args.mode == "summary":
        summary(args.files)
        return 0
    fn = duel if args.mode == "duel" else selfplay
    out = open(args.out, "a") if args.out else sys.stdout  # noqa: SIM115
    ks = range(args.first, args.first + args.rounds)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for row in pool.map(fn, [args.rules] * len(ks), ks, [args.prophet_sure] * len(ks)):
                print(json.dumps(row), file=out, flush=True)
    else:
        for k in ks:
            print(json.dumps(fn(args.rules, k, args.prophet_sure)), file=out, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
