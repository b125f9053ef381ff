"""The game protocol shared by every game: chance, seeds, history, replay, the registry.

A game module (``cardrules.aegis`` ...) says only its own rules, as five plain functions
handed to :class:`GameDef`:

``start(rules, players) -> State``
    the state before anything happened (usually a chance node), with an empty history;
``legal_actions(state) -> tuple``
    the legal actions of the player to act, ``()`` at a chance node or at the end;
``step(state, action) -> State``
    the next state after a *player's* action, with ``action`` appended to ``history``;
    raises :class:`~cardrules.IllegalActionError` saying why when it is not legal;
``chance_cards(state) -> tuple[Card, ...]``
    at a chance node, the cards to be shuffled, in canonical order;
``deal(state, shuffle) -> State``
    the next state after a chance node, ``shuffle`` appended to ``history`` (the
    protocol has already checked that ``shuffle.order`` is a permutation of
    :func:`chance_cards`);

then ``view(state, player)``.  A game may also hand over ``steps``, a mapping from an
action type to a function that does ``step`` for actions of that type only (the same
result and the same errors): the protocol then calls it directly, one call fewer on the
path of every action.  Everything else a tool may need of a game is handed to
:class:`GameDef` too, as optional typed fields (its text, its seats, a state sampler, a
greedy agent, the search hooks of :class:`SearchHooks`, the adapters' encoding): the
agents, the search, the simulator, the command line and the adapters reach a game only
through its :class:`GameDef`, so a game written outside this package takes part in all
of them once :func:`register_game` has registered it.

Everything else (seeded chance, the chance check, replay, JSON, the :data:`GAMES`
registry) lives here once.  A ``State`` must be a frozen attrs class with
the attributes ``to_act``, ``is_over``, ``scores``, ``winners``, ``history`` and a
``seed`` field declared with ``eq=False`` (the seed is how chance was resolved, not part
of the position).
"""

from __future__ import annotations

import importlib
import os
import random
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from operator import countOf
from typing import TYPE_CHECKING, Any, Final, Generic, Protocol, TypeVar

import attrs

from ._chance import CHANCE, Chance
from ._hotloops import same_objects
from ._records import maker
from ._shuffling import seeded_order
from .cards import Card, canonical
from .codec import typed_copy
from .errors import CardRulesError, IllegalActionError, UnknownGameError

if TYPE_CHECKING:  # the types of the search's hooks (modules that import nothing of this one)
    from .search.config import SearchConfig
    from .search.hooks import Candidates, Evaluation, Likelihood, Policy

__all__ = [
    "CHANCE",
    "DISABLE_PLUGINS_VARIABLE",
    "ENTRY_POINT_GROUP",
    "GAMES",
    "MAX_ACTION_TEXT",
    "Agent",
    "GameDef",
    "GamePluginWarning",
    "SearchHooks",
    "Shuffle",
    "chance_cards",
    "game_named",
    "game_of",
    "game_source",
    "register_game",
    "seeded_order",
]




def _to_card_tuple(order: Iterable[Card]) -> tuple[Card, ...]:
    try:
        return tuple(order)
    except TypeError:
        raise IllegalActionError(f"Shuffle takes the cards in order (a tuple), not {order!r}") from None


@attrs.frozen(cache_hash=True)
class Shuffle:
    """A chance action: the deck, top card first.

    At a chance node, ``order`` must be a permutation of :func:`chance_cards`; each
    game's documentation says which card goes where, so a stacked deck sets up a chosen
    position.
    """

    order: tuple[Card, ...] = attrs.field(converter=_to_card_tuple)

    def __str__(self) -> str:
        return "Shuffle(" + " ".join(map(str, self.order)) + ")"


class GameState(Protocol):
    """What every game's ``State`` offers (see :mod:`cardrules.protocol`)."""

    @property
    def to_act(self) -> int | Chance | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def scores(self) -> tuple[int, ...]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def history(self) -> tuple[Any, ...]: ...
    @property
    def seed(self) -> object: ...
    @property
    def rules(self) -> Any: ...
    @property
    def players(self) -> int: ...


#: An agent: ``agent(view, legal_actions) -> action``.  It sees only its player's view.
Agent = Callable[[Any, Sequence[Any]], Any]

S = TypeVar("S", bound=GameState)
R = TypeVar("R")


