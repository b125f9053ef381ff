"""Gunsore (ガンソール, "guns or butter"): two players, two decks, development and war.

Every rule of the game is in this package; ``docs/games/gunsore.rst`` says which rules
come from the author's manual and which are reconstructed (the manual lost its lists of
war and truce triggers and its point table), and each reconstructed rule is a
:class:`Rules` option.

A game in short: the first master is drawn, five cards each are dealt, and a *season*
begins.  In the **development** phase the slave must *not* follow the led suit, each
player puts its own card's development points into its own pool, and both draw from the
stock.  Then war breaks out (a stuck slave, an empty stock, or the master's
:class:`DeclareWar`), and in the **war** phase the slave must follow, the trick's
winner takes the war points of both cards and nobody draws.  When both hands are empty
the bigger pool takes both pools into its owner's score (a *truce*); a new season is
dealt from what is left of the stock, and when the stock is gone the higher score wins.
A slave who plays the joker swaps the two pools.

>>> from cardrules import gunsore
>>> state = gunsore.new_game(seed=7)
>>> state.season, len(state.hands[0]), len(state.stock)
('development', 5, 96)
>>> action = gunsore.legal_actions(state)[0]
>>> state = gunsore.apply(state, action)
>>> state.table == (action.card,)
True

Which card wins a trick is asked of the trick table in ``Rules.table`` (the shipped
``gunsore`` table by default) through :meth:`cardrules.tricks.TrickTable.winner`, and
of nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from ..cards import Card
from ..protocol import GameDef, SearchHooks, register_game
from ..search.hooks import Evaluation
from . import rules as _rules
from . import text as _text
from .agent import STRONG_CONFIG, GreedyAgent, outlook
from .encoding import GunsoreEncoding
from .layout import table_layout
from .policy import rollout_policy
from .rules import (
    ACTION_TYPES,
    STEPS,
    DeclareWar,
    Play,
    Rules,
    State,
    View,
    cards_to_shuffle,
    deal_cards,
    first_master,
    legal_actions,
    player_view,
    public_view,
    start_state,
    step_state,
    stronger,
)
from .rules import Season as Season
from .rules import WarCause as WarCause
from .sampler import state_sampler
from .text import NOTATION_HELP, SeasonRecord, describe, read_action, render_table

__all__ = [
    "MAX_DECKS",
    "POINTS_DEVELOPMENT",
    "POINTS_WAR",
    "DeclareWar",
    "GreedyAgent",
    "Play",
    "Rules",
    "SeasonRecord",
    "State",
    "View",
    "apply",
    "chance_cards",
    "describe",
    "first_master",
    "legal_actions",
    "new_game",
    "parse_action",
    "render",
    "replay",
    "season_log",
    "stronger",
    "summary",
    "view",
]

# The public constants, named here again with their documentation (autodoc reads the
# ``#:`` comment of a constant in the module it documents); the values are the rules'.

#: Development points by rank (index 0 is the joker, 1 the ace, 11..13 J Q K).
#: Reconstructed (the manual's table is lost): A 11, numbers their face value, faces 10, joker 0.
POINTS_DEVELOPMENT: Final[tuple[int, ...]] = _rules.POINTS_DEVELOPMENT
#: War points by rank: A 1, numbers their face value, faces 0, joker 0 (reconstructed).
POINTS_WAR: Final[tuple[int, ...]] = _rules.POINTS_WAR
#: The most decks a game may use (a bound so that untrusted JSON cannot ask for a
#: deck of a billion cards).
MAX_DECKS: Final = _rules.MAX_DECKS


# -- the public functions ----------------------------------------------------------------


# The public functions over GAME, written out on purpose (why: GameDef, cardrules.protocol).
def new_game(rules: Rules | None = None, *, players: int = 2, seed: object = None) -> State:
    """A new game (two players).  With ``seed`` every shuffle resolves itself;
    without, the state waits at the first-master draw for a
    :class:`~cardrules.Shuffle` of the 106 cards (``order[0]`` to player 0,
    ``order[1]`` to player 1; on equal cards the next two), then at the deal for
    another (``order[0]`` to the master, ``order[1]`` to the slave, ... five each; the
    rest is the stock, top first).  ``players`` is always 2; it is accepted so that
    generic code may pass it."""
    return GAME.new_game(rules, players=players, seed=seed)


def view(state: State, player: int) -> View:
    """What ``player`` may see: its hand, both pools, the scores, the stock size, the
    cards on the table, and the opponent's hand size."""
    result: View = GAME.view(state, player)
    return result


