"""Exact JSON for every state of every game.

The format is **history-based**, as OpenSpiel recommends: a state is stored as its game,
its rules, its player count, its seed and the list of actions that led to it.  Reading it
back replays the actions through the game's own ``apply``, so a file can never produce a
state that could not have happened: a tampered card, an illegal action or an unknown game
is refused with a :class:`~cardrules.StateFormatError` saying what is wrong.

Format, version 1 (a JSON object)::

    {"format": "cardrules/state", "version": 1, "game": "aegis", "players": 2,
     "seed": 7, "rules": {"target": 25, ...},
     "history": [{"action": "Shuffle", "order": ["5H", "KC", ...]},
                 {"action": "Bid", "n": 3}, ...]}

Values are encoded by their declared type: a card as its canonical string (``"10H"``), a
tuple as a list, an attrs class (a haggis ``Combo``) as an object of its fields, a trick
table or an Eleusis rule as its source text (types register their codec with
:func:`register_codec`; the codec of values is :mod:`cardrules.codec`, re-exported
here).  ``seed`` is an int, a string or null (any other seed is stored as
its ``str``, which seeds chance identically).  The text is always valid UTF-8: a string
that is not (a lone surrogate such as ``"\\ud800"``) is written with JSON's ``\\u``
escapes, and reads back as the same string.

>>> from cardrules import Card, parse_cards
>>> encode_value(parse_cards("10H QS"))
['10H', 'QS']
>>> decode_value(tuple[Card, ...], ['10H', 'QS']) == parse_cards("10H QS")
True
"""

from __future__ import annotations

import json
from typing import Any, Final

import attrs

from .codec import MAX_DEPTH, check_depth, decode_value, encode_value, register_codec
from .errors import CardRulesError, StateFormatError
from .protocol import CHANCE, GAMES, GameDef, game_of

__all__ = ["FORMAT", "VERSION", "decode_value", "encode_value", "from_json", "register_codec", "to_json"]

FORMAT: Final = "cardrules/state"
VERSION: Final = 1

def encode_action(action: Any) -> dict[str, Any]:
    """``action`` as JSON data: its class name and its fields (the web table's store
    keeps actions so)."""
    out: dict[str, Any] = {"action": type(action).__name__}
    for f in attrs.fields(type(action)):
        out[f.name] = encode_value(getattr(action, f.name))
    return out


def decode_action(game: GameDef[Any, Any], data: Any, where: str) -> Any:
    """The action of ``game`` that :func:`encode_action` wrote as ``data``; bad data
    raises :class:`~cardrules.StateFormatError` naming ``where``."""
    if not isinstance(data, dict) or not isinstance(data.get("action"), str):
        raise StateFormatError(f"{where}: expected an object with an 'action' name, got {data!r}")
    name = data["action"]
    for cls in game.action_types:
        if cls.__name__ == name:
            fields = {k: v for k, v in data.items() if k != "action"}
            return decode_value(cls, fields, where)
    known = ", ".join(c.__name__ for c in game.action_types)
    raise StateFormatError(f"{where}: {game.name} has no action {name!r} (known: {known})")


def _encode_seed(seed: object) -> int | str | None:
    if seed is None or (isinstance(seed, int) and not isinstance(seed, bool)):
        return seed
    return str(seed)


def to_json(state: Any, *, indent: int | None = None) -> str:
    """The state as JSON text (format above); :func:`from_json` reads it back exactly."""
    game = game_of(state)
    if not state.history and state != game.new_game(state.rules, players=state.players):
        # a state sampled from a view is a position without a past: nothing to store
        raise StateFormatError(
            f"{game.name}: this state has no history (a sample drawn from a view?); "
            "JSON stores a state as the actions that led to it"
        )
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "players": state.players,
        "seed": _encode_seed(state.seed),
        "rules": encode_value(state.rules),
        "history": [encode_action(a) for a in state.history],
    }
    text = json.dumps(doc, ensure_ascii=False, indent=indent)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # a lone surrogate (a seed "\ud800", a rule's text): written as its JSON escape,
        # which every JSON reader gives back as the same string, and a file can hold
        text = json.dumps(doc, ensure_ascii=True, indent=indent)
    return text


def from_json(text: str | bytes) -> Any:
    """The state stored by :func:`to_json`.

    Everything read is checked: the format and version, the game, the rules (through
    ``Rules`` itself), every card, and every action (by replaying it: an action that is
    not legal where it stands is refused).  Any fault raises
    :class:`~cardrules.StateFormatError` saying what and where.
    """
    try:
        doc = json.loads(text)
    except RecursionError:  # nested deeper than this caller's stack allows
        raise StateFormatError(
            f"not JSON text a state can be: nested too deeply (a state nests at most {MAX_DEPTH} levels)"
        ) from None
    except (ValueError, TypeError) as exc:
        raise StateFormatError(f"not JSON text: {exc}") from None
    check_depth(doc, "the state")
    try:
        return _read(doc)
    except RecursionError:  # a caller whose own stack is nearly full: refused all the same
        raise StateFormatError("the state is too deeply nested to read here") from None


def _read(doc: Any) -> Any:
    if not isinstance(doc, dict):
        raise StateFormatError("a cardrules state is a JSON object")
    if doc.get("format") != FORMAT:
        raise StateFormatError(
            f"not a cardrules state (format is {doc.get('format')!r}, expected {FORMAT!r})"
        )
    if doc.get("version") != VERSION:
        raise StateFormatError(
            f"unsupported version {doc.get('version')!r}: this cardrules reads version {VERSION}"
        )
    name = doc.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise StateFormatError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    game = GAMES[name]
    missing = [k for k in ("players", "seed", "rules", "history") if k not in doc]
    if missing:
        raise StateFormatError(f"the state has no {missing[0]!r}")
    players = doc["players"]
    if not isinstance(players, int) or isinstance(players, bool):
        raise StateFormatError(f"players must be an integer, not {players!r}")
    seed = doc["seed"]
    if not (seed is None or isinstance(seed, str) or (isinstance(seed, int) and not isinstance(seed, bool))):
        raise StateFormatError(f"seed must be an integer, a string or null, not {seed!r}")
    rules = decode_value(game.Rules, doc["rules"], "rules")
    history = doc["history"]
    if not isinstance(history, list):
        raise StateFormatError("history must be a list of actions")
    actions = [decode_action(game, a, f"history[{i}]") for i, a in enumerate(history)]
    try:
        state = game.replay(rules, actions, players=players)
    except CardRulesError as exc:
        raise StateFormatError(f"history does not replay: {exc}") from None
    if seed is not None:
        if state.to_act is CHANCE:
            raise StateFormatError("a seeded state never waits at a chance node")
        state = attrs.evolve(state, seed=seed)
    return state
