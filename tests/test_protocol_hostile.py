"""Hostile and careless input on what every game shares (``GameDef``): a state or view of
another game, a tampered view, a seed that is no valid UTF-8, a text far longer than any
action's.  Each gives a right answer or a plain error (:class:`CardRulesError`, or a
:class:`TypeError` for an argument of the wrong type), never another exception.  Fuzzed
with Hypothesis (bounded: a few seconds under the ``dev`` profile)."""

from __future__ import annotations

import random
import time
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules import CHANCE, GAMES, CardRulesError, from_json, to_json
from cardrules.agents import RandomAgent
from cardrules.protocol import GAME_NAMES, MAX_ACTION_TEXT
from cardrules.sampling import SampleError


def _state(name: str, players: int, seed: int, steps: int) -> Any:
    g = GAMES[name]
    state = g.new_game(players=players, seed=seed)
    agent = RandomAgent(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = g.apply(state, agent(None, g.legal_actions(state)))
    return state


_STATES: dict[tuple[str, int], list[Any]] = {}


def _states(name: str, players: int) -> list[Any]:
    """A few states of random games, made once."""
    key = (name, players)
    if key not in _STATES:
        _STATES[key] = [_state(name, players, seed, steps) for seed in range(3) for steps in (0, 9, 40, 150)]
    return _STATES[key]


_CASES = [
    (g, n) for g in GAME_NAMES for n in sorted({min(GAMES[g].player_counts), max(GAMES[g].player_counts)})
]

# -- another game's state or view, or no state at all ------------------------------------

_JUNK = [5, None, "state", (), object()]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_render_and_parse_action_take_only_their_games_states(name: str) -> None:
    g = GAMES[name]
    others = [GAMES[o].new_game(seed=1) for o in GAME_NAMES if o != name]
    for bad in [*_JUNK, *others]:
        with pytest.raises(TypeError, match=f"must be a state of {name}"):
            g.render(bad, 1)
        with pytest.raises(TypeError, match=f"must be a state of {name}"):
            g.render(bad)
        with pytest.raises(TypeError, match=f"must be a state of {name}"):
            g.parse_action(bad, "x")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_sample_state_takes_only_its_games_views(name: str) -> None:
    g = GAMES[name]
    others = [GAMES[o].view(GAMES[o].new_game(seed=1), 1) for o in GAME_NAMES if o != name]
    for bad in [*_JUNK, *others, g.new_game(seed=1)]:
        with pytest.raises(TypeError, match=f"takes a view of {name}"):
            g.sample_state(bad)


# -- seeds ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_surrogate_seed_samples_and_stores_as_new_game_does(name: str) -> None:
    g = GAMES[name]
    state = g.new_game(seed="\ud800")
    p = 1
    a = g.sample_state(g.view(state, p), seed="\ud800")
    b = g.sample_state(g.view(state, p), seed="\ud800")
    assert a == b and g.view(a, p) == g.view(state, p)
    text = to_json(state)
    text.encode("utf-8")  # a file can hold it
    back = from_json(text)
    assert back == state and back.seed == "\ud800"
    # an ordinary seed samples as it always did
    assert g.sample_state(g.view(state, p), seed="x") == g.sampler(g.view(state, p))(
        random.Random("sample:x")
    )


# -- bounded cost --------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_huge_action_text_is_refused_at_once(name: str) -> None:
    from cardrules import IllegalActionError

    g = GAMES[name]
    state = _states(name, g.default_players)[2]
    start = time.perf_counter()
    with pytest.raises(IllegalActionError, match=f"at most {MAX_ACTION_TEXT} characters") as info:
        g.parse_action(state, "7H " * 1_500_000)
    assert time.perf_counter() - start < 0.5
    assert len(str(info.value)) < 300


# -- tampered views ------------------------------------------------------------------------


def _tamper(data: st.DataObject, view: Any, pool: list[Any]) -> Any:
    """``view`` with one or two fields replaced: by a value of another field or view, a
    number, an empty text or tuple."""
    fields = attrs.fields(type(view))
    for _ in range(data.draw(st.integers(1, 2))):
        f = data.draw(st.sampled_from(fields))
        value = data.draw(
            st.sampled_from(pool)
            | st.integers(-3, 60)
            | st.sampled_from(["", "play", None, (), (0,), CHANCE, True])
        )
        view = attrs.evolve(view, **{f.alias or f.name: value})
    return view


def _fields_of(views: list[Any]) -> list[Any]:
    out = []
    for v in views:
        out += [getattr(v, f.name) for f in attrs.fields(type(v))]
    return out


@pytest.mark.parametrize(("name", "players"), _CASES)
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_fuzz_sample_state_with_tampered_views(name: str, players: int, data: st.DataObject) -> None:
    """A tampered view gives a state whose view is that view and that plays on, or
    SampleError saying the view is impossible."""
    g = GAMES[name]
    states = _states(name, players)
    state = data.draw(st.sampled_from(states))
    p = data.draw(st.integers(0, players - 1))
    views = [g.view(s, q) for s in states[:6] for q in range(players)]
    try:
        view = _tamper(data, g.view(state, p), _fields_of(views))
    except (TypeError, ValueError, CardRulesError):
        return  # attrs refused the value itself (a validator or a converter)
    try:
        sample = g.sample_state(view, seed=data.draw(st.integers(0, 99)))
    except SampleError:
        return
    assert g.view(sample, view.player) == view
    if sample.to_act is CHANCE or sample.is_over:
        return
    legal = g.legal_actions(sample)
    assert legal
    action = data.draw(st.sampled_from(legal[:20]))
    g.apply(sample, action)


# -- parse_action and render ----------------------------------------------------------------

_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=30) | st.sampled_from(
    [
        "",
        " ",
        "pass",
        "bid 3",
        "play 7H",
        "10S 10S",
        "JH QH KH",
        "noplay",
        "prophet",
        "7h x",
        "exchange",
        "3-3",
    ]
)


