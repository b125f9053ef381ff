"""Placeholder: replaced below."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..cards import Card

if TYPE_CHECKING:
    from .rules import Rule


def explain(rule: Rule, line: Sequence[Card], card: Card) -> str:
    verdict = "right" if rule.accepts(line, card) else "wrong"
    return f"{card} is {verdict}"
