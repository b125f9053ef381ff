"""Haggis (Sean Ross, 2010) for two or three players: climbing with wild face cards, bombs
and bets.

The rules as implemented, and every decision taken where the sources are silent, are on
the Haggis page of the documentation.  In short: number cards
2..10 in four suits (five with moons for three players), each player owns a public J, Q
and K that stand for lower cards; players lead and beat *combinations* (sets, runs, runs
of sets, bombs), capture the tricks they win, and score the odd cards and faces they
captured, 5 points per card left in the largest opposing hand for going out, and bets.

The combinations are values:

>>> from cardrules import parse_cards
>>> from cardrules.haggis import combinations, beats
>>> for c in combinations(parse_cards("2S J Q K")):
...     print(c)
four 2s: 2S J Q K
a run of four to 5: 2S J Q K
a run of two pairs to 3: 2S J Q K
>>> high = combinations("10S 10H J Q")[-1]
>>> high.describe(), high.rank, high.width
('a run of two pairs to J', 11, 2)
>>> beats(high, combinations("9S 9H 10S 10H")[0])
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, Literal

import attrs

from .._records import maker
from ..agents import SeededAgent
from ..cards import Card, canonical
from ..errors import CardRulesError, IllegalActionError, RulesError
from ..protocol import CHANCE, GameDef, SearchHooks, Shuffle, _Chance, register_game
from .combos import _DECKS as _DECKS
from .combos import (
    _KB,
    Combo,
    J,
    K,
    Play,
    Q,
    _check_group,
    _following,
    _generate,
    _genuine,
    beats,
    card_points,
    combinations,
    deck,
    declarations,
)
from .combos import _NUM_TUPLES as _NUM_TUPLES
from .combos import _PIECES as _PIECES
from .combos import _PLAYS as _PLAYS
from .combos import FACES as FACES
from .combos import _build as _build
from .combos import _combo_key as _combo_key
from .combos import _make_play as _make_play

__all__ = [
    "Bet",
    "Combo",
    "GiveTrick",
    "GreedyAgent",
    "Pass",
    "Play",
    "Rules",
    "State",
    "View",
    "apply",
    "beats",
    "card_points",
    "chance_cards",
    "combinations",
    "deck",
    "declarations",
    "describe",
    "game_over",
    "hand_points",
    "legal_actions",
    "new_game",
    "next_leader",
    "parse_action",
    "render",
    "replay",
    "summary",
    "view",
]

# The engine's public names are this package's: documented and pickled as cardrules.haggis.X.
for _public in (Combo, Play, beats, card_points, combinations, deck, declarations):
    _public.__module__ = __name__
del _public

@attrs.frozen
class Pass:
    """Pass: play nothing this turn (never allowed to the leader of a trick)."""

    def __str__(self) -> str:
        return "pass"


@attrs.frozen
class Bet:
    """Bet ``amount`` (15 little, 30 big) to go out first.  Only before your first card
    of the hand, once; the same player then acts again."""

    amount: int

    def __str__(self) -> str:
        return f"bet {self.amount}"


@attrs.frozen
class GiveTrick:
    """The bomber gives the trick its bomb won to ``player`` (3 players, ``Rules(
    bomb_trick="choose")``)."""

    player: int

    def __str__(self) -> str:
        return f"give {self.player}"


_PASS = Pass()


# ---------------------------------------------------------------------------------------
# Rules, state, view


def _check_target(inst: Rules, attribute: object, value: int) -> None:
    if type(value) is not int or value < 1:
        raise RulesError(f"target must be a positive whole number of points, not {value!r}")


def _check_bomb_trick(inst: Rules, attribute: object, value: str) -> None:
    if value not in ("choose", "tournament"):
        raise RulesError(f"bomb_trick must be 'choose' or 'tournament', not {value!r}")


def _check_bonus(inst: Rules, attribute: object, value: int) -> None:
    if type(value) is not int or value < 0:
        raise RulesError(f"first_out_bonus must be a whole number of points >= 0, not {value!r}")


def _check_bets(inst: Rules, attribute: object, value: tuple[int, ...]) -> None:
    if not isinstance(value, tuple) or any(type(v) is not int or v < 1 for v in value):
        raise RulesError(f"bets must be a tuple of positive whole numbers, not {value!r}")
    if len(set(value)) != len(value):
        raise RulesError(f"bets must not repeat an amount: {value!r}")


def _to_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


@attrs.frozen
class Rules:
    """Haggis variants.  ``Rules()`` is the game as the documentation's Haggis page tells it.

    ``target``: the game ends after a hand where someone has this many points and is
    strictly ahead (250; 350 for the long game).  ``bomb_trick``: who captures a trick
    won by a bomb with three players: ``"choose"`` (the bomber gives it to an opponent
    of its choice, :class:`GiveTrick`) or ``"tournament"`` (the player of the
    combination just before the bomb, or the bomber's right-hand neighbour if the bomb
    was led).  ``first_out_bonus``: extra points for the first player out (the German
    rulebook's 5 with three players).  ``bets``: the amounts one may bet (``()`` turns
    betting off).

    >>> Rules(bomb_trick="sometimes")
    Traceback (most recent call last):
    ...
    cardrules.errors.RulesError: bomb_trick must be 'choose' or 'tournament', not 'sometimes'
    """

    target: int = attrs.field(default=250, validator=_check_target)
    bomb_trick: Literal["choose", "tournament"] = attrs.field(default="choose", validator=_check_bomb_trick)
    first_out_bonus: int = attrs.field(default=0, validator=_check_bonus)
    bets: tuple[int, ...] = attrs.field(default=(15, 30), converter=_to_tuple, validator=_check_bets)


class _Memo:
    """Per-hand memo of the declarations each player can lead (a cache of a pure
    function of the hand, shared by the states of one hand; it never changes what any
    function returns).  What a hand can play only shrinks, so a smaller hand's list is
    the bigger hand's list filtered."""

    __slots__ = ("lead",)

    def __init__(self, players: int) -> None:
        self.lead: list[list[tuple[int, list[int], tuple[Play, ...]]]] = [[] for _ in range(players)]

    def __repr__(self) -> str:
        return "_Memo()"

    def __reduce__(self) -> tuple[Any, ...]:
        # a cache: copies and pickles start empty
        return (_Memo, (len(self.lead),))


