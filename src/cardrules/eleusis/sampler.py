"""Sampling New Eleusis states from a view (for search agents: :mod:`cardrules.search`):
the state sampler handed to the game's :class:`~cardrules.protocol.GameDef`.
"""

from __future__ import annotations

from typing import Any

import attrs

from ..cards import Card, canonical
from ..protocol import CHANCE
from ..sampling import SampleError, check_total, deal, unseen
from .rules import DECK, NEXT, STATE, Phase, Play, Rules, State, Task, View

_CHANCE_PHASES = ("setup", "starter", "fresh", "reshuffle")


def _check_roles(view: View, n: int) -> None:
    """The cheap checks of who is who that a tampered view could break: the game itself
    trusts them (a real view always passes)."""
    scientists = range(1, n)
    if not 0 <= view.player < n:
        raise SampleError(f"eleusis: no player {view.player} in a {n}-player game")
    if view.prophet is not None and view.prophet not in scientists:
        raise SampleError(f"eleusis: the prophet {view.prophet} is no scientist of this game")
    if not 0 <= view.turn < n or any(q not in scientists for q in view.expelled):
        raise SampleError("eleusis: the turn or the expelled name no scientist of this game")
    phase = view.phase
    if phase in _CHANCE_PHASES:
        want: object = CHANCE
    elif phase == "over":
        want = None
    elif phase == "turn":
        want = view.turn
    elif phase == "judge":
        want = view.prophet
    else:
        want = view.to_act if view.to_act in scientists else -1
    if view.to_act != want or (phase == "turn" and view.turn in view.expelled):
        raise SampleError(f"eleusis: in the {phase!r} phase, player {view.to_act!r} cannot be the one to act")


def state_sampler(view: View, rules: Rules | None) -> Any:
    """The unseen cards (every deck in play, fresh ones included, less the player's
    hand, the lines and a hand shown with a no-play) are worked out once; each draw
    deals them uniformly to the other scientists' hands and the stock.

    The secret rule is what a scientist does not know: a sample plays the rule of
    ``rules`` (the default rule, alternating colours, when ``rules`` is ``None``), a
    prior of one rule chosen by the caller; God's view holds the rule, and God's
    samples play it."""
    rules = rules if rules is not None else Rules()
    if view.rule is not None and rules.secret is not view.rule:
        rules = attrs.evolve(rules, secret=view.rule)
    if rules.max_string != view.max_string:
        rules = attrs.evolve(rules, max_string=view.max_string)
    n, p = len(view.hand_sizes), view.player
    _check_roles(view, n)
    side = [c for _, cards in view.sides for c in cards]
    total = sum(view.hand_sizes) + view.stock_size + len(view.main) + len(side)
    if total % 52:
        raise SampleError(f"eleusis: the view holds {total} cards, not whole decks")
    decks = max(total // 52, rules.decks) if total else 0
    shown_by = view.turn if view.shown and view.turn != p else None
    shown = view.shown if shown_by is not None else ()
    # cards a scientist plays stay in its hand while the prophet judges them
    judged = view.pending.cards if type(view.pending) is Play and view.turn != p else ()
    pool = unseen(DECK * decks, view.hand, view.main, side, shown, judged)
    others = [q for q in range(1, n) if q != p and q != shown_by]
    sizes = [view.hand_sizes[q] - (len(judged) if q == view.turn else 0) for q in others]
    check_total("eleusis", pool, (*sizes, view.stock_size))
    phase: Phase = view.phase  # type: ignore[assignment]
    tasks: tuple[Task, ...] = ((NEXT, view.turn, 0),) if phase == "offer" else ()

    def draw(rng: Any) -> State:
        parts = deal(rng, pool, (*sizes, view.stock_size))
        hands: list[tuple[Card, ...]] = [()] * n
        hands[p] = view.hand
        if shown_by is not None:
            hands[shown_by] = view.shown
        for q, part in zip(others, parts, strict=False):
            hands[q] = canonical((*part, *judged) if q == view.turn else part)
        return STATE.new(
            rules=rules, players=n, phase=phase, to_act=view.to_act, hands=tuple(hands),
            stock=tuple(parts[-1]), main=view.main, sides=view.sides, count=view.count, prophet=view.prophet,
            marker=view.marker, former_prophets=view.former_prophets, expelled=view.expelled, turn=view.turn,
            pending=view.pending, tasks=tasks, history=(), seed=None,
        )  # fmt: skip

    return draw
