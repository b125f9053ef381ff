"""The Haggis combination engine: which declarations a group of cards allows.

Every distinct declaration a hand can lead, or play on a given combination, found on bit
masks (9 bits per suit, the face cards as 2-bit counters), each built once as an
interned :class:`Play` of a :class:`Combo`.  It knows nothing of a game in progress:
:mod:`cardrules.haggis.rules` asks it for a hand's declarations, and
:mod:`cardrules.haggis` re-exports its public names (:class:`Combo`, :class:`Play`,
:func:`combinations`, :func:`declarations`, :func:`beats`, :func:`deck`,
:func:`card_points`, ``J``, ``Q``, ``K``), which are documented there.

The caches here (interned plays, pieces of hands, card tuples) are pure caches of pure
functions of the cards: bounded, shared by every game, and never changing what any
function returns.

>>> from cardrules.haggis.combos import combinations
>>> [c.describe() for c in combinations("9S 9H J")]
['three 9s']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any, Literal

import attrs

from .._records import maker
from ..cards import Card, Suit, parse_cards
from ..errors import CardRulesError

# ---------------------------------------------------------------------------------------
# Cards

J, Q, K = Card(11), Card(12), Card(13)
FACES: tuple[Card, Card, Card] = (J, Q, K)
_SUITS = tuple(Suit)  # canonical order: S H D C M
_POINTS = {3: 1, 5: 1, 7: 1, 9: 1, 11: 2, 12: 3, 13: 5}


class _PointsOfCard(dict[Card, int]):
    """The points of each card, filled as cards are met: cards are interned, so
    ``map`` over a pile reads them in a C loop (a pile is summed at every capture)."""

    def __missing__(self, card: Card) -> int:
        points = _POINTS.get(card.rank, 0)
        if type(card) is Card:  # interned: a bounded table
            self[card] = points
        return points


_POINTS_OF = _PointsOfCard().__getitem__


def card_points(cards: Iterable[Card]) -> int:
    """The points of ``cards``: 3, 5, 7 and 9 are worth 1, J 2, Q 3, K 5, others 0.

    >>> from cardrules import parse_cards
    >>> card_points(parse_cards("3S 4H 9M J K"))
    9
    """
    return sum(map(_POINTS_OF, cards))


def deck(players: int = 2) -> tuple[Card, ...]:
    """The number cards shuffled for a hand, in canonical order: 2..10 in four suits for
    two players (36 cards), in five suits with moons for three (45).  The face cards are
    not shuffled: each player owns one J, Q and K."""
    if players not in (2, 3):
        raise CardRulesError(f"haggis is played by 2 or 3 players, not {players!r}")
    return DECKS[players]


DECKS = {
    2: tuple(Card(r, s) for s in _SUITS[:4] for r in range(2, 11)),
    3: tuple(Card(r, s) for s in _SUITS for r in range(2, 11)),
}

# ---------------------------------------------------------------------------------------
# Combinations
#
# Internally a group of cards is a "key mask": number card (rank r, suit s) is bit
# 9*s + r - 2 (45 bits), and the faces are 2-bit counters at bits 45 (J), 47 (Q) and
# 49 (K).  Adding the bits of cards counts faces correctly, and for a player's hand (at
# most one face of each rank) bitwise containment is sub-multiset containment.  A
# declaration's intern key adds its rank, width and kind above bit 51.

_J_SHIFT, _Q_SHIFT, _K_SHIFT = 45, 47, 49
_FACE_MASK = 0b111111 << 45
_NUM_MASK = (1 << 45) - 1
KB: dict[Card, int] = {
    c: 1 << (9 * s + c.rank - 2) for s, su in enumerate(_SUITS) for c in DECKS[3] if c.suit is su
}
KB[J], KB[Q], KB[K] = 1 << _J_SHIFT, 1 << _Q_SHIFT, 1 << _K_SHIFT
_KINDS: tuple[Literal["set", "sequence", "bomb"], ...] = ("set", "sequence", "bomb")
_KIND_CODE = {"set": 0, "sequence": 1, "bomb": 2}
# the cards of one suit's 9-bit rank pattern, in canonical order
_SUIT_CARDS = tuple(
    tuple(tuple(Card(r, su) for r in range(2, 11) if pat >> (r - 2) & 1) for pat in range(512))
    for su in _SUITS
)
_BOMB_NAMES = {1: "3-5-7-9 in four suits", 2: "J-Q", 3: "J-K", 4: "Q-K", 5: "J-Q-K", 6: "3-5-7-9 in one suit"}
_COUNT_WORDS = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
}
_RANK_NAMES = {11: "J", 12: "Q", 13: "K"}
_SET_NAMES = {1: "a single", 2: "a pair", 3: "three of a kind", 4: "four of a kind"}
_WIDTH_NAMES = {1: "", 2: " pairs", 3: " triples", 4: " quadruples", 5: " quintuples"}


def _rank_name(rank: int) -> str:
    return _RANK_NAMES.get(rank) or str(rank)


@attrs.frozen
class Combo:
    """One declared combination: what a :class:`Play` puts on the table.

    ``kind`` is ``"set"``, ``"sequence"`` or ``"bomb"``; ``rank`` is a set's rank, a
    sequence's top rank, or a bomb's strength 1..6 (3-5-7-9 in four suits, J-Q, J-K,
    Q-K, J-Q-K, 3-5-7-9 in one suit); ``size`` is the number of cards; ``width`` the
    cards per rank of a sequence (1 for a run of single cards), ``None`` for sets and
    bombs; ``cards`` the cards in canonical order.

    Build combos with :func:`combinations` or :func:`declarations`, which only produce
    real declarations; a hand-made ``Combo`` is checked when it is played.
    """

    kind: Literal["set", "sequence", "bomb"]
    rank: int
    size: int
    width: int | None
    cards: tuple[Card, ...]

    @property
    def name(self) -> str:
        """How a player would say it: ``"a pair"``, ``"three of a kind"``, ``"a run of
        three"``, ``"a run of two pairs"``, ``"a bomb (J-Q)"``."""
        return _shape_name(self.kind, self.size, self.width, self.rank)

    def __str__(self) -> str:
        return f"{self.describe()}: {' '.join(map(str, self.cards))}"

    def describe(self) -> str:
        """The declaration with its rank: ``"three 7s"``, ``"a run of four to 9"``,
        ``"a run of two pairs to J"``, ``"a bomb (J-Q-K)"``."""
        if self.kind == "bomb":
            return f"a bomb ({_BOMB_NAMES.get(self.rank, f'strength {self.rank!r}')})"
        if self.kind == "set":
            r = _rank_name(self.rank)
            if self.size == 1:
                return f"a single {r}"
            return f"{_COUNT_WORDS.get(self.size, str(self.size))} {r}s"
        return f"{_shape_name(self.kind, self.size, self.width, self.rank)} to {_rank_name(self.rank)}"


