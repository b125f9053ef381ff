"""Games as plugins: the entry-point group ``cardrules.games``.  A distribution that
declares ``NAME = "module:GAME"`` is found by ``GAMES``, the ``cardrules`` command
(``cardrules games``, ``simulate``, ``play``) and the conformance suite with no
``--load``, imported only when first named; a clash with a built-in game keeps the
built-in and warns; ``CARDRULES_DISABLE_PLUGIN_AUTOLOAD`` turns plugins off.

The distributions here are fakes written into a temporary directory put on
``sys.path`` (what ``importlib.metadata`` reads); the last test uses the real
``examples/knockout`` distribution when it is installed (CI installs it)."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cardrules import GAMES, CardRulesError, protocol
from cardrules.cli import main
from cardrules.protocol import GamePluginWarning, game_source
from cardrules.testing import check_game

# A whole game in a few lines: two players are dealt one card each from four; each turns
# it over in turn; the higher card wins.
HIGHCARD = '''
from __future__ import annotations

import attrs

from cardrules import CHANCE, Card, GameDef, IllegalActionError, parse_cards

CARDS = parse_cards("2S 5H 9D KC")


@attrs.frozen
class Rules:
    pass


@attrs.frozen
class Turn:
    def __str__(self) -> str:
        return "turn"


@attrs.frozen
class State:
    rules: Rules
    players: int
    hands: tuple[tuple[Card, ...], ...]
    turned: tuple[Card, ...]
    history: tuple[object, ...]
    seed: object = attrs.field(default=None, eq=False)

    @property
    def to_act(self):
        if not self.hands:
            return CHANCE
        return None if self.is_over else len(self.turned)

    @property
    def is_over(self) -> bool:
        return len(self.turned) == self.players

    @property
    def scores(self):
        if not self.is_over:
            return (0,) * self.players
        best = max(c.rank for c in self.turned)
        return tuple(int(c.rank == best) for c in self.turned)

    @property
    def winners(self):
        return tuple(p for p, s in enumerate(self.scores) if s) if self.is_over else ()


@attrs.frozen
class View:
    player: int
    hand: tuple[Card, ...]
    turned: tuple[Card, ...]


def start(rules, players):
    return State(rules, players, (), (), ())


def chance_cards(state):
    return CARDS


def deal(state, shuffle):
    hands = tuple((c,) for c in shuffle.order[: state.players])
    return attrs.evolve(state, hands=hands, history=(*state.history, shuffle))


def legal_actions(state):
    return () if state.to_act is None or state.to_act is CHANCE else (Turn(),)


def step(state, action):
    if state.is_over:
        raise IllegalActionError("the game is over")
    if action != Turn():
        raise IllegalActionError(f"{action!r} is not an action of plughigh")
    card = state.hands[state.to_act][0]
    return attrs.evolve(state, turned=(*state.turned, card), history=(*state.history, action))


def view(state, player):
    return View(player, state.hands[player] if state.hands else (), state.turned)


GAME = GameDef(
    "plughigh", rules_type=Rules, state_type=State, action_types=(Turn,), player_counts=(2,),
    default_players=2, start=start, legal_actions=legal_actions, step=step,
    chance_cards=chance_cards, deal=deal, view=view, title="High card",
)
'''


def _distribution(root: Path, name: str, entry_points: dict[str, str]) -> None:
    """A fake installed distribution ``name`` 1.0 in ``root`` declaring ``entry_points``."""
    info = root / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = "".join(f"{k} = {v}\n" for k, v in entry_points.items())
    (info / "entry_points.txt").write_text(f"[cardrules.games]\n{lines}")


@pytest.fixture
def plugins(tmp_path, monkeypatch):
    """A directory of fake distributions on ``sys.path``, and a registry of games that
    forgets, after the test, what the test registered."""
    for name in protocol.GAME_NAMES:  # the built-in games registered before the registry is copied
        GAMES[name]
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("CARDRULES_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    monkeypatch.setattr(protocol, "_PLUGINS", None)
    monkeypatch.setattr(protocol, "_BY_NAME", dict(protocol._BY_NAME))
    monkeypatch.setattr(protocol, "_BY_STATE", dict(protocol._BY_STATE))
    monkeypatch.setattr(protocol, "_SOURCES", dict(protocol._SOURCES))
    monkeypatch.delitem(sys.modules, "plugin_highcard", raising=False)
    (tmp_path / "plugin_highcard.py").write_text(textwrap.dedent(HIGHCARD))
    yield tmp_path
    sys.modules.pop("plugin_highcard", None)


def test_an_installed_game_is_found_by_name_and_loaded_when_first_named(plugins) -> None:
    _distribution(plugins, "highcard-game", {"plughigh": "plugin_highcard:GAME"})
    assert "plughigh" in GAMES and "plughigh" in list(GAMES)
    assert "plugin_highcard" not in sys.modules  # listed, not imported
    assert game_source("plughigh") == "plugin: highcard-game 1.0 (plugin_highcard:GAME)"
    game = GAMES["plughigh"]
    assert "plugin_highcard" in sys.modules and game.title == "High card"
    assert game.module == "plugin_highcard"  # how a worker process finds it
    assert GAMES["plughigh"] is game and protocol.game_of(game.new_game(seed=1)) is game
    state = game.new_game(seed=3)
    while not state.is_over:
        state = game.apply(state, game.legal_actions(state)[0])
    assert sum(state.scores) == 1
    check_game("plughigh")


def test_the_command_line_takes_an_installed_game_without_load(plugins, capsys) -> None:
    _distribution(plugins, "highcard-game", {"plughigh": "plugin_highcard:GAME"})
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^plughigh +High card +2 players +plugin: highcard-game 1.0 \(plugin_highcard:GAME\)$", out, re.M)
    assert "aegis" in out and "built-in" in out
    assert main(["simulate", "plughigh", "--games", "6", "--quiet"]) == 0
    assert "win rate" in capsys.readouterr().out
    assert main(["play", "plughigh", "--auto", "--seed", "2"]) == 0
    assert "winner" in capsys.readouterr().out


def test_a_clash_with_a_built_in_game_keeps_the_built_in_and_warns(plugins) -> None:
    _distribution(plugins, "fake-aegis", {"aegis": "plugin_highcard:GAME"})
    with pytest.warns(GamePluginWarning, match="'aegis' of the distribution fake-aegis 1.0 .* is left out"):
        names = list(GAMES)
    assert names.count("aegis") == 1
    assert GAMES["aegis"].title == "Aegis" and game_source("aegis") == "built-in"
    assert "plugin_highcard" not in sys.modules


def test_two_distributions_of_one_name_keep_the_first_and_warn(plugins) -> None:
    _distribution(plugins, "first-dist", {"plughigh": "plugin_highcard:GAME"})
    _distribution(plugins, "second-dist", {"plughigh": "plugin_highcard:GAME"})
    with pytest.warns(GamePluginWarning, match="declares it too"):
        assert list(GAMES).count("plughigh") == 1


def test_the_environment_variable_turns_plugins_off(plugins, monkeypatch) -> None:
    _distribution(plugins, "highcard-game", {"plughigh": "plugin_highcard:GAME"})
    monkeypatch.setenv("CARDRULES_DISABLE_PLUGIN_AUTOLOAD", "1")
    assert "plughigh" not in GAMES and "plughigh" not in list(GAMES)
    with pytest.raises(CardRulesError, match="no game named 'plughigh'"):
        GAMES["plughigh"]
    monkeypatch.setenv("CARDRULES_DISABLE_PLUGIN_AUTOLOAD", "0")  # "0" is off
    assert "plughigh" in GAMES


def test_a_broken_plugin_is_an_error_in_words_and_the_rest_are_listed(plugins, capsys) -> None:
    _distribution(plugins, "broken-dist", {"nosuch": "no_such_plugin_module:GAME", "wrong": "plugin_highcard:Rules",
                                           "misnamed": "plugin_highcard:GAME"})
    with pytest.raises(CardRulesError, match=r"'nosuch' of the distribution broken-dist 1.0 .* cannot be "
                                             r"loaded: ModuleNotFoundError"):
        GAMES["nosuch"]
    with pytest.raises(CardRulesError, match="is a type, not a GameDef"):
        GAMES["wrong"]
    with pytest.raises(CardRulesError, match="is a game named 'plughigh', not 'misnamed'"):
        GAMES["misnamed"]
    assert main(["games"]) == 1
    out = capsys.readouterr().out
    assert "haggis" in out and "nosuch" in out and "cannot be loaded" in out


def test_the_knockout_distribution_when_installed_is_found_without_load() -> None:
    try:
        importlib.metadata.distribution("cardrules-knockout")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("the knockout distribution is not installed (pip install ./examples/knockout)")
    # a new process: nothing imported knockout, no --load
    code = ("from cardrules import GAMES; from cardrules.protocol import game_source; "
            "g = GAMES['knockout']; print(g.title, '|', game_source('knockout'))")
    env = {k: v for k, v in os.environ.items() if k != "CARDRULES_DISABLE_PLUGIN_AUTOLOAD"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env,
                         cwd=Path(__file__).resolve().parent.parent).stdout
    assert out.strip() == "Knockout whist | plugin: cardrules-knockout 1.0.0 (knockout:GAME)"


def test_the_web_lobby_lists_an_installed_game(plugins) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from cardrules.web.app import games_catalog

    _distribution(plugins, "highcard-game", {"plughigh": "plugin_highcard:GAME"})
    titles = {g["name"]: g["title"] for g in games_catalog()}
    assert titles["plughigh"] == "High card" and titles["aegis"] == "Aegis"
