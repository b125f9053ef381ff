"""The protocol's conformance suite, for any game: :func:`check_game`.

A game written outside the package (:doc:`/add-a-game`) is checked by the same suite
that checks the four built-in games: a few seeded games of random play at each player
count, and at every step of them

* **the protocol**: a player to act has legal actions, distinct and in a stable order,
  and every one of them applies; an action that is no action is refused with
  :class:`~cardrules.IllegalActionError` and the state is left as it was; a seeded game
  resolves its chance nodes by itself; random play ends;
* **views**: the view of each player names that player, reads back from JSON, and hides
  what it must: no seed (which would tell every hidden card), and (where the state keeps
  the hands as ``hands``) no other player's hand unless every player is shown it;
* **samplers** (for a game with one): a state drawn from a view shows exactly that view,
  and the player to act has the same legal actions in it;
* **JSON and replay**: a state reads back from :func:`~cardrules.to_json` equal to
  itself, seed included, and :meth:`~cardrules.GameDef.replay` of a finished game's
  history reaches the same state;
* **seeded determinism**: the same seed and the same actions give the same game;
* **the adapters** (where the game has an encoding, is registered, and the extras are
  installed): OpenSpiel's ``random_sim_test`` and PettingZoo's ``api_test``.

The first failure raises :class:`ConformanceError` saying, in words, which game, which
player count and seed, which step, and what went wrong.  In a test suite::

    from cardrules.testing import check_game, conformance_test

    def test_my_game_keeps_the_protocol():
        check_game(GAME)

    test_my_game_conforms = conformance_test(GAME)   # the same, as a test function
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import random
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from ._chance import CHANCE
from .codec import decode_value, encode_value
from .errors import CardRulesError, IllegalActionError
from .protocol import GAMES, GameDef, Shuffle

__all__ = ["ConformanceError", "ConformanceReport", "check_game", "conformance_test"]


class ConformanceError(CardRulesError, AssertionError):
    """A game breaks the protocol: the message says which game, where, and what.

    Also an :class:`AssertionError`, so a test runner reports it as a failed check."""


@attrs.frozen
class ConformanceReport:
    """What :func:`check_game` checked: the games played, the states looked at (legal
    actions applied, views, samples), and the checks it left out with the reason
    (``"openspiel: the extra is not installed"``)."""

    game: str
    games: int
    states: int
    skipped: tuple[str, ...]


class _NotAnAction:
    """What no game takes as an action."""

    def __repr__(self) -> str:
        return "<not an action>"


def check_game(
    game: GameDef[Any, Any] | str,
    *,
    games: int = 2,
    players: Iterable[int] | None = None,
    seed: int = 0,
    rules: Any = None,
    max_steps: int = 20_000,
    every: int = 1,
    max_actions: int = 64,
    adapters: bool = True,
) -> ConformanceReport:
    """Run the protocol's conformance suite on ``game`` (a :class:`~cardrules.GameDef`,
    or the name of a registered game); raise :class:`ConformanceError` at the first
    failure, saying what fails in words.

    ``games`` seeded games of random play (seeds ``seed``, ``seed + 1`` ...) are played
    at each of ``players`` (default: the game's smallest, default and largest player
    counts), with ``rules`` (default: ``Rules()``).  Every ``every``-th state is looked at
    closely (its views, a sample, its legal actions applied, at most ``max_actions`` of
    them, spread over the list); a game longer than ``max_steps`` actions fails.
    ``adapters=False`` leaves the OpenSpiel and PettingZoo checks out (they are skipped
    anyway where the extra is not installed, and said so in the report).

    The defaults take a second or two for a game like the built-in ones; raise ``games``
    for a deeper check.
    """
    g = GAMES[game] if isinstance(game, str) else game
    if not isinstance(g, GameDef):
        raise TypeError(f"check_game takes a GameDef or a game's name, not {type(g).__name__}")
    if games < 1 or every < 1 or max_actions < 1:
        raise CardRulesError("check_game: games, every and max_actions must be at least 1")
    counts = (
        sorted(set(players))
        if players is not None
        else sorted({min(g.player_counts), g.default_players, max(g.player_counts)})
    )
    states = 0
    for n in counts:
        if n not in g.player_counts:
            raise CardRulesError(f"check_game: {g.name} is not played by {n} players")
        for k in range(games):
            states += _check_one_game(g, rules, n, seed + k, max_steps, every, max_actions)
    skipped = _check_adapters(g, counts[0]) if adapters else ("adapters: left out (adapters=False)",)
    return ConformanceReport(g.name, games * len(counts), states, tuple(skipped))


def conformance_test(game: GameDef[Any, Any] | str, **options: Any) -> Callable[[], None]:
    """A test function that runs :func:`check_game` on ``game`` with ``options``; assign
    it to a ``test_...`` name in a test module and pytest collects it."""

    def test() -> None:
        check_game(game, **options)

    name = game if isinstance(game, str) else game.name
    test.__name__ = test.__qualname__ = f"test_{name}_conforms"
    test.__doc__ = f"{name} keeps the cardrules protocol (cardrules.testing.check_game)."
    return test


# -- one game ---------------------------------------------------------------------------


class _Where:
    """Where the suite is, for the error messages."""

    def __init__(self, g: GameDef[Any, Any], players: int, seed: int) -> None:
        self.g, self.players, self.seed, self.step = g, players, seed, 0

    def fail(self, what: str) -> ConformanceError:
        return ConformanceError(
            f"{self.g.name}, {self.players} players, seed {self.seed}, after {self.step} actions: {what}"
        )

    def call(self, what: str, f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``f(*args)``, a failure of it said as the failure of ``what``."""
        try:
            return f(*args, **kwargs)
        except ConformanceError:
            raise
        except Exception as exc:
            raise self.fail(f"{what} raised {type(exc).__name__}: {exc}") from exc