def _shape_name(kind: str, size: int, width: int | None, rank: int = 0) -> str:
    if kind == "bomb":
        return f"a bomb ({_BOMB_NAMES.get(rank, '?')})" if rank else "a bomb"
    if kind == "set":
        return _SET_NAMES.get(size) or f"a set of {size}"
    w = width or 1
    length = size // w
    return f"a run of {_COUNT_WORDS.get(length, str(length))}{_WIDTH_NAMES.get(w, f' sets of {w}')}"


@attrs.frozen
class Play:
    """Play a combination: ``Play(combo)``, ``combo.cards`` leave the hand."""

    combo: Combo

    def __str__(self) -> str:
        try:
            return play_text(self.combo)
        except (AttributeError, LookupError, TypeError, ValueError):
            # a hand-made Play of no real combination: an error message still names it
            text = repr(self.combo)
            return f"Play({text if len(text) <= 120 else text[:120] + '...'})"


def beats(a: Combo, b: Combo) -> bool:
    """Does combination ``a`` beat ``b`` on the table?

    A bomb beats every non-bomb and every weaker bomb; a non-bomb beats only a
    combination of the same kind, size and width with a strictly higher rank.

    >>> (bomb,) = combinations("J Q")
    >>> (pair,) = combinations("9S 9H")
    >>> beats(bomb, pair), beats(pair, bomb)
    (True, False)
    """
    if type(a) is not Combo or type(b) is not Combo:
        bad = a if type(a) is not Combo else b
        raise CardRulesError(f"beats compares two Combo objects, not {bad!r}")
    if a.kind == "bomb":
        return b.kind != "bomb" or a.rank > b.rank
    return b.kind == a.kind and a.size == b.size and a.width == b.width and a.rank > b.rank


# -- interning --------------------------------------------------------------------------

# A declaration key's Play: ``_PLAYS.get(key) or play_of_key(key)`` (a Play is never false).
_PLAYS: dict[int, Play] = {}
#: The declaration key of each interned Play, by ``id``.  An id outlives its object, so
#: a caller checks ``is_interned(play, key)``: the play interned under that key is that
#: very object (the rules' step skips its checks for these).
INTERNED: dict[int, int] = {}
CARD_BITS = (1 << 51) - 1


def is_interned(play: object, key: int | None) -> bool:
    """Is ``play`` the interned Play of declaration ``key`` (``INTERNED.get(id(play))``)?"""
    return key is not None and _PLAYS.get(key) is play


_PLAYS_LIMIT = 200_000


def _wild_tuple(wcode: int) -> tuple[Card, ...]:
    return (J,) * (wcode & 3) + (Q,) * (wcode >> 2 & 3) + (K,) * (wcode >> 4 & 3)


_WILD_TUPLES = tuple(_wild_tuple(w) for w in range(64))


# A fresh hand needs a thousand declarations: they are made with the record maker (no
# __init__ run, the same objects), fields named.
_COMBO = maker(Combo)
_PLAY = maker(Play)


def make_play(
    kind: Literal["set", "sequence", "bomb"], rank: int, size: int, width: int | None, cards: tuple[Card, ...]
) -> Play:
    """``Play(Combo(kind, rank, size, width, cards))``."""
    return _PLAY.new(combo=_COMBO.new(kind=kind, rank=rank, size=size, width=width, cards=cards))


_NUM_TUPLES: dict[int, tuple[Card, ...]] = {}
_WIDTHS = (None, 1, 2, 3, 4, 5)


def _numbers(mask: int) -> tuple[Card, ...]:
    """The number cards of a key mask, in canonical order."""
    cards: tuple[Card, ...] = ()
    s = 0
    while mask:
        chunk = mask & 511
        if chunk:
            cards += _SUIT_CARDS[s][chunk]
        mask >>= 9
        s += 1
    return cards


def play_of_key(
    key: int, plays: dict[int, Play] = _PLAYS, nums: dict[int, tuple[Card, ...]] = _NUM_TUPLES
) -> Play:
    """The interned Play of a declaration key, built on first use (the tables are kept
    bounded by :func:`generate`; ``plays`` and ``nums`` are them, as fast locals)."""
    mask = key & _NUM_MASK
    cards = nums.get(mask)
    if cards is None:
        cards = nums[mask] = _numbers(mask)
    w = key >> 45 & 63
    if w:
        cards += _WILD_TUPLES[w]
    kind, rank, width = _KINDS[key >> 59], key >> 51 & 15, _WIDTHS[key >> 55 & 15]
    play = plays[key] = make_play(kind, rank, len(cards), width, cards)
    INTERNED[id(play)] = key
    return play


