"""Aegis (イージス): a two-player bidding trick-taking game with a key card.

The rules are those of the author's own manual (「イージス/説明書」 by 永施 誠, Stardust
Crown, revised up to 2002-12-21); the Aegis page of the documentation tells them in
English and lists every decision taken where the manual is silent.

A season in brief: a chance :class:`~cardrules.Shuffle` deals the **key card** and five
cards each; the master may exchange up to four times (the slave only after the master
did); both bid a *norma* bounded by the exchange count; the higher bidder attacks; five
tricks with must-follow, each resolved by the ``aegis`` trick table; Break, Keep,
Conquest, Promise and Save score the season.  The game ends at a 10-point lead or 25
points.

>>> from cardrules import aegis
>>> state = aegis.new_game(seed=7)
>>> state.phase, state.to_act == state.master
('exchange', True)
>>> len(aegis.legal_actions(state))         # stop, or exchange any of 31 subsets
32
>>> state = aegis.apply(state, aegis.Exchange(()))      # the master stops at once
>>> [str(a) for a in aegis.legal_actions(state)]
['bid 1', 'bid 2', 'bid 3', 'bid 4', 'bid 5']
"""

from __future__ import annotations

import operator
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from itertools import chain, combinations
from random import Random
from typing import Any, Final, Literal

import attrs

from ._hotloops import IMPLEMENTATION, subset_objects
from ._records import maker
from .cards import Card, Suit, parse_card, parse_cards, standard_deck
from .errors import CardRulesError, IllegalActionError, RulesError
from .protocol import CHANCE, GameDef, Shuffle, _Chance
from .tricks import TrickTable, builtin

__all__ = [
    "GAME",
    "Bid",
    "Evaluation",
    "Exchange",
    "GreedyAgent",
    "Play",
    "Rules",
    "Season",
    "State",
    "Trick",
    "View",
    "apply",
    "chance_cards",
    "describe",
    "describe_for",
    "draw_beats",
    "evaluate",
    "legal_actions",
    "new_game",
    "replay",
    "summary",
    "view",
]

#: Tricks in a season (five cards each).
TRICKS: Final = 5
#: Cards dealt to each player.
HAND_SIZE: Final = 5
#: The most rounds of exchange the manual allows (``Rules.max_exchanges`` is 0..4).
MAX_EXCHANGES: Final = 4

_DECK: Final = standard_deck()
_INDEX = operator.attrgetter("index")
_SUIT = operator.attrgetter("suit")
_WINNER = operator.attrgetter("winner")


# ---------------------------------------------------------------------------------------
# Rules


def _int_in(name: str, lo: int, hi: int | None) -> Any:
    def check(instance: object, attribute: object, value: object) -> None:
        if type(value) is not int or value < lo or (hi is not None and value > hi):
            span = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
            raise RulesError(f"aegis: {name} must be a whole number {span}, not {value!r}")

    return check


def _one_of(name: str, *choices: str) -> Any:
    def check(instance: object, attribute: object, value: object) -> None:
        if value not in choices or type(value) is not str:
            raise RulesError(f"aegis: {name} must be one of {', '.join(map(repr, choices))}, not {value!r}")

    return check


def _check_limit(instance: object, attribute: object, value: Any) -> None:
    if value is not None and (type(value) is not int or not 0 <= value <= MAX_EXCHANGES):
        raise RulesError(
            f"aegis: slave_exchange_limit must be None (no limit) or a whole number from 0 to "
            f"{MAX_EXCHANGES}, not {value!r}"
        )


def _check_table(instance: object, attribute: object, value: Any) -> None:
    if not isinstance(value, TrickTable):
        raise RulesError(
            f"aegis: table must be a TrickTable (e.g. cardrules.tricks.builtin('aegis')), not {value!r}"
        )


_DEFAULT_TABLE: Final = builtin("aegis")


@attrs.frozen
class Rules:
    """The options of a game of Aegis; ``Rules()`` is the game of the 2002-12-21 manual.

    Each option is a rule the manual itself records as changed (older rules are the
    variants):

    ``target`` (25; was 50)
        a player with this many points or more ends the game.
    ``margin`` (10)
        a lead of this many points or more ends the game.
    ``max_exchanges`` (4, from 0 to 4)
        the most exchange rounds in a season (at 4 exchanges the master must bid 5).
    ``new_master`` (``"loser"``; was ``"winner"``)
        which side of a season becomes the next master.
    ``promise`` (``"four_or_more"``; was ``"exact"``)
        the attacker's +1 on a break: for a bid of 4 or more, or (old rule) for taking
        exactly the bid.
    ``slave_exchange_limit`` (``None``; the 2003 proposal is 3)
        the most rounds in which the slave may exchange; a round counts when the slave
        exchanged at least one card, and at the limit its turns are skipped.
    ``table`` (the shipped ``aegis`` table)
        the trick table that decides every trick (:mod:`cardrules.tricks`); called as
        ``table.winner(cards, key=key_card)``.

    >>> Rules(target=50).target
    50
    >>> Rules(max_exchanges=5)
    Traceback (most recent call last):
    ...
    cardrules.errors.RulesError: aegis: max_exchanges must be a whole number from 0 to 4, not 5
    """

    target: int = attrs.field(default=25, validator=_int_in("target", 1, None))
    margin: int = attrs.field(default=10, validator=_int_in("margin", 1, None))
    max_exchanges: int = attrs.field(default=4, validator=_int_in("max_exchanges", 0, MAX_EXCHANGES))
    new_master: Literal["loser", "winner"] = attrs.field(
        default="loser", validator=_one_of("new_master", "loser", "winner")
    )
    promise: Literal["four_or_more", "exact"] = attrs.field(
        default="four_or_more", validator=_one_of("promise", "four_or_more", "exact")
    )
    slave_exchange_limit: int | None = attrs.field(default=None, validator=_check_limit)
    table: TrickTable = attrs.field(default=_DEFAULT_TABLE, validator=_check_table)


# ---------------------------------------------------------------------------------------
# Actions


def _exchange_cards(cards: Iterable[Card] | Card | str) -> tuple[Card, ...]:
    """Exchange's converter: any iterable of cards (or card text), kept in canonical
    order, so that the same cards named in any order are the same action."""
    if isinstance(cards, str):
        return tuple(sorted(parse_cards(cards), key=_INDEX))
    if isinstance(cards, Card):
        return (cards,)
    try:
        t: tuple[Any, ...] = tuple(cards)
    except TypeError:
        raise IllegalActionError(f"Exchange takes a tuple of cards, not {cards!r}") from None
    if all(type(c) is Card for c in t):
        return tuple(sorted(t, key=_INDEX))
    if t and all(isinstance(c, str) for c in t):  # ("7H", "2S")
        return tuple(sorted(map(parse_card, t), key=_INDEX))
    return t  # not all cards: apply() refuses it, saying which


def _to_card(card: Card | str) -> Card:
    if isinstance(card, str):
        return parse_card(card)
    return card


