"""Observation tensors for every cardrules game: a player's view as a vector of numbers.

The OpenSpiel observer and the PettingZoo ``observation`` vector both use
:func:`view_tensor`.  The tensor is a concatenation of named blocks (:func:`layout`), each
block a fixed number of floats for given rules and player count:

* readable blocks, meant for learning: the player's own ``hand`` as card counts over the
  game's card alphabet (:attr:`Encoding.cards`), the other card piles of the view as
  counts, the scores and other numbers as they are, players and phases one-hot;
* ``pending``: the token ids (plus one; ``0`` for none) the player has chosen so far for
  the action it is entering (only the player to act sees them);
* ``view``: the *whole* view written as a prefix-free sequence of integers (each value
  tagged by its kind: nothing, flag, number, text, card, sequence, record), padded with
  zeros.  Two different views therefore always give different tensors, and equal views
  equal tensors: the tensor holds exactly what the view holds, including what the
  readable blocks summarize (the order of lines, past tricks and seasons).

The ``view`` block's length is an upper bound derived from the rules (the cards in play
bound every pile and line); a view that would not fit raises :class:`CardRulesError`.
Numbers are not normalized.  The blocks per game:

``aegis``
    ``player`` (2, one-hot), ``to_act`` (players, then chance, then nobody), ``phase``
    (draw, deal, exchange, bid, play, over), ``role`` (master, slave, attacker, defender), ``master``,
    ``attacker``, ``leader`` (one-hot players), ``key`` (one-hot card), ``hand``,
    ``trick``, ``played`` (the cards of this season's finished tricks), ``discarded``
    (card counts), ``hand_sizes``, ``bids`` (0: none), ``tricks``, ``scores`` (two
    numbers each), ``stock_size``, ``exchanges``, ``pending`` (5), ``view``.
``gunsore``
    ``player``, ``to_act``, ``season`` (development, war), ``war_cause`` (stuck, stock,
    declared), ``master``, ``hand``, ``table``, ``last_trick``, ``played``, ``scores``,
    ``pools``, ``stock_size``, ``opponent_hand_size``, ``pending`` (1), ``view``.
``haggis``
    ``player``, ``to_act``, ``leader``, ``hand``, ``trick`` (the cards of the trick's
    combinations), ``captured`` and ``wilds`` (card counts per player), ``hand_sizes``,
    ``scores``, ``bets``, ``going_out``, ``last_hand`` (one number per player),
    ``out`` (players out, multi-hot), ``passes``, ``haggis_size``, ``hand_number``,
    ``giving``, ``pending`` (17), ``view``.
``eleusis``
    ``player``, ``to_act``, ``phase`` (setup, starter, turn, judge, offer, fresh,
    reshuffle, over), ``prophet`` (one-hot), ``expelled``, ``former_prophets``
    (multi-hot), ``hand``, ``main`` (the main line's cards), ``sides`` (the cards of the
    side lines), ``shown`` (card counts), ``hand_sizes``, ``scores`` (one number per
    player), ``turn``, ``stock_size``, ``count``, ``sudden_death_count``,
    ``in_sudden_death``, ``pending`` (``max_string``), ``view`` (the order of both lines,
    the marker, the play being judged, the rule when the view holds it).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from typing import Any, get_args

import attrs
import numpy as np

from .. import aegis, eleusis, gunsore
from ..cards import Card
from ..errors import CardRulesError
from ..protocol import CHANCE, GAMES
from .encoding import Encoding, Position

__all__ = ["card_counts", "decode_hand", "layout", "tensor_size", "view_code", "view_tensor"]

# tags of the prefix-free code
_NONE, _BOOL, _INT, _STR, _CARD, _SEQ, _REC, _CHANCE, _OTHER = range(1, 10)


def view_code(value: Any, card_id: dict[Card, int]) -> list[int]:
    """``value`` (a view or any part of one) as a prefix-free sequence of integers."""
    out: list[int] = []
    _code(value, card_id, out)
    return out


def _code(value: Any, card_id: dict[Card, int], out: list[int]) -> None:
    if value is None:
        out.append(_NONE)
    elif value is CHANCE:
        out.append(_CHANCE)
    elif isinstance(value, bool):
        out += (_BOOL, int(value))
    elif isinstance(value, int):
        out += (_INT, value)
    elif isinstance(value, str):
        out += (_STR, len(value), *map(ord, value))
    elif isinstance(value, Card):
        out += (_CARD, card_id[value])
    elif isinstance(value, tuple):
        out += (_SEQ, len(value))
        for v in value:
            _code(v, card_id, out)
    elif attrs.has(type(value)):
        out += (_REC, zlib.crc32(type(value).__name__.encode()) & 0xFFFF)
        for field in attrs.fields(type(value)):
            _code(getattr(value, field.name), card_id, out)
    else:  # e.g. an Eleusis rule: its text
        text = str(value)
        out += (_OTHER, len(text), *map(ord, text))


def card_counts(cards: Sequence[Card], enc: Encoding) -> list[float]:
    """How many of each card of the game's alphabet ``cards`` holds."""
    out = [0.0] * len(enc.cards)
    for c in cards:
        out[enc.card_id[c]] += 1
    return out


