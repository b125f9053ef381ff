"""The rules of Haggis: its actions, ``Rules``, ``State`` and ``View``, and the
transitions (start, the deal, a player's step, the legal actions) and ``view``.

The combinations themselves (which declarations a group of cards allows, and what beats
what) are :mod:`cardrules.haggis.combos`; the game's public names are documented under
:mod:`cardrules.haggis`, which builds the game's :class:`~cardrules.GameDef` from these.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import chain, compress
from typing import Any, Final, Literal

import attrs

from .._chance import Chance
from .._records import maker
from ..cards import Card, canonical
from ..errors import CardRulesError, IllegalActionError, RulesError
from ..protocol import CHANCE, Shuffle
from .combos import (
    CARD_BITS,
    DECKS,
    INTERNED,
    KB,
    Combo,
    J,
    K,
    Play,
    Q,
    beats,
    card_points,
    check_group,
    combinations,
    following_plays,
    generate,
    genuine,
    hand_mask,
    is_interned,
)


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


PASS_ACTION = Pass()


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


class Memo:
    """Per-hand memo of the declarations each player can lead (a cache of a pure
    function of the hand, shared by the states of one hand; it never changes what any
    function returns).  What a hand can play only shrinks, so a smaller hand's list is
    the bigger hand's list filtered."""

    __slots__ = ("lead",)

    def __init__(self, players: int) -> None:
        self.lead: list[list[tuple[int, list[int], tuple[Play, ...]]]] = [[] for _ in range(players)]

    def __repr__(self) -> str:
        return "Memo()"

    def __reduce__(self) -> tuple[Any, ...]:
        # a cache: copies and pickles start empty
        return (Memo, (len(self.lead),))


def _new_memo(players: int = 2) -> Memo:
    return Memo(players)


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
    to_act: int | Chance | None
    last_hand: tuple[int, ...]
    hand_number: int
    history: tuple[Any, ...]
    seed: object = attrs.field(default=None, eq=False)
    memo: Memo = attrs.field(factory=_new_memo, eq=False, repr=False)

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
    to_act: int | Chance | None
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
STATE: Final = maker(State)
# Each kind of transition's new state, naming the fields it changes (Maker.replacer); a
# deal, once a hand, changes what _hand_begins says and goes through STATE.replace.
_BET: Final = STATE.replacer("bets", "giving", "to_act", "history")
_PLAYED: Final = STATE.replacer(
    "hands", "trick", "passes", "started", "out", "going_out", "giving", "to_act", "history"
)
_PASSED: Final = STATE.replacer("passes", "giving", "to_act", "history")
_TAKEN: Final = STATE.replacer("trick", "passes", "captured", "giving", "to_act", "history")
_TO_GIVE: Final = STATE.replacer("giving", "to_act")
_GIVEN: Final = STATE.replacer("giving", "to_act", "history")
_CAPTURED: Final = STATE.replacer("trick", "passes", "captured", "giving", "to_act")
_HAND_OVER: Final = STATE.replacer(
    "scores", "leader", "hands", "haggis", "trick", "passes", "captured", "giving", "to_act", "last_hand"
)
VIEW: Final = maker(View)


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


def start_state(rules: Rules, players: int) -> State:
    z = (0,) * players
    return STATE.new(
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
        memo=Memo(players),
    )


def cards_to_shuffle(state: State) -> tuple[Card, ...]:
    return DECKS[state.players]


def deal_cards(state: State, shuffle: Shuffle) -> State:
    n = state.players
    order = shuffle.order
    hands = tuple(canonical((*order[p : 14 * n : n], J, Q, K)) for p in range(n))
    return STATE.replace(
        state,
        hands=hands,
        haggis=canonical(order[14 * n :]),
        **_hand_begins(n),
        to_act=state.leader,
        hand_number=state.hand_number + 1,
        history=state.history + (shuffle,),  # noqa: RUF005 - faster than (*history, shuffle)
        memo=Memo(n),
    )


def suit_count(state: State) -> int:
    return 4 if state.players == 2 else 5


def _lead_plays(state: State, p: int) -> tuple[Play, ...]:
    hand = state.hands[p]
    hmask = hand_mask(hand)
    entries = state.memo.lead[p]
    best = None
    for e in entries:
        if e[0] == hmask:
            return e[2]
        if e[0] & hmask == hmask and (best is None or e[0] < best[0]):
            best = e
    if best is not None:
        # the declarations using none of the cards gone since (selectors, then two
        # filters that run in C)
        gone = best[0] & ~hmask
        keep = [not m & gone for m in best[1]]
        ms = list(compress(best[1], keep))
        plays = tuple(compress(best[2], keep))
    else:
        ms, ps_list = generate(hand, suit_count(state))
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
    return (*following_plays(state.hands[p], suit_count(state), state.trick[-1][1]), PASS_ACTION, *bets)


