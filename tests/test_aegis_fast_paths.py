"""The speed-ups of ``cardrules.aegis`` (the record maker, the exchange listings) change
nothing a user can see."""

from __future__ import annotations

import random
from itertools import combinations

import attrs
import pytest

from cardrules import aegis
from cardrules.aegis import Exchange, State


def _states(games: int = 20) -> list[State]:
    rng = random.Random(11)
    out = []
    for g in range(games):
        state = aegis.new_game(seed=g)
        out.append(state)
        while not state.is_over:
            actions = aegis.legal_actions(state)
            state = aegis.apply(state, actions[rng.randrange(len(actions))])
            out.append(state)
    return out


def test_fast_state_constructor_equals_attrs_constructor() -> None:
    # The record maker fills the slots without the constructor: every field must be set,
    # and the result indistinguishable from State(...) built by attrs.
    for state in _states():
        again = State(*(getattr(state, a.name) for a in attrs.fields(State)))
        assert again == state
        assert hash(again) == hash(state)
        assert repr(again) == repr(state)
        assert again.seed == state.seed


def test_exchange_actions_are_every_subset_as_fresh_actions() -> None:
    # Independent of the interning: Exchange(()) then the subsets by size, in the
    # canonical order of the hand, each equal to an Exchange built the public way.
    for state in _states(5):
        if state.phase != "exchange":
            continue
        hand = state.hands[state.to_act]  # type: ignore[index]
        expected = [Exchange(())]
        for k in range(1, len(hand) + 1):
            expected += [Exchange(c) for c in combinations(hand, k)]
        actions = aegis.legal_actions(state)
        assert list(actions) == expected
        assert len(set(actions)) == len(actions) == 32
        assert all(type(a) is Exchange and type(a.cards) is tuple for a in actions)


def test_module_apply_is_the_protocol_apply() -> None:
    # aegis.apply is GAME.apply, the one path of every action: same states, same errors.
    wrong = [aegis.Bid(3), aegis.Play("AS"), Exchange(()), Exchange("AS"), "nonsense"]
    for state in _states(4):
        for action in (*aegis.legal_actions(state), *wrong):
            try:
                expected = aegis.GAME.apply(state, action)
            except Exception as exc:  # the module apply must raise the same
                with pytest.raises(type(exc)) as info:
                    aegis.apply(state, action)
                assert str(info.value) == str(exc)
            else:
                got = aegis.apply(state, action)
                assert got == expected and got.seed == expected.seed


def test_each_step_function_is_the_general_step() -> None:
    # GameDef calls the step function of the action's type (aegis.rules.STEPS) instead of
    # step_state: for every kind of action, in every phase, the same state or the same
    # error (an action of the wrong phase goes back to step_state, which says why).
    from cardrules.aegis import rules

    wrong = [aegis.Bid(3), aegis.Bid(9), aegis.Play("AS"), Exchange(()), Exchange("AS 2S")]
    checked = set()
    for state in _states(4):
        if not isinstance(state.to_act, int):
            continue
        for action in (*aegis.legal_actions(state), *wrong):
            step = rules.STEPS[type(action)]
            try:
                expected = rules.step_state(state, action)
            except Exception as exc:
                with pytest.raises(type(exc)) as info:
                    step(state, action)
                assert str(info.value) == str(exc)
            else:
                assert step(state, action) == expected
            checked.add((state.phase, type(action)))
    assert {phase for phase, _ in checked} == {"exchange", "bid", "play"}
    assert len(checked) == 9


def test_the_first_pure_python_exchange_listings_in_threads_see_every_triple(monkeypatch: pytest.MonkeyPatch) -> None:
    # The pure-Python listing makes its 22,100 three-card exchanges when first asked;
    # threads asking at the same time (the GIL switches threads during a long build)
    # must each get the whole listing, never a table still being filled.
    import threading

    monkeypatch.setattr(aegis.rules, "_ROWS3", {})
    hands = [state.hands[state.to_act] for state in _states(3) if state.phase == "exchange"]
    expected = [tuple(Exchange(s) for k in range(6) for s in combinations(h, k)) for h in hands]
    barrier = threading.Barrier(6)
    errors: list[BaseException] = []
    results: list[bool] = []

    def work() -> None:
        try:
            barrier.wait()
            results.append([aegis.rules._exchange_actions_py(h) for h in hands] == expected)
        except BaseException as exc:  # reported in the test's own thread
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    assert results == [True] * 6
