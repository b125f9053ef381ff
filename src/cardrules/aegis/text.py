"""Aegis as text: the record lines (:func:`describe_for` and the line of
``describe``), the :func:`summary`, the notation of actions (read by
``parse_action``), the table as text (``render``) and the help on the notation.

The GameDef of :mod:`cardrules.aegis` is handed ``describe``, ``describe_for``,
``summary``, ``render_table`` and ``NOTATION_HELP``; ``parse_action`` is written
out there, around ``read_action``, which takes the game's ``apply`` as an argument.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from .. import notation as _notation
from ..cards import Card
from ..errors import CardRulesError
from ..protocol import CHANCE, Shuffle
from .rules import (
    RATINGS,
    Bid,
    Exchange,
    Play,
    Season,
    State,
    View,
    draw_beats,
    evaluate,
    legal_actions,
    player_view,
    role_of,
    step_state,
)

# ---------------------------------------------------------------------------------------
# Records for people


def describe_for(state: State, action: Any, player: int) -> str:
    """The line :func:`~cardrules.GameDef.describe` gives for ``action``, as ``player``
    may be told it: an opponent's exchange shows how many cards, not which (the
    discards are hidden, as in :func:`view`)."""
    return describe(state, action, viewer=player)


def describe(state: State, action: Any, viewer: int | None = None) -> str:
    """A line for a record: ``action`` played in ``state``, as everyone at the table
    sees it (:func:`describe_for` hides an opponent's exchanged cards; ``viewer``: the
    player the line is for, ``None`` for everyone)."""
    if state.to_act is CHANCE and type(action) is Shuffle:
        o = action.order
        if state.phase == "draw":
            m = 0 if draw_beats(o[0], o[1]) else 1
            return f"chance: player 0 draws {o[0]}, player 1 draws {o[1]}; player {m} is the first master"
        return f"chance: season {state.season_number} dealt; key card {o[0]}; player {state.master} is master"
    p = state.to_act
    if not isinstance(p, int):
        return f"{action}"
    who = f"player {p} ({role_of(state, p)})"
    if state.history and type(state.history[-1]) is Shuffle:  # a season's first move
        who = f"[season {state.season_number}, key card {state.key}] {who}"
    if type(action) is Exchange:
        if not action.cards:
            if p == state.master:
                n = state.exchanges
                return f"{who} stops exchanging after {n} round{'s' if n != 1 else ''}"
            return f"{who} keeps its hand"
        n = state.exchanges + (p == state.master)
        if viewer is not None and viewer != p:
            k = len(action.cards)
            return f"{who} exchanges {k} card{'s' if k != 1 else ''} (round {n})"
        return f"{who} exchanges {' '.join(map(str, action.cards))} (round {n})"
    if type(action) is Bid:
        return f"{who} bids {action.n}"
    if type(action) is Play and state.phase == "play":
        line = f"{who} plays {action.card}"
        try:
            new = step_state(state, action)
        except CardRulesError:
            return line
        if state.trick:
            w = state.rules.table.winner((state.trick[0], action.card), key=state.key)
            line += f"; player {state.leader if w == 0 else p} takes the trick"
        if len(new.seasons) > len(state.seasons):
            line += f"; {season_text(new.seasons[-1])}; scores {new.scores[0]}-{new.scores[1]}"
            if new.is_over:
                line += f"; game over, player {new.winners[0]} wins"
        return line
    return f"{who}: {action}"


def season_text(s: Season) -> str:
    a, d = s.attacker, s.defender
    head = f"season: player {a} attacked with {s.bids[a]} and took {s.tricks[a]}"
    if s.outcome == "break":
        parts = [f"break +{s.bids[a]} to player {a}"]
        if s.promise:
            parts.append("promise +1")
    else:
        parts = [f"keep +{s.bids[a]} to player {d}"]
    if s.conquest:
        parts.append(f"conquest +1 to player {s.winner}")
    if s.save:
        parts.append(f"save +{s.bids[d]} to player {d}")
    return head + " (" + ", ".join(parts) + ")"


def summary(state: State) -> str:
    """A few lines on a game: each scored season, the scores, and both players'
    ratings (:func:`evaluate`).  ``cardrules demo`` prints it after the record."""
    lines = []
    for i, s in enumerate(state.seasons, 1):
        head = f"season {i}: master {s.master}, key {s.key}, {s.exchanges} exchanges"
        lines.append(f"{head}; {season_text(s)[len('season: ') :]}")
    for p in range(2):
        e = evaluate(state, p)
        lines.append(f"player {p}: " + ", ".join(f"{name} {_pct(getattr(e, name))}" for name in RATINGS))
    return "\n".join(lines)


def _pct(x: float | None) -> str:
    return "none" if x is None else f"{x:.0f}"


# ---------------------------------------------------------------------------------------
# Actions and tables as text
#
# The notation: a card played is the card (``7H``); a bid is ``bid 3``; an exchange is
# ``exchange 2S 7H`` (the cards in any order), and keeping one's hand (the master's
# ``keep`` ends the exchanges) is ``keep``.  ``parse_action`` also reads ``stop``,
# ``play 7H`` and, in the exchange phase, bare cards (``2S 7H``).
_NOTATION: Final = _notation.Notation(
    aliases={k: "keep" for k in ("stop", "exchange", "exchange none", "no exchange", "none")},
    card_sets=True,
)


def _extra(state: State, key: str, cards: list[Card]) -> Any:
    # What the text says, legal or not: apply() then says why it is not.
    ws = key.split()
    if not ws:
        return None
    rest = len(ws) - 1 == len(cards)
    if ws[0] == "play" and rest and len(cards) == 1:
        return Play(cards[0])
    if ws[0] == "exchange" and rest:
        return Exchange(tuple(cards))
    if ws[0] == "bid" and len(ws) == 2 and ws[1].isdecimal():
        return Bid(int(ws[1]))
    if len(cards) == len(ws):  # bare cards: an exchange, or the card to play
        if state.phase == "exchange":
            return Exchange(tuple(cards))
        if len(cards) == 1:
            return Play(cards[0])
    if state.phase == "bid" and len(ws) == 1 and ws[0].isdecimal():
        return Bid(int(ws[0]))
    return None


def read_action(state: State, text: str, apply: Callable[[State, Any], State]) -> Any:
    """The legal action ``text`` names (``cardrules.aegis.parse_action``); ``apply`` is
    the game's, which says why an action the text names is not legal."""
    return _notation.read(state, text, legal_actions(state), _NOTATION, extra=_extra, check=apply)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards)) or "-"


