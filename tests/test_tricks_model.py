"""Random tables against a model: text and meaning generated side by side.

Hypothesis builds a random table (random rank orders with random groups and a random
tournament between them, a random suit order, random classes, relations and tie-break
chain) twice: as text for :func:`compile_tables`, and as plain Python for a direct,
interpreted reading of ``rule-language.md`` section 3.  Both must judge every trick
alike.  A second test feeds the compiler arbitrary and mangled text: it must either
compile or raise :class:`TableError`, never anything else.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cardrules import JOKER, Suit
from cardrules.cards import standard_deck, two_decks
from cardrules.tricks import TableError, builtin, compile_tables

DECK = standard_deck()
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
SUIT_TEXT = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds", Suit.CLUBS: "clubs"}

NEXT_SUIT = {
    Suit.SPADES: Suit.HEARTS,
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
}
RED = {Suit.HEARTS, Suit.DIAMONDS}

# (condition text, the same condition in plain Python, read from rule-language.md section 1)
CONDITIONS = [
    ("card.suit == key.suit", lambda c, lead, key: c.suit is key.suit),
    ("card.suit == lead.suit", lambda c, lead, key: c.suit is lead.suit),
    ("card.rank == key.rank", lambda c, lead, key: c.rank == key.rank),
    ("card.rank == lead.rank", lambda c, lead, key: c.rank == lead.rank),
    ("card.color == lead.color", lambda c, lead, key: c.color is lead.color),
    ("card.rank == Q", lambda c, lead, key: c.rank == 12),
    ("card.rank == 0", lambda c, lead, key: c.rank == 0),
    ("card is red", lambda c, lead, key: c.suit in RED),
    ("card is not face", lambda c, lead, key: not 11 <= c.rank <= 13),
    ("card.rank in {J..K}", lambda c, lead, key: c.rank in (11, 12, 13)),
    ("card.rank > key.rank", lambda c, lead, key: c.rank > key.rank),
    (
        "card is odd and card.suit != lead.suit",
        lambda c, lead, key: c.rank % 2 == 1 and c.suit is not lead.suit,
    ),
    ("abs(card.rank - lead.rank) <= 1", lambda c, lead, key: abs(c.rank - lead.rank) <= 1),
    (
        "card.suit == next(lead.suit, [spades, hearts, diamonds, clubs])",
        lambda c, lead, key: lead.suit in NEXT_SUIT and c.suit is NEXT_SUIT[lead.suit],
    ),
    (
        "if lead is red then card is black else card is red",
        lambda c, lead, key: (c.suit in (Suit.SPADES, Suit.CLUBS)) if lead.suit in RED else (c.suit in RED),
    ),
    ("card.rank % 3 == key.rank % 3", lambda c, lead, key: c.rank % 3 == key.rank % 3),
]


@st.composite
def rank_orders(draw, name):
    ranks = draw(st.permutations(range(1, 14)))
    cuts = sorted(draw(st.sets(st.integers(1, 12), max_size=4)))
    groups = [ranks[a:b] for a, b in zip([0, *cuts], [*cuts, 13], strict=True)]
    beats = set()
    for i in range(len(groups)):
        for j in range(i + 1, len(groups)):
            beats.add((i, j) if draw(st.booleans()) else (j, i))
    chain = lambda g: " > ".join(RANK_TEXT.get(r, str(r)) for r in g)  # noqa: E731
    if len(groups) == 1:
        text = f"ranks {name}: {chain(groups[0])}\n"
    else:
        text = f"ranks {name}:\n" + "".join(f"    group g{i} = {chain(g)}\n" for i, g in enumerate(groups))
        text += "".join(f"    g{a} beat g{b}\n" for a, b in sorted(beats))
    where = {r: (gi, pos) for gi, g in enumerate(groups) for pos, r in enumerate(g)}

    def compare(a, b):
        if a == b:
            return 0
        if a == 0 or b == 0:
            return -1 if a == 0 else 1
        (ga, pa), (gb, pb) = where[a], where[b]
        if ga == gb:
            return 1 if pa < pb else -1
        return 1 if (ga, gb) in beats else -1

    return text, (lambda c, h: compare(c.rank, h.rank))


@st.composite
def suit_orders(draw, name):
    suits = draw(st.permutations(list(SUIT_TEXT)))
    text = f"suits {name}: " + " > ".join(SUIT_TEXT[s] for s in suits) + "\n"
    strength = {s: 4 - i for i, s in enumerate(suits)}

    def compare(c, h):
        a, b = strength.get(c.suit, 0), strength.get(h.suit, 0)
        return (a > b) - (a < b)

    return text, compare


@st.composite
def tables(draw):
    r1_text, r1 = draw(rank_orders("r1"))
    r2_text, r2 = draw(rank_orders("r2"))
    s1_text, s1 = draw(suit_orders("s1"))
    conds = draw(st.lists(st.sampled_from(CONDITIONS), max_size=5))
    names = [f"c{i}" for i in range(len(conds) + 1)]
    pairs = [(a, b) for a in names for b in names if a < b]
    relations = set()
    for a, b in draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([])):
        relations.add((a, b) if draw(st.booleans()) else (b, a))
    chain = draw(st.lists(st.sampled_from([("ranks r1", r1), ("ranks r2", r2), ("suits s1", s1),
                                           ("ranks cycle3", None)]), unique_by=lambda x: x[0], max_size=3))  # fmt: skip
    later = draw(st.sampled_from([None, True, False]))
    text = r1_text + r2_text + s1_text + "table t:\n"
    text += "".join(f"    class {n} when {c[0]}\n" for n, c in zip(names, conds, strict=False))
    text += f"    class {names[-1]}\n"
    for a in names:
        losers = sorted(b for x, b in relations if x == a)
        if losers:
            text += f"    {a} beats {', '.join(losers)}\n"
    if chain or later is not None:
        text += "    otherwise"
        if chain:
            text += " by " + ", ".join(c[0] for c in chain)
        if later is not None:
            text += ", then later" if later else " then earlier"
        text += "\n"
    cycle3 = builtin("gunsore").tiebreak[0]
    comparators = [c[1] or (lambda c, h: cycle3.compare(c.rank, h.rank)) for c in chain]

    def classify(card, lead, key):
        for n, (_, fn) in zip(names, conds, strict=False):
            if fn(card, lead, key):
                return n
        return names[-1]

    def beats(c, h, lead, key):
        a, b = classify(c, lead, key), classify(h, lead, key)
        if (a, b) in relations:
            return True
        if (b, a) in relations:
            return False
        for comp in comparators:
            d = comp(c, h)
            if d:
                return d > 0
        return bool(later)

    return text, classify, beats


CARDS = two_decks(jokers=2)


@given(tables(), st.sampled_from(DECK), st.lists(st.sampled_from(CARDS), min_size=1, max_size=6))
def test_random_tables_match_the_model(table, key, cards):
    text, classify, beats = table
    t = compile_tables(text)["t"]
    lead = cards[0]
    want = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[want], lead, key):
            want = i
    assert t.winner(cards, key=key) == want, text
    for c in cards:
        assert t.classify(c, lead=lead, key=key) == classify(c, lead, key), text
    if len(cards) > 1:
        assert t.beats(cards[1], cards[0], lead=lead, key=key) == beats(cards[1], cards[0], lead, key)


@given(tables())
def test_random_tables_round_trip_through_their_source(table):
    text, _, _ = table
    t = compile_tables(text)["t"]
    assert compile_tables(t.source)["t"] == t


def test_jokers_are_below_every_rank_and_suit():
    t = compile_tables("table t:\n  class x\n  otherwise by ranks standard, suits elements, then later\n")[
        "t"
    ]
    for c in DECK:
        assert t.winner((JOKER, c)) == 1 and t.winner((c, JOKER)) == 0
    assert t.winner((JOKER, JOKER)) == 1


SHIPPED = builtin("aegis").source + builtin("gunsore").source


TOKENS = [
    "table",
    "class",
    "when",
    "beats",
    "ranks",
    "suits",
    "group",
    "otherwise",
    "by",
    "then",
    "later",
    "card",
    "key",
    "lead",
    "suit",
    "rank",
    "==",
    ".",
    ":",
    ">",
    "=",
    ",",
    "#",
    "\n",
    "a",
    "b",
    "A",
    "K",
    "2",
    "10",
    "1",
    "spades",
    "♠",
    "standard",
    "cycle3",
    "elements",
    "!",
    "(",
    ")",
]


@given(st.lists(st.sampled_from(TOKENS), max_size=40).map(" ".join))
def test_any_text_compiles_or_raises_table_error(text):
    try:
        compile_tables(text)
    except TableError as exc:
        assert exc.line >= 1 and exc.column >= 1


@given(
    st.integers(0, len(SHIPPED) - 1),
    st.integers(0, 12),
    st.sampled_from(["", " ", "x", ">", ":", "\n", "beats"]),
)
def test_mangled_tables_compile_or_raise_table_error(at, width, insert):
    text = SHIPPED[:at] + insert + SHIPPED[at + width :]
    try:
        compile_tables(text)
    except TableError as exc:
        assert exc.line >= 1 and exc.column >= 1


def _grammar_shaped_text():
    import lark
    from hypothesis.extra.lark import from_lark

    from cardrules import _resources
    from cardrules.lang.parser import _LOADER

    parser = lark.Lark(_resources.grammar_text("tables.lark"), parser="lalr", lexer="contextual",
                       import_paths=[_LOADER], source_path="tables.lark", maybe_placeholders=False)  # fmt: skip
    return from_lark(parser, explicit={"WS": st.just(" "), "COMMENT": st.just("# c\n")})


@given(_grammar_shaped_text())
def test_grammar_shaped_text_compiles_or_raises_table_error(text):
    """Text generated from the grammar itself reaches the checks (names, ranks, types)."""
    try:
        compile_tables(text)
    except TableError as exc:
        assert exc.line >= 1 and exc.column >= 1


def test_next_of_a_jokers_suit_is_nothing_and_equals_nothing():
    # Found by Hypothesis: a joker's suit is None, and next(None, [...]) is nothing;
    # "== with nothing is false" must hold even though the joker's own suit is None too.
    from cardrules import parse_card, parse_cards
    from cardrules.tricks import compile_tables

    t = compile_tables(
        "table t:\n"
        "    class c0 when card.suit == next(lead.suit, [spades, hearts, diamonds, clubs])\n"
        "    class c1\n"
    )["t"]
    joker = parse_card("JK")
    assert t.classify(joker, lead=joker) == "c1"
    assert t.classify(parse_card("2H"), lead=parse_card("5S")) == "c0"
    assert t.classify(joker, lead=parse_card("5S")) == "c1"
    assert t.winner(parse_cards("JK AS"), key=parse_card("AS")) in (0, 1)