# -- wild choices -----------------------------------------------------------------------
# For wild counts c = (cJ, cQ, cK) (as a wcode) and a number t of wild cells of which
# n13 stand at rank 13 and n12 at rank 12 or 13: every choice of wilds (a wcode), in
# one global order (so a smaller hand lists a subsequence of a bigger hand's list).

_B_CACHE: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
_ALL_B = sorted(
    ((bj, bq, bk) for bj in range(4) for bq in range(4) for bk in range(4)),
    key=lambda b: (b[0] + b[1] + b[2], b[2], b[1], b[0]),
)


_BY_T_CACHE: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}


def _wilds_by_count(wc: int, n12: int, n13: int) -> list[tuple[int, ...]]:
    """``_wild_choices(wc, t, n12, n13)`` for every t (index t)."""
    k = (wc, n12, n13)
    got = _BY_T_CACHE.get(k)
    if got is None:
        got = _BY_T_CACHE[k] = [_wild_choices(wc, t, n12, n13) for t in range(10)]
    return got


def _wild_choices(wc: int, t: int, n12: int, n13: int) -> tuple[int, ...]:
    k = (wc, t, n12, n13)
    got = _B_CACHE.get(k)
    if got is None:
        cj, cq, ck = wc & 3, wc >> 2 & 3, wc >> 4 & 3
        got = tuple(
            bj | bq << 2 | bk << 4
            for bj, bq, bk in _ALL_B
            if bj + bq + bk == t and bj <= cj and bq <= cq and bk <= ck and bk >= n13 and bq + bk >= n12
        )
        _B_CACHE[k] = got
    return got


# -- the generator ----------------------------------------------------------------------


def _gen_sets(
    pats: list[int],
    wc: int,
    out_m: list[int],
    out_p: list[Play],
    size: int = 0,
    above: int = 0,
    faces: bool = True,
) -> None:
    """Sets (single cards included).  ``size``/``above``: only sets of that size ranked
    above ``above`` (for following)."""
    plays = _PLAYS
    build = play_of_key
    add_m = out_m.append
    add_p = out_p.append
    by_t = _wilds_by_count(wc, 0, 0)
    nw = (wc & 3) + (wc >> 2 & 3) + (wc >> 4 & 3)
    for r in range(max(2, above + 1), 11):
        bit = r - 2
        # suits holding rank r, as single-bit masks
        have = [1 << (9 * s + bit) for s in range(5) if pats[s] >> bit & 1]
        if not have:
            continue
        rk = r << 51
        for na in range(1, len(have) + 1):
            if size:
                if not na <= size <= na + nw:
                    continue
                ts: Iterable[int] = (size - na,)
            else:
                ts = range(nw + 1)
            for a in itertools.combinations(have, na):
                amask = sum(a)
                for t in ts:
                    for b in by_t[t]:
                        m = amask | b << 45
                        key = m | rk
                        p = plays.get(key) or build(key)
                        add_m(m)
                        add_p(p)
    # a lone face card is a single of its own rank
    if faces and size in (0, 1):
        for shift, rank in ((45, 11), (47, 12), (49, 13)):
            if rank > above and wc >> (shift - 45) & 3:
                m = 1 << shift
                key = m | rank << 51
                p = plays.get(key) or build(key)
                out_m.append(m)
                out_p.append(p)


def _columns(
    pats: list[int], live: list[int], lo: int, hi: int, nw: int
) -> tuple[list[tuple[int, int, int]], int]:
    """The columns a sequence over ranks ``lo..hi`` can use, for runs of singles and of
    sets alike: ``(suit, present rank bits, cells to fill with wilds)`` for each suit of
    ``live`` that holds a number card in the range and misses at most ``nw`` (the
    wilds held) cells; and the fewest cells any suit misses (above ``nw``: no sequence
    over these ranks, nor over longer ones, can be made)."""
    L = hi - lo + 1
    rbits = ((1 << (min(hi, 10) - lo + 1)) - 1) << (lo - 2)  # J, Q, K are never number cards
    cols = []
    best = L
    for s in live:
        pb = pats[s] & rbits
        if pb:
            miss = L - pb.bit_count()
            if miss < best:
                best = miss
            if miss <= nw:
                cols.append((s, pb, miss))
    return cols, best


def _emit_shape(
    cols: list[tuple[int, int, int]],
    w: int,
    L: int,
    hi: int,
    wc: int,
    nw: int,
    out_m: list[int],
    out_p: list[Play],
) -> None:
    """Every sequence of width ``w`` over the ``L`` ranks up to ``hi``, given the
    columns that can keep number cards: ``(suit, present rank bits, cells to fill)``.

    U: the suits that keep number cards, |U| = u; the other f = w - u columns are all
    wild, L cells each (at most one with a player's three wilds; more only for groups
    given to combinations with several of a face).  What one choice of U gives (a
    block) depends only on U's cards, f, the ranks and the wilds: blocks are cached
    (:data:`_BLOCKS`), so that a hand meeting a new window mostly meets known blocks."""
    blocks = _BLOCKS
    tag = wc << 45 | (hi - L + 1) << 51 | hi << 55
    for u in range(w, 0, -1):
        f = w - u
        if f * L > nw:
            break
        ftag = tag | f << 59
        for U in itertools.combinations(cols, u):
            m_need = f * L
            for col in U:
                m_need += col[2]
            if m_need > nw:
                continue
            key = ftag
            for s, pb, _ in U:
                key |= pb << (9 * s)
            got = blocks.get(key)
            if got:
                masks = blocks.get(key | _MASKS)
                if masks is None:  # emptied meanwhile (another thread)
                    masks, got = _emit_block(key, U, w, L, hi, wc, nw, m_need)
                out_m += masks
                out_p += got
            elif got is None:
                masks, got = _emit_block(key, U, w, L, hi, wc, nw, m_need)
                out_m += masks
                out_p += got


