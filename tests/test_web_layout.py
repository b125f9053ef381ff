"""The web table's own drawing of each game, server side (no browser): every game's
``table_layout`` on every seat's view through whole games, the kinds of the legal
actions, the last action and the end of a hand in the state message, and the rule
options' form and check (:mod:`cardrules.web.options`)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from cardrules.cards import parse_cards
from cardrules.protocol import GAMES
from cardrules.web.options import OptionError, check_options, options_schema
from cardrules.web.table import GameTable

SHORT = {
    "aegis": {"target": 4},
    "gunsore": {"hand_size": 3},
    "haggis": {"target": 40},
    "eleusis": {"hand_size": 5, "sudden_death": 12, "sudden_death_prophet": 8},
}
SEATS = {
    "aegis": ["human", "human"],
    "gunsore": ["human", "human"],
    "haggis": ["human", "human", "human"],
    "eleusis": ["random", "human", "human", "human"],
}


def _walk(value: Any, path: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        return [x for k, v in value.items() for x in _walk(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [x for i, v in enumerate(value) for x in _walk(v, f"{path}[{i}]")]
    return [(path, value)]


def _check_layout(layout: dict[str, Any], players: int) -> None:
    json.dumps(layout)  # plain JSON values
    assert len(layout["seats"]) == players
    for seat in layout["seats"]:
        for label, value in seat["facts"]:
            # a label in words, never a field's name
            assert isinstance(label, str) and "_" not in label and label.strip() == label
            assert isinstance(value, (int, str, bool))
        for row in seat["rows"]:
            assert "_" not in row["label"]
            parse_cards(" ".join(row["cards"]))  # cards in the library's notation
    for pile in layout.get("center", []):
        assert "_" not in pile["label"]
        if pile["cards"]:
            parse_cards(" ".join(pile["cards"]))
        if pile.get("by") is not None:
            assert 0 <= pile["by"] < players
    for label, _ in layout.get("facts", []):
        assert "_" not in label


def _check_hand_sizes(layout: dict[str, Any], state: Any) -> None:
    """Each seat's ``cards`` fact is the number of cards in its hand (from the state)."""
    for p, seat in enumerate(layout["seats"]):
        for label, value in seat["facts"]:
            if label == "cards":
                assert value == len(state.hands[p]), (p, value, state.hands[p])


def _check_spectator(table: GameTable, seat_msg: dict[str, Any]) -> None:
    """A spectator's message: the layout drawn from the public view, no actions, the
    last action as the seats see it, told in the public line."""
    msg = table.message(None)
    g = table.game
    assert msg["spectator"] is True and msg["legal"] == [] and msg["groups"] == []
    assert msg["layout"] == g.table_layout(g.public_view(table.state))
    _check_layout(msg["layout"], table.players)
    _check_hand_sizes(msg["layout"], table.state)
    if seat_msg["last"] is None:
        assert msg["last"] is None
    else:
        assert {k: msg["last"][k] for k in ("seat", "step")} == {k: seat_msg["last"][k] for k in ("seat", "step")}
        assert msg["last"]["text"] == table.public_lines[-1]


@pytest.mark.parametrize("game", ["aegis", "gunsore", "haggis", "eleusis"])
def test_every_seat_of_a_whole_game_gets_a_labelled_layout(game):
    table, _ = GameTable.create("t", game, SEATS[game], rules=SHORT[game], seed=f"layout-{game}")
    rng = random.Random(game)
    g = table.game
    players = table.players
    for _ in range(3000):
        for seat in range(players):
            msg = table.message(seat)
            _check_layout(msg["layout"], players)
            _check_hand_sizes(msg["layout"], table.state)
            if msg["legal"]:
                assert len(msg["groups"]) == len(msg["legal"])
                assert all(isinstance(x, str) and x for x in msg["groups"])
                assert len(set(msg["groups"])) <= 20
                # the hint says what to do, only to the seat to act
                assert msg["layout"].get("hint")
        if table.state.is_over:
            break
        actor = table.to_act
        action = rng.choice(g.legal_actions(table.state))
        table.commit(table.after(action), action)
        msg = table.message(0)
        assert msg["last"]["seat"] == actor and msg["last"]["step"] == msg["step"]
        _check_spectator(table, msg)
    else:
        raise AssertionError("the game did not end")
    for seat in range(players):
        result = table.message(seat)["layout"]["result"]
        assert result["winners"] == list(table.state.winners)
        assert result["title"]