def _new_memo(players: int = 2) -> _Memo:
    return _Memo(players)


@attrs.frozen
class State:
    """The whole truth of a game of Haggis.

    ``hands`` (canonical, face cards included), ``haggis`` (the unseen cards set
    aside), ``trick`` (the current trick's plays as ``(player, combo)``, oldest first),
    ``passes`` (passes in succession since the last play), ``captured`` (each player's
    pile this hand; after a hand, its final piles, the first player out's with the
    haggis and the last hand), ``bets`` (0: none), ``started`` (has played a card this
    hand), ``out`` (players out, in order), ``going_out`` (going-out points this hand,
    the first-out bonus included), ``giving`` (the player to act must give a bombed
    trick away), ``scores`` (game scores), ``leader`` (who leads this hand, or the next
    one at a chance node), ``last_hand`` (each player's points in the last finished
    hand), ``hand_number`` (hands dealt so far).

    ``memo`` caches the declarations each player can lead (it takes no part in ``==``
    and never changes what a function returns).
    """

    rules: Rules
    players: int
    scores: tuple[int, ...]
    leader: int
    hands: tuple[tuple[Card, ...], ...]
    haggis: tuple[Card, ...]
    trick: tuple[tuple[int, Combo], ...]
    passes: int
    captured: tuple[tuple[Card, ...], ...]
    bets: tuple[int, ...]
    started: tuple[bool, ...]
    out: tuple[int, ...]
    going_out: tuple[int, ...]
    giving: bool
    to_act: int | _Chance | None
    last_hand: tuple[int, ...]
    hand_number: int
    history: tuple[Any, ...]
    seed: object = attrs.field(default=None, eq=False)
    memo: _Memo = attrs.field(factory=_new_memo, eq=False, repr=False)

    @property
    def is_over(self) -> bool:
        return self.to_act is None

    @property
    def winners(self) -> tuple[int, ...]:
        if self.to_act is not None:
            return ()
        best = max(self.scores)
        return tuple(p for p, s in enumerate(self.scores) if s == best)

    @property
    def table(self) -> Combo | None:
        """The combination to beat, or ``None`` when a trick is to be led."""
        return self.trick[-1][1] if self.trick else None


@attrs.frozen
class View:
    """What one player may see: its own ``hand``; every player's ``wilds`` still in
    hand (face cards are public); the current ``trick`` (``(player, combo)`` plays);
    every ``captured`` pile (played face up); ``hand_sizes``; ``bets``; ``out``;
    ``scores``; never another player's number cards or the haggis (only its size)."""

    player: int
    players: int
    hand: tuple[Card, ...]
    to_act: int | _Chance | None
    scores: tuple[int, ...]
    wilds: tuple[tuple[Card, ...], ...]
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, Combo], ...]
    passes: int
    captured: tuple[tuple[Card, ...], ...]
    bets: tuple[int, ...]
    out: tuple[int, ...]
    giving: bool
    haggis_size: int
    last_hand: tuple[int, ...]
    hand_number: int
    rules: Rules
    #: going-out points each player has earned this hand (public: scored on going out)
    going_out: tuple[int, ...] = ()
    #: who led this hand (or leads the next one, between hands)
    leader: int = 0

    @property
    def table(self) -> Combo | None:
        """The combination to beat, or ``None`` when a trick is to be led."""
        return self.trick[-1][1] if self.trick else None


