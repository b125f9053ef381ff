"""The shared protocol, tested on a toy game (tests/toygame.py) so that it stands on its own."""

import copy
import hashlib
import pickle
import random
import struct
import typing
import weakref

import attrs
import pytest
import toygame
from hypothesis import given
from hypothesis import strategies as st

import cardrules
from cardrules import CHANCE, GAMES, IllegalActionError, Shuffle, chance_cards, parse_cards
from cardrules.agents import RandomAgent
from cardrules.protocol import Chance, seeded_order

G = toygame.GAME


def test_chance_is_a_singleton_that_survives_pickling_and_copying():
    assert pickle.loads(pickle.dumps(CHANCE)) is CHANCE
    assert copy.copy(CHANCE) is CHANCE and copy.deepcopy(CHANCE) is CHANCE
    assert Chance() is CHANCE and repr(CHANCE) == "CHANCE"


def test_unseeded_game_stops_at_chance_and_a_stacked_deck_deals_exactly():
    s = G.new_game()
    assert s.to_act is CHANCE and G.legal_actions(s) == ()
    assert chance_cards(s) == parse_cards("AS 2S 3S 4S 5S 6S")
    s = G.apply(s, Shuffle(parse_cards("6S AS 5S 2S 4S 3S")))
    assert s.hands == (parse_cards("4S 5S 6S"), parse_cards("AS 2S 3S"))
    assert chance_cards(s) == ()


@pytest.mark.parametrize("order, why", [
    ("AS 2S 3S 4S 5S", "lacks 6S"),
    ("AS 2S 3S 4S 5S 6S 6S", "holds 6S"),
    ("AS 2S 3S 4S 5S 7S", "holds 7S"),
    ("AS AS 3S 4S 5S 6S", "holds AS"),
])
def test_a_shuffle_must_be_a_permutation_of_the_chance_cards(order, why):
    s = G.new_game()
    with pytest.raises(IllegalActionError, match=why):
        G.apply(s, Shuffle(parse_cards(order)))


def test_only_shuffles_at_chance_and_never_elsewhere():
    s = G.new_game()
    with pytest.raises(IllegalActionError, match="chance node"):
        G.apply(s, toygame.Play(cardrules.parse_card("AS")))
    s = G.new_game(seed=1)
    with pytest.raises(IllegalActionError, match="only legal at a chance node"):
        G.apply(s, Shuffle(chance_cards(G.new_game())))


def _portable_order(seed, k, cards):
    """The seeded shuffle as its definition states it, written independently."""
    cards = list(cards)
    n = len(cards)
    if n < 2:
        return tuple(cards)
    stream = hashlib.shake_256(f"{seed}:{k}".encode("utf-8", "surrogatepass")).digest(8 * (n - 1))
    draws = struct.unpack(f">{n - 1}Q", stream)
    for t, i in enumerate(range(n - 1, 0, -1)):
        j = draws[t] % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def test_seeded_chance_follows_the_documented_rule():
    s = G.new_game(seed="abc")
    assert s.history == (Shuffle(_portable_order("abc", 0, chance_cards(G.new_game()))),)
    assert s.seed == "abc"


def test_the_portable_shuffle_matches_its_published_test_vectors():
    deck = cardrules.standard_deck()
    demo = seeded_order("demo", 0, deck)
    assert demo[:10] == parse_cards("7D 8S 9H 2C JC 2H 4S KC 5C 6D")
    assert demo[-3:] == parse_cards("KH 7H QC")
    assert seeded_order(42, 3, deck)[:10] == parse_cards("10C 9H 3D 4S 7C 8D 8H KS 7H 6S")


@given(st.one_of(st.text(max_size=12), st.integers()), st.integers(0, 10**6), st.integers(0, 120))
def test_the_portable_shuffle_is_its_definition(seed, k, n):
    items = tuple(range(n))
    got = seeded_order(seed, k, items)
    assert got == _portable_order(seed, k, items)
    assert sorted(got) == list(items)


