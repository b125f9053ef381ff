"""The optional C accelerator: what it holds, its pure-Python references, and the switch.

cardrules is a pure-Python library.  A few things it does at every step of a game have a
C version in the optional module ``cardrules._speedups`` (``src/cardrules/_speedups.c``),
compiled when cardrules is installed with a C compiler at hand:

* the **record maker** of :mod:`cardrules._records` (``new_record``, ``replace_record``):
  a new game state (or other record) with its fields named, the same object the attrs
  constructor makes, without running attrs' generated ``__init__`` (only for classes
  whose ``__init__`` does nothing but store its arguments);
* :func:`subset_objects`: the action objects of "every subset of these cards" (an Aegis
  exchange decision has 32 of them);
* :class:`Deal`: a deal in progress of :mod:`cardrules.integrations.encoding`, drawn card
  by card (an OpenSpiel game has a chance node per dealt card): a chance node's outcome
  list and one card drawn are one call each;
* :func:`first_step` and :func:`first_legal` (through a :class:`FirstTable`): the first
  tokens of a decision's legal actions there, and its legal ids ascending; :func:`id_mask`:
  an action mask of those ids; :func:`fisher_yates`: the swaps of the library's seeded
  shuffle (every seeded deal); :func:`subset_step`: the step of a token of a choice of
  any subset of a hand (an Aegis exchange), from the hand alone; :func:`hand_step`: the
  step of an Eleusis string under way (the cards left in the hand); :class:`LazyDict`:
  a ``dict`` whose values are computed when first read (PettingZoo's observations and
  infos), made and read in C, and :class:`LazyChild`: the compute of one whose values are
  such dicts themselves (PettingZoo's ``infos``), called from C;
* :func:`same_objects`: whether a ``Shuffle`` holds the very cards of its chance node (cards
  are interned), the fast half of the check every ``Shuffle`` gets from
  :meth:`~cardrules.protocol.GameDef.apply`.
* :class:`FastMethod`: a method of the OpenSpiel state (:mod:`cardrules.integrations.openspiel`)
  whose common case is answered in C from the state's position, without a Python frame:
  the player to act, whether the game is over, a card's outcome list and draw, the legal
  ids and the step of a token.

The pure-Python versions are the reference: the attrs constructor itself for records,
:func:`subset_objects_py` here.  Both give the same results (the tests compare them, and
CI runs the whole test suite with and without the C module); the C versions are faster
(``docs/performance/speedups.rst``).  Neither knows a game's rules.  The C module declares
that it needs no GIL (free-threaded CPython) and supports sub-interpreters.

:data:`IMPLEMENTATION` says which is in use (``"C"`` or ``"Python"``).  Setting the
environment variable ``CARDRULES_PURE_PYTHON`` to a non-empty value before cardrules is
imported turns the accelerator off: the C module is then not even imported.
"""

from __future__ import annotations

import os
import sys
from collections import deque
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise, repeat
from math import comb
from operator import index
from operator import itemgetter as _pick
from struct import Struct
from types import MethodType
from typing import Any, Literal

__all__ = [
    "IMPLEMENTATION",
    "Deal",
    "DealPy",
    "FastMethod",
    "FastMethodPy",
    "FirstTable",
    "FirstTablePy",
    "LazyChild",
    "LazyChildPy",
    "LazyDict",
    "LazyDictPy",
    "c_speedups",
    "first_legal",
    "first_legal_py",
    "first_step",
    "first_step_py",
    "fisher_yates",
    "fisher_yates_py",
    "hand_step",
    "hand_step_py",
    "id_mask",
    "id_mask_py",
    "mask_of",
    "mask_of_py",
    "same_objects",
    "same_objects_py",
    "subset_objects",
    "subset_objects_py",
    "subset_root",
    "subset_root_py",
    "subset_step",
    "subset_step_py",
]

_new = object.__new__


def subset_objects_py(
    items: tuple[Any, ...], slot: Any, interned: dict[tuple[Any, ...], Any], interned_sizes: int
) -> tuple[Any, ...]:
    """Every subset of ``items``, by size (the empty one first) then in the order of
    ``itertools.combinations``, each as an object: ``interned[subset]`` for a size up to
    ``interned_sizes``, else a new instance of the class that owns the member
    descriptor ``slot`` (a slotted class whose only field that is), with that slot set
    to the subset's tuple.  No ``__init__`` runs: the caller vouches that each subset is
    already what the class's constructor would store (see ``aegis.Exchange``)."""
    cls, set_slot = slot.__objclass__, slot.__set__
    out: list[Any] = []
    n = len(items)
    for k in range(n + 1):
        if k <= interned_sizes:
            out += map(interned.__getitem__, combinations(items, k))
        else:  # new objects, filled in C loops (no Python frame per object)
            fresh = list(map(_new, repeat(cls, comb(n, k))))
            deque(map(set_slot, fresh, combinations(items, k)), 0)
            out += fresh
    return tuple(out)


def _deal_outcomes_py(table: tuple[Any, ...], keys: list[int]) -> list[Any]:
    """``[table[k] for k in keys]`` (every key an index of ``table``): a chance node's
    outcome list, picked from prepared (id, probability) pairs."""
    return list(_pick(*keys)(table)) if len(keys) > 1 else [table[k] for k in keys]


