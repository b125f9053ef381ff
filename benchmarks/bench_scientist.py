"""The scientist on the science round: rounds solved, cards per solved round, average
score and seconds per decision, per rule and in all.

    python benchmarks/bench_scientist.py [--rounds 3] [--first 0] [--rules FILE ...] [--extra]
        [--bits] [--calibration]

By default the rules are the example rules (``examples/rules/*.rule``); ``--extra`` adds
the independent rules of ``benchmarks/science_rules.rules``.  A third set,
``benchmarks/heldout_rules.rules`` (``--rules benchmarks/heldout_rules.rules``), is one
that no setting of the search or of the scientist was chosen on: a test of generality.
A fourth set, ``benchmarks/published_rules.rules``, holds
the 26 rules of the "Game of Science" benchmark whose published results the goals are
set against, first measured after every choice had been made.  Round ``k`` of a rule uses
seed ``k`` for the deck and for the scientist, ``k`` from ``--first`` (0): ``--first 3``
plays fresh draws, never measured before.  Goals: at least 95% of rounds solved, at
most 10 cards per solved round, an average score of at least 18, at most 1 s a decision.
The summary line gives the average score with two standard errors (``±``, for fresh
draws of the same rules: rules like them would scatter more): rounds scatter from 0 to
about 26, so two draws of the 78 rounds of the published rules differ by about half a
point by chance alone (their ``±`` is 0.6 to 0.7), and a change that moves the average
by less than its ``±`` has not been shown to matter.

``--bits`` plays no round: for each rule it prints how many bits its behaviour's prior
probability is worth (``-log2`` of the prior mass of the search's rules that judge like
it on the fingerprint probes, found from 60 plays the rule judges, every other one a
card it takes), the
information that verdicts (at most one bit each) must bring before the rule is sure.

``--split`` prints the summary line twice more: for the rules that judge like a rule the
prior learns from (the example rules, ``science_rules.rules`` and ``training_rules.rules``:
the same verdicts on the search's fingerprint probes, and no counterexample from
:func:`~cardrules.lang.analysis.equivalent` on the lines they build), and for the others.
The second line is the figure on rules the scientist has really not seen.
A fifth set, ``benchmarks/unseen_rules.rules``, was written in one sitting before any
setting was chosen on it and is kept as written: measure on it, never tune to it.

``--calibration`` plays the same rounds and then prints whether the scientist's
probabilities are honest: after every turn, the probability of its most probable rule
(:meth:`Scientist.best`, a play part: given the secret rule's ``start:`` part if it has
one) and whether that rule is right (it builds the same lines as the secret rule), in
bins of probability.  A guess is weighed by these probabilities, so when the rules it
finds likely are right as often as it says, what is left to gain is in the prior and in
the cards it plays, not in how it guesses.  (Its seconds per decision then count the
checks of the note as well.)
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from cardrules.cards import canonical, standard_deck
from cardrules.eleusis import Observation, Scientist, play_science

# the rule finder's module
from cardrules.eleusis import induction as induce
from cardrules.lang.analysis import EquivalenceNotProven, equivalent
from cardrules.lang.ast import unparse
from cardrules.lang.rules import Rule, compile_rule, compile_rules

HERE = Path(__file__).resolve().parent


def load(path: Path) -> list[Rule]:
    text = path.read_text(encoding="utf-8")
    if 'rule "' in text:
        return list(compile_rules(text).values())
    return [compile_rule(text, name=path.stem)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--first", type=int, default=0, help="the seed of the first round")
    parser.add_argument("--rules", nargs="*", type=Path, default=None)
    parser.add_argument("--extra", action="store_true", help="add benchmarks/science_rules.rules")
    parser.add_argument("--bits", action="store_true", help="print each rule's prior bits instead")
    parser.add_argument(
        "--calibration", action="store_true", help="also print how often its most probable rule is right"
    )
    parser.add_argument(
        "--split", action="store_true", help="also sum up apart the rules like a training rule and the others"
    )
    args = parser.parse_args()
    paths = args.rules if args.rules else sorted((HERE.parent / "examples" / "rules").glob("*.rule"))
    if args.extra:
        paths = [*paths, HERE / "science_rules.rules"]
    rules = [r for p in paths for r in load(p)]
    if args.bits:
        found = bits(rules)
        if args.split:
            like = like_training(rules)
            for name, want in (("like a training rule", True), ("like no training rule", False)):
                group = [b for b, x in zip(found, like, strict=True) if x is want]
                print(f"{name}: {bits_summary(group)}")
        return
    seen: list[tuple[float, bool]] = []
    played: list[Played] = []
    worst = 0.0
    print(f"{'rule':40} solved  cards  score  s/decision")
    for rule in rules:
        r_solved = r_cards = r_score = 0
        r_time = 0.0
        r_turns = 0
        r_scores: list[int] = []
        for k in range(args.first, args.first + args.rounds):
            began = time.perf_counter()
            scientist = Calibrated(rule, seed=k) if args.calibration else Scientist(seed=k)
            result = play_science(rule, scientist, seed=k)
            if isinstance(scientist, Calibrated):
                seen.extend(scientist.seen)
            spent = time.perf_counter() - began
            r_time += spent
            r_turns += result.turns
            worst = max(worst, spent / result.turns)
            r_solved += result.solved
            r_cards += result.turns if result.solved else 0
            r_score += result.score
            r_scores.append(result.score)
        per_card = f"{r_cards / r_solved:5.1f}" if r_solved else "    -"
        print(
            f"{(rule.name or str(rule))[:40]:40} {r_solved}/{args.rounds}   {per_card}  "
            f"{r_score / args.rounds:5.1f}  {r_time / r_turns:6.3f}"
        )
        played.append(Played(rule, r_solved, r_cards, r_scores, r_time, r_turns))
    print(f"\n{summary(played)} (worst round {worst:.3f})")
    if args.split:
        like = like_training(rules)
        for name, group in (
            ("like a training rule", [p for p, x in zip(played, like, strict=True) if x]),
            ("like no training rule", [p for p, x in zip(played, like, strict=True) if not x]),
        ):
            print(f"{name}: {summary(group)}" if group else f"{name}: none")
    if args.calibration:
        calibration(seen)


class Played(NamedTuple):
    """One rule's rounds."""

    rule: Rule
    solved: int
    cards: int  # of the solved rounds
    scores: list[int]
    seconds: float
    decisions: int