def _check_one_game(
    g: GameDef[Any, Any], rules: Any, players: int, seed: int, max_steps: int, every: int, max_actions: int
) -> int:
    from .serialize import from_json, to_json

    at = _Where(g, players, seed)
    state = at.call("new_game", g.new_game, rules, players=players, seed=seed)
    first = at.call("new_game (again, same seed)", g.new_game, rules, players=players, seed=seed)
    if first != state or first.history != state.history:
        raise at.fail("two new games of the same seed differ (seeded chance must be deterministic)")
    rng = random.Random(f"conformance:{g.name}:{players}:{seed}")
    looked = 0
    while not state.is_over:
        if state.to_act is CHANCE:
            raise at.fail("a seeded game stopped at a chance node (apply must resolve chance with the seed)")
        if type(state.to_act) is not int or not 0 <= state.to_act < state.players:
            raise at.fail(f"the player to act is {state.to_act!r}, not a player of the game")
        if state.winners != ():
            raise at.fail(f"a game not over has winners {state.winners!r}")
        legal = at.call("legal_actions", g.legal_actions, state)
        if type(legal) is not tuple or not legal:
            raise at.fail(f"player {state.to_act} is to act but legal_actions gives {legal!r}")
        if len(set(legal)) != len(legal):
            raise at.fail("legal_actions lists an action twice")
        if at.call("legal_actions (again)", g.legal_actions, state) != legal:
            raise at.fail("legal_actions gives another list the second time (it must be stable)")
        # the JSON of a whole state grows with its history: checked at a few steps
        before = to_json(state) if at.step % (8 * every) == 0 else None
        if at.step % every == 0:
            looked += 1
            _check_state(at, state, legal, max_actions)
        if before is not None and at.call("from_json(to_json(state))", from_json, before) != state:
            raise at.fail("the state read back from to_json is not equal to it")
        try:
            g.apply(state, _NotAnAction())
        except IllegalActionError:
            pass
        except Exception as exc:
            raise at.fail(
                f"applying something that is no action raised {type(exc).__name__}, "
                f"not IllegalActionError: {exc}"
            ) from exc
        else:
            raise at.fail("applying something that is no action was accepted (must raise IllegalActionError)")
        action = legal[rng.randrange(len(legal))]
        new = at.call(f"apply({action})", g.apply, state, action)
        if before is not None and to_json(state) != before:
            raise at.fail(f"apply({action}) changed the state it was given (states never change)")
        if new.history[: len(state.history)] != state.history or len(new.history) <= len(state.history):
            raise at.fail(f"apply({action}) did not extend the history")
        state = new
        at.step += 1
        if at.step > max_steps:
            raise at.fail(f"random play did not end in {max_steps} actions")
    if at.call("legal_actions at the end", g.legal_actions, state) != ():
        raise at.fail("a finished game still has legal actions")
    if state.to_act is not None:
        raise at.fail(f"a finished game has {state.to_act!r} to act, not None")
    if len(state.scores) != players:
        raise at.fail(f"{len(state.scores)} scores for {players} players")
    if not state.winners or not all(type(w) is int and 0 <= w < players for w in state.winners):
        raise at.fail(f"a finished game's winners are {state.winners!r}")
    for p in range(players):
        _check_view(at, state, p)
    replayed = at.call("replay", g.replay, state.rules, state.history, players=players)
    if replayed != state:
        raise at.fail("replay of the finished game's history reaches another state")
    again = g.new_game(state.rules, players=players, seed=seed)
    for action in state.history:
        if type(action) is not Shuffle:
            again = at.call(f"apply({action}) in the same seeded game again", g.apply, again, action)
    if again != state:
        raise at.fail(
            "the same seed and the same actions gave another game (seeded play must be deterministic)"
        )
    back = at.call("from_json(to_json(state)) at the end", from_json, to_json(state))
    if back != state or back.seed != seed:
        raise at.fail("the finished state read back from JSON is not equal to it, seed included")
    return looked


def _spread(items: Sequence[Any], most: int) -> Sequence[Any]:
    """At most ``most`` of ``items``, first and last included, evenly spread."""
    if len(items) <= most:
        return items
    if most == 1:
        return items[:1]
    return [items[round(i * (len(items) - 1) / (most - 1))] for i in range(most)]


