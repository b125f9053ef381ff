"""The greedy Gunsore player: rules of thumb over a player's view, no search.

Gunsore's strongest search is :data:`STRONG_CONFIG`, given with the game in
:mod:`cardrules.gunsore` (:class:`~cardrules.SearchHooks`).  Of the components Gunsore
offers the search, this module holds its evaluation, the *outlook*, :func:`outlook`,
each player's chance of winning the game from the scores and the stock; the model of the
other player, a policy learned from the search's own games, is
:mod:`cardrules.gunsore.policy`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..agents import SeededAgent
from ..cards import JOKER, Card
from ..errors import CardRulesError
from ..search.config import SearchConfig
from ..tricks import TrickTable, builtin
from .rules import POINTS_DEVELOPMENT, POINTS_WAR, DeclareWar, Play, View


class GreedyAgent(SeededAgent):
    """A greedy Gunsore player: simple rules of thumb, no search.

    It sees only its :class:`View` and the legal actions, and assumes the shipped
    ``gunsore`` table and the default point tables (pass ``table=`` for another table).

    * **Development** (either seat): play the card that is worth the least in war,
      counting ``2 x war points + 8 for a face - development points``: aces first (11
      points now, nearly nothing in war), then faces, then low numbers; high numbers,
      which both score and win in war, are kept.
    * **Declaring war**: as master in development, when its pool leads by more than
      ``margin`` (25) points.
    * **War, master**: lead the card with the fewest war points (faces, then aces,
      then low numbers): a face wins against numbers without putting points at risk.
    * **War, slave**: win the trick with the cheapest winning card if it can,
      otherwise throw the card with the fewest war points.
    * **The joker** is never led or thrown away while another card is legal; the slave
      plays it in war when the swap leaves it ahead and either this is the season's
      last trick or the opponent's pool is more than ``margin`` ahead.

    Ties are broken by a seeded generator.  Measured against
    :class:`~cardrules.agents.RandomAgent` it wins about three games in four (see
    ``docs/games/gunsore.rst``); the rules of thumb were chosen by such measurements.
    """

    SEED_PREFIX = "gunsore-greedy"

    def __init__(self, seed: object = None, *, table: TrickTable | None = None, margin: int = 25) -> None:
        super().__init__(seed)
        self.table = table if table is not None else builtin("gunsore")
        self.margin = margin

    def _best(self, actions: Sequence[Play], key: Any) -> Play:
        """The action with the smallest ``key``; ties broken by the generator."""
        keyed = [(key(a), a) for a in actions]
        low = min(k for k, _ in keyed)
        choices = [a for k, a in keyed if k == low]
        return choices[self._rng.randrange(len(choices))]

    @staticmethod
    def _war_value(card: Card) -> int:
        return 2 * POINTS_WAR[card.rank] + (8 if card.rank >= 11 else 0) - POINTS_DEVELOPMENT[card.rank]

    def __call__(self, view: View, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise CardRulesError("GreedyAgent was asked to act with no legal action")
        plays = [a for a in legal_actions if isinstance(a, Play)]
        me, other = view.pools[view.player], view.pools[1 - view.player]
        jokers = [a for a in plays if a.card is JOKER]
        others = [a for a in plays if a.card is not JOKER]
        if not view.table and DeclareWar() in legal_actions and me - other > self.margin:
            return DeclareWar()
        if view.table and view.season == "war" and jokers:
            lead = view.table[0]
            last = view.opponent_hand_size == 0
            if other > me + POINTS_WAR[lead.rank] and (last or other - me > self.margin):
                return jokers[0]
        if not others:
            return plays[0]
        if view.season == "development":
            return self._best(others, lambda a: self._war_value(a.card))
        if not view.table:
            return self._best(others, lambda a: (POINTS_WAR[a.card.rank], a.card.rank < 11))
        lead = view.table[0]
        winning = [a for a in others if self.table.winner((lead, a.card)) == 1]
        if winning:
            return self._best(
                winning, lambda a: (POINTS_WAR[a.card.rank], a.card.rank == 1 or a.card.rank >= 11)
            )
        return self._best(others, lambda a: (POINTS_WAR[a.card.rank], a.card.rank < 11))


#: The spread of the final margin, per square root of the cards left to deal: from a
#: state with ``n`` cards in the stock the final margin (player 0's score minus player
#: 1's) is taken as normal around today's, with a standard deviation of
#: ``SPREAD * sqrt(n + 2)``.  The ``+ 2`` keeps the last season, dealt from an empty
#: stock, uncertain.  Measured in the search agents' own games by
#: ``benchmarks/fit_outlook.py`` (22 to 24 points pooled, about the same from a nearly empty
#: stock as from a full one, which is what makes the square root the right shape).
SPREAD = 24.0


def outlook(state: Any) -> list[float]:
    """Each player's chance of winning the game from ``state`` (the search's
    ``value="chance"``): the normal model of :data:`SPREAD` around today's margin.

    >>> from cardrules import gunsore
    >>> state = gunsore.new_game(seed=1)
    >>> outlook(state)
    [0.5, 0.5]
    """
    margin = state.scores[0] - state.scores[1]
    sd = SPREAD * math.sqrt(len(state.stock) + 2)
    win = 0.5 + 0.5 * math.erf(margin / (sd * math.sqrt(2.0)))
    return [win, 1.0 - win]


#: Gunsore's strongest search agent (:func:`cardrules.agents.strong_agent`): the greedy
#: agent's choice is each node's first child, progressive widening bounds the tree, the
#: opponent in the tree plays the rollout policy (:mod:`cardrules.gunsore.policy`), and a
#: hand is rewarded by each player's chance of winning the game after it (:func:`outlook`,
#: the hooks' evaluation); 500 iterations stay near 100 ms a decision on a 2-core machine.
STRONG_CONFIG = SearchConfig(iterations=500, prior="greedy", widening=1.0, value="chance", opponents="policy")
