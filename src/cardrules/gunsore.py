"""Gunsore (ガンソール, "guns or butter"): two players, two decks, development and war.

Every rule of the game is in this module; ``docs/games/gunsore.rst`` says which rules
come from the author's manual and which are reconstructed (the manual lost its lists of
war and truce triggers and its point table), and each reconstructed rule is a
:class:`Rules` option.

A game in short: the first master is drawn, five cards each are dealt, and a *season*
begins.  In the **development** phase the slave must *not* follow the led suit, each
player puts its own card's development points into its own pool, and both draw from the
stock.  Then war breaks out (a stuck slave, an empty stock, or the master's
:class:`DeclareWar`), and in the **war** phase the slave must follow, the trick's
winner takes the war points of both cards and nobody draws.  When both hands are empty
the bigger pool takes both pools into its owner's score (a *truce*); a new season is
dealt from what is left of the stock, and when the stock is gone the higher score wins.
A slave who plays the joker swaps the two pools.

>>> from cardrules import gunsore
>>> state = gunsore.new_game(seed=7)
>>> state.season, len(state.hands[0]), len(state.stock)
('development', 5, 96)
>>> action = gunsore.legal_actions(state)[0]
>>> state = gunsore.apply(state, action)
>>> state.table == (action.card,)
True

Which card wins a trick is asked of the trick table in ``Rules.table`` (the shipped
``gunsore`` table by default) through :meth:`cardrules.tricks.TrickTable.winner`, and
of nothing else.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
from random import Random
from typing import Any, Final, Literal

import attrs

from ._records import maker
from .agents import SeededAgent
from .cards import JOKER, Card, canonical, parse_card, standard_deck
from .errors import CardRulesError, IllegalActionError, RulesError
from .protocol import CHANCE, GameDef, SearchHooks, Shuffle, _Chance, register_game
from .tricks import TrickTable, builtin

__all__ = [
    "MAX_DECKS",
    "POINTS_DEVELOPMENT",
    "POINTS_WAR",
    "DeclareWar",
    "GreedyAgent",
    "Play",
    "Rules",
    "SeasonRecord",
    "State",
    "View",
    "apply",
    "chance_cards",
    "describe",
    "first_master",
    "legal_actions",
    "new_game",
    "replay",
    "season_log",
    "stronger",
    "summary",
    "view",
]

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
    to_act: int | _Chance | None
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
    to_act: int | _Chance | None
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
_STATE: Final = maker(State)

# -- the rules -----------------------------------------------------------------------

_DECKS: dict[int, tuple[Card, ...]] = {}
_INDEX = attrgetter("index")


def _deck(decks: int) -> tuple[Card, ...]:
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


def _trick_winner(table: TrickTable, lead: Card, reply: Card) -> int:
    """0 if the lead wins the trick, 1 if the reply does, as the table says."""
    entry = _WINNERS.get(id(table))
    if entry is None or entry[0] is not table:
        if len(_WINNERS) >= 32:
            _WINNERS.clear()
        entry = _WINNERS[id(table)] = (table, {})
    known = entry[1]
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


def _start(rules: Rules, players: int) -> State:
    return _STATE.new(
        rules=rules, players=2, to_act=CHANCE, master=None, season=None, war_cause=None, hands=((), ()),
        stock=(), pools=(0, 0), scores=(0, 0), table=(), last_trick=(), history=(),
    )  # fmt: skip


def _chance_cards(state: State) -> tuple[Card, ...]:
    return _deck(state.rules.decks)


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


def _deal(state: State, shuffle: Shuffle) -> State:
    rules = state.rules
    history = (*state.history, shuffle)
    if state.master is None:
        master = first_master(rules.table, shuffle.order)
        return _STATE.replace(state, master=master, history=history)  # then the deal
    hands, stock = _deal_season(rules, state.master, shuffle.order)
    return _STATE.replace(
        state, to_act=state.master, season="development", war_cause=None, hands=hands, stock=stock,
        pools=(0, 0), table=(), last_trick=(), history=history,
    )  # fmt: skip


def _suit_name(card: Card) -> str:
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
    names = ", ".join(t.__name__ for t in GAME.action_types)
    return IllegalActionError(f"gunsore: {action!r} is not a Gunsore action ({names})")


def _add(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    cards = list(hand)
    insort(cards, card, key=_INDEX)
    return tuple(cards)


def _step(state: State, action: object) -> State:
    p = state.to_act
    if type(action) is not Play or type(p) is not int:
        if (
            type(action) is DeclareWar
            and type(p) is int
            and not state.table
            and state.season == "development"
            and state.rules.declare_war
        ):
            return _STATE.replace(
                state, master=p, season="war", war_cause="declared", table=(),
                history=state.history + (action,),  # noqa: RUF005
            )  # fmt: skip
        raise _refuse(state, action)
    card = action.card
    hand = state.hands[p]
    try:
        i = hand.index(card)
    except ValueError:
        raise _refuse(state, action) from None
    rest = hand[:i] + hand[i + 1 :]
    rules = state.rules
    season = state.season
    table = state.table
    if not table:
        # The master leads.  A development lead the slave can only follow starts the
        # war at once: this trick is already a war trick.
        cause = state.war_cause
        suit = card.suit
        if season == "development" and suit is not None:
            for c in state.hands[1 - p]:
                if c.suit is not suit:
                    break
            else:
                season, cause = "war", "stuck"
        hands = (rest, state.hands[1]) if p == 0 else (state.hands[0], rest)
        return _STATE.replace(
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
                    f"development: you must not follow {_suit_name(lead)} while you hold {other}"
                )
        elif card.suit is not suit:
            for c in hand:
                if c.suit is suit:
                    extra = "; the joker is only for a slave who cannot follow" if card is JOKER else ""
                    raise IllegalActionError(
                        f"war: you hold {c}, so you must follow {_suit_name(lead)}{extra}"
                    )
    master = 1 - p
    table_ = rules.table
    entry = _WINNERS.get(id(table_))
    w = entry[1].get((lead, card)) if entry is not None and entry[0] is table_ else None
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
        if winner == 0:
            h0 = _add(h0, stock[0])
            if len(stock) > 1:
                h1 = _add(h1, stock[1])
        else:
            h1 = _add(h1, stock[0])
            if len(stock) > 1:
                h0 = _add(h0, stock[1])
        stock = stock[2:]
    history = state.history + (action,)  # noqa: RUF005 (concatenation is 40% faster here)
    if h0 or h1:
        if season == "development" and not stock and rules.war_when_stock_empty:
            season, cause = "war", "stock"
        return _STATE.replace(
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
        return _STATE.replace(  # the game is over
            state, to_act=None, master=winner, season=None, war_cause=None, hands=((), ()), stock=(),
            pools=(0, 0), scores=scores, table=(), last_trick=(lead, card), history=history,
        )  # fmt: skip
    dealt, stock = _deal_season(rules, winner, stock)
    return _STATE.replace(  # a new season
        state, to_act=winner, master=winner, season="development", war_cause=None, hands=dealt,
        stock=stock, pools=(0, 0), scores=scores, table=(), last_trick=(lead, card), history=history,
    )  # fmt: skip


def _view(state: State, player: int) -> View:
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


def _played(state: State) -> tuple[Card, ...]:
    """The cards of finished tricks: all but those in hands, the stock and the table
    (nothing before the first deal)."""
    if state.to_act is CHANCE:
        return ()
    left = Counter(_deck(state.rules.decks))
    left.subtract(state.stock)
    left.subtract(state.table)
    for h in state.hands:
        left.subtract(h)
    return canonical(left.elements())


# -- records ---------------------------------------------------------------------------


def _role(state: State, player: int) -> str:
    return f"player {player} ({'master' if player == state.master else 'slave'})"


def _truce_words(before: State, after: State) -> str:
    a, b = _pools_before_truce(before, after)
    gained = (after.scores[0] - before.scores[0], after.scores[1] - before.scores[1])
    if a == b:
        words = f"truce: equal pools ({a}), each scores its own"
    else:
        big = 0 if a > b else 1
        words = f"truce: player {big}'s pool {max(a, b)} beats {min(a, b)} and scores {gained[big]}"
    words += f"; scores {after.scores[0]} to {after.scores[1]}"
    if after.is_over:
        return words + "; the stock is gone: the game is over"
    n = len(after.hands[0])
    return words + f"; new season: {n} card{'s' if n != 1 else ''} each, player {after.master} is master"


def _pools_before_truce(before: State, after: State) -> tuple[int, int]:
    # The pools just before the truce, recomputed from the last trick (the state after
    # the truce has them back at 0).  Cold code, for records only.
    lead, card = after.last_trick
    rules = before.rules
    pools = before.pools
    if card is JOKER:
        pools = (pools[1], pools[0])
    master = before.master
    assert master is not None
    winner = after.master
    if before.season == "development":
        pd = rules.points_development
        add = [0, 0]
        add[master] += pd[lead.rank]
        add[1 - master] += pd[card.rank]
        return (pools[0] + add[0], pools[1] + add[1])
    gain = rules.points_war[lead.rank] + rules.points_war[card.rank]
    return (pools[0] + gain, pools[1]) if winner == 0 else (pools[0], pools[1] + gain)


def describe(state: State, action: object) -> str:
    """One readable line for ``action`` played in ``state`` (used by ``cardrules demo``).

    >>> s = new_game(seed=2024)
    >>> describe(s, DeclareWar())
    'player 0 (master) declares war'
    """
    if state.to_act is CHANCE and isinstance(action, Shuffle):
        after = _deal(state, action)
        if state.master is None:
            order = action.order
            parts = []
            for i in range(0, len(order) - 1, 2):
                parts.append(f"player 0 draws {order[i]}, player 1 draws {order[i + 1]}")
                if order[i] is not order[i + 1] and (
                    stronger(state.rules.table, order[i], order[i + 1])
                    or stronger(state.rules.table, order[i + 1], order[i])
                ):
                    break
            return (
                "chance: " + "; equal, again: ".join(parts) + f": player {after.master} is the first master"
            )
        n = len(after.hands[0])
        return f"chance: the deal, {n} cards each, master first; {len(after.stock)} cards in the stock"
    if isinstance(action, DeclareWar):
        return (
            f"{_role(state, state.to_act)} declares war" if isinstance(state.to_act, int) else "DeclareWar()"
        )
    if not isinstance(action, Play) or not isinstance(state.to_act, int):
        return str(action)
    p = state.to_act
    try:
        after = _step(state, action)
    except IllegalActionError as exc:
        return f"{_role(state, p)} tries {action.card}: {exc}"
    if not state.table:
        line = f"{_role(state, p)} leads {action.card}"
        if after.season == "war" and state.season == "development":
            line += f": war breaks out, player {1 - p} holds only {_suit_name(action.card)}"
        return line
    line = f"{_role(state, p)} plays {action.card}"
    if action.card is JOKER:
        line += ", swapping the pools"
    line += f"; player {after.master} wins the trick"
    if after.season is not None and after.season == state.season:
        line += f" (pools {after.pools[0]}-{after.pools[1]})"
    elif after.season == "war":
        line += f" (pools {after.pools[0]}-{after.pools[1]}); the stock is empty: war breaks out"
    if (
        after.scores != state.scores
        or after.is_over
        or (after.season != state.season and after.season == "development")
    ):
        line += "; " + _truce_words(state, after)
    return line


@attrs.frozen
class SeasonRecord:
    """One season of a finished or running game, as :func:`season_log` tells it.

    ``war_cause`` is ``None`` for a season that never went to war (only possible with
    ``war_when_stock_empty=False``); ``pools`` are the pools at the truce, ``None`` for
    the season still running.
    """

    master: int
    development_tricks: int
    war_tricks: int
    war_cause: WarCause | None
    pools: tuple[int, int] | None


def season_log(state: State) -> tuple[SeasonRecord, ...]:
    """The seasons of the game so far, replayed from ``state.history``."""
    g = GAME
    s = g.new_game(state.rules)
    records: list[SeasonRecord] = []
    current: list[Any] = []
    for action in state.history:
        before = s
        s = g.apply(s, action)
        if isinstance(action, Shuffle):
            if s.season == "development":
                current = [s.master, 0, 0, None]
            continue
        if isinstance(action, DeclareWar):
            current[3] = "declared"
            continue
        if before.table:  # a completed trick
            kind = 1 if before.season == "development" else 2
            current[kind] += 1
            if before.season == "development" and s.season == "war" and s.scores == before.scores:
                current[3] = "stock"
            if (
                s.scores != before.scores
                or s.is_over
                or (s.season == "development" and before.season == "war")
            ):
                records.append(SeasonRecord(current[0], current[1], current[2], current[3],
                                            _pools_before_truce(before, s)))  # fmt: skip
                current = [s.master, 0, 0, None]
        elif s.season == "war" and before.season == "development":
            current[3] = "stuck"
    if current and not s.is_over and s.season is not None:
        records.append(SeasonRecord(current[0], current[1], current[2], current[3], None))
    return tuple(records)


def summary(state: State) -> str:
    """A short account of a game: its seasons and how each war broke out."""
    log = season_log(state)
    causes = {"declared": 0, "stock": 0, "stuck": 0}
    for r in log:
        if r.war_cause is not None:
            causes[r.war_cause] += 1
    line = (
        f"gunsore: {len(log)} season{'s' if len(log) != 1 else ''}; wars: {causes['declared']} declared, "
        f"{causes['stock']} on an empty stock, {causes['stuck']} by a stuck slave"
    )
    if state.is_over:
        w = state.winners
        result = "a tie" if len(w) == 2 else f"player {w[0]} wins"
        line += f"; {result}, {state.scores[0]} to {state.scores[1]}"
    return line


# -- agents ----------------------------------------------------------------------------


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


# -- the public functions ----------------------------------------------------------------


# The public functions over GAME, written out on purpose (why: GameDef, cardrules.protocol).
def new_game(rules: Rules | None = None, *, players: int = 2, seed: object = None) -> State:
    """A new game (two players).  With ``seed`` every shuffle resolves itself;
    without, the state waits at the first-master draw for a
    :class:`~cardrules.Shuffle` of the 106 cards (``order[0]`` to player 0,
    ``order[1]`` to player 1; on equal cards the next two), then at the deal for
    another (``order[0]`` to the master, ``order[1]`` to the slave, ... five each; the
    rest is the stock, top first).  ``players`` is always 2; it is accepted so that
    generic code may pass it."""
    return GAME.new_game(rules, players=players, seed=seed)


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


def apply(state: State, action: Any) -> State:
    """The state after ``action``; an illegal one raises
    :class:`~cardrules.IllegalActionError` saying why ("war: you hold 5H, so you must
    follow hearts")."""
    return GAME.apply(state, action)


def view(state: State, player: int) -> View:
    """What ``player`` may see: its hand, both pools, the scores, the stock size, the
    cards on the table, and the opponent's hand size."""
    result: View = GAME.view(state, player)
    return result


def replay(rules: Rules | None, actions: Iterable[Any], *, players: int = 2) -> State:
    """The state reached by applying ``actions`` (shuffles included) to a new game
    (``players`` is always 2)."""
    return GAME.replay(rules, actions, players=players)


def chance_cards(state: State) -> tuple[Card, ...]:
    """At a chance node, the cards a :class:`~cardrules.Shuffle` must order: every card
    of the game's decks, in canonical order (``()`` anywhere else)."""
    return GAME.chance_cards(state)




# -- actions and tables as text --------------------------------------------------------
#
# The notation: a card played is the card (``7H``, ``JK`` for the joker); declaring war
# is ``war``.  ``parse_action`` also reads ``play 7H`` and ``declare war``.

from . import notation as _notation  # noqa: E402  (this section is kept apart)

_NOTATION: Final = _notation.Notation(aliases={"declare war": "war", "declarewar": "war"})


def _extra(state: State, key: str, cards: list[Card]) -> Any:
    ws = key.split()
    if ws[:1] == ["play"] and len(ws) == 2 and len(cards) == 1:
        return Play(cards[0])
    if len(ws) == 1 and len(cards) == 1:
        return Play(cards[0])
    return None


def parse_action(state: State, text: str) -> Any:
    """The legal action ``text`` names: a card (``7H``, ``JK``) or ``war``;
    case-insensitive, cards as :func:`~cardrules.parse_cards` reads them.  Text that
    names no legal action raises :class:`~cardrules.IllegalActionError` with the reason
    and the nearest legal actions.

    >>> s = new_game(seed=2024)
    >>> parse_action(s, "declare war")
    DeclareWar()
    """
    return _notation.read(state, text, legal_actions(state), _NOTATION, extra=_extra, check=apply)


def render(state: State, player: int | None = None) -> str:
    """The table as text: scores, the season and the pools, the stock, the card to
    answer, the hands (only ``player``'s own when a player is given: the text is drawn
    from :func:`view`), and who is to act.

    >>> print(render(new_game(seed=2024), 1))
    Gunsore: scores 0-0, development season, pools 0-0, 96 cards in the stock
    player 0 (master): 5 cards
    player 1 (slave): 5 cards
    your hand: JS 6H QH 7D 3C
    to act: player 0 (master) leads a card or declares war
    """
    views = [view(state, p) for p in range(2)] if player is None else [view(state, player)]
    v = views[0]
    sizes = {v.player: len(v.hand), 1 - v.player: v.opponent_hand_size}
    head = f"Gunsore: scores {v.scores[0]}-{v.scores[1]}"
    if v.season is not None:
        cause = {"stuck": " (the slave held only the led suit)", "stock": " (the stock ran out)",
                 "declared": " (declared)"}.get(v.war_cause or "", "")  # fmt: skip
        head += f", {v.season} season{cause if v.season == 'war' else ''}, pools {v.pools[0]}-{v.pools[1]}"
    head += f", {v.stock_size} cards in the stock"
    lines = [head]
    for p in range(2):
        role = "" if v.master is None else f" ({'master' if p == v.master else 'slave'})"
        lines.append(f"player {p}{role}: {sizes[p]} card{'s' * (sizes[p] != 1)}")
    if v.table:
        lines.append(f"to answer: {v.table[0]} led by player {v.master}")
    elif v.last_trick:
        lines.append(f"last trick: {v.last_trick[0]} {v.last_trick[1]}")
    for w in views:
        owner = "your hand" if player is not None else f"player {w.player}'s hand"
        lines.append(f"{owner}: {' '.join(map(str, w.hand)) or '-'}")
    if v.to_act is None:
        best = max(v.scores)
        won = [p for p in range(2) if v.scores[p] == best]
        lines.append("game over: " + ("a tie" if len(won) > 1 else f"player {won[0]} wins"))
    elif isinstance(v.to_act, int):
        p = v.to_act
        role = "master" if p == v.master else "slave"
        if v.table:
            doing = "answers"
        elif v.season == "development" and state.rules.declare_war:
            doing = "leads a card or declares war"
        else:
            doing = "leads a card"
        lines.append(f"to act: player {p} ({role}) {doing}")
    return "\n".join(lines)


__all__ += ["parse_action", "render"]

# -- sampling states from a view (for search agents: cardrules.search) -------------------


def _sampler(view: View, rules: Rules | None) -> Callable[[Random], State]:
    """The unseen cards (the decks less the player's hand, the table and every card
    played) are worked out once; each draw deals them uniformly to the opponent's hand
    and the stock."""
    from .sampling import check_total, deal, unseen

    rules = rules if rules is not None else Rules()
    p = view.player
    pool = unseen(_deck(rules.decks), view.hand, view.table, view.played) if view.to_act is not CHANCE else []
    h, s = view.opponent_hand_size, view.stock_size
    check_total("gunsore", pool, (h, s))

    def draw(rng: Random) -> State:
        opp, stock = deal(rng, pool, (h, s))
        theirs = canonical(opp)
        hands = (view.hand, theirs) if p == 0 else (theirs, view.hand)
        return _STATE.new(
            rules=rules, players=2, to_act=view.to_act, master=view.master, season=view.season,
            war_cause=view.war_cause, hands=hands, stock=tuple(stock), pools=view.pools, scores=view.scores,
            table=view.table, last_trick=view.last_trick, history=(), seed=None,
        )  # fmt: skip

    return draw


def sample_state(view: View, *, seed: object = None, rules: Rules | None = None) -> State:
    """A whole state consistent with ``view`` (``view(sample, view.player) == view``):
    the cards ``view.player`` has not seen (not in its hand, on the table or played)
    are dealt uniformly to the opponent's hand and the stock.  A suit the opponent
    showed it lacks in a war trick is not ruled out (the view does not keep the war's
    earlier tricks).  The sample's ``history`` is empty and its ``seed`` ``None``
    (:mod:`cardrules.sampling`); ``rules``: the game's rules, when not the default ones.

    >>> state = new_game(seed=3)
    >>> v = view(state, 1)
    >>> view(sample_state(v, seed=1), 1) == v
    True
    """
    return GAME.sample_state(view, seed=seed, rules=rules)


_HELP = """\
  a card to play: 7H, JK for the joker
  declare war (master, development season): war"""

GAME: Final = GameDef(
    "gunsore",
    rules_type=Rules,
    state_type=State,
    action_types=(Play, DeclareWar),
    player_counts=(2,),
    default_players=2,
    start=_start,
    legal_actions=legal_actions,
    step=_step,
    chance_cards=_chance_cards,
    deal=_deal,
    view=_view,
    describe=describe,
    summary=summary,
    parse_action=parse_action,
    render=render,
    notation=_HELP,
    scoring="season",
    sampler=_sampler,
    greedy_agent=GreedyAgent,
    search=SearchHooks(settings={"iterations": 500, "prior": "greedy", "widening": 1.0}, reward_scale=60.0),
    module=__name__,
)
register_game(GAME)
