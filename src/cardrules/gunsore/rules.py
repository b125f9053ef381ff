"""The rules of Gunsore: its options, actions, states and views, and the transitions
(the start, the chance cards, the deal, a player's step, the legal actions).

The game's own page (:mod:`cardrules.gunsore`) tells the rules; this module is where
they are enforced, and nothing else: the text of actions and tables is in
:mod:`cardrules.gunsore.text`, the greedy agent in :mod:`cardrules.gunsore.agent`, the
state sampler in :mod:`cardrules.gunsore.sampler`, and the :class:`~cardrules.GameDef`
that joins them in :mod:`cardrules.gunsore`.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any, Final, Literal

import attrs

from .._chance import Chance
from .._records import maker
from ..cards import JOKER, Card, Suit, canonical, parse_card, standard_deck
from ..errors import CardRulesError, IllegalActionError, RulesError
from ..protocol import CHANCE, Shuffle
from ..tricks import TrickTable, builtin

#: The season a state is in.
Season = Literal["development", "war"]
#: How the war of the current season broke out: the slave held only the led suit
#: (``"stuck"``), the stock ran out (``"stock"``), or the master declared it
#: (``"declared"``).
WarCause = Literal["stuck", "stock", "declared"]

# -- points --------------------------------------------------------------------------

#: Development points by rank (index 0 is the joker, 1 the ace, 11..13 J Q K).
#: Reconstructed (the manual's table is lost): A 11, numbers their face value, faces 10, joker 0.
POINTS_DEVELOPMENT: Final[tuple[int, ...]] = (0, 11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
#: War points by rank: A 1, numbers their face value, faces 0, joker 0 (reconstructed).
POINTS_WAR: Final[tuple[int, ...]] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0)

_RANK_LABELS = ("joker", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _to_tuple(value: object) -> object:
    if isinstance(value, list):
        return tuple(value)
    return value


def _check_points(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, tuple) or len(value) != 14 or not all(type(v) is int for v in value):
        raise RulesError(
            f"gunsore: {attribute.name} must be 14 integers, the points of ranks 0..13 "
            f"({' '.join(_RANK_LABELS)}), not {value!r}"
        )


def _check_bool(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not bool:
        raise RulesError(f"gunsore: {attribute.name} must be True or False, not {value!r}")


def _check_hand_size(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not int or value < 1:
        raise RulesError(f"gunsore: hand_size must be a whole number of at least 1, not {value!r}")


_PROBE: Final = (parse_card("2S"), parse_card("3H"))

#: The most decks a game may use (a bound so that untrusted JSON cannot ask for a
#: deck of a billion cards).
MAX_DECKS: Final = 20


def _check_decks(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not int or not 2 <= value <= MAX_DECKS or value % 2:
        raise RulesError(
            f"gunsore: decks must be an even number from 2 to {MAX_DECKS} (each deck has 53 "
            f"cards, and the card count must be even so that both hands stay equal), "
            f"not {value!r}"
        )


def _check_table(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, TrickTable):
        raise RulesError(f"gunsore: table must be a cardrules.tricks.TrickTable, not {value!r}")
    try:  # a table that needs what Gunsore does not have (a key card) is refused now
        value.winner(_PROBE)
    except CardRulesError as exc:
        raise RulesError(f"gunsore: table {value.name!r} cannot decide a Gunsore trick: {exc}") from None


@attrs.frozen
class Rules:
    """The options of a game of Gunsore; ``Rules()`` is the game as the documentation's Gunsore page tells it.

    ``points_development`` and ``points_war``
        points of each rank, a tuple indexed by rank 0..13 (0 the joker, 1 the ace,
        11..13 J Q K).  The manual's table is lost; the defaults are a
        reconstruction, which meets the manual's one surviving check (over two decks
        the higher value of every card adds up to 760).
    ``declare_war``
        the master may declare war instead of leading a development trick
        (reconstructed).
    ``war_when_stock_empty``
        war breaks out after a development trick that leaves the stock empty
        (reconstructed).
    ``hand_size``
        cards dealt to each player at the start of a season (5; fewer when the stock
        is short).
    ``decks``
        number of 53-card decks (52 cards and a joker each); even, so that the card
        count is even.
    ``table``
        the trick table that decides every trick (the shipped ``gunsore`` table).

    >>> Rules(decks=3)
    Traceback (most recent call last):
    ...
    cardrules.errors.RulesError: gunsore: decks must be an even number from 2 to 20 ...
    """

    points_development: tuple[int, ...] = attrs.field(
        default=POINTS_DEVELOPMENT, converter=_to_tuple, validator=_check_points
    )
    points_war: tuple[int, ...] = attrs.field(
        default=POINTS_WAR, converter=_to_tuple, validator=_check_points
    )
    declare_war: bool = attrs.field(default=True, validator=_check_bool)
    war_when_stock_empty: bool = attrs.field(default=True, validator=_check_bool)
    hand_size: int = attrs.field(default=5, validator=_check_hand_size)
    decks: int = attrs.field(default=2, validator=_check_decks)
    table: TrickTable = attrs.field(factory=lambda: builtin("gunsore"), validator=_check_table)

    def __attrs_post_init__(self) -> None:
        if 2 * self.hand_size > 53 * self.decks:
            raise RulesError(
                f"gunsore: {self.decks} decks hold {53 * self.decks} cards, too few to deal "
                f"{self.hand_size} to each player"
            )

    @property
    def cards(self) -> int:
        """The number of cards in play (53 per deck)."""
        return 53 * self.decks


# -- actions -------------------------------------------------------------------------


def _to_card(value: object) -> object:
    return parse_card(value) if isinstance(value, str) else value


@attrs.frozen(cache_hash=True)
class Play:
    """Lead or answer a trick with ``card`` (a :class:`~cardrules.Card`, or its text:
    ``Play("7H")``)."""

    card: Card = attrs.field(converter=_to_card)

    def __str__(self) -> str:
        return str(self.card)


@attrs.frozen
class DeclareWar:
    """The master, instead of leading a development trick, declares war; it then leads
    the first war trick.  Legal only with ``Rules(declare_war=True)``."""

    def __str__(self) -> str:
        return "war"


#: The players' actions (the protocol adds :class:`~cardrules.Shuffle`, the chance action).
ACTION_TYPES: Final = (Play, DeclareWar)
_DECLARE: Final = DeclareWar()
_PLAY: Final[dict[Card, Play]] = {c: Play(c) for c in (*standard_deck(), JOKER)}

# -- state ---------------------------------------------------------------------------


@attrs.frozen
class State:
    """The whole truth of a game of Gunsore.

    ``to_act``
        the player to act, :data:`~cardrules.CHANCE` before the first-master draw and
        before the first deal, ``None`` at the end;
    ``master``
        the player who leads the current trick (``None`` before the first-master
        draw); the other player is the *slave*;
    ``season``
        ``"development"`` or ``"war"`` (``None`` before the first deal and at the end);
    ``war_cause``
        in war, how it broke out: ``"stuck"``, ``"stock"`` or ``"declared"``;
    ``hands``
        each player's cards, in canonical order;
    ``stock``
        the undealt cards, top first;
    ``pools``
        each player's pool in the current season;
    ``scores``
        each player's game score;
    ``table``
        the card led to the current trick (``()`` between tricks);
    ``last_trick``
        the last completed trick, ``(lead, reply)``;
    ``history``
        every action so far, chance included.
    """

    rules: Rules
    players: int
    to_act: int | Chance | None
    master: int | None
    season: Season | None
    war_cause: WarCause | None
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    pools: tuple[int, ...]
    scores: tuple[int, ...]
    table: tuple[Card, ...]
    last_trick: tuple[Card, ...]
    history: tuple[Any, ...]
    seed: object = attrs.field(default=None, eq=False)

    @property
    def phase(self) -> Season | None:
        """The same as :attr:`season`."""
        return self.season

    @property
    def is_over(self) -> bool:
        """True once the stock and both hands are exhausted and the last truce scored."""
        return self.to_act is None

    @property
    def slave(self) -> int | None:
        """The player who answers the current trick."""
        return None if self.master is None else 1 - self.master

    @property
    def winners(self) -> tuple[int, ...]:
        """At the end, the players with the highest score (both on a tie); ``()`` before."""
        if self.to_act is not None:
            return ()
        best = max(self.scores)
        return tuple(p for p, s in enumerate(self.scores) if s == best)


@attrs.frozen
class View:
    """What one player may see: its own hand, and what is public.

    ``opponent_hand_size`` is the number of the opponent's cards, ``stock_size`` the
    number of cards left in the stock, ``table`` the card led to the current trick and
    ``last_trick`` the last completed trick ``(lead, reply)``.
    """

    player: int
    hand: tuple[Card, ...]
    to_act: int | Chance | None
    scores: tuple[int, ...]
    pools: tuple[int, ...]
    season: Season | None
    war_cause: WarCause | None
    master: int | None
    stock_size: int
    table: tuple[Card, ...]
    last_trick: tuple[Card, ...]
    opponent_hand_size: int
    #: every card played in the game's finished tricks, canonical (what a player who
    #: watched the whole game knows is gone)
    played: tuple[Card, ...] = ()


#: How the game functions make a State: naming the fields they set (cardrules._records).
STATE: Final = maker(State)
# Each kind of transition's new state, naming the fields it changes (Maker.replacer).
_FIRST_MASTER: Final = STATE.replacer("master", "history")
_DEAL: Final = STATE.replacer(
    "to_act", "season", "war_cause", "hands", "stock", "pools", "table", "last_trick", "history"
)
_DECLARE_WAR: Final = STATE.replacer("master", "season", "war_cause", "table", "history")
_LEAD: Final = STATE.replacer("to_act", "master", "season", "war_cause", "hands", "table", "history")
_TAKE: Final = STATE.replacer(
    "to_act", "master", "season", "war_cause", "hands", "stock", "pools", "table", "last_trick", "history"
)
_END_SEASON: Final = STATE.replacer(  # the game is over, or a new season
    "to_act", "master", "season", "war_cause", "hands", "stock", "pools", "scores", "table", "last_trick",
    "history",
)  # fmt: skip

# -- the rules -----------------------------------------------------------------------

_DECKS: dict[int, tuple[Card, ...]] = {}
_INDEX = attrgetter("index")


def game_deck(decks: int) -> tuple[Card, ...]:
    try:
        return _DECKS[decks]
    except KeyError:
        deck = canonical((*standard_deck(), JOKER) * decks)
        _DECKS[decks] = deck
        return deck


# Trick results asked of a table, kept per table (by identity; the table is kept alive
# in the entry so its id cannot be reused).  A table is a pure function of the two
# cards, so asking it once per pair is the same as asking it every time.
_WINNERS: dict[int, tuple[TrickTable, dict[tuple[Card, Card], int]]] = {}
_LAST_WINNERS: tuple[TrickTable | None, dict[tuple[Card, Card], int]] = (None, {})


def _trick_winner(table: TrickTable, lead: Card, reply: Card) -> int:
    """0 if the lead wins the trick, 1 if the reply does, as the table says."""
    entry = _WINNERS.get(id(table))
    if entry is None or entry[0] is not table:
        if len(_WINNERS) >= 32:
            _WINNERS.clear()
        entry = _WINNERS[id(table)] = (table, {})
    known = entry[1]
    global _LAST_WINNERS
    _LAST_WINNERS = entry  # one (table, results) pair, read by the step without a call
    try:
        return known[lead, reply]
    except KeyError:
        pass
    w = table.winner((lead, reply))
    if w not in (0, 1):
        raise CardRulesError(f"gunsore: trick table {table.name!r} named card {w!r} of a 2-card trick")
    known[lead, reply] = w
    return w


def stronger(table: TrickTable, a: Card, b: Card) -> bool:
    """Whether ``a`` is stronger than ``b`` for the first-master draw: ``a`` wins the
    trick whichever of the two is led.  Equal cards are never stronger than each
    other (the draw is then repeated)."""
    return _trick_winner(table, a, b) == 0 and _trick_winner(table, b, a) == 1


def start_state(rules: Rules, players: int) -> State:
    return STATE.new(
        rules=rules, players=2, to_act=CHANCE, master=None, season=None, war_cause=None, hands=((), ()),
        stock=(), pools=(0, 0), scores=(0, 0), table=(), last_trick=(), history=(),
    )  # fmt: skip


def cards_to_shuffle(state: State) -> tuple[Card, ...]:
    return game_deck(state.rules.decks)


def first_master(table: TrickTable, order: Sequence[Card]) -> int:
    """The first master drawn from ``order``: player 0 draws ``order[0]``, player 1
    ``order[1]``, the stronger is master; on equal cards the next two, and so on;
    player 0 if every pair is equal."""
    for i in range(0, len(order) - 1, 2):
        a, b = order[i], order[i + 1]
        if stronger(table, a, b):
            return 0
        if stronger(table, b, a):
            return 1
    return 0


def _deal_season(
    rules: Rules, master: int, stock: tuple[Card, ...]
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Deal up to ``hand_size`` each from the top of ``stock``, one at a time, master
    first; returns the hands and the rest of the stock."""
    k = min(2 * rules.hand_size, len(stock))
    to_master = canonical(stock[0:k:2])
    to_slave = canonical(stock[1:k:2])
    hands = (to_master, to_slave) if master == 0 else (to_slave, to_master)
    return hands, stock[k:]


