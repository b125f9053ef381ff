"""The rule playground's Python side: what the page asks of cardrules, run in Pyodide.

The page's web worker runs this file once, after installing the wheels, and then calls
its functions with plain strings and numbers.  Each function returns a JSON text (an
object with ``"ok"``); a fault in the reader's text is ``{"ok": false, "error": ...}``
with the library's own message (line, column and caret for rule and table text).  Only
the public API of cardrules is used, so the page shows what a program would get.

The same file runs under CPython (the tests import it by its path).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from cardrules import CardRulesError, parse_card, parse_cards, standard_deck
from cardrules.eleusis import Observation, Rule, Scientist, compile_rule, play_science
from cardrules.tricks import compile_tables

#: The science round the page runs: the library's round (a hand of 12 from two decks),
#: with at most this many turns, and this bound (seconds) on one decision of the
#: scientist, so that a round stays short in a browser (Python in WebAssembly runs at
#: about half of native speed).
MAX_TURNS = 30
TIME_PER_MOVE = 0.5

_DECK = tuple(standard_deck())


def _reply(**fields: Any) -> str:
    return json.dumps({"ok": True, **fields})


def _fault(error: BaseException, where: str = "") -> str:
    out: dict[str, Any] = {"ok": False, "error": str(error), "where": where}
    line, column = getattr(error, "line", 0), getattr(error, "column", 0)
    if line:
        out["line"], out["column"] = line, column
    return json.dumps(out)


def _cards(text: str) -> list[Any]:
    return list(parse_cards(text)) if text.strip() else []


def _names(cards: Sequence[Any]) -> list[str]:
    return [str(c) for c in cards]


# -- Eleusis rules ------------------------------------------------------------------------


def rule(text: str) -> str:
    """Compile a rule: ``{"ok", "rule": str(rule), "depth"}`` or the fault."""
    try:
        r = compile_rule(text)
    except CardRulesError as e:
        return _fault(e, "rule")
    return _reply(rule=str(r), depth=r.depth)


def _judge_line(r: Rule, line: Sequence[Any]) -> str | None:
    """Why the typed main line could not have been built under ``r`` (or None)."""
    if line and not r.accepts_start(line[0]):
        return f"{line[0]} cannot start the main line: the rule's start: part refuses it"
    for i in range(1, len(line)):
        if not r.accepts(line[:i], line[i]):
            return f"{line[i]} is not right after {' '.join(_names(line[:i]))}: " + r.explain(
                line[:i], line[i]
            )
    return None


def next_cards(text: str, line_text: str) -> str:
    """The cards the rule allows after the main line ``line_text`` (card strings).

    ``{"ok", "line", "allowed", "starters", "warning"}``: ``allowed`` the distinct cards
    of a deck that are right next, in the deck's order; with an empty line, ``starters``
    are the cards the rule's ``start:`` part accepts.  ``warning`` says which card of the
    typed line the rule would have refused (or is null)."""
    try:
        r = compile_rule(text)
    except CardRulesError as e:
        return _fault(e, "rule")
    try:
        line = _cards(line_text)
    except CardRulesError as e:
        return _fault(e, "line")
    starters = [] if line else _names([c for c in _DECK if r.accepts_start(c)])
    return _reply(
        line=_names(line),
        allowed=_names(r.allowed(line)),
        starters=starters,
        warning=_judge_line(r, line),
    )


def explain(text: str, line_text: str, card_text: str) -> str:
    """``rule.explain(line, card)``: ``{"ok", "card", "right", "explanation"}``."""
    try:
        r = compile_rule(text)
    except CardRulesError as e:
        return _fault(e, "rule")
    try:
        line = _cards(line_text)
    except CardRulesError as e:
        return _fault(e, "line")
    try:
        card = parse_card(card_text.strip())
    except CardRulesError as e:
        return _fault(e, "card")
    return _reply(card=str(card), right=bool(r.accepts(line, card)), explanation=r.explain(line, card))


class _Reporting:
    """A :class:`~cardrules.eleusis.Scientist` that tells the page each turn as it plays."""

    def __init__(self, scientist: Scientist, report: Callable[[str], object]) -> None:
        self._scientist = scientist
        self._report = report
        self._started = False

    def _send(self, **event: Any) -> None:
        self._report(json.dumps(event))

    def choose(self, hand: Sequence[Any], observations: Sequence[Observation]) -> Any:
        if not self._started:
            self._started = True
            self._send(event="start", starter=str(observations[0].card), hand=_names(hand))
        return self._scientist.choose(hand, observations)

    def guess(self, observations: Sequence[Observation]) -> Rule | None:
        seen = observations[-1]
        main = [*seen.line, seen.card] if seen.accepted else list(seen.line)
        self._send(
            event="turn",
            turn=len(observations) - 1,
            card=str(seen.card),
            right=seen.accepted,
            main=_names(main),
        )
        stated: Rule | None = self._scientist.guess(observations)
        if stated is not None:
            self._send(event="guess", turn=len(observations) - 1, rule=str(stated))
        return stated

    def wrong_guess(self, stated: Rule, observations: Sequence[Observation]) -> None:
        self._send(event="wrong", turn=len(observations) - 1, rule=str(stated))
        self._scientist.wrong_guess(stated, observations)


def science(text: str, seed: int, turns: int, report: Callable[[str], object]) -> str:
    """One science round of the scientist against the rule (``play_science``), each
    turn sent to ``report`` as it is played (a JSON text: ``start``, ``turn``,
    ``guess``, ``wrong``); returns ``{"ok", "solved", "turns", "score",
    "wrong_guesses", "rule"}`` (``rule``: the right guess, or null)."""
    try:
        r = compile_rule(text)
    except CardRulesError as e:
        return _fault(e, "rule")
    turns = max(1, min(MAX_TURNS, int(turns)))
    scientist = Scientist(seed=int(seed), time_per_move=TIME_PER_MOVE, turns=turns)
    try:
        result = play_science(r, _Reporting(scientist, report), seed=int(seed), turns=turns)
    except CardRulesError as e:
        return _fault(e, "science")
    return _reply(
        solved=result.solved,
        turns=result.turns,
        score=result.score,
        wrong_guesses=result.wrong_guesses,
        rule=str(result.guesses[-1][1]) if result.solved else None,
    )


# -- trick tables -----------------------------------------------------------------------


def tables(text: str) -> str:
    """Compile a table file: ``{"ok", "tables": [{"name", "classes", "uses_key",
    "source"}]}`` in the file's order, or the fault."""
    try:
        compiled = compile_tables(text)
    except CardRulesError as e:
        return _fault(e, "tables")
    return _reply(
        tables=[
            {"name": name, "classes": list(t.classes), "uses_key": t.uses_key, "source": str(t)}
            for name, t in compiled.items()
        ]
    )


def trick(text: str, name: str, cards_text: str, key_text: str) -> str:
    """Who wins the trick ``cards_text`` (the first card leads) under table ``name``:
    ``{"ok", "winner", "card", "classes"}`` (``classes``: each card's class)."""
    try:
        table = compile_tables(text)[name]
    except KeyError:
        return json.dumps({"ok": False, "error": f"no table {name!r} in the text", "where": "table"})
    except CardRulesError as e:
        return _fault(e, "tables")
    try:
        cards = _cards(cards_text)
        if not cards:
            raise CardRulesError("type the cards of a trick, the lead first, such as: 5C AD 9C")
    except CardRulesError as e:
        return _fault(e, "trick")
    try:
        key = parse_card(key_text.strip()) if key_text.strip() else None
    except CardRulesError as e:
        return _fault(e, "key")
    try:
        winner = table.winner(cards, key=key)
        classes = [table.classify(c, lead=cards[0], key=key) for c in cards]
    except CardRulesError as e:
        return _fault(e, "key" if key is None else "trick")
    return _reply(winner=winner, card=str(cards[winner]), classes=classes)
