"""The rules of Aegis: the options (:class:`Rules`), the actions, the ``State`` and
its records, every transition (the first-master draw, the deal, exchanges, bids, tricks,
the scoring of a season), the legal actions, what each player sees (``View``) and the
manual's ratings (:func:`evaluate`).

Everything here is re-exported by :mod:`cardrules.aegis`, where the game is assembled
and registered.
"""

from __future__ import annotations

import operator
from collections import deque
from collections.abc import Callable, Iterable
from itertools import chain, combinations, repeat
from math import comb
from typing import Any, Final, Literal

import attrs

from .._chance import Chance
from .._hotloops import IMPLEMENTATION, coded_subsets
from .._records import maker
from ..cards import Card, Suit, parse_card, parse_cards, standard_deck
from ..errors import CardRulesError, IllegalActionError, RulesError
from ..protocol import CHANCE, Shuffle
from ..tricks import TrickTable, builtin

#: Tricks in a season (five cards each).
TRICKS: Final = 5
#: Cards dealt to each player.
HAND_SIZE: Final = 5
#: The most rounds of exchange the manual allows (``Rules.max_exchanges`` is 0..4).
MAX_EXCHANGES: Final = 4

DECK: Final = standard_deck()
CARD_INDEX = operator.attrgetter("index")
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
        return tuple(sorted(parse_cards(cards), key=CARD_INDEX))
    if isinstance(cards, Card):
        return (cards,)
    try:
        t: tuple[Any, ...] = tuple(cards)
    except TypeError:
        raise IllegalActionError(f"Exchange takes a tuple of cards, not {cards!r}") from None
    if all(type(c) is Card for c in t):
        return tuple(sorted(t, key=CARD_INDEX))
    if t and all(isinstance(c, str) for c in t):  # ("7H", "2S")
        return tuple(sorted(map(parse_card, t), key=CARD_INDEX))
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
KEEP: Final = Exchange(())
BIDS: Final = tuple(Bid(n) for n in range(1, TRICKS + 1))
_PLAYS: Final = {c: Play(c) for c in DECK}
_PLAY_OF = _PLAYS.__getitem__
_FRESH_TYPES: Final = (Exchange,) * 6  # a hand's 5 + 1 subsets of 4 and 5 cards


def exchange_of(cards: tuple[Card, ...]) -> Exchange:
    """``Exchange(cards)`` for canonical ``cards`` (the constructor: interned once)."""
    return Exchange(cards)


# Interned exchanges of one and two cards (52 + 1,326 actions, about 150 kB, built at
# import).  Measured in random playouts, finding these by their card tuple is cheaper
# than making them; interning the 22,100 three-card exchanges as well was not (the
# lookups then miss the processor's caches and cost as much as new objects).
_SINGLE_OF = {c: exchange_of((c,)) for c in DECK}.__getitem__
_PAIR_OF = {cards: exchange_of(cards) for cards in combinations(DECK, 2)}.__getitem__


def _subsets_py(hand: tuple[Card, ...]) -> tuple[Exchange, ...]:
    """``Exchange(())`` then every non-empty subset of the (canonical) hand, by size then
    lexicographically, so every subset is canonical already: for a hand of any size.
    The exchanges of one and two cards are the interned ones above, found in C loops
    (``map``); the larger ones are made in C loops too, straight into their slot (the
    converter has nothing to do here)."""
    n = len(hand)
    fresh = list(map(_NEW, repeat(Exchange, 2**n - 1 - n - comb(n, 2))))
    deque(map(_SET_CARDS, fresh, chain.from_iterable(combinations(hand, k) for k in range(3, n + 1))), 0)
    return (KEEP, *map(_SINGLE_OF, hand), *map(_PAIR_OF, combinations(hand, 2)), *fresh)


# The pure-Python listing of a five-card hand's exchanges (every hand, while they last)
# finds the exchanges of up to three cards by card, in nested dicts: ``_ROWS[a][b]`` is
# the pair ``(a, b)`` and ``_ROWS3[a][b][c]`` the triple ``(a, b, c)``, for cards in
# canonical order.  A card hashes by identity, so a look-up builds no tuple and hashes
# none; the 22,100 triples are made when the first exchange decision asks for them.
_ROWS: Final = {a: {b: _PAIR_OF((a, b)) for b in DECK[a.index + 1 :]} for a in DECK}
_ROWS3: dict[Card, dict[Card, dict[Card, Exchange]]] = {}