@attrs.frozen
class Exchange:
    """Discard ``cards`` (out of play) and draw as many from the stock.

    The master's ``Exchange(())`` stops the exchanges; the slave's ``Exchange(())``
    keeps its hand for this round.  The cards may be given in any order, as cards or as
    text (``Exchange("7H 2S")``, ``Exchange(["7H", "2S"])``); they are kept in canonical
    order, so equal sets of cards are equal actions.

    >>> Exchange(parse_cards("7H 2S")) == Exchange("2S 7H")
    True
    >>> str(Exchange("7H 2S")), str(Exchange(()))
    ('exchange 2S 7H', 'keep')
    """

    cards: tuple[Card, ...] = attrs.field(converter=_exchange_cards)

    def __str__(self) -> str:
        return "exchange " + " ".join(map(str, self.cards)) if self.cards else "keep"


@attrs.frozen
class Bid:
    """Declare a norma: to take at least ``n`` of the five tricks."""

    n: int

    def __str__(self) -> str:
        return f"bid {self.n}"


@attrs.frozen
class Play:
    """Play ``card`` to the trick (``Play("7H")`` reads the card from text)."""

    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return str(self.card)


# Interned actions (building action objects dominates random play).
# An exchange's cards are canonical (its converter sorts them): the exchanges of a
# canonical hand's subsets, taken in ``itertools.combinations``' order, are canonical
# already, so the converter would return them unchanged.  They are made straight into
# their slot (cheaper than the constructor by a factor of ten; 16 of a decision's 32
# exchanges are new objects), and the tests check ``Exchange(a.cards) == a`` for every
# exchange ``legal_actions`` gives.
_NEW = object.__new__
_SET_CARDS = Exchange.__dict__["cards"].__set__
_KEEP: Final = Exchange(())
_BIDS: Final = tuple(Bid(n) for n in range(1, TRICKS + 1))
_PLAYS: Final = {c: Play(c) for c in _DECK}
_PLAY_OF = _PLAYS.__getitem__
_FRESH_TYPES: Final = (Exchange,) * 16  # a hand's 10 + 5 + 1 subsets of 3, 4 and 5 cards


def _exchange_of(cards: tuple[Card, ...]) -> Exchange:
    """``Exchange(cards)`` for canonical ``cards`` (the constructor: interned once)."""
    return Exchange(cards)


# Interned exchanges of one and two cards (52 + 1,326 actions, about 150 kB, built at
# import).  Measured in random playouts, finding these by their card tuple is cheaper
# than making them; interning the 22,100 three-card exchanges as well was not (the
# lookups then miss the processor's caches and cost as much as new objects).
_SINGLE_OF = {c: _exchange_of((c,)) for c in _DECK}.__getitem__
_PAIR_OF = {cards: _exchange_of(cards) for cards in combinations(_DECK, 2)}.__getitem__


def _exchange_actions_py(hand: tuple[Card, ...]) -> tuple[Exchange, ...]:
    """``Exchange(())`` then every non-empty subset of the (canonical) hand, by size then
    lexicographically, so every subset is canonical already.

    This is the hot spot of random play.  The exchanges of one and two cards are the
    interned ones above, found in C loops (``map``); the 16 larger ones are made in C
    loops too, straight into their slot (the converter has nothing to do here).
    """
    fresh = list(map(_NEW, _FRESH_TYPES))
    subsets = chain(combinations(hand, 3), combinations(hand, 4), (hand,))
    deque(map(_SET_CARDS, fresh, subsets), 0)
    return (_KEEP, *map(_SINGLE_OF, hand), *map(_PAIR_OF, combinations(hand, 2)), *fresh)


# The same actions from the C loop of cardrules._speedups when it was compiled: the
# empty, one- and two-card exchanges are the interned ones, the others made in C.
_SMALL_EXCHANGES: Final[dict[tuple[Card, ...], Exchange]] = {
    (): _KEEP,
    **{(c,): _SINGLE_OF(c) for c in _DECK},
    **{pair: _PAIR_OF(pair) for pair in combinations(_DECK, 2)},
}


def _exchange_actions_c(hand: tuple[Card, ...]) -> tuple[Exchange, ...]:
    return subset_objects(hand, Exchange, "cards", _SMALL_EXCHANGES, 2)


#: Every legal exchange for a hand, in the order of :func:`legal_actions`.
_exchange_actions: Final = _exchange_actions_c if IMPLEMENTATION == "C" else _exchange_actions_py


# ---------------------------------------------------------------------------------------
# Records


@attrs.frozen
class Trick:
    """A finished trick: who led, the two cards (the lead first) and who took it."""

    leader: int
    cards: tuple[Card, Card]
    winner: int


@attrs.frozen
class Season:
    """The record of a scored season (public information).

    ``outcome`` is ``"break"`` (the attacker took at least its bid) or ``"keep"``;
    ``winner`` is the attacker on a break, the defender on a keep; ``points`` what each
    player scored; ``save``, ``conquest`` and ``promise`` say which bonuses applied.
    """

    master: int
    key: Card
    exchanges: int
    bids: tuple[int, int]
    attacker: int
    tricks: tuple[int, int]
    outcome: Literal["break", "keep"]
    winner: int
    save: bool
    conquest: bool
    promise: bool
    points: tuple[int, int]

    @property
    def defender(self) -> int:
        """The player who was not the attacker."""
        return 1 - self.attacker


Phase = Literal["draw", "deal", "exchange", "bid", "play", "over"]


@attrs.frozen
class State:
    """The whole truth of a game of Aegis (see :mod:`cardrules.protocol`).

    ``phase`` is ``"draw"`` (chance: the first-master draw), ``"deal"`` (chance: a
    season's deal), ``"exchange"``, ``"bid"``, ``"play"`` or ``"over"``.  Players are
    ``0`` and ``1``; ``hands``, ``drawn`` and ``bids`` are indexed by player.
    ``drawn[p]`` holds how many cards ``p`` drew in each exchange round (the slave's
    entry is 0 when it kept its hand or its turn was skipped); ``trick`` holds the card
    led to the current trick, if any, led by ``leader``; ``played`` the season's finished
    tricks; ``seasons`` the scored seasons.
    """

    rules: Rules
    players: int
    phase: Phase
    master: int | None
    key: Card | None
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    stock: tuple[Card, ...]
    discards: tuple[Card, ...]
    drawn: tuple[tuple[int, ...], tuple[int, ...]]
    bids: tuple[int | None, int | None]
    leader: int | None
    trick: tuple[Card, ...]
    played: tuple[Trick, ...]
    scores: tuple[int, int]
    seasons: tuple[Season, ...]
    to_act: int | _Chance | None
    history: tuple[Any, ...] = attrs.field(repr=False)
    seed: object = attrs.field(default=None, eq=False)

    @property
    def is_over(self) -> bool:
        """True once the game (not just a season) is over."""
        return self.phase == "over"

    @property
    def winners(self) -> tuple[int, ...]:
        """``(winner,)`` at the end: the higher score, or on equal scores (both at the
        target or more) the winner of the last season; ``()`` before."""
        if self.phase != "over":
            return ()
        s0, s1 = self.scores
        if s0 != s1:
            return (0,) if s0 > s1 else (1,)
        return (self.seasons[-1].winner,)

    @property
    def slave(self) -> int | None:
        """The player who is not the master (``None`` before the first draw)."""
        return None if self.master is None else 1 - self.master

    @property
    def exchanges(self) -> int:
        """The exchange count of the season: rounds in which the master exchanged."""
        return 0 if self.master is None else len(self.drawn[self.master])

    @property
    def attacker(self) -> int | None:
        """The higher bidder (the master on equal bids), once both have bid."""
        return _attacker(self.master, self.bids)

    @property
    def defender(self) -> int | None:
        """The player who is not the attacker, once both have bid."""
        a = self.attacker
        return None if a is None else 1 - a

    @property
    def tricks(self) -> tuple[int, int]:
        """Tricks taken by each player in this season so far."""
        won1 = sum(t.winner for t in self.played)
        return (len(self.played) - won1, won1)

    @property
    def season_number(self) -> int:
        """1 for the first season (the one being played, or about to be dealt)."""
        return len(self.seasons) + (0 if self.phase == "over" else 1)


