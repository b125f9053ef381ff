"""The search agent as it was before the search was split into components (kept only to check
that the component search makes the same decisions and takes the same time:
``benchmarks/search_parity.py``).

Information-set Monte Carlo tree search over the game protocol.

:class:`ISMCTSAgent` is the *single-observer* ISMCTS of Cowling, Powley and Whitehouse
(2012, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2)).  It plays every game
and every player count through the protocol alone (``legal_actions``, ``apply`` and the
game's state sampler), and, like every agent, it is given only its player's view:

1. each iteration *determinizes*: it draws one whole state consistent with the view
   (``GAMES[name].sampler(view)``: the analysis of what the view rules out is done once
   per decision, each draw only deals the hidden cards anew);
2. it descends one tree of the searching player's information sets, whose edges are
   actions: at each step only the actions legal in this determinization count; a node
   with an untried legal action is expanded, otherwise the child with the highest UCB
   score is taken, with the *availability count* (how often the child was legal when its
   parent was visited) in place of the parent's visits (optionally, *progressive
   widening* bounds a node's children by its visits, and a *prior*, the greedy agent,
   chooses the first child: for games with hundreds of legal actions; with
   ``opponents="policy"`` or ``"greedy"``, another player's action is the one a model of
   that player chooses with the cards it holds in the determinization; with
   ``actions="candidates"``, the tree tries only the game's candidate actions);
3. a rollout (random actions, or the game's greedy agent) plays on to the end of the
   hand: the first chance node, change of scores or end of the game (with ``cutoff=n``,
   at most ``n`` actions, and a hand left unfinished is rated by the game's evaluation,
   its hooks' ``evaluate``);
4. each node on the path is credited with the reward of the player who chose its action.

Rewards lie in ``[0, 1]``: at the end of the game 1 for a winner (shared on a tie) and 0
otherwise; at the end of a hand ``0.5 + 0.5 * tanh(m / scale)``, ``m`` being what the
player scored in the rollout less the mean of what the others scored, and ``scale`` a
typical hand's points in that game (its :class:`~cardrules.SearchHooks`' ``reward_scale``,
also :data:`REWARD_SCALE`).  A game that scores rarely says how each player stands
without a score (its hooks' ``standing``): New Eleusis scores only at the end of a round,
and a rollout cut off after ``max_rollout`` actions is rated by hand sizes instead (fewer
cards are better), at the same scale.

Everything the search uses of a game comes from its :class:`~cardrules.GameDef`: its
``legal_actions`` and ``apply``, its ``sampler``, its ``greedy_agent`` and its
:class:`~cardrules.SearchHooks`; so it plays any registered game
(:func:`cardrules.register_game`) that has a sampler.

The agent is reproducible: with a ``seed`` and an ``iterations`` budget, the same view
gives the same action, whatever the hidden cards really are.  With ``time_per_move``
(seconds) the number of iterations depends on the machine, so the choice may differ
from run to run.

>>> from cardrules import GAMES
>>> from cardrules.search import ISMCTSAgent
>>> g = GAMES["aegis"]
>>> state = g.new_game(seed=4)
>>> agent = ISMCTSAgent("aegis", iterations=50, seed=1)
>>> action = agent(g.view(state, state.to_act), g.legal_actions(state))
>>> action in g.legal_actions(state)
True
"""

from __future__ import annotations

import bisect
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from cardrules._seeded import SeededAgent
from cardrules.errors import CardRulesError
from cardrules.protocol import CHANCE, GAMES, GameDef, SearchHooks, Shuffle
from cardrules.sampling import shuffled

__all__ = [
    "FIND_BUDGET",
    "FIND_TRIES",
    "FRESH_SHARE",
    "REJECTION_TRIES",
    "REWARD_SCALE",
    "TRACK_BUDGET",
    "ISMCTSAgent",
    "model_likelihood",
]

#: The hooks of a game that declares none: nothing beyond its rules.
_NO_HOOKS: Final = SearchHooks()