def _triple_rows() -> dict[Card, dict[Card, dict[Card, Exchange]]]:
    # Built apart, then published whole: another thread may ask while this one builds
    # (the GIL switches threads during it), and must never see a table still filling.
    global _ROWS3
    rows: dict[Card, dict[Card, dict[Card, Exchange]]] = {}
    for a, b, c in combinations(DECK, 3):  # canonical, as in legal_actions
        x = _NEW(Exchange)
        _SET_CARDS(x, (a, b, c))
        rows.setdefault(a, {}).setdefault(b, {})[c] = x
    _ROWS3 = rows
    return rows


def _exchange_actions_py(hand: tuple[Card, ...]) -> tuple[Exchange, ...]:
    """The exchanges of :func:`_subsets_py`, written out for a hand of five cards.

    This is the hot spot of random play without the C module: the 26 exchanges of up to
    three cards are look-ups (no tuple to build or hash), the 6 larger ones new objects
    filled in C loops.
    """
    if len(hand) != HAND_SIZE:
        return _subsets_py(hand)
    a, b, c, d, e = hand
    rows = _ROWS
    ra, rb, rc, rd = rows[a], rows[b], rows[c], rows[d]
    rows3 = _ROWS3 or _triple_rows()
    ta, tb = rows3[a], rows3[b]
    tab, tac, tad, tbc, tbd = ta[b], ta[c], ta[d], tb[c], tb[d]
    fresh = list(map(_NEW, _FRESH_TYPES))
    fours = ((a, b, c, d), (a, b, c, e), (a, b, d, e), (a, c, d, e), (b, c, d, e))
    deque(map(_SET_CARDS, fresh, (*fours, hand)), 0)
    return (
        KEEP, _SINGLE_OF(a), _SINGLE_OF(b), _SINGLE_OF(c), _SINGLE_OF(d), _SINGLE_OF(e),
        ra[b], ra[c], ra[d], ra[e], rb[c], rb[d], rb[e], rc[d], rc[e], rd[e],
        tab[c], tab[d], tab[e], tac[d], tac[e], tad[e], tbc[d], tbc[e], tbd[e], rows3[c][d][e],
        *fresh,
    )  # fmt: skip


# The same actions from the C loop of cardrules._speedups when it was compiled: the
# empty, one- and two-card exchanges are the interned ones, the others made in C.
SMALL_EXCHANGES: Final[dict[tuple[Card, ...], Exchange]] = {
    (): KEEP,
    **{(c,): _SINGLE_OF(c) for c in DECK},
    **{pair: _PAIR_OF(pair) for pair in combinations(DECK, 2)},
}


# The C loop finds the exchanges of up to three cards by arithmetic on the cards' indices
# (no tuple key to build and hash): in tables indexed by ``i``, ``i * 52 + j`` and
# ``(i * 52 + j) * 52 + k`` for the cards of indices ``i < j < k``, the empty exchange
# and those of one and two cards the interned ones above, those of three cards (22,100)
# made when the first exchange decision asks for them.  Measured in random playouts, a
# lookup there is cheaper than a new object (and its deallocation).
_CODES: Final = {c: c.index for c in DECK}
_BASE: Final = len(DECK)
_CODED: tuple[tuple[Exchange | None, ...], ...] = ()


def _coded_tables() -> tuple[tuple[Exchange | None, ...], ...]:
    global _CODED
    n = len(DECK)
    singles: list[Exchange | None] = [None] * n
    pairs: list[Exchange | None] = [None] * n**2
    triples: list[Exchange | None] = [None] * n**3
    for c in DECK:
        singles[c.index] = _SINGLE_OF(c)
    for a, b in combinations(DECK, 2):
        pairs[a.index * n + b.index] = _PAIR_OF((a, b))
    fresh = list(map(_NEW, repeat(Exchange, comb(n, 3))))
    deque(map(_SET_CARDS, fresh, combinations(DECK, 3)), 0)  # canonical, as in legal_actions
    for (i, j, k), x in zip(combinations(range(n), 3), fresh, strict=True):  # DECK[i].index == i
        triples[(i * n + j) * n + k] = x
    _CODED = ((KEEP,), tuple(singles), tuple(pairs), tuple(triples))
    return _CODED


