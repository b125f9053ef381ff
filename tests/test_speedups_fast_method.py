"""The OpenSpiel state's methods in C (``FastMethod``) against their Python reference
(``FastMethodPy``) and against the plain Python methods they stand for."""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules import _hotloops

pyspiel = pytest.importorskip("pyspiel")
cos = pytest.importorskip("cardrules.integrations.openspiel")

speedups = _hotloops.c_speedups
needs_c = pytest.mark.skipif(speedups is None, reason="the C loops are switched off")

_METHODS = ("current_player", "is_terminal", "chance_outcomes", "_apply_action", "_legal_actions")
_EXTRA: dict[str, dict[str, Any]] = {
    "current_player": {},
    "is_terminal": {"terminal": int(pyspiel.PlayerId.TERMINAL)},
    "chance_outcomes": {"drawing": cos._Drawing},
    # (the C methods make positions with the record maker where ``enter`` is given; the
    # reference takes it and calls the encoding's own methods all the same)
    "_apply_action": {"drawing": cos._Drawing, "enter": getattr(cos, "_ENTER", None)},
    "_legal_actions": {"subset": cos._SubsetTree},
}
_KINDS = {
    "current_player": "current_player",
    "is_terminal": "is_terminal",
    "chance_outcomes": "chance_outcomes",
    "_apply_action": "apply_action",
    "_legal_actions": "legal_actions",
}


def _plain(name: str) -> Any:
    """The Python method a name of the state class stands for."""
    attr = cos.CardRulesState.__dict__[name]
    return getattr(attr, "fallback", attr)


class PlainState(cos.CardRulesState):
    """The state with the plain Python methods (what the class has without the C module)."""


class ReferenceState(cos.CardRulesState):
    """The state with the methods of FastMethodPy, the reference."""


for _name in _METHODS:
    setattr(PlainState, _name, _plain(_name))
    setattr(
        ReferenceState,
        _name,
        _hotloops.FastMethodPy(_KINDS[_name], _plain(_name), position=cos.Position, **_EXTRA[_name]),
    )


def test_the_state_class_uses_the_c_methods_with_the_c_module() -> None:
    for name in _METHODS:
        attr = cos.CardRulesState.__dict__[name]
        if speedups is None:
            assert callable(attr) and not isinstance(attr, _hotloops.FastMethodPy)
        else:
            assert type(attr) is speedups.FastMethod and attr.kind == _KINDS[name]


def _outcome(call: Any) -> tuple[str, Any]:
    try:
        return "ok", call()
    except Exception as exc:  # the same error, or none, on every track
        return type(exc).__name__, str(exc)


def _position_fields(pos: Any) -> tuple[Any, ...]:
    """What a position made by a step holds (its type, state, pending tokens and their
    types, player to act and id, nothing worked out yet), to compare the C methods'
    positions with the encoding's."""
    if isinstance(pos, cos._Drawing):
        return ("drawing", pos.state, pos._k)
    return (
        type(pos), pos.state, pos.pending, tuple(map(type, pos.pending)), pos._who, pos.player_id,
        pos._trie is None, pos._deal is None,
    )


CASES = [("aegis", 2), ("gunsore", 2), ("eleusis", 4)]
_GAMES = {case: pyspiel.load_game(cos.GAME_NAMES[case[0]], {"players": case[1]}) for case in CASES}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(CASES),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 19)), min_size=1, max_size=400),
)
def test_the_three_versions_play_the_same_games(case: tuple[str, int], steps: list[tuple[int, int]]) -> None:
    """The same choices through the C methods, the reference and the plain methods:
    the same answers and errors at every step, including illegal ids and states left
    behind a deal's last card."""
    game = _GAMES[case]
    classes = [cos.CardRulesState, ReferenceState, PlainState]
    states = [cls(game) for cls in classes]
    for pick, op in steps:
        seen = {repr([_outcome(s.is_terminal), _outcome(s.current_player), _outcome(s.is_chance_node)]) for s in states}
        assert len(seen) == 1, seen
        if states[0].is_terminal():
            break
        if states[0].is_chance_node():
            lists = [s.chance_outcomes() for s in states]
            assert lists[0] == lists[1] == lists[2]
            choices = [o for o, _ in lists[0]]
            if op == 0:  # a copy behind this point: the original draws on, the copy after it
                behind = [type(s)(game, copy.copy(s._pos)) for s in states]
                for s in states:
                    s.apply_action(choices[0])
                states = behind
        else:
            choices = states[0].legal_actions()
            assert all(s.legal_actions() == choices for s in states[1:])
            assert all(s.legal_actions(s.current_player()) == choices for s in states)
            assert all(s.legal_actions(99) == [] for s in states)
        if op == 1:  # an id that is not legal here: the same error everywhere, nothing changed
            bad = next(i for i in range(200) if i not in choices)
            errors = {repr(_outcome(lambda s=s, bad=bad: s.apply_action(bad))) for s in states}
            assert len(errors) == 1, errors
            assert "ok" not in errors.pop()
        token = choices[pick % len(choices)]
        for s in states:
            s.apply_action(token)
        # the positions themselves, made by the record maker or by the encoding's methods
        made = {repr(_position_fields(s._pos)) for s in states}
        assert len(made) == 1, made
        assert len({repr(s.cardrules_state) for s in states}) == 1
        assert len({repr(s.history()) for s in states}) == 1
    assert len({repr(s.returns()) for s in states}) == 1
    assert len({str(s) for s in states}) == 1