def test_a_haggis_hand_that_ends_is_summed_up_as_the_scores_moved():
    table, _ = GameTable.create("t", "haggis", ["human", "human"], rules={"target": 500}, seed="hands")
    rng = random.Random(4)
    g = table.game
    while table.state.hand_number < 3:
        before = table.state.scores
        action = rng.choice(g.legal_actions(table.state))
        table.commit(table.after(action), action)
        if table.state.scores != before:
            ended = table.message(1)["ended"]
            assert ended["step"] == len(table.state.history)
            assert ended["title"] == f"Hand {table.state.hand_number - 1} is over"
            gained = [after - b for after, b in zip(table.state.scores, before, strict=True)]
            for p in range(2):
                line = next(x for x in ended["lines"] if x.startswith(f"player {p}: "))
                assert line.startswith(f"player {p}: {gained[p]:+d} this hand")
                assert line.endswith(f"score {table.state.scores[p]}")
            assert "went out first" in ended["lines"][0]
            # the end of a hand is public: a spectator is told the same
            assert table.message(None)["ended"] == ended


def test_an_aegis_season_that_ends_is_told_in_its_record_words():
    table, _ = GameTable.create("t", "aegis", ["human", "human"], rules={"target": 30}, seed="seasons")
    rng = random.Random(1)
    while len(table.state.seasons) < 2:
        before = table.state.scores
        action = rng.choice(table.game.legal_actions(table.state))
        table.commit(table.after(action), action)
        if table.state.scores != before:
            season = table.state.seasons[-1]
            ended = table.message(0)["ended"]
            assert ended["title"] == f"Season {len(table.state.seasons)} is over"
            a = season.attacker
            assert ended["lines"][0].startswith(
                f"player {a} attacked with {season.bids[a]} and took {season.tricks[a]}"
            )
            assert (
                ended["lines"][1]
                == f"scores: player 0 {table.state.scores[0]}, player 1 {table.state.scores[1]}"
            )


def test_haggis_actions_are_grouped_by_their_kind():
    table, _ = GameTable.create("t", "haggis", ["human", "human"], seed="groups")
    msg = table.message(table.to_act)
    kinds = dict(zip(msg["legal"], msg["groups"], strict=True))
    assert kinds["bet 15"] == "bet 15" and kinds["bet 30"] == "bet 30"
    assert {"singles", "pairs", "bombs"} <= set(kinds.values())
    for text, kind in kinds.items():
        if kind == "singles":
            assert len(text.split()) == 1 or text.endswith("s")


def test_eleusis_layout_holds_the_side_lines_under_their_places():
    table, _ = GameTable.create("t", "eleusis", SEATS["eleusis"], rules=SHORT["eleusis"], seed="sides")
    rng = random.Random(2)
    while not table.state.is_over:
        action = rng.choice(table.game.legal_actions(table.state))
        table.commit(table.after(action), action)
    st = table.state
    layout = table.message(1)["layout"]
    assert layout["main"] == [str(c) for c in st.main]
    expected = [[] for _ in st.main]
    for at, cards in st.sides:  # an independent walk of the state's side lines
        expected[at] += [str(c) for c in cards]
    assert layout["sides"] == expected
    assert any(expected), "a game with no wrong play: pick another seed"
    god = table.message(0)["layout"]
    assert ["score", st.scores[0]] in god["seats"][0]["facts"]


def test_a_game_without_a_layout_sends_none():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "knockout"))
    import knockout  # noqa: F401  (registers the outside game)

    table, _ = GameTable.create("t", "knockout", ["human", "random", "random"], seed="k")
    msg = table.message(0)
    assert msg["layout"] is None
    assert msg["groups"] == [] or all(msg["groups"])


