"""Gunsore states consistent with a player's view, for the search agents
(:mod:`cardrules.search`): what :func:`cardrules.gunsore.sample_state` draws from."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from ..cards import Card, canonical
from ..protocol import CHANCE
from ..sampling import check_total, deal, unseen
from .rules import STATE, Rules, State, View, game_deck


def state_sampler(view: View, rules: Rules | None) -> Callable[[Random], State]:
    """The unseen cards (the decks less the player's hand, the table and every card
    played) are worked out once; each draw deals them uniformly to the opponent's hand
    and the stock."""
    rules = rules if rules is not None else Rules()
    p = view.player
    pool: list[Card] = []
    if view.to_act is not CHANCE:
        pool = unseen(game_deck(rules.decks), view.hand, view.table, view.played)
    h, s = view.opponent_hand_size, view.stock_size
    check_total("gunsore", pool, (h, s))

    def draw(rng: Random) -> State:
        opp, stock = deal(rng, pool, (h, s))
        theirs = canonical(opp)
        hands = (view.hand, theirs) if p == 0 else (theirs, view.hand)
        return STATE.new(
            rules=rules, players=2, to_act=view.to_act, master=view.master, season=view.season,
            war_cause=view.war_cause, hands=hands, stock=tuple(stock), pools=view.pools, scores=view.scores,
            table=view.table, last_trick=view.last_trick, history=(), seed=None,
        )  # fmt: skip

    return draw
