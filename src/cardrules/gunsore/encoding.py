"""Gunsore's integer actions and observations, for the OpenSpiel and PettingZoo adapters
(:mod:`cardrules.integrations`): the game's :class:`~cardrules.encoding.Encoding`, which
its ``GameDef`` hands to the adapters.  The machinery every encoding shares (chance card
by card, composite actions as token sequences, the observation blocks) is in
:mod:`cardrules.encoding`.

``gunsore`` (54 ids with two decks)
    ``0..52`` ``Play(c)`` (52 cards then the joker); ``53`` ``DeclareWar()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, get_args

from ..cards import Card, canonical, two_decks
from ..encoding import Block, Encoding
from .rules import Play, Season, WarCause

__all__ = ["GunsoreEncoding"]


class GunsoreEncoding(Encoding):
    """Gunsore.  Ids: ``0..52`` play a card (the 52 cards, then the joker), ``53``
    declare war.

    **Game length.**  Every card of the decks is played exactly once (the game ends when
    the stock and both hands are empty): ``53 decks`` plays.  War is declared at most once
    a season and every season has at least one trick (two cards): at most ``53 decks / 2``
    declarations.

    **Utilities.**  Each card's points go once to one pool, and pools go to scores: a
    player's final score lies between the sum over every card of its lowest value
    (development or war, if negative) and the sum of its highest.

    **Observation layout** (:attr:`layout_version` 0; :meth:`layout`): the blocks of the
    tensor (``cardrules.integrations.tensors``), in order:
    ``player``, ``to_act``, ``season`` (development, war), ``war_cause`` (stuck,
    stock, declared), ``master``, ``hand``, ``table``, ``last_trick``, ``played``,
    ``scores``, ``pools``, ``stock_size``, ``opponent_hand_size``, ``pending`` (1),
    ``view``.
    """

    #: the observation layout's version: raised whenever blocks() changes (and the layout
    #: in the docstring with it)
    layout_version = 0

    def _alphabet(self) -> tuple[Card, ...]:
        return canonical(set(two_decks(jokers=1)))

    def _num_actions(self) -> int:
        return len(self.cards) + 1

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        if type(action).__name__ == "DeclareWar":
            return (len(self.cards),)
        return (self.card_id[action.card],)

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        cid, war = self.card_id, len(self.cards)
        return [cid[a.card] if type(a) is Play else war for a in actions]

    def token_name(self, token: int) -> str:
        return "declare war" if token == len(self.cards) else str(self.cards[token])

    def _deck(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards for _ in range(self.rules.decks))

    def max_game_length(self) -> int:
        n = len(self._deck())
        return n + n // 2

    def utility_bounds(self) -> tuple[float, float]:
        dev, war = self.rules.points_development, self.rules.points_war
        lo = hi = 0
        for card in self._deck():
            values = (dev[card.rank], war[card.rank])
            lo += min(0, *values)
            hi += max(0, *values)
        return float(lo), float(hi)

    def blocks(self) -> list[Block]:
        return [
            self.player_block("player"),
            self.to_act_block(),
            self.choice_block("season", get_args(Season)),
            self.choice_block("war_cause", get_args(WarCause)),
            self.player_block("master"),
            self.cards_block("hand"),
            self.cards_block("table"),
            self.cards_block("last_trick"),
            self.cards_block("played"),
            self.numbers_block("scores"),
            self.numbers_block("pools"),
            self.number_block("stock_size"),
            self.number_block("opponent_hand_size"),
        ]

    def view_size(self) -> int:
        return 10 * len(self._first_deal()) + 256