def _next_with_cards(hands: Sequence[tuple[Card, ...]], p: int) -> int:
    """The next player clockwise after ``p`` who holds cards (``p`` if no one else does)."""
    n = len(hands)
    q = p + 1
    for _ in range(n - 1):
        if q == n:
            q = 0
        if hands[q]:
            return q
        q += 1
    return p


def step_state(state: State, action: Any) -> State:
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
        return _play(state, action)
    if t is Pass:
        if not state.trick:
            raise IllegalActionError("you lead this trick: you may not pass")
        return _pass(state, action)
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
    return _BET(
        state,
        bets=tuple(bets),
        giving=False,
        to_act=p,
        history=state.history + (action,),  # noqa: RUF005 - faster than (*history, action)
    )


def _why_not(state: State, p: int, combo: Any) -> str:
    """Why playing ``combo`` is illegal (it is)."""
    if not isinstance(combo, Combo):
        return f"Play needs a Combo (from combinations or legal_actions), not {combo!r}"
    if isinstance(combo.cards, str) or not isinstance(combo.cards, Iterable):
        return f"a Combo's cards are a tuple of cards, not {combo.cards!r}"
    try:
        cards = check_group(combo.cards, "that play")
    except CardRulesError as exc:
        return str(exc)
    if not _well_typed(combo):
        return (
            "a Combo's kind is a str, its rank and size whole numbers and its width a whole "
            f"number or None, not {combo.kind!r}, {combo.rank!r}, {combo.size!r}, {combo.width!r}"
        )
    hand = state.hands[p]
    missing = list((Counter(cards) - Counter(hand)).elements())
    if missing:
        missing = list(canonical(missing))
        return f"you do not hold {' '.join(map(str, missing))}"
    if not cards:
        return "a play needs at least one card"
    options = combinations(cards, suits=suit_count(state))
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


def _well_typed(combo: Combo) -> bool:
    """Are the combination's kind, rank, size and width of their own types?  Only then is
    it compared with the real declarations: a value whose ``==`` claims anything (a size
    that equals every number) must not pass for one of them."""
    width = combo.width
    return (
        type(combo.kind) is str
        and type(combo.rank) is int
        and type(combo.size) is int
        and (width is None or type(width) is int)
    )


def _checked(state: State, combo: Any, hand: tuple[Card, ...]) -> bool:
    """Is ``combo`` a genuine declaration of cards in ``hand`` that may be played now?"""
    # The cheap checks first (the player holds the cards), then whether it is a real
    # declaration: a hand-made combo of the whole deck must not be analysed first.
    ok = (
        type(combo) is Combo
        and type(combo.cards) is tuple
        and _well_typed(combo)
        and len(combo.cards) <= len(hand)
    )
    if ok:
        hmask = 0
        for c in hand:
            hmask += KB[c]
        cmask = 0
        for c in combo.cards:
            bit = KB.get(c) if isinstance(c, Card) else None
            if bit is None:
                ok = False
                break
            cmask += bit
        ok = ok and cmask & ~hmask == 0 and genuine(combo) and (combo.width or 0) <= suit_count(state)
        if ok and state.trick:
            ok = beats(combo, state.trick[-1][1])
    return ok


