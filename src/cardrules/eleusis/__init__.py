"""New Eleusis: a god with a secret rule, and scientists who try to find it.

Robert Abbott's New Eleusis as Martin Gardner printed it (1977), with the readings the
documentation's New Eleusis page lists.  Player 0 is **God**, who wrote the secret rule
(:attr:`Rules.secret`, a compiled :class:`Rule` of the rule language) and never acts;
players ``1 .. n-1`` are **scientists** who play cards (one, or a *string* of 2-4) onto a
main line, are told only "right" or "wrong", and try to find the rule and empty their
hands.  One :func:`new_game` is one round; :func:`match_scores` adds rounds up.

>>> from cardrules import eleusis, parse_cards
>>> state = eleusis.new_game(seed=1)
>>> state.to_act in (1, 2, 3, 4), len(state.main), state.hands[0]
(True, 1, ())
>>> sorted({type(a).__name__ for a in eleusis.legal_actions(state)})
['NoPlay', 'Play']
>>> card = state.hands[state.to_act][0]
>>> after = eleusis.apply(state, eleusis.Play((card,)))
>>> card in after.main or any(card in cards for _, cards in after.sides)
True

Every rule of the game is in ``cardrules.eleusis.rules``; the New Eleusis page of the
documentation gives the rules as implemented and every reading taken where the sources
are silent.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from ..cards import Card
from ..errors import CardRulesError as CardRulesError
from ..lang.analysis import EquivalenceNotProven, Profile, equivalent, profile
from ..lang.errors import RuleSyntaxError, RuleTypeError
from ..lang.rules import Rule, compile_rule, compile_rules
from ..lang.tools import acceptance
from ..lang.vocabulary import Vocabulary
from ..protocol import GameDef, SearchHooks, register_game
from ..search.hooks import Evaluation
from . import agent as _agent
from . import rules as _rules
from .agent import GreedyAgent, card_standing
from .encoding import EleusisEncoding
from .god import choose_rule, chosen_text
from .induction import Observation, induce
from .layout import table_layout
from .player import TableScientist
from .rules import MAX_STRINGS as MAX_STRINGS
from .rules import (
    BecomeProphet,
    Judge,
    NoPlay,
    Pass,
    Play,
    Rules,
    State,
    View,
    cards_to_shuffle,
    deal_cards,
    default_rule,
    legal_actions,
    match_scores,
    player_view,
    public_view,
    round_scores,
    start_state,
    step_state,
    strings,
)
from .rules import Marker as Marker
from .rules import Phase as Phase
from .rules import SideLine as SideLine
from .rules import Task as Task
from .sampler import state_sampler
from .science import ScienceRound, Scientist, guess_is_right, play_science
from .text import (
    NOTATION_HELP,
    Layout,
    after_action,
    describe,
    layout_text,
    read_action,
    render_table,
    rules_from_text,
    summary,
)

__all__ = [
    "DEFAULT_RULE_TEXT",
    "DEMO_SEAT",
    "LIBRARY",
    "BecomeProphet",
    "EquivalenceNotProven",
    "GreedyAgent",
    "Judge",
    "Layout",
    "NoPlay",
    "Pass",
    "Play",
    "Profile",
    "Rule",
    "RuleSyntaxError",
    "RuleTypeError",
    "Rules",
    "State",
    "View",
    "Vocabulary",
    "acceptance",
    "apply",
    "chance_cards",
    "compile_rule",
    "compile_rules",
    "default_rule",
    "describe",
    "equivalent",
    "layout_text",
    "legal_actions",
    "match_scores",
    "new_game",
    "profile",
    "replay",
    "round_scores",
    "strings",
    "summary",
    "view",
]

# The constants of the public face, restated here with their comments, which the
# documentation reads from this file.

#: The default secret rule's text: alternating colours.
DEFAULT_RULE_TEXT: Final = _rules.DEFAULT_RULE_TEXT

#: Where ``cardrules demo`` seats the :class:`GreedyAgent`: player 0 is God and never acts.
DEMO_SEAT: Final = _agent.DEMO_SEAT

#: The candidate rules :class:`GreedyAgent` keeps in mind by default.
LIBRARY: Final = _agent.LIBRARY

# -- the game --------------------------------------------------------------------------


# The public functions over GAME, written out on purpose (why: GameDef, cardrules.protocol).
def new_game(rules: Rules | None = None, *, players: int = 5, seed: object = None) -> State:
    """A new round for ``players`` (3..8; player 0 is God).  With a ``seed`` the deal
    (and every later shuffle) resolves itself; without one the state waits at a chance
    node for :class:`~cardrules.Shuffle` (``order[i]`` goes to scientist ``i % S + 1``
    for the ``S * hand_size`` first cards, then the starter; the rest is the stock, top
    first)."""
    return GAME.new_game(rules, players=players, seed=seed)


def view(state: State, player: int) -> View:
    """What ``player`` may see (:class:`View`): God's view holds the rule, a
    scientist's never does."""
    result: View = GAME.view(state, player)
    return result


