"""Sampling whole Haggis states consistent with what one player sees (for search agents:
:mod:`cardrules.search`), the machinery of :func:`cardrules.haggis.sample_state`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..cards import Card, canonical
from ..protocol import CHANCE
from ..sampling import check_total, deal, unseen
from .combos import DECKS
from .rules import STATE, Memo, Rules, State, View


def state_sampler(view: View, rules: Rules | None) -> Callable[[Any], State]:
    """The unseen number cards (the deck less the player's hand, the table and every
    captured pile) are worked out once; each draw deals them uniformly to the other
    players' hands (beside their public face cards) and the haggis.  Passing tells
    nothing (a player may pass when able), so counts are all a view fixes."""
    rules = view.rules if rules is None else rules
    n, p = view.players, view.player
    seen = [*view.hand, *(c for _, combo in view.trick for c in combo.cards)]
    for pile in view.captured:
        seen += pile
    numbers = [c for c in unseen(DECKS[n], (c for c in seen if c.suit is not None))]
    others = [q for q in range(n) if q != p]
    sizes = [view.hand_sizes[q] - len(view.wilds[q]) for q in others]
    check_total("haggis", numbers, (*sizes, view.haggis_size))
    in_hand = view.to_act is not CHANCE and view.to_act is not None
    started = tuple(
        (in_hand and view.hand_sizes[q] < 17) or q in view.out or (not in_hand and view.hand_number > 0)
        for q in range(n)
    )
    going_out = view.going_out or (0,) * n
    memo = Memo(n)  # a cache of what hands can lead, shared by the samples (the own hand's is reused)

    def draw(rng: Any) -> State:
        parts = deal(rng, numbers, (*sizes, view.haggis_size))
        hands: list[tuple[Card, ...]] = [()] * n
        hands[p] = view.hand
        for q, part in zip(others, parts, strict=False):
            hands[q] = canonical((*part, *view.wilds[q]))
        return STATE.new(
            rules=rules, players=n, scores=view.scores, leader=view.leader, hands=tuple(hands),
            haggis=canonical(parts[-1]), trick=view.trick, passes=view.passes, captured=view.captured,
            bets=view.bets, started=started, out=view.out, going_out=going_out, giving=view.giving,
            to_act=view.to_act, last_hand=view.last_hand, hand_number=view.hand_number, history=(),
            seed=None, memo=memo,
        )  # fmt: skip

    return draw
