"""A cheap learned evaluation of Haggis positions, for the search's ``cutoff`` option.

:func:`evaluate` rates a whole state (a search's determinization) in the middle of a
hand: each player's expected points of the hand, what it has captured so far included.
It is a linear function of a few :func:`features` of the state seen from each player
(cards left in each hand, face cards and bombs held, points captured, in hand and on
the table, who is out, bets), with weights fitted by least squares to the points that
greedy agents went on to score from such positions (``benchmarks/train_evaluation.py``,
numpy at training only).  The weights are data, shipped in the package
(``evaluation.json``, one list per player count) and read once; the evaluation itself is
plain Python.

>>> from cardrules.haggis import new_game
>>> from cardrules.haggis.evaluation import FEATURES, evaluate, features
>>> state = new_game(seed=1)
>>> len(features(state, 0)) == len(FEATURES)
True
>>> points = evaluate(state)  # each player's expected points of the hand
>>> len(points), all(isinstance(v, float) for v in points)
(2, True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any, Final

from .._resources import package_text
from ..errors import CardRulesError
from .combos import card_points
from .rules import State

__all__ = ["FEATURES", "evaluate", "features", "load_weights"]

#: The names of :func:`features`, in order (the data file's weights follow them).
FEATURES: Final = (
    "bias",
    "captured",  # card points in the player's pile this hand
    "going_out",  # going-out points earned this hand
    "trick_mine",  # card points on the table when the player's combination tops the trick
    "trick_other",  # card points on the table when another player's does
    "hand",  # cards in the player's hand (face cards included)
    "hand_points",  # card points of the player's number cards in hand
    "faces",  # face cards in the player's hand
    "number_bomb",  # 1 when its number cards hold a 3-5-7-9 bomb
    "high",  # number cards of rank 9 or 10 in hand
    "groups",  # ranks of which it holds two or more number cards
    "opponent_max",  # cards in the largest other hand
    "opponent_min",  # cards in the smallest other hand still playing (0 when none)
    "ahead",  # 1 when its hand is smaller than every other hand still playing
    "out_first",  # 1 when it went out first this hand
    "other_out_first",  # 1 when another player did
    "leading",  # 1 when it is to lead a trick
    "bet",  # its bet this hand
    "other_bets",  # the others' bets
    "others_points",  # card points in the other players' hands
    "others_faces",  # face cards in the other players' hands
    "haggis_points",  # card points of the haggis
    "race",  # cards in the smallest other hand still playing less cards in its own
    "ahead_bonus",  # when "ahead": 5 a card of the largest other hand, plus the points
    # left in the other hands and the haggis (what going out first would bring)
)

_POINTS: Final = {3: 1, 5: 1, 7: 1, 9: 1, 11: 2, 12: 3, 13: 5}


def _has_number_bomb(numbers: Sequence[Any]) -> bool:
    """Do these number cards hold 3, 5, 7 and 9 of four different suits, or of one suit?"""
    suits: dict[int, set[Any]] = {3: set(), 5: set(), 7: set(), 9: set()}
    for c in numbers:
        if c.rank in suits:
            suits[c.rank].add(c.suit)
    if not all(suits.values()):
        return False
    s3, s5, s7, s9 = suits[3], suits[5], suits[7], suits[9]
    if s3 & s5 & s7 & s9:
        return True  # one suit
    return any(
        b not in (a,) and c not in (a, b) and d not in (a, b, c)
        for a in s3
        for b in s5
        for c in s7
        for d in s9
    )


def features(state: State, player: int) -> list[float]:
    """The features of ``state`` seen from ``player`` (a whole state: every hand is
    known), in the order of :data:`FEATURES`."""
    n = state.players
    hands = state.hands
    points = _POINTS
    hand = hands[player]
    numbers = [c for c in hand if c.suit is not None]
    faces = len(hand) - len(numbers)
    counts: dict[int, int] = {}
    for c in numbers:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    others = [q for q in range(n) if q != player]
    sizes = [len(hands[q]) for q in others]
    playing = [len(hands[q]) for q in others if q not in state.out]
    trick = state.trick
    on_table = 0
    if trick:
        on_table = sum(points.get(c.rank, 0) for _, combo in trick for c in combo.cards)
    mine = bool(trick) and trick[-1][0] == player
    out = state.out
    bets = state.bets
    others_points = 0
    others_faces = 0
    for q in others:
        for c in hands[q]:
            others_points += points.get(c.rank, 0)
            if c.suit is None:
                others_faces += 1
    smallest = min(playing) if playing else 0
    ahead = bool(hand) and all(len(hand) < s for s in playing)
    haggis_points = card_points(state.haggis)
    bonus = 5 * max(sizes) + others_points + haggis_points if ahead else 0
    return [
        1.0,
        float(card_points(state.captured[player])),
        float(state.going_out[player]),
        float(on_table if mine else 0),
        float(0 if mine else on_table),
        float(len(hand)),
        float(sum(points.get(c.rank, 0) for c in numbers)),
        float(faces),
        1.0 if _has_number_bomb(numbers) else 0.0,
        float(sum(1 for c in numbers if c.rank >= 9)),
        float(sum(1 for k in counts.values() if k >= 2)),
        float(max(sizes)),
        float(smallest),
        1.0 if ahead else 0.0,
        1.0 if out and out[0] == player else 0.0,
        1.0 if out and out[0] != player else 0.0,
        1.0 if state.to_act == player and not trick else 0.0,
        float(bets[player]),
        float(sum(bets[q] for q in others)),
        float(others_points),
        float(others_faces),
        float(haggis_points),
        float(smallest - len(hand)),
        float(bonus),
    ]


def _check(data: Any) -> dict[int, tuple[float, ...]]:
    if not isinstance(data, dict) or data.get("features") != list(FEATURES):
        raise CardRulesError("the Haggis evaluation's data file does not name the features of this version")
    weights = data.get("weights")
    if not isinstance(weights, dict):
        raise CardRulesError("the Haggis evaluation's data file has no weights")
    out: dict[int, tuple[float, ...]] = {}
    for players, w in weights.items():
        numbers = isinstance(w, list) and all(isinstance(x, (int, float)) for x in w)
        if not (numbers and len(w) == len(FEATURES)):
            raise CardRulesError(f"the Haggis evaluation's weights for {players} players are malformed")
        out[int(players)] = tuple(float(x) for x in w)
    return out


@cache
def load_weights() -> dict[int, tuple[float, ...]]:
    """The shipped weights by player count (``evaluation.json`` in this package),
    read once."""
    return _check(json.loads(package_text("haggis", "evaluation.json")))


def evaluate(state: State) -> list[float]:
    """Each player's expected points of the hand being played in ``state`` (what it has
    captured so far included), by the shipped linear model: the Haggis search hooks'
    ``evaluate``."""
    w = load_weights()[state.players]
    return [sum(a * b for a, b in zip(w, features(state, p), strict=True)) for p in range(state.players)]