#: How the game functions make a State: naming the fields they set (cardrules._records).
_STATE: Final = maker(State)


# ---------------------------------------------------------------------------------------
# The game


def _hand_begins(players: int) -> dict[str, Any]:
    """What every hand begins with (and the game, before its first deal): no trick, no
    passes, nothing captured, bet or started, nobody out, no bombed trick to give."""
    z = (0,) * players
    return {
        "trick": (),
        "passes": 0,
        "captured": ((),) * players,
        "bets": z,
        "started": (False,) * players,
        "out": (),
        "going_out": z,
        "giving": False,
    }


def _start(rules: Rules, players: int) -> State:
    z = (0,) * players
    return _STATE.new(
        rules=rules,
        players=players,
        scores=z,
        leader=0,
        hands=((),) * players,
        haggis=(),
        **_hand_begins(players),
        to_act=CHANCE,
        last_hand=z,
        hand_number=0,
        history=(),
        seed=None,
        memo=_Memo(players),
    )


def _chance_cards(state: State) -> tuple[Card, ...]:
    return _DECKS[state.players]


def _deal(state: State, shuffle: Shuffle) -> State:
    n = state.players
    order = shuffle.order
    hands = tuple(canonical((*order[p : 14 * n : n], J, Q, K)) for p in range(n))
    return _STATE.replace(
        state,
        hands=hands,
        haggis=canonical(order[14 * n :]),
        **_hand_begins(n),
        to_act=state.leader,
        hand_number=state.hand_number + 1,
        history=(*state.history, shuffle),
        memo=_Memo(n),
    )


def _suits(state: State) -> int:
    return 4 if state.players == 2 else 5


def _lead_plays(state: State, p: int) -> tuple[Play, ...]:
    hand = state.hands[p]
    hmask = 0
    for c in hand:
        hmask += _KB[c]
    entries = state.memo.lead[p]
    best = None
    for e in entries:
        if e[0] == hmask:
            return e[2]
        if e[0] & hmask == hmask and (best is None or e[0] < best[0]):
            best = e
    if best is not None:
        gone = best[0] & ~hmask
        ms = []
        ps = []
        for m, pl in zip(best[1], best[2], strict=True):
            if not m & gone:
                ms.append(m)
                ps.append(pl)
        plays = tuple(ps)
    else:
        ms, ps_list = _generate(hand, _suits(state))
        plays = tuple(ps_list)
    entries.insert(0, (hmask, ms, plays))
    del entries[4:]
    return plays


_BETS: dict[int, Bet] = {}


def _bet(amount: int) -> Bet:
    b = _BETS.get(amount)
    if b is None:
        b = _BETS[amount] = Bet(amount)
    return b


def legal_actions(state: State) -> tuple[Any, ...]:
    """Every legal action of the player to act, each once, in a stable order: plays
    (every distinct declaration when leading; only what beats the table when
    following), then :class:`Pass` when following, then :class:`Bet` while allowed; or
    only :class:`GiveTrick` actions after a bomb won (``choose`` rule)."""
    # The game's own function, handed to GameDef as is (no wrapper: this is the hot path).
    p = state.to_act
    if type(p) is not int:
        return ()
    if state.giving:
        return tuple(GiveTrick(q) for q in range(state.players) if q != p)
    bets: tuple[Bet, ...] = ()
    if not state.started[p] and not state.bets[p] and state.rules.bets:
        bets = tuple(_bet(a) for a in state.rules.bets)
    if not state.trick:
        return _lead_plays(state, p) + bets
    return (*_following(state.hands[p], _suits(state), state.trick[-1][1]), _PASS, *bets)


def _next_with_cards(hands: Sequence[tuple[Card, ...]], p: int) -> int:
    n = len(hands)
    for i in range(1, n + 1):
        q = (p + i) % n
        if hands[q]:
            return q
    return p


def _step(state: State, action: Any) -> State:
    p = state.to_act
    if type(p) is not int:
        raise IllegalActionError("the game is over" if p is None else "this is a chance node")
    t = type(action)
    if t is Combo:
        action = Play(action)
        t = Play
    if state.giving:
        if t is not GiveTrick:
            raise IllegalActionError(
                f"your bomb won the trick: give it to an opponent with GiveTrick(player), not {action}"
            )
        return _give(state, p, action)
    if t is Play:
        return _play(state, p, action)
    if t is Pass:
        if not state.trick:
            raise IllegalActionError("you lead this trick: you may not pass")
        return _pass(state, p, action)
    if t is Bet:
        return _do_bet(state, p, action)
    if t is GiveTrick:
        raise IllegalActionError("you can only give away a trick your bomb won")
    raise IllegalActionError(f"{action!r} is not a Haggis action (Play, Pass, Bet or GiveTrick)")


