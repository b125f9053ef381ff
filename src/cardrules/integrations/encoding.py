"""Integer actions for every cardrules game: what OpenSpiel and PettingZoo see.

Frameworks for game AI want each action to be a small integer that means the same thing
in every state, and want a chance node to be one random draw over a few outcomes.  The
cardrules API has richer actions (``Exchange(cards)``, Haggis combinations, Eleusis
strings) and shuffles the whole deck in one :class:`~cardrules.Shuffle`.  This module
bridges the two for the four games, once for both adapters, without depending on either
framework: each game's :class:`~cardrules.encoding.Encoding` subclass holds everything
the adapters know of it (its ids, its observation blocks, its OpenSpiel parameters and
how they become ``Rules``); the machinery they share is in :mod:`cardrules.encoding`.

**Chance, card by card.**  A cardrules chance node (a :class:`~cardrules.Shuffle` of
``n`` cards) becomes ``n`` chance nodes: each draws the next card of the order, uniformly
over the cards not yet drawn (equal cards of a two-deck game are one outcome with the
summed probability).  The outcome id is the card's index in the game's card alphabet
(:attr:`Encoding.cards`).  When the last card is drawn the ``Shuffle`` of the drawn order
is applied, so any stacked deal is reachable.

**Composite actions as token sequences.**  An action that chooses several cards is entered
as a short sequence of tokens by the same player: first the cards (each a token, in
canonical order where order does not matter), then a closing token.  Every token id has
one meaning in every state; the closing token's text is ``str(action)`` of the completed
action.  The encodings, per game:

``aegis`` (110 ids)
    ``0..51`` add card ``c`` to the exchange being built (canonical order, each card at
    most once); ``52`` exchange the chosen cards (``Exchange(())``, "keep", when none);
    ``53..57`` ``Bid(1..5)``; ``58..109`` ``Play(c)``.

``gunsore`` (54 ids with two decks)
    ``0..52`` ``Play(c)`` (52 cards then the joker); ``53`` ``DeclareWar()``.

``haggis`` (2 players: 87 ids; 3 players: 110)
    first the cards of a combination, one token each in canonical order (the number cards
    in play, then J, Q, K); then the declaration: ``set``, ``bomb``, or a sequence by
    width ``w`` and top rank ``t`` (``w = 1``: ``t`` 4..13; ``w >= 2``: ``t`` 3..13; ``w``
    up to the number of suits in play).  The cards and the declaration together are one
    ``Play(combo)`` (a combination is its kind, rank, width and cards).  Then ``Pass()``,
    one id per bet amount of the rules, and (3 players, ``bomb_trick="choose"``)
    ``GiveTrick(p)`` for each player.

``eleusis`` (58 ids)
    ``0..51`` a card: the next card of the string being played, or the card named by a
    ``Judge(False, card)``; ``52`` play the string (1 to ``max_string`` cards, in the order
    chosen); ``53`` ``NoPlay()``; ``54`` ``BecomeProphet()``; ``55`` ``Pass()``; ``56``
    ``Judge(True)``; ``57`` ``Judge(False)`` (for a no-play: followed by the card named
    right, ``Judge(False, card)``).

Only the Haggis combination and the Eleusis string encodings are needed to make the
number of ids small: a single id per combination would need one per subset of cards.

**Bounds.**  :meth:`Encoding.max_game_length` counts player decisions (tokens, not chance
draws) and is derived from the rules in each encoding's docstring.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter, invert, itemgetter
from typing import Any, get_args
from urllib.parse import unquote

from .. import aegis, eleusis, gunsore, haggis
from ..cards import Card, canonical, haggis_faces, haggis_number_cards, two_decks
from ..encoding import (
    ENCODINGS,
    Block,
    Encoding,
    Position,
    Tree,
    encoding_for,
    register_encoding,
)
from ..errors import CardRulesError
from ..protocol import CHANCE

__all__ = [
    "ENCODINGS",
    "AegisEncoding",
    "EleusisEncoding",
    "Encoding",
    "GunsoreEncoding",
    "HaggisEncoding",
    "Position",
    "Tree",
    "encoding_for",
]


# ------------------------------------------------------------------------------ aegis


@register_encoding
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
    """

    name = "aegis"
    params = {  # noqa: RUF012  (a ClassVar of Encoding)
        "players": 2,
        "target": 25,
        "margin": 10,
        "max_exchanges": 4,
        "new_master": "loser",
        "promise": "four_or_more",
        "slave_exchange_limit": -1,  # -1: no limit (None)
    }
    EXCHANGE, BID, PLAY = 52, 53, 58

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
        Play, Bid = aegis.Play, aegis.Bid
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
            self.choice_block("phase", get_args(aegis.Phase)),
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


