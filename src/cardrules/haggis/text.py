"""Haggis as text: reading an action (:func:`parse_action`), a line for a record
(:func:`describe`), the table (:func:`render`), the game in a few lines (:func:`summary`)
and the notation's help for people (``NOTATION_HELP``).

The notation: a play is its cards (``5H 6H 7H``, in any order).  When face cards play as
wilds beside number cards, the same cards may declare several combinations, so the text
adds the declaration after ``as``: ``5H J as 5s`` (a set of 5s), ``5H 6H J as run to 7``,
``6H 7C J Q as pairs to 7`` (``triples``, ``quadruples``, ``quintuples`` for wider
sequences).  ``pass``; ``bet 15``; ``give 1`` (a bombed trick to player 1).
``parse_action`` reads cards without the declaration when they declare one legal
combination only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from .. import notation as _notation
from ..cards import Card
from ..errors import CardRulesError, IllegalActionError
from ..protocol import CHANCE
from .combos import Combo, Play, card_points, combinations, play_text
from .rules import PASS_ACTION, Bet, GiveTrick, Pass, State, legal_actions, player_view, suit_count

_NOTATION = _notation.Notation(aliases={"p": "pass", "no play": "pass"}, card_sets=True, split="as")


def _extra(state: State, key: str, cards: list[Card]) -> Any:
    ws = key.split()
    if ws[:1] == ["play"]:
        ws = ws[1:]
    if ws == ["pass"]:
        return PASS_ACTION
    if len(ws) == 2 and ws[1].isdecimal():
        if ws[0] == "bet":
            return Bet(int(ws[1]))
        if ws[0] == "give":
            return GiveTrick(int(ws[1]))
    if not cards or ws[: len(cards)] != [str(c) for c in cards]:
        return None
    decl = " ".join(ws[len(cards) :])
    legal = [a for a in legal_actions(state) if type(a) is Play and Counter(a.combo.cards) == Counter(cards)]
    if not decl and len(legal) > 1:
        raise IllegalActionError(
            f"{key!r} declares {len(legal)} combinations: say which: " + ", ".join(map(str, legal))
        )
    if legal:
        return legal[0] if not decl else None  # with a declaration: no legal one matched
    try:
        combos = combinations(cards, suits=suit_count(state))
    except CardRulesError:
        return None
    for combo in combos:
        if not decl or play_text(combo).endswith(decl):
            return Play(combo)  # not legal: apply() says why
    return None


def read_action(state: State, text: str, apply: Callable[[State, Any], State]) -> Any:
    """The legal action ``text`` names (:func:`cardrules.haggis.parse_action`);
    ``apply(state, action)`` is the game's, whose error says why an action the text
    names is not legal."""
    legal = legal_actions(state)
    try:
        return _notation.read(state, text, legal, _NOTATION, extra=_extra, check=apply)
    except IllegalActionError:
        if PASS_ACTION in legal or _notation.key_of(text, _NOTATION) != "pass":
            raise
    # no card text is near "pass": say what the player may do instead of listing plays
    singles = [a for a in legal if type(a) is Play and len(a.combo.cards) == 1]
    example = f", e.g. a single card: {singles[0]}" if singles else ""
    raise IllegalActionError(f"{text.strip()!r}: you lead this trick: you may not pass; play cards{example}")


def render_table(state: State, player: int | None) -> str:
    """The table as text (:func:`cardrules.haggis.render`), drawn from the players'
    views (the GameDef has checked ``player``): nothing hidden can show."""
    n = state.players
    views = [player_view(state, p) for p in range(n)] if player is None else [player_view(state, player)]
    v = views[0]
    scores = " ".join(map(str, v.scores))
    lines = [f"Haggis, hand {v.hand_number}: scores {scores} ({v.rules.target} wins)"]
    for p in range(n):
        parts = [f"{v.hand_sizes[p]} card{'s' * (v.hand_sizes[p] != 1)}"]
        if v.wilds[p]:
            parts.append("wilds " + " ".join(map(str, v.wilds[p])))
        if v.bets[p]:
            parts.append(f"bet {v.bets[p]}")
        if p in v.out:
            parts.append(f"out {'first' if v.out[0] == p else 'second'}")
        if v.captured[p]:
            parts.append(f"captured {len(v.captured[p])} ({card_points(v.captured[p])} points)")
        lines.append(f"player {p}: " + ", ".join(parts))
    lines.append(f"the haggis: {v.haggis_size} cards")
    if v.trick:
        who, combo = v.trick[-1]
        lines.append(f"to beat: {combo.describe()}: {' '.join(map(str, combo.cards))} (player {who})")
    elif v.hand_number > 1 and not any(v.captured):
        lines.append("last hand's points: " + " ".join(map(str, v.last_hand)))
    for w in views:
        owner = "your hand" if player is not None else f"player {w.player}'s hand"
        lines.append(f"{owner}: {' '.join(map(str, w.hand)) or '-'}")
    if v.to_act is None:
        best = max(v.scores)
        won = [p for p in range(n) if v.scores[p] == best]
        lines.append(f"game over: player {won[0]} wins")
    elif isinstance(v.to_act, int):
        doing = "gives the bombed trick away" if v.giving else "plays or passes" if v.trick else "leads"
        lines.append(f"to act: player {v.to_act} {doing}")
    return "\n".join(lines)


def describe(state: State, action: Any) -> str:
    """A line for a record: ``"player 1 plays a run of three to 9: 7H 8H 9H"``."""
    p = state.to_act
    if p is CHANCE:
        return f"chance deals hand {state.hand_number + 1}"
    who = f"player {p}"
    if isinstance(action, Combo):
        action = Play(action)
    if isinstance(action, Play):
        c = action.combo
        line = f"{who} plays {c}"
        if isinstance(p, int) and isinstance(c, Combo) and len(state.hands[p]) == len(c.cards):
            line += " and goes out"
            if sum(1 for h in state.hands if h) <= 2:
                line += f"; hand {state.hand_number} ends"
        return line
    if isinstance(action, Pass):
        return f"{who} passes"
    if isinstance(action, Bet):
        return f"{who} bets {action.amount} to go out first"
    if isinstance(action, GiveTrick):
        return f"{who} gives the bombed trick to player {action.player}"
    return f"{who}: {action}"


def summary(state: State) -> str:
    """The game in a few lines: hands played and final scores."""
    lines = [f"{state.hand_number} hand(s) played; last hand's points: {list(state.last_hand)}"]
    if state.is_over:
        lines.append(f"player {state.winners[0]} wins with {max(state.scores)} points")
    return "\n".join(lines)


NOTATION_HELP = """\
  a combination: its cards in any order: 5H 6H 7H, 8S 8D, J Q (a bomb)
  with wild face cards the declaration may be needed: 5H J as 5s, 5H 6H J as run to 7,
  6H 7C J Q as pairs to 7 (triples, quadruples... for wider runs)
  pass; bet 15 or bet 30 (before your first card of the hand); give 1 (a bombed trick)"""