def summary(played: Sequence[Played]) -> str:
    """The summary line of some rules' rounds."""
    total = sum(len(p.scores) for p in played)
    solved = sum(p.solved for p in played)
    return (
        f"{len(played)} rules, {total} rounds: {solved / total:.1%} solved, "
        f"{sum(p.cards for p in played) / max(1, solved):.1f} cards per solved round, "
        f"average score {sum(sum(p.scores) for p in played) / total:.2f} "
        f"(± {2 * standard_error([p.scores for p in played]):.2f}), "
        f"{sum(p.seconds for p in played) / max(1, sum(p.decisions for p in played)):.3f} s per decision"
    )


def training_rules() -> list[Rule]:
    """The rules the prior learns from (``benchmarks/learn_prior.py``)."""
    paths = [*sorted((HERE.parent / "examples" / "rules").glob("*.rule"))]
    paths += [HERE / "science_rules.rules", HERE / "training_rules.rules"]
    return [r for p in paths for r in load(p)]


def like_training(rules: Sequence[Rule]) -> list[bool]:
    """Whether each rule judges like a training rule: the same verdicts on the search's
    fingerprint probes, then no counterexample on the lines the two build (a difference
    ``equivalent`` cannot find in its samples counts as none)."""

    def fingerprint(rule: Rule) -> int:
        return sum(1 << j for j, (line, c) in enumerate(induce.probes()) if rule.accepts(line, c))

    by_print: dict[int, list[Rule]] = {}
    for t in training_rules():
        by_print.setdefault(fingerprint(t), []).append(t)
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EquivalenceNotProven)
        for rule in rules:
            alike = by_print.get(fingerprint(rule), [])
            out.append(any(equivalent(rule, t, in_play=True) is None for t in alike))
    return out