def _emit_block(
    key: int, U: tuple[tuple[int, int, int], ...], w: int, L: int, hi: int, wc: int, nw: int, m_need: int
) -> _Piece:
    """The sequences of width ``w`` over the ``L`` ranks up to ``hi`` whose columns
    keeping number cards are ``U`` (the other columns all wild; ``m_need`` cells to
    fill with wilds): the present cards as they are, then with ``j`` of them replaced
    by wilds (every kept column keeping a number card), for j = 1, 2 ..."""
    plays = _PLAYS
    build = play_of_key
    out_m: list[int] = []
    out_p: list[Play] = []
    add_m = out_m.append
    add_p = out_p.append
    u = len(U)
    n13 = w if hi >= 13 else 0
    n12 = w * (hi - 11) if hi >= 12 else 0
    by_t = _wilds_by_count(wc, n12, n13)
    hk = hi << 51 | w << 55 | 1 << 59
    base = 0
    for s, pb, _ in U:
        base |= pb << (9 * s)
    for b in by_t[m_need]:
        m = base | b << 45
        k = m | hk
        p = plays.get(k) or build(k)
        add_m(m)
        add_p(p)
    extra = nw - m_need
    if extra:
        # j >= 1: present cells replaced by wilds
        cells: list[int] = []
        for s, pb, _ in U:
            sh = 9 * s
            x = pb
            while x:
                low = x & -x
                cells.append(low << sh)
                x ^= low
        cells.sort()
        shifts = [9 * s for s, _, _ in U]
        for j in range(1, extra + 1):
            bs = by_t[m_need + j]
            if not bs:
                continue
            for R in itertools.combinations(cells, j):
                kept = base - sum(R)
                # every kept column needs a number card
                if u == 1:
                    if not kept:
                        continue
                elif not all((kept >> sh) & 511 for sh in shifts):
                    continue
                for b in bs:
                    m = kept | b << 45
                    k = m | hk
                    p = plays.get(k) or build(k)
                    add_m(m)
                    add_p(p)
    return _stored(_BLOCKS, key, out_m, out_p)


_BIT3, _BIT5, _BIT7, _BIT9 = 1 << 1, 1 << 3, 1 << 5, 1 << 7
_ODD = _BIT3 | _BIT5 | _BIT7 | _BIT9


def _gen_bombs(
    pats: list[int], wc: int, nsuits: int, out_m: list[int], out_p: list[Play], above: int = 0
) -> None:
    """Bombs stronger than strength ``above``, weakest first."""
    plays = _PLAYS
    build = play_of_key

    def emit(m: int, rank: int) -> None:
        key = m | rank << 51 | 2 << 59
        p = plays.get(key) or build(key)
        out_m.append(m)
        out_p.append(p)

    if above < 1:
        by_rank = []
        for bit in (1, 3, 5, 7):
            by_rank.append([s for s in range(nsuits) if pats[s] >> bit & 1])
        if all(by_rank):
            for s3 in by_rank[0]:
                for s5 in by_rank[1]:
                    if s5 == s3:
                        continue
                    for s7 in by_rank[2]:
                        if s7 in (s3, s5):
                            continue
                        for s9 in by_rank[3]:
                            if s9 in (s3, s5, s7):
                                continue
                            emit(
                                (1 << (9 * s3 + 1))
                                | (1 << (9 * s5 + 3))
                                | (1 << (9 * s7 + 5))
                                | (1 << (9 * s9 + 7)),
                                1,
                            )
    hj, hq, hk = wc & 3, wc >> 2 & 3, wc >> 4 & 3
    jb, qb, kb = 1 << 45, 1 << 47, 1 << 49
    for rank, ok, m in (
        (2, hj and hq, jb | qb),
        (3, hj and hk, jb | kb),
        (4, hq and hk, qb | kb),
        (5, hj and hq and hk, jb | qb | kb),
    ):
        if rank > above and ok:
            emit(m, rank)
    if above < 6:
        for s in range(nsuits):
            if pats[s] & _ODD == _ODD:
                emit(_ODD << (9 * s), 6)


# Pieces of a hand's declarations that depend on few cards are cached, keyed by the bits
# of the hand they depend on (the hand's key mask ANDed with a fixed mask) and the wilds:
# the sets of one rank depend only on the suits holding that rank; the runs of single
# cards of one suit only on that suit's ranks; the runs of sets over ranks lo..hi only on
# the suits that can take part in one there (:func:`_gen_wide`, in :data:`_SHAPES`); the
# bombs only on the 3s, 5s, 7s and 9s.  Random hands
# share these pieces all the time, so a hand's declarations are mostly assembled from
# cached lists.  Keys: the masked bits (below bit 45), the wild code at bit 45, then what
# tells the pieces apart (a piece of one kind never has another kind's key).
_Piece = tuple[tuple[int, ...], tuple[Play, ...]]  # (key masks, plays)
_PIECES: dict[int, tuple[Any, ...]] = {}
_SHAPES: dict[int, tuple[Any, ...]] = {}
_WINDOWS: dict[int, Any] = {}
_BLOCKS: dict[int, tuple[Any, ...]] = {}
_FOLLOW: dict[int, tuple[Play, ...]] = {}
_PIECES_LIMIT = 100_000  # entries: a piece is one (no plays) or two

