"""Play many games between agents and summarise them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from .errors import CardRulesError
from .protocol import GAMES, Agent

__all__ = ["Summary", "play", "simulate"]


@attrs.frozen
class Summary:
    """What :func:`simulate` found.

    ``win_rates[p]`` is the share of games player ``p`` was among the winners (a tie
    counts as a win for every tied player, so rates may add up to more than 1);
    ``average_scores[p]`` its mean final score; ``lengths[i]`` is game ``i``'s length
    and ``average_length``, ``min_length``, ``max_length`` sum them up (lengths count
    actions, chance included).
    """

    game: str
    games: int
    wins: tuple[int, ...]
    win_rates: tuple[float, ...]
    average_scores: tuple[float, ...]
    average_length: float
    min_length: int
    max_length: int
    lengths: tuple[int, ...] = ()


def play(
    game: str,
    agents: Sequence[Agent],
    *,
    seed: object,
    rules: Any = None,
    max_actions: int = 1_000_000,
    on_action: Callable[[Any, Any], None] | None = None,
) -> Any:
    """Play one seeded game to its end; returns the final state.

    ``agents[p]`` chooses for player ``p``.  ``on_action(state, action)`` is called
    before each player action is applied (for records).
    """
    g = GAMES[game]
    state = g.new_game(rules, players=len(agents), seed=seed)
    for _ in range(max_actions):
        if state.is_over:
            return state
        p = state.to_act
        actions = g.legal_actions(state)
        action = agents[p](g.view(state, p), actions)
        if on_action is not None:
            on_action(state, action)
        state = g.apply(state, action)
    raise CardRulesError(f"{game}: no end after {max_actions} actions")


def simulate(
    game_name: str, agents: Sequence[Agent], *, games: int, seed: object, rules: Any = None
) -> Summary:
    """Play ``games`` seeded games (game ``i`` uses seed ``f"{seed}:{i}"``) between
    ``agents`` (one per player) and summarise them.  Before game ``i`` an agent with a
    ``reset`` method gets ``reset(f"{seed}:{i}:{p}")`` (``p`` its seat): the library's
    agents then play every game as if new, so the same seed gives the same summary even
    with agent objects used before.  Deterministic for a seed when the agents are."""
    if game_name not in GAMES:
        raise CardRulesError(f"unknown game {game_name!r} (known: {', '.join(GAMES)})")
    if games < 1:
        raise CardRulesError("simulate needs games >= 1")
    n = len(agents)
    wins = [0] * n
    totals = [0] * n
    lengths = []
    for i in range(games):
        for p, agent in enumerate(agents):  # agents with a reset start each game afresh
            reset = getattr(agent, "reset", None)
            if callable(reset):
                reset(f"{seed}:{i}:{p}")
        final = play(game_name, agents, seed=f"{seed}:{i}", rules=rules)
        for w in final.winners:
            wins[w] += 1
        for p, s in enumerate(final.scores):
            totals[p] += s
        lengths.append(len(final.history))
    return Summary(
        game=game_name,
        games=games,
        wins=tuple(wins),
        win_rates=tuple(w / games for w in wins),
        average_scores=tuple(t / games for t in totals),
        average_length=sum(lengths) / games,
        min_length=min(lengths),
        max_length=max(lengths),
        lengths=tuple(lengths),
    )