def deal_cards(state: State, shuffle: Shuffle) -> State:
    rules = state.rules
    history = state.history + (shuffle,)  # noqa: RUF005 - faster than (*history, shuffle)
    if state.master is None:
        master = first_master(rules.table, shuffle.order)
        return _FIRST_MASTER(state, master=master, history=history)  # then the deal
    hands, stock = _deal_season(rules, state.master, shuffle.order)
    return _DEAL(
        state, to_act=state.master, season="development", war_cause=None, hands=hands, stock=stock,
        pools=(0, 0), table=(), last_trick=(), history=history,
    )  # fmt: skip


def suit_name(card: Card) -> str:
    assert card.suit is not None
    return card.suit.name.lower()


def _refuse(state: State, action: object) -> IllegalActionError:
    if state.to_act is None:
        return IllegalActionError("gunsore: the game is over")
    if isinstance(action, DeclareWar):
        if not state.rules.declare_war:
            return IllegalActionError(
                "gunsore: declaring war is off in these rules (Rules(declare_war=False))"
            )
        if state.season == "war":
            return IllegalActionError("war: war has already broken out")
        return IllegalActionError(
            "development: only the master declares war, instead of leading a trick; "
            f"player {state.to_act} must answer {state.table[0]}"
        )
    if isinstance(action, Play):
        if not isinstance(action.card, Card):
            return IllegalActionError(f"gunsore: {action.card!r} is not a card")
        return IllegalActionError(f"{state.season}: you hold no {action.card}")
    names = ", ".join(t.__name__ for t in (Shuffle, *ACTION_TYPES))
    return IllegalActionError(f"gunsore: {action!r} is not a Gunsore action ({names})")


