"""The shipped trick tables against independent hand-written references.

The references below are written straight from the game specs (aegis.md section 5,
gunsore.md, rule-language.md section 3), without the table language: if a compiled table
and its reference disagree on any trick, one of them misreads the spec.
"""

from __future__ import annotations

import itertools
import pickle
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardrules import JOKER, Card, Suit, parse_cards
from cardrules.cards import standard_deck, two_decks
from cardrules.tricks import TableError, TrickTable, builtin, compile_tables

DECK = standard_deck()
GUNSORE_CARDS = (*DECK, JOKER)


# --------------------------------------------------------------------------- references


def cycle3(a: int, b: int) -> int:
    """1 if rank a beats rank b in cycle3 (A > faces > numbers > A; K > Q > J; 10 > ... > 2)."""
    if a == b:
        return 0
    if a == 0 or b == 0:  # the joker is below every rank
        return 1 if b == 0 else -1

    def group(r: int) -> int:
        return 0 if r == 1 else (1 if r >= 11 else 2)

    ga, gb = group(a), group(b)
    if ga == gb:
        return 1 if a > b else -1
    return 1 if (gb - ga) % 3 == 1 else -1  # aces->faces, faces->numbers, numbers->aces


ELEMENTS = {Suit.SPADES: 4, Suit.CLUBS: 3, Suit.HEARTS: 2, Suit.DIAMONDS: 1}  # wind fire water earth


def aegis_class(card: Card, lead: Card, key: Card) -> str:
    if card.suit is key.suit:
        return "trump"
    if card.suit is lead.suit:
        return "leader"
    if card.rank == key.rank:
        return "killer"
    return "other"


AEGIS_BEATS = {("trump", "leader"), ("trump", "other"), ("killer", "trump"), ("leader", "killer"),
               ("leader", "other")}  # fmt: skip


def aegis_beats(c: Card, h: Card, lead: Card, key: Card) -> bool:
    a, b = aegis_class(c, lead, key), aegis_class(h, lead, key)
    if (a, b) in AEGIS_BEATS:
        return True
    if (b, a) in AEGIS_BEATS:
        return False
    return cycle3(c.rank, h.rank) > 0  # equal ranks: the earlier card keeps it


def gunsore_class(card: Card, lead: Card, key: Card | None) -> str:
    return "joker" if card.rank == 0 else "plain"


def gunsore_beats(c: Card, h: Card, lead: Card, key: Card | None) -> bool:
    if (c.rank == 0) != (h.rank == 0):
        return h.rank == 0
    by_rank = cycle3(c.rank, h.rank)
    if by_rank:
        return by_rank > 0
    sc, sh = ELEMENTS.get(c.suit, 0), ELEMENTS.get(h.suit, 0)  # type: ignore[arg-type]
    if sc != sh:
        return sc > sh
    return True  # identical cards: the later one (the slave) wins


def whist_class(card: Card, lead: Card, key: Card) -> str:
    if card.suit is key.suit:
        return "trump"
    if card.suit is lead.suit:
        return "led"
    return "other"


def whist_beats(c: Card, h: Card, lead: Card, key: Card) -> bool:
    order = {"trump": 2, "led": 1, "other": 0}
    a, b = order[whist_class(c, lead, key)], order[whist_class(h, lead, key)]
    if a != b:
        return a > b
    high = {1: 14}
    return high.get(c.rank, c.rank) > high.get(h.rank, h.rank)  # equal: earlier keeps it