# bits of one rank in every suit, of one suit, and of the ranks 3, 5, 7 and 9 in every suit
_RANK_MASKS = tuple(sum(1 << (9 * s + r - 2) for s in range(5)) for r in range(2, 11))
_SUIT_MASKS = tuple(511 << (9 * s) for s in range(5))
_ODD_ALL = sum(0b10101010 << (9 * s) for s in range(5))
# the bits of ranks lo..min(hi, 10) in every suit, by lo then hi
_WINDOW_MASKS = tuple(
    tuple(
        sum(((1 << (min(hi, 10) - lo + 1)) - 1) << (lo - 2 + 9 * s) for s in range(5))
        if 2 <= lo <= min(hi, 10)
        else 0
        for hi in range(14)
    )
    for lo in range(11)
)
_R3, _R5, _R7, _R9 = _RANK_MASKS[1], _RANK_MASKS[3], _RANK_MASKS[5], _RANK_MASKS[7]


def _bomb_bits(nm: int) -> int:
    """The bits the number-card bombs of ``nm`` depend on: its 3s, 5s, 7s and 9s; none
    when a rank of the four is missing (then it has no number-card bomb at all), so
    that such hands share one piece."""
    odd = nm & _ODD_ALL
    return odd if odd & _R3 and odd & _R5 and odd & _R7 and odd & _R9 else 0


_RUNS_TAG = 1 << 60
_BOMBS_TAG = 3 << 60
_MASKS = 1 << 62  # a piece's plays are at its key, their key masks at key | _MASKS


def _stored(cache: dict[int, Any], key: int, ms: list[int], ps: list[Play]) -> _Piece:
    """Keep a piece: its plays at ``key``, their key masks at ``key | _MASKS`` (when
    there are any, stored first), each a tuple; returns both (masks, plays).  A reader
    finding the plays reads the masks, and makes the piece again if a thread emptied the
    cache in between.  No container per piece: the
    garbage collector walks every object a long simulation keeps, and random hands leave
    tens of thousands of pieces (a tuple of ints it stops tracking, the empty tuple it
    never sees)."""
    masks = tuple(ms)
    plays = tuple(ps)
    if plays:
        cache[key | _MASKS] = masks
    cache[key] = plays
    return masks, plays


def _pats(mask: int) -> list[int]:
    return [(mask >> (9 * s)) & 511 for s in range(5)]


def _bounded() -> None:
    """Keep the interning tables and the caches bounded: a long simulation rebuilds what
    it needs (a cached piece keeps its plays, equal to any rebuilt one)."""
    if len(_PLAYS) >= _PLAYS_LIMIT or len(_NUM_TUPLES) >= _PLAYS_LIMIT or len(INTERNED) >= _PLAYS_LIMIT:
        _PLAYS.clear()
        _NUM_TUPLES.clear()
        INTERNED.clear()
    for cache in (_PIECES, _SHAPES, _BLOCKS, _FOLLOW, _WINDOWS):
        if len(cache) >= _PIECES_LIMIT:
            cache.clear()


_LAST_HAND: tuple[tuple[Card, ...], int] = ((), 0)


def hand_mask(hand: tuple[Card, ...]) -> int:
    """The key mask of a hand (a tuple of cards).  The last hand asked about is kept, by
    identity (a tuple never changes): a step asks about the hand that legal_actions
    just listed.  One tuple swapped whole, so threads sharing it see a hand with its own
    mask."""
    global _LAST_HAND
    last = _LAST_HAND
    if last[0] is hand:
        return last[1]
    mask: int = sum(map(KB.__getitem__, hand))
    _LAST_HAND = (hand, mask)
    return mask


def clear_caches() -> None:
    """Empty the interning tables and every cache of this module.  They rebuild on
    demand; what any function returns never changes (the benchmarks' "cold" runs, and the
    tests that check it)."""
    for cache in (_PLAYS, _NUM_TUPLES, INTERNED, _PIECES, _SHAPES, _BLOCKS, _FOLLOW, _WINDOWS):
        cache.clear()


def _set_piece(key: int, bits: int, wc: int) -> _Piece:
    ms: list[int] = []
    ps: list[Play] = []
    _gen_sets(_pats(bits), wc, ms, ps, faces=False)
    return _stored(_PIECES, key, ms, ps)


def _faces_piece(key: int, wc: int) -> _Piece:
    ms: list[int] = []
    ps: list[Play] = []
    _gen_sets([0] * 5, wc, ms, ps)
    return _stored(_PIECES, key, ms, ps)


def _runs_piece(key: int, bits: int, wc: int) -> _Piece:
    """The runs of single cards of one suit (``bits``, its cards), by lowest then top
    rank: each window's is the block of that one column (:func:`_emit_block`)."""
    ms: list[int] = []
    ps: list[Play] = []
    nw = (wc & 3) + (wc >> 2 & 3) + (wc >> 4 & 3)
    blocks = _BLOCKS
    s = 0
    while not bits >> (9 * s) & 511:
        s += 1
    sh = 9 * s
    pat = bits >> sh
    tag = wc << 45
    for lo in range(2, 11):
        for hi in range(lo + 2, 14):
            L = hi - lo + 1
            pb = pat & ((1 << (min(hi, 10) - lo + 1)) - 1) << (lo - 2)
            miss = L - pb.bit_count() if pb else L
            if miss > nw:
                break  # longer runs only miss more
            if not pb:
                continue
            bkey = tag | lo << 51 | hi << 55 | pb << sh
            got = blocks.get(bkey)
            if got:
                masks = blocks.get(bkey | _MASKS)
                if masks is None:  # emptied meanwhile (another thread)
                    masks, got = _emit_block(bkey, ((s, pb, miss),), 1, L, hi, wc, nw, miss)
                ms += masks
                ps += got
            elif got is None:
                masks, got = _emit_block(bkey, ((s, pb, miss),), 1, L, hi, wc, nw, miss)
                ms += masks
                ps += got
    return _stored(_PIECES, key, ms, ps)


