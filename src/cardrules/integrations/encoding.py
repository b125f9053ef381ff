"""Integer actions for every cardrules game: what OpenSpiel and PettingZoo see.

Frameworks for game AI want each action to be a small integer that means the same thing
in every state, and want a chance node to be one random draw over a few outcomes.  The
cardrules API has richer actions (``Exchange(cards)``, Haggis combinations, Eleusis
strings) and shuffles the whole deck in one :class:`~cardrules.Shuffle`.  This module
bridges the two, once for both adapters, without depending on either framework.

**Chance, card by card.**  A cardrules chance node (a :class:`~cardrules.Shuffle` of
``n`` cards) becomes ``n`` chance nodes: each draws the next card of the order, uniformly
over the cards not yet drawn (equal cards of a two-deck game are one outcome with the
summed probability).  The outcome id is the card's index in the game's card alphabet
(:attr:`Encoding.cards`).  When the last card is drawn the ``Shuffle`` of the drawn order
is applied, so any stacked deal is reachable.

**Composite actions as token sequences.**  An action that chooses several cards is entered
as a short sequence of tokens by the same player: first the cards (each a token, in
canonical order where order does not matter), then a closing token.  Every token id has
one meaning in every state; the closing token's text is ``str(action)`` of the completed
action.  The encodings, per game:

``aegis`` (110 ids)
    ``0..51`` add card ``c`` to the exchange being built (canonical order, each card at
    most once); ``52`` exchange the chosen cards (``Exchange(())``, "keep", when none);
    ``53..57`` ``Bid(1..5)``; ``58..109`` ``Play(c)``.

``gunsore`` (54 ids with two decks)
    ``0..52`` ``Play(c)`` (52 cards then the joker); ``53`` ``DeclareWar()``.

``haggis`` (2 players: 87 ids; 3 players: 110)
    first the cards of a combination, one token each in canonical order (the number cards
    in play, then J, Q, K); then the declaration: ``set``, ``bomb``, or a sequence by
    width ``w`` and top rank ``t`` (``w = 1``: ``t`` 4..13; ``w >= 2``: ``t`` 3..13; ``w``
    up to the number of suits in play).  The cards and the declaration together are one
    ``Play(combo)`` (a combination is its kind, rank, width and cards).  Then ``Pass()``,
    one id per bet amount of the rules, and (3 players, ``bomb_trick="choose"``)
    ``GiveTrick(p)`` for each player.

``eleusis`` (58 ids)
    ``0..51`` a card: the next card of the string being played, or the card named by a
    ``Judge(False, card)``; ``52`` play the string (1 to ``max_string`` cards, in the order
    chosen); ``53`` ``NoPlay()``; ``54`` ``BecomeProphet()``; ``55`` ``Pass()``; ``56``
    ``Judge(True)``; ``57`` ``Judge(False)`` (for a no-play: followed by the card named
    right, ``Judge(False, card)``).

Only the Haggis combination and the Eleusis string encodings are needed to make the
number of ids small: a single id per combination would need one per subset of cards.

**Bounds.**  :meth:`Encoding.max_game_length` counts player decisions (tokens, not chance
draws) and is derived from the rules in each encoding's docstring.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

from .. import aegis, eleusis, gunsore, haggis
from .._hotloops import (
    Deal,
    FirstTable,
    c_speedups,
    first_legal,
    first_step,
    hand_step,
    subset_root,
    subset_step,
)
from ..cards import Card, canonical, haggis_faces, haggis_number_cards, standard_deck, two_decks
from ..errors import CardRulesError, IllegalActionError
from ..protocol import CHANCE, GAMES, GameDef, Shuffle, game_of

__all__ = ["ENCODINGS", "Encoding", "Position", "encoding_for"]

_P = TypeVar("_P", bound="Position")
_COMPILED = c_speedups is not None


class Tree:
    """The legal actions of a state by their tokens: at each prefix of tokens, the next
    legal tokens, each to the action it completes (``None`` where it only extends the
    prefix).  Made from each action's first token (``heads``); the next token of the
    actions through a prefix (``codes(state, actions, k)``) is worked out only for the
    prefixes asked for.  A token is coded as itself where it ends its action and as
    ``~token`` where more tokens follow."""

    __slots__ = ("_codes", "_entries", "_levels", "_state", "root")

    def __init__(
        self,
        state: Any,
        actions: Sequence[Any],
        heads: list[int],
        codes: Callable[[Any, list[Any], int], list[int]],
    ) -> None:
        self._state = state
        self._codes = codes
        #: the legal tokens with nothing entered yet
        self.root = self._level(actions, heads)
        self._levels: dict[tuple[int, ...], dict[int, Any]] = {(): self.root}
        # the actions through a prefix, and the code of each one's next token
        self._entries: dict[tuple[int, ...], tuple[Sequence[Any], list[int]]] = {(): (actions, heads)}

    @staticmethod
    def _level(actions: Sequence[Any], codes: list[int]) -> dict[int, Any]:
        return {(c if c >= 0 else ~c): (a if c >= 0 else None) for c, a in zip(codes, actions, strict=True)}

    def get(self, prefix: tuple[int, ...]) -> dict[int, Any] | None:
        level = self._levels.get(prefix)
        if level is None:
            parent = self.get(prefix[:-1]) if prefix else None
            t = prefix[-1] if prefix else 0
            if parent is None or parent.get(t, 0) is not None:
                return None  # not a prefix of a legal action's tokens
            actions, codes = self._entries[prefix[:-1]]
            more = ~t
            through = [a for c, a in zip(codes, actions, strict=True) if c == more]
            codes = self._codes(self._state, through, len(prefix))
            self._entries[prefix] = (through, codes)
            level = self._levels[prefix] = self._level(through, codes)
        return level


class _SubsetTree(Tree):
    """The :class:`Tree` of a choice of any subset of a hand (distinct cards, in
    canonical order, ``ids`` their tokens, ascending, and ``end`` above them), each
    entered as its cards in that order then ``end``: the legal ids after a prefix are
    the cards after its last one, and ``end``.  ``actions`` are the subsets in
    ``itertools.combinations`` order by size (the empty one first), so the action a
    prefix completes is found by the places of its cards in the hand.  Works each level
    out from the hand alone, where :class:`Tree` would filter the actions."""

    __slots__ = ("_actions", "_end", "_ids", "root_legal")

    def __init__(self, actions: tuple[Any, ...], ids: list[int], end: int) -> None:
        self._actions = actions  # actions[0] is the empty choice
        self._ids = tuple(ids)
        self._end = end
        self.root = dict.fromkeys(ids)
        self.root[end] = actions[0]
        self.root_legal = [*ids, end]  # the root's ids, ascending

    def get(self, prefix: tuple[int, ...]) -> dict[int, Any] | None:
        if not prefix:
            return self.root
        found = self.step_at(prefix)
        return None if found is None else found[0]

    def step_at(self, prefix: tuple[int, ...]) -> tuple[dict[int, Any], list[int]] | None:
        """The level after ``prefix`` (not empty) and its ids ascending (the hand's ids
        ascend, and ``end`` is above them), or ``None`` if it is no legal prefix: one
        call (``subset_step``, in C with the C module).  (A level is asked for once per
        position, which keeps it: nothing is cached here.)"""
        return subset_step(self._ids, self._end, self._actions, prefix)


def _is_id(token: object, num_actions: int) -> bool:
    """Whether ``token`` is an integer (NumPy's included) in ``0 .. num_actions - 1``."""
    try:
        return 0 <= operator.index(token) < num_actions  # type: ignore[arg-type]
    except TypeError:
        return False


class Position:
    """A point of a game as the frameworks see it: the cardrules ``state``, the tokens
    the player to act has chosen so far (``pending``), and at a chance node the cards
    drawn so far (``dealt``) and how many of each alphabet card are left
    (``remaining``).  Treated as immutable: every step makes a new one (but for the
    private subclass an OpenSpiel state draws on in place during a deal, which it never
    hands out).  What the encoding derives from it (the player to act, the legal ids,
    the chance outcomes) is computed once and kept on it."""

    __slots__ = (
        "_deal", "_k", "_legal", "_outcomes", "_step", "_trie", "_who", "pending", "player_id", "state"
    )

    def __init__(
        self,
        state: Any,
        pending: tuple[int, ...] = (),
        dealt: tuple[Card, ...] = (),
        remaining: tuple[int, ...] | None = None,
        trie: Tree | None = None,
    ) -> None:
        self.state = state
        self.pending = pending
        self._trie = trie
        self._deal: Any = None  # a Deal at a chance node
        if remaining is not None:
            self._deal = Deal(_alphabet(state), remaining, _rows(state), dealt)
        self._k = len(dealt)
        self._who: Any = _UNSET  # Encoding.to_act
        self._step: dict[int, Any] | None = None  # the legal ids after ``pending``, to their action
        self._legal: list[int] | None = None  # the same ids, ascending
        self._outcomes: list[tuple[int, float]] | None = None
        #: the id of the player to act for a framework adapter: a player's number where
        #: the encoding made the position (both frameworks' id of it), else free for the
        #: adapter to keep its own
        self.player_id: int | None = None

    @property
    def dealt(self) -> tuple[Card, ...]:
        deal = self._deal
        return () if deal is None else tuple(deal.cards[: self._k])

    @property
    def remaining(self) -> tuple[int, ...] | None:
        deal = self._deal
        return None if deal is None else tuple(deal.counts_at(self._k))

    def __deepcopy__(self, memo: object) -> Position:
        return self  # immutable: OpenSpiel clones states with deepcopy

    def __copy__(self) -> Position:
        return self


class _Drawing(Position):
    """A chance position that draws in place (``Encoding._draw``): what a framework
    state that changes in place (OpenSpiel's) keeps during a deal, instead of a new
    position per card.  Never shared: a copy (``copy``, ``deepcopy``) is a new one at
    the same point (the cards drawn stay shared, as along any draw); :meth:`frozen` is
    the :class:`Position` it is at."""

    __slots__ = ()

    def __deepcopy__(self, memo: object) -> _Drawing:
        return _moved(self, _Drawing)

    def __copy__(self) -> _Drawing:
        return _moved(self, _Drawing)

    def frozen(self) -> Position:
        return _moved(self, Position)


_new = object.__new__

#: with the C module, a new Position is one call of the record maker (``new_record``):
#: the fields named, the others their defaults (``None``, ``()`` pending, ``0`` drawn),
#: where setting the ten slots one by one takes some 0.1 µs more a position
_POSITION_FIELDS = (
    "state", "pending", "_trie", "_deal", "_k", "_who", "_step", "_legal", "_outcomes", "player_id"
)
_POSITION: Any = None
if _COMPILED:
    _REQUIRED = object()
    _POSITION = c_speedups.record_layout(
        Position,
        tuple(Position.__dict__[name] for name in _POSITION_FIELDS),
        (_REQUIRED, (), None, None, 0, _REQUIRED, None, None, None, None),  # state and _who: required
        (None,) * len(_POSITION_FIELDS),
        _REQUIRED,
    )
    _new_position = c_speedups.new_record


def _position(state: Any, pending: tuple[int, ...], trie: Any, who: Any, player_id: int | None) -> Position:
    """``Position(state, pending, trie=trie)`` with ``_who`` and ``player_id`` kept,
    without the constructor (the same object the record maker makes)."""
    pos = _new(Position)
    pos.state = state
    pos.pending = pending
    pos._trie = trie
    pos._deal = None
    pos._k = 0
    pos._who = who
    pos._step = None
    pos._legal = None
    pos._outcomes = None
    pos.player_id = player_id
    return pos


def _moved(pos: Position, cls: type[_P]) -> _P:
    """A ``cls`` at the chance position ``pos`` (before the next draw: nothing derived)."""
    out: Any = _new(cls)
    out.state = pos.state
    out.pending = ()
    out._trie = None
    out._deal = pos._deal
    out._k = pos._k
    out._who = pos._who  # the same state, the same player
    out._step = None
    out._legal = None
    out._outcomes = pos._outcomes
    out.player_id = pos.player_id
    return out  # type: ignore[no-any-return]


_UNSET: Any = object()

# the chance outcome tables of the deals (see ``Deal``), by the size of the card alphabet
# (a table depends on that size, the cards left and the most copies of a card only)
_ROWS: dict[int, dict[int, tuple[tuple[int, float], ...]]] = {}
_ALPHABETS: dict[tuple[str, int], tuple[Card, ...]] = {}


def _alphabet(state: Any) -> tuple[Card, ...]:
    """The card alphabet of the encoding of ``state``'s game (for a :class:`Position`
    made with its deal's counts)."""
    name = game_of(state).name
    key = (name, int(state.players))
    cards = _ALPHABETS.get(key)
    if cards is None:
        cards = _ALPHABETS[key] = encoding_for(name, state.rules, state.players).cards
    return cards


def _rows(state: Any) -> dict[int, tuple[tuple[int, float], ...]]:
    return _ROWS.setdefault(len(_alphabet(state)), {})


class Encoding:
    """A game's integer actions and chance outcomes (see the module docstring)."""

    name: ClassVar[str]
    #: whether :meth:`truncated` can be true (the adapter may end a game early)
    _truncates: ClassVar[bool] = False
    #: a ``state.phase`` whose legal actions are never all interned (:meth:`_legal`
    #: goes straight to :meth:`_step` there)
    _tree_phase: ClassVar[str | None] = None

    def __init__(self, rules: Any, players: int) -> None:
        self.game: GameDef[Any, Any] = GAMES[self.name]
        self.rules = rules
        self.players = players
        self.cards: tuple[Card, ...] = self._alphabet()
        self.card_id: dict[Card, int] = {c: i for i, c in enumerate(self.cards)}
        self._legal_of: Callable[[Any], Sequence[Any]] = self.game._legal  # legal_actions, one call less
        self._apply: Callable[[Any, Any], Any] = self.game.apply  # GameDef.apply, bound once
        self.num_actions = self._num_actions()
        self._rows = _ROWS.setdefault(len(self.cards), {})  # outcome tables, by the cards left
        self._deal_starts: dict[tuple[Card, ...], list[int]] = {}  # a deal's counts, by its cards
        # the first token of each action the game interns, and the action it completes
        # (None if more tokens follow), by the object's id (the game module keeps the
        # objects alive, so an id is never reused): a position where every legal action
        # is one of them finds its first tokens without going through their types
        firsts = self._interned_firsts()
        self._first_token: dict[int, int] = {id(a): t for a, t, _ in firsts}
        self._first_pair: dict[int, tuple[int, Any]] = {
            id(a): (t, a if ends else None) for a, t, ends in firsts
        }
        self._firsts_end = all(ends for _, _, ends in firsts)
        # the same pairs by the objects themselves, for first_legal (no id to make per action)
        self._first_table = FirstTable([(a, t, a if ends else None) for a, t, ends in firsts])

    def __deepcopy__(self, memo: object) -> Encoding:
        return self  # fixed for its game, rules and players

    # -- what each game says ----------------------------------------------------------

    def _alphabet(self) -> tuple[Card, ...]:
        return standard_deck()

    def _num_actions(self) -> int:
        raise NotImplementedError

    def _interned_firsts(self) -> list[tuple[Any, int, bool]]:
        """The actions the game module interns (``legal_actions`` returns those very
        objects), each with its first token and whether that token ends it."""
        return []

    def _first_step(self, actions: Sequence[Any]) -> dict[int, Any] | None:
        """The first tokens of ``actions``, each to the action it completes (``None``
        where more tokens follow), if every one of them is an interned action."""
        if _COMPILED:  # one C loop
            return first_step(actions, self._first_pair)
        # (measured here: a comprehension with one lookup, or dict() of looked-up pairs,
        # is cheaper than dict(zip(map(...))) or a comprehension with two lookups; the
        # same results as _hotloops.first_step_py)
        if self._firsts_end:  # every interned action is one token
            token_of: Callable[[int], int | None] = self._first_token.get
            found = {token_of(id(a)): a for a in actions}
            return None if None in found else found  # type: ignore[return-value]
        try:
            return dict(map(self._first_pair.__getitem__, map(id, actions)))
        except KeyError:  # not an interned action
            return None

    def _pending_legal(self, pos: Position) -> tuple[dict[int, Any], list[int]] | None:
        """The step after ``pos.pending`` (not empty) and its ids ascending, where the
        game works them out without a tree (an Eleusis string); ``None`` otherwise."""
        return None

    def _tree_legal(self, pos: Position) -> list[int] | None:
        """At a player's position of :attr:`_tree_phase` with nothing pending and
        nothing worked out yet: its legal ids ascending (the tree, the step and the ids
        kept on it, as :meth:`_legal` would), or ``None`` where the game has no such
        shortcut (then :meth:`_legal` works them out)."""
        return None

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        """The token ids that enter ``action`` (a legal action of ``state``)."""
        raise NotImplementedError

    def _legal_tokens_of(self, state: Any, action: Any) -> tuple[int, ...]:
        """:meth:`tokens` of an action as ``legal_actions`` gives it (its cards in
        canonical order already)."""
        return self.tokens(state, action)

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        """The first token of each of ``actions`` (legal at ``state``), as ``~token`` when
        more tokens follow."""
        return self._codes_at(state, actions, 0)

    def _codes_at(self, state: Any, actions: Sequence[Any], k: int) -> list[int]:
        """The token at ``k`` of each of ``actions`` (legal at ``state``, with more than
        ``k`` tokens), as ``~token`` when more tokens follow."""
        tokens = [self._legal_tokens_of(state, a) for a in actions]
        return [t[k] if len(t) == k + 1 else ~t[k] for t in tokens]

    def token_name(self, token: int) -> str:
        """The meaning of a token id on its own (the same in every state)."""
        raise NotImplementedError

    def max_game_length(self) -> int:
        """An upper bound on the number of player decisions (tokens) in a game."""
        raise NotImplementedError

    def utility_bounds(self) -> tuple[float, float]:
        """The lowest and highest final score a player can have."""
        raise NotImplementedError

    def truncated(self, state: Any) -> bool:
        """True where the adapter ends a game the rules would go on with (Haggis only)."""
        return False

    # -- the shared machinery ---------------------------------------------------------

    def initial(self, seed: object = None) -> Position:
        return self.enter(self.game.new_game(self.rules, players=self.players, seed=seed))

    def enter(self, state: Any) -> Position:
        """The position at a cardrules ``state`` with nothing pending."""
        # to_act, without the call (every framework asks at once)
        who = state.to_act
        if state.is_over or (self._truncates and self.truncated(state)):
            kept = player = None
        else:
            kept = who
            # a player's number is its id in both frameworks: kept at once, so that the
            # OpenSpiel state's first current_player() has nothing to work out
            player = who if type(who) is int else None
        # Position(state), without the call
        pos: Position
        if _POSITION is not None:
            pos = _new_position(_POSITION, state=state, _who=kept, player_id=player)
        else:
            pos = _position(state, (), None, kept, player)
        if who is CHANCE:
            cards = tuple(self.game.chance_cards(state))
            counts = self._deal_starts.get(cards)
            if counts is None:  # the deck of a deal, by its cards (most deals deal the same)
                counts = [0] * len(self.cards)
                for c in cards:
                    counts[self.card_id[c]] += 1
                if len(self._deal_starts) >= 64:
                    self._deal_starts.clear()
                self._deal_starts[cards] = counts
            pos._deal = Deal(self.cards, counts, self._rows)
        return pos

    def is_terminal(self, pos: Position) -> bool:
        return self.to_act(pos) is None

    def to_act(self, pos: Position) -> Any:
        """The player to act, :data:`CHANCE`, or ``None`` at the end."""
        who = pos._who
        if who is _UNSET:
            state = pos.state
            who = pos._who = (
                None if state.is_over or (self._truncates and self.truncated(state)) else state.to_act
            )
        return who

    def chance_outcomes(self, pos: Position) -> list[tuple[int, float]]:
        return list(self._chance_outcomes(pos))

    def _chance_outcomes(self, pos: Position) -> list[tuple[int, float]]:
        """:meth:`chance_outcomes`, kept on the position (not to be changed)."""
        out = pos._outcomes
        if out is None:
            deal = pos._deal
            assert deal is not None
            k = pos._k
            out = deal.outcomes(k)  # kept on the deal until its next draw
            if out is None:  # a position behind its deal's last card: from its own counts
                out = Deal(self.cards, deal.counts_at(k), self._rows).outcomes(0)
            pos._outcomes = out
        return out

    def trie(self, pos: Position) -> Tree:
        """The legal actions at ``pos`` by their tokens (a player's node)."""
        tree = pos._trie
        if tree is None:
            state = pos.state
            actions = self._legal_of(state)
            tree = pos._trie = Tree(state, actions, self._heads(state, actions), self._codes_at)
        return tree

    def _next(self, pos: Position) -> dict[int, Any] | None:
        """The legal ids after ``pos.pending``, each to the action it completes
        (``None`` where it only extends the pending tokens)."""
        return self.trie(pos).get(pos.pending)

    def _step(self, pos: Position) -> dict[int, Any]:
        """:meth:`_next` (``{}`` where nothing is legal), kept on the position."""
        step = pos._step
        if step is None:
            pending = pos.pending
            if pending:  # the tree the first token was read from, if one was made (_next's)
                tree = pos._trie
                step = (self._next(pos) if tree is None else tree.get(pending)) or {}
            elif pos._trie is not None:
                step = pos._trie.root
            else:  # where every action is one token, no tree is needed
                state = pos.state
                actions = self._legal_of(state)
                found = self._first_step(actions) if self._first_token else None
                if found is not None:  # (a tree, if one is needed, is made at the next token)
                    pos._step = found
                    return found
                heads = self._heads(state, actions)
                if heads and min(heads) < 0:
                    tree = pos._trie = Tree(state, actions, heads, self._codes_at)
                    step = tree.root
                else:
                    step = dict(zip(heads, actions, strict=True))
            pos._step = step
        return step

    def _legal(self, pos: Position) -> list[int]:
        """:meth:`legal_tokens`, kept on the position (not to be changed)."""
        legal = pos._legal
        if legal is None:
            step = pos._step
            if step is None and not pos.pending and pos._trie is None and self._first_pair:
                state = pos.state
                if self._tree_phase is None or state.phase != self._tree_phase:
                    # every legal action interned (the common case): the first tokens and
                    # the legal ids in one call (one C loop with the C module)
                    found = first_legal(self._legal_of(state), self._first_table)
                    if found is not None:
                        pos._step, legal = found
                        pos._legal = legal
                        return legal
                    # (not all interned: _step works it out, asking for the actions again)
                else:  # a tree from the start (an Aegis exchange): its root's ids
                    legal = self._tree_legal(pos)
                    if legal is not None:
                        return legal
                    step = self._step(pos)
                    made: Tree | None = pos._trie  # (made by _step)
                    if type(made) is _SubsetTree:  # every subset of a hand: ascending already
                        legal = pos._legal = made.root_legal
                        return legal
            elif step is None and pos.pending:  # an action under way
                tree = pos._trie
                found = (  # (an exchange under way: _SubsetTree.step_at, inline)
                    subset_step(tree._ids, tree._end, tree._actions, pos.pending)
                    if type(tree) is _SubsetTree
                    else self._pending_legal(pos)
                )
                if found is not None:
                    pos._step, legal = found
                    pos._legal = legal
                    return legal
            legal = pos._legal = sorted(self._step(pos) if step is None else step)
        return legal

    def legal_tokens(self, pos: Position) -> list[int]:
        """The legal token ids at ``pos`` (a player's node), ascending."""
        return list(self._legal(pos))

    def completes(self, pos: Position, token: int) -> Any:
        """The action ``token`` completes at ``pos``, ``None`` if it only extends the
        pending tokens; :class:`IllegalActionError` if it is not legal there."""
        step = self._step(pos)
        if token not in step:
            if not _is_id(token, self.num_actions):
                why = f"{token!r} is not an action id of this game (0 to {self.num_actions - 1})"
            else:
                why = f"action id {token} ({self.token_name(token)}) is not legal here"
            raise IllegalActionError(f"{self.name}: {why}")
        return step[token]

    def apply(self, pos: Position, token: int) -> Position:
        """The position after chance outcome or player token ``token``."""
        state = pos.state
        if pos._deal is not None:  # a chance node: draw one card
            out = _moved(pos, Position)
            done = self._draw(out, token)
            return out if done is None else done
        if state.to_act is CHANCE:
            raise AssertionError("a chance node without its deal")
        step = pos._step
        if step is None:
            step = self._step(pos)
        action = step.get(token, _UNSET)
        if action is None:
            return self._extend(pos, token)
        if action is _UNSET:
            self.completes(pos, token)  # raises
        return self.enter(self._apply(state, action))

    def _extend(self, pos: Position, token: int) -> Position:
        """``Position(pos.state, (*pos.pending, token), trie=pos._trie)``, with the same
        player, without the call: the position after ``token``, which ``pos``'s step
        says only extends the pending tokens (the adapters call it straight from their
        step when they looked the token up themselves)."""
        # a pending token is kept: a plain int, whatever integer type the caller used
        # (a concatenation: some 15 ns less than (*pending, token), which goes through a list)
        pending = pos.pending + (token if type(token) is int else self._plain_id(token),)  # noqa: RUF005
        if _POSITION is not None:
            return _new_position(  # type: ignore[no-any-return]
                _POSITION,
                state=pos.state,
                pending=pending,
                _trie=pos._trie,
                _who=pos._who,
                player_id=pos.player_id,
            )
        return _position(pos.state, pending, pos._trie, pos._who, pos.player_id)

    def _plain_id(self, token: object) -> int:
        if not _is_id(token, self.num_actions) or isinstance(token, float):
            raise IllegalActionError(f"{self.name}: {token!r} is not an action id of this game")
        return operator.index(token)  # type: ignore[arg-type]

    def _draw(self, pos: Position, token: int) -> Position | None:
        """Draw the card ``token`` at the chance position ``pos``, which changes in
        place to the next one (a new one of the caller's, or a :class:`_Drawing`); when
        the card completes the deal, ``pos`` is left as it was and the position after
        the ``Shuffle`` is returned."""
        deal = pos._deal
        assert deal is not None
        k = pos._k
        if not deal.draw(k, token):  # (in place: at the deal's end, not its last card)
            if k != deal.drawn:  # a position behind the last one of its deal: draw on a copy
                deal = pos._deal = Deal(self.cards, deal.counts_at(k), self._rows, deal.cards[:k])
            if deal.left == 1:  # the deal is complete
                if not _is_id(token, len(self.cards)) or not deal.counts[operator.index(token)]:
                    raise IllegalActionError(f"{self.name}: chance outcome {token} is not possible here")
                # apply() checks the order like any Shuffle's (one path for every action)
                order = Shuffle((*deal.cards, self.cards[operator.index(token)]))
                return self.enter(self.game.apply(pos.state, order))
            if not deal.draw(k, token):
                raise IllegalActionError(f"{self.name}: chance outcome {token} is not possible here")
        pos._k = k + 1
        pos._outcomes = None
        return None

    def action_string(self, pos: Position, token: int) -> str:
        """``str(action)`` when ``token`` completes an action at ``pos``; the chance draw
        ``deal <card>``; otherwise the token's own name."""
        if pos.state.to_act is CHANCE:
            return f"deal {self.cards[token]}" if 0 <= token < len(self.cards) else f"chance {token}"
        if not _is_id(token, self.num_actions):
            return f"action {token!r}"  # no action of this game: apply() says so when tried
        if not self.is_terminal(pos):
            action = self._step(pos).get(token)
            if action is not None:
                return str(action)
        return self.token_name(token)

    def action_tokens(self, state: Any, actions: Sequence[Any]) -> list[int]:
        """The token ids (chance draws included) that reach the state after ``actions``
        from ``state``: how a cardrules history is entered through a framework."""
        out: list[int] = []
        for action in actions:
            if isinstance(action, Shuffle):
                out.extend(self.card_id[c] for c in action.order)
            else:
                out.extend(self.tokens(state, action))
            state = self.game.apply(state, action)
        return out

    def card_name(self, token: int) -> str:
        return str(self.cards[token])


# ------------------------------------------------------------------------------ aegis


class AegisEncoding(Encoding):
    """Aegis.  Ids: ``0..51`` choose a card to exchange, ``52`` exchange (or keep),
    ``53..57`` bids, ``58..109`` plays.

    **Game length.**  Every season scores at least one point (a break scores the
    attacker's bid, a keep gives the attacker's bid to the defender; bids are 1 or more).
    The game ends after the first season that leaves a player on ``target`` or more, so
    before the last season the two scores add up to at most ``2 (target - 1)``: at most
    ``2 target - 1`` seasons.  A season takes at most ``max_exchanges`` rounds of two
    exchanges of at most five cards (six tokens each), two bids and ten cards played.

    **Utilities.**  Scores start at 0 and never fall; a season gives one player at most
    ``5 + 1 + 1`` (bid, promise, conquest), and the last season starts with both below
    ``target``: the highest final score is ``target - 1 + 7``.
    """

    name = "aegis"
    EXCHANGE, BID, PLAY = 52, 53, 58
    _tree_phase = "exchange"  # every subset of the hand: a subset tree

    def _num_actions(self) -> int:
        return 110

    def _interned_firsts(self) -> list[tuple[Any, int, bool]]:
        cid = self.card_id
        plays = [(a, self.PLAY + cid[c], True) for c, a in aegis.rules._PLAYS.items()]
        bids = [(b, self.BID + b.n - 1, True) for b in aegis.rules._BIDS]
        return [*plays, *bids, (aegis.rules._KEEP, self.EXCHANGE, True)]

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        kind = type(action).__name__
        if kind == "Exchange":
            return (*(self.card_id[c] for c in canonical(action.cards)), self.EXCHANGE)
        if kind == "Bid":
            return (self.BID + action.n - 1,)
        return (self.PLAY + self.card_id[action.card],)

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        cid, play, bid = self.card_id, self.PLAY, self.BID - 1
        Play, Bid = aegis.Play, aegis.Bid
        return [
            play + cid[a.card] if type(a) is Play
            else bid + a.n if type(a) is Bid
            else ~cid[a.cards[0]] if a.cards
            else self.EXCHANGE
            for a in actions
        ]

    def _subset_tree(self, state: Any, actions: Sequence[Any]) -> _SubsetTree | None:
        """The subset tree of an exchange (``actions`` its legal actions, the player
        to act a player) where every subset of the hand is legal, else ``None``."""
        # every subset of the hand (distinct cards), the empty one first and the whole
        # hand last (in combinations order, as legal_actions gives them), the hand's ids
        # ascending (a canonical hand, as _SubsetTree needs): a subset tree, its parts
        # made in one call (subset_root, in C with the C module)
        found = subset_root(state.hands[state.to_act], self.card_id, actions, self.EXCHANGE)
        if found is None:
            return None
        # _SubsetTree(actions, ids, end), without the call (every exchange makes one)
        tree: Any = _new(_SubsetTree)
        tree._actions, tree._ids, tree.root, tree.root_legal = found
        tree._end = self.EXCHANGE
        return tree  # type: ignore[no-any-return]

    def _tree_legal(self, pos: Position) -> list[int] | None:
        # the first token of an exchange: the tree and its root's ids, without going
        # through _step and trie (one legal_actions call, as they make)
        state = pos.state
        if type(state.to_act) is not int:
            return None
        actions = self._legal_of(state)
        tree: Tree | None = self._subset_tree(state, actions)
        if tree is None:  # not every subset legal: the general tree, as trie makes it
            tree = Tree(state, actions, self._heads(state, actions), self._codes_at)
            legal = sorted(tree.root)
        else:
            legal = tree.root_legal  # type: ignore[attr-defined]
        pos._trie = tree
        pos._step = tree.root
        pos._legal = legal
        return legal

    def trie(self, pos: Position) -> Tree:
        tree = pos._trie
        if tree is None:
            state = pos.state
            if state.phase == "exchange" and type(state.to_act) is int:
                subset = self._subset_tree(state, self._legal_of(state))
                if subset is not None:
                    pos._trie = subset
                    return subset
            tree = super().trie(pos)
        return tree

    def _step(self, pos: Position) -> dict[int, Any]:
        step = pos._step
        if step is None:
            if pos._trie is None and not pos.pending and pos.state.phase == "exchange":
                step = pos._step = self.trie(pos).root
            else:
                step = Encoding._step(self, pos)  # (super() makes an object per call)
        return step

    def _codes_at(self, state: Any, actions: Sequence[Any], k: int) -> list[int]:
        if not k:
            return self._heads(state, actions)
        cid, end = self.card_id, self.EXCHANGE  # beyond the first token: exchanges only
        return [~cid[a.cards[k]] if k < len(a.cards) else end for a in actions]

    def _legal_tokens_of(self, state: Any, action: Any) -> tuple[int, ...]:
        kind = type(action).__name__
        if kind == "Play":
            return (self.PLAY + self.card_id[action.card],)
        if kind == "Exchange":
            return (*map(self.card_id.__getitem__, action.cards), self.EXCHANGE)
        return (self.BID + action.n - 1,)

    def token_name(self, token: int) -> str:
        if token < 52:
            return f"+{self.cards[token]}"
        if token == self.EXCHANGE:
            return "exchange"
        if token < self.PLAY:
            return f"bid {token - self.BID + 1}"
        return f"play {self.cards[token - self.PLAY]}"

    def max_game_length(self) -> int:
        seasons = 2 * int(self.rules.target) - 1
        return seasons * (int(self.rules.max_exchanges) * 2 * 6 + 2 + 10)

    def utility_bounds(self) -> tuple[float, float]:
        return 0.0, float(self.rules.target - 1 + 7)


# ---------------------------------------------------------------------------- gunsore


class GunsoreEncoding(Encoding):
    """Gunsore.  Ids: ``0..52`` play a card (the 52 cards, then the joker), ``53``
    declare war.

    **Game length.**  Every card of the decks is played exactly once (the game ends when
    the stock and both hands are empty): ``53 decks`` plays.  War is declared at most once
    a season and every season has at least one trick (two cards): at most ``53 decks / 2``
    declarations.

    **Utilities.**  Each card's points go once to one pool, and pools go to scores: a
    player's final score lies between the sum over every card of its lowest value
    (development or war, if negative) and the sum of its highest.
    """

    name = "gunsore"

    def _alphabet(self) -> tuple[Card, ...]:
        return canonical(set(two_decks(jokers=1)))

    def _num_actions(self) -> int:
        return len(self.cards) + 1

    def _interned_firsts(self) -> list[tuple[Any, int, bool]]:
        cid = self.card_id
        plays = [(a, cid[c], True) for c, a in gunsore.rules._PLAY.items()]
        return [*plays, (gunsore.rules._DECLARE, len(self.cards), True)]

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        if type(action).__name__ == "DeclareWar":
            return (len(self.cards),)
        return (self.card_id[action.card],)

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        cid, war, Play = self.card_id, len(self.cards), gunsore.Play
        return [cid[a.card] if type(a) is Play else war for a in actions]

    def token_name(self, token: int) -> str:
        return "declare war" if token == len(self.cards) else str(self.cards[token])

    def _deck(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards for _ in range(self.rules.decks))

    def max_game_length(self) -> int:
        n = len(self._deck())
        return n + n // 2

    def utility_bounds(self) -> tuple[float, float]:
        dev, war = self.rules.points_development, self.rules.points_war
        lo = hi = 0
        for card in self._deck():
            values = (dev[card.rank], war[card.rank])
            lo += min(0, *values)
            hi += max(0, *values)
        return float(lo), float(hi)


# ----------------------------------------------------------------------------- haggis


class HaggisEncoding(Encoding):
    """Haggis.  Ids: the cards of a combination (number cards in play, then J, Q, K),
    then ``set``, ``bomb``, the sequences by width and top rank, ``Pass()``, the bets,
    and (3 players choosing who takes a bombed trick) ``GiveTrick(p)``.

    **Game length.**  The rules let a tie at the top play another hand, again and again:
    a Haggis game has no length limit.  OpenSpiel needs one, so the adapter ends a game
    after ``max_hands`` hands (the ``max_hands`` parameter; by default the most hands a
    game without a tie at the top can take, plus ten).  That most: every hand hands out at
    least the points of all cards (``P``: 16 number points + 10 per player's faces with
    two players, 20 + 30 with three), scores never fall, and the game ends after the first
    hand that leaves a player strictly ahead on ``target`` or more: at most
    ``n (target - 1) // P + 1`` hands.  Within a hand at most ``17 n`` cards are played,
    in at most ``17 n`` combinations, each followed by at most ``n - 1`` passes and one
    ``GiveTrick``; each player bets at most once.

    **Utilities.**  A player gains at most ``G = P + 85 + n max(bets) + first_out_bonus``
    in a hand (every card's points, 5 per card of a 17-card hand, its bet and the others'
    lost bets); it has less than ``target`` before the hand in which someone reaches it.
    """

    name = "haggis"
    _truncates = True
    extra_hands = 10

    def __init__(self, rules: Any, players: int, max_hands: int | None = None) -> None:
        super().__init__(rules, players)
        self.max_hands = max_hands if max_hands is not None else self.base_hands() + self.extra_hands

    def _alphabet(self) -> tuple[Card, ...]:
        return (*haggis_number_cards(5 if self.players == 3 else 4), *haggis_faces())

    @property
    def width_max(self) -> int:
        return 5 if self.players == 3 else 4

    def _num_actions(self) -> int:
        a = len(self.cards)
        self.SET, self.BOMB = a, a + 1
        self.seq: dict[tuple[int, int], int] = {}
        i = a + 2
        for w in range(1, self.width_max + 1):
            for top in range(4 if w == 1 else 3, 14):
                self.seq[w, top] = i
                i += 1
        self.seq_name = {v: k for k, v in self.seq.items()}
        self.PASS = i
        self.bet_id = {amount: i + 1 + k for k, amount in enumerate(self.rules.bets)}
        i += 1 + len(self.rules.bets)
        self.GIVE = i
        if self.players == 3 and self.rules.bomb_trick == "choose":
            i += self.players
        return i

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        kind = type(action).__name__
        if kind == "Play":
            combo = action.combo
            return (*map(self.card_id.__getitem__, combo.cards), self._declaration(combo))
        if kind == "Pass":
            return (self.PASS,)
        if kind == "Bet":
            return (self.bet_id[action.amount],)
        return (self.GIVE + action.player,)

    def _codes_at(self, state: Any, actions: Sequence[Any], k: int) -> list[int]:
        if not k:
            return self._heads(state, actions)
        cid, last = self.card_id, self._declaration  # beyond the first token: plays only
        return [~cid[c[k]] if k < len(c) else last(a.combo) for a in actions for c in (a.combo.cards,)]

    def _declaration(self, combo: Any) -> int:
        kind = combo.kind
        if kind == "set":
            return self.SET
        return self.BOMB if kind == "bomb" else self.seq[combo.width, combo.rank]

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        cid, Play, tokens = self.card_id, haggis.Play, self.tokens
        return [~cid[a.combo.cards[0]] if type(a) is Play else tokens(state, a)[0] for a in actions]

    def token_name(self, token: int) -> str:
        if token < len(self.cards):
            return f"+{self.cards[token]}"
        if token == self.SET:
            return "as a set"
        if token == self.BOMB:
            return "as a bomb"
        if token in self.seq_name:
            w, top = self.seq_name[token]
            return f"as a sequence of width {w} to {top}"
        if token == self.PASS:
            return "pass"
        for amount, i in self.bet_id.items():
            if i == token:
                return f"bet {amount}"
        return f"give the trick to player {token - self.GIVE}"

    def card_points(self) -> int:
        numbers = sum(1 for c in self.cards if c.suit is not None and c.rank in (3, 5, 7, 9))
        return int(numbers + 10 * self.players)

    def base_hands(self) -> int:
        return int(self.players * (self.rules.target - 1) // self.card_points() + 1)

    def max_game_length(self) -> int:
        n = self.players
        cards = 17 * n
        per_hand = cards + cards * (1 + (n - 1) + 1) + n
        return int(self.max_hands * per_hand)

    def utility_bounds(self) -> tuple[float, float]:
        n = self.players
        gain = self.card_points() + 5 * 17 + n * max(self.rules.bets, default=0) + self.rules.first_out_bonus
        hands_after = max(1, self.max_hands - self.base_hands() + 1)
        return 0.0, float(self.rules.target - 1 + hands_after * gain)

    def truncated(self, state: Any) -> bool:
        return bool(state.hand_number >= self.max_hands and state.to_act is CHANCE and not state.is_over)


# ---------------------------------------------------------------------------- eleusis


class EleusisEncoding(Encoding):
    """New Eleusis.  Ids: ``0..51`` a card, ``52`` play the string chosen, ``53`` no
    play, ``54`` become prophet, ``55`` pass, ``56`` judge right, ``57`` judge wrong
    (then the card that was right).

    **Game length.**  Write ``S`` for the scientists, ``T``/``Tp`` for the sudden-death
    counts, ``m`` for ``max_string``.  A play (or a wrong no-play) counts at least one
    card, and the count never falls: outside sudden death there are at most
    ``N = T + S Tp`` of them (``T`` without a prophet, ``Tp`` per prophet, and each
    scientist is prophet at most once a round); each adds at most
    ``K = max(penalty m, no_play_penalty)`` cards to a hand, and each of at most ``S``
    overthrows adds ``overthrow_penalty``.  So scientists' hands never hold more than
    ``H = hand_size S + N K + S overthrow_penalty`` cards in all.  Every other turn
    removes a card from a hand (a right play, a correct no-play), expels a scientist, or
    overthrows a prophet: at most ``N + H + 2 S`` turns.  A turn takes at most ``m + 1``
    tokens, one prophet offer and two judging tokens.

    **Utilities.**  A scientist scores at most the high count (``H``) plus 4, and a
    prophet 2 per card played (at most ``m`` per turn); God scores no more than the best
    scientist.
    """

    name = "eleusis"
    END, NOPLAY, PROPHET, PASS, RIGHT, WRONG = 52, 53, 54, 55, 56, 57

    def __init__(self, rules: Any, players: int) -> None:
        super().__init__(rules, players)
        self._one_card: dict[int, Any] = {}  # Play((card,)) by card id

    def _num_actions(self) -> int:
        return 58

    def _interned_firsts(self) -> list[tuple[Any, int, bool]]:
        cid, e = self.card_id, eleusis.rules
        plays = [(a, cid[c], False) for c, a in e._PLAY1.items()]  # a card, then the string goes on
        names = [(a, self.WRONG, False) for a in e._NAMES.values()]  # judge wrong, then the card
        singles = [(e._NOPLAY, self.NOPLAY), (e._BECOME, self.PROPHET), (e._PASS, self.PASS)]
        judged = [(e._RIGHT, self.RIGHT), (e._WRONG, self.WRONG)]
        return [*plays, *names, *((a, t, True) for a, t in (*singles, *judged))]

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        kind = type(action).__name__
        if kind == "Play":
            return (*(self.card_id[c] for c in action.cards), self.END)
        if kind == "NoPlay":
            return (self.NOPLAY,)
        if kind == "BecomeProphet":
            return (self.PROPHET,)
        if kind == "Pass":
            return (self.PASS,)
        if action.right:
            return (self.RIGHT,)
        if action.card is None:  # a play judged wrong
            return (self.WRONG,)
        return (self.WRONG, self.card_id[action.card])

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        cid, Play, Judge, tokens = self.card_id, eleusis.Play, eleusis.Judge, self.tokens
        NoPlay, BecomeProphet, Pass = eleusis.NoPlay, eleusis.BecomeProphet, eleusis.Pass
        return [
            ~cid[a.cards[0]] if type(a) is Play
            else self.NOPLAY if type(a) is NoPlay
            else self.PROPHET if type(a) is BecomeProphet
            else self.PASS if type(a) is Pass
            else (self.RIGHT if a.right else self.WRONG if a.card is None else ~self.WRONG)
            if type(a) is Judge
            else tokens(state, a)[0]
            for a in actions
        ]

    def _step(self, pos: Position) -> dict[int, Any]:
        step = pos._step
        if step is None and not pos.pending and pos._trie is None:
            # the first token of every action, without a tree: the tokens after a card
            # (a string) come from the hand, and a tree is made only after ``judge wrong``
            state = pos.state
            actions = self._legal_of(state)
            found = self._first_step(actions)
            step = pos._step = found if found is not None else {
                (c if c >= 0 else ~c): (a if c >= 0 else None)
                for c, a in zip(self._heads(state, actions), actions, strict=True)
            }
            return step
        if step is None and pos.pending:  # always through _next: a string's tokens come from the hand
            step = pos._step = self._next(pos) or {}
            return step
        return step if step is not None else Encoding._step(self, pos)

    def token_name(self, token: int) -> str:
        if token < 52:
            return f"+{self.cards[token]}"
        return {52: "play", 53: "no play", 54: "become prophet", 55: "pass", 56: "judge right"}.get(
            token, "judge wrong"
        )

    def _string_step(self, pos: Position) -> tuple[dict[int, Any], list[int]] | None:
        """After the first card of a play: the string may go on (any card left in the
        hand, up to ``max_string``) or be played; the step and its ids, ascending."""
        pending = pos.pending
        if not pending or pending[0] >= 52:
            return None
        state = pos.state
        if len(pending) == 1:  # a one-card play: made once per card (a value, the same each time)
            play = self._one_card.get(pending[0])
            if play is None:
                play = self._one_card[pending[0]] = eleusis.Play((self.cards[pending[0]],))
        else:
            play = eleusis.Play(tuple(map(self.cards.__getitem__, pending)))
        if len(pending) < self.rules.max_string:
            # the hand's ids ascending, less the pending ones, each once, then END (above
            # every card id): one call (in C with the C module)
            return hand_step(self.card_id, state.hands[state.to_act], pending, self.END, play)
        return {self.END: play}, [self.END]

    def _pending_legal(self, pos: Position) -> tuple[dict[int, Any], list[int]] | None:
        return self._string_step(pos)

    def _next(self, pos: Position) -> dict[int, Any] | None:
        found = self._string_step(pos)
        return super()._next(pos) if found is None else found[0]

    def _bounds(self) -> tuple[int, int]:
        r = self.rules
        s = self.players - 1
        prophets = s if r.prophets else 0
        n = r.sudden_death + prophets * r.sudden_death_prophet
        k = max(r.penalty * r.max_string, r.no_play_penalty)
        h = r.hand_size * s + n * k + prophets * r.overthrow_penalty
        turns = n + h + 2 * s
        return turns, h

    def max_game_length(self) -> int:
        turns, _ = self._bounds()
        return int(turns * (self.rules.max_string + 1 + 1 + 2))

    def utility_bounds(self) -> tuple[float, float]:
        turns, h = self._bounds()
        return 0.0, float(h + 4 + 2 * self.rules.max_string * turns)


ENCODINGS: dict[str, type[Encoding]] = {
    "aegis": AegisEncoding,
    "gunsore": GunsoreEncoding,
    "haggis": HaggisEncoding,
    "eleusis": EleusisEncoding,
}


def encoding_for(name: str, rules: Any = None, players: int | None = None, **extra: Any) -> Encoding:
    """The :class:`Encoding` of game ``name`` for ``rules`` and ``players`` (defaults:
    the game's own)."""
    if name not in ENCODINGS:
        raise CardRulesError(f"no integer encoding for game {name!r} (games: {', '.join(ENCODINGS)})")
    game = GAMES[name]
    if rules is None:
        rules = game.Rules()
    n = game._players(players)
    return ENCODINGS[name](rules, n, **extra)