@pytest.mark.parametrize(("name", "players"), _CASES)
@settings(max_examples=60)
@given(data=st.data())
def test_fuzz_parse_action(name: str, players: int, data: st.DataObject) -> None:
    """A text reads as a legal action (whose text reads back as it), or CardRulesError."""
    g = GAMES[name]
    state = data.draw(st.sampled_from(_states(name, players)))
    legal = g.legal_actions(state)
    text = data.draw(_TEXT | (st.sampled_from(legal).map(str) if legal else _TEXT))
    try:
        action = g.parse_action(state, text)
    except CardRulesError:
        return
    assert action in legal
    assert g.parse_action(state, str(action)) == action


@pytest.mark.parametrize(("name", "players"), _CASES)
@settings(max_examples=40)
@given(data=st.data())
def test_fuzz_render(name: str, players: int, data: st.DataObject) -> None:
    """Any state renders for everyone and for each player; a player that is none is a
    CardRulesError."""
    g = GAMES[name]
    state = data.draw(st.sampled_from(_states(name, players)))
    player = data.draw(st.none() | st.integers(-2, players + 2) | st.sampled_from([True, "0", 1.0]))
    try:
        text = g.render(state, player)
    except CardRulesError:
        assert not (player is None or (type(player) is int and 0 <= player < players))
        return
    assert isinstance(text, str) and text


# -- Haggis: malformed actions ---------------------------------------------------------------