def _bombs_piece(key: int, bits: int, wc: int, nsuits: int) -> _Piece:
    ms: list[int] = []
    ps: list[Play] = []
    _gen_bombs(_pats(bits), wc, nsuits, ms, ps)
    return _stored(_PIECES, key, ms, ps)


def _gen_wide(nm: int, wc: int, nw: int, nsuits: int, out_m: list[int], out_p: list[Play]) -> None:
    """Every run of sets (width 2 or more) of the hand ``nm`` (number cards) with the
    wilds ``wc`` (``nw`` of them), for leading: window by window (ranks lo..hi), the
    runs of :func:`_emit_shape` for each width.

    A window's runs depend only on its columns that take part in some run (see
    :func:`_window`): they are cached by those columns (:data:`_SHAPES`).  Misses only
    grow with the window, so once the two columns missing fewest (a suit with no card
    counting ``L``) miss more than ``nw`` together and no all-wild column fits, no
    longer window has a run.  The windows of two and three ranks, most of those looked
    at, are read from a table keyed by the hand's cards in the window
    (:data:`_WINDOWS`)."""
    shapes = _SHAPES
    windows = _WINDOWS
    ns5 = nsuits == 5
    tag = wc << 45 | ns5 << 59
    live = [(s, nm >> (9 * s) & 511) for s in range(nsuits) if nm >> (9 * s) & 511]
    if not live:
        return
    for lo in range(2, 11):
        sh = lo - 2
        qs = None
        wmasks = _WINDOW_MASKS[lo]
        for hi in range(lo + 1, 14):
            L = hi - lo + 1
            if L <= 3:
                bits = nm & wmasks[hi]
                wkey = bits | tag | lo << 51 | hi << 55
                v = windows.get(wkey)
                if v is None:
                    v = windows[wkey] = _window(bits, wc, nw, nsuits, lo, hi)
                if isinstance(v, int):
                    if v:
                        break  # no longer window has a run
                    continue
                key, useful = v
            else:
                if qs is None:
                    qs = [(s, q >> sh) for s, q in live]
                low = (1 << L) - 1
                # the two fewest misses of any suit (a suit with no card here misses L)
                m1 = m2 = L
                cols = []
                for s, q in qs:
                    x = q & low
                    if x:
                        miss = L - x.bit_count()
                        if miss < m2:
                            if miss < m1:
                                m1, m2 = miss, m1
                            else:
                                m2 = miss
                        if miss <= nw:
                            cols.append((s, x << sh, miss))
                if m1 + m2 > nw:
                    if nw <= L:
                        break  # no longer window has a run
                    if m1 + L > nw:
                        continue  # no column takes part in a run here
                if not cols:
                    continue
                key = tag | lo << 51 | hi << 55
                useful = []
                for col in cols:
                    miss = col[2]
                    other = m2 if miss == m1 else m1
                    if miss + (other if other < L else L) <= nw:
                        key |= col[1] << (9 * col[0])
                        useful.append(col)
                if not useful:
                    continue
            got = shapes.get(key)
            if got:
                masks = shapes.get(key | _MASKS)
                if masks is None:  # emptied meanwhile (another thread)
                    masks, got = _wide_shapes(key, list(useful), wc, nsuits, L, hi, nw)
                out_m += masks
                out_p += got
            elif got is None:
                masks, got = _wide_shapes(key, list(useful), wc, nsuits, L, hi, nw)
                out_m += masks
                out_p += got


def _window(
    bits: int, wc: int, nw: int, nsuits: int, lo: int, hi: int
) -> int | tuple[int, tuple[tuple[int, int, int], ...]]:
    """What the runs of sets over ranks ``lo..hi`` depend on, given the hand's number
    cards in those ranks (``bits``, every suit): ``-1`` when no run over these ranks nor
    longer ones can be made, ``0`` when none over these, else the key of the window's
    runs in :data:`_SHAPES` and the columns that take part in one.

    A column is a suit holding a number card in the window, ``(suit, its cards' rank
    bits, cells it misses)``.  It takes part in some run when, with another column or
    with an all-wild column of ``L`` cells, it misses at most ``nw`` cells: a column
    taking part in no run changes no run nor their order."""
    L = hi - lo + 1
    m1 = m2 = L
    cols = []
    for s in range(nsuits):
        x = bits >> (9 * s) & 511
        if x:
            miss = L - x.bit_count()
            if miss < m2:
                if miss < m1:
                    m1, m2 = miss, m1
                else:
                    m2 = miss
            if miss <= nw:
                cols.append((s, x, miss))
    if m1 + m2 > nw:
        if nw <= L:
            return -1
        if m1 + L > nw:
            return 0
    key = wc << 45 | (nsuits == 5) << 59 | lo << 51 | hi << 55
    useful = []
    for col in cols:
        miss = col[2]
        other = m2 if miss == m1 else m1
        if miss + (other if other < L else L) <= nw:
            key |= col[1] << (9 * col[0])
            useful.append(col)
    return (key, tuple(useful)) if useful else 0


def _wide_shapes(
    key: int, cols: list[tuple[int, int, int]], wc: int, nsuits: int, L: int, hi: int, nw: int
) -> _Piece:
    ms: list[int] = []
    ps: list[Play] = []
    # the fewest wilds a width needs: its columns with the fewest holes (a column
    # holding a number card misses at most L - 1), then all-wild columns of L
    # cells; a wider run only needs more
    need = sorted(c[2] for c in cols)
    nc = len(cols)
    for w in range(2, nsuits + 1):
        if sum(need[:w]) + max(0, w - nc) * L > nw:
            break
        _emit_shape(cols, w, L, hi, wc, nw, ms, ps)
    return _stored(_SHAPES, key, ms, ps)