@attrs.frozen(kw_only=True)
class SearchHooks:
    """What a search agent (:class:`cardrules.search.ISMCTSAgent`) may use of a game
    beyond its rules: the components the game offers, each optional and each usable by
    any configuration that asks for it (their types are in :mod:`cardrules.search.hooks`).

    ``config``
        the game's strongest search agent, a :class:`~cardrules.search.SearchConfig`,
        which :func:`cardrules.agents.strong_agent` makes; ``None`` when the game's
        strongest agent is not the search;
    ``reward_scale``
        the points of a typical hand: a rollout that ends a hand is rewarded
        ``tanh(margin / reward_scale)`` around one half;
    ``policy(state, rng) -> action``
        a quick choice for the player to act, given the whole (sampled) state: rollouts
        (``rollout="policy"``) and the model of the other players in the tree
        (``opponents="policy"``) use it (Aegis, Gunsore);
    ``likelihood(view, rules) -> weight(state) | None``
        for ``belief="likelihood"``: how likely a sampled state makes what the other
        players did, as seen in ``view`` (a number in ``[0, 1]``), or ``None`` where the
        view shows nothing to weigh (Aegis: the opponent's exchanges and bid);
    ``candidates(state, legal) -> actions``
        for ``actions="candidates"``: the actions of ``legal`` (the legal actions of the
        player to act in ``state``) that the tree tries, in their order; never empty.  An
        *action abstraction*: where a player has many actions that differ little, the
        search spends its iterations on a few representative ones (Aegis: of the 32
        exchanges of a five-card hand, the six that discard the weakest ``k`` cards);
    ``evaluation``
        the value of an unfinished state, a :class:`~cardrules.search.Evaluation`: in
        points (each player's expected points of the hand, or a standing rated like
        points: Haggis's fitted model, New Eleusis's hand sizes), used where a rollout
        stops with no score changed; or as each player's chance of winning the game
        (Gunsore), used by ``value="chance"``;
    ``strong(seed, time_per_move=None) -> agent``
        the game's strongest agent when it is not the search agent (New Eleusis: the
        scientist at the table, :class:`cardrules.eleusis.TableScientist`), which
        :func:`cardrules.agents.strong_agent` makes (``time_per_move`` its budget in
        seconds when given).
    """

    config: SearchConfig | None = None
    reward_scale: float = 10.0
    policy: Policy | None = None
    likelihood: Likelihood | None = None
    candidates: Candidates | None = None
    evaluation: Evaluation | None = None
    strong: Callable[..., Any] | None = None


_BY_STATE: dict[type, GameDef[Any, Any]] = {}
_BY_NAME: dict[str, GameDef[Any, Any]] = {}


