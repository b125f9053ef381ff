"""New Eleusis as text: the layout, the lines of a record (:func:`describe`), the
summary, the notation of actions (read by :func:`read_action`), the table
(``render_table``), the help for people (``NOTATION_HELP``) and the rules a person writes as text.

The notation: a play is its cards in the order played (``5H``, a string ``5H 6C 7D``);
``no play``; after a play ``prophet`` (become prophet) or ``pass``; a prophet's calls
are ``judge right`` and ``judge wrong``, and for a no-play ``judge wrong 5H`` ("wrong:
5H is a right card").  ``parse_action`` also reads ``play 5H``, ``none``, ``yes``/``no``
to the prophet offer, and ``right``, ``wrong``, ``wrong 5H``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol

import attrs  # noqa: F401 - the doctests use it

from .. import notation as _notation
from ..cards import Card
from ..errors import CardRulesError, IllegalActionError
from ..lang.errors import RuleSyntaxError
from ..lang.rules import compile_registered, compile_registered_rules
from ..protocol import CHANCE
from .rules import BecomeProphet, Judge, NoPlay, Play, Rules, State, legal_actions, player_view, step_state

# -- the layout, records and the summary ------------------------------------------------


class Layout(Protocol):
    """Anything with a main line and side lines: a :class:`State`, a :class:`View`, or
    a program's own record of a real table."""

    @property
    def main(self) -> Sequence[Card]: ...
    @property
    def sides(self) -> Sequence[tuple[int, Sequence[Card]]]: ...


def layout_text(state: Layout, *, width: int = 13) -> str:
    """The layout as text: the main line in rows of ``width`` cards, each wrong play
    hanging under the main-line card it was played on (a string joined by ``+``).
    ``state`` is anything with ``main`` and ``sides`` (:class:`Layout`).

    >>> from cardrules import parse_cards
    >>> from cardrules.eleusis import new_game, view
    >>> v = attrs.evolve(view(new_game(seed=0), 0), main=parse_cards("5H 8S 3D"),
    ...                  sides=((1, parse_cards("KH")), (1, parse_cards("QD")), (2, parse_cards("4S 5S"))))
    >>> print(layout_text(v))
    5H 8S    3D
       KH 4S+5S
       QD
    """
    main, sides = state.main, state.sides
    under: list[list[str]] = [[] for _ in main]
    for i, cards in sides:
        if 0 <= i < len(main):
            under[i].append("+".join(map(str, cards)))
    rows: list[str] = []
    for start in range(0, len(main), width):
        cols = range(start, min(start + width, len(main)))
        widths = {i: max([len(str(main[i])), *(len(s) for s in under[i])]) for i in cols}
        depth = max((len(under[i]) for i in cols), default=0)
        rows.append(" ".join(str(main[i]).rjust(widths[i]) for i in cols).rstrip())
        for d in range(depth):
            cells = (under[i][d] if d < len(under[i]) else "" for i in cols)
            rows.append(" ".join(text.rjust(widths[i]) for i, text in zip(cols, cells, strict=True)).rstrip())
    return "\n".join(rows)


