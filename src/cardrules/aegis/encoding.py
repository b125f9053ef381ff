"""Aegis's integer actions and observations, for the OpenSpiel and PettingZoo adapters
(:mod:`cardrules.integrations`): the game's :class:`~cardrules.encoding.Encoding`, which
its ``GameDef`` hands to the adapters.  The machinery every encoding shares (chance card
by card, composite actions as token sequences, the observation blocks) is in
:mod:`cardrules.encoding`.

``aegis`` (110 ids)
    ``0..51`` add card ``c`` to the exchange being built (canonical order, each card at
    most once); ``52`` exchange the chosen cards (``Exchange(())``, "keep", when none);
    ``53..57`` ``Bid(1..5)``; ``58..109`` ``Play(c)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, get_args

from ..cards import canonical
from ..encoding import Block, Encoding
from .rules import Bid, Phase, Play

__all__ = ["AegisEncoding"]


class AegisEncoding(Encoding):
    """Aegis.  Ids: ``0..51`` choose a card to exchange, ``52`` exchange (or keep),
    ``53..57`` bids, ``58..109`` plays.

    **Game length.**  Every season scores at least one point (a break scores the
    attacker's bid, a keep gives the attacker's bid to the defender; bids are 1 or more).
    The game ends after the first season that leaves a player on ``target`` or more, so
    before the last season the two scores add up to at most ``2 (target - 1)``: at most
    ``2 target - 1`` seasons.  A season takes at most ``max_exchanges`` rounds of two
    exchanges of at most five cards (six tokens each), two bids and ten cards played.

    **Utilities.**  Scores start at 0 and never fall; a season gives one player at most
    ``5 + 1 + 1`` (bid, promise, conquest), and the last season starts with both below
    ``target``: the highest final score is ``target - 1 + 7``.

    **Observation layout** (:attr:`layout_version` 0; :meth:`layout`): the blocks of the
    tensor (``cardrules.integrations.tensors``), in order:
    ``player`` (2, one-hot), ``to_act`` (players, then chance, then nobody),
    ``phase`` (draw, deal, exchange, bid, play, over), ``role`` (master, slave,
    attacker, defender), ``master``, ``attacker``, ``leader`` (one-hot players),
    ``key`` (one-hot card), ``hand``, ``trick``, ``played`` (the cards of this
    season's finished tricks), ``discarded`` (card counts), ``hand_sizes``, ``bids``
    (0: none), ``tricks``, ``scores`` (two numbers each), ``stock_size``,
    ``exchanges``, ``pending`` (5), ``view``.
    """

    #: the observation layout's version: raised whenever blocks() changes (and the layout
    #: in the docstring with it)
    layout_version = 0
    EXCHANGE, BID, PLAY = 52, 53, 58

    @classmethod
    def _plain_default(cls, name: str, default: Any) -> Any:
        if name == "slave_exchange_limit":  # -1: no limit (None)
            return -1 if default is None else default
        return super()._plain_default(name, default)

    @classmethod
    def _rules_options(cls, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        limit = params.pop("slave_exchange_limit")
        return {**params, "slave_exchange_limit": None if limit < 0 else limit}, {}

    def _num_actions(self) -> int:
        return 110

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        kind = type(action).__name__
        if kind == "Exchange":
            return (*(self.card_id[c] for c in canonical(action.cards)), self.EXCHANGE)
        if kind == "Bid":
            return (self.BID + action.n - 1,)
        return (self.PLAY + self.card_id[action.card],)

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        cid, play, bid = self.card_id, self.PLAY, self.BID - 1
        return [
            play + cid[a.card] if type(a) is Play
            else bid + a.n if type(a) is Bid
            else ~cid[a.cards[0]] if a.cards
            else self.EXCHANGE
            for a in actions
        ]

    def _codes_at(self, state: Any, actions: Sequence[Any], k: int) -> list[int]:
        if not k:
            return self._heads(state, actions)
        cid, end = self.card_id, self.EXCHANGE  # beyond the first token: exchanges only
        return [~cid[a.cards[k]] if k < len(a.cards) else end for a in actions]

    def token_name(self, token: int) -> str:
        if token < 52:
            return f"+{self.cards[token]}"
        if token == self.EXCHANGE:
            return "exchange"
        if token < self.PLAY:
            return f"bid {token - self.BID + 1}"
        return f"play {self.cards[token - self.PLAY]}"

    def max_game_length(self) -> int:
        seasons = 2 * int(self.rules.target) - 1
        return seasons * (int(self.rules.max_exchanges) * 2 * 6 + 2 + 10)

    def utility_bounds(self) -> tuple[float, float]:
        return 0.0, float(self.rules.target - 1 + 7)

    def blocks(self) -> list[Block]:
        return [
            self.player_block("player"),
            self.to_act_block(),
            self.choice_block("phase", get_args(Phase)),
            self.choice_block("role", ("master", "slave", "attacker", "defender")),
            self.player_block("master"),
            self.player_block("attacker"),
            self.player_block("leader"),
            self.card_block("key"),
            self.cards_block("hand"),
            self.cards_block("trick"),
            self.cards_block("played", lambda v: [c for t in v.played for c in t.cards]),
            self.cards_block("discarded"),
            self.numbers_block("hand_sizes"),
            self.numbers_block("bids"),
            self.numbers_block("tricks"),
            self.numbers_block("scores"),
            self.number_block("stock_size"),
            self.number_block("exchanges"),
        ]

    def pending_size(self) -> int:
        return 5

    def view_size(self) -> int:  # seasons: 2 target - 1 at most, each about 40 numbers
        return 64 * (2 * int(self.rules.target) - 1) + 12 * len(self._first_deal()) + 256
