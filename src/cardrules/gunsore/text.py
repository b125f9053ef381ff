"""Gunsore as text: actions read from text, the line of an action, the table, the
account of a game and its seasons, and the notation's help for people.

The notation: a card played is the card (``7H``, ``JK`` for the joker); declaring war
is ``war``.  ``parse_action`` also reads ``play 7H`` and ``declare war``.

The GameDef of :mod:`cardrules.gunsore` is handed ``describe``,
``render_table`` and ``NOTATION_HELP``; what needs the checked protocol (``apply``,
a new game to replay a history on) takes it as an argument, and is written out there
around it (``parse_action``, ``season_log``, ``summary``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import attrs

from .. import notation as _notation
from ..cards import JOKER, Card
from ..errors import IllegalActionError
from ..protocol import CHANCE, Shuffle
from .rules import (
    DeclareWar,
    Play,
    Rules,
    State,
    WarCause,
    deal_cards,
    legal_actions,
    player_view,
    step_state,
    stronger,
    suit_name,
)

# -- records ---------------------------------------------------------------------------


def _role(state: State, player: int) -> str:
    return f"player {player} ({'master' if player == state.master else 'slave'})"


def _truce_words(before: State, after: State) -> str:
    a, b = _pools_before_truce(before, after)
    gained = (after.scores[0] - before.scores[0], after.scores[1] - before.scores[1])
    if a == b:
        words = f"truce: equal pools ({a}), each scores its own"
    else:
        big = 0 if a > b else 1
        words = f"truce: player {big}'s pool {max(a, b)} beats {min(a, b)} and scores {gained[big]}"
    words += f"; scores {after.scores[0]} to {after.scores[1]}"
    if after.is_over:
        return words + "; the stock is gone: the game is over"
    n = len(after.hands[0])
    return words + f"; new season: {n} card{'s' if n != 1 else ''} each, player {after.master} is master"


def _pools_before_truce(before: State, after: State) -> tuple[int, int]:
    # The pools just before the truce, recomputed from the last trick (the state after
    # the truce has them back at 0).  Cold code, for records only.
    lead, card = after.last_trick
    rules = before.rules
    pools = before.pools
    if card is JOKER:
        pools = (pools[1], pools[0])
    master = before.master
    assert master is not None
    winner = after.master
    if before.season == "development":
        pd = rules.points_development
        add = [0, 0]
        add[master] += pd[lead.rank]
        add[1 - master] += pd[card.rank]
        return (pools[0] + add[0], pools[1] + add[1])
    gain = rules.points_war[lead.rank] + rules.points_war[card.rank]
    return (pools[0] + gain, pools[1]) if winner == 0 else (pools[0], pools[1] + gain)


def describe(state: State, action: object) -> str:
    """One readable line for ``action`` played in ``state`` (used by ``cardrules demo``).

    >>> from cardrules.gunsore import new_game
    >>> s = new_game(seed=2024)
    >>> describe(s, DeclareWar())
    'player 0 (master) declares war'
    """
    if state.to_act is CHANCE and isinstance(action, Shuffle):
        after = deal_cards(state, action)
        if state.master is None:
            order = action.order
            parts = []
            for i in range(0, len(order) - 1, 2):
                parts.append(f"player 0 draws {order[i]}, player 1 draws {order[i + 1]}")
                if order[i] is not order[i + 1] and (
                    stronger(state.rules.table, order[i], order[i + 1])
                    or stronger(state.rules.table, order[i + 1], order[i])
                ):
                    break
            return (
                "chance: " + "; equal, again: ".join(parts) + f": player {after.master} is the first master"
            )
        n = len(after.hands[0])
        return f"chance: the deal, {n} cards each, master first; {len(after.stock)} cards in the stock"
    if isinstance(action, DeclareWar):
        return (
            f"{_role(state, state.to_act)} declares war" if isinstance(state.to_act, int) else "DeclareWar()"
        )
    if not isinstance(action, Play) or not isinstance(state.to_act, int):
        return str(action)
    p = state.to_act
    try:
        after = step_state(state, action)
    except IllegalActionError as exc:
        return f"{_role(state, p)} tries {action.card}: {exc}"
    if not state.table:
        line = f"{_role(state, p)} leads {action.card}"
        if after.season == "war" and state.season == "development":
            line += f": war breaks out, player {1 - p} holds only {suit_name(action.card)}"
        return line
    line = f"{_role(state, p)} plays {action.card}"
    if action.card is JOKER:
        line += ", swapping the pools"
    line += f"; player {after.master} wins the trick"
    if after.season is not None and after.season == state.season:
        line += f" (pools {after.pools[0]}-{after.pools[1]})"
    elif after.season == "war":
        line += f" (pools {after.pools[0]}-{after.pools[1]}); the stock is empty: war breaks out"
    if (
        after.scores != state.scores
        or after.is_over
        or (after.season != state.season and after.season == "development")
    ):
        line += "; " + _truce_words(state, after)
    return line


@attrs.frozen
class SeasonRecord:
    """One season of a finished or running game, as :func:`season_log` tells it.

    ``war_cause`` is ``None`` for a season that never went to war (only possible with
    ``war_when_stock_empty=False``); ``pools`` are the pools at the truce, ``None`` for
    the season still running.
    """

    master: int
    development_tricks: int
    war_tricks: int
    war_cause: WarCause | None
    pools: tuple[int, int] | None


def season_log(
    state: State, new_game: Callable[[Rules], State], apply: Callable[[State, Any], State]
) -> tuple[SeasonRecord, ...]:
    """The seasons of the game so far, replayed from ``state.history`` on
    ``new_game(state.rules)`` with ``apply`` (:func:`cardrules.gunsore.season_log`)."""
    s = new_game(state.rules)
    records: list[SeasonRecord] = []
    current: list[Any] = []
    for action in state.history:
        before = s
        s = apply(s, action)
        if isinstance(action, Shuffle):
            if s.season == "development":
                current = [s.master, 0, 0, None]
            continue
        if isinstance(action, DeclareWar):
            current[3] = "declared"
            continue
        if before.table:  # a completed trick
            kind = 1 if before.season == "development" else 2
            current[kind] += 1
            if before.season == "development" and s.season == "war" and s.scores == before.scores:
                current[3] = "stock"
            if (
                s.scores != before.scores
                or s.is_over
                or (s.season == "development" and before.season == "war")
            ):
                records.append(SeasonRecord(current[0], current[1], current[2], current[3],
                                            _pools_before_truce(before, s)))  # fmt: skip
                current = [s.master, 0, 0, None]
        elif s.season == "war" and before.season == "development":
            current[3] = "stuck"
    if current and not s.is_over and s.season is not None:
        records.append(SeasonRecord(current[0], current[1], current[2], current[3], None))
    return tuple(records)


def summary(state: State, log: tuple[SeasonRecord, ...]) -> str:
    """A short account of a game from its season log (:func:`season_log`): its seasons
    and how each war broke out (:func:`cardrules.gunsore.summary`)."""
    causes = {"declared": 0, "stock": 0, "stuck": 0}
    for r in log:
        if r.war_cause is not None:
            causes[r.war_cause] += 1
    line = (
        f"gunsore: {len(log)} season{'s' if len(log) != 1 else ''}; wars: {causes['declared']} declared, "
        f"{causes['stock']} on an empty stock, {causes['stuck']} by a stuck slave"
    )
    if state.is_over:
        w = state.winners
        result = "a tie" if len(w) == 2 else f"player {w[0]} wins"
        line += f"; {result}, {state.scores[0]} to {state.scores[1]}"
    return line


# -- actions and tables as text --------------------------------------------------------

_NOTATION: Final = _notation.Notation(aliases={"declare war": "war", "declarewar": "war"})


def _extra(state: State, key: str, cards: list[Card]) -> Any:
    ws = key.split()
    if ws[:1] == ["play"] and len(ws) == 2 and len(cards) == 1:
        return Play(cards[0])
    if len(ws) == 1 and len(cards) == 1:
        return Play(cards[0])
    return None


def read_action(state: State, text: str, apply: Callable[[State, Any], State]) -> Any:
    """The legal action ``text`` names (:func:`cardrules.gunsore.parse_action`); a card
    that is not legal is tried with ``apply``, whose error says why it is refused."""
    return _notation.read(state, text, legal_actions(state), _NOTATION, extra=_extra, check=apply)


def render_table(state: State, player: int | None) -> str:
    """The table as text (:func:`cardrules.gunsore.render`), drawn from the players'
    views: all of it, or only what ``player`` may see (the GameDef has checked ``player``)."""
    views = [player_view(state, p) for p in range(2)] if player is None else [player_view(state, player)]
    v = views[0]
    sizes = {v.player: len(v.hand), 1 - v.player: v.opponent_hand_size}
    head = f"Gunsore: scores {v.scores[0]}-{v.scores[1]}"
    if v.season is not None:
        cause = {"stuck": " (the slave held only the led suit)", "stock": " (the stock ran out)",
                 "declared": " (declared)"}.get(v.war_cause or "", "")  # fmt: skip
        head += f", {v.season} season{cause if v.season == 'war' else ''}, pools {v.pools[0]}-{v.pools[1]}"
    head += f", {v.stock_size} cards in the stock"
    lines = [head]
    for p in range(2):
        role = "" if v.master is None else f" ({'master' if p == v.master else 'slave'})"
        lines.append(f"player {p}{role}: {sizes[p]} card{'s' * (sizes[p] != 1)}")
    if v.table:
        lines.append(f"to answer: {v.table[0]} led by player {v.master}")
    elif v.last_trick:
        lines.append(f"last trick: {v.last_trick[0]} {v.last_trick[1]}")
    for w in views:
        owner = "your hand" if player is not None else f"player {w.player}'s hand"
        lines.append(f"{owner}: {' '.join(map(str, w.hand)) or '-'}")
    if v.to_act is None:
        best = max(v.scores)
        won = [p for p in range(2) if v.scores[p] == best]
        lines.append("game over: " + ("a tie" if len(won) > 1 else f"player {won[0]} wins"))
    elif isinstance(v.to_act, int):
        p = v.to_act
        role = "master" if p == v.master else "slave"
        if v.table:
            doing = "answers"
        elif v.season == "development" and state.rules.declare_war:
            doing = "leads a card or declares war"
        else:
            doing = "leads a card"
        lines.append(f"to act: player {p} ({role}) {doing}")
    return "\n".join(lines)


#: How to write an action, for ``help`` at the table.
NOTATION_HELP = """\
  a card to play: 7H, JK for the joker
  declare war (master, development season): war"""
