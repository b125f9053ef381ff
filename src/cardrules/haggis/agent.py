"""The Haggis agents: :class:`GreedyAgent`, the documented heuristic player (the game's
strongest search also starts from it: :data:`STRONG_CONFIG`, with ``prior="greedy"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..agents import SeededAgent
from ..errors import CardRulesError
from ..search.config import SearchConfig
from .combos import Play
from .rules import GiveTrick, Pass, View


class GreedyAgent(SeededAgent):
    """A simple, documented heuristic player.

    * Never bets.
    * Leading: sheds the most cards it can without face cards or bombs, the lowest
      such combination on ties; face cards and bombs only when nothing else is left.
    * Following: beats with the cheapest combination (no face cards, lowest rank) if
      it can; uses face cards or a bomb only when an opponent is about to go out
      (three cards or fewer) or when that play takes it out; else passes.
    * Giving a bombed trick (three players): to the opponent with the lowest game
      score.

    It won all of 100 two-player games against :class:`~cardrules.agents.RandomAgent`
    (``simulate(..., seed="g")``, average score 274 to 92), and all of 60 three-player
    games against two of them.

    >>> from cardrules.simulation import play
    >>> final = play("haggis", [GreedyAgent(1), GreedyAgent(2)], seed=3)
    >>> final.is_over
    True
    """

    SEED_PREFIX = "greedy"

    def __init__(self, seed: object = None) -> None:
        super().__init__(seed)

    def __call__(self, view: View, legal: Sequence[Any]) -> Any:
        if not legal:
            raise CardRulesError("GreedyAgent was asked to act with no legal action")
        gives = [a for a in legal if type(a) is GiveTrick]
        if gives:
            return min(gives, key=lambda a: (view.scores[a.player], a.player))
        plays = [a for a in legal if type(a) is Play]
        hand_size = len(view.hand)

        def wild_count(a: Play) -> int:
            return sum(1 for c in a.combo.cards if c.suit is None)

        plain = [a for a in plays if a.combo.kind != "bomb" and wild_count(a) == 0]
        going_out = [a for a in plays if len(a.combo.cards) == hand_size]
        if going_out:
            return going_out[0]
        if view.table is None:
            pool = plain or [a for a in plays if a.combo.kind != "bomb"] or plays
            return max(pool, key=lambda a: (len(a.combo.cards) - 3 * wild_count(a), -a.combo.rank))
        if plain:
            return min(plain, key=lambda a: (a.combo.rank, len(a.combo.cards)))
        danger = any(s <= 3 for q, s in enumerate(view.hand_sizes) if q != view.player and q not in view.out)
        if danger and plays:
            return min(plays, key=lambda a: (a.combo.kind == "bomb", wild_count(a), a.combo.rank))
        for a in legal:
            if type(a) is Pass:
                return a
        return legal[0]


#: Haggis's strongest search agent (:func:`cardrules.agents.strong_agent`): the greedy
#: agent's choice is each node's first child, progressive widening bounds the hundreds of
#: leads, and no rollout is played (``cutoff=0``): the new node is rated by the fitted
#: evaluation of the hand (:mod:`cardrules.haggis.evaluation`, the hooks' evaluation);
#: 150 iterations stay near 100 ms a decision on a 2-core machine.
STRONG_CONFIG = SearchConfig(iterations=150, prior="greedy", widening=1.0, cutoff=0)