class GameDef(Generic[S, R]):
    """One game, as the protocol sees it: its rules and the shared machinery around them.

    Instances are what :data:`GAMES` holds (once :func:`register_game` has registered
    them): they offer ``new_game``, ``legal_actions``, ``apply``, ``view``, ``replay``,
    ``chance_cards``, ``describe``, ``summary`` and ``Rules`` with the same signatures for
    every game (``players`` is accepted everywhere and checked against
    ``player_counts``).  Each game module's functions of the same names call these:
    :meth:`apply` is the one path of every action.

    The rules are the required functions of :mod:`cardrules.protocol`.  The rest is
    optional, and is what tools find here and nowhere else:

    text
        ``parse_action(state, text)``, ``render(state, player)``,
        ``describe(state, action)``, ``describe_for(state, action, player)`` (the line as
        ``player`` may be told it), ``summary(state)``; ``title`` (the game's name for
        people, e.g. ``"New Eleusis"``), ``notation`` (a few lines on how to write an
        action, for ``help`` at the table), ``scoring`` (what a change of the scores
        ends: ``"season"``, ``"hand"``), ``after_action(before, after)`` (a text to show
        after an action, or ``None``: the New Eleusis layout), ``table_layout(view)``
        (the table as the web page draws it: a dict of labelled JSON values made from
        one seat's ``view``, see :doc:`/web`; ``None``: the page's generic table),
        ``action_group(action)`` (the kind of an action in words, by which the web page
        groups the legal actions: ``"pairs"``, ``"bet 15"``; see :meth:`group_of`);
    seats
        ``default_seat`` (the seat a person takes, and the demo's seat),
        ``observer_seats`` (seats that never act, whose person only watches),
        ``seat_names`` (what a person at a seat is called where it is not
        ``"player N"``: ``{0: "God"}``; see :meth:`seat_name`);
    rules from text
        ``rules_from_text(text, name)``: the ``Rules`` a person writes as text (New
        Eleusis: a secret rule; ``name`` picks one of several named rules), and
        ``rule_chooser(players, seed) -> text``: the rules the computer writes when no
        person does (New Eleusis's computer God, :func:`cardrules.eleusis.choose_rule`;
        the same text for the same seed);
    tools
        ``sampler(view, rules) -> draw(rng) -> State`` (see :meth:`sampler`),
        ``view_type`` (the class of the game's views, which :meth:`sampler` checks;
        default: the type of a new game's view),
        ``greedy_agent(seed) -> agent``, ``search`` (:class:`SearchHooks`),
        ``encoding(rules, players)`` (the integer actions and observations of the
        OpenSpiel and PettingZoo adapters);
    steps
        ``steps``: ``{action type: step function}``, each doing ``step(state, action)``
        for its own type of action (the same state, the same errors), which
        :meth:`apply` calls instead of ``step`` when a player acts (a step function
        per kind of action is one call fewer than ``step`` dispatching to it);
    public view
        ``public_view(state)``: what someone at no seat may see (a spectator): what
        every player sees, no card hidden from any of them (no hand; in New Eleusis not
        the secret rule); see :meth:`public_view`;
    ``module``
        the module that defines and registers the game: a worker process imports it to
        find the game (:func:`~cardrules.protocol.game_named`).
    """

    def __init__(
        self,
        name: str,
        *,
        rules_type: type[R],
        state_type: type[S],
        action_types: Sequence[type],
        player_counts: Sequence[int],
        default_players: int,
        start: Callable[[R, int], S],
        legal_actions: Callable[[S], tuple[Any, ...]],
        step: Callable[[S, Any], S],
        chance_cards: Callable[[S], tuple[Card, ...]],
        deal: Callable[[S, Shuffle], S],
        view: Callable[[S, int], Any],
        describe: Callable[[S, Any], str] | None = None,
        describe_for: Callable[[S, Any, int], str] | None = None,
        summary: Callable[[S], str] | None = None,
        parse_action: Callable[[S, str], Any] | None = None,
        render: Callable[[S, int | None], str] | None = None,
        title: str | None = None,
        notation: str | None = None,
        scoring: str = "round",
        after_action: Callable[[S, S], str | None] | None = None,
        table_layout: Callable[[Any], Mapping[str, Any]] | None = None,
        action_group: Callable[[Any], str] | None = None,
        default_seat: int = 0,
        observer_seats: Iterable[int] = (),
        seat_names: Mapping[int, str] | None = None,
        rules_from_text: Callable[[str, str | None], R] | None = None,
        sampler: Callable[[Any, R | None], Callable[[random.Random], S]] | None = None,
        greedy_agent: Callable[[object], Agent] | None = None,
        search: SearchHooks | None = None,
        encoding: Callable[[R, int], Any] | None = None,
        module: str | None = None,
        view_type: type | None = None,
        rule_chooser: Callable[[int, object], str] | None = None,
        public_view: Callable[[S], Any] | None = None,
        steps: Mapping[type, Callable[[S, Any], S]] | None = None,
    ) -> None:
        if not isinstance(name, str) or not name.isidentifier():
            raise CardRulesError(f"a game's name must be a Python identifier, not {name!r}")
        self.name = name
        self.Rules = rules_type
        self.State = state_type
        self.action_types: tuple[type, ...] = (Shuffle, *action_types)
        self.player_counts = tuple(player_counts)
        if default_players not in self.player_counts:
            raise CardRulesError(f"{name}: default_players {default_players!r} is not one of player_counts")
        self.default_players = default_players
        self._start = start
        self._default_rules: R | None = None
        self._legal = legal_actions
        self._step = step
        # the step function of an action's type (``step`` itself for the other types)
        self._step_of: Callable[[type, Callable[[S, Any], S]], Callable[[S, Any], S]] = dict(steps or {}).get
        self._chance_cards = chance_cards
        self._deal = deal
        self._view = view
        self._describe = describe
        self._describe_for = describe_for
        self._summary = summary
        self._parse_action = parse_action
        self._render = render
        self._after_action = after_action
        self._sampler = sampler
        #: the game's name for people ("New Eleusis")
        self.title: str = title if title is not None else name.capitalize()
        #: how to write an action, a few lines for people (``None``: the actions' text)
        self.notation = notation
        #: what a change of the scores ends ("season", "hand", "round")
        self.scoring = scoring
        #: ``table_layout(view) -> dict`` of labelled JSON values the web page draws
        #: (:doc:`/web`), or ``None``
        self.table_layout = table_layout
        self._action_group = action_group
        #: the seat a person takes by default
        self.default_seat = default_seat
        #: the seats that never act (a person there watches)
        self.observer_seats: frozenset[int] = frozenset(observer_seats)
        #: what a person at a seat is called, where it is not "player N"
        self.seat_names: Mapping[int, str] = dict(seat_names or {})
        #: ``rules_from_text(text, name) -> Rules``, or ``None``
        self.rules_from_text = rules_from_text
        #: ``rule_chooser(players, seed) -> text``: the rules the computer writes, or ``None``
        self.rule_chooser = rule_chooser
        #: ``greedy_agent(seed) -> agent``, or ``None``
        self.greedy_agent = greedy_agent
        #: what a search may use of the game (``None``: nothing beyond its rules)
        self.search = search
        #: ``encoding(rules, players)`` for the OpenSpiel and PettingZoo adapters, or ``None``
        self.encoding = encoding
        bind = getattr(encoding, "bind", None)
        if bind is not None:  # an Encoding class is bound to its game here, not found by name
            bind(self)
        self.module = module
        #: the class of the game's views (``None``: learned from the first view asked for)
        self._view_type = view_type
        self._public_view = public_view
        # each state class's record maker's replace (attrs.evolve's result, made faster):
        # new_game(seed=...) puts the seed on the start's state with it
        self._replace: dict[type, Callable[..., Any]] = {}

    def __repr__(self) -> str:
        return f"<game {self.name!r}>"

    def __reduce__(self) -> tuple[Any, ...]:
        # a game travels to a worker process by name (and the module that registers it)
        return (game_named, (self.name, self.module))

    # -- the public functions, the same for every game ---------------------------------
    #
    # Each game module offers these again as module functions (cardrules.aegis.apply...)
    # of one line each, written out rather than generated from the GameDef, on purpose:
    # a written ``def`` is what gives mypy its precise types (``aegis.view`` returns an
    # ``aegis.View``, keyword names kept; generated ones would need a Protocol restating
    # each signature, the duplication moved, not removed), what autodoc and ``help()``
    # read, and what doctest collects (it skips a function whose globals are not its
    # module's, so the examples in generated docstrings would silently stop running).
    # What each game says there is its own docstring; the logic is here, once.  A game's
    # own hook that needs no protocol step around it (``legal_actions``, ``describe``,
    # ``summary``) is handed over as the public function itself, with no wrapper.

    def new_game(self, rules: R | None = None, *, players: int | None = None, seed: object = None) -> S:
        """A new game.  With a ``seed``, every chance node resolves itself with the
        library's portable seeded shuffle (:func:`cardrules.protocol.seeded_order`)."""
        if rules is None:
            rules = self._default_rules
            if rules is None:  # made once: a Rules is an immutable value
                rules = self._default_rules = self.Rules()
        elif not isinstance(rules, self.Rules):
            raise CardRulesError(
                f"{self.name}: rules must be a {self.name}.Rules, not {type(rules).__name__}"
            )
        n = self.check_players(players)
        state = self._start(rules, n)
        if seed is not None:
            # A new state that holds the seed; the one start() made is left as it was
            # (start may keep it, cache it, or hand it out again: states never change).
            # (cardrules._records' replace: attrs.evolve's record, a quarter of its time)
            replace = self._replace.get(type(state))
            if replace is None:
                replace = self._replace[type(state)] = maker(type(state)).replace
            state = replace(state, seed=seed)
            state = self._resolve_chance(state)
        return state

    def legal_actions(self, state: S) -> tuple[Any, ...]:
        """Every legal action of the player to act, in a stable order."""
        return self._legal(state)

    def apply(self, state: S, action: Any) -> S:
        """The state after ``action``; raises :class:`IllegalActionError` if illegal.

        This is the only path of an action, in every game: a player's action goes
        straight to the game's ``step`` (which checks it), a :class:`Shuffle` at a
        chance node is checked here then dealt, and a seeded game resolves the chance
        nodes that follow."""
        if type(state.to_act) is int and type(action) is not Shuffle:  # a player acts
            new = self._step_of(type(action), self._step)(state, action)
        elif state.to_act is CHANCE:
            if type(action) is not Shuffle:
                raise IllegalActionError(
                    f"{self.name}: this is a chance node; apply Shuffle(order) with a "
                    f"permutation of chance_cards(state), not {action!r}"
                )
            self._check_shuffle(state, action)
            new = self._deal(state, action)
        elif type(action) is Shuffle:
            raise IllegalActionError(
                f"{self.name}: a Shuffle is only legal at a chance node"
                + (" (the game is over)" if state.is_over else "")
            )
        else:  # the game is over: the step says so, in the game's words
            new = self._step(state, action)
        if new.to_act is CHANCE and new.seed is not None:
            return self._resolve_chance(new)
        return new

    def apply_function(self, doc: str, module: str) -> Callable[[S, Any], S]:
        """:meth:`apply` as a function of its own, for a game module's ``apply``
        (``apply = GAME.apply_function(doc, __name__)``), with ``doc`` as its docstring.

        It is :meth:`apply`, with the commonest path written out: a player's action goes
        straight to its step, read from local names.  A module function that called
        :meth:`apply` would cost one Python call more per action and the method's own
        lookups: about 4% of the instructions of a random Aegis or Gunsore playout.  Any
        other action (a :class:`Shuffle`, an action after the end) goes through
        :meth:`apply` itself.
        """
        step_of, step, general, resolve = self._step_of, self._step, self.apply, self._resolve_chance

        def apply(state: S, action: Any) -> S:
            if type(state.to_act) is int and type(action) is not Shuffle:  # as in GameDef.apply
                new = step_of(type(action), step)(state, action)
                if new.to_act is CHANCE and new.seed is not None:
                    return resolve(new)
                return new
            return general(state, action)

        apply.__doc__ = doc
        apply.__module__ = module
        apply.__qualname__ = "apply"
        apply.__annotations__ = {"state": self.State, "action": Any, "return": self.State}
        return apply

    def settle(self, state: S) -> S:
        """``state`` with its chance nodes resolved when it is seeded (what :meth:`apply`
        does after every step)."""
        if state.to_act is CHANCE and state.seed is not None:
            return self._resolve_chance(state)
        return state

    def view(self, state: S, player: int) -> Any:
        """What ``player`` may see of ``state``, and nothing more."""
        if not isinstance(state, self.State):
            self.check_state(state)
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.players:
            raise CardRulesError(f"{self.name}: no player {player!r} in a {state.players}-player game")
        return self._view(state, player)

    @property
    def has_public_view(self) -> bool:
        """Whether the game says what someone at no seat may see (:meth:`public_view`)."""
        return self._public_view is not None

    def public_view(self, state: S) -> Any:
        """What someone at no seat may see of ``state`` (a spectator): what every player
        sees and no card hidden from any of them, or ``None`` for a game that does not
        say (:attr:`has_public_view`)."""
        self.check_state(state)
        return None if self._public_view is None else self._public_view(state)

    def describe_public(self, state: S, action: Any) -> str:
        """The line for ``action`` as someone at no seat may be told it: :meth:`describe`
        where the game hides nothing in its lines; else the line every seat but the
        actor's is told, when they are all told the same; else only who acted."""
        if self._describe_for is None:
            return self.describe(state, action)
        actor = state.to_act
        lines = {self._describe_for(state, action, p) for p in range(state.players) if p != actor}
        if len(lines) == 1:
            return lines.pop()
        return f"{self.seat_name(actor)} acts" if type(actor) is int else "chance"

    def replay(self, rules: R | None, actions: Iterable[Any], *, players: int | None = None) -> S:
        """The state reached by applying ``actions`` (chance actions included) from a
        new unseeded game.  An illegal action raises :class:`IllegalActionError` naming
        its place in the list."""
        state = self.new_game(rules, players=players)
        for i, action in enumerate(actions):
            try:
                state = self.apply(state, action)
            except IllegalActionError as exc:
                raise IllegalActionError(f"action {i} ({action}): {exc}") from exc
        return state

    @property
    def view_type(self) -> type:
        """The class of the game's views (given to the ``GameDef``, or the type of a new
        game's view)."""
        if self._view_type is None:
            self._view_type = type(self._view(self.new_game(), self.default_seat))
        return self._view_type

    def check_state(self, state: object, what: str = "state") -> None:
        """Raise :class:`TypeError` unless ``state`` is a state of this game."""
        if not isinstance(state, self.State):
            raise TypeError(f"{self.name}: {what} must be a state of {self.name}, not {_kind(state)}")

    def sampler(self, view: Any, *, rules: R | None = None) -> Callable[[random.Random], S]:
        """A function ``draw(rng) -> State`` giving states consistent with ``view``: the
        analysis of what the view rules out is done once, here, and each call of
        ``draw`` only deals the hidden cards anew (what a search does many times per
        decision).  ``rules`` are the game's rules (a view does not always show them;
        default ``Rules()``).  Raises :class:`CardRulesError` for a game without one.

        A view that no state of the game can have (a tampered one: the wrong player to
        act, cards that are not there ...) is refused here, once, with
        :class:`~cardrules.sampling.SampleError` (a :class:`CardRulesError`): the game's
        sampler checks what it must to work at all, and then one state is drawn and
        checked: its view must be ``view``, and its legal actions and the first of them
        must work.  Before all that, every field of the view must be of its declared
        type.  A view of another game raises :class:`TypeError`."""
        if self._sampler is None:
            raise CardRulesError(f"{self.name} has no state sampler")
        if not isinstance(view, self.view_type):
            raise TypeError(f"{self.name}: sampler takes a view of {self.name}, not {_kind(view)}")
        if rules is not None and not isinstance(rules, self.Rules):
            raise CardRulesError(
                f"{self.name}: rules must be a {self.name}.Rules, not {type(rules).__name__}"
            )
        from .sampling import SampleError

        self._check_view_types(view)
        try:
            draw = self._sampler(view, rules)
            sample = draw(random.Random(0))
            if not isinstance(sample, self.State):  # the game's sampler is wrong, not the view
                raise _WrongSample(
                    f"{self.name}: its sampler dealt {_kind(sample)}, not a state of {self.name}"
                )
            self._check_sample(view, sample)
        except _WrongSample as exc:
            raise CardRulesError(str(exc)) from None
        except CardRulesError as exc:
            if isinstance(exc, SampleError):
                raise
            raise SampleError(f"{self.name}: the view is impossible: {exc}") from None
        except (AssertionError, AttributeError, LookupError, TypeError, ValueError, ArithmeticError) as exc:
            # a field of a type or size no real view has: the view is not one of the game's
            raise SampleError(
                f"{self.name}: the view is impossible "
                f"(sampling it fails: {type(exc).__name__}: {_cut(str(exc))})"
            ) from None
        return draw

    def _check_view_types(self, view: Any) -> None:
        """Refuse a view with a field of a type its class does not declare (an attrs
        view, read back through the JSON codec, which checks every declared type)."""
        if not attrs.has(type(view)):
            return
        from .sampling import SampleError

        try:
            typed = typed_copy(view)
        except CardRulesError as exc:
            raise SampleError(f"{self.name}: the view is impossible: {_cut(str(exc))}") from None
        except (TypeError, ValueError, AttributeError, LookupError) as exc:
            raise SampleError(f"{self.name}: the view is impossible: {_cut(str(exc))}") from None
        if typed != view:
            raise SampleError(f"{self.name}: the view is impossible: a field is not of its declared type")

    def _check_sample(self, view: Any, sample: S) -> None:
        """Refuse ``view`` unless ``sample`` (drawn from it) shows exactly ``view`` to its
        player and can be played on from."""
        from .sampling import SampleError

        player = getattr(view, "player", None)
        if type(player) is not int or not 0 <= player < sample.players:
            raise SampleError(f"{self.name}: the view is impossible: no player {_cut(repr(player))}")
        if self._view(sample, player) != view:
            raise SampleError(
                f"{self.name}: the view is impossible: no state of the game shows it "
                "(a state dealt from it shows its player something else)"
            )
        if sample.to_act is CHANCE:
            self.chance_cards(sample)
        elif not sample.is_over:
            if not (type(sample.to_act) is int and 0 <= sample.to_act < sample.players):
                raise SampleError(f"{self.name}: the view is impossible: player {sample.to_act!r} to act")
            legal = self.legal_actions(sample)
            if not legal:
                raise SampleError(
                    f"{self.name}: the view is impossible: the player to act has no legal action"
                )
            self.apply(sample, legal[0])

    @property
    def can_sample(self) -> bool:
        """Whether the game has a state sampler (:meth:`sampler`)."""
        return self._sampler is not None

    def sample_state(self, view: Any, *, seed: object = None, rules: R | None = None) -> S:
        """A whole state consistent with everything ``view`` shows, its hidden cards
        dealt at random (uniformly where the view only fixes how many cards lie
        where): ``view(sample, view.player) == view``.  ``seed`` makes it reproducible."""
        return self.sampler(view, rules=rules)(random.Random(None if seed is None else _seed_bytes(seed)))

    def resample(self, state: S, player: int, *, seed: object = None) -> S:
        """A state ``player`` cannot tell from ``state``: ``player``'s view of it,
        sampled (:meth:`sample_state`) with ``state``'s rules.  The view is the
        library's own of a real state, so the checks of a view that may have been
        tampered with are left out (what a search that resamples many times a decision
        wants); the sample is the same."""
        if self._sampler is None:
            raise CardRulesError(f"{self.name} has no state sampler")
        self.check_state(state)
        draw = self._sampler(self.view(state, player), state.rules)
        return draw(random.Random(None if seed is None else _seed_bytes(seed)))

    def chance_cards(self, state: S) -> tuple[Card, ...]:
        """At a chance node the cards to shuffle, in canonical order; else ``()``."""
        if state.to_act is not CHANCE:
            return ()
        return self._chance_cards(state)

    def describe(self, state: S, action: Any) -> str:
        """A short human line for ``action`` played in ``state`` (for records)."""
        if self._describe is not None:
            return self._describe(state, action)
        who = "chance" if state.to_act is CHANCE else f"player {state.to_act}"
        return f"{who}: {action}"

    def describe_for(self, state: S, action: Any, player: int) -> str:
        """The line for ``action`` as ``player`` may be told it (what a person at that
        seat sees; :meth:`describe` where the game hides nothing in its lines)."""
        if self._describe_for is not None:
            return self._describe_for(state, action, player)
        return self.describe(state, action)

    def after_action(self, before: S, after: S) -> str | None:
        """What to show a person after an action took ``before`` to ``after``, beyond its
        line: the game's own text, or the scores when they changed (``None``: nothing)."""
        if self._after_action is not None:
            return self._after_action(before, after)
        if after.scores == before.scores or after.is_over:
            return None
        gained = [a - b for a, b in zip(after.scores, before.scores, strict=True)]
        points = ", ".join(f"player {q} {'+' if x >= 0 else ''}{x}" for q, x in enumerate(gained))
        return f"== {self.scoring} scored: {points}; scores now {' '.join(map(str, after.scores))}"

    def group_of(self, action: Any) -> str:
        """The kind of ``action`` in words, by which a person's choices are grouped: the
        game's ``action_group``, or the action's class name in words (``NoPlay`` is
        ``"no play"``)."""
        if self._action_group is not None:
            return self._action_group(action)
        name = type(action).__name__
        return "".join(" " + ch.lower() if ch.isupper() else ch for ch in name).strip()

    def seat_name(self, seat: int) -> str:
        """What a person at ``seat`` is called: the game's name for the seat
        (``seat_names``), or ``"player N"``."""
        return self.seat_names.get(seat, f"player {seat}")

    def parse_action(self, state: S, text: str) -> Any:
        """The legal action ``text`` names (``str(action)`` reads back as ``action``);
        :class:`IllegalActionError` naming the nearest legal actions when none matches.
        Without a game's own reader, ``text`` is matched against the legal actions'
        ``str`` (case and card notation aside).  A text longer than
        :data:`~cardrules.protocol.MAX_ACTION_TEXT` characters (far beyond any action's) is refused before
        it is read."""
        self.check_state(state)
        if isinstance(text, str) and len(text) > MAX_ACTION_TEXT:
            raise IllegalActionError(
                f"{self.name}: an action's text is at most {MAX_ACTION_TEXT} characters, "
                f"not {len(text)} ({_cut(text, 40)!r})"
            )
        if self._parse_action is not None:
            return self._parse_action(state, text)
        from .notation import Notation, read

        return read(state, text, self.legal_actions(state), Notation())

    def render(self, state: S, player: int | None = None) -> str:
        """The table as text: all of it, or only what ``player`` may see (drawn from
        :meth:`view`, so nothing hidden can show)."""
        self.check_state(state)
        if player is not None:
            self.view(state, player)  # checks the player
        if self._render is not None:
            return self._render(state, player)
        lines = [f"{self.name}: " + ("game over" if state.is_over else f"to act: {state.to_act!r}")]
        lines.append("scores: " + " ".join(map(str, state.scores)))
        if player is not None:
            hand = getattr(self.view(state, player), "hand", None)
            if hand is not None:
                lines.append("your hand: " + (" ".join(map(str, hand)) or "(empty)"))
        return "\n".join(lines)

    def summary(self, state: S) -> str:
        """The game so far in a few lines: the game's own summary, or the scores (and
        the winners at the end)."""
        if self._summary is not None:
            return self._summary(state)
        line = "scores: " + ", ".join(map(str, state.scores))
        if state.is_over:
            line += "; winner(s): " + ", ".join(map(str, state.winners))
        return line

    # -- machinery ---------------------------------------------------------------------

    def check_players(self, players: int | None) -> int:
        """The number of players ``players`` asks for: the game's ``default_players`` for
        ``None``; :class:`CardRulesError` naming the game's player counts for any number
        that is not one of them."""
        if players is None:
            return self.default_players
        # 2.0 == 2 and True == 1: a count of players is an int, nothing that equals one
        if isinstance(players, bool) or not isinstance(players, int) or players not in self.player_counts:
            allowed = ", ".join(map(str, self.player_counts))
            raise CardRulesError(f"{self.name} is played by {allowed} players, not {players!r}")
        return players

    def _check_shuffle(self, state: S, shuffle: Shuffle) -> None:
        expected = self._chance_cards(state)
        order = shuffle.order
        if type(order) is tuple and type(expected) is tuple and same_objects(order, expected):
            return  # the very cards (cards are interned): the common case, checked in C
        bad = [c for c in order if not isinstance(c, Card)]
        if bad:  # first: a non-card may not even be hashable
            why = f"{bad[0]!r} is not a Card"
        elif len(order) != len(expected) or Counter(order) != Counter(expected):
            got, want = Counter(order), Counter(expected)
            if got - want:
                why = "it holds " + " ".join(map(str, canonical((got - want).elements())))
                why += " that " + ("is" if sum((got - want).values()) == 1 else "are")
                why += " not to be shuffled here"
            else:
                why = "it lacks " + " ".join(map(str, canonical((want - got).elements())))
        else:
            return
        raise IllegalActionError(
            f"{self.name}: Shuffle must order exactly the {len(expected)} cards of chance_cards(state); {why}"
        )

    def _resolve_chance(self, state: S) -> S:
        """Resolve chance nodes with the state's seed: the k-th shuffle of a game (k
        counts the Shuffle actions in its history, from 0) puts the canonical chance
        cards in the order :func:`seeded_order` gives for the seed and k."""
        seed = state.seed
        k = countOf(map(type, state.history), Shuffle)  # a C loop: histories are long
        while state.to_act is CHANCE:
            state = self._deal(state, Shuffle(seeded_order(seed, k, self._chance_cards(state))))
            k += 1
        return state