def generate(cards: Iterable[Card], nsuits: int) -> tuple[list[int], list[Play]]:
    """Every declaration of every sub-group of ``cards``: (key masks, plays), in an
    order that does not depend on the hand (a smaller hand lists a subsequence)."""
    _bounded()
    mask = sum(map(KB.__getitem__, cards))
    nm = mask & _NUM_MASK
    wc = mask >> 45 & 63
    tag = wc << 45
    pieces = _PIECES
    ms: list[int] = []
    ps: list[Play] = []
    # sets, rank by rank, then the lone faces
    for rm in _RANK_MASKS:
        bits = nm & rm
        if bits:
            key = bits | tag
            got = pieces.get(key)
            if got:
                masks = pieces.get(key | _MASKS)
                if masks is None:  # emptied meanwhile (another thread)
                    masks, got = _set_piece(key, bits, wc)
                ms += masks
                ps += got
            elif got is None:
                masks, got = _set_piece(key, bits, wc)
                ms += masks
                ps += got
    got = pieces.get(tag)
    if got:
        masks = pieces.get(tag | _MASKS)
        if masks is None:  # emptied meanwhile (another thread)
            masks, got = _faces_piece(tag, wc)
        ms += masks
        ps += got
    elif got is None:
        masks, got = _faces_piece(tag, wc)
        ms += masks
        ps += got
    # runs of single cards, suit by suit
    for s in range(nsuits):
        bits = nm & _SUIT_MASKS[s]
        if bits:
            key = bits | tag | _RUNS_TAG
            got = pieces.get(key)
            if got:
                masks = pieces.get(key | _MASKS)
                if masks is None:  # emptied meanwhile (another thread)
                    masks, got = _runs_piece(key, bits, wc)
                ms += masks
                ps += got
            elif got is None:
                masks, got = _runs_piece(key, bits, wc)
                ms += masks
                ps += got
    # runs of sets (width 2 or more), by their lowest then top rank
    _gen_wide(nm, wc, (wc & 3) + (wc >> 2 & 3) + (wc >> 4 & 3), nsuits, ms, ps)
    bits = _bomb_bits(nm)
    key = bits | tag | (nsuits == 5) << 59 | _BOMBS_TAG
    got = pieces.get(key)
    if got:
        masks = pieces.get(key | _MASKS)
        if masks is None:  # emptied meanwhile (another thread)
            masks, got = _bombs_piece(key, bits, wc, nsuits)
        ms += masks
        ps += got
    elif got is None:
        masks, got = _bombs_piece(key, bits, wc, nsuits)
        ms += masks
        ps += got
    return ms, ps


_SET_TAG = 1 << 60
_FOLLOW_BOMBS_TAG = 2 << 60
_FACES_TAG = 3 << 60


def following_plays(cards: Iterable[Card], nsuits: int, top: Combo) -> list[Play]:
    """Every declaration of a sub-group of ``cards`` that beats ``top``: the sets of its
    size ranked higher (rank by rank), or the sequences of its width and length ranked
    higher (by lowest rank), then the bombs that beat it; each piece cached by the
    bits of the hand it depends on, like :func:`generate`'s (:data:`_FOLLOW`)."""
    _bounded()
    mask = hand_mask(cards) if type(cards) is tuple else sum(map(KB.__getitem__, cards))
    nm = mask & _NUM_MASK
    wc = mask >> 45 & 63
    follow = _FOLLOW
    ps: list[Play] = []
    made: list[Play]
    kind = top.kind
    ns5 = (nsuits == 5) << 59
    if kind == "set":
        size, above = top.size, top.rank
        tag = wc << 45 | size << 51 | _SET_TAG
        for r in range(max(2, above + 1), 11):
            bits = nm & _RANK_MASKS[r - 2]
            if bits:
                key = bits | tag
                got = follow.get(key)
                if got is None:
                    made = []
                    _gen_sets(_pats(bits), wc, [], made, size=size, faces=False)
                    got = follow[key] = tuple(made)
                ps += got
        if size == 1:  # the lone faces
            key = wc << 45 | above << 51 | _FACES_TAG
            got = follow.get(key)
            if got is None:
                made = []
                _gen_sets([0] * 5, wc, [], made, size=1, above=above)
                got = follow[key] = tuple(made)
            ps += got
    elif kind == "sequence":
        w = top.width or 1
        length = top.size // w
        above = top.rank
        if w <= nsuits and length >= (3 if w == 1 else 2):
            tag = wc << 45 | ns5 | w << 62
            wtag = wc << 45 | ns5
            windows = _WINDOWS
            nw = (wc & 3) + (wc >> 2 & 3) + (wc >> 4 & 3)
            for lo in range(2, 11):
                hi = lo + length - 1
                if hi > 13:
                    break
                if hi <= above:
                    continue
                bits = nm & _WINDOW_MASKS[lo][hi]
                if w == 1:
                    key = bits | tag | lo << 51 | hi << 55
                    got = follow.get(key)
                    if got is None:
                        made = []
                        pats = _pats(bits)
                        live = [s for s in range(nsuits) if pats[s]]
                        cols, best = _columns(pats, live, lo, hi, nw)
                        if best <= nw:
                            _emit_shape(cols, w, length, hi, wc, nw, [], made)
                        got = follow[key] = tuple(made)
                    ps += got
                    continue
                # runs of sets: they depend only on the columns that can take part in
                # one (_window, whose answers for two and three ranks the lead shares)
                if length <= 3:
                    wkey = bits | wtag | lo << 51 | hi << 55
                    v = windows.get(wkey)
                    if v is None:
                        v = windows[wkey] = _window(bits, wc, nw, nsuits, lo, hi)
                else:
                    v = _window(bits, wc, nw, nsuits, lo, hi)
                if isinstance(v, int):
                    continue  # no run of sets over these ranks
                key = v[0] | w << 62
                got = follow.get(key)
                if got is None:
                    made = []
                    _emit_shape(list(v[1]), w, length, hi, wc, nw, [], made)
                    got = follow[key] = tuple(made)
                ps += got
    above = top.rank if kind == "bomb" else 0
    bits = _bomb_bits(nm)
    key = bits | wc << 45 | above << 51 | ns5 | _FOLLOW_BOMBS_TAG
    got = follow.get(key)
    if got is None:
        made = []
        _gen_bombs(_pats(bits), wc, nsuits, [], made, above=above)
        got = follow[key] = tuple(made)
    ps += got
    return ps