def standard_error(scores: Sequence[Sequence[float]]) -> float:
    """The standard error of the average score of the rounds ``scores`` (each rule's
    list): how far the average of another draw of as many rounds of the same rules (fresh
    seeds) is expected to be from this one's, about.  The spread counted is the one
    within each rule (between its rounds), pooled; the rules' differences are fixed by
    the choice of rules.  Twice it is the ``±`` of the summary line."""
    n = sum(len(xs) for xs in scores)
    free = n - sum(1 for xs in scores if xs)  # one degree of freedom used by each rule's mean
    if free <= 0:
        return math.inf
    within = 0.0
    for xs in scores:
        if xs:
            mean = sum(xs) / len(xs)
            within += sum((x - mean) ** 2 for x in xs)
    return math.sqrt(within / free / n)


class Calibrated(Scientist):
    """A scientist that notes, after every turn, the probability of its most probable
    rule and whether that rule builds the same lines as the secret rule.  The secret
    rule is read only here, to score the note: the scientist's own decisions are those of
    :class:`Scientist`."""

    def __init__(self, secret: Rule, *, seed: int) -> None:
        super().__init__(seed=seed)
        self.secret = secret
        self.seen: list[tuple[float, bool]] = []

    def guess(self, observations: Sequence[Observation]) -> Rule | None:
        rule, p = self.best(observations)
        if rule is not None:
            if self.secret.start_tree is not None and rule.start_tree is None:
                # its probability is that of a play part, whatever the start: part
                start = unparse(self.secret.start_tree)
                rule = compile_rule(f'rule "best":\n    start: {start}\n    play: {rule.source}')
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", EquivalenceNotProven)
                self.seen.append((p, equivalent(rule, self.secret, in_play=True) is None))
        return super().guess(observations)


def calibration(seen: list[tuple[float, bool]]) -> None:
    """How often the most probable rule was right, by its stated probability."""
    edges = [0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    print(f"\n{'probability':12} {'turns':>6} {'stated':>7} {'right':>6}")
    for lo, hi in itertools.pairwise(edges):
        group = [(p, ok) for p, ok in seen if lo <= p < hi or (hi == 1.0 and p == 1.0)]
        if group:
            stated = sum(p for p, _ in group) / len(group)
            right = sum(ok for _, ok in group) / len(group)
            print(f"{lo:.2f}-{hi:.2f}    {len(group):6d} {stated:7.3f} {right:6.3f}")


def plays(rule: Rule, n: int = 60) -> list[Observation]:
    """The starter and ``n`` plays that ``rule`` judges, drawn from a generator seeded
    by its text: every other play a card the rule takes (when one is left), so that the
    line grows past the places where random cards would leave it stuck."""
    deck = canonical(standard_deck())
    rng = random.Random(rule.source)
    starter = rng.choice([c for c in deck if rule.accepts_start(c)])
    line = [starter]
    obs = [Observation((), starter, True)]
    for k in range(n):
        taken = [c for c in deck if rule.accepts(line, c)] if k % 2 else []
        card = rng.choice(taken or deck)
        ok = rule.accepts(line, card)
        obs.append(Observation(line, card, ok))
        if ok:
            line.append(card)
    return obs


def bits(rules: list[Rule], n: int = 60) -> list[float | None]:
    """Each rule's prior bits: -log2 of the prior mass of its behaviour in the search
    (printed, and returned in the order of ``rules``: ``None`` where the search does not
    find the rule)."""
    search = induce.searcher()
    out: list[float | None] = []
    print(f"{'rule':40} bits")
    for rule in rules:
        mine = sum(1 << j for j, (ln, c) in enumerate(induce.probes()) if rule.accepts(ln, c))
        ranked = induce.ranked(plays(rule, n))
        mass = next(
            (
                w
                for h, w in zip(ranked.hypotheses, ranked.weights, strict=True)
                if search.fingerprint(h) == mine
            ),
            None,
        )
        text = "  -   (not found from these plays)" if mass is None else f"{-math.log2(mass):5.1f}"
        out.append(None if mass is None else -math.log2(mass))
        print(f"{(rule.name or str(rule))[:40]:40} {text}")
    print(f"\n{bits_summary(out)}")
    return out


def bits_summary(bits: Sequence[float | None]) -> str:
    """``"38 of 40 rules found: 14.7 bits on average, median 15.3"``."""
    found = sorted(b for b in bits if b is not None)
    if not found:
        return f"0 of {len(bits)} rules found"
    return (
        f"{len(found)} of {len(bits)} rules found: {sum(found) / len(found):.1f} bits on "
        f"average, median {found[len(found) // 2]:.1f}"
    )


if __name__ == "__main__":
    main()
