"""The protocol's conformance suite (:func:`cardrules.testing.check_game`) on every
registered game, the built-in ones and knockout whist (a game written outside the
package), and on games broken on purpose, each failure said in words."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from cardrules import GAMES, CardRulesError, GameDef, parse_card
from cardrules.protocol import GAME_NAMES
from cardrules.testing import ConformanceError, ConformanceReport, check_game, conformance_test

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples" / "knockout"))
import knockout

EVERY_GAME = sorted({*GAME_NAMES, "knockout", *GAMES})


@pytest.mark.parametrize("name", EVERY_GAME)
def test_every_registered_game_conforms(name: str) -> None:
    report = check_game(GAMES[name])
    assert isinstance(report, ConformanceReport) and report.game == name
    assert report.games >= 2 and report.states > report.games


def test_a_name_works_and_the_adapters_are_checked_or_skipped_with_a_reason() -> None:
    report = check_game("knockout", players=[2], games=1)
    assert report.games == 1
    for extra, module in (("openspiel", "pyspiel"), ("pettingzoo", "pettingzoo")):
        try:
            __import__(module)
        except ImportError:
            assert any(s.startswith(f"{extra}: the extra is not installed") for s in report.skipped)
        else:
            assert not any(s.startswith(extra) for s in report.skipped)
    assert check_game("knockout", players=[2], games=1, adapters=False).skipped == (
        "adapters: left out (adapters=False)",
    )


test_knockout_conforms = conformance_test(knockout.GAME, adapters=False)


def test_conformance_test_is_a_named_test_function() -> None:
    assert test_knockout_conforms.__name__ == "test_knockout_conforms"


def _variant(**changes: Any) -> GameDef[Any, Any]:
    """Knockout whist with some of its functions changed (not registered)."""
    hooks: dict[str, Any] = dict(
        rules_type=knockout.Rules, state_type=knockout.State, action_types=(knockout.Play,),
        player_counts=(2, 3, 4), default_players=3, start=knockout.start_state,
        legal_actions=knockout.legal_actions, step=knockout.step_state, chance_cards=knockout.cards_to_shuffle,
        deal=knockout.deal_cards, view=knockout.player_view, sampler=knockout.state_sampler,
    )
    hooks.update(changes)
    return GameDef("knockout", **hooks)


def test_an_unregistered_copy_conforms_and_skips_the_adapters_saying_why() -> None:
    report = check_game(_variant(), players=[2], games=1)
    assert report.skipped == ("adapters: the game has no encoding",)


def test_a_legal_action_that_does_not_apply_is_named() -> None:
    def legal(state: Any) -> tuple[Any, ...]:
        held = {c for h in state.hands for c in h} | {state.trump}
        missing = next(c for c in knockout.DECK if c not in held)
        return (*knockout.legal_actions(state), knockout.Play(missing))

    with pytest.raises(ConformanceError, match=r"knockout, 2 players, seed 0, after 0 actions: legal action \w+ "
                       r"\(applying it\) raised IllegalActionError"):
        check_game(_variant(legal_actions=legal), players=[2], games=1)


def test_a_view_that_shows_another_hand_is_caught() -> None:
    def view(state: Any, player: int) -> Any:
        v = knockout.player_view(state, player)
        other = (player + 1) % state.players
        return attrs.evolve(v, hand=state.hands[other])

    with pytest.raises(ConformanceError, match="player 0's view shows player 1's hand"):
        check_game(_variant(view=view, sampler=None), players=[3], games=1)


def test_a_view_that_is_the_state_is_caught() -> None:
    with pytest.raises(ConformanceError, match="view is the whole state"):
        check_game(_variant(view=lambda s, p: s, sampler=None), players=[2], games=1)


def test_chance_that_is_not_seeded_is_caught() -> None:
    rng = random.Random()

    def chance(state: Any) -> tuple[Any, ...]:
        cards = list(knockout.cards_to_shuffle(state))
        rng.shuffle(cards)  # not canonical: the seeded deal differs from game to game
        return tuple(cards)

    with pytest.raises(ConformanceError, match="same seed differ"):
        check_game(_variant(chance_cards=chance), players=[2], games=1)


def test_a_sampler_that_ignores_the_view_is_caught() -> None:
    def sampler(v: Any, rules: Any) -> Any:
        draw = knockout.state_sampler(v, rules)

        def wrong(rng: random.Random) -> Any:
            s = draw(rng)
            hands = list(s.hands)
            hands[v.player] = tuple(c for c in knockout.DECK if c not in v.hand)[: len(v.hand)]
            return attrs.evolve(s, hands=tuple(hands))

        return wrong

    with pytest.raises(ConformanceError, match="sampling player 0's view raised SampleError"):
        check_game(_variant(sampler=sampler), players=[2], games=1)


def test_random_play_that_never_ends_is_caught() -> None:
    with pytest.raises(ConformanceError, match="did not end in 5 actions"):
        check_game("knockout", players=[2], games=1, max_steps=5, adapters=False)


def test_bad_arguments_are_refused_in_words() -> None:
    with pytest.raises(CardRulesError, match="not played by 9 players"):
        check_game("knockout", players=[9])
    with pytest.raises(CardRulesError, match="at least 1"):
        check_game("knockout", games=0)
    with pytest.raises(TypeError, match="GameDef"):
        check_game(3)  # type: ignore[arg-type]
    assert issubclass(ConformanceError, CardRulesError) and issubclass(ConformanceError, AssertionError)
    assert parse_card("AH") in knockout.DECK