def decode_hand(tensor: Any, enc: Encoding) -> tuple[Card, ...]:
    """The hand written in ``tensor`` (canonical order: the alphabet's)."""
    start, size = _offsets(enc)["hand"]
    counts = tensor[start : start + size]
    return tuple(c for c, k in zip(enc.cards, counts, strict=True) for _ in range(int(k)))


# -- the blocks ----------------------------------------------------------------------

Block = tuple[str, int, Callable[[Any, Encoding], list[float]]]


def _one_hot(index: int | None, size: int) -> list[float]:
    out = [0.0] * size
    if index is not None:
        out[index] = 1.0
    return out


def _player(field: str) -> Callable[[Encoding], Block]:
    def make(enc: Encoding) -> Block:
        return field, enc.players, lambda v, e: _one_hot(getattr(v, field), e.players)

    return make


def _players_set(field: str) -> Callable[[Encoding], Block]:
    def make(enc: Encoding) -> Block:
        def f(v: Any, e: Encoding) -> list[float]:
            out = [0.0] * e.players
            for p in getattr(v, field):
                out[p] = 1.0
            return out

        return field, enc.players, f

    return make


def _choice(field: str, choices: tuple[str, ...]) -> Callable[[Encoding], Block]:
    def make(enc: Encoding) -> Block:
        def f(v: Any, e: Encoding) -> list[float]:
            value = getattr(v, field)
            return _one_hot(None if value is None else choices.index(value), len(choices))

        return field, len(choices), f

    return make


def _cards(field: str, flatten: Callable[[Any], Sequence[Card]] | None = None) -> Callable[[Encoding], Block]:
    def make(enc: Encoding) -> Block:
        get = flatten or (lambda v: getattr(v, field))
        return field, len(enc.cards), lambda v, e: card_counts(get(v), e)

    return make


def _per_player_cards(field: str) -> Callable[[Encoding], Block]:
    def make(enc: Encoding) -> Block:
        def f(v: Any, e: Encoding) -> list[float]:
            return [x for pile in getattr(v, field) for x in card_counts(pile, e)]

        return field, enc.players * len(enc.cards), f

    return make


def _card(field: str) -> Callable[[Encoding], Block]:
    def make(enc: Encoding) -> Block:
        def f(v: Any, e: Encoding) -> list[float]:
            c = getattr(v, field)
            return _one_hot(None if c is None else e.card_id[c], len(e.cards))

        return field, len(enc.cards), f

    return make


def _numbers(field: str) -> Callable[[Encoding], Block]:
    def make(enc: Encoding) -> Block:
        return field, enc.players, lambda v, e: [float(x or 0) for x in getattr(v, field)]

    return make


def _number(field: str) -> Callable[[Encoding], Block]:
    def make(enc: Encoding) -> Block:
        return field, 1, lambda v, e: [float(getattr(v, field) or 0)]

    return make


def _to_act(enc: Encoding) -> Block:
    def f(v: Any, e: Encoding) -> list[float]:
        who = v.to_act
        index = e.players if who is CHANCE else e.players + 1 if who is None else who
        return _one_hot(index, e.players + 2)

    return "to_act", enc.players + 2, f