def _do_bet(state: State, p: int, action: Bet) -> State:
    if not state.rules.bets:
        raise IllegalActionError("betting is off in these rules")
    if state.started[p]:
        raise IllegalActionError("bets are only allowed before your first card")
    if state.bets[p]:
        raise IllegalActionError(f"you already bet {state.bets[p]} this hand")
    if type(action.amount) is not int or action.amount not in state.rules.bets:
        allowed = " or ".join(map(str, state.rules.bets))
        raise IllegalActionError(f"you may bet {allowed}, not {action.amount!r}")
    bets = list(state.bets)
    bets[p] = action.amount
    return _STATE.replace(
        state,
        bets=tuple(bets),
        giving=False,
        to_act=p,
        history=(*state.history, action),
    )


def _why_not(state: State, p: int, combo: Any) -> str:
    """Why playing ``combo`` is illegal (it is)."""
    if not isinstance(combo, Combo):
        return f"Play needs a Combo (from combinations or legal_actions), not {combo!r}"
    if isinstance(combo.cards, str) or not isinstance(combo.cards, Iterable):
        return f"a Combo's cards are a tuple of cards, not {combo.cards!r}"
    try:
        cards = _check_group(combo.cards, "that play")
    except CardRulesError as exc:
        return str(exc)
    hand = state.hands[p]
    missing = list((Counter(cards) - Counter(hand)).elements())
    if missing:
        missing = list(canonical(missing))
        return f"you do not hold {' '.join(map(str, missing))}"
    if not cards:
        return "a play needs at least one card"
    options = combinations(cards, suits=_suits(state))
    if combo not in options:
        if not options:
            return f"{' '.join(map(str, canonical(cards)))} is no combination"
        said = ", ".join(o.describe() for o in options)
        return f"{' '.join(map(str, canonical(cards)))} cannot be declared so; it can be: {said}"
    if not state.trick:  # pragma: no cover - every case is caught above
        return f"{combo.describe()} cannot be played here"
    top = state.trick[-1][1]
    if combo.kind == "bomb":
        return f"{combo.describe()} cannot beat a stronger bomb, {top.describe()}"
    if top.kind == "bomb":
        return f"only a stronger bomb can beat {top.describe()}"
    mine, theirs = combo.name, top.name
    if mine != theirs:
        return f"{mine} cannot beat {theirs}"
    return f"{combo.describe()} does not beat {top.describe()}: it must be higher"


def _play(state: State, p: int, action: Play) -> State:
    combo = action.combo
    hand = state.hands[p]
    # The cheap checks first (the player holds the cards), then whether it is a real
    # declaration: a hand-made combo of the whole deck must not be analysed first.
    ok = type(combo) is Combo and type(combo.cards) is tuple and len(combo.cards) <= len(hand)
    if ok:
        hmask = 0
        for c in hand:
            hmask += _KB[c]
        cmask = 0
        for c in combo.cards:
            bit = _KB.get(c) if isinstance(c, Card) else None
            if bit is None:
                ok = False
                break
            cmask += bit
        ok = ok and cmask & ~hmask == 0 and _genuine(combo) and (combo.width or 0) <= _suits(state)
        if ok and state.trick:
            ok = beats(combo, state.trick[-1][1])
    if not ok:
        # a hand-made combo in another order is still the same declaration
        if isinstance(combo, Combo) and isinstance(combo.cards, (tuple, list)):
            try:
                fixed = Combo(combo.kind, combo.rank, combo.size, combo.width, canonical(combo.cards))
            except (TypeError, AttributeError):
                fixed = combo
            if fixed != combo and fixed in [pl.combo for pl in legal_actions(state) if type(pl) is Play]:
                return _play(state, p, Play(fixed))
        raise IllegalActionError(_why_not(state, p, combo))
    used = set(combo.cards)
    new_hand = tuple(c for c in hand if c not in used)
    hands = list(state.hands)
    hands[p] = new_hand
    started = state.started
    if not started[p]:
        started = tuple(True if q == p else s for q, s in enumerate(started))
    trick = (*state.trick, (p, combo))
    out = state.out
    going_out = state.going_out
    if not new_hand:
        out = (*out, p)
        largest = max(len(h) for q, h in enumerate(hands) if q != p)
        pts = 5 * largest + (state.rules.first_out_bonus if len(out) == 1 else 0)
        going_out = tuple(g + pts if q == p else g for q, g in enumerate(going_out))
    history = (*state.history, action)
    # With one player left holding cards the hand ends at once: the last trick goes to
    # the last player (or by the bomb rule); otherwise play moves on clockwise.
    hand_over = sum(1 for h in hands if h) <= 1
    new = _STATE.replace(
        state,
        hands=tuple(hands),
        trick=trick,
        passes=0,
        started=started,
        out=out,
        going_out=going_out,
        giving=False,
        to_act=p if hand_over else _next_with_cards(hands, p),
        history=history,
    )
    return _end_trick(new, p) if hand_over else new