# ---------------------------------------------------------------------------- gunsore


@register_encoding
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
    """

    name = "gunsore"
    params = {  # noqa: RUF012
        "players": 2,
        "declare_war": True,
        "war_when_stock_empty": True,
        "hand_size": 5,
        "decks": 2,
    }

    def _alphabet(self) -> tuple[Card, ...]:
        return canonical(set(two_decks(jokers=1)))

    def _num_actions(self) -> int:
        return len(self.cards) + 1

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        if type(action).__name__ == "DeclareWar":
            return (len(self.cards),)
        return (self.card_id[action.card],)

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        cid, war, Play = self.card_id, len(self.cards), gunsore.Play
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
            self.choice_block("season", get_args(gunsore.Season)),
            self.choice_block("war_cause", get_args(gunsore.WarCause)),
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


# ----------------------------------------------------------------------------- haggis


@register_encoding
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
    """

    name = "haggis"
    params = {  # noqa: RUF012
        "players": 2,
        "target": 250,
        "bomb_trick": "choose",
        "first_out_bonus": 0,
        "bets": "15 30",  # amounts separated by spaces; "" turns betting off
        "max_hands": 0,  # 0: derived from the rules (see the encoding)
    }
    _truncates = True
    extra_hands = 10
    _combo_cards = attrgetter("combo.cards")  # (no descriptor: the getter itself on self)

    def __init__(self, rules: Any, players: int, max_hands: int | None = None) -> None:
        super().__init__(rules, players)
        self.max_hands = max_hands if max_hands is not None else self.base_hands() + self.extra_hands

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
        Play, tokens = haggis.Play, self.tokens
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


# ---------------------------------------------------------------------------- eleusis