_GAME_BLOCKS: dict[str, list[Callable[[Encoding], Block]]] = {
    "aegis": [
        _player("player"), _to_act, _choice("phase", get_args(aegis.Phase)),
        _choice("role", ("master", "slave", "attacker", "defender")), _player("master"), _player("attacker"),
        _player("leader"), _card("key"), _cards("hand"), _cards("trick"),
        _cards("played", lambda v: [c for t in v.played for c in t.cards]), _cards("discarded"),
        _numbers("hand_sizes"), _numbers("bids"), _numbers("tricks"), _numbers("scores"),
        _number("stock_size"), _number("exchanges"),
    ],
    "gunsore": [
        _player("player"), _to_act, _choice("season", get_args(gunsore.Season)),
        _choice("war_cause", get_args(gunsore.WarCause)), _player("master"), _cards("hand"),
        _cards("table"), _cards("last_trick"), _cards("played"), _numbers("scores"),
        _numbers("pools"), _number("stock_size"), _number("opponent_hand_size"),
    ],
    "haggis": [
        _player("player"), _to_act, _player("leader"), _cards("hand"),
        _cards("trick", lambda v: [c for _, combo in v.trick for c in combo.cards]),
        _per_player_cards("captured"), _per_player_cards("wilds"), _numbers("hand_sizes"),
        _numbers("scores"), _numbers("bets"), _numbers("going_out"), _numbers("last_hand"),
        _players_set("out"), _number("passes"), _number("haggis_size"), _number("hand_number"),
        _number("giving"),
    ],
    "eleusis": [
        _player("player"), _to_act, _choice("phase", get_args(eleusis.Phase)), _player("prophet"),
        _players_set("expelled"), _players_set("former_prophets"), _cards("hand"), _cards("main"),
        _cards("sides", lambda v: [c for _, line in v.sides for c in line]), _cards("shown"),
        _numbers("hand_sizes"), _numbers("scores"), _number("turn"), _number("stock_size"),
        _number("count"), _number("sudden_death_count"), _number("in_sudden_death"),
    ],
}


def _deck_size(enc: Encoding) -> int:
    return len(GAMES[enc.name].chance_cards(GAMES[enc.name].new_game(enc.rules, players=enc.players)))


def _pending_size(enc: Encoding) -> int:
    r = enc.rules
    return {"aegis": 5, "gunsore": 1, "haggis": 17, "eleusis": max(2, getattr(r, "max_string", 1))}[enc.name]


def _view_size(enc: Encoding) -> int:
    """An upper bound on the length of a view's code for these rules and players."""
    d, n, r = _deck_size(enc), enc.players, enc.rules
    if enc.name == "aegis":  # seasons: 2 target - 1 at most, each about 40 numbers
        return 64 * (2 * int(r.target) - 1) + 12 * d + 256
    if enc.name == "gunsore":
        return 10 * d + 256
    if enc.name == "haggis":  # a combination holds a card at least; per combination ~30 numbers
        return 40 * d + 512 + 20 * n
    return 10 * d + 40 * n + 4 * len(str(r.secret)) + 256


def layout(enc: Encoding) -> list[tuple[str, int]]:
    """The tensor's blocks for ``enc``'s game, rules and players: (name, size) in order."""
    return [(name, size) for name, size, _ in _blocks(enc)]


def _blocks(enc: Encoding) -> list[Block]:
    cached: list[Block] | None = getattr(enc, "_tensor_blocks", None)
    if cached is None:
        cached = [make(enc) for make in _GAME_BLOCKS[enc.name]]
        cached.append(("pending", _pending_size(enc), lambda v, e: []))
        cached.append(("view", _view_size(enc), lambda v, e: []))
        enc._tensor_blocks = cached  # type: ignore[attr-defined]
    return cached


def _offsets(enc: Encoding) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    start = 0
    for name, size in layout(enc):
        out[name] = (start, size)
        start += size
    return out


def tensor_size(enc: Encoding) -> int:
    """The tensor's length."""
    return sum(size for _, size in layout(enc))


def view_tensor(enc: Encoding, position: Position, player: int, out: Any = None) -> Any:
    """``player``'s view at ``position`` as a float32 vector (written into ``out`` when
    given)."""
    view = GAMES[enc.name].view(position.state, player)
    if out is None:
        out = np.zeros(tensor_size(enc), np.float32)
    start = 0
    for name, size, fill in _blocks(enc):
        if name == "pending":
            values: list[float] = []
            if position.pending and position.state.to_act == player and position.state.to_act is not CHANCE:
                values = [float(t + 1) for t in position.pending]
        elif name == "view":
            values = [float(x) for x in view_code(view, enc.card_id)]
        else:
            values = fill(view, enc)
        if len(values) > size:
            why = f"the view does not fit the tensor's {name!r} block ({len(values)} > {size})"
            raise CardRulesError(f"{enc.name}: {why}")
        out[start : start + size] = 0.0
        out[start : start + len(values)] = values
        start += size
    return out
