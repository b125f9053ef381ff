"""The OpenSpiel adapter: OpenSpiel's own random simulation test for every game and player
count, and checks of the encoding, chance, observations, serialization and ISMCTS."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra (open_spiel) is not installed")
np = pytest.importorskip("numpy", reason="the openspiel extra (numpy) is not installed")

from cardrules import GAMES, Shuffle, chance_cards  # noqa: E402
from cardrules.integrations import openspiel as cos  # noqa: E402
from cardrules.integrations.sampling import sample_state  # noqa: E402

CASES = [
    ("aegis", 2),
    ("gunsore", 2),
    ("haggis", 2),
    ("haggis", 3),
    *(("eleusis", n) for n in GAMES["eleusis"].player_counts),
]
IDS = [f"{g}-{n}" for g, n in CASES]


def load(name: str, players: int, **params: object) -> object:
    return pyspiel.load_game(cos.GAME_NAMES[name], {"players": players, **params})


@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_random_sim_test(name: str, players: int) -> None:
    pyspiel.random_sim_test(load(name, players), num_sims=20, serialize=True, verbose=False)


def walk(game: object, seed: int, stop: int | None = None):  # type: ignore[no-untyped-def]
    """Yield every state of one random game (chance by its probabilities)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal() and (stop is None or n < stop):
        yield state
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        n += 1
    yield state


@pytest.mark.parametrize(("name", "players"), [("aegis", 2), ("gunsore", 2), ("haggis", 3), ("eleusis", 4)])
def test_tokens_enter_exactly_the_legal_actions(name: str, players: int) -> None:
    """At every player node, walking each legal cardrules action's tokens reaches the state
    cardrules' own apply gives, and the closing token's text is str(action)."""
    game = load(name, players)
    enc = game.encoding
    gd = GAMES[name]
    for k, state in enumerate(walk(game, seed=3, stop=1500)):
        if state.is_chance_node() or state.is_terminal() or state.position.pending or k % 7:
            continue
        base = state.cardrules_state
        actions = gd.legal_actions(base)
        assert len({enc.tokens(base, a) for a in actions}) == len(actions)
        for action in actions[:40]:
            s = state.clone()
            toks = enc.tokens(base, action)
            for t in toks[:-1]:
                assert t in s.legal_actions()
                s.apply_action(t)
            assert s.action_to_string(s.current_player(), toks[-1]) == str(action)
            s.apply_action(toks[-1])
            assert s.cardrules_state == gd.apply(base, action)
            assert all(0 <= t < game.num_distinct_actions() for t in toks)


def test_eleusis_strings_are_entered_card_by_card() -> None:
    from cardrules import eleusis

    game = load("eleusis", 5)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    base = state.cardrules_state
    hand = base.hands[base.to_act]
    played = (hand[0], hand[3], hand[1])
    enc = game.encoding
    for card in played:
        state.apply_action(enc.card_id[card])
    assert enc.END in state.legal_actions()
    assert state.action_to_string(state.current_player(), enc.END) == str(eleusis.Play(played))
    state.apply_action(enc.END)
    assert state.cardrules_state == eleusis.apply(base, eleusis.Play(played))


@pytest.mark.parametrize("name", ["aegis", "gunsore", "haggis", "eleusis"])
def test_a_stacked_deal_is_reachable(name: str) -> None:
    """Drawing the cards of a chosen order one chance node at a time applies exactly the
    Shuffle of that order; each draw is uniform over the cards left."""
    game = load(name, GAMES[name].default_players)
    enc = game.encoding
    state = game.new_initial_state()
    cards = list(chance_cards(state.cardrules_state))
    random.Random(7).shuffle(cards)
    base = state.cardrules_state
    for i, card in enumerate(cards):
        left = cards[i:]
        outcomes = dict(state.chance_outcomes())
        assert outcomes[enc.card_id[card]] == pytest.approx(left.count(card) / len(left))
        assert sum(outcomes.values()) == pytest.approx(1.0)
        state.apply_action(enc.card_id[card])
    assert state.cardrules_state == GAMES[name].apply(base, Shuffle(tuple(cards)))


def expected_view_text(name: str, cr_state: object, player: int, pending: tuple[int, ...], enc: object) -> str:
    text = repr(GAMES[name].view(cr_state, player))
    if pending and cr_state.to_act == player:  # type: ignore[attr-defined]
        text += "\npending: " + " ".join(enc.token_name(t) for t in pending)  # type: ignore[attr-defined]
    return text


@pytest.mark.parametrize(("name", "players"), [("aegis", 2), ("gunsore", 2), ("haggis", 3), ("eleusis", 4)])
def test_observations_hold_the_view(name: str, players: int) -> None:
    game = load(name, players)
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    for k, state in enumerate(walk(game, seed=5)):
        if k % 5:
            continue
        for p in range(players):
            want = expected_view_text(name, state.cardrules_state, p, state.position.pending, game.encoding)
            assert state.observation_string(p) == want
            assert state.information_state_string(p) == want
            assert observer.string_from(state, p) == want


@pytest.mark.parametrize(("name", "players"), [("aegis", 2), ("gunsore", 2), ("haggis", 2), ("eleusis", 3)])
def test_serialization_round_trips(name: str, players: int) -> None:
    game = load(name, players)
    for k, state in enumerate(walk(game, seed=11)):
        if k % 13:
            continue
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert state2.cardrules_state == state.cardrules_state
        assert state2.history() == state.history()
        assert state2.legal_actions() == state.legal_actions()
        assert str(state2) == str(state)


def test_from_cardrules_reaches_the_same_state() -> None:
    game = load("haggis", 3)
    cr = GAMES["haggis"].new_game(players=3, seed=9)
    rng = random.Random(1)
    for _ in range(30):
        cr = GAMES["haggis"].apply(cr, rng.choice(GAMES["haggis"].legal_actions(cr)))
    state = cos.from_cardrules(game, cr)
    assert state.cardrules_state == cr
    assert state.current_player() == cr.to_act


