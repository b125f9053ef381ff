"""``cardrules simulate`` and ``cardrules tournament`` through main(argv); Ctrl-C anywhere."""

import csv
import io
import json

import pytest

from cardrules import Factory, simulate, tournament
from cardrules.agents import AGENTS
from cardrules.cli import _running, main


def test_an_unknown_agent_is_an_error_listing_the_known_ones(capsys):
    assert main(["simulate", "haggis", "--agents", "foo", "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert "unknown agent 'foo'" in err and all(name in err for name in AGENTS)
    assert main(["tournament", "haggis", "--agents", "random,bar", "--games", "1"]) == 1
    assert "unknown agent 'bar'" in capsys.readouterr().err


def test_the_agents_list_decides_the_player_count(capsys):
    assert main(["simulate", "haggis", "--agents", "greedy,random,random", "--games", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "3 players" in out and "player 2 (random)" in out and "player 0 (greedy)" in out
    assert main(["simulate", "eleusis", "--agents", "random", "--players", "4", "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "4 players" in out and "player 3 (random)" in out and "player 4" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agents", "greedy,random", "--players", "3"], "2 agents (greedy,random) for 3 players"),
        (["--agents", "random,random,random", "--players", "2"], "3 agents"),
        (["--agents", "random,random,random,random"], "haggis is played by 2 or 3 players, not 4"),
        (["--players", "5"], "not 5"),
    ],
)
def test_a_mismatch_of_agents_and_players_is_a_clear_error(argv, message, capsys):
    assert main(["simulate", "haggis", "--games", "1", *argv]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_json_and_csv_hold_every_game(tmp_path, capsys):
    j, c = tmp_path / "out.json", tmp_path / "out.csv"
    argv = ["simulate", "aegis", "--agents", "greedy,random", "--games", "5", "--seed", "s"]
    assert main([*argv, "--json", str(j), "--csv", str(c)]) == 0
    expected = simulate("aegis", [Factory(AGENTS["greedy"], "aegis"), Factory(AGENTS["random"], "aegis")],
                        games=5, seed="s")  # fmt: skip
    data = json.loads(j.read_text())
    assert data["agents"] == ["greedy", "random"] and data["seed"] == "s"
    assert data["results"] == [
        {"game": r.game, "seed": r.seed, "length": r.length, "scores": list(r.scores), "winners": list(r.winners)}
        for r in expected.results
    ]
    rows = list(csv.DictReader(c.open()))
    assert [(row["seed"], int(row["length"]), int(row["score_0"]), int(row["score_1"]), row["winners"])
            for row in rows] == [
        (r.seed, r.length, r.scores[0], r.scores[1], " ".join(map(str, r.winners))) for r in expected.results
    ]
    out = capsys.readouterr().out
    assert f"win rate {expected.win_rates[0]:.3f}" in out


def test_two_workers_print_the_same_as_one(capsys):
    argv = ["simulate", "aegis", "--games", "6", "--seed", "w", "--agents", "greedy,random"]
    assert main(argv) == 0
    one = capsys.readouterr().out
    assert main([*argv, "--workers", "2", "--batch-size", "2"]) == 0
    assert capsys.readouterr().out == one


def test_a_bad_worker_count_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "aegis", "--workers", "0"])
    assert "not at least 1" in capsys.readouterr().err


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_shows_games_rate_and_time_left_on_a_terminal_only():
    stream = Terminal()
    progress = _running.Progress(stream, delay=0)
    progress(3, 10)
    progress(10, 10)
    text = stream.getvalue()
    assert "3/10 games" in text and "games/s" in text and "left" in text and "10/10 games" in text
    progress.close()
    assert stream.getvalue().endswith("\r") and progress.shown == 0
    quiet = Terminal()
    p = _running.Progress(quiet, quiet=True, delay=0)
    p(3, 10)
    assert quiet.getvalue() == ""


def test_progress_off_a_terminal_is_a_line_every_few_seconds(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(_running.time, "monotonic", lambda: clock[0])
    log = io.StringIO()  # not a terminal: a log file, a pipe, CI
    p = _running.Progress(log, every=10)
    for done, at in [(1, 103), (2, 109), (3, 111), (4, 115), (5, 121.5), (10, 130)]:
        clock[0] = at
        p(done, 10)
    lines = log.getvalue().splitlines()
    # one line after 10 s, the next 10 s later; none for the end (the results follow)
    assert lines == ["cardrules: 3/10 games, 0.3 games/s, 26 s left",
                     "cardrules: 5/10 games, 0.2 games/s, 22 s left"]
    assert "\r" not in log.getvalue()
    p.close()
    assert log.getvalue().count("\n") == 2
    late = Terminal()
    p = _running.Progress(late)  # runs under a second show nothing
    p(1, 10)
    assert late.getvalue() == ""


def test_simulate_is_silent_on_stderr_when_it_is_not_a_terminal(capsys):
    assert main(["simulate", "aegis", "--games", "2"]) == 0
    assert capsys.readouterr().err == ""


def test_tournament_prints_the_table_and_writes_json(tmp_path, capsys):
    j = tmp_path / "t.json"
    argv = ["tournament", "aegis", "--agents", "greedy,random", "--games", "3", "--seed", "t", "--json", str(j)]
    assert main(argv) == 0
    expected = tournament("aegis", {n: Factory(AGENTS[n], "aegis") for n in ("greedy", "random")}, games=3,
                          seed="t")  # fmt: skip
    out = capsys.readouterr().out
    assert out == str(expected) + "\n"
    data = json.loads(j.read_text())
    assert [r["name"] for r in data["rows"]] == [r.name for r in expected.rows]
    assert len(data["seatings"]) == 2 and all(len(s["results"]) == 3 for s in data["seatings"])


def test_tournament_refuses_repeated_and_too_few_agents(capsys):
    assert main(["tournament", "aegis", "--agents", "random,random", "--games", "1"]) == 1
    assert "repeated: random" in capsys.readouterr().err
    assert main(["tournament", "haggis", "--agents", "random,greedy", "--players", "3", "--games", "1"]) == 1
    assert "needs at least 3 agents" in capsys.readouterr().err


def interrupt(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize(
    ("target", "argv"),
    [
        ("cardrules.cli.simulate_cmd.simulate", ["simulate", "aegis"]),
        ("cardrules.cli.simulate_cmd.simulate", ["simulate", "aegis", "--workers", "2"]),
        ("cardrules.cli.tournament_cmd.tournament", ["tournament", "aegis", "--agents", "greedy,random"]),
        ("cardrules.cli.demo_cmd.play", ["demo", "--game", "aegis"]),
        ("cardrules.cli.build_parser", ["demo"]),
        # after the first batch, with the other games queued or being played on 2 workers
        ("cardrules.cli._running.Progress.__call__",
         ["simulate", "haggis", "--games", "400", "--workers", "2", "--batch-size", "1"]),
    ],
)
def test_ctrl_c_anywhere_ends_with_one_line_and_status_130(monkeypatch, capsys, target, argv):
    monkeypatch.setattr(target, interrupt)
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert err.strip() == "cardrules: interrupted" and "Traceback" not in err


@pytest.mark.parametrize("command", [
    ["simulate", "haggis", "--agents", "greedy,random"],
    ["tournament", "haggis", "--agents", "greedy,random"],
])
@pytest.mark.parametrize("option", ["--json", "--csv"])
def test_an_output_that_cannot_be_written_is_refused_before_any_game(command, option, tmp_path, monkeypatch,
                                                                      capsys):
    if command[0] == "tournament" and option == "--csv":
        pytest.skip("a tournament writes JSON only")

    def no_games(*args, **kwargs):
        raise AssertionError("games were played before the output was checked")

    monkeypatch.setattr(f"cardrules.cli.{command[0]}_cmd.{command[0]}", no_games)
    for where, why in [(tmp_path / "no" / "such" / "out", "no such folder"), (tmp_path, "it is a folder")]:
        assert main([*command, option, str(where)]) == 1
        assert f"cardrules: {option} {where}: cannot write there ({why})" in capsys.readouterr().err


def test_a_tournament_of_one_agent_says_it_needs_two(capsys):
    assert main(["tournament", "haggis", "--agents", "greedy"]) == 1
    err = capsys.readouterr().err
    assert "a tournament ranks agents against each other: give at least two" in err
    assert "fewer players" not in err