def _giving_state() -> Any:
    from cardrules import haggis

    g = GAMES["haggis"]
    for seed in range(50):
        state = g.new_game(haggis.Rules(bomb_trick="choose"), players=3, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            if state.giving:
                return state
            legal = g.legal_actions(state)
            bombs = [a for a in legal if type(a) is haggis.Play and a.combo.kind == "bomb"]
            state = g.apply(state, rng.choice(bombs or legal))
    raise AssertionError("no bomb won a trick in 50 games")


def test_haggis_a_play_while_a_trick_is_given() -> None:
    from cardrules import IllegalActionError, haggis

    state = _giving_state()
    with pytest.raises(IllegalActionError, match="give it to an opponent"):
        GAMES["haggis"].apply(state, haggis.Play(5))  # type: ignore[arg-type]


_JUNK_VALUES = st.sampled_from(
    [None, 5, -1, 2**70, "7H", "", (), (None,), 1.5, True, [1], "set", "bomb", 3, 30]
)


@settings(max_examples=80)
@given(data=st.data())
def test_fuzz_haggis_malformed_actions(data: st.DataObject) -> None:
    """A hand-made action with fields of any type is applied when legal, else
    IllegalActionError; its text can be written."""
    from cardrules import IllegalActionError, haggis
    from cardrules.haggis.combos import Combo

    g = GAMES["haggis"]
    states = [*_states("haggis", 3)[1:], _giving_state()]
    state = data.draw(st.sampled_from(states))
    legal = g.legal_actions(state)
    plays = [a for a in legal if type(a) is haggis.Play]
    kind = data.draw(st.integers(0, 5))
    if kind == 0:
        action: Any = haggis.Play(data.draw(_JUNK_VALUES))
    elif kind == 1:
        action = haggis.Play(Combo(*(data.draw(_JUNK_VALUES) for _ in range(5))))
    elif kind == 2 and plays:
        combo = data.draw(st.sampled_from(plays)).combo
        field = data.draw(st.sampled_from(attrs.fields(Combo)))
        action = haggis.Play(attrs.evolve(combo, **{field.name: data.draw(_JUNK_VALUES)}))
    elif kind == 3:
        action = haggis.Bet(data.draw(_JUNK_VALUES))
    elif kind == 4:
        action = haggis.GiveTrick(data.draw(_JUNK_VALUES))
    else:
        action = data.draw(_JUNK_VALUES)
    assert isinstance(str(action), str)
    try:
        g.apply(state, action)
    except IllegalActionError:
        # ``True == 1``, so a junk bool can compare equal to a legal int field;
        # the library refuses it all the same, so compare field types too.
        assert repr(action) not in {repr(a) for a in legal}


class _EqualToAnything:
    """Claims to equal every object (and is hashable): in an action's field it must not
    pass for the card, number or combination it claims to be."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


def _claimants(value: Any) -> list[Any]:
    """Stand-ins for a field's value that claim to equal anything: the value itself, each
    of a tuple's items (the first, all), each field of a record (a Haggis ``Combo``)."""
    out: list[Any] = [_EqualToAnything()]
    if isinstance(value, tuple) and value:
        out += [(_EqualToAnything(), *value[1:]), tuple(_EqualToAnything() for _ in value)]
    if attrs.has(type(value)):
        for f in attrs.fields(type(value)):
            inner = getattr(value, f.name)
            for claimant in _claimants(inner)[:2]:
                try:
                    out.append(attrs.evolve(value, **{f.name: claimant}))
                except Exception:  # a converter that refuses it: nothing to apply
                    continue
    return out


@pytest.mark.parametrize(("name", "players"), _CASES)
def test_a_value_claiming_to_equal_anything_never_passes_for_a_legal_one(name: str, players: int) -> None:
    """Cards are interned and compared by identity: an object whose ``==`` says yes to
    everything, in any field of a legal action, is refused with a plain error (it never
    takes a card's place in a hand, a pile or a trick)."""
    g = GAMES[name]
    tried = 0
    for state in _states(name, players):
        legal = g.legal_actions(state)
        for action in (*legal[:3], *legal[-2:]):
            if not attrs.has(type(action)):
                continue
            for field in attrs.fields(type(action)):
                for claimant in _claimants(getattr(action, field.name)):
                    try:
                        bad = attrs.evolve(action, **{field.name: claimant})
                    except Exception:  # the action's converter refuses it already
                        continue
                    tried += 1
                    with pytest.raises(CardRulesError):
                        g.apply(state, bad)
    assert tried


@pytest.mark.parametrize("name", GAME_NAMES)
def test_view_takes_only_its_games_states(name: str) -> None:
    g = GAMES[name]
    for bad in [*_JUNK, *(GAMES[o].new_game(seed=1) for o in GAME_NAMES if o != name)]:
        with pytest.raises(TypeError, match=f"must be a state of {name}"):
            g.view(bad, 0)


def test_a_sampler_that_deals_another_games_states_is_named() -> None:
    from cardrules import GameDef

    g = GAMES["gunsore"]
    other = GAMES["aegis"]
    wrong = GameDef(
        "wrong_sampler",
        rules_type=g.Rules,
        state_type=type("WrongState", (g.State,), {}),
        action_types=g.action_types[1:],
        player_counts=g.player_counts,
        default_players=g.default_players,
        start=g._start,
        legal_actions=g._legal,
        step=g._step,
        chance_cards=g._chance_cards,
        deal=g._deal,
        view=g._view,
        sampler=lambda v, r: lambda rng: other.new_game(seed=1),
        view_type=g.view_type,
    )
    with pytest.raises(CardRulesError, match="its sampler dealt an aegis state"):
        wrong.sample_state(g.view(g.new_game(seed=1), 0))


# Characters that str.isdigit() accepts but int() refuses (superscripts, circled
# digits): a number in an action's text must be checked with what int() reads.
_NOT_DECIMAL = ("¹", "²³", "①", "⁵")


@pytest.mark.parametrize(("name", "players"), _CASES)
def test_digits_that_are_not_decimal_are_refused_as_action_text(name: str, players: int) -> None:
    g = GAMES[name]
    for state in _states(name, players):
        for digits in _NOT_DECIMAL:
            for text in (digits, f"bid {digits}", f"bet {digits}", f"give {digits}", f"play {digits}"):
                with pytest.raises(CardRulesError):
                    g.parse_action(state, text)