def describe(state: State, action: Any) -> str:
    """A line for a record: ``action`` played in ``state``, in words."""
    if state.to_act is CHANCE:
        what = {
            "setup": "the deal",
            "starter": "a fresh deck for the starter",
            "fresh": "a fresh deck shuffled in",
            "reshuffle": "the hand shuffled into the stock",
        }.get(state.phase, "shuffle")
        return f"chance: {what}"
    try:
        after = step_state(state, action)
    except IllegalActionError as exc:
        return f"player {state.to_act}: {action} (illegal: {exc})"
    p = state.to_act
    if state.phase == "offer":
        return (
            f"player {p} {'becomes prophet' if type(action) is BecomeProphet else 'does not become prophet'}"
        )
    if state.phase == "turn" and state.prophet is not None:
        what = f"plays {action}" if type(action) is Play else "declares no play"
        return f"player {p} {what}; prophet {state.prophet} judges"
    rules = state.rules
    if state.phase == "judge":
        actor, played = state.turn, state.pending
        if type(played) is Play:
            head = f"prophet {p} calls player {actor}'s {played} {'right' if action.right else 'wrong'}"
        elif action.right:
            head = f"prophet {p} agrees player {actor} has no right card"
        else:
            head = f"prophet {p} says player {actor} could play {action.card}"
        overthrown = after.prophet != state.prophet
        notes = ["overthrown" if overthrown else "approved"]
    else:
        actor, played, overthrown = p, action, False
        head = f"player {p} {_what(action)}"
        notes = []
    expelled = actor in after.expelled and actor not in state.expelled
    if type(played) is Play:
        right = len(after.main) > len(state.main)
        notes.append("right" if right else "wrong")
        if not right and not expelled and not overthrown and rules.penalty:
            notes.append(f"draws {rules.penalty * len(played.cards)}")
    elif len(after.main) > len(state.main):
        notes.append(f"wrong: {after.main[-1]} goes on the main line")
        if not expelled and not overthrown and rules.no_play_penalty:
            notes.append(f"draws {rules.no_play_penalty}")
    else:
        notes.append("right: the hand goes back into the stock")
    if overthrown and rules.overthrow_penalty:
        notes.append(f"prophet {p} draws {rules.overthrow_penalty}")
    if expelled:
        notes.append("expelled")
    if after.is_over:
        notes.append("the round is over")
    return head + ": " + ", ".join(notes)


def _what(action: Any) -> str:
    if type(action) is Play:
        return ("plays " if len(action.cards) == 1 else "plays the string ") + str(action)
    return "declares no play"


def summary(state: State) -> str:
    """The layout and the round's result as text (``cardrules demo`` prints it)."""
    lines = ["layout:", layout_text(state)]
    sizes = ", ".join(f"{p}: {len(state.hands[p])}" for p in range(1, state.players))
    lines.append(f"cards held: {sizes}")
    if state.prophet is not None:
        lines.append(f"true prophet: player {state.prophet}")
    if state.expelled:
        lines.append("expelled: " + ", ".join(map(str, state.expelled)))
    lines.append(f"the rule was: {rule_text(state.rules.secret)}")
    return "\n".join(lines)


# -- actions and tables as text --------------------------------------------------------

_NOTATION: Final = _notation.Notation(
    aliases={
        "become prophet": "prophet", "y": "prophet", "yes": "prophet",
        "n": "pass", "no": "pass",
        "noplay": "no play", "no-play": "no play", "none": "no play",
        "right": "judge right", "r": "judge right", "wrong": "judge wrong", "w": "judge wrong",
    }
)  # fmt: skip


def _extra(state: State, key: str, cards: list[Card]) -> Any:
    ws = key.split()
    if ws == ["no", "play"]:  # not legal now (else it had matched): apply() says why
        return NoPlay()
    if ws[:1] == ["play"]:
        ws = ws[1:]
    if ws and len(cards) == len(ws):
        return Play(tuple(cards))
    if ws[:1] == ["judge"]:
        ws = ws[1:]
    if ws[:1] == ["wrong"] and len(ws) == 2 and len(cards) == 1:
        return Judge(False, cards[0])
    if ws in (["right"], ["wrong"]):
        return Judge(ws == ["right"])
    if ws == ["prophet"]:
        return BecomeProphet()
    return None


def read_action(state: State, text: str, apply: Callable[[State, Any], Any]) -> Any:
    """The action ``text`` names (what :func:`cardrules.eleusis.parse_action` reads);
    ``apply(state, action)``, the game's, decides on an action the legal
    actions do not list (a string of cards), and its error says why it is refused."""
    def checked(state: State, action: Any) -> Any:
        try:
            return apply(state, action)
        except IllegalActionError as exc:
            raise IllegalActionError(_in_words(str(exc))) from None

    return _notation.read(state, text, legal_actions(state), _NOTATION, extra=_extra, check=checked)


#: The game's refusals name the Python actions (``NoPlay()``); a person reads the words
#: they type instead.
_WORDS: Final = (
    ("Judge(right) (or Judge(False, card))", "'judge right' or 'judge wrong' ('judge wrong 5H': a no-play)"),
    ("Judge(False, card)", "'judge wrong' and the card, e.g. 'judge wrong 5H'"),
    ("Judge(True)", "'judge right'"),
    ("BecomeProphet() or Pass()", "type 'prophet' or 'pass'"),
    ("Play(cards) or NoPlay()", "cards (5H, or a string 5H 6C) or 'no play'"),
    ("NoPlay()", "'no play'"),
)