# The game functions make a State per step, naming the fields they set (see
# cardrules._records: the constructor, or the same object from the C record maker).
_STATE: Final = maker(State)
_TRICK: Final = maker(Trick)
_SEASON: Final = maker(Season)


def _attacker(master: int | None, bids: tuple[int | None, int | None]) -> int | None:
    if master is None:
        return None
    n, m = bids[master], bids[1 - master]
    if n is None or m is None:
        return None
    return 1 - master if m > n else master


# ---------------------------------------------------------------------------------------
# The first-master draw

_GROUP = {1: 0, **{r: 1 for r in (11, 12, 13)}, **{r: 2 for r in range(2, 11)}}  # ace, face, number
#: wind > fire > water > earth = spades > clubs > hearts > diamonds
_ELEMENT = {Suit.SPADES: 4, Suit.CLUBS: 3, Suit.HEARTS: 2, Suit.DIAMONDS: 1}


def draw_beats(a: Card, b: Card) -> bool:
    """Whether card ``a`` beats card ``b`` in the first-master draw: by rank in the
    ``cycle3`` order (aces beat faces, faces beat numbers, numbers beat aces; K > Q > J;
    higher numbers win), then, on the same rank, by suit: wind (spades) > fire (clubs) >
    water (hearts) > earth (diamonds).  This comparison is only for the draw; tricks are
    decided by :attr:`Rules.table`.

    >>> draw_beats(parse_card("AS"), parse_card("KH")), draw_beats(parse_card("2D"), parse_card("AS"))
    (True, True)
    >>> draw_beats(parse_card("7C"), parse_card("7S"))
    False
    """
    if a.rank != b.rank:
        ga, gb = _GROUP[a.rank], _GROUP[b.rank]
        if ga == gb:
            return a.rank > b.rank
        return (gb - ga) % 3 == 1
    return _ELEMENT[a.suit] > _ELEMENT[b.suit]  # type: ignore[index]


# ---------------------------------------------------------------------------------------
# The game functions handed to GameDef


def _start(rules: Rules, players: int) -> State:
    return _STATE.new(
        rules=rules, players=2, phase="draw", master=None, key=None, hands=((), ()), stock=(),
        discards=(), drawn=((), ()), bids=(None, None), leader=None, trick=(), played=(),
        scores=(0, 0), seasons=(), to_act=CHANCE, history=(),
    )  # fmt: skip


def _chance_cards(state: State) -> tuple[Card, ...]:
    return _DECK


def _deal(state: State, shuffle: Shuffle) -> State:
    order = shuffle.order
    history = (*state.history, shuffle)
    if state.phase == "draw":
        first = 0 if draw_beats(order[0], order[1]) else 1
        return _STATE.replace(state, phase="deal", master=first, history=history)
    master = state.master
    assert master is not None
    to_master = tuple(sorted(order[1 : 2 * HAND_SIZE : 2], key=_INDEX))
    to_slave = tuple(sorted(order[2 : 2 * HAND_SIZE + 1 : 2], key=_INDEX))
    hands = (to_master, to_slave) if master == 0 else (to_slave, to_master)
    phase: Phase = "exchange" if state.rules.max_exchanges > 0 else "bid"
    return _STATE.replace(  # a new season: nothing of the last one's play is left
        state, phase=phase, key=order[0], hands=hands, stock=order[2 * HAND_SIZE + 1 :], discards=(),
        drawn=((), ()), bids=(None, None), leader=None, trick=(), played=(), to_act=master,
        history=history,
    )  # fmt: skip


def _lowest_bid(state: State) -> int:
    master = state.master
    assert master is not None
    if state.to_act == master:
        return 1 + len(state.drawn[master])
    n = state.bids[master]
    assert n is not None
    return n


def _role(state: State, player: int) -> str:
    if state.phase == "play" or (state.phase == "over" and state.bids[0] is not None):
        return "attacker" if player == state.attacker else "defender"
    return "master" if player == state.master else "slave"


_PHASE_ACTION = {"exchange": "exchange cards or stop", "bid": "bid", "play": "play a card"}


def _wrong_kind(state: State, action: object) -> IllegalActionError:
    what = {Exchange: "exchange", Bid: "bid", Play: "play a card"}.get(type(action))
    if what is None:
        return IllegalActionError(
            f"{action!r} is not an Aegis action (Exchange(cards), Bid(n) or Play(card))"
        )
    if state.phase == "exchange" and state.to_act == state.slave:
        now = "exchange cards or keep your hand (Exchange(()))"
    else:
        now = _PHASE_ACTION[state.phase]
    return IllegalActionError(f"you cannot {what} now: it is time to {now}")


def _step(state: State, action: Any) -> State:
    # The step functions take their own kind of action only (the public apply dispatches
    # the same way, inline).
    phase = state.phase
    if phase == "play" and type(action) is Play:
        return _step_play(state, action)
    if phase == "exchange" and type(action) is Exchange:
        return _step_exchange(state, action)
    if phase == "bid" and type(action) is Bid:
        return _step_bid(state, action)
    if phase in _PHASE_ACTION:
        raise _wrong_kind(state, action)
    raise IllegalActionError("the game is over")


def _step_exchange(state: State, action: Exchange) -> State:
    p: int = state.to_act  # type: ignore[assignment]
    master: int = state.master  # type: ignore[assignment]
    cards = action.cards
    history = state.history + (action,)  # noqa: RUF005 - faster than (*history, action)
    if not cards and p == master:  # the master stops: on to the bids
        return _STATE.replace(state, phase="bid", to_act=master, history=history)
    hands = state.hands
    stock = state.stock
    discards = state.discards
    k = len(cards)
    if k:
        hand = hands[p]
        kept = [c for c in hand if c not in cards]
        if len(kept) + k != HAND_SIZE:  # a card not held, or one named twice
            raise _bad_exchange(cards, hand)
        kept += stock[:k]
        kept.sort(key=_INDEX)
        new_hand = tuple(kept)
        hands = (new_hand, hands[1]) if p == 0 else (hands[0], new_hand)
        stock = stock[k:]
        discards += cards
    drawn = state.drawn
    rules = state.rules
    mine = drawn[p] + (k,)
    drawn = (mine, drawn[1]) if p == 0 else (drawn[0], mine)
    to_act = master
    if p == master:
        slave = 1 - master
        limit = rules.slave_exchange_limit
        if limit is None or sum(1 for d in drawn[slave] if d) < limit:
            to_act = slave
        else:  # the slave has used its rounds: its turn is skipped (drew 0)
            skipped = (*drawn[slave], 0)
            drawn = (drawn[0], skipped) if slave == 1 else (skipped, drawn[1])
    phase: Phase = "bid" if to_act == master and len(drawn[master]) >= rules.max_exchanges else "exchange"
    return _STATE.replace(
        state, phase=phase, hands=hands, stock=stock, discards=discards, drawn=drawn, to_act=to_act,
        history=history,
    )  # fmt: skip