def reference_winner(beats, cards, key) -> int:
    """rule-language.md: the first card holds; each next card takes it iff it beats the holder."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], cards[0], key):
            best = i
    return best


REFERENCES = {
    "aegis": (aegis_class, aegis_beats),
    "gunsore": (gunsore_class, gunsore_beats),
    "whist": (whist_class, whist_beats),
}


# --------------------------------------------------------------------------- exhaustive checks


def test_aegis_every_two_card_trick():
    """Every key, lead and follow of one deck: 52**3 tricks, every class combination."""
    table = builtin("aegis")
    winner, beats = table.winner, table.beats
    bad = []
    for key in DECK:
        for lead in DECK:
            for follow in DECK:
                want = aegis_beats(follow, lead, lead, key)
                if winner((lead, follow), key=key) != want or beats(follow, lead, lead=lead, key=key) != want:
                    bad.append((key, lead, follow))
    assert not bad, bad[:5]


def test_whist_every_two_card_trick():
    table = builtin("whist")
    bad = [
        (key, lead, follow)
        for key in DECK
        for lead in DECK
        for follow in DECK
        if table.winner((lead, follow), key=key) != whist_beats(follow, lead, lead, key)
    ]
    assert not bad, bad[:5]


def test_gunsore_every_two_card_trick():
    table = builtin("gunsore")
    for lead, follow in itertools.product(GUNSORE_CARDS, repeat=2):
        assert table.winner((lead, follow)) == gunsore_beats(follow, lead, lead, None), (lead, follow)
        assert table.winner((lead, follow), key=DECK[0]) == gunsore_beats(follow, lead, lead, None)


@pytest.mark.parametrize("name", ["aegis", "whist"])
def test_classes_match_the_reference(name):
    table = builtin(name)
    ref_class, _ = REFERENCES[name]
    seen = set()
    for key in DECK[::3]:
        for lead in DECK:
            for card in DECK:
                got = table.classify(card, lead=lead, key=key)
                assert got == ref_class(card, lead, key)
                seen.add(got)
    assert seen == set(table.classes)


def test_gunsore_classes():
    table = builtin("gunsore")
    assert table.classify(JOKER, lead=DECK[0]) == "joker"
    assert {table.classify(c, lead=JOKER) for c in DECK} == {"plain"}


# --------------------------------------------------------------------------- multi-card tricks

KEYED_CARDS = st.sampled_from(DECK)


@given(
    st.sampled_from(["aegis", "whist"]),
    KEYED_CARDS,
    st.lists(st.sampled_from(two_decks()), min_size=1, max_size=8),
)
def test_multi_card_tricks_with_key(name, key, cards):
    table = builtin(name)
    _, ref_beats = REFERENCES[name]
    assert table.winner(cards, key=key) == reference_winner(ref_beats, cards, key)
    assert table.winner(tuple(cards), key=key) == reference_winner(ref_beats, cards, key)


@given(st.lists(st.sampled_from(two_decks(jokers=2)), min_size=1, max_size=8))
def test_multi_card_gunsore_tricks(cards):
    assert builtin("gunsore").winner(cards) == reference_winner(gunsore_beats, cards, None)


@given(
    st.sampled_from(["aegis", "gunsore", "whist"]),
    KEYED_CARDS,
    st.sampled_from(two_decks(jokers=1)),
    st.sampled_from(two_decks(jokers=1)),
    st.sampled_from(DECK),
)
def test_beats_and_classify_match_the_reference(name, key, challenger, holder, lead):
    table = builtin(name)
    ref_class, ref_beats = REFERENCES[name]
    if name != "gunsore" and JOKER in (challenger, holder):
        return  # Aegis and whist are played without jokers
    assert table.beats(challenger, holder, lead=lead, key=key) == ref_beats(challenger, holder, lead, key)
    assert table.classify(challenger, lead=lead, key=key) == ref_class(challenger, lead, key)


def test_worked_examples():
    aegis = builtin("aegis")
    key = parse_cards("7S")[0]
    assert aegis.winner(parse_cards("KH 2S"), key=key) == 1  # trump beats leader
    assert aegis.winner(parse_cards("2S 7D"), key=key) == 1  # killer beats trump
    assert aegis.winner(parse_cards("KH 7D"), key=key) == 0  # leader beats killer
    assert aegis.winner(parse_cards("KH AH"), key=key) == 1  # ace beats faces
    assert aegis.winner(parse_cards("AH 2H"), key=key) == 1  # numbers beat the ace
    assert aegis.winner(parse_cards("5D 5C"), key=key) == 0  # other never beats leader
    assert aegis.winner(parse_cards("KH 2S 7D"), key=key) == 2  # trump takes it, then the killer
    assert aegis.winner(parse_cards("KH 7D 2S"), key=key) == 2  # leader keeps it, then trump
    gunsore = builtin("gunsore")
    assert gunsore.winner(parse_cards("JK JK")) == 1  # two jokers: the slave
    assert gunsore.winner(parse_cards("5H 5H")) == 1
    assert gunsore.winner(parse_cards("5H 5D")) == 0  # water beats earth
    assert gunsore.winner(parse_cards("5D 5S")) == 1
    assert gunsore.winner(parse_cards("JK 2D")) == 1
    whist = builtin("whist")
    assert whist.winner(parse_cards("KH AH 2S 3D"), key=key) == 2
    assert whist.winner(parse_cards("KH AH 3D"), key=key) == 1
    assert whist.winner(parse_cards("KH 5H"), key=parse_cards("5H")[0]) == 0  # both trump: K high


# --------------------------------------------------------------------------- API details


def test_shipped_tables_structure():
    aegis = builtin("aegis")
    assert aegis.classes == ("trump", "leader", "killer", "other")
    assert aegis.relations == AEGIS_BEATS
    assert aegis.conditions[0] == "card.suit == key.suit" and aegis.conditions[-1] is None
    assert aegis.uses_key and not aegis.later
    assert [o.name for o in aegis.tiebreak] == ["cycle3"]
    assert aegis.relation("killer", "trump") == 1 and aegis.relation("trump", "killer") == -1
    assert aegis.relation("killer", "other") == 0
    gunsore = builtin("gunsore")
    assert gunsore.later and not gunsore.uses_key
    assert [o.name for o in gunsore.tiebreak] == ["cycle3", "elements"]
    assert builtin("whist").classes == ("trump", "led", "other")


def test_builtin_is_the_shipped_text():
    from cardrules._resources import package_text

    text = package_text("tables", "standard.tricks")
    tables = compile_tables(text)
    assert set(tables) == {"aegis", "gunsore", "whist"}
    for name, table in tables.items():
        assert table == builtin(name)


def test_unknown_builtin():
    with pytest.raises(TableError, match=r"no shipped table 'bridge' .*aegis, gunsore, whist"):
        builtin("bridge")


@pytest.mark.parametrize(
    "call",
    [
        lambda t: t.winner(parse_cards("KH 2S")),
        lambda t: t.beats(*parse_cards("KH 2S"), lead=parse_cards("KH")[0]),
        lambda t: t.classify(parse_cards("KH")[0], lead=parse_cards("KH")[0]),
    ],
)
@pytest.mark.parametrize("name", ["aegis", "whist"])
def test_a_key_table_needs_a_key(name, call):
    with pytest.raises(TableError, match=f"table {name} uses key"):
        call(builtin(name))


def test_a_keyless_table_ignores_the_key():
    t = builtin("gunsore")
    assert t.winner(parse_cards("5H 5D"), key=None) == t.winner(
        parse_cards("5H 5D"), key=parse_cards("5D")[0]
    )


@pytest.mark.parametrize(
    "cards, match",
    [
        ((), "at least one card"),
        (["KH", "2S"], "'KH' is not a Card"),
        (None, "sequence of cards"),
        ((parse_cards("KH")[0], 3), "3 is not a Card"),
    ],
)
def test_bad_tricks_are_table_errors(cards, match):
    with pytest.raises(TableError, match=match):
        builtin("aegis").winner(cards, key=parse_cards("7S")[0])


def test_bad_key_is_a_table_error():
    with pytest.raises(TableError, match="is not a Card"):
        builtin("aegis").winner(parse_cards("KH 2S"), key="7S")  # type: ignore[arg-type]


def test_one_card_trick():
    assert builtin("aegis").winner(parse_cards("KH"), key=parse_cards("7S")[0]) == 0


def test_tables_are_immutable_values():
    t = builtin("aegis")
    with pytest.raises(AttributeError):
        t.name = "x"  # type: ignore[misc]
    assert hash(t) == hash(compile_tables(t.source)["aegis"])
    assert t != builtin("whist") and t != "aegis"
    assert repr(t) == "<TrickTable aegis>" and str(t) == t.source


def test_pickle_round_trip():
    for name in ("aegis", "gunsore", "whist"):
        t = builtin(name)
        back = pickle.loads(pickle.dumps(t))
        assert back == t and isinstance(back, TrickTable)
        assert back.winner(parse_cards("KH 2S"), key=parse_cards("7S")[0]) == t.winner(
            parse_cards("KH 2S"), key=parse_cards("7S")[0]
        )


# --------------------------------------------------------------------------- JSON


def test_json_round_trip_of_every_shipped_table():
    import json

    from cardrules.serialize import decode_value, encode_value

    for name in ("aegis", "gunsore", "whist"):
        t = builtin(name)
        data = json.loads(json.dumps(encode_value(t)))
        assert data == {"name": name, "source": t.source}
        back = decode_value(TrickTable, data)
        assert back == t and back.classes == t.classes and back.relations == t.relations


def test_json_round_trip_of_a_designed_table_inside_rules():
    import json

    import attrs

    from cardrules.serialize import decode_value, encode_value

    @attrs.frozen
    class Rules:
        target: int = 25
        table: TrickTable = attrs.field(factory=lambda: builtin("aegis"))

    text = """
    ranks low: 2 > 3 > 4 > 5 > 6 > 7 > 8 > 9 > 10 > J > Q > K > A   # lowball
    table low_aegis:
        class trump  when card.suit == key.suit
        class leader when card.suit == lead.suit
        class other
        trump beats leader, other
        leader beats other
        otherwise by ranks low, suits elements, then later
    """
    variant = compile_tables(text)["low_aegis"]
    rules = Rules(table=variant)
    back = decode_value(Rules, json.loads(json.dumps(encode_value(rules))))
    assert back == rules
    # The stored source is self-contained: the orders it uses come along.
    assert "ranks low:" in variant.source and "suits elements:" in variant.source
    assert "# lowball" in variant.source
    assert back.table.winner(parse_cards("KH 2H"), key=parse_cards("5S")[0]) == 1


@pytest.mark.parametrize(
    "data, match",
    [
        ("aegis", "stored as"),
        ({"name": "aegis"}, "stored as"),
        ({"name": "aegis", "source": 3}, "stored as"),
        ({"name": "nope", "source": "table t:\n  class a\n"}, "defines no table 'nope'"),
        ({"name": "t", "source": "table t:\n  class a when\n"}, "unexpected end of text"),
    ],
)
def test_bad_stored_tables(data, match):
    from cardrules import StateFormatError
    from cardrules.serialize import decode_value

    with pytest.raises(StateFormatError, match=match):
        decode_value(TrickTable, data)


def test_equal_definitions_give_equal_tables():
    """Tables compare by their self-contained source, wherever they were written."""
    a = compile_tables(builtin("aegis").source + "\n# an unrelated comment\ntable x:\n  class y\n")["aegis"]
    assert a == builtin("aegis")


def test_the_constructor_compiles_source():
    t = builtin("whist")
    assert TrickTable("whist", t.source) == t
    with pytest.raises(TableError, match="defines no table 'nope'"):
        TrickTable("nope", t.source)


class LeadWins(TrickTable):
    """A table written in Python, as a game's test double would be."""

    def __init__(self):
        super().__init__("lead-wins")
        self.calls = []

    def winner(self, cards, *, key=None):
        self.calls.append(tuple(cards))
        return 0


