"""Two slow, independent references for Haggis declarations (tests and benchmarks).

:func:`exact_oracle` tries every assignment of the wild cards of a group (each J, Q, K
stands for some card of rank 2 up to its own rank, in some suit) and classifies the
resulting cards by the rule book's definitions.  :func:`hand_oracle` builds every
declaration a hand can lead another way: for every shape (set of a rank; sequence of a
width over ranks lo..hi in a chosen set of suits; bomb) it fills each cell with a card
of the hand that can stand there, by backtracking.  Neither shares code with
``cardrules.haggis``; both return sets of ``(kind, rank, size, width, cards)`` with the
cards in canonical order.
"""

from __future__ import annotations

import itertools

from cardrules import Card, Suit, canonical

SUITS = list(Suit)


def _is_face(c: Card) -> bool:
    return c.suit is None


def bombs(cards) -> set:
    out = set()
    cards = canonical(cards)
    faces = tuple(sorted(c.rank for c in cards if _is_face(c)))
    nums = [c for c in cards if not _is_face(c)]
    if not nums and len(faces) == len(set(faces)):
        table = {(11, 12): 2, (11, 13): 3, (12, 13): 4, (11, 12, 13): 5}
        if faces in table:
            out.add(("bomb", table[faces], len(cards), None, cards))
    if not faces and len(nums) == 4 and sorted(c.rank for c in nums) == [3, 5, 7, 9]:
        suits = {c.suit for c in nums}
        if len(suits) == 4:
            out.add(("bomb", 1, 4, None, cards))
        elif len(suits) == 1:
            out.add(("bomb", 6, 4, None, cards))
    return out


def _classify(virtual, nsuits):
    """virtual: list of (rank, suit) the cards stand for.  Yields (kind, rank, width)."""
    ranks = [r for r, _ in virtual]
    if len(set(ranks)) == 1:
        yield ("set", ranks[0], None)
    distinct = sorted(set(ranks))
    if distinct != list(range(distinct[0], distinct[-1] + 1)):
        return
    by_rank = {r: [s for rr, s in virtual if rr == r] for r in distinct}
    widths = {len(v) for v in by_rank.values()}
    if len(widths) != 1:
        return
    w = widths.pop()
    suit_sets = {frozenset(v) for v in by_rank.values()}
    if len(suit_sets) != 1 or any(len(set(v)) != len(v) for v in by_rank.values()):
        return
    if w == 1 and len(distinct) >= 3:
        yield ("sequence", distinct[-1], 1)
    elif 2 <= w <= nsuits and len(distinct) >= 2:
        yield ("sequence", distinct[-1], w)


def exact_oracle(cards, nsuits=5) -> set:
    """Every declaration of exactly ``cards`` (all of them), by trying every wild
    assignment."""
    cards = canonical(cards)
    out = bombs(cards)
    nums = [c for c in cards if not _is_face(c)]
    wilds = [c for c in cards if _is_face(c)]
    if not nums:
        if len(cards) == 1:
            out.add(("set", cards[0].rank, 1, None, cards))
        return out
    lo = max(2, min(c.rank for c in nums) - len(wilds))
    hi = max(c.rank for c in nums) + len(wilds)
    used = {c.suit for c in nums}
    spare = [s for s in SUITS[:nsuits] if s not in used][: len(wilds)]
    suit_choices = [s for s in SUITS[:nsuits] if s in used] + spare
    options = [[(r, s) for r in range(lo, min(hi, w.rank) + 1) for s in suit_choices] for w in wilds]
    base = [(c.rank, c.suit) for c in nums]
    for assignment in itertools.product(*options):
        for kind, rank, width in _classify(base + list(assignment), nsuits):
            out.add((kind, rank, len(cards), width, cards))
    return out