def _bad_exchange(cards: tuple[Any, ...], hand: tuple[Card, ...]) -> IllegalActionError:
    for i, c in enumerate(cards):
        if type(c) is not Card:
            return IllegalActionError(f"Exchange takes cards: {c!r} is not a card")
        if c not in hand:
            return IllegalActionError(f"you cannot exchange {c}: you do not hold it")
        if c in cards[i + 1 :]:
            return IllegalActionError(f"you named {c} twice")
    raise AssertionError("unreachable")  # pragma: no cover


def _step_bid(state: State, action: Bid) -> State:
    n = action.n
    p: int = state.to_act  # type: ignore[assignment]
    master: int = state.master  # type: ignore[assignment]
    if type(n) is not int:
        raise IllegalActionError(f"a bid is a whole number of tricks from 1 to {TRICKS}, not {n!r}")
    if p == master:
        count = len(state.drawn[master])
        if n < 1 + count:
            rounds = "exchange" if count == 1 else "exchanges"
            raise IllegalActionError(f"bid at least {1 + count} after {count} {rounds}")
    else:
        lo: int = state.bids[master]  # type: ignore[assignment]
        if n < lo:
            raise IllegalActionError(f"bid at least {lo}: the master bid {lo}")
    if n > TRICKS:
        raise IllegalActionError(f"bid at most {TRICKS}: a season has only {TRICKS} tricks")
    bids = (n, state.bids[1]) if p == 0 else (state.bids[0], n)
    history = (*state.history, action)
    if p == master:
        return _STATE.replace(state, phase="bid", bids=bids, to_act=1 - master, history=history)
    attacker = p if n > bids[master] else master  # type: ignore[operator]
    return _STATE.replace(
        state, phase="play", bids=bids, leader=attacker, to_act=attacker, history=history
    )


def _step_play(state: State, action: Play) -> State:
    card = action.card
    p: int = state.to_act  # type: ignore[assignment]
    hands = state.hands
    hand = hands[p]
    try:
        i = hand.index(card)
    except ValueError:
        if type(card) is not Card:
            raise IllegalActionError(f"Play takes a card: {card!r} is not a card") from None
        raise IllegalActionError(f"you cannot play {card}: you do not hold it") from None
    trick = state.trick
    if trick:
        suit = trick[0].suit
        if card.suit is not suit and suit in map(_SUIT, hand):
            follow = " ".join(str(c) for c in hand if c.suit is suit)
            raise IllegalActionError("must follow suit: you hold " + follow)
    new_hand = hand[:i] + hand[i + 1 :]
    hands = (new_hand, hands[1]) if p == 0 else (hands[0], new_hand)
    history = state.history + (action,)  # noqa: RUF005 - faster than (*history, action)
    if not trick:
        return _STATE.replace(state, hands=hands, leader=p, trick=(card,), to_act=1 - p, history=history)
    leader: int = state.leader  # type: ignore[assignment]
    cards = (trick[0], card)
    winner = leader if state.rules.table.winner(cards, key=state.key) == 0 else p
    played = state.played + (_TRICK.new(leader=leader, cards=cards, winner=winner),)  # noqa: RUF005 - as history
    if len(played) < TRICKS:
        return _STATE.replace(
            state, hands=hands, leader=winner, trick=(), played=played, to_act=winner, history=history
        )
    return _end_season(state, hands, played, history)


def _score(
    rules: Rules, master: int, key: Card, exchanges: int, bids: tuple[int, int], played: tuple[Trick, ...]
) -> Season:
    """Score a finished season as the manual scores it: Break or Keep, then Save, Promise and
    Conquest, all adding up."""
    won1 = sum(map(_WINNER, played))
    tricks = (len(played) - won1, won1)
    attacker = 1 - master if bids[1 - master] > bids[master] else master
    defender = 1 - attacker
    a_bid, d_bid = bids[attacker], bids[defender]
    points = [0, 0]
    save = promise = False
    if tricks[attacker] >= a_bid:
        outcome: Literal["break", "keep"] = "break"
        winner = attacker
        points[attacker] += a_bid
        # the 2002-12-21 rule: a bid of four or more; the old rule: exactly the bid
        promise = a_bid >= 4 if rules.promise == "four_or_more" else tricks[attacker] == a_bid
        points[attacker] += promise
        save = tricks[defender] >= d_bid
        if save:
            points[defender] += d_bid
    else:
        outcome = "keep"
        winner = defender
        points[defender] += a_bid
    conquest = tricks[winner] == TRICKS
    points[winner] += conquest
    return _SEASON.new(
        master=master, key=key, exchanges=exchanges, bids=bids, attacker=attacker, tricks=tricks,
        outcome=outcome, winner=winner, save=save, conquest=conquest, promise=promise,
        points=(points[0], points[1]),
    )


def _end_season(
    state: State,
    hands: tuple[tuple[Card, ...], tuple[Card, ...]],
    played: tuple[Trick, ...],
    history: tuple[Any, ...],
) -> State:
    rules = state.rules
    master: int = state.master  # type: ignore[assignment]
    key: Card = state.key  # type: ignore[assignment]
    bids: tuple[int, int] = state.bids  # type: ignore[assignment]
    season = _score(rules, master, key, len(state.drawn[master]), bids, played)
    s0, s1 = state.scores[0] + season.points[0], state.scores[1] + season.points[1]
    seasons = (*state.seasons, season)
    if abs(s0 - s1) >= rules.margin or max(s0, s1) >= rules.target:
        return _STATE.replace(
            state, phase="over", hands=hands, leader=None, trick=(), played=played, scores=(s0, s1),
            seasons=seasons, to_act=None, history=history,
        )  # fmt: skip
    next_master = 1 - season.winner if rules.new_master == "loser" else season.winner
    return _STATE.replace(
        state, phase="deal", master=next_master, key=None, hands=((), ()), stock=(), discards=(),
        drawn=((), ()), bids=(None, None), leader=None, trick=(), played=(), scores=(s0, s1),
        seasons=seasons, to_act=CHANCE, history=history,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------
# Views


@attrs.frozen
class View:
    """What one player may see: own hand, the key card, bids, tricks, scores, the
    opponent's hand size and both players' exchange draws; never the opponent's cards,
    the discards or the stock.

    ``drawn[p]`` lists how many cards player ``p`` drew in each exchange round;
    ``exchanges`` is the season's exchange count; ``trick`` the card led to the current
    trick (if any) by ``leader``; ``played`` the season's finished tricks; ``seasons``
    the scored seasons.  ``role`` is ``"master"``/``"slave"`` before the tricks and
    ``"attacker"``/``"defender"`` from then on (``None`` before the first draw).
    """

    player: int
    phase: Phase
    to_act: int | _Chance | None
    role: str | None
    master: int | None
    key: Card | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, int]
    stock_size: int
    drawn: tuple[tuple[int, ...], tuple[int, ...]]
    exchanges: int
    bids: tuple[int | None, int | None]
    attacker: int | None
    leader: int | None
    trick: tuple[Card, ...]
    played: tuple[Trick, ...]
    tricks: tuple[int, int]
    scores: tuple[int, int]
    seasons: tuple[Season, ...]
    #: the cards this player discarded in the season's exchanges (it saw them go)
    discarded: tuple[Card, ...] = ()


