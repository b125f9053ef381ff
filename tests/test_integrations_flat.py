"""A game written outside the package runs in both adapters with a FlatEncoding: the game
says only the list of every action it can have, and the observation blocks come from
its view's fields.  Checked with OpenSpiel's ``random_sim_test`` and PettingZoo's
``api_test``, on a tiny trick-taking game defined here with the game protocol."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from cardrules import CHANCE, Card, IllegalActionError, Shuffle, Suit, canonical
from cardrules.encoding import (
    CARD_COUNTS,
    NUMBER,
    NUMBERS,
    ONE_HOT,
    FlatEncoding,
    encoding_for,
)
from cardrules.protocol import GameDef, register_game

SUITS = (Suit.SPADES, Suit.HEARTS)


@attrs.frozen
class Rules:
    ranks: int = 4  # cards 2 .. ranks + 1 in each of two suits


@attrs.frozen
class Play:
    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"


@attrs.frozen
class View:
    player: int
    to_act: Any
    hand: tuple[Card, ...]
    trick: tuple[Card, ...]
    won: tuple[int, ...]
    leader: int | None
    last: Card | None


@attrs.frozen
class State:
    rules: Rules
    players: int
    hands: tuple[tuple[Card, ...], ...]
    trick: tuple[Card, ...]
    scores: tuple[int, ...]
    to_act: Any
    leader: int | None
    history: tuple[Any, ...]
    seed: object = attrs.field(default=None, eq=False)

    @property
    def is_over(self) -> bool:
        return self.to_act is None

    @property
    def winners(self) -> tuple[int, ...]:
        best = max(self.scores)
        return tuple(p for p, s in enumerate(self.scores) if s == best) if self.is_over else ()


def deck(rules: Rules) -> tuple[Card, ...]:
    return tuple(Card(r, s) for s in SUITS for r in range(2, rules.ranks + 2))


def start(rules: Rules, players: int) -> State:
    return State(rules, players, ((),) * players, (), (0,) * players, CHANCE, None, ())


def deal(state: State, shuffle: Shuffle) -> State:
    n = state.players
    hands = tuple(canonical(shuffle.order[p::n]) for p in range(n))
    return attrs.evolve(state, hands=hands, to_act=0, leader=0, history=(*state.history, shuffle))


def legal_actions(state: State) -> tuple[Play, ...]:
    if type(state.to_act) is not int:
        return ()
    hand = state.hands[state.to_act]
    follow = [c for c in hand if state.trick and c.suit is state.trick[0].suit]
    return tuple(Play(c) for c in (follow or hand))


def step(state: State, action: Any) -> State:
    if action not in legal_actions(state):
        raise IllegalActionError(f"{action} is not legal here")
    p, n = state.to_act, state.players
    hands = list(state.hands)
    hands[p] = tuple(c for c in hands[p] if c != action.card)
    trick = (*state.trick, action.card)
    scores, to_act, leader = state.scores, (p + 1) % n, state.leader
    if len(trick) == n:
        assert leader is not None
        led = trick[0].suit
        best = max(range(n), key=lambda i: trick[i].rank if trick[i].suit is led else 0)
        leader = (leader + best) % n
        scores = tuple(s + (i == leader) for i, s in enumerate(scores))
        trick, to_act = (), leader if hands[leader] else None
    return State(state.rules, n, tuple(hands), trick, scores, to_act, leader, (*state.history, action), state.seed)


def view(state: State, player: int) -> View:
    last = state.trick[-1] if state.trick else None
    return View(player, state.to_act, state.hands[player], state.trick, state.scores, state.leader, last)


class TinyTricksEncoding(FlatEncoding):
    """All the encoding this game needs: its actions, its length and its scores."""

    name = "tinytricks"

    def all_actions(self) -> tuple[Play, ...]:
        return tuple(Play(c) for c in deck(self.rules))

    def max_game_length(self) -> int:
        return len(deck(self.rules))

    def utility_bounds(self) -> tuple[float, float]:
        return 0.0, float(len(deck(self.rules)) // self.players)


GAME = GameDef(
    "tinytricks",
    rules_type=Rules,
    state_type=State,
    action_types=(Play,),
    player_counts=(2, 4),
    default_players=2,
    start=start,
    legal_actions=legal_actions,
    step=step,
    chance_cards=lambda state: deck(state.rules),
    deal=deal,
    view=view,
    encoding=TinyTricksEncoding,
    module=__name__,
)
register_game(GAME)




def test_the_flat_encoding_derives_ids_blocks_and_parameters() -> None:
    enc = encoding_for("tinytricks", players=2)
    assert enc.num_actions == 8 and enc.cards == canonical(deck(Rules()))
    assert [(b.name, b.kind, b.size) for b in enc.blocks()] == [
        ("player", NUMBER, 1),
        ("hand", CARD_COUNTS, 8),
        ("trick", CARD_COUNTS, 8),
        ("won", NUMBERS, 2),
        ("leader", NUMBER, 1),
        ("last", ONE_HOT, 8),
    ]
    assert TinyTricksEncoding.parameters() == {"players": 2, "ranks": 4}
    wide = TinyTricksEncoding.from_params({"players": 4, "ranks": 6})
    assert (wide.players, wide.rules, wide.num_actions) == (4, Rules(6), 12)
    with pytest.raises(Exception, match="unknown parameter"):
        TinyTricksEncoding.from_params({"trumps": 1})


def test_the_flat_encoding_plays_whole_games() -> None:
    """Chance card by card, one id per action: random games end where the game's own
    apply takes them, and the legal ids are exactly the ids of the legal actions."""
    enc = encoding_for("tinytricks", players=4)
    rng = random.Random(3)
    for _ in range(20):
        pos = enc.initial()
        while (who := enc.to_act(pos)) is not None:
            if who is CHANCE:
                pos = enc.apply(pos, rng.choice(enc.chance_outcomes(pos))[0])
                continue
            actions = legal_actions(pos.state)
            assert enc.legal_tokens(pos) == sorted(enc.action_id[a] for a in actions)
            action = rng.choice(actions)
            before = pos.state
            pos = enc.apply(pos, enc.action_id[action])
            assert pos.state == GAME.apply(before, action)
        assert pos.state.is_over and sum(pos.state.scores) == 2


@pytest.mark.parametrize("players", [2, 4])
def test_openspiel_random_sim_test(players: int) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")
    from cardrules.integrations import openspiel as cos

    short = cos.register("tinytricks")
    game = pyspiel.load_game(short, {"players": players})
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    hand = state.cardrules_state.hands[state.current_player()]
    observer = game.make_py_observer()
    observer.set_from(state, state.current_player())
    assert observer.dict["hand"].sum() == len(hand) and observer.dict["won"].tolist() == [0.0] * players


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_test(players: int) -> None:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra (pettingzoo) is not installed")
    from pettingzoo.test import api_test

    from cardrules.integrations.pettingzoo import env

    api_test(env("tinytricks", players=players), num_cycles=200)
