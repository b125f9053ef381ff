"""Haggis's integer actions and observations, for the OpenSpiel and PettingZoo adapters
(:mod:`cardrules.integrations`): the game's :class:`~cardrules.encoding.Encoding`, which
its ``GameDef`` hands to the adapters.  The machinery every encoding shares (chance card
by card, composite actions as token sequences, the observation blocks) is in
:mod:`cardrules.encoding`.

``haggis`` (2 players: 87 ids; 3 players: 110)
    first the cards of a combination, one token each in canonical order (the number cards
    in play, then J, Q, K); then the declaration: ``set``, ``bomb``, or a sequence by
    width ``w`` and top rank ``t`` (``w = 1``: ``t`` 4..13; ``w >= 2``: ``t`` 3..13; ``w``
    up to the number of suits in play).  The cards and the declaration together are one
    ``Play(combo)`` (a combination is its kind, rank, width and cards).  Then ``Pass()``,
    one id per bet amount of the rules, and (3 players, ``bomb_trick="choose"``)
    ``GiveTrick(p)`` for each player.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter, invert, itemgetter
from typing import Any

from ..cards import Card, haggis_faces, haggis_number_cards
from ..encoding import Block, Encoding
from ..errors import CardRulesError
from ..protocol import CHANCE
from .combos import Play

__all__ = ["HaggisEncoding"]


class HaggisEncoding(Encoding):
    """Haggis.  Ids: the cards of a combination (number cards in play, then J, Q, K),
    then ``set``, ``bomb``, the sequences by width and top rank, ``Pass()``, the bets,
    and (3 players choosing who takes a bombed trick) ``GiveTrick(p)``.

    **Game length.**  The rules let a tie at the top play another hand, again and again:
    a Haggis game has no length limit.  OpenSpiel needs one, so the adapter ends a game
    after ``max_hands`` hands (the ``max_hands`` parameter; by default the most hands a
    game without a tie at the top can take, plus ten).  That most: every hand hands out at
    least the points of all cards (``P``: 16 number points + 10 per player's faces with
    two players, 20 + 30 with three), scores never fall, and the game ends after the first
    hand that leaves a player strictly ahead on ``target`` or more: at most
    ``n (target - 1) // P + 1`` hands.  Within a hand at most ``17 n`` cards are played,
    in at most ``17 n`` combinations, each followed by at most ``n - 1`` passes and one
    ``GiveTrick``; each player bets at most once.

    **Utilities.**  A player gains at most ``G = P + 85 + n max(bets) + first_out_bonus``
    in a hand (every card's points, 5 per card of a 17-card hand, its bet and the others'
    lost bets); it has less than ``target`` before the hand in which someone reaches it.

    **Observation layout** (:attr:`layout_version` 0; :meth:`layout`): the blocks of the
    tensor (``cardrules.integrations.tensors``), in order:
    ``player``, ``to_act``, ``leader``, ``hand``, ``trick`` (the cards of the
    trick's combinations), ``captured`` and ``wilds`` (card counts per player),
    ``hand_sizes``, ``scores``, ``bets``, ``going_out``, ``last_hand`` (one number
    per player), ``out`` (players out, multi-hot), ``passes``, ``haggis_size``,
    ``hand_number``, ``giving``, ``pending`` (17), ``view``.
    """

    #: the observation layout's version: raised whenever blocks() changes (and the layout
    #: in the docstring with it)
    layout_version = 0
    extra_params = {"max_hands": 0}  # noqa: RUF012  (0: derived from the rules, see the encoding)
    _truncates = True
    extra_hands = 10
    _combo_cards = attrgetter("combo.cards")  # (no descriptor: the getter itself on self)

    def __init__(self, rules: Any, players: int, max_hands: int | None = None) -> None:
        super().__init__(rules, players)
        self.max_hands = max_hands if max_hands is not None else self.base_hands() + self.extra_hands

    @classmethod
    def _plain_default(cls, name: str, default: Any) -> Any:
        if name == "bets":  # amounts separated by spaces; "" turns betting off
            return " ".join(map(str, default))
        return super()._plain_default(name, default)

    @classmethod
    def _rules_options(cls, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        bets = params.pop("bets")
        try:
            params["bets"] = tuple(int(b) for b in str(bets).split())
        except ValueError:
            raise CardRulesError(f"haggis: bets must be amounts separated by spaces, not {bets!r}") from None
        hands = params.pop("max_hands")
        return params, {"max_hands": hands if hands > 0 else None}

    def _alphabet(self) -> tuple[Card, ...]:
        return (*haggis_number_cards(5 if self.players == 3 else 4), *haggis_faces())

    @property
    def width_max(self) -> int:
        return 5 if self.players == 3 else 4

    def _num_actions(self) -> int:
        a = len(self.cards)
        self.SET, self.BOMB = a, a + 1
        self.seq: dict[tuple[int, int], int] = {}
        i = a + 2
        for w in range(1, self.width_max + 1):
            for top in range(4 if w == 1 else 3, 14):
                self.seq[w, top] = i
                i += 1
        self.seq_name = {v: k for k, v in self.seq.items()}
        self.PASS = i
        self.bet_id = {amount: i + 1 + k for k, amount in enumerate(self.rules.bets)}
        i += 1 + len(self.rules.bets)
        self.GIVE = i
        if self.players == 3 and self.rules.bomb_trick == "choose":
            i += self.players
        return i

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        kind = type(action).__name__
        if kind == "Play":
            combo = action.combo
            return (*map(self.card_id.__getitem__, combo.cards), self._declaration(combo))
        if kind == "Pass":
            return (self.PASS,)
        if kind == "Bet":
            return (self.bet_id[action.amount],)
        return (self.GIVE + action.player,)

    def _codes_at(self, state: Any, actions: Sequence[Any], k: int) -> list[int]:
        if not k:
            return self._heads(state, actions)
        cid, last = self.card_id, self._declaration  # beyond the first token: plays only
        return [~cid[c[k]] if k < len(c) else last(a.combo) for a in actions for c in (a.combo.cards,)]

    def _declaration(self, combo: Any) -> int:
        kind = combo.kind
        if kind == "set":
            return self.SET
        return self.BOMB if kind == "bomb" else self.seq[combo.width, combo.rank]

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        tokens = self.tokens
        kinds = list(map(type, actions))
        n = kinds.count(Play)
        if kinds[:n].count(Play) == n:  # the plays first (as legal_actions lists them): C loops
            firsts = map(itemgetter(0), map(self._combo_cards, actions[:n]))
            heads = list(map(invert, map(self.card_id.__getitem__, firsts)))
            return heads + [tokens(state, a)[0] for a in actions[n:]]
        cid = self.card_id
        return [~cid[a.combo.cards[0]] if type(a) is Play else tokens(state, a)[0] for a in actions]

    def token_name(self, token: int) -> str:
        if token < len(self.cards):
            return f"+{self.cards[token]}"
        if token == self.SET:
            return "as a set"
        if token == self.BOMB:
            return "as a bomb"
        if token in self.seq_name:
            w, top = self.seq_name[token]
            return f"as a sequence of width {w} to {top}"
        if token == self.PASS:
            return "pass"
        for amount, i in self.bet_id.items():
            if i == token:
                return f"bet {amount}"
        return f"give the trick to player {token - self.GIVE}"

    def card_points(self) -> int:
        numbers = sum(1 for c in self.cards if c.suit is not None and c.rank in (3, 5, 7, 9))
        return int(numbers + 10 * self.players)

    def base_hands(self) -> int:
        return int(self.players * (self.rules.target - 1) // self.card_points() + 1)

    def max_game_length(self) -> int:
        n = self.players
        cards = 17 * n
        per_hand = cards + cards * (1 + (n - 1) + 1) + n
        return int(self.max_hands * per_hand)

    def utility_bounds(self) -> tuple[float, float]:
        n = self.players
        gain = self.card_points() + 5 * 17 + n * max(self.rules.bets, default=0) + self.rules.first_out_bonus
        hands_after = max(1, self.max_hands - self.base_hands() + 1)
        return 0.0, float(self.rules.target - 1 + hands_after * gain)

    def truncated(self, state: Any) -> bool:
        return bool(state.hand_number >= self.max_hands and state.to_act is CHANCE and not state.is_over)

    def blocks(self) -> list[Block]:
        return [
            self.player_block("player"),
            self.to_act_block(),
            self.player_block("leader"),
            self.cards_block("hand"),
            self.cards_block("trick", lambda v: [c for _, combo in v.trick for c in combo.cards]),
            self.player_cards_block("captured"),
            self.player_cards_block("wilds"),
            self.numbers_block("hand_sizes"),
            self.numbers_block("scores"),
            self.numbers_block("bets"),
            self.numbers_block("going_out"),
            self.numbers_block("last_hand"),
            self.players_block("out"),
            self.number_block("passes"),
            self.number_block("haggis_size"),
            self.number_block("hand_number"),
            self.number_block("giving"),
        ]

    def pending_size(self) -> int:
        return 17

    def view_size(self) -> int:  # a combination holds a card at least; per combination ~30 numbers
        return 40 * len(self._first_deal()) + 512 + 20 * self.players