def _view(state: State, player: int) -> View:
    return View(
        player,
        state.phase,
        state.to_act,
        None if state.master is None else _role(state, player),
        state.master,
        state.key,
        state.hands[player],
        (len(state.hands[0]), len(state.hands[1])),
        len(state.stock),
        state.drawn,
        state.exchanges,
        state.bids,
        state.attacker,
        state.leader,
        state.trick,
        state.played,
        state.tricks,
        state.scores,
        state.seasons,
        _own_discards(state, player) if state.discards else (),
    )


def _discard_turns(master: int, drawn: tuple[tuple[int, ...], tuple[int, ...]]) -> list[tuple[int, int]]:
    """``(player, cards drawn)`` for each exchange turn of the season, in order (the
    master's, then the slave's, round by round): how ``discards`` was filled."""
    slave = 1 - master
    turns = []
    for r, k in enumerate(drawn[master]):
        turns.append((master, k))
        if r < len(drawn[slave]):
            turns.append((slave, drawn[slave][r]))
    return turns


def _own_discards(state: State, player: int) -> tuple[Card, ...]:
    assert state.master is not None
    out: list[Card] = []
    i = 0
    for p, k in _discard_turns(state.master, state.drawn):
        if p == player:
            out += state.discards[i : i + k]
        i += k
    return tuple(out)


# ---------------------------------------------------------------------------------------
# Records for people


def describe_for(state: State, action: Any, player: int) -> str:
    """The line :func:`~cardrules.GameDef.describe` gives for ``action``, as ``player``
    may be told it: an opponent's exchange shows how many cards, not which (the
    discards are hidden, as in :func:`view`)."""
    return _describe(state, action, viewer=player)


def _describe(state: State, action: Any, viewer: int | None = None) -> str:
    if state.to_act is CHANCE and type(action) is Shuffle:
        o = action.order
        if state.phase == "draw":
            m = 0 if draw_beats(o[0], o[1]) else 1
            return f"chance: player 0 draws {o[0]}, player 1 draws {o[1]}; player {m} is the first master"
        return f"chance: season {state.season_number} dealt; key card {o[0]}; player {state.master} is master"
    p = state.to_act
    if not isinstance(p, int):
        return f"{action}"
    who = f"player {p} ({_role(state, p)})"
    if state.history and type(state.history[-1]) is Shuffle:  # a season's first move
        who = f"[season {state.season_number}, key card {state.key}] {who}"
    if type(action) is Exchange:
        if not action.cards:
            if p == state.master:
                n = state.exchanges
                return f"{who} stops exchanging after {n} round{'s' if n != 1 else ''}"
            return f"{who} keeps its hand"
        n = state.exchanges + (p == state.master)
        if viewer is not None and viewer != p:
            k = len(action.cards)
            return f"{who} exchanges {k} card{'s' if k != 1 else ''} (round {n})"
        return f"{who} exchanges {' '.join(map(str, action.cards))} (round {n})"
    if type(action) is Bid:
        return f"{who} bids {action.n}"
    if type(action) is Play and state.phase == "play":
        line = f"{who} plays {action.card}"
        try:
            new = _step(state, action)
        except CardRulesError:
            return line
        if state.trick:
            w = state.rules.table.winner((state.trick[0], action.card), key=state.key)
            line += f"; player {state.leader if w == 0 else p} takes the trick"
        if len(new.seasons) > len(state.seasons):
            line += f"; {_season_text(new.seasons[-1])}; scores {new.scores[0]}-{new.scores[1]}"
            if new.is_over:
                line += f"; game over, player {new.winners[0]} wins"
        return line
    return f"{who}: {action}"


def _season_text(s: Season) -> str:
    a, d = s.attacker, s.defender
    head = f"season: player {a} attacked with {s.bids[a]} and took {s.tricks[a]}"
    if s.outcome == "break":
        parts = [f"break +{s.bids[a]} to player {a}"]
        if s.promise:
            parts.append("promise +1")
    else:
        parts = [f"keep +{s.bids[a]} to player {d}"]
    if s.conquest:
        parts.append(f"conquest +1 to player {s.winner}")
    if s.save:
        parts.append(f"save +{s.bids[d]} to player {d}")
    return head + " (" + ", ".join(parts) + ")"


def summary(state: State) -> str:
    """A few lines on a game: each scored season, the scores, and both players'
    ratings (:func:`evaluate`).  ``cardrules demo`` prints it after the record."""
    lines = []
    for i, s in enumerate(state.seasons, 1):
        head = f"season {i}: master {s.master}, key {s.key}, {s.exchanges} exchanges"
        lines.append(f"{head}; {_season_text(s)[len('season: ') :]}")
    for p in range(2):
        e = evaluate(state, p)
        lines.append(f"player {p}: " + ", ".join(f"{name} {_pct(getattr(e, name))}" for name in _RATINGS))
    return "\n".join(lines)


def _pct(x: float | None) -> str:
    return "none" if x is None else f"{x:.0f}"


# ---------------------------------------------------------------------------------------
# Evaluation

_RATINGS: Final = ("total", "result", "attack", "defence", "take")


@attrs.frozen
class Evaluation:
    """The five 0-100 ratings the manual shows after a game (formulas chosen for cardrules).

    ``take``: 100 x tricks taken / tricks played; ``attack``: 100 x seasons broken /
    seasons as attacker; ``defence``: 100 x seasons as defender in which the player
    scored (keep or save) / seasons as defender; ``result``: a win gives
    50 + 50 x (own - other) / own, a loss 50 x own / other; ``total``: the mean of the
    others that are not ``None``.  A rating is ``None`` when it has nothing to rate
    (never attacker, never defender, no trick played, or the game not over for
    ``result``).  ``evaluation["take"]`` and ``dict(evaluation)`` work too.
    """

    total: float | None
    result: float | None
    attack: float | None
    defence: float | None
    take: float | None

    def __getitem__(self, name: str) -> float | None:
        """A rating by name, in any case: ``e["take"]``, ``e["Take"]`` (``"defense"``
        is accepted for ``"defence"``)."""
        key = name.lower() if isinstance(name, str) else name
        key = "defence" if key == "defense" else key
        if key not in _RATINGS:
            raise KeyError(name)
        value: float | None = getattr(self, key)
        return value

    def keys(self) -> tuple[str, ...]:
        """The rating names, so that ``dict(evaluation)`` works."""
        return _RATINGS