@register_encoding
class EleusisEncoding(Encoding):
    """New Eleusis.  Ids: ``0..51`` a card, ``52`` play the string chosen, ``53`` no
    play, ``54`` become prophet, ``55`` pass, ``56`` judge right, ``57`` judge wrong
    (then the card that was right).

    **Game length.**  Write ``S`` for the scientists, ``T``/``Tp`` for the sudden-death
    counts, ``m`` for ``max_string``.  A play (or a wrong no-play) counts at least one
    card, and the count never falls: outside sudden death there are at most
    ``N = T + S Tp`` of them (``T`` without a prophet, ``Tp`` per prophet, and each
    scientist is prophet at most once a round); each adds at most
    ``K = max(penalty m, no_play_penalty)`` cards to a hand, and each of at most ``S``
    overthrows adds ``overthrow_penalty``.  So scientists' hands never hold more than
    ``H = hand_size S + N K + S overthrow_penalty`` cards in all.  Every other turn
    removes a card from a hand (a right play, a correct no-play), expels a scientist, or
    overthrows a prophet: at most ``N + H + 2 S`` turns.  A turn takes at most ``m + 1``
    tokens, one prophet offer and two judging tokens.

    **Utilities.**  A scientist scores at most the high count (``H``) plus 4, and a
    prophet 2 per card played (at most ``m`` per turn); God scores no more than the best
    scientist.
    """

    name = "eleusis"
    params = {  # noqa: RUF012
        "players": 5,
        "secret": "card.color !%3D prev.color",  # the rule text; , ( ) = % written %2C %28 %29 %3D %25
        "hand_size": 14,
        "decks": 2,
        "sudden_death": 30,
        "sudden_death_prophet": 20,
        "penalty": 2,
        "no_play_penalty": 5,
        "no_play_shrink": 4,
        "overthrow_penalty": 5,
        "max_string": 4,
        "prophets": True,
    }
    END, NOPLAY, PROPHET, PASS, RIGHT, WRONG = 52, 53, 54, 55, 56, 57

    @classmethod
    def _rules_options(cls, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        return {**params, "secret": eleusis.compile_rule(unquote(str(params["secret"])))}, {}

    def _num_actions(self) -> int:
        return 58

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        kind = type(action).__name__
        if kind == "Play":
            return (*(self.card_id[c] for c in action.cards), self.END)
        if kind == "NoPlay":
            return (self.NOPLAY,)
        if kind == "BecomeProphet":
            return (self.PROPHET,)
        if kind == "Pass":
            return (self.PASS,)
        if action.right:
            return (self.RIGHT,)
        if action.card is None:  # a play judged wrong
            return (self.WRONG,)
        return (self.WRONG, self.card_id[action.card])

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        cid, Play, Judge, tokens = self.card_id, eleusis.Play, eleusis.Judge, self.tokens
        return [
            ~cid[a.cards[0]] if type(a) is Play
            else (self.RIGHT if a.right else self.WRONG if a.card is None else ~self.WRONG)
            if type(a) is Judge
            else tokens(state, a)[0]
            for a in actions
        ]

    def _pending_step(self, pos: Position) -> dict[int, Any] | None:
        """After the first card of a play: the string may go on (any card left in the
        hand, up to ``max_string``) or be played.  Worked out from the hand, where the
        tree would list every string."""
        pending = pos.pending
        if pending[0] >= self.END:
            return None
        play = eleusis.Play(tuple(map(self.cards.__getitem__, pending)))
        if len(pending) >= self.rules.max_string:
            return {self.END: play}
        state = pos.state
        left = sorted(map(self.card_id.__getitem__, state.hands[state.to_act]))
        for t in pending:
            if t not in left:
                return {}  # no prefix of a legal string
            left.remove(t)
        step: dict[int, Any] = dict.fromkeys(left)
        step[self.END] = play
        return step

    def token_name(self, token: int) -> str:
        if token < 52:
            return f"+{self.cards[token]}"
        return {52: "play", 53: "no play", 54: "become prophet", 55: "pass", 56: "judge right"}.get(
            token, "judge wrong"
        )

    def _bounds(self) -> tuple[int, int]:
        r = self.rules
        s = self.players - 1
        prophets = s if r.prophets else 0
        n = r.sudden_death + prophets * r.sudden_death_prophet
        k = max(r.penalty * r.max_string, r.no_play_penalty)
        h = r.hand_size * s + n * k + prophets * r.overthrow_penalty
        turns = n + h + 2 * s
        return turns, h

    def max_game_length(self) -> int:
        turns, _ = self._bounds()
        return int(turns * (self.rules.max_string + 1 + 1 + 2))

    def utility_bounds(self) -> tuple[float, float]:
        turns, h = self._bounds()
        return 0.0, float(h + 4 + 2 * self.rules.max_string * turns)

    def blocks(self) -> list[Block]:
        return [
            self.player_block("player"),
            self.to_act_block(),
            self.choice_block("phase", get_args(eleusis.Phase)),
            self.player_block("prophet"),
            self.players_block("expelled"),
            self.players_block("former_prophets"),
            self.cards_block("hand"),
            self.cards_block("main"),
            self.cards_block("sides", lambda v: [c for _, line in v.sides for c in line]),
            self.cards_block("shown"),
            self.numbers_block("hand_sizes"),
            self.numbers_block("scores"),
            self.number_block("turn"),
            self.number_block("stock_size"),
            self.number_block("count"),
            self.number_block("sudden_death_count"),
            self.number_block("in_sudden_death"),
        ]

    def pending_size(self) -> int:
        return max(2, int(self.rules.max_string))

    def view_size(self) -> int:
        r = self.rules
        return 10 * len(self._first_deal()) + 40 * self.players + 4 * len(str(r.secret)) + 256
