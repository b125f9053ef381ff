"""Actions as text: the machinery every game's ``parse_action`` shares.

Every game writes its actions as short texts a player would say (``str(action)``:
``7H``, ``bid 3``, ``exchange 2S 7H``, ``war``, ``pass``, ``5H 6H J as run to 7``) and
reads them back with ``parse_action(state, text)``.  Reading is forgiving in the ways a
person is: case does not matter, cards may be written in any notation
:func:`~cardrules.parse_cards` accepts (``10h``, ``Th``, ``t♥``), commas count as spaces,
and where an action is a *set* of cards (an Aegis exchange, a Haggis combination) the
cards may come in any order.  Text that matches no legal action raises
:class:`~cardrules.IllegalActionError` naming the nearest legal actions.

A game says how its text reads with a :class:`Notation`: whole-phrase aliases (``stop``
for ``keep``), and whether its card runs are sets.  The functions here are public for
programs that define a game of their own with :class:`~cardrules.GameDef`.

>>> from cardrules import GAMES
>>> aegis = GAMES["aegis"]
>>> s = aegis.new_game(seed=7)
>>> a = aegis.legal_actions(s)[7]
>>> str(a), aegis.parse_action(s, str(a).lower()) == a
('exchange QS AD', True)
>>> aegis.parse_action(s, "ad QS") == a     # in the exchange phase, bare cards exchange
True
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from .cards import Card, parse_card
from .errors import CardParseError, CardRulesError, IllegalActionError

__all__ = ["Notation", "card_of", "key_of", "nearest", "no_match", "read", "words"]


def words(text: str) -> list[str]:
    """The words of ``text``: split on white space and commas."""
    if not isinstance(text, str):
        raise IllegalActionError(f"an action is read from text, not {type(text).__name__}")
    return text.replace(",", " ").split()


_CARD_CACHE: dict[str, Card | None] = {}


def card_of(word: str) -> Card | None:
    """The card ``word`` names, or ``None`` if it names none."""
    try:
        return _CARD_CACHE[word]
    except KeyError:
        pass
    try:
        card: Card | None = parse_card(word)
    except CardParseError:
        card = None
    if len(_CARD_CACHE) < 4096:
        _CARD_CACHE[word] = card
    return card


@attrs.frozen(eq=False)  # compared and hashed by identity: each game has one
class Notation:
    """How a game's action texts read.

    ``aliases`` maps a whole lower-case phrase to the canonical text it means
    (``{"stop": "keep"}``); ``card_sets`` says that a run of cards is a set (order does
    not matter, it is sorted into canonical order); ``split`` is a word after which the
    text is not cards any more (Haggis's ``as`` before a declaration).
    """

    aliases: Mapping[str, str] = attrs.field(factory=dict)
    card_sets: bool = False
    split: str | None = None


def key_of(text: str, notation: Notation) -> str:
    """The canonical form of ``text``: aliases resolved, words in lower case, cards in
    their canonical notation (``th`` -> ``10H``), runs of cards sorted when they are
    sets.  Two texts mean the same action exactly when their keys are equal."""
    ws = words(text)
    phrase = " ".join(ws).lower()
    phrase = notation.aliases.get(phrase, phrase)
    out: list[str] = []
    run: list[Card] = []

    def flush() -> None:
        if run:
            cards = sorted(run, key=_index) if notation.card_sets else run
            out.extend(map(str, cards))
            run.clear()

    cards_allowed = True
    for w in phrase.split():
        if notation.split is not None and w == notation.split:
            cards_allowed = False
        card = card_of(w) if cards_allowed else None
        if card is not None:
            run.append(card)
        else:
            flush()
            out.append(w)
    flush()
    return " ".join(out)


def _index(card: Card) -> int:
    return card.index


def nearest(text: str, options: Sequence[str], n: int = 5) -> list[str]:
    """Up to ``n`` of ``options`` closest to ``text`` (:mod:`difflib`), best first; the
    first ``n`` options when none is close."""
    close = difflib.get_close_matches(text, options, n=n, cutoff=0.5)
    if not close:
        close = difflib.get_close_matches(text, options, n=n, cutoff=0.0)
    return close or list(options[:n])


def no_match(text: str, options: Sequence[str], why: str | None = None) -> IllegalActionError:
    """The error for ``text`` that matches none of ``options`` (the legal actions'
    texts): why, if known, and the nearest options."""
    shown = text.strip() or "(nothing)"
    head = f"{shown!r}: {why}" if why else f"{shown!r} is not a legal action here"
    if not options:
        return IllegalActionError(f"{head}; no action is legal now")
    if len(options) <= 6:
        listed = options
        label = "legal actions"
    else:
        listed = nearest(text, options)
        label = f"nearest of {len(options)} legal actions"
    return IllegalActionError(f"{head}; {label}: " + ", ".join(listed))


def read(
    state: Any,
    text: str,
    legal: Iterable[Any],
    notation: Notation,
    *,
    extra: Callable[[Any, str, list[Card]], Any] | None = None,
    check: Callable[[Any, Any], Any] | None = None,
) -> Any:
    """The legal action ``text`` names, matching keys (:func:`key_of`) of the legal
    actions' texts.

    ``extra(state, key, cards)`` may build an action that is legal but not listed
    (Eleusis strings) when nothing matches; ``check(state, action)`` (the game's
    ``apply``) then decides, and its error explains the refusal.  Raises
    :class:`~cardrules.IllegalActionError` with the nearest legal actions.
    """
    table = _table(tuple(legal), notation)
    key = key_of(text, notation)
    found = table.get(key)
    if found is not None:
        return found
    options = list(table)
    cards = [c for c in map(card_of, key.split()) if c is not None]
    why = None
    if extra is not None:
        candidate = extra(state, key, cards)
        if candidate is not None:
            listed = table.get(key_of(str(candidate), notation))
            if listed is not None:
                return listed
            if check is None:
                return candidate
            try:
                check(state, candidate)
            except CardRulesError as exc:
                why = str(exc)
            else:
                return candidate
    if why is None:
        why = _bad_word(key, options)
    raise no_match(text, options, why)


_TABLES: dict[tuple[tuple[Any, ...], Notation], dict[str, Any]] = {}


def _table(legal: tuple[Any, ...], notation: Notation) -> dict[str, Any]:
    """The legal actions by key; the last few tables are kept (a player who mistypes
    tries again on the same list)."""
    try:
        return _TABLES[legal, notation]
    except (KeyError, TypeError):
        pass
    table: dict[str, Any] = {}
    for a in legal:
        table.setdefault(key_of(str(a), notation), a)
    try:
        if len(_TABLES) >= 8:
            del _TABLES[next(iter(_TABLES))]
        _TABLES[legal, notation] = table
    except TypeError:  # an unhashable action: not kept
        pass
    return table


def _bad_word(key: str, options: Sequence[str]) -> str | None:
    """A word of ``key`` that no legal action uses and that is no card, as a card error
    (the likely slip: ``5x``)."""
    known = {w for o in options for w in o.split()}
    for w in key.split():
        if w in known or card_of(w) is not None:
            continue
        if any(ch.isdigit() for ch in w) or len(w) <= 2:
            try:
                parse_card(w)
            except CardParseError as exc:
                return str(exc)
        return f"{w!r} is not a word of any legal action"
    return None
