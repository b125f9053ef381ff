"""Integer actions and observation blocks for any cardrules game, without a framework.

Frameworks for game AI (OpenSpiel, PettingZoo) want each action to be a small integer
that means the same thing in every state, a chance node to be one random draw over a
few outcomes, and an observation to be a fixed-size vector of numbers.  An
:class:`Encoding` says all of that for one game, once for every framework, and imports
neither a framework nor NumPy (the adapters turn it
into their own objects: ``cardrules.integrations``).

**Chance, card by card.**  A cardrules chance node (a :class:`~cardrules.Shuffle` of
``n`` cards) becomes ``n`` chance nodes: each draws the next card of the order,
uniformly over the cards not yet drawn (equal cards of a two-deck game are one outcome
with the summed probability).  The outcome id is the card's index in the game's card
alphabet (``Encoding.cards``).  When the last card is drawn the ``Shuffle`` of the
drawn order is applied, so any stacked deal is reachable.

**Composite actions as token sequences.**  An action that chooses several cards may be
entered as a short sequence of tokens by the same player (each token id has one meaning
in every state); :attr:`Position.pending` holds the tokens chosen so far, and the legal
actions by their tokens are a :class:`Tree` (module ``cardrules.tokentree``).

**Observation blocks.**  :meth:`Encoding.blocks` describes the readable part of the
observation vector as plain data: :class:`Block` ``(name, kind, size, get)``, where
``get(view)`` reads the value from a player's view and ``kind`` (one of :data:`KINDS`)
says how it becomes numbers.  After them come ``pending`` (the tokens chosen so far,
plus one) and ``view`` (the whole view as a prefix-free code of integers,
:func:`view_code`, module ``cardrules.viewcode``).

This module holds the encodings; the two ideas they use, the token tree and the view's
code, have modules of their own, re-exported here.

**A game of one's own.**  A game defined with :class:`~cardrules.GameDef` outside the
package runs in both adapters once its ``GameDef`` has an encoding
(``GameDef(encoding=...)``, a subclass of :class:`Encoding`): :class:`FlatEncoding` needs
only the list of every action the game can have (one id each), and derives the
observation blocks from the view's fields.
"""

from __future__ import annotations

import operator
import types
import typing
from collections.abc import Callable, Sequence
from itertools import compress, repeat
from operator import truediv
from typing import Any, ClassVar, NamedTuple

import attrs

from .cards import Card, canonical
from .errors import CardRulesError, IllegalActionError
from .protocol import CHANCE, GAMES, GameDef, Shuffle
from .tokentree import Tree
from .viewcode import view_code

__all__ = [
    "CARD_COUNTS",
    "KINDS",
    "MULTI_HOT",
    "NUMBER",
    "NUMBERS",
    "ONE_HOT",
    "PLAYER_CARD_COUNTS",
    "Block",
    "Encoding",
    "FlatEncoding",
    "Position",
    "Tree",
    "encoding_for",
    "encoding_type",
    "view_code",
]

# -- observation blocks ---------------------------------------------------------------

#: ``get(view)`` is an index (or ``None``: all zeros): a one at that index
ONE_HOT = "one-hot"
#: ``get(view)`` is a collection of indices: a one at each
MULTI_HOT = "multi-hot"
#: ``get(view)`` is a sequence of cards: how many of each alphabet card it holds
CARD_COUNTS = "card counts"
#: ``get(view)`` is one sequence of cards per player: their card counts, player by player
PLAYER_CARD_COUNTS = "card counts per player"
#: ``get(view)`` is a sequence of numbers (``None`` is 0), e.g. one per player
NUMBERS = "numbers"
#: ``get(view)`` is one number (``None`` is 0)
NUMBER = "number"
#: every kind a :class:`Block` may have
KINDS = (ONE_HOT, MULTI_HOT, CARD_COUNTS, PLAYER_CARD_COUNTS, NUMBERS, NUMBER)


class Block(NamedTuple):
    """One named block of the observation vector: ``size`` numbers of ``kind`` (one of
    :data:`KINDS`), read from a player's view by ``get``."""

    name: str
    kind: str
    size: int
    get: Callable[[Any], Any]


def field(name: str) -> Callable[[Any], Any]:
    """The getter of a view's attribute ``name`` (a block's ``get``)."""
    return operator.attrgetter(name)