def test_any_string_is_a_seed_even_a_lone_surrogate():
    s = G.new_game(seed="\ud800")
    assert s.seed == "\ud800" and s.history[0] == Shuffle(_portable_order("\ud800", 0, chance_cards(G.new_game())))
    assert G.replay(None, s.history) == s


def test_every_deal_of_a_seeded_game_uses_its_own_k():
    # Two games: the k-th Shuffle of the history is the order for (seed, k).
    s = G.new_game(seed=9)
    rng = random.Random(0)
    while not s.is_over:
        s = G.apply(s, rng.choice(G.legal_actions(s)))
    shuffles = [a for a in s.history if type(a) is Shuffle]
    for k, shuffle in enumerate(shuffles):
        assert shuffle.order == _portable_order(9, k, sorted(shuffle.order, key=lambda c: c.rank))


def test_seed_takes_no_part_in_equality_and_replay_is_exact():
    s = G.new_game(seed=5)
    rng = random.Random(0)
    while not s.is_over:
        s = G.apply(s, rng.choice(G.legal_actions(s)))
    r = G.replay(None, s.history)
    assert r == s and r.seed is None and s.seed == 5


def test_replay_names_the_illegal_action():
    s = G.new_game(seed=5)
    bad = [*s.history, toygame.Play(cardrules.parse_card("KS"))]
    with pytest.raises(IllegalActionError, match=r"action 1 \(.*KS.*\): KS is not in your hand") as info:
        G.replay(None, bad)
    # the game's own error is kept as the cause, with its traceback
    assert isinstance(info.value.__cause__, IllegalActionError)
    assert str(info.value.__cause__).endswith("KS is not in your hand")


def test_player_counts_are_checked():
    with pytest.raises(cardrules.CardRulesError, match="played by 2 players"):
        G.new_game(players=3)
    with pytest.raises(cardrules.CardRulesError, match="rules must be"):
        G.new_game(rules="fast")  # type: ignore[arg-type]
    with pytest.raises(cardrules.CardRulesError, match="no player 2"):
        G.view(G.new_game(seed=1), 2)


def test_registry_has_the_four_games_and_defined_ones():
    assert list(GAMES)[:4] == ["aegis", "gunsore", "eleusis", "haggis"]
    assert GAMES["highcard"] is G and "highcard" in GAMES
    with pytest.raises(KeyError):
        GAMES["chess"]


@given(st.integers(min_value=0, max_value=10**6))
def test_random_play_ends_and_replays(seed):
    s = G.new_game(seed=seed)
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    steps = 0
    while not s.is_over:
        p = s.to_act
        before = s
        s = G.apply(s, agents[p](G.view(s, p), G.legal_actions(s)))
        assert attrs.asdict(before, recurse=False) != attrs.asdict(s, recurse=False)
        steps += 1
        assert steps < 10
    assert sum(s.scores) == 3 and s.winners
    assert G.replay(None, s.history) == s


def test_a_start_state_kept_by_the_game_is_never_changed_by_seeding(monkeypatch):
    kept = G.new_game()
    monkeypatch.setattr(G, "_start", lambda rules, players: kept)
    seeded = G.new_game(seed=3)
    assert kept.seed is None and kept.history == () and kept.to_act is CHANCE
    assert seeded.seed == 3 and len(seeded.history) >= 1
    monkeypatch.undo()
    assert G.new_game(seed=3) == seeded and G.new_game(seed=3).seed == 3


class _Guarded:
    """The ``seed`` slot of a State subclass, refusing writes to finished states."""

    finished: typing.ClassVar[dict[int, weakref.ref]] = {}  # by identity: a new state may be equal

    def __init__(self, slot):
        self.slot = slot

    def __get__(self, obj, cls=None):
        return self if obj is None else self.slot.__get__(obj, cls)

    def __set__(self, obj, value):
        ref = self.finished.get(id(obj))
        if ref is not None and ref() is obj:
            raise AssertionError("a finished state was changed")
        self.slot.__set__(obj, value)


