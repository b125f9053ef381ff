"""The integer encoding on its own, without a framework (so it also runs without the C
loops): in random games, every chance node lists the cards left with their odds, and
at every player node the legal ids are exactly the next tokens of the legal actions,
each to the action it completes."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from cardrules import CHANCE, GAMES, Shuffle
from cardrules.encoding import Encoding, Position, encoding_for

CASES = [("aegis", 2), ("gunsore", 2), ("haggis", 3), ("eleusis", 4)]


def expected_step(enc: Encoding, state: Any, actions: Any, prefix: tuple[int, ...]) -> dict[int, Any]:
    """The next tokens after ``prefix`` of the legal actions, from ``tokens`` alone."""
    out: dict[int, Any] = {}
    for a in actions:
        toks = enc.tokens(state, a)
        if toks[: len(prefix)] == prefix and len(toks) > len(prefix):
            out[toks[len(prefix)]] = a if len(toks) == len(prefix) + 1 else None
    return out


def check_chance(enc: Encoding, pos: Position) -> None:
    left = Counter(GAMES[enc.name].chance_cards(pos.state))
    left.subtract(pos.dealt)
    outcomes = enc.chance_outcomes(pos)
    total = sum(left.values())
    assert outcomes == [(enc.card_id[c], n / total) for c, n in sorted(left.items(), key=lambda x: enc.card_id[x[0]]) if n]
    assert pos.remaining == tuple(max(0, left[c]) for c in enc.cards)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_legal_ids_are_the_next_tokens_of_the_legal_actions(name: str, players: int) -> None:
    enc = encoding_for(name, players=players)
    gd = GAMES[name]
    rng = random.Random(11)
    checked = {"chance": 0, "deals": 0, "first": 0, "later": 0}
    for _game in range(3):
        pos = enc.initial()
        for n in range(2000):
            who = enc.to_act(pos)
            if who is None:
                break
            if who is CHANCE:
                if n % 3 == 0:
                    check_chance(enc, pos)
                    checked["chance"] += 1
                outcomes = enc.chance_outcomes(pos)
                token = rng.choices([t for t, _ in outcomes], [p for _, p in outcomes])[0]
                before, dealt = pos.state, pos.dealt
                pos = enc.apply(pos, token)
                if pos.state is not before:  # the last card: the Shuffle of the drawn order
                    assert pos.state == gd.apply(before, Shuffle((*dealt, enc.cards[token])))
                    checked["deals"] += 1
                continue
            state = pos.state
            actions = gd.legal_actions(state)
            legal = enc.legal_tokens(pos)
            if not pos.pending:
                step = expected_step(enc, state, actions, ())
                assert legal == sorted(step)
                assert {t: enc.completes(pos, t) for t in legal} == step
                checked["first"] += 1
            elif name != "eleusis" or pos.pending[0] >= 52:  # (strings are not listed)
                step = expected_step(enc, state, actions, pos.pending)
                assert legal == sorted(step)
                assert {t: enc.completes(pos, t) for t in legal} == step
                checked["later"] += 1
            token = rng.choice(legal)
            action = enc.completes(pos, token)
            pos = enc.apply(pos, token)
            if action is not None:
                assert pos.state == gd.apply(state, action)
    assert checked["chance"] and checked["deals"] and checked["first"] and (checked["later"] or name == "gunsore")  # one token each


def test_a_deal_made_by_hand_is_still_checked() -> None:
    """A completed deal goes through apply(), which checks its order like any Shuffle's:
    a position built with counts of its own (here one card short) is refused."""
    from cardrules import IllegalActionError

    enc = encoding_for("aegis")
    state = enc.initial().state
    remaining = [0] * len(enc.cards)
    remaining[0] = 1  # one card where the deal needs two
    pos = Position(state, dealt=(), remaining=tuple(remaining))
    with pytest.raises(IllegalActionError, match="Shuffle must order exactly"):
        enc.apply(pos, 0)


class _Index:
    """An integer type of another library (as NumPy's): usable where an int is."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __eq__(self, other: object) -> bool:
        return other == self.value


@pytest.mark.parametrize("name", ["aegis", "gunsore", "haggis", "eleusis"])
def test_ids_that_are_no_action_of_the_game_get_a_clear_error(name: str) -> None:
    """What a server may pass on from a client: an id out of range, a string, None, a
    float.  Each gets an IllegalActionError naming the range of ids (never an
    IndexError from inside the encoding), and the position is unchanged; an id of
    another integer type is kept as a plain int."""
    from cardrules import IllegalActionError

    enc = encoding_for(name)
    pos = enc.initial()
    rng = random.Random(1)
    while enc.to_act(pos) is CHANCE:
        pos = enc.apply(pos, rng.choice(enc.chance_outcomes(pos))[0])
    before = (pos.state, pos.pending)
    for bad in (enc.num_actions, 10**9, -1, "3", None):
        with pytest.raises(IllegalActionError, match=rf"not an action id of this game \(0 to {enc.num_actions - 1}\)"):
            enc.apply(pos, bad)  # type: ignore[arg-type]
        assert enc.action_string(pos, enc.num_actions + 5).startswith("action ")
    assert (pos.state, pos.pending) == before
    legal = enc.legal_tokens(pos)
    token = legal[0]
    after = enc.apply(pos, _Index(token))  # type: ignore[arg-type]
    assert after.pending == enc.apply(pos, token).pending and all(type(t) is int for t in after.pending)
    assert after.state == enc.apply(pos, token).state


@pytest.mark.parametrize("keep", ["every other", "no whole hand"])
def test_an_exchange_where_not_every_subset_is_legal_gets_the_general_tree(keep: str) -> None:
    """The first token of an Aegis exchange is worked out from the hand alone where
    every subset of it is legal (the rules as they are); where the legal actions are
    anything else (here the game's list, thinned), the legal ids at every token are
    still exactly the next tokens of those actions."""
    enc = encoding_for("aegis")
    full = enc._legal_of

    def thinned(state: Any) -> Any:
        actions = full(state)
        if state.phase != "exchange":
            return actions
        return actions[::2] if keep == "every other" else actions[:-1]

    enc._legal_of = thinned  # on this encoding object only
    rng = random.Random(5)
    checked = 0
    pos = enc.initial()
    while checked < 40:
        if enc.to_act(pos) is None:  # the game is over: another
            pos = enc.initial()
        if enc.to_act(pos) is CHANCE:
            pos = enc.apply(pos, rng.choice(enc.chance_outcomes(pos))[0])
            continue
        state = pos.state
        legal = enc.legal_tokens(pos)
        if state.phase == "exchange":
            step = expected_step(enc, state, thinned(state), pos.pending)
            assert legal == sorted(step)
            assert {t: enc.completes(pos, t) for t in legal} == step
            checked += 1
        pos = enc.apply(pos, rng.choice(legal))


def _plain_code(value: Any, card_id: dict[Any, int], out: list[int]) -> None:
    """The view's code by its definition: each value tagged by its kind, recursively."""
    import zlib

    import attrs

    from cardrules import Card

    if value is None:
        out.append(1)
    elif value is CHANCE:
        out.append(8)
    elif isinstance(value, bool):
        out += (2, int(value))
    elif isinstance(value, int):
        out += (3, value)
    elif isinstance(value, str):
        out += (4, len(value), *map(ord, value))
    elif isinstance(value, Card):
        out += (5, card_id[value])
    elif isinstance(value, tuple):
        out += (6, len(value))
        for v in value:
            _plain_code(v, card_id, out)
    elif attrs.has(type(value)):
        out += (7, zlib.crc32(type(value).__name__.encode()) & 0xFFFF)
        for f in attrs.fields(type(value)):
            _plain_code(getattr(value, f.name), card_id, out)
    else:
        text = str(value)
        out += (9, len(text), *map(ord, text))


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_view_code_is_its_definition_with_or_without_a_memo(name: str, players: int) -> None:
    """``view_code`` (piles of cards coded at once, the parts successive views share
    kept in a memo by identity) gives the code of its definition for every view of
    random games."""
    from cardrules.encoding import view_code

    enc = encoding_for(name, players=players)
    gd = GAMES[name]
    rng = random.Random(2)
    memo: dict[int, Any] = {}
    checked = 0
    for seed in range(2):
        state = gd.new_game(players=players, seed=seed)
        for _ in range(400):
            if state.is_over:
                break
            for p in range(players):
                view = gd.view(state, p)
                want: list[int] = []
                _plain_code(view, enc.card_id, want)
                assert view_code(view, enc.card_id, memo) == want == view_code(view, enc.card_id)
                checked += 1
            state = gd.apply(state, rng.choice(gd.legal_actions(state)))
    assert checked > 100


@pytest.mark.parametrize("name", ["aegis", "gunsore", "eleusis", "haggis"])
def test_the_framework_parameters_are_derived_from_the_rules(name):
    # each plain-valued Rules field is a parameter with its default; the defaults read
    # back as the default Rules and the game's default player count
    import attrs

    from cardrules import GAMES
    from cardrules.encoding import encoding_type

    cls, game = encoding_type(name), GAMES[name]
    params = cls.parameters()
    assert params["players"] == game.default_players
    for f in attrs.fields(game.Rules):
        if type(f.default) in (int, float, bool, str):
            assert params[f.name] == f.default, f.name
    rules, players, _ = cls.rules_from_params({})
    assert rules == game.Rules() and players == game.default_players