def _exchange_actions_c(hand: tuple[Card, ...]) -> tuple[Exchange, ...]:
    return coded_subsets(hand, _CODES, _BASE, _CODED or _coded_tables(), Exchange, "cards")


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
    to_act: int | Chance | None
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
# cardrules._records: the object the constructor makes, without calling it).
STATE: Final = maker(State)
_TRICK: Final = maker(Trick)
_SEASON: Final = maker(Season)
# Each kind of transition's new state, naming the fields it changes (Maker.replacer).
_FIRST_MASTER: Final = STATE.replacer("phase", "master", "history")
_DEAL: Final = STATE.replacer(
    "phase", "key", "hands", "stock", "discards", "drawn", "bids", "leader", "trick", "played", "to_act",
    "history",
)  # fmt: skip
_STOP: Final = STATE.replacer("phase", "to_act", "history")
_EXCHANGE: Final = STATE.replacer("phase", "hands", "stock", "discards", "drawn", "to_act", "history")
_MASTER_BIDS: Final = STATE.replacer("phase", "bids", "to_act", "history")
_SLAVE_BIDS: Final = STATE.replacer("phase", "bids", "leader", "to_act", "history")
_LEAD: Final = STATE.replacer("hands", "leader", "trick", "to_act", "history")
_TAKE: Final = STATE.replacer("hands", "leader", "trick", "played", "to_act", "history")
_GAME_OVER: Final = STATE.replacer(
    "phase", "hands", "leader", "trick", "played", "scores", "seasons", "to_act", "history"
)
_NEXT_SEASON: Final = STATE.replacer(
    "phase", "master", "key", "hands", "stock", "discards", "drawn", "bids", "leader", "trick", "played",
    "scores", "seasons", "to_act", "history",
)  # fmt: skip


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


def start_state(rules: Rules, players: int) -> State:
    return STATE.new(
        rules=rules, players=2, phase="draw", master=None, key=None, hands=((), ()), stock=(),
        discards=(), drawn=((), ()), bids=(None, None), leader=None, trick=(), played=(),
        scores=(0, 0), seasons=(), to_act=CHANCE, history=(),
    )  # fmt: skip


def cards_to_shuffle(state: State) -> tuple[Card, ...]:
    return DECK


def deal_cards(state: State, shuffle: Shuffle) -> State:
    order = shuffle.order
    history = state.history + (shuffle,)  # noqa: RUF005 - faster than (*history, shuffle)
    if state.phase == "draw":
        first = 0 if draw_beats(order[0], order[1]) else 1
        return _FIRST_MASTER(state, phase="deal", master=first, history=history)
    master = state.master
    assert master is not None
    to_master = tuple(sorted(order[1 : 2 * HAND_SIZE : 2], key=CARD_INDEX))
    to_slave = tuple(sorted(order[2 : 2 * HAND_SIZE + 1 : 2], key=CARD_INDEX))
    hands = (to_master, to_slave) if master == 0 else (to_slave, to_master)
    phase: Phase = "exchange" if state.rules.max_exchanges > 0 else "bid"
    return _DEAL(  # a new season: nothing of the last one's play is left
        state, phase=phase, key=order[0], hands=hands, stock=order[2 * HAND_SIZE + 1 :], discards=(),
        drawn=((), ()), bids=(None, None), leader=None, trick=(), played=(), to_act=master,
        history=history,
    )  # fmt: skip


def lowest_bid(state: State) -> int:
    master = state.master
    assert master is not None
    if state.to_act == master:
        return 1 + len(state.drawn[master])
    n = state.bids[master]
    assert n is not None
    return n


def role_of(state: State, player: int) -> str:
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


