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
Numbers are not normalized.  Each game's blocks, and the version of their layout, are
documented beside its encoding (:class:`cardrules.aegis.encoding.AegisEncoding` ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import missing_extra

try:
    import numpy as np
except ModuleNotFoundError as _exc:
    raise missing_extra(_exc, "openspiel", "pettingzoo") from None

from ..cards import Card
from ..encoding import (
    CARD_COUNTS,
    MULTI_HOT,
    NUMBER,
    NUMBERS,
    ONE_HOT,
    PLAYER_CARD_COUNTS,
    Encoding,
    Position,
    view_code,
)
from ..errors import CardRulesError
from ..protocol import CHANCE

__all__ = ["Tensor", "card_counts", "decode_hand", "layout", "tensor_size", "view_code", "view_tensor"]


def card_counts(cards: Sequence[Card], enc: Encoding) -> list[float]:
    """How many of each card of the game's alphabet ``cards`` holds."""
    counts = np.bincount(np.fromiter(map(enc.card_id.__getitem__, cards), np.intp), minlength=len(enc.cards))
    return [float(x) for x in counts]


class Tensor:
    """How one encoding's tensor is filled: its blocks' places, worked out once, and
    :meth:`fill`, which writes a view into a float32 array in a few vector operations
    (every one, every multi-hot index and every card of a pile gathered into one index
    array, added at once; the numbers written at once; the view's code as one slice)."""

    def __init__(self, enc: Encoding, recall: bool = True) -> None:
        self.enc = enc
        #: whether the tensor ends with the whole view's code (perfect recall: what the
        #: player saw so far, OpenSpiel's information state) or only holds the readable
        #: blocks and the pending tokens (what the player sees now: an observation)
        self.recall = recall
        blocks = enc.blocks()
        #: the blocks, (name, size) in order
        self.layout: list[tuple[str, int]] = [(b.name, b.size) for b in blocks]
        self.layout.append(("pending", enc.pending_size()))
        if recall:
            self.layout.append(("view", enc.view_size()))
        #: each block's (start, size)
        self.offsets: dict[str, tuple[int, int]] = {}
        start = 0
        for name, size in self.layout:
            self.offsets[name] = (start, size)
            start += size
        self.size = start
        self._one_hot: list[tuple[int, Any]] = []
        self._multi_hot: list[tuple[int, Any]] = []
        # card piles: the getter and, per pile, each card to its index in the tensor
        self._piles: list[tuple[Any, dict[Card, int]]] = []
        self._player_piles: list[tuple[Any, list[dict[Card, int]]]] = []
        self._numbers: list[tuple[str, int, Any]] = []
        number_places: list[int] = []
        width = len(enc.cards)
        for b in blocks:
            at = self.offsets[b.name][0]
            if b.kind == ONE_HOT:
                self._one_hot.append((at, b.get))
            elif b.kind == MULTI_HOT:
                self._multi_hot.append((at, b.get))
            elif b.kind == CARD_COUNTS:
                self._piles.append((b.get, {c: at + i for c, i in enc.card_id.items()}))
            elif b.kind == PLAYER_CARD_COUNTS:
                ids = enc.card_id.items()
                places = [{c: at + p * width + i for c, i in ids} for p in range(b.size // width)]
                self._player_piles.append((b.get, places))
            elif b.kind in (NUMBERS, NUMBER):
                self._numbers.append((b.name, b.size if b.kind == NUMBERS else 0, b.get))
                number_places.extend(range(at, at + b.size))
            else:
                raise CardRulesError(f"{enc.name}: block {b.name!r} has an unknown kind {b.kind!r}")
        self._number_places = np.array(number_places, np.intp)
        self._saved: dict[tuple[int, int], tuple[Any, Any]] = {}
        self._memo: dict[int, tuple[Any, list[int]]] = {}  # view_code's
        self._pending = self.offsets["pending"]
        self._view = self.offsets.get("view")

    def write(self, out: Any, state: Any, player: int, pending: tuple[int, ...] = ()) -> None:
        """Write ``player``'s view of ``state`` (and the ``pending`` tokens) into ``out``.
        The tensors of the last few states and players are kept (states never change):
        asked for again (OpenSpiel asks twice a decision, PettingZoo once a token of
        the same action), one is copied back instead of being worked out."""
        key = (id(state), player)
        saved = self._saved.get(key)
        if saved is not None and saved[0] is state:
            out[:] = saved[1]
        else:
            self.fill(out, self.enc.game.view(state, player))
            if len(self._saved) >= 8:
                del self._saved[next(iter(self._saved))]
            self._saved[key] = (state, out.copy())  # (holding the state: its id stays its own)
        if pending:
            self.fill_pending(out, pending)

    def new(self) -> Any:
        """A tensor of zeros."""
        return np.zeros(self.size, np.float32)

    def fill(self, out: Any, view: Any, pending: tuple[int, ...] = ()) -> None:
        """Write ``view`` (and the ``pending`` tokens) into ``out`` (float32, in place)."""
        ones: list[int] = []
        for at, get in self._one_hot:
            i = get(view)
            if i is not None:
                ones.append(at + i)
        for at, get in self._multi_hot:
            ones.extend([at + i for i in get(view)])
        for get, place in self._piles:
            ones.extend(map(place.__getitem__, get(view)))
        for get, places in self._player_piles:
            for place, pile in zip(places, get(view), strict=False):
                ones.extend(map(place.__getitem__, pile))
        out[:] = 0.0
        if ones:  # the ones and the cards counted (a card of two decks may count twice)
            counts = np.bincount(ones)
            out[: len(counts)] = counts
        values: list[Any] = []
        for name, size, get in self._numbers:
            if size:  # a sequence of numbers, padded with zeros to the block's size
                numbers = get(view)
                if len(numbers) != size:
                    if len(numbers) > size:
                        self._too_long(name, len(numbers), size)
                    numbers = (*numbers, *(0,) * (size - len(numbers)))
                values.extend(numbers)
            else:
                values.append(get(view))
        if None in values:
            values = [0 if x is None else x for x in values]
        out[self._number_places] = values  # (the places of every number, worked out once)
        if pending:
            self.fill_pending(out, pending)
        if self._view is None:  # an observation: no recall of the past
            return
        if len(self._memo) > 4096:
            self._memo.clear()
        code = view_code(view, self.enc.card_id, self._memo)
        at, size = self._view
        if len(code) > size:
            self._too_long("view", len(code), size)
        out[at : at + len(code)] = code

    def fill_pending(self, out: Any, pending: tuple[int, ...]) -> None:
        """Write the ``pending`` tokens (each plus one) into ``out``'s ``pending`` block."""
        at, size = self._pending
        if len(pending) > size:
            self._too_long("pending", len(pending), size)
        block = out[at : at + size]
        block[:] = 0.0
        block[: len(pending)] = pending
        block[: len(pending)] += 1.0

    def _too_long(self, name: str, length: int, size: int) -> None:
        why = f"the view does not fit the tensor's {name!r} block ({length} > {size})"
        raise CardRulesError(f"{self.enc.name}: {why}")


def tensor_of(enc: Encoding, recall: bool = True) -> Tensor:
    """The :class:`Tensor` of ``enc``, with the view's whole code (``recall``) or
    without it (made once per encoding)."""
    key = "_tensor" if recall else "_observation_tensor"
    made: Tensor | None = enc.__dict__.get(key)
    if made is None:
        made = enc.__dict__[key] = Tensor(enc, recall)
    return made


def layout(enc: Encoding, recall: bool = True) -> list[tuple[str, int]]:
    """The tensor's blocks for ``enc``'s game, rules and players: (name, size) in order."""
    return list(tensor_of(enc, recall).layout)


def tensor_size(enc: Encoding, recall: bool = True) -> int:
    """The tensor's length."""
    return tensor_of(enc, recall).size


def decode_hand(tensor: Any, enc: Encoding) -> tuple[Card, ...]:
    """The hand written in ``tensor`` (canonical order: the alphabet's)."""
    start, size = tensor_of(enc).offsets["hand"]
    counts = np.asarray(tensor[start : start + size]).astype(np.intp)
    return tuple(np.repeat(np.array(enc.cards, dtype=object), counts))


def seen_pending(position: Position, player: int) -> tuple[int, ...]:
    """The tokens ``player`` has chosen so far at ``position`` (only the player to act
    sees them)."""
    state = position.state
    if position.pending and state.to_act is not CHANCE and state.to_act == player:
        return position.pending
    return ()


def view_tensor(enc: Encoding, position: Position, player: int, out: Any = None) -> Any:
    """``player``'s view at ``position`` as a float32 vector (written into ``out`` when
    given)."""
    tensor = tensor_of(enc)
    if out is None:
        out = tensor.new()
    tensor.write(out, position.state, player, seen_pending(position, player))
    return out
