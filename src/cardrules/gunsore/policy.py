"""A learned model of how a Gunsore player chooses: the search's model of its opponent.

:func:`probabilities` gives each legal action a probability, a *softmax* of a linear
score: ``exp(w . f(a)) / sum(exp(w . f(b)) for b in legal)``, where ``f(a)`` are the
:func:`features` of the action in the state and ``w`` weights fitted, by maximum
likelihood, to the choices the search agent made in games against itself
(``benchmarks/train_gunsore_policy.py``, numpy at training only).  The features read only
what the player to act sees (its hand, the pools, the table, the season, the stock's
size), so the model is one a player could hold of another.

The search uses it as Gunsore's ``policy`` hook (:class:`~cardrules.SearchHooks`):
with ``opponents="policy"`` (:class:`~cardrules.search.ISMCTSAgent`), the other player's
moves in the tree are drawn from it, with the cards that player holds in the sampled
deal, instead of being chosen by UCB over every deal at once.

The weights are data, shipped in the package (``policy.json``) and read once; the
policy itself is plain Python.

>>> import random
>>> from cardrules import gunsore
>>> from cardrules.gunsore.policy import probabilities, rollout_policy
>>> state = gunsore.new_game(seed=7)
>>> legal = gunsore.legal_actions(state)
>>> p = probabilities(state, legal)
>>> len(p) == len(legal), round(sum(p), 9)
(True, 1.0)
>>> rollout_policy(state, random.Random(1)) in legal
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from operator import mul
from random import Random
from typing import Any, Final

from .._resources import package_text
from ..cards import JOKER, Card
from ..errors import CardRulesError
from .rules import POINTS_WAR, DeclareWar, State, legal_actions

__all__ = [
    "CARD_FEATURES",
    "CONTEXTS",
    "FEATURES",
    "WAR_FEATURES",
    "features",
    "load_weights",
    "probabilities",
    "rollout_policy",
    "scores",
]

#: The four situations of a card played, each with its own weights: the development
#: lead, the development answer, the war lead and the war answer.
CONTEXTS: Final = ("development lead", "development answer", "war lead", "war answer")

#: The features of a card played, in order (one block of weights per context).
CARD_FEATURES: Final = (
    "joker",  # 1 for the joker
    "joker_swap",  # for the joker: (other pool - own pool) / 30, what playing it as slave swaps
    "ace",  # 1 for an ace
    "face",  # 1 for a jack, queen or king
    "face_rank",  # for a face: 0 (J), 0.5 (Q), 1 (K)
    "number",  # 1 for a number card (2 to 10)
    "number_rank",  # for a number card: its rank / 10
    "suit",  # the suit's strength: diamonds 0, hearts 1/3, clubs 2/3, spades 1
    # a lead (no card on the table):
    "lead_rank_hand",  # number_rank x cards in hand / 5
    "lead_face_ahead",  # face x (own pool - other pool) / 30
    "lead_rank_ahead",  # number_rank x (own pool - other pool) / 30
    "lead_war_points",  # the card's war points / 10
    # an answer (a card on the table):
    "wins",  # 1 when the card wins the trick
    "wins_points",  # when it wins: the war points of both cards / 10
    "wins_ahead",  # when it wins: (own pool - other pool) / 30
)

#: The features of declaring war (a development lead), in order.
WAR_FEATURES: Final = (
    "bias",
    "ahead",  # (own pool - other pool) / 30
    "stock",  # cards in the stock / 96
    "faces",  # faces in hand / 5
    "aces",  # aces in hand / 5
    "high",  # numbers 7 to 10 in hand / 5
    "jokers",  # jokers in hand
    "ahead_only",  # max(0, ahead)
    "season_start",  # 1 when both pools are 0
    "low",  # numbers 2 to 5 in hand / 5
    "ahead_faces",  # ahead x faces
    "stock_faces",  # stock x faces
)

#: The names of every weight, in the order of the data file: each context's card
#: features, then the war features.
FEATURES: Final = tuple(
    [f"{c}: {f}" for c in CONTEXTS for f in CARD_FEATURES] + [f"declare war: {f}" for f in WAR_FEATURES]
)

_N: Final = len(CARD_FEATURES)
_LEAD: Final = 8  # the first lead feature
_ANSWER: Final = 12  # the first answer feature
_SUIT_STRENGTH: Final = {"D": 0.0, "H": 1 / 3, "C": 2 / 3, "S": 1.0}


def _card_features(state: State, card: Card) -> list[float]:
    p = state.to_act
    assert type(p) is int
    mine, theirs = state.pools[p], state.pools[1 - p]
    ahead = (mine - theirs) / 30.0
    f = [0.0] * _N
    r = card.rank
    if card is JOKER:
        f[0] = 1.0
        f[1] = -ahead
    elif r == 1:
        f[2] = 1.0
    elif r >= 11:
        f[3] = 1.0
        f[4] = (r - 11) / 2.0
    else:
        f[5] = 1.0
        f[6] = r / 10.0
    if card.suit is not None:
        f[7] = _SUIT_STRENGTH[card.suit.code]
    if state.table:
        lead = state.table[0]
        if state.rules.table.winner((lead, card)) == 1:
            f[_ANSWER] = 1.0
            f[_ANSWER + 1] = (POINTS_WAR[lead.rank] + POINTS_WAR[r]) / 10.0
            f[_ANSWER + 2] = ahead
    else:
        f[_LEAD] = len(state.hands[p]) / 5.0 * f[6]
        f[_LEAD + 1] = ahead * f[3]
        f[_LEAD + 2] = ahead * f[6]
        f[_LEAD + 3] = POINTS_WAR[r] / 10.0
    return f


def _war_features(state: State) -> list[float]:
    p = state.to_act
    assert type(p) is int
    mine, theirs = state.pools[p], state.pools[1 - p]
    hand = state.hands[p]
    ahead = (mine - theirs) / 30.0
    stock = len(state.stock) / 96.0
    faces = sum(1 for c in hand if c.rank >= 11) / 5.0
    return [
        1.0,
        ahead,
        stock,
        faces,
        sum(1 for c in hand if c.rank == 1) / 5.0,
        sum(1 for c in hand if 7 <= c.rank <= 10) / 5.0,
        float(sum(1 for c in hand if c is JOKER)),
        max(0.0, ahead),
        1.0 if mine == 0 and theirs == 0 else 0.0,
        sum(1 for c in hand if 2 <= c.rank <= 5) / 5.0,
        ahead * faces,
        stock * faces,
    ]


def features(state: State, action: Any) -> tuple[int, list[float]]:
    """The features of ``action`` for the player to act in ``state``: ``(offset,
    values)``, the values of the block of :data:`FEATURES` that starts at ``offset`` (the
    action's context, or declaring war); every other feature is 0."""
    if type(action) is DeclareWar:
        return len(CONTEXTS) * _N, _war_features(state)
    context = 2 * (state.season == "war") + bool(state.table)
    return context * _N, _card_features(state, action.card)


def _check(data: Any) -> tuple[float, ...]:
    if not isinstance(data, dict) or data.get("features") != list(FEATURES):
        raise CardRulesError("the Gunsore policy's data file does not name the features of this version")
    w = data.get("weights")
    if not (isinstance(w, list) and len(w) == len(FEATURES) and all(isinstance(x, (int, float)) for x in w)):
        raise CardRulesError("the Gunsore policy's weights are malformed")
    return tuple(float(x) for x in w)


@cache
def load_weights() -> tuple[float, ...]:
    """The shipped weights (``policy.json`` in this package), in the order of
    :data:`FEATURES`, read once."""
    return _check(json.loads(package_text("gunsore", "policy.json")))


def scores(state: State, legal: Sequence[Any]) -> list[float]:
    """The linear score ``w . f(a)`` of each action of ``legal``."""
    w = load_weights()
    out = []
    for a in legal:
        offset, values = features(state, a)
        # fsum is correctly rounded, so the products' order cannot change a score
        out.append(math.fsum(map(mul, w[offset : offset + len(values)], values)))
    return out


def probabilities(state: State, legal: Sequence[Any]) -> list[float]:
    """The model's probability of each action of ``legal`` (the legal actions of the
    player to act in ``state``)."""
    s = scores(state, legal)
    top = max(s)
    e = [math.exp(x - top) for x in s]
    total = math.fsum(e)
    return [x / total for x in e]


def rollout_policy(state: State, rng: Random) -> Any:
    """An action of the player to act, drawn from :func:`probabilities` (Gunsore's
    ``rollout_policy`` search hook)."""
    legal = legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    p = probabilities(state, legal)
    r = rng.random()
    for a, x in zip(legal, p, strict=True):
        r -= x
        if r < 0:
            return a
    return legal[-1]