def render_table(state: State, player: int | None) -> str:
    """The table as text (``cardrules.aegis.render``), drawn from the players' views:
    all of it, or only what ``player`` may see (the GameDef has checked ``player``)."""
    views = [player_view(state, p) for p in range(2)] if player is None else [player_view(state, player)]
    v = views[0]
    rules = state.rules
    season = len(v.seasons) + (0 if v.phase == "over" else 1)
    lines = [f"Aegis, season {season}: scores {v.scores[0]}-{v.scores[1]} "
             f"({rules.target} wins, or a lead of {rules.margin})"]  # fmt: skip
    if v.key is not None and v.phase != "over":
        lines.append(f"key card {v.key}, {v.stock_size} cards in the stock")
    for p in range(2):
        parts = [f"{v.hand_sizes[p]} card{'s' * (v.hand_sizes[p] != 1)}"]
        if v.drawn[p]:
            parts.append("drew " + "+".join(map(str, v.drawn[p])))
        if v.bids[p] is not None:
            parts.append(f"bid {v.bids[p]}")
        if v.phase == "play":
            parts.append(f"tricks {v.tricks[p]}")
        role = "" if v.master is None else f" ({view_role(v, p)})"
        lines.append(f"player {p}{role}: " + ", ".join(parts))
    if v.phase == "play":
        if v.trick:
            lines.append(f"trick: player {v.leader} led {v.trick[0]}")
        elif v.played:
            t = v.played[-1]
            lines.append(f"last trick: {t.cards[0]} {t.cards[1]}, taken by player {t.winner}")
    if v.seasons and (v.phase in ("exchange", "bid", "over") and not v.played):
        lines.append("last season: " + season_text(v.seasons[-1])[len("season: "):])
    for w in views:
        owner = "your hand" if player is not None else f"player {w.player}'s hand"
        lines.append(f"{owner}: {_cards(w.hand)}")
    if v.phase == "over":
        winner = state.winners[0] if player is None else (0 if v.scores[0] > v.scores[1] else 1)
        if player is not None and v.scores[0] == v.scores[1]:
            winner = v.seasons[-1].winner
        lines.append(f"game over: player {winner} wins")
    elif isinstance(v.to_act, int):
        doing = {"exchange": "may exchange cards or keep", "bid": "bids", "play": "plays a card"}[v.phase]
        lines.append(f"to act: player {v.to_act} ({view_role(v, v.to_act)}) {doing}")
    return "\n".join(lines)


def view_role(v: View, p: int) -> str:
    if v.phase == "play" or (v.phase == "over" and v.bids[0] is not None):
        return "attacker" if p == v.attacker else "defender"
    return "master" if p == v.master else "slave"


NOTATION_HELP = """\
  a card to play: 7H (ranks A 2..10 J Q K, also T; suits S H D C or ♠ ♥ ♦ ♣)
  an exchange: exchange 2S 7H (any order; bare cards work in the exchange phase)
  keep your hand, or as master stop exchanging: keep (or stop)
  a bid: bid 3"""