def step_state(state: State, action: Any) -> State:
    # The step functions take their own kind of action only; GameDef calls them directly
    # (STEPS below), and each hands an action of the wrong phase back to this function,
    # which says why it is refused.
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
    if state.phase != "exchange":
        return step_state(state, action)
    p: int = state.to_act  # type: ignore[assignment]
    master: int = state.master  # type: ignore[assignment]
    cards = action.cards
    history = state.history + (action,)  # noqa: RUF005 - faster than (*history, action)
    if not cards and p == master:  # the master stops: on to the bids
        return _STOP(state, phase="bid", to_act=master, history=history)
    hands = state.hands
    stock = state.stock
    discards = state.discards
    k = len(cards)
    if k:
        hand = hands[p]
        kept = list(hand)
        try:
            for c in cards:  # a card not held, or one named twice, is not found
                if type(c) is not Card:  # never compared: its == could claim any card
                    raise ValueError
                kept.remove(c)
        except ValueError:
            raise _bad_exchange(cards, hand) from None
        kept += stock[:k]
        kept.sort(key=CARD_INDEX)
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
    return _EXCHANGE(
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
    if state.phase != "bid":
        return step_state(state, action)
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
    history = state.history + (action,)  # noqa: RUF005 - faster than (*history, action)
    if p == master:
        return _MASTER_BIDS(state, phase="bid", bids=bids, to_act=1 - master, history=history)
    attacker = p if n > bids[master] else master  # type: ignore[operator]
    return _SLAVE_BIDS(state, phase="play", bids=bids, leader=attacker, to_act=attacker, history=history)


def _step_play(state: State, action: Play) -> State:
    if state.phase != "play":
        return step_state(state, action)
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
    if hand[i] is not card:  # not a card, though its == claimed a held one (cards are interned)
        raise IllegalActionError(f"Play takes a card: {card!r} is not a card")
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
        return _LEAD(state, hands=hands, leader=p, trick=(card,), to_act=1 - p, history=history)
    leader: int = state.leader  # type: ignore[assignment]
    cards = (trick[0], card)
    winner = leader if state.rules.table.winner(cards, key=state.key) == 0 else p
    played = state.played + (_TRICK.new(leader=leader, cards=cards, winner=winner),)  # noqa: RUF005 - as history
    if len(played) < TRICKS:
        return _TAKE(
            state, hands=hands, leader=winner, trick=(), played=played, to_act=winner, history=history
        )
    return _end_season(state, hands, played, history)


#: The step function of each kind of action (handed to GameDef as ``steps``).
STEPS: Final[dict[type, Callable[[State, Any], State]]] = {
    Exchange: _step_exchange,
    Bid: _step_bid,
    Play: _step_play,
}


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
        return _GAME_OVER(
            state, phase="over", hands=hands, leader=None, trick=(), played=played, scores=(s0, s1),
            seasons=seasons, to_act=None, history=history,
        )  # fmt: skip
    next_master = 1 - season.winner if rules.new_master == "loser" else season.winner
    return _NEXT_SEASON(
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
    to_act: int | Chance | None
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


def player_view(state: State, player: int) -> View:
    return View(
        player,
        state.phase,
        state.to_act,
        None if state.master is None else role_of(state, player),
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


def public_view(state: State) -> View:
    """What someone at no seat may see (a spectator): player 0's view without its hand
    and its discards, the only cards a view holds that the other player never saw."""
    return attrs.evolve(player_view(state, 0), hand=(), discarded=())


def discard_turns(master: int, drawn: tuple[tuple[int, ...], tuple[int, ...]]) -> list[tuple[int, int]]:
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
    for p, k in discard_turns(state.master, state.drawn):
        if p == player:
            out += state.discards[i : i + k]
        i += k
    return tuple(out)


# ---------------------------------------------------------------------------------------
# Legal actions


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
        return BIDS[lowest_bid(state) - 1 :]
    return ()


# ---------------------------------------------------------------------------------------
# Evaluation

RATINGS: Final = ("total", "result", "attack", "defence", "take")


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
        if key not in RATINGS:
            raise KeyError(name)
        value: float | None = getattr(self, key)
        return value

    def keys(self) -> tuple[str, ...]:
        """The rating names, so that ``dict(evaluation)`` works."""
        return RATINGS


def evaluate(state: State, player: int) -> Evaluation:
    """The five ratings of ``player`` (0 or 1) over the seasons scored so far.

    >>> from cardrules.aegis import new_game
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