def _play(state: State, action: Play) -> State:
    # The step of a Play (GameDef calls it directly, STEPS below): when a bomb's trick is
    # to be given, step_state says why a play is refused.
    if state.giving:
        return step_state(state, action)
    p: int = state.to_act  # type: ignore[assignment]
    combo = action.combo
    hand = state.hands[p]
    key = INTERNED.get(id(action))
    if key is not None and is_interned(action, key):
        # a declaration the generator built (legal_actions' own objects): its cards'
        # key mask is known, and it is genuine
        held = hand_mask(hand)
        ok = key & CARD_BITS & ~held == 0 and (combo.width or 0) <= suit_count(state)
        if ok and state.trick:
            ok = beats(combo, state.trick[-1][1])
    else:
        ok = _checked(state, combo, hand)
    if not ok:
        # a hand-made combo in another order is still the same declaration
        if isinstance(combo, Combo) and isinstance(combo.cards, (tuple, list)) and _well_typed(combo):
            try:
                fixed = Combo(combo.kind, combo.rank, combo.size, combo.width, canonical(combo.cards))
            except (TypeError, AttributeError):
                fixed = combo
            if fixed != combo and fixed in [pl.combo for pl in legal_actions(state) if type(pl) is Play]:
                return _play(state, Play(fixed))
        raise IllegalActionError(_why_not(state, p, combo))
    # the hand without the played cards, each taken once (cards are interned: the
    # comparisons are by identity); cheaper than filtering the hand through a set
    kept = list(hand)
    try:
        for c in combo.cards:
            kept.remove(c)
    except ValueError:  # pragma: no cover - the checks above found every card in the hand
        raise IllegalActionError(_why_not(state, p, combo)) from None
    new_hand = tuple(kept)
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
    history = state.history + (action,)  # noqa: RUF005 - faster than (*history, action)
    # With one player left holding cards the hand ends at once: the last trick goes to
    # the last player (or by the bomb rule); otherwise play moves on clockwise.
    hand_over = len(hands) - hands.count(()) <= 1
    new = _PLAYED(
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


def _pass(state: State, action: Pass) -> State:
    # The step of a Pass (GameDef calls it directly, STEPS below); step_state refuses a
    # pass while a bomb's trick is to be given or when leading.
    trick = state.trick
    if state.giving or not trick:
        return step_state(state, action)
    p: int = state.to_act  # type: ignore[assignment]
    passes = state.passes + 1
    last, top = trick[-1]
    hands = state.hands
    holding = len(hands) - hands.count(())
    history = state.history + (action,)  # noqa: RUF005 - faster than (*history, action)
    # everyone still in, but the last player, passed: the last player takes the trick
    if passes < holding - (1 if hands[last] else 0):
        return _PASSED(state, passes=passes, giving=False, to_act=_next_with_cards(hands, p), history=history)
    if top.kind != "bomb" and holding > 1:
        # the commonest end of a trick, in one new state: the last player captures it
        # and leads the next (what _end_trick then _capture do, without the state between)
        return _TAKEN(
            state,
            trick=(),
            passes=0,
            captured=_captured(state, trick, last),
            giving=False,
            to_act=last if hands[last] else _next_with_cards(hands, last),
            history=history,
        )
    new = _PASSED(state, passes=passes, giving=False, to_act=p, history=history)
    return _end_trick(new, last)


#: The step function of the commonest actions (handed to GameDef as ``steps``); the
#: others (a bet, a trick given away, a bare Combo) go through :func:`step_state`.
STEPS: Final[dict[type, Callable[[State, Any], State]]] = {Play: _play, Pass: _pass}


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
        return _TO_GIVE(state, giving=True, to_act=last)  # the bomber gives it away
    return _capture(state, last, last)


def _give(state: State, p: int, action: GiveTrick) -> State:
    q = action.player
    if type(q) is not int or not 0 <= q < state.players:
        raise IllegalActionError(f"there is no player {q!r} to give the trick to")
    if q == p:
        raise IllegalActionError("a trick won by a bomb goes to an opponent, not to the bomber")
    state = _GIVEN(
        state,
        giving=False,
        to_act=p,
        history=state.history + (action,),  # noqa: RUF005 - faster than (*history, action)
    )
    return _capture(state, p, q)


def _captured(state: State, trick: tuple[tuple[int, Combo], ...], taker: int) -> tuple[tuple[Card, ...], ...]:
    """The captured piles once ``taker`` has added the cards of ``trick`` to its own."""
    piles = list(state.captured)
    piles[taker] += tuple(chain.from_iterable([combo.cards for _, combo in trick]))
    return tuple(piles)


def _capture(state: State, winner: int, taker: int) -> State:
    """``taker`` captures the trick that ``winner`` won; ``winner`` leads next."""
    captured = _captured(state, state.trick, taker)
    hands = state.hands
    if len(hands) - hands.count(()) <= 1:
        return _end_hand(state, captured)
    leader = winner if hands[winner] else _next_with_cards(hands, winner)
    return _CAPTURED(state, trick=(), passes=0, captured=captured, giving=False, to_act=leader)


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
    return _HAND_OVER(
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


def _wilds(hand: tuple[Card, ...]) -> tuple[Card, ...]:
    # A hand is canonical, so its wild cards (the suitless J, Q and K) are its last
    # cards: read from the end rather than filtered out of the whole hand, since every
    # decision of a playout asks for a view.
    i = len(hand)
    while i and hand[i - 1].suit is None:
        i -= 1
    return hand[i:]


def player_view(state: State, player: int) -> View:
    hands = state.hands
    return VIEW.new(
        player=player,
        players=state.players,
        hand=hands[player],
        to_act=state.to_act,
        scores=state.scores,
        wilds=tuple(map(_wilds, hands)),
        hand_sizes=tuple(map(len, hands)),
        trick=state.trick,
        passes=state.passes,
        captured=state.captured,
        bets=state.bets,
        out=state.out,
        giving=state.giving,
        haggis_size=len(state.haggis),
        last_hand=state.last_hand,
        hand_number=state.hand_number,
        rules=state.rules,
        going_out=state.going_out,
        leader=state.leader,
    )


def public_view(state: State) -> View:
    """What someone at no seat may see (a spectator): player 0's view without its hand
    (the number cards no other player sees; the wild cards stay, being public)."""
    return attrs.evolve(player_view(state, 0), hand=())
