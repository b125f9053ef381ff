"""Haggis (Sean Ross, 2010) for two or three players: climbing with wild face cards, bombs
and bets.

The rules as implemented, and every decision taken where the sources are silent, are on
the Haggis page of the documentation.  In short: number cards
2..10 in four suits (five with moons for three players), each player owns a public J, Q
and K that stand for lower cards; players lead and beat *combinations* (sets, runs, runs
of sets, bombs), capture the tricks they win, and score the odd cards and faces they
captured, 5 points per card left in the largest opposing hand for going out, and bets.

The combinations are values:

>>> from cardrules import parse_cards
>>> from cardrules.haggis import combinations, beats
>>> for c in combinations(parse_cards("2S J Q K")):
...     print(c)
four 2s: 2S J Q K
a run of four to 5: 2S J Q K
a run of two pairs to 3: 2S J Q K
>>> high = combinations("10S 10H J Q")[-1]
>>> high.describe(), high.rank, high.width
('a run of two pairs to J', 11, 2)
>>> beats(high, combinations("9S 9H 10S 10H")[0])
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from ..cards import Card
from ..protocol import GameDef, SearchHooks, register_game
from ..search.hooks import Evaluation
from .agent import STRONG_CONFIG, GreedyAgent
from .combos import FACES as FACES
from .combos import Combo, Play, beats, card_points, combinations, deck, declarations
from .combos import J as J
from .combos import K as K
from .combos import Q as Q
from .encoding import HaggisEncoding
from .evaluation import evaluate as _evaluate
from .layout import action_group, table_layout
from .rules import (
    STEPS,
    Bet,
    GiveTrick,
    Pass,
    Rules,
    State,
    View,
    cards_to_shuffle,
    deal_cards,
    game_over,
    hand_points,
    legal_actions,
    next_leader,
    player_view,
    public_view,
    start_state,
    step_state,
)
from .sampler import state_sampler
from .text import NOTATION_HELP, describe, read_action, render_table, summary

__all__ = [
    "Bet",
    "Combo",
    "GiveTrick",
    "GreedyAgent",
    "Pass",
    "Play",
    "Rules",
    "State",
    "View",
    "apply",
    "beats",
    "card_points",
    "chance_cards",
    "combinations",
    "deck",
    "declarations",
    "describe",
    "game_over",
    "hand_points",
    "legal_actions",
    "new_game",
    "next_leader",
    "parse_action",
    "render",
    "replay",
    "summary",
    "view",
]


# The public functions over GAME, written out on purpose (why: GameDef, cardrules.protocol).
def new_game(rules: Rules | None = None, *, players: int = 2, seed: object = None) -> State:
    """A new game for 2 or 3 players.  With ``seed`` every deal resolves itself;
    without, the state waits at a chance node for a :class:`~cardrules.Shuffle` of
    :func:`deck` (``order[i]`` goes to player ``i % players`` for the first ``14 *
    players`` cards, the rest is the haggis).

    >>> state = new_game(seed=1)
    >>> state.to_act, len(state.hands[0]), len(state.haggis)
    (0, 17, 8)
    """
    return GAME.new_game(rules, players=players, seed=seed)


def view(state: State, player: int) -> View:
    """What ``player`` may see (see :class:`View`)."""
    v: View = GAME.view(state, player)
    return v


def replay(rules: Rules | None, actions: Iterable[Any], *, players: int = 2) -> State:
    """The state reached by ``actions`` (shuffles included) from a new unseeded game."""
    return GAME.replay(rules, actions, players=players)


def chance_cards(state: State) -> tuple[Card, ...]:
    """At a chance node, the number cards a :class:`~cardrules.Shuffle` must order:
    :func:`deck` for the number of players (``()`` anywhere else)."""
    return GAME.chance_cards(state)


def parse_action(state: State, text: str) -> Any:
    """The legal action ``text`` names: cards (``5H 6H 7H``, in any order; ``as 5s``,
    ``as run to 7``... where the cards declare several combinations), ``pass``,
    ``bet 15``, ``give 1``; case-insensitive, cards as :func:`~cardrules.parse_cards`
    reads them.  Text that names no legal action raises
    :class:`~cardrules.IllegalActionError` with the reason and the nearest legal
    actions."""
    return read_action(state, text, apply)


def render(state: State, player: int | None = None) -> str:
    """The table as text: scores, every player's cards left, wilds, bets and captured
    cards, the combination to beat, the hands (only ``player``'s own when a player is
    given: the text is drawn from :func:`view`), and who is to act."""
    result: str = GAME.render(state, player)
    return result


def sample_state(view: View, *, seed: object = None, rules: Rules | None = None) -> State:
    """A whole state consistent with ``view`` (``view(sample, view.player) == view``):
    the number cards ``view.player`` has not seen are dealt uniformly to the other
    players' hands (which keep their public face cards) and the haggis.  The sample's
    ``history`` is empty and its ``seed`` ``None`` (:mod:`cardrules.sampling`); the
    rules are the view's own.

    >>> state = new_game(players=3, seed=2)
    >>> v = view(state, 1)
    >>> view(sample_state(v, seed=1), 1) == v
    True
    """
    return GAME.sample_state(view, seed=seed, rules=rules)


GAME: Final[GameDef[State, Rules]] = GameDef(
    "haggis",
    rules_type=Rules,
    state_type=State,
    action_types=(Play, Pass, Bet, GiveTrick),
    player_counts=(2, 3),
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
    scoring="hand",
    sampler=state_sampler,
    greedy_agent=GreedyAgent,
    encoding=HaggisEncoding,
    search=SearchHooks(config=STRONG_CONFIG, reward_scale=40.0, evaluation=Evaluation(_evaluate)),
    table_layout=table_layout,
    action_group=action_group,
    module=__name__,
)
register_game(GAME)

# The module's apply is the game's own fast function (GameDef.apply_function): the
# commonest path of an action, with no call in between.
apply = GAME.apply_function(
    """The state after ``action``; an illegal action raises
    :class:`~cardrules.IllegalActionError` saying why ("a pair cannot beat a run of
    three").  A :class:`Combo` is accepted as ``Play(combo)``.""",
    __name__,
)