def _pass(state: State, p: int, action: Pass) -> State:
    passes = state.passes + 1
    last = state.trick[-1][0]
    hands = state.hands
    needed = sum(1 for q, h in enumerate(hands) if h and q != last)
    history = (*state.history, action)
    trick_over = passes >= needed  # everyone still in passed: the last player takes it
    new = _STATE.replace(
        state,
        passes=passes,
        giving=False,
        to_act=p if trick_over else _next_with_cards(hands, p),
        history=history,
    )
    return _end_trick(new, last) if trick_over else new


def _end_trick(state: State, last: int) -> State:
    """The trick is over; ``last`` played its winning combination."""
    n = state.players
    top = state.trick[-1][1]
    if top.kind == "bomb":
        if n == 2:
            return _capture(state, last, 1 - last)
        if state.rules.bomb_trick == "tournament":
            taker = state.trick[-2][0] if len(state.trick) >= 2 else (last - 1) % n
            return _capture(state, last, taker)
        return _STATE.replace(state, giving=True, to_act=last)  # the bomber gives it away
    return _capture(state, last, last)


def _give(state: State, p: int, action: GiveTrick) -> State:
    q = action.player
    if type(q) is not int or not 0 <= q < state.players:
        raise IllegalActionError(f"there is no player {q!r} to give the trick to")
    if q == p:
        raise IllegalActionError("a trick won by a bomb goes to an opponent, not to the bomber")
    state = _STATE.replace(
        state,
        giving=False,
        to_act=p,
        history=(*state.history, action),
    )
    return _capture(state, p, q)


def _capture(state: State, winner: int, taker: int) -> State:
    """``taker`` captures the trick that ``winner`` won; ``winner`` leads next."""
    won = tuple(c for _, combo in state.trick for c in combo.cards)
    captured = tuple(pile + won if q == taker else pile for q, pile in enumerate(state.captured))
    hands = state.hands
    if sum(1 for h in hands if h) <= 1:
        return _end_hand(state, captured)
    leader = winner if hands[winner] else _next_with_cards(hands, winner)
    return _STATE.replace(
        state,
        trick=(),
        passes=0,
        captured=captured,
        giving=False,
        to_act=leader,
    )


def hand_points(state: State, captured: tuple[tuple[Card, ...], ...]) -> tuple[int, ...]:
    """Each player's points for the hand ending in ``state`` with these piles: card
    points (the first player out adds the haggis and the last hand), going-out points
    and bets."""
    n = state.players
    first = state.out[0]
    rest = tuple(c for h in state.hands for c in h)
    pts = [card_points(captured[q]) + state.going_out[q] for q in range(n)]
    pts[first] += card_points(state.haggis) + card_points(rest)
    for b, amount in enumerate(state.bets):
        if not amount:
            continue
        if b == first:
            pts[b] += amount
        else:
            for q in range(n):
                if q == first or (q != b and not state.bets[q]):
                    pts[q] += amount
    return tuple(pts)


def game_over(scores: Sequence[int], target: int) -> bool:
    """Does the game end with these scores after a hand?  When someone has ``target``
    or more and one player is strictly ahead; a tie at the top plays another hand.

    >>> game_over((250, 120), 250), game_over((260, 260, 3), 250), game_over((249, 0), 250)
    (True, False, False)
    """
    if not scores:
        raise CardRulesError("game_over needs the players' scores")
    top = max(scores)
    return top >= target and list(scores).count(top) == 1


def next_leader(scores: Sequence[int], first_out: int) -> int:
    """Who leads the next hand: the lowest game score; on a tie for the lowest, the
    tied player coming first clockwise after the previous hand's first player out.

    >>> next_leader((40, 10, 10), 1), next_leader((40, 10, 10), 2), next_leader((0, 0), 0)
    (2, 1, 1)
    """
    n = len(scores)
    low = min(scores)
    return next(q for q in ((first_out + i) % n for i in range(1, n + 1)) if scores[q] == low)


def _end_hand(state: State, captured: tuple[tuple[Card, ...], ...]) -> State:
    n = state.players
    first = state.out[0]
    pts = hand_points(state, captured)
    scores = tuple(s + d for s, d in zip(state.scores, pts, strict=True))
    rest = tuple(c for h in state.hands for c in h)
    final = tuple(pile + (state.haggis + rest if q == first else ()) for q, pile in enumerate(captured))
    over = game_over(scores, state.rules.target)
    leader = next_leader(scores, first)
    e: tuple[tuple[Card, ...], ...] = ((),) * n
    return _STATE.replace(
        state,
        scores=scores,
        leader=leader,
        hands=e,
        haggis=(),
        trick=(),
        passes=0,
        captured=final,
        giving=False,
        to_act=None if over else CHANCE,
        last_hand=pts,
    )