#: The cards of each suit (a set, to ask "all of this suit?" and "none of it?" in C).
_SUIT_CARDS: Final[dict[Suit, frozenset[Card]]] = {
    s: frozenset(c for c in _PLAY if c.suit is s) for s in Suit
}


def step_state(state: State, action: object) -> State:
    if type(state.to_act) is int:
        if type(action) is Play:
            return _step_play(state, action)
        if type(action) is DeclareWar:
            return _step_declare(state, action)
    raise _refuse(state, action)


def _step_declare(state: State, action: DeclareWar) -> State:
    """:func:`step_state` of a :class:`DeclareWar` by the player to act."""
    if not state.table and state.season == "development" and state.rules.declare_war:
        return _DECLARE_WAR(
            state, master=state.to_act, season="war", war_cause="declared", table=(),
            history=state.history + (action,),  # noqa: RUF005
        )  # fmt: skip
    raise _refuse(state, action)


def _step_play(state: State, action: Play) -> State:
    """:func:`step_state` of a :class:`Play` by the player to act."""
    p: int = state.to_act  # type: ignore[assignment]
    card = action.card
    hand = state.hands[p]
    try:
        i = hand.index(card)
    except ValueError:
        raise _refuse(state, action) from None
    if hand[i] is not card:  # not a card, though its == claimed a held one (cards are interned)
        raise _refuse(state, action)
    rest = hand[:i] + hand[i + 1 :]
    rules = state.rules
    season = state.season
    table = state.table
    if not table:
        # The master leads.  A development lead the slave can only follow starts the
        # war at once: this trick is already a war trick.
        cause = state.war_cause
        suit = card.suit
        if season == "development" and suit is not None and _SUIT_CARDS[suit].issuperset(state.hands[1 - p]):
            season, cause = "war", "stuck"
        hands = (rest, state.hands[1]) if p == 0 else (state.hands[0], rest)
        return _LEAD(
            state, to_act=1 - p, master=p, season=season, war_cause=cause, hands=hands, table=(card,),
            history=state.history + (action,),  # noqa: RUF005
        )  # fmt: skip

    # The slave answers.
    lead = table[0]
    suit = lead.suit
    if suit is not None:
        if season == "development":
            if card.suit is suit:
                other = next(c for c in hand if c.suit is not suit)
                raise IllegalActionError(
                    f"development: you must not follow {suit_name(lead)} while you hold {other}"
                )
        elif card.suit is not suit and not _SUIT_CARDS[suit].isdisjoint(hand):
            for c in hand:
                if c.suit is suit:
                    extra = "; the joker is only for a slave who cannot follow" if card is JOKER else ""
                    raise IllegalActionError(
                        f"war: you hold {c}, so you must follow {suit_name(lead)}{extra}"
                    )
    master = 1 - p
    table_ = rules.table
    last = _LAST_WINNERS
    w = last[1].get((lead, card)) if last[0] is table_ else None
    if w is None:
        w = _trick_winner(table_, lead, card)
    winner = master if w == 0 else p
    pools = state.pools
    if card is JOKER:
        pools = (pools[1], pools[0])  # the slave's joker swaps the pools, before the points
    if season == "development":
        pd = rules.points_development
        if master == 0:
            pools = (pools[0] + pd[lead.rank], pools[1] + pd[card.rank])
        else:
            pools = (pools[0] + pd[card.rank], pools[1] + pd[lead.rank])
    else:
        pw = rules.points_war
        gain = pw[lead.rank] + pw[card.rank]
        pools = (pools[0] + gain, pools[1]) if winner == 0 else (pools[0], pools[1] + gain)
    if p == 0:
        h0, h1 = rest, state.hands[1]
    else:
        h0, h1 = state.hands[0], rest
    stock = state.stock
    cause = state.war_cause
    if season == "development" and stock:
        # the new master draws first, then the other player
        # (inserted in canonical order, written out here: no Python call per card drawn)
        first, second = (h0, h1) if winner == 0 else (h1, h0)
        cards = list(first)
        insort(cards, stock[0], key=_INDEX)
        first = tuple(cards)
        if len(stock) > 1:
            cards = list(second)
            insort(cards, stock[1], key=_INDEX)
            second = tuple(cards)
        h0, h1 = (first, second) if winner == 0 else (second, first)
        stock = stock[2:]
    history = state.history + (action,)  # noqa: RUF005 (concatenation is 40% faster here)
    if h0 or h1:
        if season == "development" and not stock and rules.war_when_stock_empty:
            season, cause = "war", "stock"
        return _TAKE(
            state, to_act=winner, master=winner, season=season, war_cause=cause, hands=(h0, h1),
            stock=stock, pools=pools, table=(), last_trick=(lead, card), history=history,
        )  # fmt: skip
    # Truce: the bigger pool takes both; equal pools each score their own.
    a, b = pools
    s0, s1 = state.scores
    if a > b:
        scores = (s0 + a + b, s1)
    elif b > a:
        scores = (s0, s1 + a + b)
    else:
        scores = (s0 + a, s1 + b)
    if not stock:
        return _END_SEASON(  # the game is over
            state, to_act=None, master=winner, season=None, war_cause=None, hands=((), ()), stock=(),
            pools=(0, 0), scores=scores, table=(), last_trick=(lead, card), history=history,
        )  # fmt: skip
    dealt, stock = _deal_season(rules, winner, stock)
    return _END_SEASON(  # a new season
        state, to_act=winner, master=winner, season="development", war_cause=None, hands=dealt,
        stock=stock, pools=(0, 0), scores=scores, table=(), last_trick=(lead, card), history=history,
    )  # fmt: skip