def replay(rules: Rules | None, actions: Iterable[Any], *, players: int = 5) -> State:
    """The state reached by applying ``actions`` (chance actions included) to a new
    unseeded round."""
    return GAME.replay(rules, actions, players=players)


def chance_cards(state: State) -> tuple[Card, ...]:
    """At a chance node, the cards a :class:`~cardrules.Shuffle` must order, in
    canonical order: the decks at the deal, a fresh deck, or a returned hand with the
    stock (``()`` anywhere else)."""
    return GAME.chance_cards(state)


def parse_action(state: State, text: str) -> Any:
    """The action ``text`` names: cards in the order played (``5H``, or a string
    ``5H 6C 7D``, legal though not listed by :func:`legal_actions`), ``no play``,
    ``prophet`` or ``pass``, ``judge right``, ``judge wrong``, ``judge wrong 5H``;
    case-insensitive, cards as :func:`~cardrules.parse_cards` reads them.  Text that
    names no legal action raises :class:`~cardrules.IllegalActionError` with the reason
    and the nearest legal actions.
    """
    return read_action(state, text, apply)


def render(state: State, player: int | None = None) -> str:
    """The table as text: the layout, the cards each scientist holds, the prophet, the
    sudden-death count, the play being judged, the hands (only ``player``'s own when a
    player is given: the text is drawn from :func:`view`; God's view shows the rule),
    and who is to act."""
    result: str = GAME.render(state, player)
    return result


__all__ += ["parse_action", "render"]
__all__ += ["TableScientist", "choose_rule"]
__all__ += ["Observation", "ScienceRound", "Scientist", "guess_is_right", "induce", "play_science"]


def sample_state(view: View, *, seed: object = None, rules: Rules | None = None) -> State:
    """A whole state consistent with ``view`` (``view(sample, view.player) == view``):
    the cards ``view.player`` has not seen are dealt uniformly to the other scientists'
    hands and the stock (a hand shown with a no-play, and cards being judged, stay
    where they are).  A scientist does not know the secret rule: the sample plays
    the rule of ``rules`` (the default rule when ``None``); God's view holds the rule
    and its samples play it.  The sample's ``history`` is empty and its ``seed``
    ``None`` (:mod:`cardrules.sampling`).

    >>> state = new_game(seed=3)
    >>> v = view(state, 2)
    >>> view(sample_state(v, seed=1), 2) == v
    True
    """
    return GAME.sample_state(view, seed=seed, rules=rules)


GAME: Final[GameDef[State, Rules]] = GameDef(
    "eleusis",
    rules_type=Rules,
    state_type=State,
    action_types=(Play, NoPlay, BecomeProphet, Pass, Judge),
    player_counts=range(3, 9),
    default_players=5,
    start=start_state,
    legal_actions=legal_actions,
    step=step_state,
    chance_cards=cards_to_shuffle,
    deal=deal_cards,
    view=player_view,
    public_view=public_view,
    describe=describe,
    summary=summary,
    parse_action=parse_action,
    render=render_table,
    title="New Eleusis",
    notation=NOTATION_HELP,
    after_action=after_action,
    default_seat=DEMO_SEAT,
    observer_seats=(0,),
    seat_names={0: "God"},
    rules_from_text=rules_from_text,
    sampler=state_sampler,
    greedy_agent=GreedyAgent,
    encoding=EleusisEncoding,
    search=SearchHooks(reward_scale=4.0, evaluation=Evaluation(card_standing), strong=TableScientist),
    rule_chooser=chosen_text,
    table_layout=table_layout,
    module=__name__,
)
register_game(GAME)

# The module's apply is the game's own fast function (GameDef.apply_function): the
# commonest path of an action, with no call in between.
apply = GAME.apply_function(
    """The state after ``action`` (a string is ``Play`` of 2..4 cards); raises
    :class:`~cardrules.IllegalActionError` saying why when it is not legal.""",
    __name__,
)
