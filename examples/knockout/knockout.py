"""Knockout whist, written outside cardrules on its public protocol.

A complete trick-taking game in one file, registered with :func:`cardrules.register_game`
so that every tool of the library takes it: ``GAMES["knockout"]``, ``simulate``,
``tournament``, ``ISMCTSAgent``, ``cardrules play``/``simulate`` (with ``--load``), JSON,
and the OpenSpiel and PettingZoo adapters.

The rules: 2 to 4 players and one 52-card deck.  The first hand deals 7 cards each, the
next 6, and so on down to 1.  A :class:`~cardrules.Shuffle` per hand deals the order round
the players still in (the first card to the first of them, ...); the next card is turned:
its suit is trump for the hand.  The leader of the first trick leads any card, the others
must follow suit if they can; the trick goes by the trick table below (trump, then the
led suit, by rank, ace high), and its winner leads the next.  A player who takes no trick
in a hand is knocked out.  The game ends when one player is left (at the latest after the
one-card hand): that player wins.  A player's score is the tricks they took, counted at
the end of each hand.  The winner
of a hand's last trick leads the next hand.
"""

from __future__ import annotations

from random import Random
from typing import Any

import attrs

from cardrules import (
    CHANCE,
    Card,
    GameDef,
    IllegalActionError,
    RulesError,
    SearchHooks,
    Shuffle,
    canonical,
    register_game,
    standard_deck,
)
from cardrules.encoding import FlatEncoding
from cardrules.search import SearchConfig
from cardrules.tricks import compile_tables

TABLE = compile_tables("""
table knockout:
    class trump when card.suit == key.suit
    class led   when card.suit == lead.suit
    class other
    trump beats led, other
    led   beats other
    otherwise by ranks standard
""")["knockout"]

DECK = standard_deck()


@attrs.frozen
class Rules:
    """``first_hand``: the cards each player gets in the first hand (1 to 7)."""

    first_hand: int = attrs.field(default=7)

    @first_hand.validator
    def _check(self, attribute: object, value: int) -> None:
        if type(value) is not int or not 1 <= value <= 7:
            raise RulesError(f"knockout: first_hand must be 1 to 7, not {value!r}")


@attrs.frozen
class Play:
    """Play a card."""

    card: Card

    def __str__(self) -> str:
        return str(self.card)


@attrs.frozen
class State:
    rules: Rules
    players: int
    hand_size: int  # the cards each player was dealt this hand
    alive: tuple[bool, ...]
    hands: tuple[tuple[Card, ...], ...]
    trump: Card | None  # the turned card (None before the deal)
    leader: int  # who leads the trick under way
    trick: tuple[Card, ...]  # the cards of the trick under way, the leader's first
    played: tuple[tuple[int, Card], ...]  # every card of this hand, with its player
    tricks: tuple[int, ...]  # tricks taken in this hand
    scores: tuple[int, ...]
    to_act: Any  # a player, CHANCE, or None at the end
    history: tuple[Any, ...]
    seed: object = attrs.field(default=None, eq=False)

    @property
    def is_over(self) -> bool:
        return self.to_act is None

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(p for p, a in enumerate(self.alive) if a) if self.is_over else ()


