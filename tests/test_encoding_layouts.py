"""Each game's observation layout is versioned: a change of the blocks the adapters
write (their names, kinds, sizes, at any player count, with the default rules) fails
here until the game's encoding raises its ``layout_version`` and the new layout's
fingerprint is recorded below.  A model trained on one layout is then never fed another
under the same version; the adapters expose the version."""

from __future__ import annotations

import hashlib

import pytest

from cardrules import GAMES
from cardrules.encoding import encoding_for
from cardrules.protocol import GAME_NAMES

#: game -> (layout_version, the SHA-256 of its layouts at every player count), as recorded
#: when the version was last raised (a change detector: see the module docstring)
RECORDED = {
    "aegis": (0, "1aca1fc5d8afefa0"),
    "gunsore": (0, "8f80c8b1278f9094"),
    "eleusis": (0, "4c620296e8df1ad7"),
    "haggis": (0, "8d3104f8848c845a"),
}


def fingerprint(name: str) -> str:
    layouts = {n: encoding_for(name, players=n).layout() for n in GAMES[name].player_counts}
    return hashlib.sha256(repr(sorted(layouts.items())).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_layout_changes_only_with_its_version(name: str) -> None:
    version = encoding_for(name).layout_version
    recorded_version, recorded = RECORDED[name]
    now = fingerprint(name)
    assert (version, now) == (recorded_version, recorded), (
        f"{name}: the observation layout is {now} at layout_version {version}; recorded: "
        f"{recorded} at {recorded_version}.  A changed layout needs a new layout_version in "
        f"cardrules.{name}.encoding (and its documented layout), then the pair ({version}, {now!r}) here"
    )


def test_the_layout_names_every_block_with_its_size() -> None:
    enc = encoding_for("haggis", players=3)
    layout = enc.layout()
    assert [n for n, _, _ in layout[:-2]] == [b.name for b in enc.blocks()]
    assert layout[-2:] == (("pending", "numbers", enc.pending_size()), ("view", "numbers", enc.view_size()))


def test_the_adapters_expose_the_version() -> None:
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    from cardrules.integrations.pettingzoo import env

    e = env("gunsore").unwrapped
    assert e.metadata["observation_layout_version"] == encoding_for("gunsore").layout_version
    assert e.metadata["name"] == f"cardrules_gunsore_v{encoding_for('gunsore').layout_version}"


def test_openspiel_exposes_the_version() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    from cardrules.integrations import openspiel

    game = pyspiel.load_game(openspiel.register("aegis"))
    assert game.observation_layout_version == encoding_for("aegis").layout_version


def test_an_encoding_is_bound_to_the_game_it_is_handed_to() -> None:
    from cardrules import CardRulesError, GameDef
    from cardrules.aegis.encoding import AegisEncoding
    from cardrules.encoding import FlatEncoding

    assert AegisEncoding.game_def is GAMES["aegis"] and AegisEncoding.name == "aegis"
    assert encoding_for("aegis").game is GAMES["aegis"]

    class Loose(FlatEncoding):
        pass

    with pytest.raises(CardRulesError, match="Loose is the encoding of no game: hand it to GameDef"):
        Loose.parameters()

    class Named(FlatEncoding):
        name = "somethingelse"

    g = GAMES["aegis"]
    with pytest.raises(CardRulesError, match="Named is the encoding of 'somethingelse', not of 'other'"):
        GameDef("other", rules_type=g.Rules, state_type=g.State, action_types=(), player_counts=(2,),
                default_players=2, start=None, legal_actions=None, step=None, chance_cards=None, deal=None,
                view=None, encoding=Named)  # type: ignore[arg-type]