def hand_oracle(hand, nsuits=5) -> set:
    """Every declaration of every group of cards of ``hand``, by filling shapes."""
    hand = list(hand)
    out = set()
    nums = [c for c in hand if not _is_face(c)]
    wilds = [c for c in hand if _is_face(c)]
    # bombs: every group of 2..4 cards
    for k in (2, 3, 4):
        for group in itertools.combinations(hand, k):
            out |= bombs(group)
    # singles and sets
    for c in hand:
        out.add(("set", c.rank, 1, None, (c,)))
    for r in range(2, 11):
        natural = [c for c in nums if c.rank == r]
        for na in range(1, len(natural) + 1):
            for a in itertools.combinations(natural, na):
                for nb in range(len(wilds) + 1):
                    for b in itertools.combinations(wilds, nb):
                        if na + nb >= 2:
                            cs = canonical(a + b)
                            out.add(("set", r, len(cs), None, cs))
    # sequences: every width, every suit set, every rank range; fill the cells
    for w in range(1, nsuits + 1):
        for suitset in itertools.combinations(SUITS[:nsuits], w):
            for lo in range(2, 14):
                for hi in range(lo + (2 if w == 1 else 1), 14):
                    cells = [(r, s) for r in range(lo, hi + 1) for s in suitset]
                    fillers = []
                    for r, s in cells:
                        f = [c for c in nums if c.rank == r and c.suit is s]
                        f += [c for c in wilds if c.rank >= r]
                        fillers.append(f)
                    if any(not f for f in fillers):
                        continue
                    wild_cells_needed = sum(1 for f in fillers if all(_is_face(c) for c in f))
                    if wild_cells_needed > len(wilds):
                        continue
                    _fill(fillers, 0, [], set(), out, w, hi)
    return out


def _fill(fillers, i, chosen, used, out, w, hi):
    if i == len(fillers):
        if any(not _is_face(c) for c in chosen):
            cs = canonical(chosen)
            out.add(("sequence", hi, len(cs), w, cs))
        return
    for c in fillers[i]:
        if c in used:  # a hand holds each of its cards once
            continue
        chosen.append(c)
        used.add(c)
        _fill(fillers, i + 1, chosen, used, out, w, hi)
        chosen.pop()
        used.discard(c)


def as_tuples(combos) -> set:
    return {(c.kind, c.rank, c.size, c.width, c.cards) for c in combos}


def matching_oracle(cards, nsuits=5) -> set:
    """Every declaration of exactly ``cards``, by shapes and matching: fast for any number
    of wilds (groups given to ``combinations`` may hold up to three of each face).

    For every set of a rank, and every sequence of a width over ranks lo..hi in a choice
    of suits, the number cards must sit in the shape's cells and the wilds must fill the
    empty ones, a wild only at or below its own rank: matching the highest wilds with the
    highest empty cells decides it."""
    cards = canonical(cards)
    out = bombs(cards)
    nums = [c for c in cards if not _is_face(c)]
    wilds = sorted((c.rank for c in cards if _is_face(c)), reverse=True)
    n = len(cards)
    if not nums:
        if n == 1:
            out.add(("set", cards[0].rank, 1, None, cards))
        return out
    if len({c.rank for c in nums}) == 1:  # a set: faces stand for the number's rank
        out.add(("set", nums[0].rank, n, None, cards))
    for w in range(1, nsuits + 1):
        if n % w:
            continue
        length = n // w
        if length < (3 if w == 1 else 2):
            continue
        for lo in range(2, 14 - length + 1):
            hi = lo + length - 1
            for suits in itertools.combinations(SUITS[:nsuits], w):
                cells = {(r, s) for r in range(lo, hi + 1) for s in suits}
                if any((c.rank, c.suit) not in cells for c in nums):
                    continue
                empty = sorted((r for r, s in cells - {(c.rank, c.suit) for c in nums}), reverse=True)
                if len(empty) == len(wilds) and all(wr >= er for wr, er in zip(wilds, empty, strict=True)):
                    out.add(("sequence", hi, n, w, cards))
                    break
    return out