def _view(state: State, player: int) -> View:
    hands = state.hands
    return View(
        player,
        state.players,
        hands[player],
        state.to_act,
        state.scores,
        tuple(tuple(c for c in h if c.suit is None) for h in hands),
        tuple(len(h) for h in hands),
        state.trick,
        state.passes,
        state.captured,
        state.bets,
        state.out,
        state.giving,
        len(state.haggis),
        state.last_hand,
        state.hand_number,
        state.rules,
        state.going_out,
        state.leader,
    )


def describe(state: State, action: Any) -> str:
    """A line for a record: ``"player 1 plays a run of three to 9: 7H 8H 9H"``."""
    p = state.to_act
    if p is CHANCE:
        return f"chance deals hand {state.hand_number + 1}"
    who = f"player {p}"
    if isinstance(action, Combo):
        action = Play(action)
    if isinstance(action, Play):
        c = action.combo
        line = f"{who} plays {c}"
        if isinstance(p, int) and isinstance(c, Combo) and len(state.hands[p]) == len(c.cards):
            line += " and goes out"
            if sum(1 for h in state.hands if h) <= 2:
                line += f"; hand {state.hand_number} ends"
        return line
    if isinstance(action, Pass):
        return f"{who} passes"
    if isinstance(action, Bet):
        return f"{who} bets {action.amount} to go out first"
    if isinstance(action, GiveTrick):
        return f"{who} gives the bombed trick to player {action.player}"
    return f"{who}: {action}"


def summary(state: State) -> str:
    """The game in a few lines: hands played and final scores."""
    lines = [f"{state.hand_number} hand(s) played; last hand's points: {list(state.last_hand)}"]
    if state.is_over:
        lines.append(f"player {state.winners[0]} wins with {max(state.scores)} points")
    return "\n".join(lines)




# The public functions over GAME, written out on purpose (why: GameDef, cardrules.protocol).
def new_game(rules: Rules | None = None, *, players: int = 2, seed: object = None) -> State:
    """A new game for 2 or 3 players.  With ``seed`` every deal resolves itself;
    without, the state waits at a chance node for a :class:`~cardrules.Shuffle` of
    :func:`deck` (``order[i]`` goes to player ``i % players`` for the first ``14 *
    players`` cards, the rest is the haggis).

    >>> state = new_game(seed=1)
    >>> state.to_act, len(state.hands[0]), len(state.haggis)
    (0, 17, 8)
    """
    return GAME.new_game(rules, players=players, seed=seed)


def apply(state: State, action: Any) -> State:
    """The state after ``action``; an illegal action raises
    :class:`~cardrules.IllegalActionError` saying why ("a pair cannot beat a run of
    three").  A :class:`Combo` is accepted as ``Play(combo)``."""
    return GAME.apply(state, action)


def view(state: State, player: int) -> View:
    """What ``player`` may see (see :class:`View`)."""
    v: View = GAME.view(state, player)
    return v


def replay(rules: Rules | None, actions: Iterable[Any], *, players: int = 2) -> State:
    """The state reached by ``actions`` (shuffles included) from a new unseeded game."""
    return GAME.replay(rules, actions, players=players)


def chance_cards(state: State) -> tuple[Card, ...]:
    """At a chance node, the number cards a :class:`~cardrules.Shuffle` must order:
    :func:`deck` for the number of players (``()`` anywhere else)."""
    return GAME.chance_cards(state)


# ---------------------------------------------------------------------------------------
# A stronger agent


class GreedyAgent(SeededAgent):
    """A simple, documented heuristic player.

    * Never bets.
    * Leading: sheds the most cards it can without face cards or bombs, the lowest
      such combination on ties; face cards and bombs only when nothing else is left.
    * Following: beats with the cheapest combination (no face cards, lowest rank) if
      it can; uses face cards or a bomb only when an opponent is about to go out
      (three cards or fewer) or when that play takes it out; else passes.
    * Giving a bombed trick (three players): to the opponent with the lowest game
      score.

    It won all of 100 two-player games against :class:`~cardrules.agents.RandomAgent`
    (``simulate(..., seed="g")``, average score 274 to 92), and all of 60 three-player
    games against two of them.

    >>> from cardrules.simulate import play
    >>> final = play("haggis", [GreedyAgent(1), GreedyAgent(2)], seed=3)
    >>> final.is_over
    True
    """

    SEED_PREFIX = "greedy"

    def __init__(self, seed: object = None) -> None:
        super().__init__(seed)

    def __call__(self, view: View, legal: Sequence[Any]) -> Any:
        if not legal:
            raise CardRulesError("GreedyAgent was asked to act with no legal action")
        gives = [a for a in legal if type(a) is GiveTrick]
        if gives:
            return min(gives, key=lambda a: (view.scores[a.player], a.player))
        plays = [a for a in legal if type(a) is Play]
        hand_size = len(view.hand)

        def wild_count(a: Play) -> int:
            return sum(1 for c in a.combo.cards if c.suit is None)

        plain = [a for a in plays if a.combo.kind != "bomb" and wild_count(a) == 0]
        going_out = [a for a in plays if len(a.combo.cards) == hand_size]
        if going_out:
            return going_out[0]
        if view.table is None:
            pool = plain or [a for a in plays if a.combo.kind != "bomb"] or plays
            return max(pool, key=lambda a: (len(a.combo.cards) - 3 * wild_count(a), -a.combo.rank))
        if plain:
            return min(plain, key=lambda a: (a.combo.rank, len(a.combo.cards)))
        danger = any(s <= 3 for q, s in enumerate(view.hand_sizes) if q != view.player and q not in view.out)
        if danger and plays:
            return min(plays, key=lambda a: (a.combo.kind == "bomb", wild_count(a), a.combo.rank))
        for a in legal:
            if type(a) is Pass:
                return a
        return legal[0]


