"""New Eleusis as the web table draws it (:func:`table_layout`, the game's
``table_layout`` hook): the whole layout as it lies on a real table (the main line left
to right, under each of its cards the wrong cards played there), each player's chip,
the prophet's marker, the sudden-death count, and a line on what each choice risks.

Made from one seat's :class:`~cardrules.eleusis.View`: only God's holds the rule."""

from __future__ import annotations

from typing import Any

from .rules import View
from .text import rule_text

#: what each choice that is not a card risks, said beside its button
EXPLAIN = {
    "no play": "Say none of your cards fits the rule. If that is right, your hand is taken "
    "back and you get a smaller one; if a card did fit, it is played for you and you draw penalty cards.",
    "prophet": "Claim you know the rule: you judge every later play. Judging right earns points at the end; "
    "a wrong judgement overthrows you (you draw cards and never become prophet again).",
    "pass": "Stay a scientist and let the next player play.",
    "judge right": "Say the play (or the no-play) follows the rule as you believe it. If God disagrees, "
    "you are overthrown.",
    "judge wrong": "Say the play breaks the rule: its cards go below the main line and the player draws.",
}


def standing(v: View) -> list[int]:
    """Each seat's score if the round ended now, God first (the rules'
    :func:`~cardrules.eleusis.rules.round_scores`, from the public part of a view)."""
    counts = list(v.hand_sizes[1:])
    if not counts:
        return [0]
    high = max(counts)
    scores = [0] + [high - k + (4 if k == 0 else 0) for k in counts]
    god = max(scores[1:])
    if v.prophet is not None and v.marker is not None:
        at_count, at_main, at_side = v.marker
        side_cards = sum(len(cards) for _, cards in v.sides)
        scores[v.prophet] += (len(v.main) - at_main) + 2 * (side_cards - at_side)
        god = min(max(scores[1:]), 2 * at_count)
    scores[0] = god
    return scores


def _hint(v: View) -> str:
    if v.phase == "turn":
        strings = (
            f" To play a string, click 2 to {v.max_string} cards in the order you play them."
            if v.max_string > 1
            else ""
        )
        return "Play a card you think the secret rule allows after the last card of the main line." + strings
    if v.phase == "offer":
        return "Your play was right: you may now claim to know the rule and become the prophet."
    if v.phase == "judge":
        return "You are the prophet: say whether this play follows the rule."
    return ""


def table_layout(v: View) -> dict[str, Any]:
    """The table of the seat whose view ``v`` is, as labelled JSON values (see the web
    table's documentation)."""
    n = len(v.hand_sizes)
    over = v.phase == "over"
    scores = list(v.scores) if over else standing(v)
    seats: list[dict[str, Any]] = []
    for p in range(n):
        if p == 0:
            seats.append(
                {"facts": [["score" if over else "score now", scores[0]]], "badge": "God", "rows": []}
            )
            continue
        badge = "prophet" if p == v.prophet else "expelled" if p in v.expelled else None
        chip: list[list[Any]] = [["cards", v.hand_sizes[p]], ["score" if over else "score now", scores[p]]]
        if p in v.former_prophets and p != v.prophet:
            chip.append(["former prophet", True])
        seats.append({"facts": chip, "badge": badge, "rows": []})
    sides: list[list[str]] = [[] for _ in v.main]
    for at, cards in v.sides:
        if 0 <= at < len(sides):
            sides[at].extend(str(c) for c in cards)
    marker = None
    if v.prophet is not None and v.marker is not None:
        marker = v.marker[1] - 1
    out: dict[str, Any] = {
        "draw": "eleusis",
        "seats": seats,
        "main": [str(c) for c in v.main],
        "sides": sides,
        "marker": marker,
        "explain": EXPLAIN,
    }
    facts: list[list[Any]] = [["cards in the stock", v.stock_size]]
    counted = v.sudden_death_count
    death = (
        "now: a wrong play expels" if v.in_sudden_death else f"{counted} card{'s' * (counted != 1)} counted"
    )
    facts.append(["sudden death", death])
    if v.rule is not None:
        facts.append(["the secret rule", rule_text(v.rule)])
    out["facts"] = facts
    center: list[dict[str, Any]] = []
    if v.phase == "judge" and v.pending is not None:
        judged = [str(c) for c in getattr(v.pending, "cards", ())]
        what = "a string" if len(judged) > 1 else "a card" if judged else "no play"
        center.append(
            {"label": "to judge", "words": f"player {v.turn} plays {what}", "cards": judged, "by": v.turn}
        )
        if v.shown:
            center.append(
                {"label": "the hand shown", "cards": [str(c) for c in v.shown], "by": v.turn, "small": True}
            )
    out["center"] = center
    if v.phase in ("turn", "judge") and v.max_string > 1 and v.phase == "turn":
        out["strings"] = v.max_string
    if isinstance(v.to_act, int):
        out["hint"] = _hint(v)
    if over:
        best = max(scores)
        winners = [p for p in range(n) if scores[p] == best]
        names = " and ".join("God" if p == 0 else f"player {p}" for p in winners)
        lines = [", ".join(("God" if p == 0 else f"player {p}") + f" {scores[p]}" for p in range(n))]
        if v.prophet is not None:
            lines.append(f"player {v.prophet} ended as the true prophet")
        out["result"] = {
            "title": f"Round over: {names} {'win' if len(winners) > 1 else 'wins'} with {best} points",
            "lines": lines,
            "winners": winners,
        }
    return out