@attrs.frozen
class View:
    player: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    alive: tuple[bool, ...]
    trump: Card | None
    leader: int
    trick: tuple[Card, ...]
    played: tuple[tuple[int, Card], ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    to_act: Any


def start_state(rules: Rules, players: int) -> State:
    n = players
    return State(
        rules, n, rules.first_hand, (True,) * n, ((),) * n, None, 0, (), (), (0,) * n, (0,) * n, CHANCE, ()
    )


def cards_to_shuffle(state: State) -> tuple[Card, ...]:
    return DECK


def deal_cards(state: State, shuffle: Shuffle) -> State:
    seats = [p for p in range(state.players) if state.alive[p]]
    hands: list[tuple[Card, ...]] = [()] * state.players
    k = state.hand_size
    for i, p in enumerate(seats):
        hands[p] = canonical(shuffle.order[i : k * len(seats) : len(seats)])
    trump = shuffle.order[k * len(seats)]
    return attrs.evolve(
        state, hands=tuple(hands), trump=trump, to_act=state.leader, history=(*state.history, shuffle)
    )


def _next_alive(alive: tuple[bool, ...], p: int) -> int:
    p = (p + 1) % len(alive)
    while not alive[p]:
        p = (p + 1) % len(alive)
    return p


def legal_actions(state: State) -> tuple[Play, ...]:
    if type(state.to_act) is not int:
        return ()
    hand = state.hands[state.to_act]
    if state.trick:
        follow = tuple(c for c in hand if c.suit is state.trick[0].suit)
        if follow:
            return tuple(map(Play, follow))
    return tuple(map(Play, hand))


def step_state(state: State, action: Any) -> State:
    p = state.to_act
    if type(p) is not int:
        raise IllegalActionError("knockout: the game is over")
    if not isinstance(action, Play):
        raise IllegalActionError(f"knockout: {action!r} is not a Play")
    hand = state.hands[p]
    if action.card not in hand:
        raise IllegalActionError(f"knockout: you do not hold {action.card}")
    if Play(action.card) not in legal_actions(state):
        held = " ".join(str(c) for c in hand if c.suit is state.trick[0].suit)
        raise IllegalActionError(f"knockout: must follow suit: you hold {held}")
    hands = list(state.hands)
    hands[p] = tuple(c for c in hand if c != action.card)
    trick = (*state.trick, action.card)
    played = (*state.played, (p, action.card))
    history = (*state.history, action)
    alive, tricks, scores = state.alive, state.tricks, state.scores
    in_play = sum(alive)
    if len(trick) < in_play:
        return attrs.evolve(state, hands=tuple(hands), trick=trick, played=played,
                            to_act=_next_alive(alive, p), history=history)
    # the trick is complete: its winner takes it and leads the next
    seat = state.leader
    order = [seat]
    while len(order) < in_play:
        seat = _next_alive(alive, seat)
        order.append(seat)
    winner = order[TABLE.winner(trick, key=state.trump)]
    tricks = tuple(t + (q == winner) for q, t in enumerate(tricks))
    if hands[winner]:
        return attrs.evolve(state, hands=tuple(hands), trick=(), played=played, tricks=tricks,
                            leader=winner, to_act=winner, history=history)
    # the hand is over: its tricks are scored, and who took none is out
    scores = tuple(s + t for s, t in zip(scores, tricks, strict=True))
    alive = tuple(a and t > 0 for a, t in zip(alive, tricks, strict=True))
    size = state.hand_size - 1
    to_act = None if sum(alive) == 1 or size == 0 else CHANCE
    n = state.players
    # the winner of the last trick leads the next hand
    return State(state.rules, n, max(size, 1), alive, ((),) * n, None, winner, (), (), (0,) * n, scores,
                 to_act, history, state.seed)


def player_view(state: State, player: int) -> View:
    s = state
    return View(player, s.hands[player], tuple(map(len, s.hands)), s.alive, s.trump, s.leader, s.trick,
                s.played, s.tricks, s.scores, s.to_act)


def render_table(state: State, player: int | None = None) -> str:
    s = state
    lines = [f"trump: {s.trump or '-'}   tricks this hand: {list(s.tricks)}   scores: {list(s.scores)}"]
    lines.append("trick: " + (" ".join(map(str, state.trick)) or "(none yet)"))
    for p in range(state.players):
        if player is None or p == player:
            lines.append(f"player {p}: " + (" ".join(map(str, state.hands[p])) if state.alive[p] else "out"))
    return "\n".join(lines)


# -- what the search may use -----------------------------------------------------------


class GreedyAgent:
    """Takes the trick with its cheapest winning card when it can; else plays its lowest."""

    def __init__(self, seed: object = None) -> None:
        self.seed = seed

    def __call__(self, view: View, legal: Any) -> Play:
        def strength(card: Card) -> tuple[bool, int]:
            return card.suit is (view.trump.suit if view.trump else None), 14 if card.rank == 1 else card.rank

        if view.trick:
            led = len(view.trick)
            winning = [a for a in legal if TABLE.winner((*view.trick, a.card), key=view.trump) == led]
            if winning:
                return min(winning, key=lambda a: strength(a.card))
        return min(legal, key=lambda a: strength(a.card))


def state_sampler(v: View, rules: Rules | None) -> Any:
    """States consistent with ``v``: the other players' cards dealt anew from the unseen
    ones, respecting the suits they showed they lack (by rejection, then without)."""
    seen = set(v.hand) | {c for _, c in v.played} | ({v.trump} if v.trump else set())
    unseen = [c for c in DECK if c not in seen]
    others = [p for p in range(len(v.alive)) if p != v.player and v.hand_sizes[p]]
    void: dict[int, set[Any]] = {p: set() for p in others}
    led = None
    for i, (p, c) in enumerate(v.played):
        if i % sum(v.alive) == 0:  # a trick's first card
            led = c.suit
        elif c.suit is not led and p in void:
            void[p].add(led)
    rules = rules or Rules()

    def draw(rng: Random) -> State:
        for _ in range(50):
            pool = unseen[:]
            rng.shuffle(pool)
            hands: list[tuple[Card, ...]] = [()] * len(v.alive)
            hands[v.player] = v.hand
            i = 0
            for p in others:
                hands[p] = canonical(pool[i : i + v.hand_sizes[p]])
                i += v.hand_sizes[p]
            if all(c.suit not in void[p] for p in others for c in hands[p]):
                break
        size = len(v.hand) + sum(1 for p, _ in v.played if p == v.player)
        return State(rules, len(v.alive), size, v.alive, tuple(hands), v.trump, v.leader, v.trick, v.played,
                     v.tricks, v.scores, v.to_act, ())

    return draw



class KnockoutEncoding(FlatEncoding):
    """Integer actions for OpenSpiel and PettingZoo: one id per card played (the
    GameDef it is handed to binds it to the game)."""

    def all_actions(self) -> tuple[Play, ...]:
        return tuple(map(Play, DECK))

    def max_game_length(self) -> int:  # 7 + 6 + ... + 1 cards for each player
        return self.players * 28

    def utility_bounds(self) -> tuple[float, float]:
        return 0.0, 28.0


# -- the game, registered: from here on every tool of cardrules takes it ----------------

GAME: GameDef[State, Rules] = register_game(GameDef(
    "knockout", rules_type=Rules, state_type=State, action_types=(Play,),
    player_counts=(2, 3, 4), default_players=3,
    start=start_state, legal_actions=legal_actions, step=step_state, chance_cards=cards_to_shuffle,
    deal=deal_cards, view=player_view,
    render=render_table, title="Knockout whist", scoring="trick",
    notation="  a card to play: 7H (ranks A 2..10 J Q K; suits S H D C)",
    sampler=state_sampler, greedy_agent=GreedyAgent, encoding=KnockoutEncoding,
    search=SearchHooks(config=SearchConfig(iterations=200, prior="greedy"), reward_scale=2.0),
    module=__name__,
))  # fmt: skip
