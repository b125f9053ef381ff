"""The search agent: :class:`ISMCTSAgent`, and :func:`components`, which makes the parts of
a search from a :class:`~cardrules.search.SearchConfig` for a game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .._seeded import SeededAgent
from ..errors import CardRulesError
from ..protocol import GAMES, GameDef, SearchHooks
from .analysis import Analysis, of_tree
from .belief import Belief, LikelihoodBelief, ParticleBelief, UniformBelief
from .config import DEFAULT_ITERATIONS, SearchConfig
from .loop import Components, search
from .opponents import GreedyOpponents, Opponents, PolicyOpponents, SearchOpponents
from .rollout import GreedyRollout, PolicyRollout, RandomRollout, Rollout
from .selection import UCB
from .tree import Node
from .value import NO_HOOKS, ChanceValue, LeafValue, MarginValue

__all__ = ["ISMCTSAgent", "analyse", "belief_for", "components", "most_visited"]

#: Options of the search agent under the names they had before :class:`SearchConfig`.
_OLD_OPTIONS = {"reward": "value"}


def _hooks(game: GameDef[Any, Any]) -> SearchHooks:
    return game.search if game.search is not None else NO_HOOKS


def _offered(game: GameDef[Any, Any], what: Any, name: str, wanted: str) -> Any:
    """``what`` (something the game offers), or an error saying the game lacks it."""
    if what is None:
        raise CardRulesError(f"{game.name} has no {name}, which {wanted} needs")
    return what


def _greedy(game: GameDef[Any, Any], wanted: str) -> Any:
    return _offered(game, game.greedy_agent, "greedy agent", wanted)


def components(game: GameDef[Any, Any], config: SearchConfig) -> Components:
    """The selection, opponent model, rollout and leaf value of ``config`` for ``game``;
    a :class:`~cardrules.CardRulesError` naming what the game does not offer."""
    hooks = _hooks(game)
    selection = UCB(
        config.exploration,
        game.legal_actions,
        game.view,
        widening=config.widening,
        prior=_greedy(game, "prior='greedy'") if config.prior == "greedy" else None,
        candidates=(
            _offered(
                game, hooks.candidates, "candidate actions (SearchHooks.candidates)", "actions='candidates'"
            )
            if config.actions == "candidates"
            else None
        ),
    )
    opponents: Opponents = SearchOpponents()
    if config.opponents == "policy":
        opponents = PolicyOpponents(
            _offered(game, hooks.policy, "policy (SearchHooks.policy)", "opponents='policy'")
        )
    elif config.opponents == "greedy":
        opponents = GreedyOpponents(_greedy(game, "opponents='greedy'"), game.view, game.legal_actions)
    return Components(game, selection, opponents, _rollout(game, config, hooks), _value(game, config, hooks))


def _rollout(game: GameDef[Any, Any], config: SearchConfig, hooks: SearchHooks) -> Rollout:
    limit = config.max_rollout if config.cutoff is None else min(config.max_rollout, config.cutoff)
    if config.rollout == "policy":
        policy = _offered(game, hooks.policy, "policy (SearchHooks.policy)", "rollout='policy'")
        return PolicyRollout(game, limit, policy, epsilon=config.epsilon)
    if config.rollout == "greedy":
        return GreedyRollout(game, limit, _greedy(game, "rollout='greedy'"), epsilon=config.epsilon)
    return RandomRollout(game, limit)


def _value(game: GameDef[Any, Any], config: SearchConfig, hooks: SearchHooks) -> LeafValue:
    evaluation = hooks.evaluation
    measure = None if evaluation is None else evaluation.measure
    if config.value == "chance":
        if measure != "chance":
            raise CardRulesError(
                f"{game.name} has no evaluation of each player's chance of winning "
                "(SearchHooks.evaluation with measure='chance'), which value='chance' needs"
            )
        return ChanceValue(evaluation)  # type: ignore[arg-type]
    if config.cutoff is not None and measure != "points":
        raise CardRulesError(
            f"{game.name} has no evaluation in points (SearchHooks.evaluation), which "
            f"cutoff={config.cutoff!r} needs to rate a hand cut short"
        )
    return MarginValue(hooks.reward_scale, evaluation if measure == "points" else None)


def belief_for(game: GameDef[Any, Any], config: SearchConfig, rules: Any = None) -> Belief:
    """The belief of ``config`` for ``game`` (``rules``: the game's rules when the view
    does not show them)."""
    if config.belief == "likelihood":
        likelihood = _offered(
            game, _hooks(game).likelihood, "likelihood (SearchHooks.likelihood)", "belief='likelihood'"
        )
        return LikelihoodBelief(game, likelihood, rules)
    if config.belief == "particles":
        model = _greedy(game, "belief='particles'")
        return ParticleBelief(game, model, config.belief_samples, config.belief_epsilon, rules)
    return UniformBelief(game, rules)


class ISMCTSAgent(SeededAgent):
    """Single-observer information-set Monte Carlo tree search (:mod:`cardrules.search`).

    ``ISMCTSAgent(game, config, seed=..., rules=...)``: ``game`` a name or a
    :class:`~cardrules.GameDef`, ``config`` a :class:`~cardrules.search.SearchConfig`
    (default: the plain search), ``seed`` the agent's own randomness, ``rules`` the
    game's rules when a view does not show them (New Eleusis: the rule the samples play
    for).  Any field of :class:`~cardrules.search.SearchConfig` may also be given by
    keyword (``ISMCTSAgent("haggis", iterations=100, prior="greedy")``), replacing the
    configuration's.

    ``iterations_done`` is the number of iterations of the last decision.  A decision
    with a single legal action returns it without searching.
    """

    SEED_PREFIX = "ismcts"

    def __init__(
        self,
        game: str | GameDef[Any, Any],
        config: SearchConfig | None = None,
        *,
        seed: object = None,
        rules: Any = None,
        **options: Any,
    ) -> None:
        super().__init__(seed)
        g = GAMES[game] if isinstance(game, str) else game
        if not isinstance(g, GameDef):
            raise CardRulesError(f"ISMCTSAgent needs a game name or a GameDef, not {game!r}")
        if config is not None and not isinstance(config, SearchConfig):
            raise CardRulesError(f"ISMCTSAgent's config must be a SearchConfig, not {config!r}")
        options = {_OLD_OPTIONS.get(k, k): v for k, v in options.items()}
        self.config = (config or SearchConfig()).replace(**options) if options else (config or SearchConfig())
        self.game = g
        self.rules = rules
        self.parts = components(g, self.config)
        self.belief = belief_for(g, self.config, rules)
        self.iterations_done = 0
        self.player: Any = None  # the player of the last search

    @property
    def iterations(self) -> int | None:
        """The iterations per decision (``None``: only a time limit)."""
        c = self.config
        return DEFAULT_ITERATIONS if c.iterations is None and c.time_per_move is None else c.iterations

    @property
    def time_per_move(self) -> float | None:
        return self.config.time_per_move

    def reset(self, seed: object) -> None:
        super().reset(seed)
        self.belief.reset()  # a new game: nothing is known of its cards

    def __repr__(self) -> str:
        return f"ISMCTSAgent({self.game.name!r}, {self.config!r}, seed={self.seed!r})"

    def __call__(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise CardRulesError("ISMCTSAgent was asked to act with no legal action")
        if len(legal_actions) == 1:
            self.iterations_done = 0
            return legal_actions[0]
        rng = random.Random(self._rng.getrandbits(64))  # one stream per decision
        root = self.search(view, rng)
        best = most_visited(root, legal_actions)
        self.belief.after(best, rng)
        return best

    def analyse(self, view: Any, legal_actions: Sequence[Any]) -> Analysis:
        """Search ``view`` as for a decision, and return each of ``legal_actions``'s
        estimated value, visits and interval (:class:`~cardrules.search.Analysis`); its
        ``best`` is the action the decision would take.  No action is taken: the belief
        does not hear of one."""
        if not legal_actions:
            raise CardRulesError("there is nothing to analyse: no legal action")
        rng = random.Random(self._rng.getrandbits(64))
        root = self.search(view, rng)
        return of_tree(root, legal_actions, self.game.name, self.player, self.iterations_done, self.config)

    def search(self, view: Any, rng: random.Random) -> Node:
        """The tree of one decision from ``view``, searched with ``rng`` (its root)."""
        draw = self.belief.prepare(view, rng)
        root, self.iterations_done, self.player = search(
            self.parts, draw, rng, self.iterations, self.config.time_per_move
        )
        return root


def most_visited(root: Node, legal_actions: Sequence[Any]) -> Any:
    """The most visited of ``legal_actions`` at ``root``; ties to the first in their order."""
    best = None
    most = -1
    for a in legal_actions:
        child = root.children.get(a)
        n = child.visits if child is not None else 0
        if n > most:
            best, most = a, n
    return best


def analyse(
    game: str | GameDef[Any, Any],
    view: Any,
    legal_actions: Sequence[Any] | None = None,
    *,
    config: SearchConfig | None = None,
    seed: object = None,
    rules: Any = None,
) -> Analysis:
    """Each legal action's estimated value, visits and 95% interval for the player whose
    ``view`` it is (:class:`~cardrules.search.Analysis`), as the search of ``config``
    (default: the game's strongest configuration, else the plain search) finds them with
    ``seed``.  ``legal_actions`` default to those of a state drawn from the view (the
    player to act sees its own legal actions).  With the same seed and configuration,
    ``analyse(...).best`` is what ``ISMCTSAgent(game, config, seed=seed)`` plays.

    >>> from cardrules import GAMES
    >>> g = GAMES["aegis"]
    >>> state = g.new_game(seed=4)
    >>> a = analyse("aegis", g.view(state, state.to_act), config=SearchConfig(iterations=60), seed=1)
    >>> sum(line.visits for line in a.lines) == a.iterations == 60
    True
    """
    g = GAMES[game] if isinstance(game, str) else game
    if config is None:
        config = _hooks(g).config or SearchConfig()
    if legal_actions is None:
        legal_actions = g.legal_actions(g.sampler(view, rules=rules)(random.Random(0)))
    return ISMCTSAgent(g, config, seed=seed, rules=rules).analyse(view, legal_actions)
