"""A game's rule options for people: the form the lobby draws (:func:`options_schema`)
and the check of the options a new table is made with (:func:`check_options`).

Both are built from the attrs fields of the game's ``Rules`` (their types, defaults and
validators), so a game registered from outside gets its form too.  A field a form cannot
edit (a compiled rule, a trick table) is left out of the form, and refused as an option.
Limits (``min``/``max``) are found by asking the ``Rules`` validators themselves, the
other options at their defaults; the check itself always asks ``Rules``."""

from __future__ import annotations

import difflib
import functools
import re
import types
import typing
from collections.abc import Mapping
from typing import Any, Final, Literal

import attrs

from ..errors import CardRulesError
from ..protocol import GameDef

__all__ = ["MAX_LIST", "OptionError", "check_options", "options_schema"]

#: the most numbers a list option (Haggis's ``bets``) takes
MAX_LIST: Final = 64
_BOUND: Final = 10**9


class OptionError(CardRulesError):
    """Rule options a table refuses, said in words."""


def _kind(hint: Any) -> tuple[str, list[Any] | None, bool] | None:
    """(type, choices, may be null) of a field's type hint; ``None``: not for a form."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    nullable = False
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            return None
        nullable = True
        hint = rest[0]
        origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Literal and all(isinstance(a, str) for a in args):
        return "choice", list(args), nullable
    if hint is bool:
        return "bool", None, nullable
    if hint is int:
        return "int", None, nullable
    if hint is float:
        return "float", None, nullable
    if hint is str:
        return "str", None, nullable
    if origin is tuple and args in ((int, Ellipsis),):
        return "list", None, nullable
    return None


def _accepts(game: GameDef[Any, Any], name: str, value: Any) -> bool:
    try:
        game.Rules(**{name: value})
    except Exception:
        return False
    return True


def _step(game: GameDef[Any, Any], name: str, default: int) -> int:
    """1, or 2 when only every other number is taken (Gunsore's even decks)."""
    if any(_accepts(game, name, default + d) for d in (1, -1)):
        return 1
    return 2 if any(_accepts(game, name, default + d) for d in (2, -2)) else 1


def _bound(game: GameDef[Any, Any], name: str, default: int, step: int, down: bool) -> int | None:
    """The lowest (``down``) or highest value the ``Rules`` validator of ``name`` takes,
    searched from its default in steps of ``step``; ``None`` when there is none within
    a billion."""
    sign = -1 if down else 1
    if _accepts(game, name, default + sign * step * (_BOUND // step)):
        return None
    good, bad = 0, _BOUND // step  # steps from the default: good is taken, bad is not
    while bad - good > 1:
        mid = (good + bad) // 2
        if _accepts(game, name, default + sign * step * mid):
            good = mid
        else:
            bad = mid
    return default + sign * step * good


def _help(doc: str, name: str) -> str:
    """What the ``Rules`` docstring says of ``name``: the text under a line that names
    it (a definition list), or the sentence that names it; its name in words when the
    docstring says nothing of it."""
    doc = doc.split(">>>")[0]
    lines = doc.splitlines()
    tag = f"``{name}``"
    for i, line in enumerate(lines):
        stripped = line.strip()
        names = re.findall(r"``(\w+)``", stripped)
        rest = re.sub(r"``\w+``|\band\b|[/,]", "", stripped).strip()
        if name in names and (not rest or rest.startswith("(")) and stripped.startswith("``"):
            indent = len(line) - len(line.lstrip())
            body = []
            for follow in lines[i + 1 :]:
                if not follow.strip() or len(follow) - len(follow.lstrip()) <= indent:
                    break
                body.append(follow.strip())
            if body:
                return _plain(" ".join(body))
    text = " ".join(" ".join(lines).split())
    for sentence in re.split(r"(?<=[.!?])\s+(?=[`A-Z(])", text):
        if tag in sentence:
            return _plain(sentence)
    return name.replace("_", " ")


def _plain(text: str) -> str:
    text = re.sub(r"^``\w+``:\s*", "", text).replace("``()``", "an empty list")
    text = re.sub(r":\w+:`~?([^`]+)`", lambda m: m.group(1).split(".")[-1], text)
    return " ".join(text.replace("``", "").split())


@functools.cache
def options_schema(game: GameDef[Any, Any]) -> tuple[dict[str, Any], ...]:
    """The game's rule options as the lobby's form shows them: for each field of its
    ``Rules`` a form can edit, ``name``, ``type`` (``"int"``, ``"bool"``, ``"str"``,
    ``"float"``, ``"choice"`` or ``"list"``: a list of whole numbers), ``default``,
    ``choices`` (or ``None``), ``min``/``max`` (or ``None``), ``nullable`` (``None`` is
    allowed), ``help`` (the ``Rules`` docstring's words on it), and ``step`` where only
    every other number is taken."""
    rules = game.Rules
    if not attrs.has(rules):
        return ()
    try:
        hints = typing.get_type_hints(rules)
        defaults = game.Rules()
    except Exception:
        return ()
    doc = rules.__doc__ or ""
    out = []
    for field in attrs.fields(rules):
        if not field.init or field.name.startswith("_"):
            continue
        kind = _kind(hints.get(field.name))
        if kind is None:
            continue
        typ, choices, nullable = kind
        default = getattr(defaults, field.name)
        if typ == "list":
            default = list(default)
        low = high = None
        extra: dict[str, Any] = {}
        if typ == "int" and isinstance(default, int):
            step = _step(game, field.name, default)
            low = _bound(game, field.name, default, step, True)
            high = _bound(game, field.name, default, step, False)
            if step != 1:
                extra["step"] = step
        out.append(
            {
                "name": field.name,
                "type": typ,
                "default": default,
                "choices": choices,
                "min": low,
                "max": high,
                "nullable": nullable,
                "help": _help(doc, field.name),
                **extra,
            }
        )
    return tuple(out)


def _words(typ: str) -> str:
    return {
        "int": "a whole number",
        "float": "a number",
        "bool": "true or false",
        "str": "a text",
        "list": "a list of whole numbers",
        "choice": "one of its choices",
    }[typ]


def _check_value(game: str, option: Mapping[str, Any], value: Any) -> Any:
    name, typ = option["name"], option["type"]
    if value is None and option["nullable"]:
        return None
    ok = {
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, (int, float)) and not isinstance(value, bool),
        "bool": isinstance(value, bool),
        "str": isinstance(value, str),
        "choice": isinstance(value, str),
        "list": isinstance(value, list)
        and len(value) <= MAX_LIST
        and all(isinstance(x, int) and not isinstance(x, bool) for x in value),
    }[typ]
    if not ok:
        extra = " (or null)" if option["nullable"] else ""
        raise OptionError(f"{game}: rule option {name} is {_words(typ)}{extra}, not {_show(value)}")
    if typ == "choice" and value not in option["choices"]:
        raise OptionError(
            f"{game}: rule option {name} is one of {', '.join(option['choices'])}, not {_show(value)}"
        )
    if typ == "int":
        low, high = option["min"], option["max"]
        if (low is not None and value < low) or (high is not None and value > high):
            span = (
                f"from {low} to {high}"
                if low is not None and high is not None
                else f"at least {low}"
                if low is not None
                else f"at most {high}"
            )
            raise OptionError(f"{game}: rule option {name} is a whole number {span}, not {value}")
    return value


def _show(value: Any) -> str:
    text = repr(value) if not isinstance(value, bool) else str(value).lower()
    return text if len(text) <= 40 else text[:37] + "..."


def check_options(game: GameDef[Any, Any], options: object) -> dict[str, Any] | None:
    """``options`` (plain JSON values: ``{"target": 50}``) checked against the game's
    form and its ``Rules`` (every option at once, the others at their defaults): the
    options, or ``None`` for none; :class:`OptionError` in words when one is wrong."""
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise OptionError('rule options are an object of names and values, e.g. {"target": 50}')
    schema = {o["name"]: o for o in options_schema(game)}
    checked: dict[str, Any] = {}
    for key, value in options.items():
        if not isinstance(key, str) or key not in schema:
            names = ", ".join(schema) or "none"
            close = difflib.get_close_matches(str(key), list(schema), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            raise OptionError(f"no rule option {_show(key)} for {game.name} (options: {names}){hint}")
        checked[key] = _check_value(game.name, schema[key], value)
    if not checked:
        return None
    try:
        game.Rules(**checked)
    except CardRulesError as exc:
        raise OptionError(
            f"{game.name}: {exc}".replace(f"{game.name}: {game.name}: ", f"{game.name}: ")
        ) from None
    except (TypeError, ValueError):
        raise OptionError(f"{game.name}: these rule options do not go together: {_show(checked)}") from None
    return checked
