"""Haggis as the web table draws it (:func:`table_layout`, the game's ``table_layout``
hook) and the kinds its actions are grouped by on the page (:func:`action_group`).

Everything here is made from one seat's :class:`~cardrules.haggis.View` (nothing hidden
can show) and labelled in words; the combination to beat is said as the text of a
record says it (:meth:`~cardrules.haggis.Combo.describe`)."""

from __future__ import annotations

from typing import Any

from ..protocol import CHANCE
from .combos import Combo, Play, card_points
from .rules import Bet, GiveTrick, Pass, View

_SETS = {1: "singles", 2: "pairs", 3: "three of a kind", 4: "four of a kind"}
_RUNS = {1: "runs", 2: "runs of pairs", 3: "runs of triples", 4: "runs of quadruples"}


def action_group(action: Any) -> str:
    """The kind of ``action`` in words, as the page groups the legal actions: ``"pairs"``,
    ``"runs of pairs"``, ``"bombs"``, ``"bet 15"``, ``"pass"``."""
    if type(action) is Play:
        c: Combo = action.combo
        if c.kind == "bomb":
            return "bombs"
        if c.kind == "set":
            return _SETS.get(c.size, f"sets of {c.size}")
        w = c.width or 1
        return _RUNS.get(w, f"runs of sets of {w}")
    if type(action) is Bet:
        return f"bet {action.amount}"
    if type(action) is GiveTrick:
        return "give the trick"
    if type(action) is Pass:
        return "pass"
    return type(action).__name__.lower()


def _name(p: int) -> str:
    return f"player {p}"


def _seat(v: View, p: int) -> dict[str, Any]:
    facts: list[list[Any]] = [["cards", v.hand_sizes[p]], ["score", v.scores[p]]]
    if v.bets[p]:
        facts.append(["bet", v.bets[p]])
    if p in v.out:
        facts.append(["out", "first" if v.out[0] == p else "second" if v.out[1:2] == (p,) else "third"])
    rows: list[dict[str, Any]] = []
    if v.wilds[p]:
        rows.append({"label": "wilds in hand", "cards": [str(c) for c in v.wilds[p]]})
    if v.captured[p]:
        pile = v.captured[p]
        rows.append(
            {
                "label": f"captured: {len(pile)} cards, {card_points(pile)} points",
                "cards": [str(c) for c in pile],
                "fan": True,
            }
        )
    badge = "leads" if not v.trick and v.to_act == p else None
    return {"facts": facts, "rows": rows, "badge": badge}


def _hint(v: View) -> str:
    if v.giving:
        return "Your bomb won the trick: give it to an opponent (its cards count for them)."
    table = v.table
    if table is not None and table.kind == "bomb":
        return f"Beat {table.describe()} with a higher bomb, or pass."
    if table is not None:
        return (
            f"Beat {table.describe()} with a higher {table.name.removeprefix('a ')}, or play a bomb, or pass."
        )
    bets = " or ".join(str(b) for b in v.rules.bets)
    bet = f" Before your first card of a hand you may bet {bets} that you go out first." if bets else ""
    return (
        "Lead any combination: a single card, a set (pair, three of a kind...), or a run of 3+ ranks." + bet
    )


def _hand_result(v: View) -> dict[str, Any]:
    """What the hand just ended did: who went out, the points captured, the bets, the
    haggis (from the view at the end of the hand, before the next deal)."""
    n = v.players
    lines = []
    if v.out:
        first = v.out[0]
        if len(v.out) == 1:
            lines.append(f"{_name(first)} went out first and takes the haggis and the cards left in hand")
        else:
            order = ", then ".join(_name(p) for p in v.out)
            lines.append(f"{order} went out; {_name(first)} takes the haggis and the cards left in hand")
    for p in range(n):
        parts = [f"{card_points(v.captured[p])} points captured"]
        if v.going_out[p : p + 1] and v.going_out[p]:
            parts.append(f"{v.going_out[p]} for going out")
        if v.bets[p]:
            won = bool(v.out) and v.out[0] == p
            parts.append(f"bet {v.bets[p]} {'won' if won else 'lost'}")
        lines.append(f"{_name(p)}: {v.last_hand[p]:+d} this hand ({', '.join(parts)}); score {v.scores[p]}")
    return {"title": f"Hand {v.hand_number} is over", "lines": lines}


def table_layout(v: View) -> dict[str, Any]:
    """The table of the seat whose view ``v`` is, as labelled JSON values (see the web
    table's documentation): each player's chip (cards, score, bet, wilds and captured
    pile), the combination to beat in words and who played it, the haggis, a line on
    what to do now, and at the end of a hand or of the game what it came to."""
    n = v.players
    out: dict[str, Any] = {"seats": [_seat(v, p) for p in range(n)]}
    center: list[dict[str, Any]] = []
    if v.trick:
        who, combo = v.trick[-1]
        center.append(
            {"label": "to beat", "words": combo.describe(), "cards": [str(c) for c in combo.cards], "by": who}
        )
        if len(v.trick) > 1:
            before = v.trick[-2]
            center.append(
                {
                    "label": "beaten",
                    "words": before[1].describe(),
                    "cards": [str(c) for c in before[1].cards],
                    "by": before[0],
                    "small": True,
                }
            )
    elif isinstance(v.to_act, int):
        center.append({"label": "new trick", "words": f"{_name(v.to_act)} leads", "cards": []})
    out["center"] = center
    facts: list[list[Any]] = [
        ["hand", v.hand_number],
        ["playing to", v.rules.target],
        ["the haggis", f"{v.haggis_size} card{'s' * (v.haggis_size != 1)}"],
    ]
    if v.trick:
        facts.append(["plays in this trick", len(v.trick)])
    out["facts"] = facts
    if isinstance(v.to_act, int):
        out["hint"] = _hint(v)
    if v.to_act is CHANCE and v.out:
        out["result"] = _hand_result(v)
    elif v.to_act is None:
        best = max(v.scores)
        winners = [p for p in range(n) if v.scores[p] == best]
        result = _hand_result(v) if v.out else {"lines": []}
        result["title"] = f"Game over: {_name(winners[0])} wins with {best} points"
        result["lines"] = [
            f"final scores: {', '.join(f'{_name(p)} {v.scores[p]}' for p in range(n))}",
            *result["lines"],
        ]
        result["winners"] = winners
        out["result"] = result
    return out