#: The step function of each kind of action (handed to GameDef as ``steps``).
STEPS: Final[dict[type, Callable[[State, Any], State]]] = {Play: _step_play, DeclareWar: _step_declare}


def player_view(state: State, player: int) -> View:
    return View(
        player,
        state.hands[player],
        state.to_act,
        state.scores,
        state.pools,
        state.season,
        state.war_cause,
        state.master,
        len(state.stock),
        state.table,
        state.last_trick,
        len(state.hands[1 - player]),
        _played(state),
    )


def public_view(state: State) -> View:
    """What someone at no seat may see (a spectator): player 0's view without its hand,
    the only cards a view holds that the other player never saw."""
    return attrs.evolve(player_view(state, 0), hand=())


#: Each distinct card of ``decks`` decks with its count, in canonical order.
_COUNTS: dict[int, tuple[tuple[Card, int], ...]] = {}


def _played(state: State) -> tuple[Card, ...]:
    """The cards of finished tricks: all but those in hands, the stock and the table
    (nothing before the first deal), in canonical order.  Every view asks for them, and
    the search's prior asks for a view at each expansion: the cards still in play are
    counted (``Counter.update`` counts in C) and the rest read off the decks' counts."""
    if state.to_act is CHANCE:
        return ()
    decks = state.rules.decks
    counts = _COUNTS.get(decks)
    if counts is None:
        counts = _COUNTS[decks] = tuple(Counter(game_deck(decks)).items())
    held = Counter(state.stock)
    held.update(state.table)
    for h in state.hands:
        held.update(h)
    get = held.get
    out: list[Card] = []
    for card, n in counts:
        k = n - get(card, 0)
        if k:
            out += (card,) * k
    return tuple(out)


# -- the legal actions -----------------------------------------------------------------


def legal_actions(state: State) -> tuple[Any, ...]:
    """Every legal action of the player to act: one :class:`Play` per distinct card
    it may play, in canonical order, then :class:`DeclareWar` where the master may
    declare war.  ``()`` at a chance node or at the end."""
    p = state.to_act
    if type(p) is not int:
        return ()
    hand = state.hands[p]
    table = state.table
    plays = _PLAY
    out: list[Any] = []
    prev = None
    suit = table[0].suit if table else None
    if suit is None:  # a lead, or an answer to a led joker: anything
        for c in hand:
            if c is not prev:
                out.append(plays[c])
                prev = c
        if not table and state.season == "development" and state.rules.declare_war:
            out.append(_DECLARE)
    elif state.season == "development":  # can't follow
        for c in hand:
            if c.suit is not suit and c is not prev:
                out.append(plays[c])
                prev = c
    else:  # must follow
        for c in hand:
            if c.suit is suit and c is not prev:
                out.append(plays[c])
                prev = c
        if not out:
            for c in hand:
                if c is not prev:
                    out.append(plays[c])
                    prev = c
    return tuple(out)