# -- rule options ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["aegis", "gunsore", "haggis", "eleusis"])
def test_the_options_form_agrees_with_rules(name):
    g = GAMES[name]
    schema = options_schema(g)
    fields = {f.name for f in attrs.fields(g.Rules)}
    assert {o["name"] for o in schema} <= fields
    assert "secret" not in {o["name"] for o in schema}  # a compiled rule: not for a form
    assert "table" not in {o["name"] for o in schema}  # a trick table
    json.dumps(schema)
    for o in schema:
        assert o["help"] and "``" not in o["help"]
        default = getattr(g.Rules(), o["name"])
        assert o["default"] == (list(default) if isinstance(default, tuple) else default)
        # the limits are the validators' own: the bound is taken, one beyond it is not
        step = o.get("step", 1)
        for bound, beyond in ((o["min"], -step), (o["max"], step)):
            if bound is None:
                continue
            g.Rules(**{o["name"]: bound})
            with pytest.raises(OptionError):
                check_options(g, {o["name"]: bound + beyond})
        if o["type"] == "choice":
            for c in o["choices"]:
                g.Rules(**{o["name"]: c})


def test_rule_options_are_refused_in_words():
    haggis, eleusis = GAMES["haggis"], GAMES["eleusis"]
    cases = [
        (haggis, {"targt": 50}, "no rule option 'targt' for haggis (options: target, bomb_trick, "
                                "first_out_bonus, bets); did you mean target?"),
        (haggis, {"target": "fifty"}, "haggis: rule option target is a whole number, not 'fifty'"),
        (haggis, {"target": True}, "haggis: rule option target is a whole number, not true"),
        (haggis, {"bomb_trick": "never"}, "haggis: rule option bomb_trick is one of choose, tournament, not 'never'"),
        (haggis, {"bets": [15, "x"]}, "haggis: rule option bets is a list of whole numbers, not [15, 'x']"),
        (eleusis, {"hand_size": -5}, "eleusis: rule option hand_size is a whole number at least 1, not -5"),
        (eleusis, {"secret": "x"}, "no rule option 'secret' for eleusis"),
        (eleusis, ["hand_size"], "rule options are an object of names and values"),
    ]  # fmt: skip
    for game, options, words in cases:
        with pytest.raises(OptionError) as caught:
            check_options(game, options)
        assert str(caught.value).startswith(words)
        assert "__init__" not in str(caught.value) and "Error" not in str(caught.value)
    assert check_options(haggis, {"target": 50, "bets": []}) == {"target": 50, "bets": []}
    assert check_options(haggis, {}) is None


def test_a_table_whose_god_writes_the_rule_later_checks_its_options_now():
    with pytest.raises(OptionError, match="hand_size is a whole number at least 1, not -5"):
        GameTable.create("t", "eleusis", ["human", "human", "random", "random"], rules={"hand_size": -5})
    table, _ = GameTable.create(
        "t", "eleusis", ["human", "human", "random", "random"], rules={"hand_size": 3}
    )
    assert table.waits_for_rule
    table.set_rule(0, "card.color != prev.color")
    assert len(table.game.view(table.state, 1).hand) == 3


def test_the_games_catalog_carries_each_form():
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    from starlette.testclient import TestClient

    from cardrules.web import create_app

    with TestClient(create_app(":memory:")) as client:
        games = {g["name"]: g for g in client.get("/games").json()["games"]}
        assert [o["name"] for o in games["haggis"]["options"]] == [
            "target",
            "bomb_trick",
            "first_out_bonus",
            "bets",
        ]
        icon = client.get("/favicon.ico")
        assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
        bad = client.post("/tables", json={"game": "eleusis", "seats": ["human", "human", "random"],
                                           "rules": {"hand_size": -5}})  # fmt: skip
        assert bad.status_code == 400
        assert bad.json() == {"error": "eleusis: rule option hand_size is a whole number at least 1, not -5"}
