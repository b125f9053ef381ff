"""Independent oracles for Aegis (spec/aegis.md), written apart from the engine and from
the trick tables, for the tests to compare against."""

from __future__ import annotations

from cardrules import Suit

ORDER = {1: 0, 11: 1, 12: 1, 13: 1}  # 0 ace, 1 face, 2 number


def stronger_rank(a, b):
    """cycle3: aces beat faces, faces beat numbers, numbers beat aces."""
    ga, gb = ORDER.get(a, 2), ORDER.get(b, 2)
    if ga == gb:
        return a > b
    return (ga, gb) in {(0, 1), (1, 2), (2, 0)}


def oracle_trick(lead, follow, key):
    """0 if the lead keeps the trick, 1 if the follow takes it."""

    def kind(c):
        if c.suit is key.suit:
            return "T"
        if c.suit is lead.suit:
            return "L"
        if c.rank == key.rank:
            return "K"
        return "O"

    wins = {"TL", "TO", "KT", "LK", "LO"}
    a, b = kind(lead), kind(follow)
    if b + a in wins:
        return 1
    if a + b in wins:
        return 0
    return 1 if stronger_rank(follow.rank, lead.rank) else 0


def oracle_points(season, rules):
    a, d = season.attacker, 1 - season.attacker
    bid, took = season.bids[a], season.tricks[a]
    pts = [0, 0]
    if took >= bid:
        pts[a] += bid + (bid >= 4 if rules.promise == "four_or_more" else took == bid) + (took == 5)
        if season.tricks[d] >= season.bids[d]:
            pts[d] += season.bids[d]
    else:
        pts[d] += bid + (season.tricks[d] == 5)
    return tuple(pts)


ELEMENTS = [Suit.SPADES, Suit.CLUBS, Suit.HEARTS, Suit.DIAMONDS]  # wind > fire > water > earth


def oracle_first_master(a, b):
    """0 if player 0 (who drew ``a``) becomes master, else 1."""
    if a.rank != b.rank:
        return 0 if stronger_rank(a.rank, b.rank) else 1
    return 0 if ELEMENTS.index(a.suit) < ELEMENTS.index(b.suit) else 1
