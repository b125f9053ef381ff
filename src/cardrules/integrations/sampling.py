"""A small state sampler for searches over hidden cards (used by the OpenSpiel adapter's
ISMCTS resampler until the library's own sampler is available).

:func:`sample_state` deals the cards a player cannot see (the opponents' hidden cards, the
stock, Aegis discards, the Haggis haggis) again at random, keeping every pile's size and
everything the player sees, so that ``view(sampled, player) == view(state, player)``.  It
draws uniformly over those cards: it does not weigh deals by what the play so far makes
likely (voids shown by not following suit, for instance), and in Eleusis the sampled world
keeps the true secret rule.  When the game object offers ``sample_state(view, seed=...)``
(the library's sampler), :func:`sample_state` uses that instead.
"""

from __future__ import annotations

import random
from typing import Any

import attrs

from ..cards import Card
from ..protocol import CHANCE, GAMES

__all__ = ["sample_state"]


def _deal(pool: list[Card], sizes: list[int], rng: random.Random) -> list[tuple[Card, ...]]:
    rng.shuffle(pool)
    out, i = [], 0
    for n in sizes:
        out.append(tuple(pool[i : i + n]))
        i += n
    return out


def _sorted_like(cards: tuple[Card, ...], template: tuple[Card, ...]) -> tuple[Card, ...]:
    from ..cards import canonical

    return canonical(cards)


def sample_state(name: str, state: Any, player: int, *, seed: int = 0) -> Any:
    """A state of game ``name`` that ``player`` cannot tell from ``state``."""
    game = GAMES[name]
    native = getattr(game, "sample_state", None)
    if native is not None:
        return native(game.view(state, player), seed=seed)
    if state.to_act is CHANCE or state.is_over:
        return state
    rng = random.Random(seed)
    hands = list(state.hands)
    if name == "aegis":
        other = 1 - player
        pool = [*hands[other], *state.stock, *state.discards]
        sizes = [len(hands[other]), len(state.stock), len(state.discards)]
        new_hand, stock, discards = _deal(pool, sizes, rng)
        hands[other] = _sorted_like(new_hand, hands[other])
        return attrs.evolve(state, hands=tuple(hands), stock=stock, discards=discards)
    if name == "gunsore":
        other = 1 - player
        pool = [*hands[other], *state.stock]
        new_hand, stock = _deal(pool, [len(hands[other]), len(state.stock)], rng)
        hands[other] = _sorted_like(new_hand, hands[other])
        return attrs.evolve(state, hands=tuple(hands), stock=stock)
    if name == "haggis":
        others = [p for p in range(state.players) if p != player]
        faces = {p: tuple(c for c in hands[p] if c.suit is None) for p in others}
        numbers = {p: [c for c in hands[p] if c.suit is not None] for p in others}
        pool = [c for p in others for c in numbers[p]] + list(state.haggis)
        dealt = _deal(pool, [*(len(numbers[p]) for p in others), len(state.haggis)], rng)
        for p, cards in zip(others, dealt[:-1], strict=True):
            hands[p] = _sorted_like(cards + faces[p], hands[p])
        from ..haggis.rules import _new_memo

        return attrs.evolve(state, hands=tuple(hands), haggis=dealt[-1], memo=_new_memo(state.players))
    if name == "eleusis":
        view = game.view(state, player)
        shown_player = state.turn if view.shown else None
        others = [p for p in range(state.players) if p != player and p != shown_player]
        if player == 0:  # God sees every hand
            return state
        pool = [c for p in others for c in hands[p]] + list(state.stock)
        dealt = _deal(pool, [*(len(hands[p]) for p in others), len(state.stock)], rng)
        for p, cards in zip(others, dealt[:-1], strict=True):
            hands[p] = _sorted_like(cards, hands[p])
        return attrs.evolve(state, hands=tuple(hands), stock=dealt[-1])
    return state
