"""Search agents: information-set Monte Carlo tree search over the game protocol, in parts.

:class:`ISMCTSAgent` is the *single-observer* ISMCTS of Cowling, Powley and Whitehouse
(2012, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2)).  It plays every game
and every player count through the protocol alone (``legal_actions``, ``apply``, the
game's state sampler and what its :class:`~cardrules.SearchHooks` offer), and, like
every agent, it is given only its player's view.  It is one loop
(:func:`cardrules.search.loop.search`) over components, each chosen by a
:class:`SearchConfig`:

1. the **belief** draws a determinization, one whole state consistent with the view
   (:mod:`cardrules.search.belief`: uniform, rejection by the game's likelihood, or
   particles followed from decision to decision);
2. the **selection** descends the tree of the searching player's information sets,
   whose edges are actions (:mod:`cardrules.search.selection`: UCB with availability
   counts, progressive widening, a prior, the game's candidate actions); the
   **opponent model** chooses the other players' actions, or leaves them to the
   selection (:mod:`cardrules.search.opponents`);
3. a **rollout** plays on to the end of the hand, or is cut off
   (:mod:`cardrules.search.rollout`: random, the game's policy, the game's greedy agent);
4. the **leaf value** rates where it stopped for each player, in ``[0, 1]``
   (:mod:`cardrules.search.value`: points against the others, or each player's chance of
   winning the game), and each node on the path is credited with the reward of the player
   who chose its action.

Each game's strongest agent is one configuration, its hooks' ``config``
(:func:`cardrules.agents.strong_agent`); :func:`analyse` gives each legal action's
estimated value, visits and interval for a view (``cardrules analyse``).

The agent is reproducible: with a ``seed`` and an ``iterations`` budget, the same view
gives the same action, whatever the hidden cards really are.  With ``time_per_move``
(seconds) the number of iterations depends on the machine, so the choice may differ
from run to run.

>>> from cardrules import GAMES
>>> from cardrules.search import ISMCTSAgent, SearchConfig
>>> g = GAMES["aegis"]
>>> state = g.new_game(seed=4)
>>> agent = ISMCTSAgent("aegis", SearchConfig(iterations=50), seed=1)
>>> action = agent(g.view(state, state.to_act), g.legal_actions(state))
>>> action in g.legal_actions(state)
True
"""

from __future__ import annotations

from .agent import ISMCTSAgent, analyse, belief_for, components
from .analysis import ActionValue, Analysis
from .belief import (
    FIND_BUDGET,
    FIND_TRIES,
    FRESH_SHARE,
    REJECTION_TRIES,
    TRACK_BUDGET,
    model_likelihood,
)
from .config import DEFAULT_ITERATIONS, SearchConfig
from .hooks import Evaluation
from .value import REWARD_SCALE

__all__ = [
    "DEFAULT_ITERATIONS",
    "FIND_BUDGET",
    "FIND_TRIES",
    "FRESH_SHARE",
    "REJECTION_TRIES",
    "REWARD_SCALE",
    "TRACK_BUDGET",
    "ActionValue",
    "Analysis",
    "Evaluation",
    "ISMCTSAgent",
    "SearchConfig",
    "analyse",
    "belief_for",
    "components",
    "model_likelihood",
]
