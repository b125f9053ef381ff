"""Gunsore as the web table draws it (:func:`table_layout`, the game's ``table_layout``
hook): the card led and who led it, the last trick, each player's role, cards, pool and
score, the season (development or war) and why a war broke out."""

from __future__ import annotations

from typing import Any

from .rules import View

_CAUSES = {
    "stuck": "the slave held only the led suit",
    "stock": "the stock ran out",
    "declared": "the master declared it",
}


def _size_of_hidden_hand(v: View) -> int:
    """The number of cards of the player whose view ``v`` is, from the other player's:
    the same, but one fewer for the one who led the card on the table (both refill
    their hands after each trick, from a stock of an even number of cards).  A public
    view (a spectator's) holds no hand, and this is its count."""
    if not v.table or v.master is None:
        return v.opponent_hand_size
    return v.opponent_hand_size + (-1 if v.master == v.player else 1)


def table_layout(v: View) -> dict[str, Any]:
    """The table of the seat whose view ``v`` is, as labelled JSON values (see the web
    table's documentation)."""
    sizes = {v.player: len(v.hand) or _size_of_hidden_hand(v), 1 - v.player: v.opponent_hand_size}
    seats: list[dict[str, Any]] = []
    for p in range(2):
        chip: list[list[Any]] = [["cards", sizes[p]], ["pool", v.pools[p]], ["score", v.scores[p]]]
        badge = None if v.master is None else "master" if p == v.master else "slave"
        seats.append({"facts": chip, "badge": badge, "rows": []})
    center: list[dict[str, Any]] = []
    if v.table:
        center.append(
            {
                "label": "to answer",
                "words": f"led by player {v.master}",
                "cards": [str(c) for c in v.table],
                "by": v.master,
            }
        )
    elif v.last_trick:
        center.append({"label": "last trick", "cards": [str(c) for c in v.last_trick], "small": True})
    if not v.table and isinstance(v.to_act, int):
        center.append({"label": "new trick", "words": f"player {v.to_act} leads", "cards": []})
    facts: list[list[Any]] = [["cards in the stock", v.stock_size]]
    if v.season is not None:
        facts.append(
            ["season", v.season + (f" ({_CAUSES[v.war_cause]})" if v.season == "war" and v.war_cause else "")]
        )
    out: dict[str, Any] = {"seats": seats, "center": center, "facts": facts}
    if isinstance(v.to_act, int):
        if v.table:
            out["hint"] = "Answer the card led: the trick table decides who takes the trick and its points."
        elif v.season == "war":
            out["hint"] = "War: lead a card; the points of every trick now go to the war pools."
        else:
            out["hint"] = "Lead a card to the trick, or (the master) declare war."
    if v.to_act is None:
        best = max(v.scores)
        won = [p for p in range(2) if v.scores[p] == best]
        out["result"] = {
            "title": "Game over: "
            + ("a tie" if len(won) > 1 else f"player {won[0]} wins with {best} points"),
            "lines": [f"scores: player 0 {v.scores[0]}, player 1 {v.scores[1]}"],
            "winners": won,
        }
    return out