def test_parameters_reach_the_rules() -> None:
    game = load("eleusis", 4, secret="(card.rank >= prev.rank) or (card.color != prev.color)", max_string=2)
    rules = game.encoding.rules
    assert rules.max_string == 2
    cards = __import__("cardrules").parse_cards
    assert rules.secret.accepts(cards("5H"), cards("9H")[0])
    game2 = pyspiel.load_game(str(game))  # the game string round-trips the rule text
    assert game2.encoding.rules.max_string == 2
    assert str(game2) == str(game)
    haggis = load("haggis", 3, bets="10", target=100)
    assert haggis.encoding.rules.bets == (10,) and haggis.encoding.rules.target == 100
    with pytest.raises(Exception, match="bets"):
        load("haggis", 2, bets="x")


@pytest.mark.parametrize(("name", "players"), [("aegis", 2), ("gunsore", 2), ("haggis", 3), ("eleusis", 5)])
def test_sampler_keeps_the_view(name: str, players: int) -> None:
    game = load(name, players)
    for k, state in enumerate(walk(game, seed=2)):
        if k % 9 or state.is_chance_node() or state.is_terminal():
            continue
        cr = state.cardrules_state
        p = cr.to_act
        sampled = sample_state(name, cr, p, seed=k)
        assert GAMES[name].view(sampled, p) == GAMES[name].view(cr, p)
        assert GAMES[name].legal_actions(sampled) == GAMES[name].legal_actions(cr)


class ScoreEvaluator:
    """A cheap ISMCTS evaluator: the scores so far (no rollout), uniform priors."""

    def evaluate(self, state: object) -> object:
        return np.array(state.cardrules_state.scores, dtype=float)  # type: ignore[attr-defined]

    def prior(self, state: object) -> list[tuple[int, float]]:
        legal = state.legal_actions()  # type: ignore[attr-defined]
        return [(a, 1.0 / len(legal)) for a in legal]


@pytest.mark.parametrize(
    ("name", "players", "params"),
    [("aegis", 2, {"target": 8}), ("gunsore", 2, {}), ("haggis", 2, {"target": 60}), ("eleusis", 3, {})],
)
def test_ismcts_plays_full_games(name: str, players: int, params: dict[str, object]) -> None:
    from open_spiel.python.algorithms import ismcts

    game = load(name, players, **params)
    bot = ismcts.ISMCTSBot(game, ScoreEvaluator(), uct_c=2.0, max_simulations=4,
                           random_state=np.random.RandomState(1))
    bot.set_resampler(cos.sampling_resampler(seed=1))
    rng = random.Random(4)
    state = game.new_initial_state()
    decisions = 0
    me = 1 if name == "eleusis" else 0  # the Eleusis god (player 0) takes no decisions
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif state.current_player() == me:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert decisions > 0
    assert state.cardrules_state.is_over


@pytest.mark.parametrize(("name", "players"), [("aegis", 2), ("gunsore", 2), ("haggis", 3), ("eleusis", 4)])
def test_tensors_hold_the_view(name: str, players: int) -> None:
    """The observation and information-state tensors: the hand decoded from the tensor is
    the view's hand; the scores block is the view's scores; the information state is the
    observation followed by the view's whole code (perfect recall), as OpenSpiel's own
    Python games keep the past in the information state only; equal views (also of
    states the sampler makes, which differ in hidden cards) give equal tensors, and
    different views different information-state tensors."""
    from cardrules.cards import canonical
    from cardrules.integrations import tensors

    game = load(name, players)
    enc = game.encoding
    obs = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    info = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert "view" not in obs.dict and "view" in info.dict
    assert game.make_py_observer(
        pyspiel.IIGObservationType(public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    ) is None
    by_view: dict[str, tuple[bytes, bytes]] = {}
    by_tensor: dict[bytes, str] = {}
    for k, state in enumerate(walk(game, seed=8, stop=1200)):
        if k % 3:
            continue
        for p in range(players):
            view = GAMES[name].view(state.cardrules_state, p)
            obs.set_from(state, p)
            info.set_from(state, p)
            t, ti = obs.tensor.copy(), info.tensor.copy()
            assert len(t) < len(ti) and (ti[: len(t)] == t).all()
            assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32), t)
            assert np.array_equal(np.asarray(state.information_state_tensor(p), np.float32), ti)
            assert tensors.decode_hand(t, enc) == tuple(sorted(view.hand, key=enc.card_id.__getitem__))
            assert canonical(tensors.decode_hand(t, enc)) == canonical(view.hand)
            assert list(obs.dict["scores"]) == [float(s) for s in view.scores]
            code = tensors.view_code(view, enc.card_id)
            assert list(info.dict["view"][: len(code)]) == [float(x) for x in code]
            assert not info.dict["view"][len(code) :].any()
            key = repr(view) + "|" + str(state.position.pending if state.current_player() == p else ())
            by_view.setdefault(key, (t.tobytes(), ti.tobytes()))
            assert by_view[key] == (t.tobytes(), ti.tobytes())
            assert by_tensor.setdefault(ti.tobytes(), key) == key
        cr = state.cardrules_state
        if not state.is_chance_node() and not state.is_terminal() and not state.position.pending:
            p = cr.to_act
            other = cos.CardRulesState(game, enc.enter(sample_state(name, cr, p, seed=k)))
            for observer in (obs, info):
                observer.set_from(state, p)
                t = observer.tensor.copy()
                observer.set_from(other, p)
                assert np.array_equal(observer.tensor, t)
    assert len(by_tensor) > 10
