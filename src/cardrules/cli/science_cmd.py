"""``cardrules science RULE [--rounds N] [--seed S] [--time SECONDS]``: the scientist against a rule.

``RULE`` is a rule file (``FILE:NAME`` or ``--name NAME`` for one rule of a file of
several) or rule text.  Each round is :func:`cardrules.eleusis.play_science` with a
:class:`cardrules.eleusis.Scientist`: every turn prints the card played, the verdict and
the scientist's current best rule with its probability (``*`` marks a stated guess,
``wrong`` a wrong one); each round ends with its result, and several rounds with a
summary.  Round ``k`` (from 0) uses the seed ``S + k`` for the deck and the scientist.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from ..eleusis.science import Scientist, play_science
from ..errors import CardRulesError
from .rule_cmd import rule_arg


def register(sub: Any) -> None:
    p = sub.add_parser(
        "science",
        help="let the scientist find a secret rule (single-player rounds)",
        description="The scientist plays science rounds against a secret rule: each turn it "
        "plays the card that best splits its hypotheses, and guesses the rule when it is "
        "confident enough.  Every turn prints the card, the verdict and its best guess.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        "  cardrules science 'card.color != prev.color'\n"
        "  cardrules science examples/rules/alternating-colours.rule --rounds 5 --seed 3\n",
    )
    p.add_argument("rule", metavar="RULE", help="a rule file, FILE:NAME, or rule text")
    p.add_argument("--name", default=None, help="the rule's name, in a file of several rules (or FILE:NAME)")
    p.add_argument("--rounds", type=int, default=1, help="rounds to play (default 1)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first round (default 0)")
    p.add_argument("--turns", type=int, default=30, help="turns per round (default 30)")
    p.add_argument(
        "--time",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="the longest the scientist thinks over one card (default 1); a decision takes about "
        "0.2 s, and a round replays exactly, seed for seed, whenever the limit never binds",
    )
    p.set_defaults(func=run)


def _one_line(rule: object) -> str:
    """A rule's text on one line (a rule with a ``start:`` part takes several): its
    header, then its parts joined by semicolons."""
    head, *parts = (line.strip() for line in str(rule).splitlines())
    return " ".join([head, "; ".join(parts)]) if parts else head


def run(args: argparse.Namespace) -> int:
    if args.rounds < 1:
        raise CardRulesError(f"--rounds must be at least 1, not {args.rounds}")
    if not args.time > 0:  # also refuses nan
        raise CardRulesError(f"--time must be a positive number of seconds, not {args.time}")
    rule = rule_arg(args.rule, args.name, "--name")
    print(f"secret rule: {rule}")
    solved = score = cards = 0
    for k in range(args.rounds):
        seed = args.seed + k
        scientist = Scientist(seed=seed, turns=args.turns, time_per_move=args.time)
        began = time.perf_counter()
        result = play_science(rule, scientist, seed=seed, turns=args.turns)
        spent = time.perf_counter() - began
        stated = dict(result.guesses)
        print(f"round {k + 1} (seed {seed}): starter {result.observations[0].card}")
        for turn in range(1, len(result.observations)):
            o = result.observations[turn]
            best, p = scientist.best(result.observations[: turn + 1])
            verdict = "accepted" if o.accepted else "rejected"
            mark = ""
            if turn in stated:
                right = result.solved and turn == result.turns
                mark = "  * guessed" + ("" if right else " (wrong)")
                guess = _one_line(stated[turn])
                if best is None or guess != _one_line(best):  # e.g. with a start: part
                    mark += f": {guess}"
            shown = "none fits" if best is None else f"{best} ({p:.0%})"
            print(f"  turn {turn:2}: {o.card!s:>3} {verdict:8}  best: {shown}{mark}")
        if result.solved:
            print(
                f"  solved at turn {result.turns} with {result.wrong_guesses} wrong guess(es): "
                f"score {result.score} ({spent / max(1, result.turns):.2f} s a turn)"
            )
            solved += 1
            cards += result.turns
        else:
            print(f"  not solved in {result.turns} turns: score 0")
        score += result.score
    if args.rounds > 1:
        per = f", {cards / solved:.1f} cards per solved round" if solved else ""
        print(f"{solved}/{args.rounds} rounds solved{per}, average score {score / args.rounds:.2f}")
    return 0