def _in_words(message: str) -> str:
    for python, words in _WORDS:
        message = message.replace(python, words)
    return message


def rule_text(rule: Any) -> str:
    """A rule's text on one line, without its comments (the header of a table)."""
    lines = (_uncommented(line) for line in rule.source.splitlines())
    return " ".join(" ".join(lines).split())


def _uncommented(line: str) -> str:
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i]
    return line


def render_table(state: State, player: int | None = None) -> str:
    """The table as text (what :func:`cardrules.eleusis.render` shows, once the
    protocol has checked ``player``): drawn from the views, all of them or only
    ``player``'s."""
    seats = range(state.players) if player is None else (player,)
    views = [player_view(state, p) for p in seats]
    v = views[0]
    lines = [f"New Eleusis, {len(v.hand_sizes)} players (player 0 is God)", ""]
    lines.append(layout_text(v) or "(no card on the main line yet)")
    lines.append("")
    marks = []
    for p in range(1, len(v.hand_sizes)):
        note = " prophet" if p == v.prophet else " out" if p in v.expelled else ""
        marks.append(f"{p}:{v.hand_sizes[p]}{note}")
    lines.append("cards held: " + "  ".join(marks) + f"; {v.stock_size} in the stock")
    if v.prophet is not None and v.marker is not None:
        lines.append(f"prophet: player {v.prophet}, marker on main-line card {v.marker[0] + 1}")
    limit = state.rules.sudden_death_prophet if v.prophet is not None else state.rules.sudden_death
    death = "sudden death" if v.in_sudden_death else f"sudden death at {limit}"
    lines.append(f"cards counted: {v.sudden_death_count} ({death})")
    if v.phase == "judge" and v.pending is not None:
        what = _what(v.pending)
        if v.shown:
            what += ", showing " + " ".join(map(str, v.shown))
        lines.append(f"to judge: player {v.turn} {what}")
    for w in views:
        if w.player == 0:
            if w.rule is not None:
                lines.append("the secret rule: " + rule_text(w.rule))
            continue
        owner = "your hand" if player is not None else f"player {w.player}'s hand"
        lines.append(f"{owner}: {' '.join(map(str, w.hand)) or '-'}")
    if v.phase == "over":
        best = max(v.scores)
        won = ", ".join(str(p) for p in range(len(v.scores)) if v.scores[p] == best)
        lines.append(f"round over: scores {' '.join(map(str, v.scores))}; winners {won}")
    elif isinstance(v.to_act, int):
        doing = {"turn": "plays cards or says no play", "judge": "judges the play",
                 "offer": "may become prophet or pass"}.get(v.phase, "acts")  # fmt: skip
        lines.append(f"to act: player {v.to_act} {doing}")
    return "\n".join(lines)


def after_action(before: State, after: State) -> str | None:
    """The layout, after a play changed it (what a person at the table is shown)."""
    if after.main != before.main or after.sides != before.sides:
        return "\n" + layout_text(after) + "\n"
    return None


def rules_from_text(text: str, name: str | None = None) -> Rules:
    """The Rules whose secret rule is ``text``: one rule, or the rule called ``name`` of
    a text that names several."""
    # The standard words, or those of a vocabulary the program registered.
    if name is not None:
        rules = compile_registered_rules(text)
        if name not in rules:
            known = ", ".join(sorted(rules)) or "none"
            raise CardRulesError(f"no rule named {name!r} (the text has: {known})")
        return Rules(secret=rules[name])
    try:
        return Rules(secret=compile_registered(text))
    except RuleSyntaxError:
        try:
            several = compile_registered_rules(text)
        except CardRulesError:
            several = {}
        if len(several) > 1:
            names = ", ".join(f'"{n}"' for n in several)
            why = f"the text holds {len(several)} rules ({names}): choose one by name"
            raise CardRulesError(why) from None
        raise


NOTATION_HELP = """\
  play one card: 5H; a string of cards, in order: 5H 6C 7D
  say you hold no right card: no play (or none)
  after your play: prophet (become prophet) or pass
  as prophet: judge right, judge wrong; for a no-play: judge wrong 5H (5H was right)
  (a numbered list shows single cards; strings of 2 or more cards are legal too)"""