def check_group(cards: Iterable[Card] | str, what: str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        cards = parse_cards(cards)
    try:
        group = tuple(cards)
    except TypeError:
        raise CardRulesError(f"{what} takes cards (or card text), not {cards!r}") from None
    seen: set[Card] = set()
    faces = [0, 0, 0]
    for c in group:
        if not isinstance(c, Card):
            raise CardRulesError(f"{what}: {c!r} is not a card")
        if c not in KB:
            raise CardRulesError(f"{what}: {c} is not a Haggis card (number cards 2..10, and J, Q, K)")
        if c.suit is None:
            faces[c.rank - 11] += 1
            if faces[c.rank - 11] > 3:
                raise CardRulesError(f"{what}: more than three {c} (one per player)")
        elif c in seen:
            raise CardRulesError(f"{what}: {c} appears twice (there is one of each number card)")
        seen.add(c)
    numbers = len(group) - sum(faces)
    if numbers > _MOST_NUMBERS:
        raise CardRulesError(
            f"{what} takes at most {_MOST_NUMBERS} number cards (as many as a hand holds), not {numbers}"
        )
    return group


#: The most number cards a player ever holds, so the most one declaration can use.
_MOST_NUMBERS = 14


def _check_suits(suits: int) -> int:
    if suits not in (4, 5) or type(suits) is not int:
        raise CardRulesError(f"suits must be 4 (two players) or 5 (three players), not {suits!r}")
    return suits


def declarations(hand: Iterable[Card] | str, *, suits: int = 5) -> tuple[Combo, ...]:
    """Every combination a player holding ``hand`` could lead: each distinct declaration
    of each group of its cards, once (what :func:`legal_actions` offers a leader).

    >>> len(declarations("5S 6S 7S J"))
    15
    """
    group = check_group(hand, "declarations")
    return tuple(p.combo for p in generate(group, _check_suits(suits))[1])


def combinations(cards: Iterable[Card] | str, *, suits: int = 5) -> tuple[Combo, ...]:
    """Every way ``cards``, all of them, can be declared: as a set, a run, a run of
    sets (with face cards standing for lower ranks or for themselves) or a bomb.  Each
    distinct declaration once (same kind, rank, size, width and cards are the same
    declaration, whatever the wilds stand for); ``()`` if the cards make no
    combination.  ``suits`` caps the width of runs of sets (4 with two players).

    >>> [c.describe() for c in combinations("2S J Q K")]
    ['four 2s', 'a run of four to 5', 'a run of two pairs to 3']
    >>> combinations("3S 5S 7H 9D")
    ()
    """
    group = check_group(cards, "combinations")
    ns = _check_suits(suits)
    if not group:
        return ()
    full = sum(KB[c] for c in group)
    ms, ps = generate(group, ns)
    return tuple(p.combo for m, p in zip(ms, ps, strict=True) if m == full)


def combo_key(combo: Combo) -> int | None:
    """The intern key of a well-formed combo, or None."""
    try:
        kind = _KIND_CODE[combo.kind]
        mask = 0
        for c in combo.cards:
            mask += KB[c]
        rank = combo.rank
        width = combo.width or 0
        if type(rank) is not int or type(width) is not int or not 0 < rank < 14 or not 0 <= width < 6:
            return None
    except (KeyError, TypeError, AttributeError):
        return None
    return mask | rank << 51 | width << 55 | kind << 59


def genuine(combo: Combo) -> bool:
    """Is ``combo`` a real declaration of its cards?"""
    if not isinstance(combo, Combo):
        return False
    key = combo_key(combo)
    if key is None:
        return False
    known = _PLAYS.get(key)
    if known is not None:
        return known.combo is combo or known.combo == combo
    try:
        return combo in combinations(combo.cards)
    except CardRulesError:
        return False


# How a play is written (the notation of cardrules.haggis.parse_action): its cards, and
# the declaration after ``as`` when face cards play as wilds beside number cards.
_WIDE = {1: "run", 2: "pairs", 3: "triples", 4: "quadruples", 5: "quintuples"}


def play_text(combo: Combo) -> str:
    if not combo.cards:  # never legal, but an error message about it must still read
        return f"no cards ({combo.describe()})"
    cards = " ".join(map(str, combo.cards))
    faces = sum(1 for c in combo.cards if c.suit is None)
    if not faces or faces == len(combo.cards) or combo.kind == "bomb":
        return cards
    if combo.kind == "set":
        return f"{cards} as {_rank_name(combo.rank)}s"
    return f"{cards} as {_WIDE.get(combo.width or 1, f'{combo.width}-sets')} to {_rank_name(combo.rank)}"