# -- positions ------------------------------------------------------------------------

_UNSET: Any = object()


class Position:
    """A point of a game as the frameworks see it: the cardrules ``state``, the tokens
    the player to act has chosen so far (``pending``), and at a chance node the cards
    drawn so far (``dealt``) and how many of each alphabet card are left
    (``remaining``, ``None`` elsewhere).

    A position is immutable: its four fields never change, and every step makes a new
    one.  It also caches what the encoding derives from those fields (the player to act,
    the legal ids, the chance outcomes), each worked out once, when first asked for;
    since a cached value depends on the fields alone, a position can be shared, and a
    copy is the position itself."""

    __slots__ = ("_legal", "_outcomes", "_step", "_trie", "_who", "dealt", "pending", "remaining", "state")

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
        self.dealt = dealt
        self.remaining = remaining
        # the cache: values derived from the fields, filled in when first asked for
        self._trie = trie  # the legal actions by their tokens (shared along one action)
        self._who: Any = _UNSET  # Encoding.to_act
        self._step: dict[int, Any] | None = None  # the legal ids, to the action each completes
        self._legal: list[int] | None = None  # the same ids, ascending
        self._outcomes: list[tuple[int, float]] | None = None  # the chance outcomes

    def __copy__(self) -> Position:
        return self  # immutable (OpenSpiel clones a state with deepcopy)

    def __deepcopy__(self, memo: object) -> Position:
        return self


def _is_id(token: object, num_actions: int) -> bool:
    """Whether ``token`` is an integer (NumPy's included) in ``0 .. num_actions - 1``."""
    try:
        return 0 <= operator.index(token) < num_actions  # type: ignore[arg-type]
    except TypeError:
        return False


# -- encodings ------------------------------------------------------------------------