def evaluate(state: State, player: int) -> Evaluation:
    """The five ratings of ``player`` (0 or 1) over the seasons scored so far.

    >>> e = evaluate(new_game(seed=3), 0)
    >>> e.take is None and e.total is None
    True
    """
    if type(player) is not int or player not in (0, 1):
        raise CardRulesError(f"aegis: no player {player!r} in a 2-player game")
    taken = played = attacked = broken = defended = kept = 0
    for s in state.seasons:
        taken += s.tricks[player]
        played += TRICKS
        if s.attacker == player:
            attacked += 1
            broken += s.outcome == "break"
        else:
            defended += 1
            kept += s.outcome == "keep" or s.save
    if state.phase == "play":  # the season in progress: its finished tricks
        taken += state.tricks[player]
        played += len(state.played)
    take = 100 * taken / played if played else None
    attack = 100 * broken / attacked if attacked else None
    defence = 100 * kept / defended if defended else None
    result = None
    if state.is_over:
        own, other = state.scores[player], state.scores[1 - player]
        if player in state.winners:
            result = 50 + 50 * (own - other) / own if own else 50.0
        else:
            result = 50 * own / other if other else 50.0
    rated = [x for x in (result, attack, defence, take) if x is not None]
    total = sum(rated) / len(rated) if rated else None
    return Evaluation(total, result, attack, defence, take)


# ---------------------------------------------------------------------------------------
# Agents


class GreedyAgent:
    """A simple, documented Aegis player that sees only its :class:`View`.

    It rates each card by how often it beats the cards it cannot see, through the trick
    table with the key card, leading and following alike: its *strength*, from 0 to 1.

    * **Exchanges**: cards of strength below ``weak`` (0.5) are weak.  The master
      exchanges its weak cards in the first round when it holds two or more, and
      otherwise stops (each exchange raises its lowest bid).  The slave, whose
      exchanges cost nothing, exchanges its weak cards whenever it may.
    * **Bids**: it expects as many tricks as the sum of its cards' strengths, rounded.
      The master bids that (or the lowest legal bid if higher); the slave outbids the
      master when it expects more tricks, and otherwise bids the master's bid to defend.
    * **Tricks**: leading, it plays its strongest card; following, the weakest card that
      wins the trick if one does, else its weakest card.

    ``seed`` is accepted for the agent interface; the agent is deterministic.
    ``rules`` gives the trick table when a variant table is played.
    """

    def __init__(self, seed: object = None, *, rules: Rules | None = None, weak: float = 0.5) -> None:
        self.seed = seed
        self.table = (rules or Rules()).table
        self.weak = weak

    def __repr__(self) -> str:
        return f"GreedyAgent(seed={self.seed!r})"

    def _unseen(self, view: View) -> list[Card]:
        seen = set(view.hand)
        seen.update(view.trick)
        if view.key is not None:
            seen.add(view.key)
        for t in view.played:
            seen.update(t.cards)
        return [c for c in _DECK if c not in seen]

    def strength(self, card: Card, view: View, unseen: Sequence[Card] | None = None) -> float:
        """How often ``card`` wins against the cards this player cannot see: the mean
        of the share it beats when it leads and the share it beats when it follows."""
        others = self._unseen(view) if unseen is None else unseen
        if not others:
            return 1.0
        winner = self.table.winner
        key = view.key
        leading = sum(1 for u in others if winner((card, u), key=key) == 0)
        following = sum(1 for u in others if winner((u, card), key=key) == 1)
        return (leading + following) / (2 * len(others))

    def __call__(self, view: View, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise CardRulesError("GreedyAgent was asked to act with no legal action")
        first = legal_actions[0]
        unseen = self._unseen(view)
        if type(first) is Play:
            return self._play(view, legal_actions, unseen)
        strength = {c: self.strength(c, view, unseen) for c in view.hand}
        if type(first) is Bid:
            expect = round(sum(strength.values()))
            bids = [a.n for a in legal_actions]
            # a slave that does not expect more than the master defends at the master's bid
            want = min(max(expect, bids[0]), bids[-1])
            return next(a for a in legal_actions if a.n == want)
        if type(first) is Exchange:
            weak = tuple(sorted((c for c in view.hand if strength[c] < self.weak), key=_INDEX))
            if view.role == "master" and (view.exchanges > 0 or len(weak) < 2):
                weak = ()
            for a in legal_actions:
                if a.cards == weak:
                    return a
        return legal_actions[0]

    def _play(self, view: View, legal: Sequence[Any], unseen: Sequence[Card]) -> Any:
        ranked = sorted(legal, key=lambda a: (self.strength(a.card, view, unseen), a.card.index))
        if not view.trick:
            return ranked[-1]
        lead = view.trick[0]
        for a in ranked:
            if self.table.winner((lead, a.card), key=view.key) == 1:
                return a
        return ranked[0]


# ---------------------------------------------------------------------------------------
# The game and its public functions


def legal_actions(state: State) -> tuple[Any, ...]:
    """Every legal action of the player to act, in a stable order: ``Exchange(())``
    then the exchanges by number of cards and canonical order; ``Bid`` from the lowest
    legal bid up; ``Play`` in the canonical order of the hand.  ``()`` at a chance node
    or at the end."""
    # The game's own function, handed to GameDef as is (no wrapper: this is the hot path).
    phase = state.phase
    if phase == "play":
        hand = state.hands[state.to_act]  # type: ignore[index]
        if state.trick:
            suit = state.trick[0].suit
            follow = [c for c in hand if c.suit is suit]
            if follow:
                return tuple(map(_PLAY_OF, follow))
        return tuple(map(_PLAY_OF, hand))
    if phase == "exchange":
        return _exchange_actions(state.hands[state.to_act])  # type: ignore[index]
    if phase == "bid":
        return _BIDS[_lowest_bid(state) - 1 :]
    return ()


GAME: Final[GameDef[State, Rules]] = GameDef(
    "aegis",
    rules_type=Rules,
    state_type=State,
    action_types=(Exchange, Bid, Play),
    player_counts=(2,),
    default_players=2,
    start=_start,
    legal_actions=legal_actions,
    step=_step,
    chance_cards=_chance_cards,
    deal=_deal,
    view=_view,
    describe=_describe,
    summary=summary,
    module=__name__,
)


# The public functions over GAME, written out on purpose (why: GameDef, cardrules.protocol).
def new_game(rules: Rules | None = None, *, players: int = 2, seed: object = None) -> State:
    """A new game of Aegis.  Without a ``seed`` it waits at the first-master draw for a
    :class:`~cardrules.Shuffle` (``order[0]`` is player 0's card, ``order[1]`` player
    1's); with one, every shuffle of the game resolves itself from the seed.
    ``players`` is always 2; it is accepted so that generic code may pass it."""
    return GAME.new_game(rules, players=players, seed=seed)


def apply(state: State, action: Any) -> State:
    """The state after ``action``; an illegal action raises
    :class:`~cardrules.IllegalActionError` saying why ("must follow suit: you hold 7H")."""
    return GAME.apply(state, action)


def view(state: State, player: int) -> View:
    """What ``player`` may see (:class:`View`)."""
    result: View = GAME.view(state, player)
    return result


def replay(rules: Rules | None, actions: Iterable[Any], *, players: int = 2) -> State:
    """The state reached by applying ``actions`` (shuffles included) to a new game
    (``players`` is always 2)."""
    return GAME.replay(rules, actions, players=players)


# ---------------------------------------------------------------------------------------
# Actions and tables as text
#
# The notation: a card played is the card (``7H``); a bid is ``bid 3``; an exchange is
# ``exchange 2S 7H`` (the cards in any order), and keeping one's hand (the master's
# ``keep`` ends the exchanges) is ``keep``.  ``parse_action`` also reads ``stop``,
# ``play 7H`` and, in the exchange phase, bare cards (``2S 7H``).

from . import notation as _notation  # noqa: E402  (this section is kept apart)

_NOTATION: Final = _notation.Notation(
    aliases={k: "keep" for k in ("stop", "exchange", "exchange none", "no exchange", "none")},
    card_sets=True,
)


def _extra(state: State, key: str, cards: list[Card]) -> Any:
    # What the text says, legal or not: apply() then says why it is not.
    ws = key.split()
    if not ws:
        return None
    rest = len(ws) - 1 == len(cards)
    if ws[0] == "play" and rest and len(cards) == 1:
        return Play(cards[0])
    if ws[0] == "exchange" and rest:
        return Exchange(tuple(cards))
    if ws[0] == "bid" and len(ws) == 2 and ws[1].isdigit():
        return Bid(int(ws[1]))
    if len(cards) == len(ws):  # bare cards: an exchange, or the card to play
        if state.phase == "exchange":
            return Exchange(tuple(cards))
        if len(cards) == 1:
            return Play(cards[0])
    if state.phase == "bid" and len(ws) == 1 and ws[0].isdigit():
        return Bid(int(ws[0]))
    return None


def parse_action(state: State, text: str) -> Any:
    """The legal action ``text`` names: ``7H``, ``bid 3``, ``exchange 2S 7H`` (cards in
    any order), ``keep`` (also ``stop``); case-insensitive, cards as
    :func:`~cardrules.parse_cards` reads them.  ``parse_action(state, str(a)) == a`` for
    every legal action ``a``.  Text that names no legal action raises
    :class:`~cardrules.IllegalActionError` with the reason and the nearest legal actions.

    >>> s = new_game(seed=7)
    >>> s.hands[s.to_act]
    (Card('QS'), Card('8H'), Card('AD'), Card('QD'), Card('3C'))
    >>> parse_action(s, "exchange qd, Qs") == Exchange("QS QD")
    True
    >>> parse_action(s, "bid 3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardrules.errors.IllegalActionError: 'bid 3': you cannot bid now: ...; nearest of 32 legal actions: ...
    """
    return _notation.read(state, text, legal_actions(state), _NOTATION, extra=_extra, check=apply)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards)) or "-"