#: the longest text :meth:`GameDef.parse_action` reads (an action's text is a line)
MAX_ACTION_TEXT: Final = 10_000


class _WrongSample(Exception):
    """A sampler that deals states of another class (a fault of the game's, not the view's)."""


def _cut(text: str, limit: int = 200) -> str:
    """``text``, cut to about ``limit`` characters (for an error message that echoes it)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _kind(value: object) -> str:
    """What ``value`` is, for a message: its type, and the game it belongs to."""
    game = _BY_STATE.get(type(value))
    if game is not None:
        return f"{'an' if game.name[0] in 'aeiou' else 'a'} {game.name} state"
    return f"{type(value).__module__}.{type(value).__qualname__}".removeprefix("builtins.")


def _seed_bytes(seed: object) -> bytes:
    """A sampler's seed as bytes: every string seeds it, a lone surrogate too (what
    ``random.Random`` gives for the text of ``sample:{seed}``, where it can encode it)."""
    return f"sample:{seed}".encode("utf-8", "surrogatepass")


def register_game(game: GameDef[Any, Any]) -> GameDef[Any, Any]:
    """Register ``game`` under its name: from then on :data:`GAMES`,
    :func:`~cardrules.protocol.game_of`, JSON (:func:`cardrules.to_json`),
    :func:`~cardrules.simulation.simulate` and :func:`~cardrules.simulation.tournament`,
    the agents, the search, the ``cardrules`` command and the OpenSpiel and PettingZoo
    adapters all take it.  Returns ``game``.

    Registering the same game again does nothing; another game of the same name, or a
    second game on the same ``State`` class, is refused with :class:`CardRulesError`.
    """
    if not isinstance(game, GameDef):
        raise TypeError(f"register_game takes a GameDef, not {type(game).__name__}")
    known = _BY_NAME.get(game.name)
    if known is game:
        return game
    if known is not None or (game.name in GAME_NAMES and not _loading_builtin(game)):
        raise CardRulesError(f"a game named {game.name!r} is already registered")
    other = _BY_STATE.get(game.State)
    if other is not None:
        raise CardRulesError(f"{game.State.__name__} is already the state of game {other.name!r}")
    _BY_STATE[game.State] = game
    _BY_NAME[game.name] = game
    return game


def _loading_builtin(game: GameDef[Any, Any]) -> bool:
    # a built-in game registers itself from its own package, cardrules.<name>
    return game.module == f"cardrules.{game.name}"


def game_named(name: str, module: str | None = None) -> GameDef[Any, Any]:
    """The registered game ``name``; when it is not registered yet and ``module`` is
    given, that module is imported first (it registers the game as it loads): how a
    worker process finds a game that a program of its own defined."""
    if module is not None and name not in _BY_NAME and name not in GAME_NAMES:
        importlib.import_module(module)
    return GAMES[name]


def game_of(state: object) -> GameDef[Any, Any]:
    """The :class:`GameDef` a state belongs to."""
    try:
        return _BY_STATE[type(state)]
    except KeyError:
        raise CardRulesError(f"{type(state).__name__} is not a cardrules game state") from None


def chance_cards(state: Any) -> tuple[Card, ...]:
    """At a chance node, the cards a :class:`Shuffle` must order, in canonical order
    (``()`` anywhere else)."""
    return game_of(state).chance_cards(state)


GAME_NAMES: Final = ("aegis", "gunsore", "eleusis", "haggis")

#: The entry-point group in which an installed distribution declares its games, each as
#: ``NAME = "module:GAME"`` (``GAME`` a :class:`GameDef` named ``NAME``): :data:`GAMES`
#: lists them, and imports one when it is first asked for.
ENTRY_POINT_GROUP: Final = "cardrules.games"

#: The environment variable that, set to anything but ``""`` or ``"0"``, turns the games
#: of installed distributions off (:data:`ENTRY_POINT_GROUP`): only the built-in games
#: and the ones a program registers are known.
DISABLE_PLUGINS_VARIABLE: Final = "CARDRULES_DISABLE_PLUGIN_AUTOLOAD"


class GamePluginWarning(UserWarning):
    """An installed game that is left out: its name is a built-in game's, or another
    distribution declared it first."""


# the entry points of the installed games by name (None: not looked for yet), and where
# each game that is not built in came from, for ``cardrules games``
_PLUGINS: dict[str, Any] | None = None
_SOURCES: dict[str, str] = {}


def _plugins() -> dict[str, Any]:
    """The installed games' entry points by name, looked for once (none when
    :data:`DISABLE_PLUGINS_VARIABLE` is set)."""
    global _PLUGINS
    if os.environ.get(DISABLE_PLUGINS_VARIABLE, "") not in ("", "0"):
        return {}
    if _PLUGINS is None:
        from importlib.metadata import entry_points

        found: dict[str, Any] = {}
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            if ep.name in GAME_NAMES:
                warnings.warn(
                    f"the game {ep.name!r} of the distribution {_distribution(ep)} ({ep.value}) is "
                    f"left out: {ep.name!r} is a built-in game, which is kept",
                    GamePluginWarning,
                    stacklevel=3,
                )
            elif ep.name in found:
                warnings.warn(
                    f"the game {ep.name!r} of the distribution {_distribution(ep)} ({ep.value}) is "
                    f"left out: the distribution {_distribution(found[ep.name])} declares it too",
                    GamePluginWarning,
                    stacklevel=3,
                )
            else:
                found[ep.name] = ep
        _PLUGINS = found
    return _PLUGINS


def _distribution(ep: Any) -> str:
    dist = getattr(ep, "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else "(unknown)"


def _load_plugin(name: str) -> GameDef[Any, Any]:
    """Import the installed game ``name`` from its entry point and register it."""
    ep = _plugins()[name]
    where = f"the game {name!r} of the distribution {_distribution(ep)} ({ep.value})"
    try:
        game = ep.load()
    except Exception as exc:
        raise CardRulesError(f"{where} cannot be loaded: {type(exc).__name__}: {exc}") from exc
    if not isinstance(game, GameDef):
        raise CardRulesError(f"{where} is a {type(game).__name__}, not a GameDef")
    if game.name != name:
        raise CardRulesError(f"{where} is a game named {game.name!r}, not {name!r}")
    register_game(game)  # nothing when its module registered it as it loaded
    if game.module is None:  # so that a worker process finds it
        game.module = ep.module
    _SOURCES.setdefault(name, f"plugin: {_distribution(ep)} ({ep.value})")
    return game


def game_source(name: str) -> str:
    """Where the game ``name`` comes from, in words: ``"built-in"``, ``"plugin:
    DISTRIBUTION VERSION (module:GAME)"`` for an installed game
    (:data:`ENTRY_POINT_GROUP`), or ``"registered by MODULE"`` for a game a program
    registered (``cardrules --load``, :func:`register_game`)."""
    if name in GAME_NAMES:
        return "built-in"
    if name in _SOURCES:
        return _SOURCES[name]
    game = _BY_NAME.get(name)
    if game is not None:
        return f"registered by {game.module or 'a program'}"
    if name in _plugins():
        ep = _plugins()[name]
        return f"plugin: {_distribution(ep)} ({ep.value})"
    raise UnknownGameError(f"no game named {name!r} (games: {', '.join(GAMES)})")


class _Games(Mapping[str, "GameDef[Any, Any]"]):
    """``GAMES["aegis"]`` ...: the four games, imported when first asked for, then every
    game a program registered with :func:`register_game`, then the games of installed
    distributions (:data:`ENTRY_POINT_GROUP`), each imported when first asked for
    (names are unique: a built-in or registered game keeps its name)."""

    def __getitem__(self, name: str) -> GameDef[Any, Any]:
        if name in GAME_NAMES and name not in _BY_NAME:
            importlib.import_module(f"cardrules.{name}")
        try:
            return _BY_NAME[name]
        except (KeyError, TypeError):
            pass
        if isinstance(name, str) and name in _plugins():
            return _load_plugin(name)
        known = ", ".join(self._names())
        raise UnknownGameError(f"no game named {name!r} (games: {known})") from None

    def _names(self) -> list[str]:
        names = [*GAME_NAMES, *(n for n in _BY_NAME if n not in GAME_NAMES)]
        return names + [n for n in _plugins() if n not in _BY_NAME]

    def __contains__(self, name: object) -> bool:
        return name in GAME_NAMES or name in _BY_NAME or (isinstance(name, str) and name in _plugins())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def __repr__(self) -> str:
        return f"GAMES({', '.join(self._names())})"


#: Every game by name: ``GAMES["haggis"].new_game(players=3, seed=1)``.
GAMES: Final[Mapping[str, GameDef[Any, Any]]] = _Games()