class Encoding:
    """A game's integer actions, chance outcomes, observation blocks and framework
    parameters (see the module docstring).  A subclass says everything about its game
    (which game is not its to say: the :class:`~cardrules.GameDef` it is handed to binds
    it, :attr:`game_def`, and gives it the game's ``name``):

    * :meth:`_alphabet` (the card alphabet, default the standard
      deck), :meth:`_num_actions`, :meth:`tokens` (and :meth:`_heads` /
      :meth:`_codes_at`, the tokens of many legal actions at once), :meth:`token_name`;
    * :meth:`blocks`, :meth:`pending_size`, :meth:`view_size`: the observation vector;
    * :meth:`max_game_length`, :meth:`utility_bounds`, :meth:`truncated`;
    * :meth:`_plain_default` and :attr:`extra_params` (the framework parameters, derived
      from the ``Rules`` by :meth:`parameters`) and :meth:`_rules_options` (how they
      become ``Rules`` again, :meth:`rules_from_params`)."""

    name: ClassVar[str]
    #: the framework parameters beyond ``players`` and the ``Rules`` fields (the
    #: encoding's own options), with their defaults (see :meth:`parameters`)
    extra_params: ClassVar[dict[str, Any]] = {}
    #: whether :meth:`truncated` can be true (the adapter may end a game early)
    _truncates: ClassVar[bool] = False
    #: the version of the observation layout (:meth:`layout`): a game raises it whenever
    #: its blocks change, so that a model trained on one layout is never fed another; the
    #: adapters expose it (PettingZoo's environment name ``cardrules_GAME_vN`` and
    #: ``metadata["observation_layout_version"]``, OpenSpiel's
    #: ``game.observation_layout_version``)
    layout_version: ClassVar[int] = 0
    #: the game the encoding is of: the :class:`~cardrules.GameDef` it was handed to
    #: (``GameDef(encoding=...)`` binds it, :meth:`bind`), which also gives it ``name``
    game_def: ClassVar[GameDef[Any, Any] | None] = None

    @classmethod
    def bind(cls, game: GameDef[Any, Any]) -> None:
        """Bind the class to ``game``, the :class:`~cardrules.GameDef` it is handed to
        (its ``encoding``): what :class:`~cardrules.GameDef` does as it is made.  The
        class takes the game's name; one that names another game is refused."""
        declared = cls.__dict__.get("name")
        if declared is not None and declared != game.name:
            raise CardRulesError(f"{cls.__name__} is the encoding of {declared!r}, not of {game.name!r}")
        cls.name = game.name
        cls.game_def = game

    @classmethod
    def _game(cls) -> GameDef[Any, Any]:
        """The game the class is bound to (:meth:`bind`)."""
        if cls.game_def is None:
            raise CardRulesError(
                f"{cls.__name__} is the encoding of no game: hand it to GameDef(encoding=...)"
            )
        return cls.game_def

    def __init__(self, rules: Any, players: int) -> None:
        self.game: GameDef[Any, Any] = self._game()
        self.rules = rules
        self.players = players
        self.cards: tuple[Card, ...] = self._alphabet()
        self.card_id: dict[Card, int] = {c: i for i, c in enumerate(self.cards)}
        self._legal_of: Callable[[Any], Sequence[Any]] = self.game.legal_actions
        self._apply: Callable[[Any, Any], Any] = self.game.apply
        self.num_actions = self._num_actions()
        self._starts: dict[tuple[Card, ...], tuple[int, ...]] = {}  # a deal's counts, by its cards

    def __deepcopy__(self, memo: object) -> Encoding:
        return self  # fixed for its game, rules and players

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Encoding:
        """The encoding for framework parameters (:meth:`parameters`' defaults for those not
        given), made by :func:`encoding_for`; :class:`CardRulesError` for an unknown
        one."""
        rules, players, extra = cls.rules_from_params(params)
        return encoding_for(cls.name, rules, players, **extra)

    @classmethod
    def rules_from_params(cls, params: dict[str, Any]) -> tuple[Any, int | None, dict[str, Any]]:
        """The ``Rules``, the player count and the encoding's own options (beyond rules
        and players) that framework parameters say (:meth:`parameters`' defaults for those not
        given); :class:`CardRulesError` for an unknown one."""
        known = cls.parameters()
        p = {**known, **params}
        unknown = set(p) - set(known)
        if unknown:
            raise CardRulesError(f"{cls.name}: unknown parameter(s) {', '.join(sorted(unknown))}")
        for key, value in params.items():  # a framework's parameters are plain values of the defaults' types
            want = type(known[key])
            if type(value) is not want:
                kind = want.__name__
                raise CardRulesError(f"{cls.name}: parameter {key} must be of type {kind}, not {value!r}")
        players = p.pop("players", None)
        options, extra = cls._rules_options(p)
        return cls._game().Rules(**options), players, extra

    @classmethod
    def parameters(cls) -> dict[str, Any]:
        """The framework parameters (OpenSpiel's game parameters) and their defaults,
        derived from the game, not restated: ``players`` (the game's default number),
        each field of its ``Rules`` whose default is a plain value or has one
        (:meth:`_plain_default`), in their order, then :attr:`extra_params`."""
        game = cls._game()
        out: dict[str, Any] = {"players": game.default_players}
        if attrs.has(game.Rules):
            for f in attrs.fields(game.Rules):
                default = f.default
                if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                    if default.takes_self:
                        continue
                    default = default.factory()
                value = cls._plain_default(f.name, default)
                if value is not None:
                    out[f.name] = value
        out.update(cls.extra_params)
        return out

    @classmethod
    def _plain_default(cls, name: str, default: Any) -> Any:
        """The framework parameter's default for the ``Rules`` field ``name`` whose
        default is ``default``: the value itself when it is plain (a number, a flag, a
        text), else ``None`` (the field is no parameter).  A game turns its other values
        into plain ones here, and back in :meth:`_rules_options`."""
        return default if type(default) in (int, float, bool, str) else None

    @classmethod
    def _rules_options(cls, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """The ``Rules`` fields and the encoding's own options (beyond rules and players)
        for the given parameters (``players`` taken out): by default, the parameters as
        they are, and no options."""
        return params, {}

    # -- what each game says ----------------------------------------------------------

    def _alphabet(self) -> tuple[Card, ...]:
        from .cards import standard_deck

        return standard_deck()

    def _num_actions(self) -> int:
        raise NotImplementedError

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        """The token ids that enter ``action`` (a legal action of ``state``)."""
        raise NotImplementedError

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        """The first token of each of ``actions`` (legal at ``state``), as ``~token`` when
        more tokens follow."""
        return self._codes_at(state, actions, 0)

    def _codes_at(self, state: Any, actions: Sequence[Any], k: int) -> list[int]:
        """The token at ``k`` of each of ``actions`` (legal at ``state``, with more than
        ``k`` tokens), as ``~token`` when more tokens follow."""
        tokens = [self.tokens(state, a) for a in actions]
        return [t[k] if len(t) == k + 1 else ~t[k] for t in tokens]

    def _pending_step(self, pos: Position) -> dict[int, Any] | None:
        """The legal ids after ``pos.pending`` (not empty), where the game works them
        out without a :class:`Tree`; ``None`` to use the tree."""
        return None

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
        """True where the adapter ends a game the rules would go on with."""
        return False

    def blocks(self) -> list[Block]:
        """The readable blocks of the observation vector, in order."""
        return []

    def layout(self) -> tuple[tuple[str, str, int], ...]:
        """The observation layout, ``(name, kind, size)`` block by block, then the
        ``pending`` and ``view`` blocks (what :attr:`layout_version` versions)."""
        return (
            *((b.name, b.kind, b.size) for b in self.blocks()),
            ("pending", NUMBERS, self.pending_size()),
            ("view", NUMBERS, self.view_size()),
        )

    def pending_size(self) -> int:
        """The most tokens a player can have pending (the ``pending`` block's size)."""
        return 1

    def view_size(self) -> int:
        """An upper bound on the length of a view's code (the ``view`` block's size)."""
        return 16 * len(self._first_deal()) + 64 * self.players + 256

    def _first_deal(self) -> tuple[Card, ...]:
        """The cards of the game's first deal."""
        return tuple(self.game.chance_cards(self.game.new_game(self.rules, players=self.players)))

    # -- the shared blocks --------------------------------------------------------------

    def player_block(self, name: str) -> Block:
        """A one-hot player (the view's attribute ``name``, ``None`` for nobody)."""
        return Block(name, ONE_HOT, self.players, field(name))

    def to_act_block(self) -> Block:
        """``to_act`` one-hot: the players, then chance, then nobody."""
        n = self.players

        def get(view: Any) -> int:
            who = view.to_act
            return n if who is CHANCE else n + 1 if who is None else int(who)

        return Block("to_act", ONE_HOT, n + 2, get)

    def choice_block(self, name: str, choices: Sequence[Any]) -> Block:
        """A one-hot choice among ``choices`` (the view's attribute ``name``)."""
        index = {c: i for i, c in enumerate(choices)}
        get = field(name)
        return Block(name, ONE_HOT, len(index), lambda v: index.get(get(v)))

    def card_block(self, name: str) -> Block:
        """A one-hot card (the view's attribute ``name``, ``None`` for none)."""
        get, cid = field(name), self.card_id
        return Block(name, ONE_HOT, len(self.cards), lambda v: None if (c := get(v)) is None else cid[c])

    def cards_block(self, name: str, get: Callable[[Any], Any] | None = None) -> Block:
        """Card counts of a pile (the view's attribute ``name`` unless ``get`` says)."""
        return Block(name, CARD_COUNTS, len(self.cards), get or field(name))

    def player_cards_block(self, name: str) -> Block:
        """Card counts of one pile per player (the view's attribute ``name``)."""
        return Block(name, PLAYER_CARD_COUNTS, self.players * len(self.cards), field(name))

    def numbers_block(self, name: str, size: int | None = None) -> Block:
        """Numbers, one per player unless ``size`` says (the view's attribute ``name``)."""
        return Block(name, NUMBERS, self.players if size is None else size, field(name))

    def number_block(self, name: str) -> Block:
        """One number (the view's attribute ``name``)."""
        return Block(name, NUMBER, 1, field(name))

    def players_block(self, name: str) -> Block:
        """A set of players, multi-hot (the view's attribute ``name``)."""
        return Block(name, MULTI_HOT, self.players, field(name))

    # -- the shared machinery ---------------------------------------------------------

    def initial(self, seed: object = None) -> Position:
        """The position of a new game (``seed``: the library's seeded deal)."""
        return self.enter(self.game.new_game(self.rules, players=self.players, seed=seed))

    def enter(self, state: Any) -> Position:
        """The position at a cardrules ``state`` with nothing pending."""
        if state.to_act is CHANCE and not state.is_over:
            cards = tuple(self.game.chance_cards(state))
            counts = self._starts.get(cards)
            if counts is None:  # the counts of a deal, by its cards (most deals deal the same)
                bag = [0] * len(self.cards)
                for c in cards:
                    bag[self.card_id[c]] += 1
                counts = tuple(bag)
                if len(self._starts) >= 64:
                    self._starts.clear()
                self._starts[cards] = counts
            return Position(state, (), (), counts)
        return Position(state)

    def is_terminal(self, pos: Position) -> bool:
        return self.to_act(pos) is None

    def to_act(self, pos: Position) -> Any:
        """The player to act, :data:`CHANCE`, or ``None`` at the end."""
        who = pos._who
        if who is _UNSET:
            state = pos.state
            over = state.is_over or (self._truncates and self.truncated(state))
            who = pos._who = None if over else state.to_act
        return who

    def chance_outcomes(self, pos: Position) -> list[tuple[int, float]]:
        """The cards that may be drawn next, by id, each with its probability."""
        return list(self._chance_outcomes(pos))

    def _chance_outcomes(self, pos: Position) -> list[tuple[int, float]]:
        """:meth:`chance_outcomes`, kept on the position (not to be changed)."""
        out = pos._outcomes
        if out is None:
            remaining = pos.remaining
            assert remaining is not None, "not a chance node"
            total = sum(remaining)
            # each card left (its id, from compress) with its count over the total
            ids = compress(range(len(remaining)), remaining)
            odds = map(truediv, compress(remaining, remaining), repeat(total))
            out = pos._outcomes = list(zip(ids, odds, strict=True))
        return out

    def trie(self, pos: Position) -> Tree:
        """The legal actions at ``pos`` by their tokens (a player's node)."""
        tree = pos._trie
        if tree is None:
            state = pos.state
            actions = self._legal_of(state)
            tree = pos._trie = Tree(state, actions, self._heads(state, actions), self._codes_at)
        return tree

    def _step(self, pos: Position) -> dict[int, Any]:
        """The legal ids at ``pos``, each to the action it completes (``None`` where it
        only extends the pending tokens; ``{}`` where nothing is legal), kept on it."""
        step = pos._step
        if step is None:
            if pos.pending:
                step = self._pending_step(pos)
                if step is None:
                    step = self.trie(pos).get(pos.pending) or {}
            elif pos._trie is not None:
                step = pos._trie.root
            else:
                state = pos.state
                actions = self._legal_of(state)
                heads = self._heads(state, actions)
                if heads and min(heads) < 0:  # some action takes more tokens: a tree
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
            legal = pos._legal = sorted(self._step(pos))
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
        if pos.remaining is not None:
            return self._draw(pos, token)
        step = pos._step
        if step is None:
            step = self._step(pos)
        action = step.get(token, _UNSET) if type(token) is int else self._found(step, token)
        if action is None:  # a pending token: the same state, the same tree
            pending = (*pos.pending, token if type(token) is int else operator.index(token))
            out = Position(pos.state, pending, trie=pos._trie)
            out._who = pos._who
            return out
        if action is _UNSET:
            self.completes(pos, token)  # raises
        return self.enter(self._apply(pos.state, action))

    def _found(self, step: dict[int, Any], token: object) -> Any:
        """``step``'s entry of a token that is no plain ``int`` (NumPy's integers are
        ids; a float, a string, ``None`` are not)."""
        if isinstance(token, float) or not _is_id(token, self.num_actions):
            return _UNSET
        return step.get(operator.index(token), _UNSET)  # type: ignore[arg-type]

    def _draw(self, pos: Position, token: int) -> Position:
        """The position after drawing card ``token`` at the chance position ``pos``."""
        remaining = pos.remaining
        assert remaining is not None
        ok = not isinstance(token, float) and _is_id(token, len(self.cards))
        if not ok or not remaining[operator.index(token)]:
            raise IllegalActionError(f"{self.name}: chance outcome {token!r} is not possible here")
        i = operator.index(token)
        dealt = (*pos.dealt, self.cards[i])
        if sum(remaining) == 1:  # the last card: the Shuffle of the drawn order
            # apply() checks the order like any Shuffle's (one path for every action)
            return self.enter(self._apply(pos.state, Shuffle(dealt)))
        left = (*remaining[:i], remaining[i] - 1, *remaining[i + 1 :])
        out = Position(pos.state, (), dealt, left)
        out._who = CHANCE
        return out

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


# -- a generic encoding -----------------------------------------------------------------


class FlatEncoding(Encoding):
    """An encoding for any game with a fixed, finite list of every action it can have
    (:meth:`all_actions`): one id per action, in that order.  A subclass gives
    :meth:`all_actions` (and, for OpenSpiel, :meth:`max_game_length` and
    :meth:`utility_bounds`).  The card alphabet is the cards of the first deal; the
    observation blocks come from the fields of the view's attrs class (by their
    annotations): a tuple of cards gives card counts, a tuple of such tuples card counts
    per player, a card a one-hot card, an ``int`` or ``bool`` a number, a tuple of ints
    one number per player.  The framework parameters are ``players`` and every ``Rules``
    field whose default is a plain value (a number, a flag, a text)."""

    def all_actions(self) -> Sequence[Any]:
        """Every action the game can have (for these rules and players), each once."""
        raise NotImplementedError

    def __init__(self, rules: Any, players: int) -> None:
        super().__init__(rules, players)
        self.actions: tuple[Any, ...] = tuple(self.all_actions())
        self.action_id: dict[Any, int] = {a: i for i, a in enumerate(self.actions)}
        if len(self.action_id) != len(self.actions):
            raise CardRulesError(f"{self.name}: all_actions() lists an action twice")

    def _alphabet(self) -> tuple[Card, ...]:
        return canonical(set(self._first_deal()))

    def _num_actions(self) -> int:
        return len(self.all_actions())

    def tokens(self, state: Any, action: Any) -> tuple[int, ...]:
        return (self.action_id[action],)

    def _heads(self, state: Any, actions: Sequence[Any]) -> list[int]:
        try:
            return list(map(self.action_id.__getitem__, actions))
        except KeyError as exc:
            raise CardRulesError(f"{self.name}: {exc.args[0]!r} is not in all_actions()") from None

    def token_name(self, token: int) -> str:
        return str(self.actions[token])

    def blocks(self) -> list[Block]:
        game = self.game
        state = game.new_game(self.rules, players=self.players, seed=0)
        view_type = type(game.view(state, 0))
        if not attrs.has(view_type):
            return []
        hints = typing.get_type_hints(view_type)
        out: list[Block] = []
        for f in attrs.fields(view_type):
            kind = _kind_of(hints.get(f.name))
            if kind == CARD_COUNTS:
                out.append(self.cards_block(f.name))
            elif kind == PLAYER_CARD_COUNTS:
                out.append(self.player_cards_block(f.name))
            elif kind == ONE_HOT:
                out.append(self.card_block(f.name))
            elif kind == NUMBERS:
                out.append(self.numbers_block(f.name))
            elif kind == NUMBER:
                out.append(self.number_block(f.name))
        return out


def _kind_of(hint: Any) -> str | None:
    """The block kind of a view field's annotation (``ONE_HOT`` for a card), or ``None``."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):  # X | None: as X
        return _kind_of(args[0]) if len(args) == 1 else None
    if hint is Card:
        return ONE_HOT
    if hint in (int, bool):
        return NUMBER
    if origin is tuple and args:
        item = args[0]
        if item is Card:
            return CARD_COUNTS
        if typing.get_origin(item) is tuple and typing.get_args(item)[:1] == (Card,):
            return PLAYER_CARD_COUNTS
        if item in (int, bool):
            return NUMBERS
    return None


# -- a game's encoding ------------------------------------------------------------------


def encoding_type(name: str) -> type[Encoding]:
    """The encoding class of game ``name``: its ``GameDef``'s ``encoding``."""
    own = GAMES[name].encoding
    if isinstance(own, type) and issubclass(own, Encoding):
        return own
    raise CardRulesError(
        f"{name} has no integer encoding for the OpenSpiel and PettingZoo adapters "
        "(give its GameDef an encoding=, e.g. a FlatEncoding subclass)"
    )


def encoding_for(name: str, rules: Any = None, players: int | None = None, **extra: Any) -> Encoding:
    """The :class:`Encoding` of game ``name`` for ``rules`` and ``players`` (defaults:
    the game's own)."""
    cls = encoding_type(name)
    game = GAMES[name]
    if rules is None:
        rules = game.Rules()
    elif not isinstance(rules, game.Rules):
        raise CardRulesError(f"{name}: rules must be a {name}.Rules, not {type(rules).__name__}")
    return cls(rules, game.check_players(players), **extra)