# ---------------------------------------------------------------------------------------
# Actions and tables as text
#
# The notation: a play is its cards (``5H 6H 7H``, in any order).  When face cards play
# as wilds beside number cards, the same cards may declare several combinations, so the
# text adds the declaration after ``as``: ``5H J as 5s`` (a set of 5s), ``5H 6H J as run
# to 7``, ``6H 7C J Q as pairs to 7`` (``triples``, ``quadruples``, ``quintuples`` for
# wider sequences).  ``pass``; ``bet 15``; ``give 1`` (a bombed trick to player 1).
# ``parse_action`` reads cards without the declaration when they declare one legal
# combination only.

from .. import notation as _notation  # noqa: E402  (this section is kept apart)
from .combos import _play_text  # noqa: E402

_NOTATION = _notation.Notation(aliases={"p": "pass"}, card_sets=True, split="as")
def _extra(state: State, key: str, cards: list[Card]) -> Any:
    ws = key.split()
    if ws[:1] == ["play"]:
        ws = ws[1:]
    if ws == ["pass"]:
        return _PASS
    if len(ws) == 2 and ws[1].isdigit():
        if ws[0] == "bet":
            return Bet(int(ws[1]))
        if ws[0] == "give":
            return GiveTrick(int(ws[1]))
    if not cards or ws[: len(cards)] != [str(c) for c in cards]:
        return None
    decl = " ".join(ws[len(cards) :])
    legal = [a for a in legal_actions(state) if type(a) is Play and Counter(a.combo.cards) == Counter(cards)]
    if not decl and len(legal) > 1:
        raise IllegalActionError(
            f"{key!r} declares {len(legal)} combinations: say which: " + ", ".join(map(str, legal))
        )
    if legal:
        return legal[0] if not decl else None  # with a declaration: no legal one matched
    try:
        combos = combinations(cards, suits=_suits(state))
    except CardRulesError:
        return None
    for combo in combos:
        if not decl or _play_text(combo).endswith(decl):
            return Play(combo)  # not legal: apply() says why
    return None


def parse_action(state: State, text: str) -> Any:
    """The legal action ``text`` names: cards (``5H 6H 7H``, in any order; ``as 5s``,
    ``as run to 7``... where the cards declare several combinations), ``pass``,
    ``bet 15``, ``give 1``; case-insensitive, cards as :func:`~cardrules.parse_cards`
    reads them.  Text that names no legal action raises
    :class:`~cardrules.IllegalActionError` with the reason and the nearest legal
    actions."""
    return _notation.read(state, text, legal_actions(state), _NOTATION, extra=_extra, check=apply)


def render(state: State, player: int | None = None) -> str:
    """The table as text: scores, every player's cards left, wilds, bets and captured
    cards, the combination to beat, the hands (only ``player``'s own when a player is
    given: the text is drawn from :func:`view`), and who is to act."""
    n = state.players
    views = [view(state, p) for p in range(n)] if player is None else [view(state, player)]
    v = views[0]
    scores = " ".join(map(str, v.scores))
    lines = [f"Haggis, hand {v.hand_number}: scores {scores} ({v.rules.target} wins)"]
    for p in range(n):
        parts = [f"{v.hand_sizes[p]} card{'s' * (v.hand_sizes[p] != 1)}"]
        if v.wilds[p]:
            parts.append("wilds " + " ".join(map(str, v.wilds[p])))
        if v.bets[p]:
            parts.append(f"bet {v.bets[p]}")
        if p in v.out:
            parts.append(f"out {'first' if v.out[0] == p else 'second'}")
        if v.captured[p]:
            parts.append(f"captured {len(v.captured[p])} ({card_points(v.captured[p])} points)")
        lines.append(f"player {p}: " + ", ".join(parts))
    lines.append(f"the haggis: {v.haggis_size} cards")
    if v.trick:
        who, combo = v.trick[-1]
        lines.append(f"to beat: {combo.describe()}: {' '.join(map(str, combo.cards))} (player {who})")
    elif v.hand_number > 1 and not any(v.captured):
        lines.append("last hand's points: " + " ".join(map(str, v.last_hand)))
    for w in views:
        owner = "your hand" if player is not None else f"player {w.player}'s hand"
        lines.append(f"{owner}: {' '.join(map(str, w.hand)) or '-'}")
    if v.to_act is None:
        best = max(v.scores)
        won = [p for p in range(n) if v.scores[p] == best]
        lines.append(f"game over: player {won[0]} wins")
    elif isinstance(v.to_act, int):
        doing = "gives the bombed trick away" if v.giving else "plays or passes" if v.trick else "leads"
        lines.append(f"to act: player {v.to_act} {doing}")
    return "\n".join(lines)




