"""The rules of New Eleusis: :class:`Rules`, the actions, :class:`State`, :class:`View`
and the transitions (start, chance cards, deal, step, legal actions, view) that
:mod:`cardrules.eleusis` hands to its :class:`~cardrules.protocol.GameDef`, with the
strings a scientist may play and the scores.

The New Eleusis page of the documentation gives the rules as implemented and every
reading taken where the sources are silent.
"""

from __future__ import annotations

import itertools  # noqa: F401 - the doctests use it
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, Final, Literal

import attrs

from .._records import maker
from ..cards import Card, canonical, standard_deck
from ..errors import CardRulesError, IllegalActionError, RulesError
from ..lang.rules import Rule, compile_rule
from ..protocol import CHANCE, Shuffle

#: The default secret rule's text: alternating colours.
DEFAULT_RULE_TEXT: Final = "card.color != prev.color"
_DEFAULT_RULE: list[Rule] = []


def default_rule() -> Rule:
    """The default secret rule, alternating colours (``card.color != prev.color``),
    compiled once."""
    if not _DEFAULT_RULE:
        _DEFAULT_RULE.append(compile_rule(DEFAULT_RULE_TEXT))
    return _DEFAULT_RULE[0]


DECK: Final = standard_deck()


# -- rules -----------------------------------------------------------------------------


