"""Analysis: what the search thinks of each legal action of a position.

:class:`Analysis` is what :func:`cardrules.search.analyse` (and
:meth:`cardrules.search.ISMCTSAgent.analyse`) return: for each legal action, the mean
reward the searching player got after it (its estimated *value*, in ``[0, 1]``: about
its chance of winning the hand or the game, depending on the configuration's leaf value),
how many iterations went through it, and a 95% interval for the value.  The interval is
Wilson's for a proportion of ``visits`` trials: the rewards lie in ``[0, 1]``, so their
variance is at most that of a proportion with the same mean, and the interval is a
conservative reading of the estimate's uncertainty (the iterations are not independent
draws: the tree steers them).  The search's choice is the most visited action
(:attr:`Analysis.best`), not the one of highest value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

import attrs

from ..codec import encode_value
from .config import SearchConfig
from .tree import Node

__all__ = ["Z95", "ActionValue", "Analysis", "action_json", "of_tree", "wilson"]

#: The normal quantile of a two-sided 95% interval.
Z95: Final = 1.959963984540054


def wilson(mean: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``mean`` of ``n`` trials (``(0, 1)``
    when ``n`` is 0).

    >>> [round(x, 3) for x in wilson(0.5, 100)]
    [0.404, 0.596]
    """
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def action_json(action: Any) -> dict[str, Any]:
    """An action as the library's state JSON writes it: ``{"action": "Bid", "n": 3}``."""
    out: dict[str, Any] = {"action": type(action).__name__}
    if attrs.has(type(action)):
        for f in attrs.fields(type(action)):
            out[f.name] = encode_value(getattr(action, f.name))
    return out


@attrs.frozen
class ActionValue:
    """One legal action's line of an :class:`Analysis`: its estimated ``value`` (the
    mean reward of the searching player after it, ``None`` if never tried), ``visits``,
    and the 95% interval ``low``, ``high``."""

    action: Any
    value: float | None
    visits: int
    low: float
    high: float


@attrs.frozen
class Analysis:
    """Each legal action's value for the player to act (module docs), most visited
    first (ties in the legal order); ``iterations`` the iterations searched, ``config``
    the search's configuration."""

    game: str
    player: Any
    iterations: int
    config: SearchConfig
    lines: tuple[ActionValue, ...]

    @property
    def best(self) -> Any:
        """The search's choice: the most visited action."""
        return self.lines[0].action

    def to_json(self) -> dict[str, Any]:
        """The analysis as a JSON object (actions as in the library's state JSON, with
        their text)."""
        return {
            "game": self.game,
            "player": self.player,
            "iterations": self.iterations,
            "config": self.config.changes(),
            "actions": [
                {
                    **action_json(line.action),
                    "text": str(line.action),
                    "value": line.value,
                    "visits": line.visits,
                    "interval": [line.low, line.high],
                }
                for line in self.lines
            ],
        }

    def text(self, name: Any = str) -> str:
        """The analysis as a table, one action a line (``name(action)`` its text)."""
        rows = [f"{'action':<28} {'value':>6} {'95% interval':>15} {'visits':>7}"]
        for line in self.lines:
            value = "-" if line.value is None else f"{line.value:.3f}"
            interval = f"[{line.low:.3f}, {line.high:.3f}]"
            rows.append(f"{name(line.action)!s:<28} {value:>6} {interval:>15} {line.visits:>7}")
        return "\n".join(rows)

    def __str__(self) -> str:
        return self.text()


def of_tree(
    root: Node, legal_actions: Sequence[Any], game: str, player: Any, iterations: int, config: SearchConfig
) -> Analysis:
    """The :class:`Analysis` of a searched tree's root."""
    lines = []
    for a in legal_actions:
        child = root.children.get(a)
        n = child.visits if child is not None else 0
        mean = child.reward / n if child is not None and n else None
        low, high = wilson(mean if mean is not None else 0.5, n)
        lines.append(ActionValue(a, mean, n, low, high))
    order = sorted(range(len(lines)), key=lambda i: -lines[i].visits)  # stable: ties in legal order
    return Analysis(game, player, iterations, config, tuple(lines[i] for i in order))