# ---------------------------------------------------------------------------------------
# Sampling states from a view (for search agents: cardrules.search)


def _sampler(view: View, rules: Rules | None) -> Callable[[Any], State]:
    """The unseen number cards (the deck less the player's hand, the table and every
    captured pile) are worked out once; each draw deals them uniformly to the other
    players' hands (beside their public face cards) and the haggis.  Passing tells
    nothing (a player may pass when able), so counts are all a view fixes."""
    from ..sampling import check_total, deal, unseen

    rules = view.rules if rules is None else rules
    n, p = view.players, view.player
    seen = [*view.hand, *(c for _, combo in view.trick for c in combo.cards)]
    for pile in view.captured:
        seen += pile
    numbers = [c for c in unseen(_DECKS[n], (c for c in seen if c.suit is not None))]
    others = [q for q in range(n) if q != p]
    sizes = [view.hand_sizes[q] - len(view.wilds[q]) for q in others]
    check_total("haggis", numbers, (*sizes, view.haggis_size))
    in_hand = view.to_act is not CHANCE and view.to_act is not None
    started = tuple(
        (in_hand and view.hand_sizes[q] < 17) or q in view.out or (not in_hand and view.hand_number > 0)
        for q in range(n)
    )
    going_out = view.going_out or (0,) * n
    memo = _Memo(n)  # a cache of what hands can lead, shared by the samples (the own hand's is reused)

    def draw(rng: Any) -> State:
        parts = deal(rng, numbers, (*sizes, view.haggis_size))
        hands: list[tuple[Card, ...]] = [()] * n
        hands[p] = view.hand
        for q, part in zip(others, parts, strict=False):
            hands[q] = canonical((*part, *view.wilds[q]))
        return _STATE.new(
            rules=rules, players=n, scores=view.scores, leader=view.leader, hands=tuple(hands),
            haggis=canonical(parts[-1]), trick=view.trick, passes=view.passes, captured=view.captured,
            bets=view.bets, started=started, out=view.out, going_out=going_out, giving=view.giving,
            to_act=view.to_act, last_hand=view.last_hand, hand_number=view.hand_number, history=(),
            seed=None, memo=memo,
        )  # fmt: skip

    return draw


def sample_state(view: View, *, seed: object = None, rules: Rules | None = None) -> State:
    """A whole state consistent with ``view`` (``view(sample, view.player) == view``):
    the number cards ``view.player`` has not seen are dealt uniformly to the other
    players' hands (which keep their public face cards) and the haggis.  The sample's
    ``history`` is empty and its ``seed`` ``None`` (:mod:`cardrules.sampling`); the
    rules are the view's own.

    >>> state = new_game(players=3, seed=2)
    >>> v = view(state, 1)
    >>> view(sample_state(v, seed=1), 1) == v
    True
    """
    return GAME.sample_state(view, seed=seed, rules=rules)


_HELP = """\
  a combination: its cards in any order: 5H 6H 7H, 8S 8D, J Q (a bomb)
  with wild face cards the declaration may be needed: 5H J as 5s, 5H 6H J as run to 7,
  6H 7C J Q as pairs to 7 (triples, quadruples... for wider runs)
  pass; bet 15 or bet 30 (before your first card of the hand); give 1 (a bombed trick)"""

GAME: GameDef[State, Rules] = GameDef(
    "haggis",
    rules_type=Rules,
    state_type=State,
    action_types=(Play, Pass, Bet, GiveTrick),
    player_counts=(2, 3),
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
    scoring="hand",
    sampler=_sampler,
    greedy_agent=GreedyAgent,
    search=SearchHooks(
        settings={"iterations": 40, "rollout": "greedy", "prior": "greedy", "widening": 1.0},
        reward_scale=40.0,
    ),
    module=__name__,
)
register_game(GAME)