class _OldHooks:
    """The hooks under the names this module read before they became components: one
    ``evaluation`` in place of ``standing`` (New Eleusis), ``evaluate`` (Haggis) and
    ``outlook`` (Gunsore), ``policy`` in place of ``rollout_policy``."""

    def __init__(self, game: GameDef[Any, Any], hooks: SearchHooks) -> None:
        e = hooks.evaluation
        points = e if e is not None and e.measure == "points" else None
        self.reward_scale = hooks.reward_scale
        self.rollout_policy = hooks.policy
        self.likelihood = hooks.likelihood
        self.candidates = hooks.candidates
        self.standing = points if game.name == "eleusis" else None
        self.evaluate = points if game.name != "eleusis" else None
        self.outlook = e if e is not None and e.measure == "chance" else None


def _hooks(game: GameDef[Any, Any]) -> Any:
    return _OldHooks(game, game.search if game.search is not None else _NO_HOOKS)


class _RewardScale(Mapping[str, float]):
    """The type of :data:`REWARD_SCALE`: a read-only view of the registered games'
    :class:`~cardrules.SearchHooks` ``reward_scale``."""

    def __getitem__(self, name: str) -> float:
        if name not in GAMES:
            raise KeyError(name)
        return _hooks(GAMES[name]).reward_scale

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)

    def __repr__(self) -> str:
        return f"REWARD_SCALE({dict(self.items())!r})"


#: Points that count as a clearly won hand in each game (the ``scale`` of the reward):
#: ``REWARD_SCALE["gunsore"]``.  A read-only view of each registered game's
#: :class:`~cardrules.SearchHooks` ``reward_scale`` (10 for a game without hooks).
REWARD_SCALE: Final[Mapping[str, float]] = _RewardScale()

#: The iterations per decision when neither ``iterations`` nor ``time_per_move`` is given.
DEFAULT_ITERATIONS: Final = 200


