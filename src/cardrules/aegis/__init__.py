"""Aegis (イージス): a two-player bidding trick-taking game with a key card.

The rules are those of the author's own manual (「イージス/説明書」 by 永施 誠, Stardust
Crown, revised up to 2002-12-21); the Aegis page of the documentation tells them in
English and lists every decision taken where the manual is silent.

A season in brief: a chance :class:`~cardrules.Shuffle` deals the **key card** and five
cards each; the master may exchange up to four times (the slave only after the master
did); both bid a *norma* bounded by the exchange count; the higher bidder attacks; five
tricks with must-follow, each resolved by the ``aegis`` trick table; Break, Keep,
Conquest, Promise and Save score the season.  The game ends at a 10-point lead or 25
points.

>>> from cardrules import aegis
>>> state = aegis.new_game(seed=7)
>>> state.phase, state.to_act == state.master
('exchange', True)
>>> len(aegis.legal_actions(state))         # stop, or exchange any of 31 subsets
32
>>> state = aegis.apply(state, aegis.Exchange(()))      # the master stops at once
>>> [str(a) for a in aegis.legal_actions(state)]
['bid 1', 'bid 2', 'bid 3', 'bid 4', 'bid 5']
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from ..cards import Card
from ..protocol import GameDef, SearchHooks, register_game
from .agent import STRONG_CONFIG, GreedyAgent, action_likelihood, candidate_actions, rollout_policy
from .encoding import AegisEncoding
from .layout import table_layout
from .rules import HAND_SIZE as HAND_SIZE
from .rules import MAX_EXCHANGES as MAX_EXCHANGES
from .rules import (
    STEPS,
    Bid,
    Evaluation,
    Exchange,
    Play,
    Rules,
    Season,
    State,
    Trick,
    View,
    cards_to_shuffle,
    deal_cards,
    draw_beats,
    evaluate,
    legal_actions,
    player_view,
    public_view,
    start_state,
    step_state,
)
from .rules import TRICKS as TRICKS
from .rules import Phase as Phase
from .sampler import state_sampler
from .text import NOTATION_HELP, describe, describe_for, read_action, render_table, summary

# The package's rooms: ``rules`` (the game itself), ``text`` (records, notation, the
# table as text), ``agent`` (the greedy agent and the search hooks) and ``sampler`` (states
# from a view).  This module gathers them into the game's GameDef and registers it.

__all__ = [
    "GAME",
    "Bid",
    "Evaluation",
    "Exchange",
    "GreedyAgent",
    "Play",
    "Rules",
    "Season",
    "State",
    "Trick",
    "View",
    "apply",
    "chance_cards",
    "describe",
    "describe_for",
    "draw_beats",
    "evaluate",
    "legal_actions",
    "new_game",
    "replay",
    "summary",
    "view",
]
__all__ += ["parse_action", "render"]  # listed last: the API page documents them last


# The public functions over GAME, written out on purpose (why: GameDef, cardrules.protocol).
def new_game(rules: Rules | None = None, *, players: int = 2, seed: object = None) -> State:
    """A new game of Aegis.  Without a ``seed`` it waits at the first-master draw for a
    :class:`~cardrules.Shuffle` (``order[0]`` is player 0's card, ``order[1]`` player
    1's); with one, every shuffle of the game resolves itself from the seed.
    ``players`` is always 2; it is accepted so that generic code may pass it."""
    return GAME.new_game(rules, players=players, seed=seed)


def view(state: State, player: int) -> View:
    """What ``player`` may see (:class:`View`)."""
    result: View = GAME.view(state, player)
    return result


def replay(rules: Rules | None, actions: Iterable[Any], *, players: int = 2) -> State:
    """The state reached by applying ``actions`` (shuffles included) to a new game
    (``players`` is always 2)."""
    return GAME.replay(rules, actions, players=players)


def parse_action(state: State, text: str) -> Any:
    """The legal action ``text`` names: ``7H``, ``bid 3``, ``exchange 2S 7H`` (cards in
    any order), ``keep`` (also ``stop``); case-insensitive, cards as
    :func:`~cardrules.parse_cards` reads them.  ``parse_action(state, str(a)) == a`` for
    every legal action ``a``.  Text that names no legal action raises
    :class:`~cardrules.IllegalActionError` with the reason and the nearest legal actions.

    >>> s = new_game(seed=7)
    >>> s.hands[s.to_act]
    (Card('QS'), Card('8H'), Card('AD'), Card('QD'), Card('3C'))
    >>> parse_action(s, "exchange qd, Qs") == Exchange("QS QD")
    True
    >>> parse_action(s, "bid 3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardrules.errors.IllegalActionError: 'bid 3': you cannot bid now: ...; nearest of 32 legal actions: ...
    """
    return read_action(state, text, apply)


def render(state: State, player: int | None = None) -> str:
    """The table as text: scores, the key card, each player's role, bid, tricks and
    exchanges, the trick on the table, the hands (only ``player``'s own when a player is
    given: the text is drawn from :func:`view`), and who is to act.

    >>> print(render(new_game(seed=7), 1))
    Aegis, season 1: scores 0-0 (25 wins, or a lead of 10)
    key card 7D, 41 cards in the stock
    player 0 (master): 5 cards
    player 1 (slave): 5 cards
    your hand: 8S 9S 6H JH 5D
    to act: player 0 (master) may exchange cards or keep
    """
    result: str = GAME.render(state, player)
    return result


def chance_cards(state: State) -> tuple[Card, ...]:
    """At a chance node, the cards a :class:`~cardrules.Shuffle` must order: the whole
    deck, in canonical order (``()`` anywhere else)."""
    return GAME.chance_cards(state)


def sample_state(view: View, *, seed: object = None, rules: Rules | None = None) -> State:
    """A whole state consistent with ``view`` (``view(sample, view.player) == view``):
    the opponent's hand, the stock and the opponent's discards are dealt at random from
    the cards ``view.player`` has not seen, uniformly, except that the opponent holds
    no card of a suit it has shown it lacks this season.  The sample's ``history`` is
    empty and its ``seed`` ``None`` (:mod:`cardrules.sampling`).  ``rules``: the game's
    rules, when not the default ones.

    >>> state = new_game(seed=3)
    >>> v = view(state, 0)
    >>> sample = sample_state(v, seed=1)
    >>> view(sample, 0) == v, sample.hands[0] == state.hands[0]
    (True, True)
    """
    return GAME.sample_state(view, seed=seed, rules=rules)


GAME: Final[GameDef[State, Rules]] = GameDef(
    "aegis",
    rules_type=Rules,
    state_type=State,
    action_types=(Exchange, Bid, Play),
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
    describe_for=describe_for,
    parse_action=parse_action,
    render=render_table,
    notation=NOTATION_HELP,
    scoring="season",
    sampler=state_sampler,
    greedy_agent=GreedyAgent,
    encoding=AegisEncoding,
    search=SearchHooks(
        config=STRONG_CONFIG,
        reward_scale=3.0,
        policy=rollout_policy,
        likelihood=action_likelihood,
        candidates=candidate_actions,
    ),
    table_layout=table_layout,
    module=__name__,
)
register_game(GAME)

# The module's apply is the game's own fast function (GameDef.apply_function): the
# commonest path of an action, with no call in between.
apply = GAME.apply_function(
    """The state after ``action``; an illegal action raises
    :class:`~cardrules.IllegalActionError` saying why ("must follow suit: you hold 7H").""",
    __name__,
)