def render(state: State, player: int | None = None) -> str:
    """The table as text: scores, the key card, each player's role, bid, tricks and
    exchanges, the trick on the table, the hands (only ``player``'s own when a player is
    given: the text is drawn from :func:`view`), and who is to act.

    >>> print(render(new_game(seed=7), 1))
    Aegis, season 1: scores 0-0 (25 wins, or a lead of 10)
    key card 7D, 41 cards in the stock
    player 0 (master): 5 cards
    player 1 (slave): 5 cards
    your hand: 8S 9S 6H JH 5D
    to act: player 0 (master) may exchange cards or keep
    """
    views = [view(state, p) for p in range(2)] if player is None else [view(state, player)]
    v = views[0]
    rules = state.rules
    season = len(v.seasons) + (0 if v.phase == "over" else 1)
    lines = [f"Aegis, season {season}: scores {v.scores[0]}-{v.scores[1]} "
             f"({rules.target} wins, or a lead of {rules.margin})"]  # fmt: skip
    if v.key is not None and v.phase != "over":
        lines.append(f"key card {v.key}, {v.stock_size} cards in the stock")
    for p in range(2):
        parts = [f"{v.hand_sizes[p]} card{'s' * (v.hand_sizes[p] != 1)}"]
        if v.drawn[p]:
            parts.append("drew " + "+".join(map(str, v.drawn[p])))
        if v.bids[p] is not None:
            parts.append(f"bid {v.bids[p]}")
        if v.phase == "play":
            parts.append(f"tricks {v.tricks[p]}")
        role = "" if v.master is None else f" ({_view_role(v, p)})"
        lines.append(f"player {p}{role}: " + ", ".join(parts))
    if v.phase == "play":
        if v.trick:
            lines.append(f"trick: player {v.leader} led {v.trick[0]}")
        elif v.played:
            t = v.played[-1]
            lines.append(f"last trick: {t.cards[0]} {t.cards[1]}, taken by player {t.winner}")
    if v.seasons and (v.phase in ("exchange", "bid", "over") and not v.played):
        lines.append("last season: " + _season_text(v.seasons[-1])[len("season: "):])
    for w in views:
        owner = "your hand" if player is not None else f"player {w.player}'s hand"
        lines.append(f"{owner}: {_cards(w.hand)}")
    if v.phase == "over":
        winner = state.winners[0] if player is None else (0 if v.scores[0] > v.scores[1] else 1)
        if player is not None and v.scores[0] == v.scores[1]:
            winner = v.seasons[-1].winner
        lines.append(f"game over: player {winner} wins")
    elif isinstance(v.to_act, int):
        doing = {"exchange": "may exchange cards or keep", "bid": "bids", "play": "plays a card"}[v.phase]
        lines.append(f"to act: player {v.to_act} ({_view_role(v, v.to_act)}) {doing}")
    return "\n".join(lines)


def _view_role(v: View, p: int) -> str:
    if v.phase == "play" or (v.phase == "over" and v.bids[0] is not None):
        return "attacker" if p == v.attacker else "defender"
    return "master" if p == v.master else "slave"


GAME.set_text(parse_action=parse_action, render=render)
__all__ += ["parse_action", "render"]

def chance_cards(state: State) -> tuple[Card, ...]:
    """At a chance node, the cards a :class:`~cardrules.Shuffle` must order: the whole
    deck, in canonical order (``()`` anywhere else)."""
    return GAME.chance_cards(state)


def describe(state: State, action: Any) -> str:
    """A line for a record: ``action`` played in ``state``, as everyone at the table
    sees it (:func:`describe_for` hides an opponent's exchanged cards)."""
    return GAME.describe(state, action)

# Sampling states from a view (for search agents: cardrules.search)