def _deal_draw_py(counts: list[int], keys: list[int], token: int) -> bool:
    """One card drawn from a deal in progress: ``False`` (nothing changed) unless
    ``token`` is an index of ``counts`` with a count above 0; otherwise
    ``counts[token]`` goes down by one, and its key in ``keys`` (``count *
    len(counts) + token``) down by ``len(counts)``, or out at a count of 0."""
    size = len(counts)
    if not 0 <= token < size or counts[token] <= 0:
        return False
    n = counts[token]
    j = keys.index(n * size + token)
    counts[token] = n - 1
    if n > 1:
        keys[j] -= size
    else:
        del keys[j]
    return True


def first_step_py(actions: Sequence[Any], pairs: dict[int, tuple[int, Any]]) -> dict[int, Any] | None:
    """``{token: value}`` of ``pairs[id(action)] == (token, value)`` for each action, in
    order (a later equal token wins), or ``None`` if an action's id is not in ``pairs``:
    the first tokens of a decision's legal actions, where the game interns its action
    objects (the caller keeps them alive, so an id stands for one object)."""
    try:
        return dict(map(pairs.__getitem__, map(id, actions)))
    except KeyError:
        return None


class FirstTablePy:
    """``FirstTable(triples)``: for each ``(obj, token, value)`` of ``triples``, the pair
    ``(token, value)`` by the object's identity (a later triple of the same object
    wins); the table keeps each object alive, so that its ``id`` stands for it.
    ``get(obj)`` is the pair or ``None``; ``len()`` the number of objects.  The
    reference of the C ``FirstTable``, which :func:`first_legal` reads."""

    __slots__ = ("_keep", "_pairs")

    def __init__(self, triples: Sequence[tuple[Any, Any, Any]]) -> None:
        self._keep: list[Any] = []
        self._pairs: dict[int, tuple[Any, Any]] = {}
        for triple in list(triples):
            if not (isinstance(triple, tuple) and len(triple) == 3):
                raise TypeError("FirstTable: a sequence of (object, token, value) tuples")
            obj, token, value = triple
            self._keep.append(obj)
            self._pairs[id(obj)] = (token, value)

    def get(self, obj: Any) -> tuple[Any, Any] | None:
        return self._pairs.get(id(obj))

    def __len__(self) -> int:
        return len(self._pairs)


def first_legal_py(actions: Sequence[Any], table: FirstTablePy) -> tuple[dict[Any, Any], list[Any]] | None:
    """``(step, sorted(step))``, ``step`` the dict of ``table.get(action)`` for each
    action in order (a later equal token wins), or ``None`` if an action is not in
    ``table``: a decision's first tokens and its legal ids, ascending, in one call
    (where the game interns its action objects)."""
    if not isinstance(table, FirstTablePy):
        raise TypeError("first_legal: table must be a FirstTable")
    try:
        step = dict(map(table._pairs.__getitem__, map(id, actions)))
    except KeyError:  # not an interned action
        return None
    return step, sorted(step)


def id_mask_py(size: int, ids: Sequence[int]) -> bytearray:
    """A ``bytearray`` of ``size`` zeros with a 1 at each of ``ids`` (an action mask)."""
    mask = bytearray(index(size))
    for t in ids:
        mask[t] = 1
    return mask


def mask_of_py(new: Callable[[], Any], ids: Sequence[int]) -> Any:
    """``new()`` (a writable one-dimensional buffer of one-byte items, all zeros: a NumPy
    ``int8`` array's bound ``copy``) with a 1 at each of ``ids`` (a list or tuple of
    ints): an action mask as the array itself."""
    if not isinstance(ids, (list, tuple)):
        raise TypeError("mask_of: ids must be a list or tuple of ints")
    out = new()
    view = memoryview(out)
    if view.readonly or view.itemsize != 1 or view.ndim != 1 or not view.c_contiguous:
        raise TypeError("mask_of: new() must give a writable buffer of one-byte items")
    raw = view.cast("B")
    for t in ids:
        raw[t] = 1
    return out


