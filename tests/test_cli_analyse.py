"""``cardrules analyse``: a position from a state file or written by hand, analysed from
the player to act's view; bad input is one clear line."""

from __future__ import annotations

import json

import pytest

from cardrules import GAMES
from cardrules.cli import main
from cardrules.search import SearchConfig, analyse
from cardrules.serialize import to_json


def _run(capsys, *argv):
    code = main(["analyse", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_saved_state_is_analysed_from_the_view_of_the_player_to_act(tmp_path, capsys):
    g = GAMES["aegis"]
    state = g.new_game(seed=5)
    state = g.apply(state, g.legal_actions(state)[0])
    path = tmp_path / "game.json"
    path.write_text(to_json(state), encoding="utf-8")
    code, out, _ = _run(capsys, "aegis", "--state", str(path), "--iterations", "80", "--seed", "2", "--json")
    assert code == 0
    data = json.loads(out)
    config = GAMES["aegis"].search.config.replace(iterations=80)
    expected = analyse(g, g.view(state, state.to_act), g.legal_actions(state), config=config, seed="2",
                       rules=state.rules)  # fmt: skip
    assert data == json.loads(json.dumps(expected.to_json()))
    assert data["player"] == state.to_act and sum(a["visits"] for a in data["actions"]) == 80
    # the table: one line per legal action, and the choice
    code, out, _ = _run(capsys, "aegis", "--state", str(path), "--iterations", "80", "--seed", "2")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("aegis: player 1 to act; 80 iterations of SearchConfig(")
    assert len(lines) == 3 + len(g.legal_actions(state)) and lines[-1] == f"the search plays: {expected.best}"


def test_a_position_written_by_hand_and_another_configuration(tmp_path, capsys):
    g = GAMES["haggis"]
    path = tmp_path / "position.json"
    start = g.new_game(players=2, seed=3)
    first = g.legal_actions(start)[0]
    path.write_text(json.dumps({"seed": 3, "players": 2, "actions": [str(first)]}), encoding="utf-8")
    config = '{"iterations": 30, "prior": "greedy", "widening": 1.0}'
    code, out, _ = _run(capsys, "haggis", "--state", str(path), "--config", config, "--seed", "1", "--json")
    assert code == 0
    data = json.loads(out)
    state = g.apply(start, first)
    assert data["player"] == state.to_act and data["config"] == {"iterations": 30, "widening": 1.0,
                                                                  "prior": "greedy"}  # fmt: skip
    assert {a["text"] for a in data["actions"]} == {str(a) for a in g.legal_actions(state)}
    assert analyse(g, g.view(state, state.to_act), config=SearchConfig.from_json(json.loads(config)),
                   seed="1").best == g.parse_action(state, data["actions"][0]["text"])  # fmt: skip


@pytest.mark.parametrize(
    "content, extra, message",
    [
        ("not json", [], "the position is not JSON"),
        ('{"seed": 1, "moves": []}', [], "a position is a library state"),
        ('{"seed": 1, "actions": [3]}', [], "a list of actions as text"),
        ('{"seed": 1, "actions": ["nonsense"]}', [], "nonsense"),
        ('{"seed": 1}', ["--config", '{"iteration": 3}'], "unknown search option 'iteration'"),
        ('{"seed": 1}', ["--config", '{"widening": 0}'], "widening must be"),
        ('{"seed": 1}', ["--config", "{"], "--config is not JSON"),
        ('{"seed": 1}', ["--config", '{"actions": "candidates"}'], "haggis has no candidate actions"),
    ],
)
def test_bad_input_is_one_clear_line(tmp_path, capsys, content, extra, message):
    path = tmp_path / "p.json"
    path.write_text(content, encoding="utf-8")
    code, _, err = _run(capsys, "haggis", "--state", str(path), "--iterations", "5", *extra)
    assert code == 1 and message in err and "Traceback" not in err and err.count("\n") == 1


def test_a_missing_file_and_a_state_of_another_game(tmp_path, capsys):
    code, _, err = _run(capsys, "haggis", "--state", str(tmp_path / "none.json"))
    assert code == 1 and "cannot read" in err
    path = tmp_path / "aegis.json"
    path.write_text(to_json(GAMES["aegis"].new_game(seed=1)), encoding="utf-8")
    code, _, err = _run(capsys, "haggis", "--state", str(path), "--iterations", "5")
    assert code == 1 and "a game of aegis, not haggis" in err
