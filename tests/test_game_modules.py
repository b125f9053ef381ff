"""The four game modules offer the same public functions under the same names, GAMES[name]
offers them too, and each module function is the registry's; the Haggis memo is a pure
cache."""

from __future__ import annotations

import importlib
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardrules
from cardrules import GAMES, aegis, eleusis, gunsore, haggis

MODULES = {"aegis": aegis, "gunsore": gunsore, "eleusis": eleusis, "haggis": haggis}
FUNCTIONS = ("new_game", "legal_actions", "apply", "view", "replay", "describe", "summary", "chance_cards")
TYPES = ("Rules", "State", "View", "GreedyAgent")


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_exposes_the_same_public_functions(name: str) -> None:
    module = MODULES[name]
    for attr in (*FUNCTIONS, *TYPES):
        assert attr in module.__all__, f"{name}.{attr} is not public"
        assert callable(getattr(module, attr)), f"{name}.{attr}"
    for attr in FUNCTIONS:
        assert callable(getattr(GAMES[name], attr)), f"GAMES[{name!r}].{attr}"
    assert GAMES[name].Rules is module.Rules and GAMES[name].State is module.State


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_functions_are_the_registrys(name: str) -> None:
    module, g = MODULES[name], GAMES[name]
    rng = random.Random(name)
    state = module.new_game(seed=1)
    assert state == g.new_game(seed=1)
    unseeded = module.new_game()
    assert module.chance_cards(unseeded) == g.chance_cards(unseeded) == cardrules.chance_cards(unseeded)
    assert module.chance_cards(unseeded)  # a new unseeded game starts at a chance node
    for _ in range(40):
        if state.is_over:
            break
        legal = module.legal_actions(state)
        assert legal == g.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        assert module.describe(state, action) == g.describe(state, action)
        assert module.chance_cards(state) == g.chance_cards(state) == ()
        p = state.to_act if isinstance(state.to_act, int) else 0
        assert module.view(state, p) == g.view(state, p)
        state = module.apply(state, action)
        assert state == g.apply(g.replay(None, state.history[:-1]), state.history[-1])
        assert module.summary(state) == g.summary(state)
    assert module.replay(None, state.history) == g.replay(None, state.history) == state


def _outcome(apply: object, state: object, action: object) -> object:
    try:
        return apply(state, action)  # type: ignore[operator]
    except Exception as e:  # the same error, type and words
        return (type(e), str(e))


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_apply_is_the_registrys_apply_on_every_path(name: str) -> None:
    # The module's apply is GameDef.apply_function (its fast path written out): on a
    # player's action, a Shuffle, an action at a chance node, a foreign object, an
    # action of the wrong player's kind and an action after the end it gives what
    # GameDef.apply gives, state or error.
    module, g = MODULES[name], GAMES[name]
    assert module.apply.__name__ == "apply" and module.apply.__module__ == module.__name__
    assert module.apply.__doc__ and "action" in module.apply.__doc__
    rng = random.Random(name)
    for seeded in (True, False):
        state = module.new_game(seed=3) if seeded else module.new_game()
        others = [a for s in (module.new_game(seed=9),) for a in module.legal_actions(s)]
        for _ in range(120):
            tries: list[object] = [object(), "nonsense", *others[:3]]
            if state.to_act is cardrules.CHANCE:
                order = list(module.chance_cards(state))
                rng.shuffle(order)
                tries += [cardrules.Shuffle(tuple(order)), cardrules.Shuffle(tuple(order[:-1]))]
                step = tries[-2]
            elif state.is_over:
                tries.append(cardrules.Shuffle(tuple(module.chance_cards(module.new_game()))))
                step = None
            else:
                legal = module.legal_actions(state)
                tries += legal[:5]
                step = legal[rng.randrange(len(legal))]
            for action in tries:
                assert _outcome(module.apply, state, action) == _outcome(g.apply, state, action)
            if step is None:
                break
            state = module.apply(state, step)


def test_haggis_summary_is_offered_by_the_registry() -> None:
    state = haggis.new_game(seed=2)
    assert GAMES["haggis"].summary(state) == haggis.summary(state)
    assert "hand(s) played" in GAMES["haggis"].summary(state)


# -- the Haggis memo: a pure cache ------------------------------------------------------


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3]))
def test_haggis_memo_is_a_pure_cache(seed: int, players: int) -> None:
    # The same game read with a warm memo (the states' own, filled as the game goes) and
    # with a cold one (a new empty memo for every state): the same legal actions, and
    # the memo takes no part in ==, hash or JSON.
    rng = random.Random(seed)
    state = haggis.new_game(players=players, seed=seed)
    for _ in range(60):
        if state.is_over:
            break
        warm = haggis.legal_actions(state)
        cold_state = attrs.evolve(state, memo=haggis.rules.Memo(players))
        assert cold_state == state and hash(cold_state) == hash(state)
        assert cardrules.to_json(cold_state) == cardrules.to_json(state)
        assert haggis.legal_actions(cold_state) == warm
        assert haggis.legal_actions(state) == warm  # asked again: the cache answers the same
        state = haggis.apply(state, warm[rng.randrange(len(warm))])
    again = cardrules.from_json(cardrules.to_json(state))
    assert again == state and haggis.legal_actions(again) == haggis.legal_actions(state)


@pytest.mark.parametrize("name", ["aegis", "gunsore", "eleusis", "haggis"])
def test_each_game_types_its_GAME_the_same_way(name):
    import importlib

    module = importlib.import_module(f"cardrules.{name}")
    assert module.__annotations__["GAME"] == "Final[GameDef[State, Rules]]"
    assert module.GAME.State is module.State and module.GAME.Rules is module.Rules


#: The template every built-in game follows (docs/add-a-game.rst, "The built-in games'
#: template"): the rooms of the package, and the room and name of each function its
#: GameDef is handed.
ROOMS = ("rules", "text", "agent", "sampler", "encoding", "layout")
HOOKS = {
    "_start": ("rules", "start_state"),
    "_step": ("rules", "step_state"),
    "_chance_cards": ("rules", "cards_to_shuffle"),
    "_deal": ("rules", "deal_cards"),
    "_view": ("rules", "player_view"),
    "_public_view": ("rules", "public_view"),
    "_legal": ("rules", "legal_actions"),
    "_render": ("text", "render_table"),
    "_sampler": ("sampler", "state_sampler"),
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_each_game_is_wired_by_the_one_template(name: str) -> None:
    module, g = MODULES[name], GAMES[name]
    rooms = {room: importlib.import_module(f"{module.__name__}.{room}") for room in ROOMS}
    for attribute, (room, function) in HOOKS.items():
        assert getattr(g, attribute) is getattr(rooms[room], function), f"{name}: {attribute} is not {room}.{function}"
    assert g.notation == rooms["text"].NOTATION_HELP
    assert callable(rooms["text"].read_action) and callable(rooms["layout"].table_layout)
    # the public functions that take the checked path go through GAME, and render is one
    state = module.new_game(seed=2)
    assert module.render(state, 0) == g.render(state, 0) == rooms["text"].render_table(state, 0)