class LazyDictPy(dict):  # type: ignore[type-arg]
    """A ``dict`` whose values are computed when first read: a value that is the
    instance's ``_compute`` object itself stands for one not computed yet, and reading it
    through ``[]`` calls ``_compute(self, key)``, stores the result under the key and
    appends the key to ``_made`` (a list, made at the first such key; ``None`` before;
    nothing is recorded where ``_made`` is ``False``: ``make(..., made=False)``, for a
    dict never refreshed).
    ``_source``, ``_at`` and ``_player`` are for ``_compute`` to read.  Made by
    :meth:`make` only (the constructor refuses); every other ``dict`` method is
    ``dict``'s own (a subclass gives the other ways of reading).  The reference of the C
    ``LazyDict``."""

    __slots__ = ("_at", "_compute", "_made", "_player", "_source")
    _made: list[Any] | Literal[False] | None
    _compute: Any
    _source: Any
    _at: Any
    _player: Any

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a LazyDict is made by LazyDict.make(template, compute, source, at, player)")

    @classmethod
    def make(
        cls, template: dict[Any, Any], compute: Any, source: Any, at: Any, player: Any, made: Any = None
    ) -> Any:
        """A new one holding ``template``'s items (nothing computed yet); ``made=False``:
        the keys computed are not recorded (a dict that is never refreshed)."""
        if not isinstance(template, dict):
            raise TypeError("LazyDict.make: the template must be a dict")
        if made is not None and made is not False:
            raise TypeError("LazyDict.make: made must be None or False")
        out = dict.__new__(cls)
        dict.update(out, template)
        out._made = made
        out._compute = compute
        out._source = source
        out._at = at
        out._player = player
        return out

    def __getitem__(self, key: Any) -> Any:
        value = dict.__getitem__(self, key)
        if value is self._compute:
            value = value(self, key)
            dict.__setitem__(self, key, value)
            made = self._made
            if made is None:
                self._made = [key]
            elif made is not False:
                made.append(key)
        return value

    def refresh_at(self, at: Any) -> None:
        """``at`` becomes ``_at``, and each key of ``_made`` still here gets ``_compute``
        as its value again (to be computed at its next read); ``_made`` is emptied."""
        self._at = at
        made = self._made
        if type(made) is list:
            compute = self._compute
            for key in made:
                if key in self:
                    dict.__setitem__(self, key, compute)
            made.clear()


class LazyChildPy:
    """``LazyChildPy(cls, template, compute)``: called as ``child(parent, key)``, parent
    a ``LazyDict``, it makes ``cls.make(template, compute, parent._source, parent._at,
    parent._player[key])``: the compute of a ``LazyDict`` whose values are ``LazyDict``\\ s
    themselves (the PettingZoo environment's infos).  The reference of the C
    ``LazyChild``."""

    __slots__ = ("cls", "compute", "template")

    def __init__(self, cls: Any, template: dict[Any, Any], compute: Any) -> None:
        if not (isinstance(cls, type) and issubclass(cls, LazyDictPy)):
            raise TypeError("LazyChild: cls must be a LazyDict type")
        if not isinstance(template, dict):
            raise TypeError("LazyChild: the template must be a dict")
        self.cls, self.template, self.compute = cls, template, compute

    def __call__(self, parent: Any, key: Any) -> Any:
        if not isinstance(parent, LazyDictPy):
            raise TypeError("LazyChild: the parent must be a LazyDict")
        return self.cls.make(self.template, self.compute, parent._source, parent._at, parent._player[key])