class _Node:
    """A node of the information-set tree: its children by action, visits, total reward
    (of the player who chose the action leading here) and availability count; ``legal``
    and ``known`` remember the last legal actions seen here and which of them are
    children (in their order), so that a visit with the same legal actions (a Haggis
    lead has hundreds) need not look each one up again."""

    __slots__ = ("avail", "children", "known", "legal", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 1
        self.legal: tuple[Any, ...] | None = None
        self.known: list[Any] = []


#: The samples a ``belief="policy"`` draw tries before it keeps the likeliest of them.
REJECTION_TRIES: Final = 8


Draw = Callable[[random.Random], Any]


def _rejecting(draw: Draw, weight: Callable[[Any], float]) -> Draw:
    """``draw`` with rejection sampling: a sample of weight ``w`` (in ``[0, 1]``) is
    kept with probability ``w``; after :data:`REJECTION_TRIES` refusals the likeliest
    sample seen is kept."""

    def informed(rng: random.Random) -> Any:
        best, most = None, -1.0
        for _ in range(REJECTION_TRIES):
            state = draw(rng)
            w = weight(state)
            if rng.random() < w:
                return state
            if w > most:
                best, most = state, w
        return best

    return informed


#: Expansions of the opponents' possible actions one particle may try to reach the next
#: view (``belief="model"``) before it is given up.
TRACK_BUDGET: Final = 48


#: The share of ``belief="model"``'s particles drawn anew from the view at each decision
#: (the rest are drawn by weight from the particles followed there): without them the
#: particles soon become copies of one or two states, and the search plays for them.
FRESH_SHARE: Final = 0.5


#: Expansions one particle may try to reach the view when no other particle of the
#: decision has found the way yet, and how many particles try that many.
FIND_BUDGET: Final = 600
FIND_TRIES: Final = 3


def model_likelihood(action: Any, choice: Any, legal: Sequence[Any], epsilon: float) -> float:
    """The probability that a player modelled as "the model's ``choice`` with probability
    ``1 - epsilon``, else any of its ``legal`` actions uniformly" plays ``action`` (the
    opponent model of ``belief="model"``).

    >>> model_likelihood("a", "a", ("a", "b"), 0.2)
    0.9
    >>> round(model_likelihood("b", "a", ("a", "b"), 0.2), 6)
    0.1
    """
    share = epsilon / len(legal)
    return 1.0 - epsilon + share if action == choice else share


class _Tracker:
    """The particles of ``belief="model"``: whole states weighted by how likely the
    other players' actions that led to them were under the opponent model.

    After each decision the agent keeps its particles with its own action applied
    (:meth:`after`).  At its next decision :meth:`follow` plays each particle on to the
    agent's next turn: every other player's action is tried, the model's choice first,
    chance is dealt at random, and a particle survives only where the agent's view then
    is exactly the view it is given; its weight is multiplied by the model's probability
    of each of those actions (:func:`model_likelihood`).  Once one particle has reached
    the view, the others try its actions first.  A particle that matches no path within
    :data:`TRACK_BUDGET` expansions (:data:`FIND_BUDGET` while no particle has) is
    given up."""

    __slots__ = ("agent", "epsilon", "particles", "player", "samples")

    def __init__(self, agent: ISMCTSAgent, samples: int, epsilon: float) -> None:
        self.agent = agent
        self.samples = samples
        self.epsilon = epsilon
        self.particles: list[tuple[Any, float]] = []
        self.player: Any = None

    def clear(self) -> None:
        self.particles = []

    def follow(self, view: Any, player: Any, rng: random.Random) -> list[tuple[Any, float]]:
        """The particles played on to ``view`` (player ``player`` to act), weighted; an
        empty list when none could be followed there."""
        if player != self.player:
            self.particles, self.player = [], player
        kept: list[tuple[Any, float]] = []
        hint: list[Any] = []
        searches = FIND_TRIES
        for state, weight in self.particles:
            if not hint and not searches:
                break  # no particle could be followed: none will
            budget = [TRACK_BUDGET]
            if not hint:
                searches -= 1
                budget = [FIND_BUDGET]
            found = self._reach(state, view, player, rng, budget, hint, 0)
            if found is not None:
                kept.append((found[0], weight * found[1]))
                hint = found[2]
        return kept

    def _reach(
        self,
        state: Any,
        view: Any,
        player: Any,
        rng: random.Random,
        budget: list[int],
        hint: Sequence[Any],
        k: int,
    ) -> tuple[Any, float, list[Any]] | None:
        """``(state, likelihood, path)`` where ``state`` (played on from ``state``)
        shows ``view`` to ``player``; ``path`` is the others' chosen actions on the way,
        tried first where ``hint`` (the path of another particle) says so."""
        agent = self.agent
        game = agent.game
        while True:
            if state.is_over:
                return None
            p = state.to_act
            if p is CHANCE:
                state = agent._chance(state, rng)
                continue
            if p == player:
                return (state, 1.0, []) if game.view(state, player) == view else None
            legal = agent._legal(state)
            if len(legal) > 1:
                break
            state = agent._apply(state, legal[0])
        # another player chooses: the action another particle reached the view with
        # first (what was seen is most often the same action in every particle), then
        # the model's choice, then the rest in order
        model = agent._model
        assert model is not None
        choice = model(game.view(state, p), legal)
        order = [choice, *(a for a in legal if a != choice)] if self.epsilon else [choice]
        if k < len(hint) and hint[k] != choice and hint[k] in order:
            order.remove(hint[k])
            order.insert(0, hint[k])
        for a in order:
            if budget[0] <= 0:
                return None
            budget[0] -= 1
            found = self._reach(agent._apply(state, a), view, player, rng, budget, hint, k + 1)
            if found is not None:
                like = found[1] * model_likelihood(a, choice, legal, self.epsilon)
                return found[0], like, [a, *found[2]]
        return None

    def after(self, pool: list[tuple[Any, float]], action: Any, rng: random.Random, fresh: Draw) -> None:
        """Keep ``pool`` (states of the decision just taken, weighted) with ``action``
        applied: of the :data:`samples` particles, a :data:`FRESH_SHARE` drawn anew by
        ``fresh`` (the view's sampler), the others from ``pool`` by weight (systematic
        resampling)."""
        total = sum(w for _, w in pool)
        new = round(self.samples * FRESH_SHARE)
        n = self.samples - new
        kept: list[tuple[Any, float]] = [(fresh(rng), 1.0) for _ in range(new)]
        if total > 0:
            step = total / n
            u = rng.random() * step
            acc = 0.0
            i = 0
            for state, w in pool:
                acc += w
                while u < acc and i < n:
                    kept.append((state, 1.0))  # weighted anew from the next decision on
                    u += step
                    i += 1
        apply = self.agent._apply
        self.particles = [(apply(s, action), w) for s, w in kept]


def _from_pool(pool: list[tuple[Any, float]]) -> Draw:
    """A draw that picks a state of ``pool`` in proportion to its weight."""
    states = [s for s, _ in pool]
    cum: list[float] = []
    acc = 0.0
    for _, w in pool:
        acc += w
        cum.append(acc)

    def draw(rng: random.Random) -> Any:
        return states[min(bisect.bisect_right(cum, rng.random() * acc), len(states) - 1)]

    return draw


def _hook_option(
    game: GameDef[Any, Any], option: str, value: object, off: str, on: str, hook: Any, what: str
) -> Any:
    """The game's ``hook`` when an option that switches it on is ``on``, ``None`` when it
    is ``off``; a clear error for any other value, or for ``on`` in a game without it."""
    if value not in (off, on):
        raise CardRulesError(f"{option} must be {off!r} or {on!r}, not {value!r}")
    if value == off:
        return None
    if hook is None:
        raise CardRulesError(f"{game.name} has no {what} for {option}={on!r}")
    return hook


class ISMCTSAgent(SeededAgent):
    """Single-observer information-set Monte Carlo tree search (module docs above).

    ``game``
        a game name (``"haggis"``) or a :class:`~cardrules.GameDef`;
    ``iterations``
        determinizations (and rollouts) per decision (default 200 when no time is given);
    ``time_per_move``
        seconds per decision (with ``iterations`` too, whichever ends first);
    ``seed``
        the agent's own randomness (determinizations, rollouts, ties);
    ``rollout``
        ``"random"`` (default), ``"greedy"`` (the game's greedy agent plays every
        seat of the rollouts: slower, better informed) or ``"policy"`` (a quick
        heuristic of the game's own, its hooks' ``rollout_policy``, which reads the
        state directly instead of a view; Aegis has one);
    ``belief``
        ``"uniform"`` (default: every determinization consistent with the view is
        equally likely) or ``"policy"``: determinizations are weighted by how likely the
        opponents' past actions were under the game's rollout policy (rejection
        sampling, at most :data:`REJECTION_TRIES` samples, then the likeliest is kept):
        the game's hooks' ``likelihood``; Aegis has one, which reads the opponent's
        exchanges and bid; or ``"model"``, for every game with a greedy agent: the agent
        follows the hidden cards from one of its decisions to the next with
        ``belief_samples`` *particles* (whole states), each weighted by how likely the
        other players' actions between the two decisions were under the opponent
        model, the game's greedy agent that departs from its choice with probability
        ``belief_epsilon`` (:func:`model_likelihood`); the determinizations are drawn
        from the particles by weight (see :doc:`/agents`, "Beliefs");
    ``belief_samples``
        with ``belief="model"``, the particles kept from one decision to the next (32);
    ``belief_epsilon``
        with ``belief="model"``, how often the opponent model departs from its greedy
        choice (0.1; 0 trusts it entirely: a particle survives only where every other
        player played the greedy agent's choice);
    ``epsilon``
        with ``rollout="greedy"`` or ``"policy"``, the share of rollout actions chosen
        at random instead (0 by default);
    ``rules``
        the game's rules when they are not the default ones (a view does not always
        show them); in New Eleusis, the rule the samples play for a scientist;
    ``exploration``
        the UCB constant (0.7);
    ``max_rollout``
        the most actions of one rollout (then it is rated as the end of a hand);
    ``cutoff``
        ``None`` (default: rollouts play to the end of the hand) or ``n``: a rollout
        stops after ``n`` actions (0: no rollout, the expanded state itself) and the
        state it reached is rated by the game's evaluation, its hooks' ``evaluate``
        (each player's expected points of the hand), like the end of a hand; for games
        with an evaluation (Haggis);
    ``prior``
        ``None`` (default) or ``"greedy"``: a node's first child is then the action the
        game's greedy agent would choose in that determinization;
    ``widening``
        ``None`` (default: every legal action is tried before UCB chooses, as in the
        paper) or ``w``: *progressive widening*, a node visited ``v`` times has at most
        ``1 + w * sqrt(v)`` children, for games with hundreds of legal actions (a
        Haggis lead), where a small budget would otherwise try each once and learn
        nothing;
    ``opponents``
        ``None`` (default: in the tree, the other players' actions are chosen by UCB
        like the searching player's, as in the paper), ``"policy"`` (the game's rollout
        policy, its hooks' ``rollout_policy``) or ``"greedy"`` (the game's greedy agent,
        given that player's view of the determinization): in the tree, another player's
        action is the one this model chooses with the cards that player holds in the
        determinization.  The paper's single tree keeps one set of statistics for an
        opponent's decision over every determinization, so the opponent it imagines bids
        or exchanges the same way whatever cards it holds; the model answers each
        determinization with the cards dealt there;
    ``actions``
        ``"all"`` (default: the tree tries every legal action) or ``"candidates"``:
        where the tree chooses by UCB, it tries only the game's *candidate* actions, its
        hooks' ``candidates`` (an action abstraction: Aegis tries six of the 32
        exchanges of a five-card hand, those that discard its ``k`` weakest cards).  The
        decision is still one of the legal actions given; rollouts and modelled
        opponents play as before.
    ``reward``
        ``"margin"`` (default: a hand is rewarded by the points it brings each player
        against the others, ``0.5 + 0.5 * tanh(margin / reward_scale)``) or
        ``"outlook"``: by each player's chance of winning the game once the hand is
        scored, its hooks' ``outlook`` (Gunsore has one).  The tree's values are then
        normalised by the range of the rewards seen so far in the decision, so that the
        UCB constant weighs the same whether the hand can swing the game a little or
        much.  The end of the game is a win, a tie or a loss with either reward; a
        rollout cut short by ``max_rollout`` is rated by the outlook of where it
        stopped.  It cannot be combined with ``cutoff``.

    ``iterations_done`` is the number of iterations of the last decision.  A decision
    with a single legal action returns it without searching.
    """

    SEED_PREFIX = "ismcts"

    def __init__(
        self,
        game: str | GameDef[Any, Any],
        *,
        iterations: int | None = None,
        time_per_move: float | None = None,
        seed: object = None,
        rollout: str = "random",
        rules: Any = None,
        exploration: float = 0.7,
        max_rollout: int = 400,
        prior: str | None = None,
        widening: float | None = None,
        belief: str = "uniform",
        epsilon: float = 0.0,
        belief_samples: int = 32,
        belief_epsilon: float = 0.1,
        cutoff: int | None = None,
        opponents: str | None = None,
        actions: str = "all",
        reward: str = "margin",
    ) -> None:
        super().__init__(seed)
        self.game = GAMES[game] if isinstance(game, str) else game
        if not isinstance(self.game, GameDef):
            raise CardRulesError(f"ISMCTSAgent needs a game name or a GameDef, not {game!r}")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise CardRulesError(f"iterations must be a whole number of at least 1, not {iterations!r}")
        if time_per_move is not None and not (isinstance(time_per_move, (int, float)) and time_per_move > 0):
            raise CardRulesError(f"time_per_move must be a positive number of seconds, not {time_per_move!r}")
        if rollout not in ("random", "greedy", "policy"):
            raise CardRulesError(f"rollout must be 'random', 'greedy' or 'policy', not {rollout!r}")
        if prior not in (None, "greedy"):
            raise CardRulesError(f"prior must be None or 'greedy', not {prior!r}")
        if widening is not None and not (isinstance(widening, (int, float)) and widening > 0):
            raise CardRulesError(f"widening must be None or a positive number, not {widening!r}")
        if belief not in ("uniform", "policy", "model"):
            raise CardRulesError(f"belief must be 'uniform', 'policy' or 'model', not {belief!r}")
        if type(belief_samples) is not int or belief_samples < 1:
            raise CardRulesError(
                f"belief_samples must be a whole number of at least 1, not {belief_samples!r}"
            )
        if not (
            isinstance(belief_epsilon, (int, float))
            and not isinstance(belief_epsilon, bool)
            and 0 <= belief_epsilon <= 1
        ):
            raise CardRulesError(f"belief_epsilon must be a number from 0 to 1, not {belief_epsilon!r}")
        if cutoff is not None and (type(cutoff) is not int or cutoff < 0):
            raise CardRulesError(f"cutoff must be None or a whole number of at least 0, not {cutoff!r}")
        if iterations is None and time_per_move is None:
            iterations = DEFAULT_ITERATIONS
        self.belief = belief
        if not (isinstance(epsilon, (int, float)) and 0 <= epsilon <= 1):
            raise CardRulesError(f"epsilon must be a number from 0 to 1, not {epsilon!r}")
        self.epsilon = epsilon
        self.prior = prior
        self.widening = widening
        self.iterations = iterations
        self.time_per_move = time_per_move
        self.rollout = rollout
        self.rules = rules
        self.exploration = exploration
        self.max_rollout = max_rollout
        self.iterations_done = 0
        # everything of the game comes from its GameDef, bound once here
        game = self.game
        hooks = _hooks(game)
        self._apply: Callable[[Any, Any], Any] = game.apply
        self._legal: Callable[[Any], tuple[Any, ...]] = game.legal_actions
        self._greedy: Any = game.greedy_agent  # checked here for the options that use it
        if (rollout == "greedy" or prior == "greedy") and self._greedy is None:
            raise CardRulesError(f"{game.name} has no GreedyAgent for greedy rollouts")
        self._policy = hooks.rollout_policy
        if rollout == "policy" and self._policy is None:
            raise CardRulesError(f"{game.name} has no rollout policy (use 'random' or 'greedy')")
        self._likelihood = hooks.likelihood if belief == "policy" else None
        if belief == "policy" and self._likelihood is None:
            raise CardRulesError(f"{game.name} has no opponent model for belief='policy'")
        self._standing = hooks.standing
        self.cutoff = cutoff
        self._evaluate = hooks.evaluate if cutoff is not None else None
        if cutoff is not None and self._evaluate is None:
            raise CardRulesError(
                f"{game.name} has no evaluation (SearchHooks.evaluate) for cutoff={cutoff!r}"
            )
        self._scale = hooks.reward_scale
        if opponents not in (None, "policy", "greedy"):
            raise CardRulesError(f"opponents must be None, 'policy' or 'greedy', not {opponents!r}")
        if opponents == "policy" and self._policy is None:
            raise CardRulesError(f"{game.name} has no rollout policy for opponents='policy'")
        if opponents == "greedy" and self._greedy is None:
            raise CardRulesError(f"{game.name} has no GreedyAgent for opponents='greedy'")
        self.opponents = opponents
        self._candidates: Callable[[Any, tuple[Any, ...]], tuple[Any, ...]] | None = _hook_option(
            game, "actions", actions, "all", "candidates", hooks.candidates,
            "candidate actions (SearchHooks.candidates)",
        )
        self.actions = actions
        self._outlook: Callable[[Any], list[float]] | None = _hook_option(
            game, "reward", reward, "margin", "outlook", hooks.outlook, "outlook (SearchHooks.outlook)"
        )
        self.reward = reward
        if reward == "outlook" and cutoff is not None:
            raise CardRulesError(
                "reward='outlook' rates the end of a hand, cutoff= a hand cut short in points: "
                "use one of them"
            )
        self.belief_samples = belief_samples
        self.belief_epsilon = belief_epsilon
        self._model: Any = None
        self._tracker: _Tracker | None = None
        if belief == "model":
            if self._greedy is None:
                raise CardRulesError(f"{game.name} has no GreedyAgent for belief='model'")
            self._tracker = _Tracker(self, belief_samples, belief_epsilon)

    def reset(self, seed: object) -> None:
        super().reset(seed)
        if self._tracker is not None:  # a new game: nothing is known of its cards
            self._tracker.clear()

    def __repr__(self) -> str:
        budget = f"iterations={self.iterations!r}, time_per_move={self.time_per_move!r}"
        return f"ISMCTSAgent({self.game.name!r}, {budget}, seed={self.seed!r}, rollout={self.rollout!r})"

    # -- the decision ------------------------------------------------------------------

    def __call__(self, view: Any, legal_actions: Sequence[Any]) -> Any:
        if not legal_actions:
            raise CardRulesError("ISMCTSAgent was asked to act with no legal action")
        if len(legal_actions) == 1:
            self.iterations_done = 0
            return legal_actions[0]
        draw = self.game.sampler(view, rules=self.rules)
        if self._likelihood is not None:
            weight = self._likelihood(view, self.rules)
            if weight is not None:
                draw = _rejecting(draw, weight)
        rng = random.Random(self._rng.getrandbits(64))  # one stream per decision
        tracker = self._tracker
        uniform = draw
        pool: list[tuple[Any, float]] = []
        if tracker is not None:
            self._model = self._greedy(rng.getrandbits(32))
            probe = draw(rng)  # a sample of the view: whose turn it is
            pool = tracker.follow(view, probe.to_act, rng)
            if pool:
                draw = _from_pool(pool)
            else:  # nothing followed: the view's uniform belief, and new particles from it
                pool = [(probe, 1.0)] + [(draw(rng), 1.0) for _ in range(self.belief_samples - 1)]
        root = self.search(draw, rng)
        best = None
        most = -1
        for a in legal_actions:  # the most visited; ties to the first in the legal order
            child = root.children.get(a)
            n = child.visits if child is not None else 0
            if n > most:
                best, most = a, n
        if tracker is not None:
            tracker.after(pool, best, rng, uniform)
        return best

    def search(self, draw: Callable[[random.Random], Any], rng: random.Random) -> _Node:
        """Run the iterations from states given by ``draw(rng)``; returns the root."""
        apply, legal_of = self._apply, self._legal
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        widening = self.widening
        prior = None if self.prior is None else self._greedy(rng.getrandbits(32))
        root = _Node()
        # the model of the other players in the tree (opponents=...): an action of theirs
        # is its choice in the determinization, not a UCB choice
        policy = self._policy if self.opponents == "policy" else None
        model: Any = self._greedy(rng.getrandbits(32)) if self.opponents == "greedy" else None
        modelled = policy is not None or model is not None
        candidates = self._candidates  # the tree's actions at a UCB node (actions=...)
        me: Any = None  # the searching player: the one to act in the first draw
        # reward="outlook": UCB reads the mean rewards rescaled to the range seen, [lo, hi]
        normalise = self._outlook is not None
        lo, hi, inv = 0.0, 0.0, 1.0
        limit = self.iterations if self.iterations is not None else 1 << 62
        deadline = None if self.time_per_move is None else time.perf_counter() + self.time_per_move
        done = 0
        while done < limit:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            state = draw(rng)
            if me is None:
                me = state.to_act
            start_scores = state.scores
            node = root
            path: list[tuple[_Node, int]] = []
            while True:
                if state.to_act is CHANCE:
                    state = self._chance(state, rng)
                if state.is_over or state.scores != start_scores or state.to_act is CHANCE:
                    break
                player = state.to_act
                children = node.children
                if modelled and player != me:
                    if policy is not None:
                        action = policy(state, rng)
                    else:
                        action = model(self.game.view(state, player), legal_of(state))
                    state = apply(state, action)
                    child = children.get(action)
                    if child is None:  # its first visit: expanded, and the rollout goes on
                        child = children[action] = _Node()
                        path.append((child, player))
                        break
                    node = child
                    path.append((node, player))
                    continue
                legal = legal_of(state)
                if candidates is not None:
                    legal = candidates(state, legal)
                if not children:
                    known = []
                elif legal == node.legal:  # the same actions (mostly the same objects)
                    known = node.known
                else:
                    known = [a for a in legal if a in children]
                    node.legal, node.known = legal, known
                room = len(legal)
                if widening is not None:
                    room = min(room, 1 + int(widening * sqrt(node.visits)))
                if len(known) < room:  # expand: the prior's choice first, then at random
                    action = None
                    if prior is not None:
                        action = prior(self.game.view(state, player), legal)
                    if action is None or action in children:
                        untried = [a for a in legal if a not in children]
                        action = untried[int(rng.random() * len(untried))]
                    child = children[action] = _Node()
                    node.legal = None  # a new child: known anew at the next visit
                    state = apply(state, action)
                    path.append((child, player))
                    break
                best = None
                value = -1.0
                for a in known:
                    ch = children[a]
                    ch.avail += 1
                    if normalise:
                        v = (ch.reward / ch.visits - lo) * inv + c * sqrt(log(ch.avail) / ch.visits)
                    else:
                        v = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if v > value:
                        best, value, action = ch, v, a
                assert best is not None
                state = apply(state, action)
                node = best
                path.append((node, player))
            rewards = self._rollout(state, start_scores, rng)
            if normalise:
                if done:
                    lo, hi = min(lo, *rewards), max(hi, *rewards)
                else:
                    lo, hi = min(rewards), max(rewards)
                inv = 1.0 / (hi - lo) if hi > lo else 1.0
            root.visits += 1
            for n, player in path:
                n.visits += 1
                n.reward += rewards[player]
            done += 1
        self.iterations_done = done
        return root

    # -- rollouts ----------------------------------------------------------------------

    def _chance(self, state: Any, rng: random.Random) -> Any:
        # the library's shared random deal (cardrules.sampling.shuffled), as the
        # component search deals, so that both draw the same cards from the same stream
        order = shuffled(rng, self.game.chance_cards(state))
        return self.game.apply(state, Shuffle(tuple(order)))

    def _rollout(self, state: Any, start_scores: tuple[int, ...], rng: random.Random) -> list[float]:
        limit = self.max_rollout if self.cutoff is None else min(self.max_rollout, self.cutoff)
        if not limit and self.cutoff is not None:  # no rollout: the state itself is rated
            return self._reward(state, start_scores)
        apply, legal_of = self._apply, self._legal
        steps = 0
        rnd = rng.random  # int(random() * n): a uniform index, cheaper than randrange
        agents = None
        policy = self._policy if self.rollout == "policy" else None
        epsilon = self.epsilon if self.rollout != "random" else 0.0
        if self.rollout == "greedy":
            agents = [self._greedy(rng.getrandbits(32)) for _ in range(state.players)]
            view = self.game.view
        while not state.is_over and state.scores == start_scores and steps < limit:
            p = state.to_act
            if p is CHANCE:
                if steps:  # a new hand: the rollout has played the one it was in
                    break
                state = self._chance(state, rng)
                continue
            if epsilon and rnd() < epsilon:
                legal = legal_of(state)
                action = legal[int(rnd() * len(legal))]
            elif policy is not None:
                action = policy(state, rng)
            elif agents is None:
                legal = legal_of(state)
                action = legal[int(rnd() * len(legal))]
            else:
                legal = legal_of(state)
                action = agents[p](view(state, p), legal)
            state = apply(state, action)
            steps += 1
        return self._reward(state, start_scores)

    def _reward(self, state: Any, start_scores: tuple[int, ...]) -> list[float]:
        n = state.players
        if state.is_over:
            winners = state.winners
            share = 1.0 / len(winners) if winners else 0.0
            return [share if p in winners else 0.0 for p in range(n)]
        if self._outlook is not None:  # each player's chance of winning from there
            return self._outlook(state)
        gains: list[float] = [s - t for s, t in zip(state.scores, start_scores, strict=True)]
        if self._evaluate is not None and state.scores == start_scores and state.to_act is not CHANCE:
            # a hand cut short: rated by the game's evaluation
            gains = self._evaluate(state)
        elif not any(gains) and self._standing is not None:  # no score: how each one stands
            gains = self._standing(state)
        total = sum(gains)
        scale = self._scale
        tanh = math.tanh
        return [0.5 + 0.5 * tanh((g - (total - g) / (n - 1)) / scale) for g in gains]
