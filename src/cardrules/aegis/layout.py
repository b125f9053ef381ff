"""Aegis as the web table draws it (:func:`table_layout`, the game's ``table_layout``
hook): the key card, the trick in play and who led it, each player's role, bid, tricks
and score, the exchanges, and the season's result in the words of its record."""

from __future__ import annotations

from typing import Any

from .rules import View
from .text import season_text, view_role

_HINTS = {
    "exchange": "Click the cards you want to exchange, then press their button; or keep your hand.",
    "bid": "Bid the number of the five tricks you promise to take as attacker.",
    "play": "Play a card to the trick; the trick table and the key card decide who takes it.",
}


def table_layout(v: View) -> dict[str, Any]:
    """The table of the seat whose view ``v`` is, as labelled JSON values (see the web
    table's documentation)."""
    seats: list[dict[str, Any]] = []
    for p in range(2):
        chip: list[list[Any]] = [["cards", v.hand_sizes[p]], ["score", v.scores[p]]]
        if v.bids[p] is not None:
            chip.append(["bid", v.bids[p]])
        if v.phase in ("play", "over") and v.bids[0] is not None:
            chip.append(["tricks", v.tricks[p]])
        if v.drawn[p] and v.phase == "exchange":
            chip.append(["cards drawn", " + ".join(map(str, v.drawn[p]))])
        role = view_role(v, p) if v.master is not None else None
        seats.append({"facts": chip, "badge": role, "rows": []})
    center: list[dict[str, Any]] = []
    if v.key is not None:
        center.append({"label": "key card", "cards": [str(v.key)], "small": True})
    if v.trick:
        center.append(
            {
                "label": "trick",
                "words": f"led by player {v.leader}",
                "cards": [str(c) for c in v.trick],
                "by": v.leader,
            }
        )
    elif v.played and v.phase == "play":
        last = v.played[-1]
        center.append(
            {
                "label": "last trick",
                "cards": [str(c) for c in last.cards],
                "by": last.leader,
                "small": True,
                "words": f"led by player {last.leader}, taken by player {last.winner}",
            }
        )
    if not v.trick and v.phase == "play" and isinstance(v.to_act, int):
        center.append({"label": "new trick", "words": f"player {v.to_act} leads", "cards": []})
    facts: list[list[Any]] = [
        ["season", len(v.seasons) + (0 if v.phase == "over" else 1)],
        ["cards in the stock", v.stock_size],
    ]
    if v.phase == "exchange":
        facts.append(["exchange rounds", v.exchanges])
    if v.discarded:
        facts.append(["you discarded", " ".join(map(str, v.discarded))])
    out: dict[str, Any] = {"seats": seats, "center": center, "facts": facts}
    if isinstance(v.to_act, int):
        out["hint"] = _HINTS.get(v.phase, "")
    if v.seasons and v.phase in ("deal", "over"):  # a season just ended (the next is to be dealt)
        s = v.seasons[-1]
        season: dict[str, Any] = {
            "title": f"Season {len(v.seasons)} is over",
            "lines": [
                season_text(s)[len("season: ") :],
                f"scores: player 0 {v.scores[0]}, player 1 {v.scores[1]}",
            ],
        }
        if v.phase == "over":
            best = max(v.scores)
            won = [p for p in range(2) if v.scores[p] == best]
            season["title"] = "Game over: " + (
                "a tie" if len(won) > 1 else f"player {won[0]} wins with {best} points"
            )
            season["winners"] = won
        out["result"] = season
    return out