def same_objects_py(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Whether ``a`` and ``b`` hold the same objects (by identity) as many times each, in
    any order."""
    return len(a) == len(b) and sorted(map(id, a)) == sorted(map(id, b))


def hand_step_py(
    ids: dict[Any, int], hand: tuple[Any, ...], pending: tuple[int, ...], end: Any, value: Any
) -> tuple[dict[Any, Any], list[Any]]:
    """The ids of the cards of ``hand`` (``ids[card]``, ints), ascending, one copy of
    each of ``pending`` taken out (a ``ValueError`` for one not there), each id left
    then once to ``None`` and ``end`` to ``value``: that dict and its keys.  The step of
    an Eleusis string under way (the cards left in the hand, or play the string)."""
    if not (isinstance(ids, dict) and isinstance(hand, tuple) and isinstance(pending, tuple)):
        raise TypeError("hand_step(ids: dict, hand: tuple, pending: tuple, end, value)")
    left = [ids[card] for card in hand]
    if not all(isinstance(i, int) for i in left):
        raise TypeError("hand_step: the ids must be ints")
    if not all(-(2**63) <= i < 2**63 for i in left):  # (the C version's machine words)
        raise OverflowError("hand_step: an id too large")
    left.sort()
    for t in pending:
        if not isinstance(t, int):
            raise TypeError("hand_step: the pending tokens must be ints")
        if not -(2**63) <= t < 2**63:
            raise OverflowError("hand_step: a pending token too large")
        if t not in left:
            raise ValueError("hand_step: a pending token is not in the hand")
        left.remove(t)
    step: dict[Any, Any] = dict.fromkeys(left)
    step[end] = value
    return step, list(step)


def fisher_yates_py(items: list[Any], stream: bytes) -> None:
    """The swaps of the library's seeded shuffle (:mod:`cardrules._shuffling`), in
    place: ``stream`` read as big-endian unsigned 64-bit draws, and for ``t, i`` in
    ``enumerate(range(len(items) - 1, 0, -1))`` the items at ``i`` and ``draws[t] %
    (i + 1)`` swapped.  A list of fewer than two items is left as it is."""
    if type(items) is not list or type(stream) is not bytes:
        raise TypeError("fisher_yates(items: list, stream: bytes)")
    n = len(items)
    if n < 2:
        return
    if len(stream) < 8 * (n - 1):
        raise ValueError("fisher_yates: the stream must hold 8 bytes per item but one")
    unpack = _UNPACKERS.get(n - 1)
    if unpack is None:
        unpack = _UNPACKERS[n - 1] = Struct(f">{n - 1}Q")
    i = n - 1
    for draw in unpack.unpack_from(stream):
        j = draw % (i + 1)
        items[i], items[j] = items[j], items[i]
        i -= 1


# One compiled Struct per number of draws ("> n Q"): unpacking is one loop in C.
_UNPACKERS: dict[int, Struct] = {}


def subset_step_py(
    ids: tuple[int, ...], end: Any, actions: tuple[Any, ...], prefix: tuple[Any, ...]
) -> tuple[dict[Any, Any], list[Any]] | None:
    """A choice of any subset of ``ids`` (tokens, ints; at most 16), each subset entered
    as its ids in the order of ``ids`` then ``end``; ``actions`` every subset in the
    order of ``itertools.combinations`` by size, the empty one first.  After ``prefix``
    (not empty): the legal tokens (the ids after the prefix's last one, then ``end``),
    each to the action it completes (``None``, but ``actions[i]`` for ``end``, ``i``
    the place of the prefix's subset), and that list; ``None`` if the prefix is no
    rising run of ids.  The step of a token of an Aegis exchange, from the hand alone."""
    if not (isinstance(ids, tuple) and isinstance(actions, tuple) and isinstance(prefix, tuple)):
        raise TypeError("subset_step(ids: tuple, end, actions: tuple, prefix: tuple)")
    n = len(ids)
    if n > SUBSET_MAX_IDS:
        raise ValueError("subset_step: at most 16 ids")
    if not prefix:
        raise ValueError("subset_step: the prefix must not be empty")
    if not all(isinstance(t, int) for t in ids):
        raise TypeError("subset_step: ids must be ints")
    place = dict(zip(ids, range(n), strict=True))  # (an id given twice: its last place)
    places = tuple(place.get(t) if isinstance(t, int) else None for t in prefix)
    rank = _subset_ranks(n).get(places)  # None unless every id was found and they rise
    if rank is None:
        return None
    if rank >= len(actions):
        raise IndexError("subset_step: actions must hold every subset of ids")
    last: int = places[-1]  # type: ignore[assignment]
    legal = [*ids[last + 1 :], end]
    level: dict[Any, Any] = dict.fromkeys(legal)
    level[end] = actions[rank]
    return level, legal


def subset_root_py(
    hand: tuple[Any, ...], card_id: dict[Any, Any], actions: Sequence[Any], end: Any
) -> tuple[tuple[Any, ...], tuple[Any, ...], dict[Any, Any], list[Any]] | None:
    """Where ``actions`` (a list or tuple) are every subset of ``hand`` (a tuple of at
    most 16 cards: ``2 ** len(hand)`` actions, the first one's ``cards`` empty, the last
    one's equal to the hand) and the hand's ids (``card_id[card]``) ascend: the actions
    as a tuple, the ids as a tuple, the root level ``{id: None for each id, end:
    actions[0]}`` and its ids ``[*ids, end]``; ``None`` where that is not so.  The parts
    of the subset tree of an Aegis exchange, in one call."""
    if not (isinstance(hand, tuple) and isinstance(card_id, dict) and isinstance(actions, (list, tuple))):
        raise TypeError("subset_root(hand: tuple, card_id: dict, actions: list or tuple, end)")
    acts = tuple(actions)
    n = len(hand)
    if n > SUBSET_MAX_IDS or len(acts) != 1 << n:
        return None
    whole = acts[-1].cards == hand
    if acts[0].cards or not whole:
        return None
    ids = [card_id[c] for c in hand]
    if any(not a <= b for a, b in pairwise(ids)):
        return None
    root: dict[Any, Any] = dict.fromkeys(ids)
    root[end] = acts[0]
    return acts, tuple(ids), root, [*ids, end]


#: the most ids :func:`subset_step` takes (a choice among 65,536 subsets)
SUBSET_MAX_IDS = 16
_SUBSET_RANKS: dict[int, dict[tuple[int | None, ...], int]] = {}


def _subset_ranks(n: int) -> dict[tuple[int | None, ...], int]:
    """The place of each subset of ``range(n)`` (as its rising tuple) in the order of
    ``itertools.combinations`` by size, the empty one first."""
    ranks = _SUBSET_RANKS.get(n)
    if ranks is None:
        subsets = (c for k in range(n + 1) for c in combinations(range(n), k))
        ranks = _SUBSET_RANKS[n] = {c: i for i, c in enumerate(subsets)}
    return ranks

class DealPy:
    """A deal in progress, drawn card by card (the reference of the C ``Deal``): the
    encoding's chance nodes of :mod:`cardrules.integrations.encoding`, one per card.

    ``Deal(alphabet, counts, rows, cards=())``: the cards of the game by id (a tuple),
    how many of each are left (``counts``, one per card, 0 or more), a dict the caller's
    deals share for outcome tables (``rows``: cards left -> table, the outcome of card
    ``i`` left ``c`` times at ``c * len(alphabet) + i``, made when first needed), and
    the cards drawn before this deal was made.  ``draw(k, token)`` draws card ``token``
    in place, but only at the end of the deal (``k`` the number of cards drawn) and
    while more than one card is left: it says ``False`` (and changes nothing) otherwise,
    and the caller takes the slow way (a deal of its own, the last card, an error).
    ``outcomes(k)`` is the outcome list of the next draw at the end of the deal (the
    same list until the next draw; not to be changed), ``None`` behind it.  ``cards``,
    ``counts`` and ``tokens`` (the ids drawn since it was made) are new lists."""

    __slots__ = (
        "_alphabet", "_cards", "_counts", "_keys", "_out", "_rows", "_tokens", "left", "most", "start"
    )

    def __init__(
        self,
        alphabet: tuple[Any, ...],
        counts: Sequence[int],
        rows: dict[int, Any],
        cards: Sequence[Any] = (),
    ) -> None:
        if not isinstance(alphabet, tuple) or not isinstance(rows, dict):
            raise TypeError("Deal(alphabet: tuple, counts, rows: dict, cards=())")
        counts = [index(n) for n in counts]
        size = len(alphabet)
        if len(counts) != size:
            raise ValueError("Deal: one count per card of the alphabet")
        total = 0
        for n in counts:  # (the C type's bound, which keeps its sums in a machine word)
            if n < 0 or n > sys.maxsize // 4 // (size + 1) - total:
                raise ValueError("Deal: counts must be from 0 to a deck's size")
            total += n
        self._alphabet = alphabet
        self._rows = rows
        self._counts = counts
        self._keys = [n * size + i for i, n in enumerate(counts) if n]  # in id order
        self._cards = list(cards)
        self._tokens: list[int] = []
        self._out: list[Any] | None = None
        self.left = sum(counts)
        self.most = max(counts, default=0)
        self.start = len(self._cards)

    @property
    def cards(self) -> list[Any]:
        return list(self._cards)

    @property
    def counts(self) -> list[int]:
        return list(self._counts)

    @property
    def tokens(self) -> list[int]:
        return list(self._tokens)

    @property
    def drawn(self) -> int:
        return len(self._cards)

    def outcomes(self, k: int) -> list[Any] | None:
        if index(k) != len(self._cards):
            return None
        out = self._out
        if out is None:
            total, size = self.left, len(self._alphabet)
            if not total:
                out = self._out = []
                return out
            table = self._rows.get(total)
            if type(table) is not tuple or len(table) <= self.most * size:
                table = self._rows[total] = tuple(
                    (i, c / total) for c in range(self.most + 1) for i in range(size)
                )
            out = self._out = _deal_outcomes_py(table, self._keys)
        return out

    def draw(self, k: int, token: Any) -> bool:
        if index(k) != len(self._cards) or self.left <= 1:
            return False
        try:
            token = index(token)
        except TypeError:
            return False
        if not _deal_draw_py(self._counts, self._keys, token):
            return False
        self._cards.append(self._alphabet[token])
        self._tokens.append(token)
        self.left -= 1
        self._out = None
        return True

    def counts_at(self, k: int) -> list[int]:
        k = index(k)
        if not self.start <= k <= len(self._cards):
            raise ValueError("counts_at: k must be from the deal's start to the cards drawn")
        counts = list(self._counts)
        for t in self._tokens[k - self.start :]:
            counts[t] += 1
        return counts


_FAST_KINDS = (
    "current_player", "is_terminal", "chance_outcomes", "apply_action", "legal_actions", "action_mask",
    "env_step", "env_last",
)
_NOTHING: Any = object()


def _env_dict(env: Any, names: tuple[str, ...]) -> tuple[Any, ...] | None:
    """The values of ``names`` in ``env``'s ``__dict__`` (where attributes are read the
    plain way), or ``None`` where that is not so or one is not there."""
    attrs = getattr(env, "__dict__", None)
    plain: Any = object.__getattribute__
    if type(attrs) is not dict or type(env).__getattribute__ is not plain:
        return None
    got = tuple(attrs.get(name, _NOTHING) for name in names)
    return None if any(value is _NOTHING for value in got) else got


class FastMethodPy:
    """A method of a framework's state class (the OpenSpiel state of
    :mod:`cardrules.integrations.openspiel`) whose common case is answered from the
    position the state keeps as ``_pos``; every other case calls ``fallback``, the
    Python function it stands for, with the same arguments.  As a class attribute it
    binds like a function.  The kinds:

    * ``"current_player"`` (state): ``pos.player_id`` unless that is ``None``;
    * ``"is_terminal"`` (state): ``pos.player_id == terminal`` unless ``player_id`` is
      ``None``;
    * ``"chance_outcomes"`` (state): where ``type(pos) is drawing`` and ``pos._deal`` is
      a deal (``DealPy`` or the C ``Deal``): ``pos._deal.outcomes(pos._k)`` unless that
      is ``None``;
    * ``"apply_action"`` (state, action): likewise, if ``pos._deal.draw(pos._k,
      action)`` is true: ``pos._k += 1``, ``pos._outcomes = None``, and ``None``; at a
      position without a deal whose ``_step`` (a ``dict``) holds the action: with ``enc
      = state._enc``, ``state._pos`` becomes ``enc._extend(pos, action)`` where the
      step's value is ``None``, else ``enc.enter(enc._apply(pos.state, value))``, and
      ``None`` (with ``enter``, the C version makes those positions as for
      ``"env_step"`` below, where the action is an exact ``int``);
    * ``"legal_actions"`` (state, player): where ``pos.player_id`` is not ``None`` and
      equals ``player``: ``pos._legal`` unless that is ``None``; else, where nothing is
      pending or worked out (``pos.pending == ()``, ``pos._step`` and ``pos._trie``
      ``None``), ``enc._first_pair`` is true and the state is not in
      ``enc._tree_phase`` (``None``, or ``state.phase`` differs): ``found =
      first_legal(enc._legal_of(state), enc._first_table)``; if it is not ``None``,
      ``pos._step`` and ``pos._legal`` are set from it and the list returned, else
      ``enc._legal(pos)``; in the tree phase, ``enc._tree_legal(pos)`` unless that is
      ``None`` (then ``enc._legal(pos)``); where tokens are pending, nothing is worked
      out (``pos._step`` ``None``) and ``type(pos._trie) is subset``:
      ``subset_step(tree._ids, tree._end, tree._actions, pending)``, kept on the
      position as above, unless it is ``None``;
    * ``"action_mask"`` (obs, key): the compute of a PettingZoo observation (a
      ``LazyDict`` whose ``_source`` is ``(enc, new_mask, legal_of, first_table,
      tree_phase)``, ``_at`` the position, ``_player`` the player), where ``key`` is
      ``"action_mask"`` and ``pos._who`` is not ``unset`` and equals the player:
      ``mask_of(new_mask, ids)``, the ids ``pos._legal`` unless that is ``None``; else,
      where tokens are pending, the subset step as for ``"legal_actions"`` (where the
      trie is no ``subset`` one and nothing is worked out: ``enc._pending_legal(pos)``,
      kept on the position unless it is ``None``); where
      nothing is pending or worked out, ``first_table`` is not ``None`` and the state is
      not in ``tree_phase``: ``first_legal(legal_of(state), first_table)`` kept on the
      position (``enc._legal(pos)`` where that is ``None``); in ``tree_phase``,
      ``enc._tree_legal(pos)`` unless that is ``None``;
    * ``"env_step"`` (env, action): a PettingZoo environment's step (the ``raw_env`` of
      :mod:`cardrules.integrations.pettingzoo`), where the action is an ``int``, the
      agent selected is neither terminated nor truncated (both ``False``) and
      ``env.position`` is a ``position`` whose ``_step`` (a ``dict``) holds the action:
      ``env._cumulative_rewards[agent] = 0.0``; with ``enc = env.encoding``,
      ``env.position`` becomes ``enc._extend(pos, action)`` where the step's value is
      ``None`` (and if ``type(env.infos) is infos`` and no value of ``env.rewards`` is
      true, that is all), else ``enc.enter(enc._apply(pos.state, value))``; then, where
      the new position's ``_who`` is an ``int`` in range of ``env.possible_agents`` and
      ``type(env.infos) is infos``: ``env.agent_selection = possible_agents[who]``,
      ``env.infos.refresh_at(state)`` unless the infos are at that state already, and
      ``env._accumulate_rewards()`` where a value of ``env.rewards`` is true; any other
      new position goes to ``env._settle(pos)``.  Returns ``None``.  (With ``enter``, a
      tuple ``(layout, chance)``, the C version makes those positions itself with the
      record maker of ``layout``, as ``enc._extend`` and ``enc.enter`` make them, and
      calls ``enc.enter`` where the state is over, ``enc._truncates`` is true or the
      player to act is ``chance``, reading ``is_over`` only where ``to_act`` is no
      ``int``, the protocol's ``to_act`` being ``None`` at the end; this reference
      calls the two methods.)
    * ``"env_last"`` (env, observe=True): the environment's ``last()``, where ``make``
      is a tuple ``(maker, template, compute[, made])`` and ``env._index``,
      ``env._cumulative_rewards``, ``env.terminations`` and ``env.truncations`` are
      ``dict``\\ s: with ``agent = env.agent_selection``, ``(maker(template, compute,
      env._obs_source, env.position, env._index[agent][, made]),
      env._cumulative_rewards[agent], env.terminations[agent],
      env.truncations[agent], env.infos[agent])``; the observation ``None`` where
      ``observe`` is ``False``.

    The reference of the C module's ``FastMethod``, which makes the same reads and
    calls in C (pybind11 takes it for a Python override, as it is no built-in
    function), reading and writing the slots of a ``position`` (the type given, or a
    subclass that does not redefine them) straight from the object."""

    __slots__ = (
        "_kind", "drawing", "enter", "fallback", "infos", "make", "position", "subset", "terminal", "unset"
    )

    def __init__(
        self,
        kind: str,
        fallback: Any,
        drawing: Any = None,
        terminal: Any = None,
        subset: Any = None,
        position: Any = None,
        unset: Any = None,
        infos: Any = None,
        make: Any = None,
        enter: Any = None,
    ) -> None:
        if kind not in _FAST_KINDS:
            raise ValueError(
                "FastMethod: kind must be current_player, is_terminal, chance_outcomes, apply_action, "
                f"legal_actions, action_mask, env_step or env_last, not {kind!r}"
            )
        if not callable(fallback):
            raise TypeError("FastMethod: fallback must be callable")
        if kind in ("chance_outcomes", "apply_action") and not isinstance(drawing, type):
            raise TypeError("FastMethod: drawing must be a type for chance_outcomes and apply_action")
        if position is not None and not isinstance(position, type):
            raise TypeError("FastMethod: position must be a type or None")
        if enter is not None and not (type(enter) is tuple and len(enter) == 2):
            raise TypeError("FastMethod: enter must be a tuple (record layout, chance) or None")
        self._kind = _FAST_KINDS.index(kind)
        self.fallback = fallback
        self.drawing = drawing
        self.terminal = terminal
        self.subset = subset
        self.position = position  # (the C version reads its slots straight; the same values)
        self.unset = unset
        self.infos = infos
        self.make = make
        self.enter = enter

    @property
    def kind(self) -> str:
        return _FAST_KINDS[self._kind]

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        return self if obj is None else MethodType(self, obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        kind = self._kind
        if kind == 7 and 1 <= len(args) <= 2 and not kwargs:
            return self._env_last(*args)
        if len(args) == (2 if kind >= 3 else 1) and not kwargs:
            if kind == 5:
                return self._mask(*args)
            if kind == 6:
                return self._env_step(*args)
            pos = args[0]._pos
            if kind == 4:
                return self._legal(args[0], pos, args[1])
            if kind == 3 and type(pos) is not self.drawing:
                if pos._deal is None:
                    step = pos._step
                    if type(step) is dict:
                        move = step.get(args[1], _NOTHING)
                        if move is not _NOTHING:
                            enc = args[0]._enc
                            if move is None:
                                args[0]._pos = enc._extend(pos, args[1])
                            else:
                                args[0]._pos = enc.enter(enc._apply(pos.state, move))
                            return None
            elif kind < 2:
                player = pos.player_id
                if player is not None:
                    return player == self.terminal if kind == 1 else player
            elif type(pos) is self.drawing:
                deal = pos._deal
                if type(deal) in _DEAL_TYPES:
                    k = pos._k
                    if kind == 2:
                        out = deal.outcomes(k)
                        if out is not None:
                            return out
                    elif deal.draw(k, args[1]):
                        pos._k = k + 1
                        pos._outcomes = None
                        return None
        return self.fallback(*args, **kwargs)

    def _legal(self, state: Any, pos: Any, player: Any) -> Any:
        current = pos.player_id
        if current is not None and player == current:
            legal = pos._legal
            if legal is not None:
                return legal
            pending = pos.pending
            if type(pending) is tuple and pending:  # a token of a subset choice under way
                if pos._step is None:
                    tree = pos._trie
                    if type(tree) is self.subset:
                        found = subset_step(tree._ids, tree._end, tree._actions, pending)
                        if found is not None:
                            pos._step, legal = found
                            pos._legal = legal
                            return legal
            elif type(pending) is tuple and pos._step is None and pos._trie is None:
                enc = state._enc
                if enc._first_pair:
                    st = pos.state
                    tree_phase = enc._tree_phase
                    if tree_phase is None or st.phase != tree_phase:
                        found = first_legal(enc._legal_of(st), enc._first_table)
                        if found is None:
                            return enc._legal(pos)
                        pos._step, legal = found
                        pos._legal = legal
                        return legal
                    legal = enc._tree_legal(pos)  # a tree from the start
                    return enc._legal(pos) if legal is None else legal
        return self.fallback(state, player)

    def _env_last(self, env: Any, observe: Any = True) -> Any:
        make = self.make
        names = ("agent_selection", "_cumulative_rewards", "terminations", "truncations", "infos", "_index",
                 "_obs_source", "position")
        ok = (observe is True or observe is False) and type(make) is tuple and 3 <= len(make) <= 4
        got = _env_dict(env, names) if ok else None
        if got is not None:
            agent, cum, terms, truncs, infos, index, source, pos = got
            if type(cum) is dict and type(terms) is dict and type(truncs) is dict and type(index) is dict:
                maker, template, compute = make[:3]
                obs = maker(template, compute, source, pos, index[agent], *make[3:]) if observe else None
                return obs, cum[agent], terms[agent], truncs[agent], infos[agent]
        return self.fallback(env, observe)

    def _env_step(self, env: Any, action: Any) -> Any:
        names = (
            "agent_selection", "terminations", "truncations", "position", "_cumulative_rewards", "rewards",
            "infos",
        )
        got = _env_dict(env, names) if type(action) is int else None
        if got is not None:
            agent, terms, truncs, cum, rewards, infos = got[:3] + got[4:]
            pos: Any = got[3]
            if (
                type(terms) is dict
                and type(truncs) is dict
                and type(cum) is dict
                and type(rewards) is dict
                and type(pos) is self.position
                and terms[agent] is False
                and truncs[agent] is False
            ):
                at: Any = pos  # (not narrowed by the type check)
                step = at._step
                if type(step) is dict and action in step:
                    move = step[action]
                    cum[agent] = 0.0
                    enc = env.encoding
                    lazy = type(infos) is self.infos and isinstance(infos, LazyDict)
                    if move is None:  # a pending token
                        env.position = after = enc._extend(at, action)
                        if lazy and not any(rewards.values()):
                            return None
                    else:
                        env.position = after = enc.enter(enc._apply(at.state, move))
                    who = after._who
                    if lazy and who is not self.unset and type(who) is int and who >= 0:
                        agents = env.possible_agents
                        if type(agents) is list and who < len(agents):
                            env.agent_selection = agents[who]
                            state = after.state
                            if state is not infos._at:
                                infos.refresh_at(state)
                            if any(rewards.values()):
                                env._accumulate_rewards()
                            return None
                    env._settle(after)
                    return None
        return self.fallback(env, action)

    def _mask(self, obs: Any, key: Any) -> Any:
        if key == "action_mask" and type(key) is str and isinstance(obs, LazyDict):
            source, pos, player = obs._source, obs._at, obs._player
            if type(source) is tuple and len(source) == 5:
                enc, new_mask, legal_of, table, tree_phase = source
                who = pos._who
                if who is not self.unset and who == player:
                    legal = pos._legal
                    if legal is None:
                        pending = pos.pending
                        if type(pending) is not tuple:
                            return self.fallback(obs, key)
                        if pending:  # a token of an action under way
                            if pos._step is not None:
                                return self.fallback(obs, key)
                            tree: Any = pos._trie
                            if type(tree) is self.subset:
                                found = subset_step(tree._ids, tree._end, tree._actions, pending)
                            else:
                                found = enc._pending_legal(pos)
                            if type(found) is not tuple or len(found) != 2:
                                return self.fallback(obs, key)
                            pos._step, legal = found
                            pos._legal = legal
                        else:
                            if table is None or pos._step is not None or pos._trie is not None:
                                return self.fallback(obs, key)
                            state = pos.state
                            if tree_phase is not None and state.phase == tree_phase:
                                legal = enc._tree_legal(pos)  # a tree from the start
                                if legal is None:
                                    return self.fallback(obs, key)
                                return mask_of(new_mask, legal)
                            found = first_legal(legal_of(state), table)
                            if found is None:
                                legal = enc._legal(pos)
                            else:
                                pos._step, legal = found
                                pos._legal = legal
                    return mask_of(new_mask, legal)
        return self.fallback(obs, key)


subset_objects: Callable[[tuple[Any, ...], Any, dict[tuple[Any, ...], Any], int], tuple[Any, ...]]
first_step: Callable[[Sequence[Any], dict[int, tuple[int, Any]]], dict[int, Any] | None]
same_objects: Callable[[tuple[Any, ...], tuple[Any, ...]], bool]
first_legal: Callable[[Sequence[Any], Any], tuple[dict[Any, Any], list[Any]] | None]
subset_step: Callable[
    [tuple[int, ...], Any, tuple[Any, ...], tuple[Any, ...]], tuple[dict[Any, Any], list[Any]] | None
]
subset_root: Callable[
    [tuple[Any, ...], dict[Any, Any], Sequence[Any], Any],
    tuple[tuple[Any, ...], tuple[Any, ...], dict[Any, Any], list[Any]] | None,
]
id_mask: Callable[[int, Sequence[int]], bytearray]
fisher_yates: Callable[[list[Any], bytes], None]
hand_step: Callable[
    [dict[Any, int], tuple[Any, ...], tuple[int, ...], Any, Any], tuple[dict[Any, Any], list[Any]]
]
mask_of: Callable[[Callable[[], Any], Sequence[int]], Any]
IMPLEMENTATION: str
#: the C ``Deal`` type when the C module is used, else :class:`DealPy`
Deal: Any
#: the C ``FastMethod`` type when the C module is used, else :class:`FastMethodPy`
FastMethod: Any
#: the C ``FirstTable`` type when the C module is used, else :class:`FirstTablePy`
FirstTable: Any
#: the C ``LazyDict`` type when the C module is used, else :class:`LazyDictPy`
LazyDict: Any
#: the C ``LazyChild`` type when the C module is used, else :class:`LazyChildPy`
LazyChild: Any
#: The compiled module when it is used (``None`` otherwise); ``_records`` takes its
#: record maker from it.
c_speedups: Any
try:
    if os.environ.get("CARDRULES_PURE_PYTHON"):
        raise ImportError("CARDRULES_PURE_PYTHON is set")
    from . import _speedups as c_speedups
except ImportError:  # not compiled at install time (no C compiler), or not wanted
    c_speedups = None
    subset_objects = subset_objects_py
    first_step = first_step_py
    same_objects = same_objects_py
    Deal = DealPy
    FastMethod = FastMethodPy
    FirstTable, first_legal, id_mask = FirstTablePy, first_legal_py, id_mask_py
    subset_step = subset_step_py
    subset_root = subset_root_py
    fisher_yates = fisher_yates_py
    hand_step = hand_step_py
    LazyDict, LazyChild, mask_of = LazyDictPy, LazyChildPy, mask_of_py
    IMPLEMENTATION = "Python"
else:
    subset_objects = c_speedups.subset_objects
    first_step = c_speedups.first_step
    same_objects = c_speedups.same_objects
    Deal = c_speedups.Deal
    FastMethod = c_speedups.FastMethod
    FirstTable, first_legal, id_mask = c_speedups.FirstTable, c_speedups.first_legal, c_speedups.id_mask
    subset_step = c_speedups.subset_step
    subset_root = c_speedups.subset_root
    fisher_yates = c_speedups.fisher_yates
    hand_step = c_speedups.hand_step
    LazyDict, LazyChild, mask_of = c_speedups.LazyDict, c_speedups.LazyChild, c_speedups.mask_of
    IMPLEMENTATION = "C"

#: the deal types FastMethodPy draws on (DealPy, and the C Deal when compiled)
_DEAL_TYPES = (DealPy,) if c_speedups is None else (DealPy, c_speedups.Deal)