def replay(rules: Rules | None, actions: Iterable[Any], *, players: int = 2) -> State:
    """The state reached by applying ``actions`` (shuffles included) to a new game
    (``players`` is always 2)."""
    return GAME.replay(rules, actions, players=players)


def chance_cards(state: State) -> tuple[Card, ...]:
    """At a chance node, the cards a :class:`~cardrules.Shuffle` must order: every card
    of the game's decks, in canonical order (``()`` anywhere else)."""
    return GAME.chance_cards(state)


# The text of the game (cardrules.gunsore.text), given the checked functions above:
# a season log replays with apply, parse_action tries a card with it, render draws
# from view.
def season_log(state: State) -> tuple[SeasonRecord, ...]:
    """The seasons of the game so far, replayed from ``state.history``."""
    return _text.season_log(state, new_game, apply)


def summary(state: State) -> str:
    """A short account of a game: its seasons and how each war broke out."""
    return _text.summary(state, season_log(state))


def parse_action(state: State, text: str) -> Any:
    """The legal action ``text`` names: a card (``7H``, ``JK``) or ``war``;
    case-insensitive, cards as :func:`~cardrules.parse_cards` reads them.  Text that
    names no legal action raises :class:`~cardrules.IllegalActionError` with the reason
    and the nearest legal actions.

    >>> s = new_game(seed=2024)
    >>> parse_action(s, "declare war")
    DeclareWar()
    """
    return read_action(state, text, apply)


def render(state: State, player: int | None = None) -> str:
    """The table as text: scores, the season and the pools, the stock, the card to
    answer, the hands (only ``player``'s own when a player is given: the text is drawn
    from :func:`view`), and who is to act.

    >>> print(render(new_game(seed=2024), 1))
    Gunsore: scores 0-0, development season, pools 0-0, 96 cards in the stock
    player 0 (master): 5 cards
    player 1 (slave): 5 cards
    your hand: JS 6H QH 7D 3C
    to act: player 0 (master) leads a card or declares war
    """
    result: str = GAME.render(state, player)
    return result


def sample_state(view: View, *, seed: object = None, rules: Rules | None = None) -> State:
    """A whole state consistent with ``view`` (``view(sample, view.player) == view``):
    the cards ``view.player`` has not seen (not in its hand, on the table or played)
    are dealt uniformly to the opponent's hand and the stock.  A suit the opponent
    showed it lacks in a war trick is not ruled out (the view does not keep the war's
    earlier tricks).  The sample's ``history`` is empty and its ``seed`` ``None``
    (:mod:`cardrules.sampling`); ``rules``: the game's rules, when not the default ones.

    >>> state = new_game(seed=3)
    >>> v = view(state, 1)
    >>> view(sample_state(v, seed=1), 1) == v
    True
    """
    return GAME.sample_state(view, seed=seed, rules=rules)


GAME: Final[GameDef[State, Rules]] = GameDef(
    "gunsore",
    rules_type=Rules,
    state_type=State,
    action_types=ACTION_TYPES,
    player_counts=(2,),
    default_players=2,
    start=start_state,
    legal_actions=legal_actions,
    step=step_state,
    steps=STEPS,
    chance_cards=cards_to_shuffle,
    deal=deal_cards,
    view=player_view,
    public_view=public_view,
    describe=describe,
    summary=summary,
    parse_action=parse_action,
    render=render_table,
    notation=NOTATION_HELP,
    scoring="season",
    sampler=state_sampler,
    greedy_agent=GreedyAgent,
    encoding=GunsoreEncoding,
    search=SearchHooks(
        config=STRONG_CONFIG,
        reward_scale=60.0,
        evaluation=Evaluation(outlook, "chance"),
        policy=rollout_policy,
    ),
    table_layout=table_layout,
    module=__name__,
)
register_game(GAME)

# The module's apply is the game's own fast function (GameDef.apply_function): the
# commonest path of an action, with no call in between.
apply = GAME.apply_function(
    """The state after ``action``; an illegal one raises
    :class:`~cardrules.IllegalActionError` saying why ("war: you hold 5H, so you must
    follow hearts").""",
    __name__,
)