def _at_least(low: int) -> Any:
    def check(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
        if type(value) is not int or value < low:
            raise RulesError(f"eleusis: {attribute.name} must be an integer >= {low}, not {value!r}")

    return check


def _between(low: int, high: int) -> Any:
    """Bounded counts: past these a game would only build millions of cards (a penalty
    of a billion draws a billion cards, fresh decks and all)."""

    def check(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
        if type(value) is not int or not low <= value <= high:
            name = attribute.name
            raise RulesError(f"eleusis: {name} must be an integer from {low} to {high}, not {value!r}")

    return check


def _check_secret(instance: object, attribute: object, value: object) -> None:
    if not isinstance(value, Rule):
        raise RulesError(
            f"eleusis: secret must be a compiled Rule (use compile_rule(text)), not {type(value).__name__}"
        )


@attrs.frozen
class Rules:
    """The variant options of New Eleusis; ``Rules()`` is the game as Gardner printed it.

    ``secret`` is God's rule (a compiled :class:`Rule`; default: alternating colours).
    ``sudden_death``/``sudden_death_prophet`` are the counts of 30 and 20 of the seed
    (Matuszek's summary: 40 and 30).  Every other field is a count of cards as its name
    says; ``max_string`` is the longest string a scientist may play at once (1: no
    strings); ``prophets=False`` plays without prophets.  ``decks`` is at most 20 and
    each penalty at most 52 (beyond, a game would only build millions of cards).  Bad
    values raise :class:`~cardrules.RulesError`.  A rule whose ``start:`` clause accepts no card is
    refused when the game is made (:func:`new_game` raises ``RulesError``).

    >>> Rules(sudden_death=40, sudden_death_prophet=30).sudden_death
    40
    >>> Rules(max_string=0)
    Traceback (most recent call last):
    ...
    cardrules.errors.RulesError: eleusis: max_string must be an integer >= 1, not 0
    """

    secret: Rule = attrs.field(factory=default_rule, validator=_check_secret)
    hand_size: int = attrs.field(default=14, validator=_at_least(1))
    decks: int = attrs.field(default=2, validator=_between(1, 20))
    sudden_death: int = attrs.field(default=30, validator=_at_least(0))
    sudden_death_prophet: int = attrs.field(default=20, validator=_at_least(0))
    penalty: int = attrs.field(default=2, validator=_between(0, 52))
    no_play_penalty: int = attrs.field(default=5, validator=_between(0, 52))
    no_play_shrink: int = attrs.field(default=4, validator=_at_least(1))
    overthrow_penalty: int = attrs.field(default=5, validator=_between(0, 52))
    max_string: int = attrs.field(default=4, validator=_at_least(1))
    prophets: bool = attrs.field(default=True)

    @prophets.validator
    def _check_prophets(self, attribute: object, value: object) -> None:
        if type(value) is not bool:
            raise RulesError(f"eleusis: prophets must be true or false, not {value!r}")


# -- actions ---------------------------------------------------------------------------


def _to_cards(cards: Card | Iterable[Card]) -> tuple[Card, ...]:
    if isinstance(cards, Card):
        return (cards,)
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        raise IllegalActionError(f"Play takes a card or a tuple of cards, not {cards!r}")
    return tuple(cards)


@attrs.frozen(cache_hash=True)
class Play:
    """Play one card, or a string of 2-4 cards judged one after another (in this
    order).  ``Play(card)`` is accepted for ``Play((card,))``."""

    cards: tuple[Card, ...] = attrs.field(converter=_to_cards)

    def __str__(self) -> str:
        return " ".join(map(str, self.cards))


@attrs.frozen
class NoPlay:
    """The scientist says it has no right card, showing its hand."""

    def __str__(self) -> str:
        return "no play"


@attrs.frozen
class BecomeProphet:
    """Right after its play, a scientist declares itself prophet."""

    def __str__(self) -> str:
        return "prophet"


@attrs.frozen
class Pass:
    """Decline the offer to become prophet."""

    def __str__(self) -> str:
        return "pass"


@attrs.frozen
class Judge:
    """The prophet's call on the play it judges.

    For a card or string: ``Judge(True)`` (right) or ``Judge(False)`` (wrong).  For a
    no-play: ``Judge(True)`` ("indeed no right card") or ``Judge(False, card)`` ("card is
    right": one of the player's cards).
    """

    right: bool
    card: Card | None = None

    def __str__(self) -> str:
        if self.card is not None:
            return f"judge wrong {self.card}"
        return "judge right" if self.right else "judge wrong"


NO_PLAY: Final = NoPlay()
BECOME_PROPHET: Final = BecomeProphet()
PASS_ACTION: Final = Pass()
JUDGE_RIGHT: Final = Judge(True)
JUDGE_WRONG: Final = Judge(False)
PLAY_ONE: Final = {c: Play((c,)) for c in DECK}
NAME_WRONG: Final = {c: Judge(False, c) for c in DECK}

# -- state -----------------------------------------------------------------------------

Phase = Literal["setup", "starter", "turn", "judge", "offer", "fresh", "reshuffle", "over"]

# Work left in a turn after its judgment, done in order (chance nodes may interrupt a
# draw): (kind, player, n).
_DRAW: Final = 0  # player draws n cards
_RESHUFFLE: Final = 1  # player's hand goes into the stock; a new hand of n
_OFFER: Final = 2  # player may become prophet
NEXT: Final = 3  # the next scientist after player takes the turn

Task = tuple[int, int, int]
SideLine = tuple[int, tuple[Card, ...]]
Marker = tuple[int, int, int]


@attrs.frozen
class State:
    """The whole truth of a round of New Eleusis.

    ``hands[p]`` is player ``p``'s hand in canonical order (God's is empty; a prophet's
    set-aside hand stays here), ``main`` the main line (starter first), ``sides`` the
    wrong plays, each ``(i, cards)``: ``cards`` (a string stays together) lies on the
    side line under ``main[i]``.  ``stock`` is top first.  ``count`` is the number of
    cards scientists have played after the starter (sudden death counts them);
    ``marker`` is ``(count, len(main), side cards)`` when the prophet declared itself.
    ``turn`` is the scientist whose turn it is (or was, while the prophet judges or the
    offer is open); ``pending`` the play the prophet is judging.

    ``phase`` says what the round waits for: ``"setup"`` (the first shuffle),
    ``"starter"`` (a fresh deck to find a starter the ``start:`` clause accepts),
    ``"turn"`` (a scientist's ``Play`` or ``NoPlay``), ``"judge"`` (the prophet's
    ``Judge``), ``"offer"`` (``BecomeProphet`` or ``Pass``), ``"fresh"`` (a fresh deck
    in the middle of a draw), ``"reshuffle"`` (a right no-play's hand shuffled into the
    stock) or ``"over"``.  ``tasks`` is the rest of the turn's work after a chance node.
    """

    rules: Rules
    players: int
    phase: Phase
    to_act: Any
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    main: tuple[Card, ...]
    sides: tuple[SideLine, ...]
    count: int
    prophet: int | None
    marker: Marker | None
    former_prophets: tuple[int, ...]
    expelled: tuple[int, ...]
    turn: int
    pending: Play | NoPlay | None
    tasks: tuple[Task, ...]
    history: tuple[Any, ...]
    seed: object = attrs.field(default=None, eq=False)

    @property
    def is_over(self) -> bool:
        """``True`` once the round has ended."""
        return self.phase == "over"

    @property
    def scores(self) -> tuple[int, ...]:
        """Each player's round score (God first) once the round is over; zeros before."""
        if self.phase != "over":
            return (0,) * self.players
        return round_scores(self)

    @property
    def winners(self) -> tuple[int, ...]:
        """At the end, every player with the highest round score (God included)."""
        if self.phase != "over":
            return ()
        scores = round_scores(self)
        best = max(scores)
        return tuple(p for p, s in enumerate(scores) if s == best)

    @property
    def side_cards(self) -> int:
        """How many cards lie on the side lines."""
        return sum(len(cards) for _, cards in self.sides)

    @property
    def in_sudden_death(self) -> bool:
        """Whether the next play or no-play is in sudden death."""
        return _sudden(self)

    @property
    def sudden_death_count(self) -> int:
        """The cards counted towards sudden death: since the start, or since the
        prophet's marker while there is a prophet."""
        if self.prophet is not None and self.marker is not None:
            return self.count - self.marker[0]
        return self.count


#: How the game functions make a State: naming the fields they set (cardrules._records).
STATE: Final = maker(State)
# Each kind of transition's new state, naming the fields it changes (Maker.replacer).
_DEALT: Final = STATE.replacer("hands", "history")
_STARTER_LAID: Final = STATE.replacer("phase", "to_act", "stock", "main", "turn", "history")
_NO_STARTER: Final = STATE.replacer("phase", "to_act", "stock", "history")
_TO_JUDGE: Final = STATE.replacer("phase", "to_act", "pending", "tasks", "history")
#: a turn stops at a chance node, an offer or the end of the round
_HALT: Final = STATE.replacer("phase", "to_act", "hands", "stock", "pending", "tasks", "history")
_NEXT_TURN: Final = STATE.replacer("phase", "to_act", "hands", "stock", "turn", "pending", "tasks", "history")


def _sudden(state: State) -> bool:
    rules = state.rules
    if state.prophet is not None and state.marker is not None:
        return state.count - state.marker[0] >= rules.sudden_death_prophet
    return state.count >= rules.sudden_death


# -- set-up ----------------------------------------------------------------------------


def start_state(rules: Rules, players: int) -> State:
    if not any(rules.secret.accepts_start(c) for c in DECK):
        raise RulesError("eleusis: the rule's start: clause accepts no card, so no starter could be laid")
    scientists = players - 1
    need = scientists * rules.hand_size + 1
    if need > 52 * rules.decks:
        raise RulesError(
            f"eleusis: {rules.decks} deck(s) cannot deal {rules.hand_size} cards to each of "
            f"{scientists} scientists and a starter"
        )
    return STATE.new(
        rules=rules, players=players, phase="setup", to_act=CHANCE, hands=((),) * players, stock=(),
        main=(), sides=(), count=0, prophet=None, marker=None, former_prophets=(), expelled=(), turn=0,
        pending=None, tasks=(), history=(),
    )  # fmt: skip


def cards_to_shuffle(state: State) -> tuple[Card, ...]:
    phase = state.phase
    if phase == "setup":
        return tuple(c for c in DECK for _ in range(state.rules.decks))
    if phase in ("fresh", "starter"):
        return DECK
    if phase == "reshuffle":
        q = state.tasks[0][1]
        return canonical(state.stock + state.hands[q])
    return ()  # pragma: no cover - the protocol asks only at chance nodes


def _first_scientist(starter: Card, players: int) -> int:
    return (starter.rank - 1) % (players - 1) + 1


def _lay_starter(
    state: State, deck: tuple[Card, ...], stock_below: tuple[Card, ...], history: tuple[Any, ...]
) -> State:
    """Turn cards from the top of ``deck`` until the rule's start clause accepts one;
    the rejected ones go to the bottom of the stock, in order."""
    rule = state.rules.secret
    for i, card in enumerate(deck):
        if rule.accepts_start(card):
            stock = deck[i + 1 :] + stock_below + deck[:i]
            first = _first_scientist(card, state.players)
            return _STARTER_LAID(
                state, phase="turn", to_act=first, stock=stock, main=(card,), turn=first, history=history
            )
    # No card left accepts: a fresh deck is shuffled in and searched the same way.
    return _NO_STARTER(state, phase="starter", to_act=CHANCE, stock=stock_below + deck, history=history)


def deal_cards(state: State, shuffle: Shuffle) -> State:
    order = shuffle.order
    history = state.history + (shuffle,)  # noqa: RUF005 - faster than (*history, shuffle)
    phase = state.phase
    if phase == "setup":
        n, size = state.players - 1, state.rules.hand_size
        hands = ((), *(canonical(order[i : n * size : n]) for i in range(n)))
        dealt = _DEALT(state, hands=hands, history=history)  # still "setup": then the starter
        return _lay_starter(dealt, order[n * size :], (), history)
    if phase == "starter":
        return _lay_starter(state, order, state.stock, history)
    if phase == "fresh":
        return _proceed(state, stock=order, history=history)
    # reshuffle: the returned hand and the stock, the new hand from the top
    _, q, k = state.tasks[0]
    hands = (*state.hands[:q], canonical(order[:k]), *state.hands[q + 1 :])
    return _proceed(state, hands=hands, stock=order[k:], tasks=state.tasks[1:], history=history)


# -- the turn --------------------------------------------------------------------------


def _round_over(state: State, hands: Sequence[tuple[Card, ...]], expelled: tuple[int, ...],
                prophet: int | None) -> bool:  # fmt: skip
    if not all(hands[1:]):  # a scientist is out of cards (God's hand, hands[0], is always empty)
        return True
    return len(expelled) + (prophet is not None) >= state.players - 1


def _next_scientist(players: int, after: int, prophet: int | None, expelled: tuple[int, ...]) -> int:
    p = after
    for _ in range(players):
        p = p % (players - 1) + 1
        if p != prophet and p not in expelled:
            return p
    raise AssertionError("no scientist left to play")  # pragma: no cover - the round is over first


def _may_offer(state: State, q: int, prophet: int | None, former: tuple[int, ...],
               expelled: tuple[int, ...]) -> bool:  # fmt: skip
    if not state.rules.prophets or prophet is not None or q in expelled or q in former:
        return False
    # the scientists still in besides q: expelled holds distinct scientists, q not among them
    return state.players - 2 - len(expelled) >= 2


def _proceed(state: State, *, history: tuple[Any, ...], **changes: Any) -> State:
    """Do the work left in a turn (draws, reshuffle, offer, next turn) until a chance
    node, a decision or the end of the round: ``state`` with the named ``changes`` (of
    its fields ``hands``, ``stock``, ``main``, ``sides``, ``count``, ``prophet``,
    ``marker``, ``former_prophets``, ``expelled``, ``turn`` and ``tasks``) is where the
    turn stands."""
    if changes:
        state = STATE.replace(state, **changes)
    hands, stock, tasks = state.hands, state.stock, state.tasks
    prophet, expelled = state.prophet, state.expelled
    while tasks:
        kind, q, n = tasks[0]
        if kind == _DRAW:
            take = n if n <= len(stock) else len(stock)
            if take:
                hands = (*hands[:q], canonical(hands[q] + stock[:take]), *hands[q + 1 :])
                stock = stock[take:]
            if take < n:  # the stock ran dry: a fresh deck, and the draw goes on from it
                return _HALT(
                    state, phase="fresh", to_act=CHANCE, hands=hands, stock=stock, pending=None,
                    tasks=((_DRAW, q, n - take), *tasks[1:]), history=history,
                )  # fmt: skip
            tasks = tasks[1:]
            continue
        if _round_over(state, hands, expelled, prophet):
            break
        if kind == _RESHUFFLE:
            if n == 0:  # four cards or fewer: the player is out of cards
                stock = stock + hands[q]
                hands = (*hands[:q], (), *hands[q + 1 :])
                tasks = tasks[1:]
                continue
            return _HALT(
                state, phase="reshuffle", to_act=CHANCE, hands=hands, stock=stock, pending=None, tasks=tasks,
                history=history,
            )  # fmt: skip
        if kind == _OFFER:
            tasks = tasks[1:]
            if _may_offer(state, q, prophet, state.former_prophets, expelled):
                return _HALT(
                    state, phase="offer", to_act=q, hands=hands, stock=stock, pending=None, tasks=tasks,
                    history=history,
                )  # fmt: skip
            continue
        # NEXT
        nxt = _next_scientist(state.players, q, prophet, expelled)
        return _NEXT_TURN(
            state, phase="turn", to_act=nxt, hands=hands, stock=stock, turn=nxt, pending=None, tasks=(),
            history=history,
        )  # fmt: skip
    return _HALT(
        state, phase="over", to_act=None, hands=hands, stock=stock, pending=None, tasks=(), history=history
    )


def _remove(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return tuple(rest)


def _right_cards(rule: Rule, main: tuple[Card, ...], hand: tuple[Card, ...]) -> list[Card]:
    """The distinct cards of ``hand`` the rule accepts next, in canonical order."""
    out: list[Card] = []
    last = None
    for c in hand:
        if c is not last and rule.accepts(main, c):
            out.append(c)
        last = c
    return out


def _resolve(state: State, action: Play | NoPlay, call: Judge | None, history: tuple[Any, ...]) -> State:
    """Complete the play ``action`` of the scientist ``state.turn``, judged by God, or
    by the prophet's ``call`` checked by God."""
    rules = state.rules
    rule = rules.secret
    p = state.turn
    hands = state.hands
    hand = hands[p]
    main, sides, count = state.main, state.sides, state.count
    prophet, marker, expelled = state.prophet, state.marker, state.expelled
    sudden = _sudden(state)
    tasks: list[Task] = []
    overthrown = False
    if type(action) is Play:
        cards = action.cards
        right = rule.accepts_string(main, cards)
        overthrown = call is not None and call.right != right
        hand = _remove(hand, cards) if len(cards) > 1 else _remove1(hand, cards[0])
        count += len(cards)
        if right:
            main = main + cards
        else:
            sides = (*sides, (len(main) - 1, cards))
            if not overthrown:
                if sudden:
                    expelled = (*expelled, p)
                elif rules.penalty:
                    tasks.append((_DRAW, p, rules.penalty * len(cards)))
        tasks.append((_OFFER, p, 0))
    else:
        rights = _right_cards(rule, main, hand)
        if call is not None:
            approved = not rights if call.right else (bool(rights) and call.card in rights)
            overthrown = not approved
        if not rights:
            tasks.append((_RESHUFFLE, p, max(len(hand) - rules.no_play_shrink, 0)))
        else:
            put = call.card if call is not None and not overthrown and call.card is not None else rights[0]
            hand = _remove1(hand, put)
            main = (*main, put)
            count += 1
            if not overthrown:
                if sudden:
                    expelled = (*expelled, p)
                elif rules.no_play_penalty:
                    tasks.append((_DRAW, p, rules.no_play_penalty))
    hands = (*hands[:p], hand, *hands[p + 1 :])
    if overthrown:
        assert prophet is not None
        if rules.overthrow_penalty:
            tasks.insert(0, (_DRAW, prophet, rules.overthrow_penalty))
        prophet, marker = None, None
    tasks.append((NEXT, p, 0))
    return _proceed(
        state, hands=hands, main=main, sides=sides, count=count, prophet=prophet, marker=marker,
        expelled=expelled, turn=p, tasks=tuple(tasks), history=history,
    )  # fmt: skip


def _remove1(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _check_play(state: State, cards: tuple[Card, ...]) -> None:
    n = len(cards)
    if n == 0:
        raise IllegalActionError("play at least one card (or NoPlay() if you have no right card)")
    limit = state.rules.max_string
    if n > limit:
        raise IllegalActionError(
            "you may play only one card at a time" if limit == 1 else f"a string has at most {limit} cards"
        )
    hand = state.hands[state.to_act]
    for c in cards:
        if not isinstance(c, Card):
            raise IllegalActionError(f"{c!r} is not a card")
    if n == 1:
        if cards[0] not in hand:
            raise IllegalActionError(f"{cards[0]} is not in your hand")
        return
    for c, k in Counter(cards).items():
        held = hand.count(c)
        if held < k:
            if held == 0:
                raise IllegalActionError(f"{c} is not in your hand")
            raise IllegalActionError(f"you hold only {held} {c}, not {k}")


def step_state(state: State, action: Any) -> State:
    phase = state.phase
    history = state.history + (action,)  # noqa: RUF005 - faster than (*history, action)
    kind = type(action)
    if phase == "turn":
        if kind is Play:
            _check_play(state, action.cards)
        elif kind is not NoPlay:
            raise IllegalActionError(_wrong_kind(state, action))
        if state.prophet is not None:
            return _TO_JUDGE(
                state, phase="judge", to_act=state.prophet, pending=action, tasks=(), history=history
            )
        return _resolve(state, action, None, history)
    if phase == "judge":
        if kind is not Judge:
            raise IllegalActionError(_wrong_kind(state, action))
        _check_judge(state, action)
        pending = state.pending
        assert pending is not None
        return _resolve(state, pending, action, history)
    if phase == "offer":
        if kind is Pass:
            return _proceed(state, history=history)
        if kind is BecomeProphet:
            q = state.to_act
            marker = (state.count, len(state.main), state.side_cards)
            return _proceed(
                state, prophet=q, marker=marker, former_prophets=(*state.former_prophets, q), history=history
            )
        raise IllegalActionError(_wrong_kind(state, action))
    raise IllegalActionError("the round is over")


def _check_judge(state: State, call: Judge) -> None:
    if type(call.right) is not bool:
        raise IllegalActionError(f"a judgment is right (True) or wrong (False), not {call.right!r}")
    if type(state.pending) is Play:
        if call.card is not None:
            raise IllegalActionError(
                "a played card or string is judged right or wrong, without naming a card"
            )
        return
    p = state.turn
    if call.right:
        if call.card is not None:
            raise IllegalActionError(
                "Judge(True) says the player indeed has no right card: name no card with it"
            )
        return
    if call.card is None:
        raise IllegalActionError(
            f"to call the no-play wrong, name a right card of player {p}: Judge(False, card)"
        )
    if not isinstance(call.card, Card) or call.card not in state.hands[p]:
        raise IllegalActionError(f"{call.card} is not in player {p}'s hand")


def _wrong_kind(state: State, action: Any) -> str:
    phase = state.phase
    if phase == "judge":
        if type(action) in (Play, NoPlay):
            return "only the prophet judges now"
        return f"the prophet judges player {state.turn}'s play now: Judge(right) (or Judge(False, card))"
    if phase == "offer":
        return f"player {state.to_act} may now become prophet or pass: BecomeProphet() or Pass()"
    if type(action) is Judge:
        if state.prophet is None:
            return "there is no prophet, and nothing to judge: play a card or NoPlay()"
        return "there is nothing to judge yet: it is a scientist's turn to play"
    if type(action) in (BecomeProphet, Pass):
        return "you may become prophet only right after your own play"
    return f"{action!r} is not an Eleusis action: Play(cards) or NoPlay()"


# -- legal actions and strings ---------------------------------------------------------


def distinct_cards(hand: tuple[Card, ...]) -> list[Card]:
    """The distinct cards of a hand, in its (canonical) order."""
    return list(dict.fromkeys(hand))


def legal_actions(state: State) -> tuple[Any, ...]:
    """Every legal action of the player to act, in a stable order: each distinct single
    card to play (canonical order), then ``NoPlay()``; ``Judge`` calls for the prophet;
    ``BecomeProphet()``, ``Pass()`` for the offer.  Strings are legal but not listed:
    see :func:`strings`."""
    # The game's own function, handed to GameDef as is (no wrapper: this is the hot path).
    phase = state.phase
    if phase == "turn":
        return (*map(PLAY_ONE.__getitem__, dict.fromkeys(state.hands[state.to_act])), NO_PLAY)
    if phase == "judge":
        if type(state.pending) is Play:
            return (JUDGE_RIGHT, JUDGE_WRONG)
        return (JUDGE_RIGHT, *(NAME_WRONG[c] for c in distinct_cards(state.hands[state.turn])))
    if phase == "offer":
        return (BECOME_PROPHET, PASS_ACTION)
    return ()


#: The most strings :func:`strings` lists.
MAX_STRINGS = 100_000


def _count_strings(multiplicities: list[int], n: int) -> int:
    """How many distinct sequences of ``n`` cards a hand with these multiplicities has
    (``n!`` times the coefficient of ``x**n`` in the product of ``sum(x**k / k!)``)."""
    poly = [Fraction(1)]
    for m in multiplicities:
        terms = [Fraction(1, math.factorial(k)) for k in range(min(m, n) + 1)]
        out = [Fraction(0)] * min(len(poly) + len(terms) - 1, n + 1)
        for i, a in enumerate(poly):
            for j, b in enumerate(terms):
                if i + j <= n:
                    out[i + j] += a * b
        poly = out
    return int(poly[n] * math.factorial(n)) if n < len(poly) else 0


def strings(state: State, n: int) -> tuple[Play, ...]:
    """Every distinct string of ``n`` cards the scientist to act may play, ordered by the
    canonical order of its first card, then its second, and so on.

    ``legal_actions`` lists single cards only (a hand of 14 has some 26,000 strings);
    :func:`apply` accepts any string of 2 to ``rules.max_string`` cards of the hand.
    ``()`` when it is not a scientist's turn or ``n`` is not a legal string length.
    More than ``MAX_STRINGS`` (100,000) strings (a hand of 14 has 240,240 strings of 5) raise
    :class:`~cardrules.CardRulesError` at once, before any is built.

    >>> from cardrules.eleusis import apply, new_game
    >>> s = new_game(seed=3)
    >>> twos = strings(s, 2)
    >>> len(twos) == len(set(itertools.permutations(s.hands[s.to_act], 2)))
    True
    >>> apply(s, twos[0]).count
    2
    """
    if state.phase != "turn" or not 1 <= n <= state.rules.max_string:
        return ()
    # Each distinct string once, made in canonical order: no permutation is made twice,
    # nothing is sorted.  Their number is known first, and a list too long to build in
    # reasonable time (a hand of 14 has 240,240 strings of 5) is refused.
    counts = Counter(state.hands[state.to_act])
    total = _count_strings(list(counts.values()), n)
    if total > MAX_STRINGS:
        raise CardRulesError(
            f"strings: a hand of {len(state.hands[state.to_act])} cards has {total:,} distinct "
            f"strings of {n}, more than the {MAX_STRINGS:,} listed at most: ask for shorter strings"
        )
    kinds = sorted(counts, key=lambda c: c.index)
    out: list[Play] = []
    string: list[Card] = []

    def extend(k: int) -> None:
        for c in kinds:
            if counts[c]:
                counts[c] -= 1
                string.append(c)
                if k == 1:
                    out.append(Play(tuple(string)))
                else:
                    extend(k - 1)
                string.pop()
                counts[c] += 1

    extend(n)
    return tuple(out)


# -- scoring ---------------------------------------------------------------------------


def round_scores(state: State) -> tuple[int, ...]:
    """The round's scores (God first) as New Eleusis counts them, for the
    state's present hands and layout (the round need not be over).

    Each scientist scores the high count (most cards held by a scientist) minus its
    own cards, plus 4 with no cards; a prophet at the end (a *true* prophet) adds 1 per
    main-line and 2 per side-line card played after its marker; God scores the best
    scientist's score, with a true prophet at most twice the cards played up to the
    marker.
    """
    hands = state.hands
    n = state.players
    counts = [len(hands[p]) for p in range(1, n)]
    high = max(counts)
    scores = [0] + [high - k + (4 if k == 0 else 0) for k in counts]
    god = max(scores[1:])
    if state.prophet is not None and state.marker is not None:
        at_count, at_main, at_side = state.marker
        bonus = (len(state.main) - at_main) + 2 * (state.side_cards - at_side)
        scores[state.prophet] += bonus
        god = min(max(scores[1:]), 2 * at_count)
    scores[0] = god
    return tuple(scores)


def match_scores(rounds: Sequence[State | Sequence[int]]) -> tuple[int, ...]:
    """Add up a match of several rounds of ``n`` players, each player God once.

    Round ``r`` is a finished :class:`State` (or its scores, God first).  Its God is
    match player ``r`` and its player ``k`` is match player ``(r + k) % n`` (the next
    round's God sits at this God's left).  A match ended early (fewer rounds than
    players) gives every player who was never God 10 more.  Returns the totals by
    match player.

    >>> match_scores([(12, 0, 5, 12), (3, 1, 0, 2)])  # two rounds of four: 2 and 3 never God
    (14, 3, 16, 22)
    """
    if not rounds:
        raise CardRulesError("match_scores needs at least one round")
    tables: list[tuple[int, ...]] = []
    for r, rnd in enumerate(rounds):
        if isinstance(rnd, State):
            if not rnd.is_over:
                raise CardRulesError(f"round {r} is not over")
            tables.append(round_scores(rnd))
        else:
            tables.append(tuple(rnd))
    n = len(tables[0])
    if n < 2 or any(len(t) != n for t in tables):
        raise CardRulesError("every round of a match has the same players")
    if len(tables) > n:
        raise CardRulesError(f"a match of {n} players has at most {n} rounds (each player God once)")
    totals = [0] * n
    for r, table in enumerate(tables):
        for k, score in enumerate(table):
            totals[(r + k) % n] += score
    if len(tables) < n:
        for m in range(len(tables), n):
            totals[m] += 10
    return tuple(totals)


# -- views -----------------------------------------------------------------------------


@attrs.frozen
class View:
    """What one player may see of a round.

    Everyone sees the main line, the side lines (``(i, cards)``: a wrong play under
    ``main[i]``), hand sizes, the prophet and its marker, the expelled, the sudden-death
    count and whether the next play is in sudden death, and the hand a scientist showed
    with a no-play while the prophet judges it (``shown``).  A scientist sees its own
    ``hand``; nobody sees another's cards; only God's view holds the ``rule``.
    """

    player: int
    hand: tuple[Card, ...]
    to_act: Any
    scores: tuple[int, ...]
    phase: str
    turn: int
    main: tuple[Card, ...]
    sides: tuple[SideLine, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    prophet: int | None
    marker: Marker | None
    former_prophets: tuple[int, ...]
    expelled: tuple[int, ...]
    count: int
    sudden_death_count: int
    in_sudden_death: bool
    pending: Play | NoPlay | None
    shown: tuple[Card, ...]
    max_string: int
    rule: Rule | None


def player_view(state: State, player: int) -> View:
    shown = state.hands[state.turn] if state.phase == "judge" and type(state.pending) is NoPlay else ()
    return View(
        player,
        state.hands[player],
        state.to_act,
        state.scores,
        state.phase,
        state.turn,
        state.main,
        state.sides,
        tuple(len(h) for h in state.hands),
        len(state.stock),
        state.prophet,
        state.marker,
        state.former_prophets,
        state.expelled,
        state.count,
        state.sudden_death_count,
        _sudden(state),
        state.pending,
        shown,
        state.rules.max_string,
        state.rules.secret if player == 0 else None,
    )


def public_view(state: State) -> View:
    """What someone at no seat may see (a spectator): a scientist's view without its
    hand (the layout, the hand sizes, the prophet, a no-play's shown hand), never the
    secret rule (only God's view holds it)."""
    return attrs.evolve(player_view(state, 1), hand=(), rule=None)
