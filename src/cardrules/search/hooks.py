"""The types of what a game offers the search (its :class:`~cardrules.SearchHooks`).

A game offers *components*, each optional and each usable by any configuration that asks
for it:

``Policy``
    ``policy(state, rng) -> action``: a quick choice of the player to act, given the whole
    (sampled) state; rollouts (``rollout="policy"``) and the model of the other players
    in the tree (``opponents="policy"``) use it.
``Likelihood``
    ``likelihood(view, rules) -> weight | None``: for ``belief="likelihood"``, how likely
    a sampled state makes what the other players did, as seen in ``view``
    (``weight(state)`` a number in ``[0, 1]``), or ``None`` where the view shows nothing
    to weigh.
``Candidates``
    ``candidates(state, legal) -> actions``: for ``actions="candidates"``, the actions of
    ``legal`` the tree tries, in their order, never empty (an *action abstraction*).
:class:`Evaluation`
    the value of an unfinished state for each player, in one of two measures: points
    (each player's expected points of the hand being played, or any standing rated like
    points) or chance (each player's chance of winning the game).

This module imports nothing of the rest of the search, so that
:class:`cardrules.protocol.SearchHooks` can name these types.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final, Literal

import attrs

from ..errors import CardRulesError

__all__ = ["MEASURES", "Candidates", "Evaluation", "Likelihood", "Policy"]

Policy = Callable[[Any, random.Random], Any]
Likelihood = Callable[[Any, Any], "Callable[[Any], float] | None"]
Candidates = Callable[[Any, tuple[Any, ...]], tuple[Any, ...]]

#: The measures of an :class:`Evaluation`.
MEASURES: Final = ("points", "chance")


def _measure(instance: object, attribute: object, value: object) -> None:
    if value not in MEASURES:
        raise CardRulesError(f"an Evaluation measures 'points' or 'chance', not {value!r}")


@attrs.frozen
class Evaluation:
    """A game's value of an unfinished state: ``evaluation(state) -> list[float]``, one
    number per player.

    ``measure="points"``: each player's expected points of the hand being played (what
    it has won so far included), or any standing that is rated like points (New Eleusis:
    fewer cards in hand is better); the search rates a rollout that stops with no score
    changed by it, like the points of a finished hand (``value="margin"``).

    ``measure="chance"``: each player's chance of winning the game from a state between
    two hands (or any state); the search rewards a rollout by it directly
    (``value="chance"``).

    >>> e = Evaluation(lambda state: [1.0, -1.0])
    >>> e(None), e.measure
    ([1.0, -1.0], 'points')
    """

    fn: Callable[[Any], list[float]]
    measure: Literal["points", "chance"] = attrs.field(default="points", validator=_measure)

    def __call__(self, state: Any) -> list[float]:
        return self.fn(state)