class _Pos:
    __slots__ = ("_deal", "_k", "_legal", "_outcomes", "_step", "_trie", "pending", "player_id", "state")


class _Drawn(_Pos):
    __slots__ = ()


def _fake(player: Any) -> Any:
    pos = _Pos()
    pos.player_id = player
    return SimpleNamespace(_pos=pos)


_IMPLEMENTATIONS = [pytest.param("C", marks=needs_c), "Python"]


def _make(impl: str) -> Any:
    return speedups.FastMethod if impl == "C" else _hotloops.FastMethodPy


@pytest.mark.parametrize("impl", _IMPLEMENTATIONS)
@pytest.mark.parametrize("position", [None, _Pos])
def test_fast_method_answers_from_the_position_or_calls_its_fallback(impl: str, position: Any) -> None:
    calls: list[tuple[Any, ...]] = []

    def fallback(*args: Any, **kwargs: Any) -> Any:
        calls.append((*args, kwargs))
        return "fallback"

    make = _make(impl)
    player = make("current_player", fallback, position=position)
    terminal = make("is_terminal", fallback, terminal=-4, position=position)
    assert player.kind == "current_player" and terminal.kind == "is_terminal"
    assert player(_fake(3)) == 3 and terminal(_fake(3)) is False and terminal(_fake(-4)) is True
    assert not calls
    state = _fake(None)
    assert player(state) == "fallback" and terminal(state) == "fallback"
    assert player(_fake(3), extra=1) == "fallback"  # a keyword: the fallback's business
    assert player(_fake(3), 1) == "fallback"
    assert len(calls) == 4

    class Holder:
        method = player

        def __init__(self) -> None:
            self._pos = _fake(7)._pos

    assert Holder.__dict__["method"] is player and Holder.method is player
    assert Holder().method() == 7
    with pytest.raises(AttributeError):
        player(SimpleNamespace())  # no position: the reading's error, as the fallback's
    with pytest.raises(AttributeError):
        player(SimpleNamespace(_pos=_Pos()))  # a slot not set: likewise
    assert player(SimpleNamespace(_pos=SimpleNamespace(player_id=5))) == 5  # not a position type: getattr


@pytest.mark.parametrize("impl", _IMPLEMENTATIONS)
@pytest.mark.parametrize("position", [None, _Pos])
def test_fast_method_draws_in_place_only_at_a_drawing_position(impl: str, position: Any) -> None:
    make = _make(impl)
    fallback_calls: list[Any] = []

    def fallback(*args: Any) -> Any:
        fallback_calls.append(args)
        return "fallback"

    outcomes = make("chance_outcomes", fallback, drawing=_Drawn, position=position)
    draw = make("apply_action", fallback, drawing=_Drawn, position=position)
    deal = _hotloops.Deal(("a", "b", "c"), [1, 2, 0], {})
    pos = _Drawn()
    pos._deal, pos._k, pos._outcomes = deal, 0, "kept"
    state = SimpleNamespace(_pos=pos)
    assert outcomes(state) == deal.outcomes(0)
    assert draw(state, 1) is None and pos._k == 1 and pos._outcomes is None
    assert deal.cards == ["b"]
    assert draw(state, 2) == "fallback"  # no such card left: the fallback says so
    plain = _Pos()
    plain._deal, plain._k = deal, 1
    assert outcomes(SimpleNamespace(_pos=plain)) == "fallback"  # not a drawing position
    assert len(fallback_calls) == 2


@pytest.mark.parametrize("impl", _IMPLEMENTATIONS)
@pytest.mark.parametrize(
    ("args", "kwargs", "error"),
    [
        (("no such kind", print), {}, ValueError),
        (("current_player", 3), {}, TypeError),
        (("chance_outcomes", print), {}, TypeError),
        (("apply_action", print), {"drawing": 3}, TypeError),
        (("current_player", print), {"position": 3}, TypeError),
        ((), {}, TypeError),
    ],
)
def test_fast_method_refuses_bad_input(impl: str, args: tuple[Any, ...], kwargs: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        _make(impl)(*args, **kwargs)


@needs_c
def test_apply_action_keeps_a_numpy_id_as_a_plain_int_and_frees_what_it_makes() -> None:
    """A pending token given as a NumPy integer is kept as a plain int (as
    ``Encoding._extend`` keeps it); and many games through the C ``_apply_action`` (the
    positions made with the record maker) leave no objects behind."""
    import gc
    import random
    import sys

    np = pytest.importorskip("numpy")
    game = _GAMES[("aegis", 2)]
    state = cos.CardRulesState(game)
    while state.is_chance_node() or state._pos.state.phase != "exchange":
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    first = state.legal_actions()[0]
    assert state._pos._step[first] is None  # a card of the exchange: a pending token
    state._apply_action(np.int64(first))
    assert state._pos.pending == (first,) and type(state._pos.pending[0]) is int

    def play(games: int) -> None:
        for seed in range(games):
            s = cos.CardRulesState(game)
            rng = random.Random(seed)
            while not s.is_terminal():
                s.apply_action(rng.choice([o for o, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()))

    play(20)  # (the encoding's caches filled)
    gc.collect()
    before = sys.getallocatedblocks()
    play(40)  # some 4,000 decisions: a position kept per step would be thousands of blocks
    gc.collect()
    assert sys.getallocatedblocks() - before < 1000