class _Watched(toygame.State):
    __slots__ = ()
    seed = _Guarded(toygame.State.seed)


def test_a_weakly_kept_start_state_is_never_changed_by_seeding(monkeypatch):
    # A game whose start() keeps its states in a WeakValueDictionary: only a weak
    # reference holds the state new_game receives, which a reference count cannot see.
    cache = weakref.WeakValueDictionary()
    real_start = G._start

    def start(rules, players):
        state = cache.get((rules, players))
        if state is None:
            state = _Watched(**attrs.asdict(real_start(rules, players), recurse=False))
            _Guarded.finished[id(state)] = weakref.ref(state)
            cache[rules, players] = state
        return state

    monkeypatch.setattr(G, "_start", start)
    try:
        seeded = G.new_game(seed=3)
        kept = start(toygame.Rules(), 2)
        unseeded = G.new_game()
    finally:
        _Guarded.finished.clear()
    assert seeded.seed == 3 and len(seeded.history) == 1
    assert kept.seed is None and unseeded.seed is None and unseeded.to_act is CHANCE


def test_import_cardrules_alone_reaches_every_documented_module():
    # api.md writes cardrules.eleusis.compile_rule, cardrules.agents.RandomAgent ...
    import subprocess
    import sys

    script = (
        "import cardrules;"
        "print(cardrules.eleusis.compile_rule('card is red').name,"
        " cardrules.agents.RandomAgent.__name__,"
        " cardrules.tricks.builtin('aegis').name,"
        " [m.new_game.__module__ for m in (cardrules.aegis, cardrules.gunsore, cardrules.haggis)])"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["None", "RandomAgent", "aegis", "['cardrules.aegis',", "'cardrules.gunsore',", "'cardrules.haggis']"]
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        cardrules.nothing  # noqa: B018


def test_an_unknown_game_name_is_a_clear_error_and_still_a_key_error():
    with pytest.raises(cardrules.UnknownGameError, match=r"no game named 'chess' \(games: aegis, gunsore"):
        GAMES["chess"]
    with pytest.raises(KeyError):
        GAMES["chess"]
    assert issubclass(cardrules.UnknownGameError, cardrules.CardRulesError)
    assert GAMES.get("chess") is None and "chess" not in GAMES


def test_a_shuffle_of_things_that_are_not_cards_is_an_illegal_action():
    s = G.new_game()
    n = len(chance_cards(s))
    for order in ([[1]] * n, [None] * n, ["AS"] * n):
        with pytest.raises(IllegalActionError, match="is not a Card"):
            G.apply(s, Shuffle(tuple(order)))
    with pytest.raises(IllegalActionError, match="Shuffle takes the cards in order"):
        Shuffle(5)


def test_a_game_may_hand_over_a_step_function_per_action_type():
    # GameDef(steps=...) calls the step function of an action's type when a player acts,
    # and the general step for any other type (and at the end of the game).
    from cardrules import aegis
    from cardrules.protocol import GameDef

    calls = []

    def step(state, action):
        calls.append(("step", type(action).__name__))
        return aegis.rules.step_state(state, action)

    def step_bid(state, action):
        calls.append(("bid", type(action).__name__))
        return aegis.rules.step_state(state, action)

    g = aegis.GAME
    game = GameDef(
        "aegis_steps", rules_type=g.Rules, state_type=g.State, action_types=(aegis.Exchange, aegis.Bid, aegis.Play),
        player_counts=(2,), default_players=2, start=g._start, legal_actions=g._legal, step=step,
        chance_cards=g._chance_cards, deal=g._deal, view=g._view, steps={aegis.Bid: step_bid},
    )  # fmt: skip
    state = game.new_game(seed=7)
    state = game.apply(state, aegis.Exchange(()))
    state = game.apply(state, aegis.Bid(2))
    assert calls == [("step", "Exchange"), ("bid", "Bid")]
    assert state == aegis.apply(aegis.apply(aegis.new_game(seed=7), aegis.Exchange(())), aegis.Bid(2))