def _sampler(view: View, rules: Rules | None) -> Callable[[Random], State]:
    """What ``view`` leaves open, worked out once: the opponent's hand is drawn from
    the unseen cards of the suits it has not shown it lacks (it did not follow suit;
    nobody draws during the tricks), and the rest of the unseen cards make the stock
    and the opponent's discards."""
    from .sampling import SampleError, check_total, unseen

    rules = rules if rules is not None else Rules()
    p = view.player
    o = 1 - p
    seen: list[Card] = [*view.hand, *view.discarded, *view.trick]
    if view.key is not None:
        seen.append(view.key)
    for t in view.played:
        seen += t.cards
    pool = unseen(_DECK, seen) if view.phase not in ("draw", "deal") else []
    h, s, d = view.hand_sizes[o], view.stock_size, sum(view.drawn[o])
    check_total("aegis", pool, (h, s, d))
    void = {t.cards[0].suit for t in view.played if t.leader == p and t.cards[1].suit is not t.cards[0].suit}
    allowed = [c for c in pool if c.suit not in void]
    if len(allowed) < h:
        raise SampleError("aegis: the opponent cannot hold its cards in the suits it may still have")
    turns = [] if view.master is None else _discard_turns(view.master, view.drawn)

    def draw(rng: Random) -> State:
        hand = rng.sample(allowed, h)
        taken = set(hand)
        rest = [c for c in pool if c not in taken]
        rng.shuffle(rest)
        stock, theirs = tuple(rest[:s]), rest[s:]
        mine = view.discarded
        discards: list[Card] = []
        i = j = 0
        for q, k in turns:
            if q == p:
                discards += mine[i : i + k]
                i += k
            else:
                discards += sorted(theirs[j : j + k], key=_INDEX)
                j += k
        opp = tuple(sorted(hand, key=_INDEX))
        hands = (view.hand, opp) if p == 0 else (opp, view.hand)
        return _STATE.new(
            rules=rules, players=2, phase=view.phase, master=view.master, key=view.key, hands=hands,
            stock=stock, discards=tuple(discards), drawn=view.drawn, bids=view.bids, leader=view.leader,
            trick=view.trick, played=view.played, scores=view.scores, seasons=view.seasons,
            to_act=view.to_act, history=(), seed=None,
        )  # fmt: skip

    return draw


def sample_state(view: View, *, seed: object = None, rules: Rules | None = None) -> State:
    """A whole state consistent with ``view`` (``view(sample, view.player) == view``):
    the opponent's hand, the stock and the opponent's discards are dealt at random from
    the cards ``view.player`` has not seen, uniformly, except that the opponent holds
    no card of a suit it has shown it lacks this season.  The sample's ``history`` is
    empty and its ``seed`` ``None`` (:mod:`cardrules.sampling`).  ``rules``: the game's
    rules, when not the default ones.

    >>> state = new_game(seed=3)
    >>> v = view(state, 0)
    >>> sample = sample_state(v, seed=1)
    >>> view(sample, 0) == v, sample.hands[0] == state.hands[0]
    (True, True)
    """
    return GAME.sample_state(view, seed=seed, rules=rules)


GAME._sampler = _sampler


# ---------------------------------------------------------------------------------------
# A rollout policy (for search agents: cardrules.search, ``rollout="policy"``)

#: (table, key card) -> (strength of each card, {(lead, follow): follow wins}); a season's
#: key is fixed, so a search builds one entry per season (about 2 ms).
_POLICY_TABLES: dict[tuple[Any, Card], tuple[dict[Card, float], dict[tuple[Card, Card], bool]]] = {}


def _policy_tables(table: Any, key: Card) -> tuple[dict[Card, float], dict[tuple[Card, Card], bool]]:
    entry = _POLICY_TABLES.get((table, key))
    if entry is None:
        winner = table.winner
        others = [c for c in _DECK if c != key]
        wins = {(a, b): winner((a, b), key=key) == 1 for a in others for b in others if a != b}
        strength = {
            c: sum((not wins[c, u]) + wins[u, c] for u in others if u != c) / (2 * (len(others) - 1))
            for c in others
        }
        if len(_POLICY_TABLES) > 64:
            _POLICY_TABLES.clear()
        entry = _POLICY_TABLES[table, key] = (strength, wins)
    return entry


def _rollout_policy(state: State, rng: Random) -> Any:
    """The action of a quick heuristic for the player to act in ``state`` (a rollout's
    opponent model): :class:`GreedyAgent`'s rules, with each card's strength rated once
    per key card against the whole deck instead of against the unseen cards.  It reads
    the player's own hand and the public part of the state only."""
    p = state.to_act
    assert isinstance(p, int)
    hand = state.hands[p]
    strength, wins = _policy_tables(state.rules.table, state.key)  # type: ignore[arg-type]
    phase = state.phase
    if phase == "play":
        legal = legal_actions(state)
        if not state.trick:
            return max(legal, key=lambda a: strength[a.card])
        lead = state.trick[0]
        ranked = sorted(legal, key=lambda a: strength[a.card])
        for a in ranked:
            if wins[lead, a.card]:
                return a
        return ranked[0]
    if phase == "bid":
        lowest = _lowest_bid(state)
        expect = round(sum(strength[c] for c in hand))
        return _BIDS[min(max(expect, lowest), TRICKS) - 1]
    weak = tuple(c for c in hand if strength[c] < 0.5)  # the hand is in canonical order
    if p == state.master and (state.drawn[p] or len(weak) < 2):
        return _KEEP
    return _SMALL_EXCHANGES.get(weak) or _exchange_of(weak)


def _likelihood(view: View, rules: Rules | None) -> Callable[[State], float] | None:
    """How likely the opponent's observed exchanges and bid are in a sample of ``view``,
    were the opponent playing :func:`_rollout_policy` (a number in ``(0, 1]``, for
    rejection sampling; ``None`` when the opponent has shown nothing yet).  Each
    departure from the policy divides the weight: a discarded card that was not weak,
    a master that kept two weak cards or more without exchanging, a bid one trick away
    from what the hand (before the tricks) was worth."""
    p = view.player
    o = 1 - p
    if view.key is None or view.master is None or view.phase not in ("exchange", "bid", "play"):
        return None
    bid = view.bids[o]
    exchanged = sum(view.drawn[o]) > 0
    stopped = o == view.master and not view.drawn[o] and view.phase != "exchange"
    if bid is None and not exchanged and not stopped:
        return None
    strength, _ = _policy_tables((rules or Rules()).table, view.key)
    mine = set(view.discarded)
    shown = [t.cards[0] if t.leader == o else t.cards[1] for t in view.played]
    if view.trick and view.leader == o:
        shown.append(view.trick[0])
    lowest = 1 + len(view.drawn[o]) if o == view.master else view.bids[p] or 1

    def weight(state: State) -> float:
        w = 1.0
        if exchanged:
            for c in state.discards:
                if c not in mine and strength[c] >= 0.5:
                    w *= 0.3
        if stopped or bid is not None:
            hand = [*state.hands[o], *shown]
            if stopped:
                weak = sum(1 for c in hand if strength[c] < 0.5)
                if weak >= 2:
                    w *= 0.3 ** (weak - 1)
            if bid is not None:
                expect = round(sum(strength[c] for c in hand))
                off = abs(expect - bid) if bid > lowest else max(expect - bid, 0)
                w *= 0.25**off
        return w

    return weight