def test_a_table_written_in_python():
    t = LeadWins()
    assert t.name == "lead-wins" and t.source == "" and t.classes == ()
    assert t.winner(parse_cards("2H AH")) == 0 and t.calls == [parse_cards("2H AH")]
    with pytest.raises(TableError):
        t.relation("a", "b")


def test_a_stored_shipped_table_decodes_to_the_shipped_object():
    from cardrules.serialize import decode_value, encode_value

    assert decode_value(TrickTable, encode_value(builtin("aegis"))) is builtin("aegis")


def test_judging_runs_generated_code_not_a_tree_walk():
    import types

    t = builtin("aegis")
    for name in ("winner", "beats", "classify"):
        fn = t.__dict__[name]
        assert type(fn) is types.FunctionType
        assert re.fullmatch(r"<cardrules trick table aegis #\d+>", fn.__code__.co_filename)


def test_orders_are_immutable_and_describe_themselves():
    cycle3, elements = builtin("gunsore").tiebreak
    assert cycle3.describe() == ("aces = A; faces = K > Q > J; numbers = 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 2; "
                                 "aces beat faces, faces beat numbers, numbers beat aces")  # fmt: skip
    assert elements.describe() == "spades > clubs > hearts > diamonds"
    assert builtin("whist").tiebreak[0].describe() == "A > K > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 2"
    assert cycle3.compare(1, 13) == 1 and cycle3.compare(2, 1) == 1 and cycle3.compare(0, 2) == -1
    assert elements.compare(Suit.CLUBS, Suit.HEARTS) == 1 and elements.compare(None, Suit.DIAMONDS) == -1
    with pytest.raises(AttributeError):
        cycle3.name = "x"
    with pytest.raises(AttributeError):
        elements.name = "x"
    assert "cycle3" in repr(cycle3) and "elements" in repr(elements)
