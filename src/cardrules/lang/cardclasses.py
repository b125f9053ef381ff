"""The cards as the equivalence searches see them: the deck in canonical order, a
counterexample, what two rules read in each card slot (``card``, ``prev``, ``prev2``),
and the classes of cards those reads tell apart.

>>> from cardrules.lang import compile_rule
>>> uses = slot_uses([compile_rule("card.color != prev.color").tree])
>>> sorted(uses.reads("card")), [str(c) for c in representatives(uses.reads("card"))]
(['color'], ['AS', 'AH'])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import attrs

from ..cards import Card, canonical, standard_deck
from . import ast as A
from .vocabulary import STANDARD, Vocabulary

__all__ = [
    "COLOR_PROPS",
    "DECK",
    "RANK_PROPS",
    "SUIT_PROPS",
    "Counterexample",
    "SlotUses",
    "card_classes",
    "reduced_triples",
    "representatives",
    "slot_uses",
]

#: The 52 cards in canonical order.
DECK: tuple[Card, ...] = canonical(standard_deck())

#: A line and a card that one rule accepts after it and the other refuses.
Counterexample = tuple[tuple[Card, ...], Card]

#: The standard properties (``card is ...``) that read a card's rank, colour and suit
#: (each word says what it reads: :attr:`~cardrules.lang.vocabulary.Word.reads`).
RANK_PROPS = frozenset(w.name for w in STANDARD.of_kind("property") if w.reads == {"rank"})
COLOR_PROPS = frozenset(w.name for w in STANDARD.of_kind("property") if w.reads == {"color"})
SUIT_PROPS = frozenset(w.name for w in STANDARD.of_kind("property") if w.reads == {"suit"})
#: The card slots of a rule of depth at most 2.
_CARD_SLOTS = ("card", "prev", "prev2")


@attrs.define
class SlotUses:
    """How two rules use each card slot (``card``, ``prev``, ``prev2``): the attributes
    they read (:attr:`attributes`), the slots compared as whole cards with ``==``/``!=``
    against another slot (:attr:`equal`), and slots used whole in any other way
    (:attr:`opaque`, as in ``(if p then card else prev).rank``)."""

    attributes: dict[str, set[str]]
    equal: set[str]
    opaque: set[str]

    def reads(self, slot: str) -> set[str]:
        """What tells two cards apart in this slot (a whole card: rank and suit)."""
        if slot in self.equal or slot in self.opaque:
            return {"rank", "suit"}
        return self.attributes[slot]


def slot_uses(trees: Iterable[A.Expr], vocabulary: Vocabulary = STANDARD) -> SlotUses:
    """How the rules of ``trees`` (together), in the words of ``vocabulary``, use each
    card slot."""
    slots = _CARD_SLOTS
    uses = SlotUses({slot: set() for slot in slots}, set(), set())
    for tree in trees:
        consumed: set[int] = set()
        for node in A.walk(tree):
            if isinstance(node, A.Call) and node.func == "has":
                consumed.update(id(arg) for arg in node.args)  # has(prev2) reads no card
            elif isinstance(node, A.Attribute) and isinstance(node.obj, A.Name) and node.obj.name in slots:
                attribute = vocabulary.lookup("attribute", node.attr)
                uses.attributes[node.obj.name].update(attribute.reads if attribute else ("rank", "suit"))
                consumed.add(id(node.obj))
            elif isinstance(node, A.Is) and isinstance(node.subject, A.Name) and node.subject.name in slots:
                word = vocabulary.lookup("property", node.prop)
                uses.attributes[node.subject.name].update(word.reads if word else ("rank", "suit"))
                consumed.add(id(node.subject))
            elif (
                isinstance(node, A.Compare)
                and node.op in ("==", "!=")
                and isinstance(node.left, A.Name)
                and isinstance(node.right, A.Name)
                and node.left.name in slots
                and node.right.name in slots
            ):
                uses.equal.update((node.left.name, node.right.name))
                consumed.update((id(node.left), id(node.right)))
            elif isinstance(node, A.Name) and node.name in slots and id(node) not in consumed:
                uses.opaque.add(node.name)
    return uses


def card_classes(read: set[str]) -> list[tuple[Card, ...]]:
    """The cards grouped by what ``read`` sees, each group in canonical order."""
    groups: dict[tuple[object, ...], list[Card]] = {}
    for c in DECK:
        key = (
            c.rank if "rank" in read else None,
            c.suit if "suit" in read else (c.color if "color" in read else None),
        )
        groups.setdefault(key, []).append(c)
    return [tuple(g) for g in groups.values()]


def _set_partitions(items: Sequence[str]) -> Iterable[list[list[str]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def _distinct(groups: Sequence[tuple[Card, ...]], used: tuple[Card, ...] = ()) -> tuple[Card, ...] | None:
    """One card from each group, all different (``None`` if impossible)."""
    if not groups:
        return used
    for c in groups[0]:
        if c not in used:
            found = _distinct(groups[1:], (*used, c))
            if found is not None:
                return found
    return None


def reduced_triples(uses: SlotUses) -> list[tuple[Card, Card, Card]]:
    """``(prev2, prev, card)`` triples that show every behaviour of two rules whose only
    whole-card use is ``==``/``!=`` between slots: a rule's verdict depends on each
    slot's class of read attributes and on which compared slots hold the same card, and
    every realisable combination of those appears here (a few thousand at most, against
    52 ** 3 triples of whole cards)."""
    order = ("prev2", "prev", "card")
    compared = [s for s in order if s in uses.equal]
    triples: set[tuple[Card, Card, Card]] = set()
    for partition in _set_partitions(compared):
        blocks = [*partition, *([s] for s in order if s not in uses.equal)]
        per_block = [card_classes(set().union(*(uses.attributes[s] for s in block))) for block in blocks]
        for combo in itertools.product(*per_block):
            chosen = _distinct(combo[: len(partition)])  # different blocks: different cards
            if chosen is None:
                continue
            cards = [*chosen, *(group[0] for group in combo[len(partition) :])]
            assign = {s: c for block, c in zip(blocks, cards, strict=True) for s in block}
            triples.add((assign["prev2"], assign["prev"], assign["card"]))
    return sorted(triples, key=lambda t: (t[0].index, t[1].index, t[2].index))


def representatives(read: set[str]) -> tuple[Card, ...]:
    """The first card, in canonical order, of each class of cards that agree on ``read``."""
    return tuple(group[0] for group in card_classes(read))
