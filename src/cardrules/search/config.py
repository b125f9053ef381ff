"""What a search agent is made of: :class:`SearchConfig`.

A configuration names the component of each part of the search and its parameters; it is
checked when it is made (a value out of range, or a combination that means nothing, is a
:class:`~cardrules.CardRulesError` saying why), compared and hashed like any frozen value,
and printed as text (``str``) or JSON (:meth:`SearchConfig.to_json`,
:meth:`SearchConfig.from_json`).  Whether a game offers what a configuration asks for (a
policy, a likelihood...) is checked when an agent is made for that game.

>>> c = SearchConfig(iterations=500, prior="greedy", widening=1.0)
>>> print(c)
SearchConfig(iterations=500, widening=1.0, prior='greedy')
>>> SearchConfig.from_json(c.to_json()) == c
True
>>> SearchConfig(widening=0)
Traceback (most recent call last):
...
cardrules.errors.CardRulesError: widening must be None or a positive number, not 0
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, Final

import attrs

from ..errors import CardRulesError

__all__ = ["DEFAULT_ITERATIONS", "SearchConfig"]

#: The iterations per decision when neither ``iterations`` nor ``time_per_move`` is given.
DEFAULT_ITERATIONS: Final = 200

#: Older names of some choices, still accepted (``belief="model"`` is ``"particles"``...).
_OLD_BELIEF: Final[dict[object, str]] = {"policy": "likelihood", "model": "particles"}
_OLD_VALUE: Final[dict[object, str]] = {"outlook": "chance"}


def _belief_name(value: Any) -> Any:
    return _OLD_BELIEF.get(value, value)


def _opponents_name(value: Any) -> Any:
    return "search" if value is None else value


def _value_name(value: Any) -> Any:
    return _OLD_VALUE.get(value, value)


def _number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _whole(x: object) -> bool:
    return type(x) is int


def _check(name: str, ok: bool, wanted: str, value: object) -> None:
    if not ok:
        raise CardRulesError(f"{name} must be {wanted}, not {value!r}")


def _one_of(*choices: object) -> Any:
    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value not in choices:
            listed = ", ".join(repr(c) for c in choices)
            raise CardRulesError(f"{attribute.name} must be one of {listed}, not {value!r}")

    return check


@attrs.frozen(kw_only=True, repr=False)
class SearchConfig:
    """The components and parameters of a search agent (:class:`~cardrules.search.ISMCTSAgent`).

    Budget: ``iterations`` (determinizations, and rollouts, per decision) and
    ``time_per_move`` (seconds; with both, whichever ends first; with neither,
    :data:`~cardrules.search.config.DEFAULT_ITERATIONS`).  Only an iteration budget makes the agent's choices
    depend on its seed alone.

    Selection (where the tree goes): UCB with constant ``exploration``;
    ``widening=w`` (*progressive widening*: a node visited ``v`` times has at most
    ``1 + w * sqrt(v)`` children); ``prior="greedy"`` (a node's first child is the
    game's greedy agent's choice); ``actions="candidates"`` (the tree tries only the
    game's candidate actions).

    Belief (how a determinization is drawn from the view): ``"uniform"`` (every state
    consistent with the view equally likely), ``"likelihood"`` (rejection sampling by the
    game's likelihood of what the others did) or ``"particles"`` (states followed from
    one decision to the next, ``belief_samples`` of them, weighted by a greedy opponent
    model that departs from its choice with probability ``belief_epsilon``).

    Opponents (the other players' actions in the tree): ``"search"`` (chosen by UCB like
    the searching player's), ``"policy"`` (the game's policy) or ``"greedy"`` (the game's
    greedy agent, given that player's view of the determinization).

    Rollout (from the new node to the end of the hand): ``"random"``, ``"greedy"`` or
    ``"policy"`` (the game's policy); ``epsilon`` the share of random actions in a
    greedy or policy rollout; ``cutoff=n`` stops it after ``n`` actions (0: no rollout);
    ``max_rollout`` bounds it in any case.

    Value (what a rollout's end is worth, in ``[0, 1]``): ``"margin"`` (the points the
    hand brought each player against the others, or the game's evaluation in points
    where the rollout stopped with no score changed) or ``"chance"`` (the game's
    evaluation as each player's chance of winning the game).  The end of the game is a
    win (1), a loss (0) or a share of a tie with either.
    """

    iterations: int | None = None
    time_per_move: float | None = None
    exploration: float = 0.7
    widening: float | None = None
    prior: str | None = attrs.field(default=None, validator=_one_of(None, "greedy"))
    actions: str = attrs.field(default="all", validator=_one_of("all", "candidates"))
    belief: str = attrs.field(
        default="uniform", converter=_belief_name, validator=_one_of("uniform", "likelihood", "particles")
    )
    belief_samples: int = 32
    belief_epsilon: float = 0.1
    opponents: str = attrs.field(
        default="search", converter=_opponents_name, validator=_one_of("search", "policy", "greedy")
    )
    rollout: str = attrs.field(default="random", validator=_one_of("random", "greedy", "policy"))
    epsilon: float = 0.0
    cutoff: int | None = None
    max_rollout: int = 400
    value: str = attrs.field(default="margin", converter=_value_name, validator=_one_of("margin", "chance"))

    def __attrs_post_init__(self) -> None:
        self._check_numbers()
        self._check_combinations()

    def _check_numbers(self) -> None:
        it, t = self.iterations, self.time_per_move
        _check(
            "iterations", it is None or (_whole(it) and it >= 1), "None or a whole number of at least 1", it
        )
        _check(
            "time_per_move", t is None or (_number(t) and t > 0), "None or a positive number of seconds", t
        )
        c = self.exploration
        _check("exploration", _number(c) and c >= 0, "a number of at least 0", c)
        w = self.widening
        _check("widening", w is None or (_number(w) and w > 0), "None or a positive number", w)
        n = self.belief_samples
        _check("belief_samples", _whole(n) and n >= 1, "a whole number of at least 1", n)
        for name in ("belief_epsilon", "epsilon"):
            e = getattr(self, name)
            _check(name, _number(e) and 0 <= e <= 1, "a number from 0 to 1", e)
        k = self.cutoff
        _check("cutoff", k is None or (_whole(k) and k >= 0), "None or a whole number of at least 0", k)
        m = self.max_rollout
        _check("max_rollout", _whole(m) and m >= 1, "a whole number of at least 1", m)

    def _check_combinations(self) -> None:
        if self.value == "chance" and self.cutoff is not None:
            raise CardRulesError(
                "value='chance' rates a hand by each player's chance of winning the game, "
                "cutoff= a hand cut short in points: use one of them"
            )
        if self.epsilon and self.rollout == "random":
            raise CardRulesError(
                "epsilon is the share of random actions in a greedy or policy rollout; "
                "rollout='random' is random already"
            )
        if self.cutoff == 0 and (self.rollout != "random" or self.epsilon):
            raise CardRulesError("cutoff=0 plays no rollout: its rollout= and epsilon= would never be used")
        if self.belief != "particles" and (self.belief_samples != 32 or self.belief_epsilon != 0.1):
            raise CardRulesError(
                f"belief_samples and belief_epsilon are the particles' (belief='particles'), "
                f"not used with belief={self.belief!r}"
            )

    # -- text and JSON -----------------------------------------------------------------

    def changes(self) -> dict[str, Any]:
        """The fields that differ from the defaults, in their order."""
        out: dict[str, Any] = {}
        for f in attrs.fields(SearchConfig):
            value = getattr(self, f.name)
            if value != f.default:
                out[f.name] = value
        return out

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.changes().items())
        return f"SearchConfig({inner})"

    def to_json(self) -> dict[str, Any]:
        """Every field as a JSON object (:meth:`from_json` reads it back)."""
        return attrs.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SearchConfig:
        """The configuration of a JSON object (the fields it leaves out keep their
        defaults); an unknown field is an error naming it."""
        if not isinstance(data, Mapping):
            raise CardRulesError(f"a search configuration is a JSON object, not {data!r}")
        known = [f.name for f in attrs.fields(SearchConfig)]
        for key in data:
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise CardRulesError(f"unknown search option {key!r}{hint}; known: {', '.join(known)}")
        return cls(**data)

    def replace(self, **changes: Any) -> SearchConfig:
        """This configuration with ``changes`` (checked like a new one)."""
        unknown = [k for k in changes if k not in attrs.fields_dict(SearchConfig)]
        if unknown:
            return SearchConfig.from_json({**self.to_json(), **changes})  # the error names it
        return attrs.evolve(self, **changes)