def _check_state(at: _Where, state: Any, legal: tuple[Any, ...], max_actions: int) -> None:
    g = at.g
    for action in _spread(legal, max_actions):
        new = at.call(f"legal action {action} (applying it)", g.apply, state, action)
        if not isinstance(new, g.State):
            raise at.fail(f"apply({action}) gave {type(new).__name__}, not a state of {g.name}")
        at.call(f"describe({action})", g.describe, state, action)
    _check_hands_hidden(at, state, [_check_view(at, state, p) for p in range(state.players)])
    if g.can_sample:
        p = state.to_act
        view = g.view(state, p)
        for k in range(2):
            sample = at.call(
                f"sampling player {p}'s view",
                g.sample_state,
                view,
                seed=f"{at.seed}:{at.step}:{k}",
                rules=state.rules,
            )
            if g.view(sample, p) != view:
                raise at.fail(f"a state sampled from player {p}'s view shows player {p} another view")
            if at.call("legal_actions of a sampled state", g.legal_actions, sample) != legal:
                raise at.fail(
                    f"in a state sampled from player {p}'s view, player {p} has other legal actions"
                )


def _check_hands_hidden(at: _Where, state: Any, views: Sequence[Any]) -> None:
    """Where the state keeps the hands as ``hands``: no view shows every hand, and a
    view that shows another player's whole hand is one of a hand shown to all (New
    Eleusis: a player who declares no play shows the hand) or an observer's (its God)."""
    hands = getattr(state, "hands", None)
    if not (isinstance(hands, tuple) and len(hands) == state.players) or not attrs.has(type(views[0])):
        return
    fields = [{a.name: getattr(v, a.name) for a in attrs.fields(type(v))} for v in views]
    for p, named in enumerate(fields):
        if p in at.g.observer_seats:
            continue
        for field, value in named.items():
            if value == hands and sum(bool(h) for h in hands) > 1:
                raise at.fail(f"player {p}'s view shows every player's hand (its field {field!r})")
            for q, hand in enumerate(hands):
                if q == p or not isinstance(hand, tuple) or not hand or value != hand or hand == hands[p]:
                    continue
                public = all(
                    hand in f.values()
                    for r, f in enumerate(fields)
                    if r != q and r not in at.g.observer_seats
                )
                if not public:
                    raise at.fail(
                        f"player {p}'s view shows player {q}'s hand (its field {field!r}), "
                        "which other players' views do not"
                    )


def _check_view(at: _Where, state: Any, p: int) -> Any:
    g = at.g
    view = at.call(f"view(state, {p})", g.view, state, p)
    if getattr(view, "player", p) != p:
        raise at.fail(f"player {p}'s view names player {view.player!r}")
    if at.call(f"view(state, {p}) (again)", g.view, state, p) != view:
        raise at.fail(f"player {p}'s view differs the second time it is asked for")
    if isinstance(view, g.State):
        raise at.fail(f"player {p}'s view is the whole state (a view shows only what the player may see)")
    if getattr(view, "seed", None) is not None:
        raise at.fail(f"player {p}'s view holds the seed (it tells every hidden card)")
    if attrs.has(type(view)) and (at.step % 8 == 0 or state.is_over):  # JSON: at a few steps
        data = at.call(f"encoding player {p}'s view as JSON", encode_value, view)
        text = at.call(f"json.dumps of player {p}'s view", json.dumps, data)
        back = at.call(
            f"reading player {p}'s view back from JSON", decode_value, type(view), json.loads(text)
        )
        if back != view:
            raise at.fail(f"player {p}'s view read back from JSON is not equal to it")
    return view


# -- the adapters -----------------------------------------------------------------------


def _check_adapters(g: GameDef[Any, Any], players: int) -> list[str]:
    if g.encoding is None:
        return ["adapters: the game has no encoding"]
    if g.name not in GAMES or GAMES[g.name] is not g:
        return ["adapters: the game is not registered (the adapters find a game by its name)"]
    skipped = []
    if importlib.util.find_spec("pyspiel") is None:
        skipped.append("openspiel: the extra is not installed (pip install 'cardrules[openspiel]')")
    else:
        import pyspiel

        from .integrations import openspiel

        try:
            game = pyspiel.load_game(openspiel.register(g.name), {"players": players})
            pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
        except Exception as exc:
            raise ConformanceError(
                f"{g.name}: OpenSpiel's random_sim_test fails: {type(exc).__name__}: {exc}"
            ) from exc
    if importlib.util.find_spec("pettingzoo") is None:
        skipped.append("pettingzoo: the extra is not installed (pip install 'cardrules[pettingzoo]')")
    else:
        from pettingzoo.test import api_test

        from .integrations.pettingzoo import env

        try:
            with warnings.catch_warnings():  # its advice on observation spaces, not failures
                warnings.simplefilter("ignore", UserWarning)
                with contextlib.redirect_stdout(io.StringIO()):  # "Starting API test" ...
                    api_test(env(g.name, players=players), num_cycles=50)
        except Exception as exc:
            raise ConformanceError(
                f"{g.name}: PettingZoo's api_test fails: {type(exc).__name__}: {exc}"
            ) from exc
    return skipped
