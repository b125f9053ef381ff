"""Haggis combinations: the rule book's examples, and two independent brute-force oracles."""

import random

import pytest
from haggis_oracle import as_tuples, exact_oracle, hand_oracle, matching_oracle
from hypothesis import given
from hypothesis import strategies as st

from cardrules import Card, CardRulesError, Suit, parse_cards
from cardrules.haggis import Combo, J, K, Q, beats, combinations, deck, declarations, game_over


def shapes(text, **kw):
    return {(c.kind, c.rank, c.width) for c in combinations(text, **kw)}


def one(text, kind, rank, width=None):
    (c,) = [c for c in combinations(text) if (c.kind, c.rank, c.width) == (kind, rank, width)]
    return c


# -- the rule book's examples ----------------------------------------------------------


def test_two_with_three_faces_is_four_twos_a_run_or_a_pair_run():
    assert shapes("2S J Q K") == {("set", 2, None), ("sequence", 5, 1), ("sequence", 3, 2)}
    assert len(combinations("2S J Q K")) == 3
    for c in combinations("2S J Q K"):
        assert c.size == 4 and c.cards == parse_cards("2S J Q K")


def test_pair_run_with_faces_beats_lower_pair_run():
    high = one("10S 10H J Q", "sequence", 11, 2)  # 10-10-J-J: the J stands as itself
    low = one("9S 9H 10S 10H", "sequence", 10, 2)
    assert beats(high, low) and not beats(low, high)
    # the same cards also make four 10s and the pair run 9-9-10-10
    assert shapes("10S 10H J Q") == {("set", 10, None), ("sequence", 10, 2), ("sequence", 11, 2)}


def test_three_five_seven_nine_bombs():
    assert combinations("3S 5S 7H 9D") == ()  # three suits: nothing at all
    assert combinations("3S 5S 7H 9H") == ()  # two suits
    assert shapes("3S 5H 7D 9C") == {("bomb", 1, None)}
    assert shapes("3M 5H 7D 9C") == {("bomb", 1, None)}
    assert shapes("3D 5D 7D 9D") == {("bomb", 6, None)}
    # a wild never completes a 3-5-7-9 bomb
    assert all(c.kind != "bomb" for c in combinations("3S 5H 7D J"))


def test_face_bombs_and_their_order():
    order = [
        one("3S 5H 7D 9C", "bomb", 1),
        one("J Q", "bomb", 2),
        one("J K", "bomb", 3),
        one("Q K", "bomb", 4),
        one("J Q K", "bomb", 5),
        one("3C 5C 7C 9C", "bomb", 6),
    ]
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            assert beats(a, b) == (i > j)
    assert combinations("J Q") == (Combo("bomb", 2, 2, None, (J, Q)),)


def test_faces_alone():
    assert shapes("J") == {("set", 11, None)}
    assert shapes("K") == {("set", 13, None)}
    assert combinations("J J") == ()  # two faces are never a pair
    assert shapes("J Q K") == {("bomb", 5, None)}  # J-Q-K is only a bomb


def test_wilds_stand_at_or_below_their_rank():
    # 9-10-J: the J stands as itself (taking the run's suit), or as an 8
    assert shapes("9S 10S J") == {("sequence", 11, 1), ("sequence", 10, 1)}
    # 10-J-Q-K: each face at its own rank
    assert ("sequence", 13, 1) in shapes("10H J Q K")
    assert {c.rank for c in combinations("10H J Q") if c.kind == "sequence"} == {12, 11, 10}
    # a J can never stand as a Q: two Js reach no higher than J
    assert {c.rank for c in combinations("10H J J") if c.kind == "sequence"} == {11, 10}
    # a lone face is a single of its own rank, never lower
    assert shapes("Q") == {("set", 12, None)}


def test_runs_need_one_suit_and_sets_any_suits():
    assert shapes("5S 6S 7S") == {("sequence", 7, 1)}
    assert combinations("5S 6H 7S") == ()
    assert shapes("5S 5H 5D") == {("set", 5, None)}
    assert shapes("5S 5H 6S 6H") == {("sequence", 6, 2)}
    assert combinations("5S 5H 6S 6D") == ()  # each rank must use the same suits
    assert combinations("5S 6S") == ()  # a run of single cards needs three


def test_width_is_capped_by_the_suits_in_play():
    five = "4S 4H 4D 4C 4M 5S 5H 5D 5C 5M"
    assert ("sequence", 5, 5) in shapes(five)
    assert shapes("4S 4H 4D 4C 5S 5H 5D J", suits=4) == {("sequence", 5, 4)}
    assert shapes("4S 4H 4D 4C 5S 5H 5D 5C J Q", suits=4) == set()
    assert ("sequence", 5, 5) in shapes("4S 4H 4D 4C 5S 5H 5D 5C J Q", suits=5)


def test_sets_with_wilds_can_exceed_the_suits():
    assert ("set", 8, None) in shapes("8S 8H 8D 8C J Q K", suits=4)
    assert one("8S 8H 8D 8C 8M J Q K", "set", 8).size == 8


def test_the_same_declaration_is_listed_once():
    # 5S J: the J stands for any 5; one declaration
    assert len(combinations("5S J")) == 1
    hand = parse_cards("2S 3S 4S 5S 6S 7H 7D 9C J Q K")
    got = declarations(hand, suits=4)
    assert len(got) == len(set(got))


def test_combo_cards_are_canonical():
    for c in declarations("K 9M 2S J 5H 5S Q 6S", suits=5):
        assert list(c.cards) == sorted(c.cards, key=lambda x: x.index)


def test_combo_names():
    assert one("9S 9H", "set", 9).name == "a pair"
    assert one("9S 10S J", "sequence", 11, 1).name == "a run of three"
    assert one("9S 9H 10S 10H", "sequence", 10, 2).name == "a run of two pairs"
    assert str(one("9S 9H", "set", 9)) == "two 9s: 9S 9H"


def test_bad_input():
    with pytest.raises(CardRulesError, match="twice"):
        combinations("5S 5S")
    with pytest.raises(CardRulesError, match="not a Haggis card"):
        combinations([Card(1, Suit.SPADES)])
    with pytest.raises(CardRulesError, match="suits"):
        combinations("5S", suits=3)
    assert combinations([]) == ()


# -- the oracles -------------------------------------------------------------------------


@st.composite
def shaped_groups(draw):
    """Groups likely to be combinations: cells of a random shape, some replaced by
    wilds, sometimes a stray card."""
    nsuits = draw(st.sampled_from([4, 5]))
    suits = list(Suit)[:nsuits]
    width = draw(st.integers(1, nsuits))
    lo = draw(st.integers(2, 10))
    length = draw(st.integers(1, 4))
    chosen = draw(st.permutations(suits))[:width]
    cells = [Card(r, s) for r in range(lo, min(lo + length, 11)) for s in chosen]
    keep = [c for c in cells if draw(st.integers(0, 4))][:14]  # combinations takes a hand's 14 at most
    wilds = draw(st.lists(st.sampled_from([J, Q, K]), max_size=3, unique=True))
    group = keep + wilds
    if draw(st.booleans()) and len(group) < 8:
        extra = draw(st.sampled_from([c for c in deck(3) if c not in group]))
        group.append(extra)
    return group, nsuits


@given(shaped_groups())
def test_combinations_agree_with_every_wild_assignment(case):
    group, nsuits = case
    got = combinations(group, suits=nsuits)
    assert len(got) == len(set(got))
    assert as_tuples(got) == exact_oracle(group, nsuits)


@given(st.randoms(use_true_random=False), st.sampled_from([2, 3]), st.integers(5, 17))
def test_declarations_agree_with_filling_every_shape(rnd, players, size):
    cards = list(deck(players))
    rnd.shuffle(cards)
    hand = cards[: max(0, size - 3)] + [J, Q, K][: min(3, size)]
    nsuits = 4 if players == 2 else 5
    got = declarations(hand, suits=nsuits)
    assert len(got) == len(set(got))
    assert as_tuples(got) == hand_oracle(hand, nsuits)


def test_fresh_hands_have_hundreds_of_declarations():
    rnd = random.Random(8)
    for players, nsuits in ((2, 4), (3, 5)):
        cards = list(deck(players))
        rnd.shuffle(cards)
        hand = [*cards[:14], J, Q, K]
        got = declarations(hand, suits=nsuits)
        assert as_tuples(got) == hand_oracle(hand, nsuits)
        assert 300 <= len(got) <= 3000


@given(st.randoms(use_true_random=False))
def test_declarations_of_a_smaller_hand_are_a_subsequence(rnd):
    """Incremental generation filters a bigger hand's list: it must give exactly what
    generating from scratch gives, in the same order."""
    cards = list(deck(2))
    rnd.shuffle(cards)
    hand = [*cards[:14], J, Q, K]
    big = declarations(hand, suits=4)
    small_hand = rnd.sample(hand, rnd.randint(3, 16))
    small = declarations(small_hand, suits=4)
    kept = set(small_hand)
    assert [c for c in big if set(c.cards) <= kept] == list(small)


def test_small_hands_against_every_subgroup():
    rnd = random.Random(3)
    for _ in range(12):
        cards = list(deck(3))
        rnd.shuffle(cards)
        hand = cards[: rnd.randint(1, 4)] + rnd.sample([J, Q, K], rnd.randint(0, 3))
        union = set()
        for mask in range(1, 1 << len(hand)):
            union |= exact_oracle([c for i, c in enumerate(hand) if mask >> i & 1], 5)
        assert as_tuples(declarations(hand)) == union


@given(st.randoms(use_true_random=False), st.sampled_from([2, 3]))
def test_following_generates_exactly_what_beats_the_table(rnd, players):
    """Following is generated directly (not by filtering); it must be exactly the
    declarations of the hand that beat the table."""
    from cardrules.haggis.combos import following_plays

    nsuits = 4 if players == 2 else 5
    cards = list(deck(players))
    rnd.shuffle(cards)
    hand = cards[: rnd.randint(3, 14)] + rnd.sample([J, Q, K], rnd.randint(0, 3))
    other = [*cards[14:28], J, Q, K]
    tops = declarations(other, suits=nsuits)
    mine = declarations(hand, suits=nsuits)
    for top in rnd.sample(tops, 8) + [c for c in mine if c.kind == "bomb"]:
        got = [p.combo for p in following_plays(hand, nsuits, top)]
        assert len(got) == len(set(got))
        assert set(got) == {c for c in mine if beats(c, top)}


@given(st.randoms(use_true_random=False))
def test_beats_is_a_strict_order_within_a_shape(rnd):
    cards = list(deck(3))
    rnd.shuffle(cards)
    combos = rnd.sample(declarations([*cards[:14], J, Q, K]), 30)
    for a in combos:
        assert not beats(a, a)
        for b in combos:
            if beats(a, b):
                assert not beats(b, a)
                for c in combos:
                    if beats(b, c) and (a.kind == "bomb") == (c.kind == "bomb"):
                        assert beats(a, c)


def test_fast_and_plain_construction_agree():
    """Interned plays are built by setting slots directly; the plain attrs constructor
    (the fallback) must give equal values."""
    from cardrules.haggis.combos import Play, combo_key, make_play, play_of_key

    for c in declarations("2S 3S 4S 4H 5H 9M 10M J Q K"):
        made = make_play(c.kind, c.rank, c.size, c.width, c.cards)
        built = play_of_key(combo_key(c), plays={}, nums={})  # the key decoded, outside the tables
        for p in (made, built):
            assert p == Play(c) and hash(p) == hash(Play(c)) and repr(p) == repr(Play(c))


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: beats(None, None), "two Combo objects"),
        (lambda: combinations(None), "takes cards"),
        (lambda: declarations(5), "takes cards"),
        (lambda: game_over((), 250), "scores"),
    ],
)
def test_wrong_arguments_are_card_rules_errors(call, words):
    # api.md: never a bare AttributeError/TypeError/ValueError from inside the library
    with pytest.raises(CardRulesError, match=words):
        call()


@st.composite
def wild_heavy_groups(draw):
    """Groups given to combinations with several of a face (decision 10: up to three
    each), so that runs of sets may need two or three all-wild columns."""
    nsuits = draw(st.sampled_from([4, 5]))
    suits = list(Suit)[:nsuits]
    lo = draw(st.integers(2, 10))
    length = draw(st.integers(1, 4))
    chosen = draw(st.permutations(suits))[: draw(st.integers(1, nsuits))]
    cells = [Card(r, s) for r in range(lo, min(lo + length, 11)) for s in chosen]
    keep = [c for c in cells if draw(st.integers(0, 3))][:14]  # combinations takes a hand's 14 at most
    wilds = [f for f in (J, Q, K) for _ in range(draw(st.integers(0, 3)))]
    return keep + wilds, nsuits


def test_the_matching_oracle_agrees_with_the_assignment_oracle():
    # the two references, on groups small enough for trying every wild assignment
    rng = random.Random(4)
    for _ in range(300):
        nsuits = rng.choice([4, 5])
        pool = [c for c in deck(2 if nsuits == 4 else 3) if c.suit is not None]
        group = rng.sample(pool, rng.randint(1, 4)) + rng.sample([J, Q, K], rng.randint(0, 2))
        assert matching_oracle(group, nsuits) == exact_oracle(group, nsuits), group


@given(wild_heavy_groups())
def test_combinations_with_several_of_a_face_agree_with_the_matching_oracle(case):
    group, nsuits = case
    got = combinations(group, suits=nsuits)
    assert len(got) == len(set(got))
    assert as_tuples(got) == matching_oracle(group, nsuits)


def test_two_all_wild_columns():
    # found by an audit: 4H 5H with J J Q K is also two triples to 5 (two columns all wild)
    got = [c.describe() for c in combinations("4H 5H J Q K J")]
    assert "a run of two triples to 5" in got


@given(st.randoms(use_true_random=False), st.sampled_from([2, 3]))
def test_the_caches_never_change_an_answer(rnd, players):
    """Declarations are assembled from pieces cached by the cards they depend on (and a
    step trusts the plays it interned): with every cache emptied first, or warm from other
    hands, every list is the same, in the same order, and the plays are equal."""
    from cardrules.haggis.combos import clear_caches, following_plays

    nsuits = 4 if players == 2 else 5
    cards = list(deck(players))
    hands = []
    for _ in range(4):
        rnd.shuffle(cards)
        hands.append(cards[: rnd.randint(3, 14)] + rnd.sample([J, Q, K], rnd.randint(0, 3)))
    tops = [rnd.choice(declarations(h, suits=nsuits)) for h in hands]

    def answers(order):
        got = {
            i: (
                declarations(hands[i], suits=nsuits),
                [[p.combo for p in following_plays(hands[i], nsuits, t)] for t in tops],
            )
            for i in order
        }
        return [got[i] for i in range(len(hands))]

    warm = answers(range(4))
    clear_caches()
    assert answers(range(4)) == warm
    clear_caches()
    assert answers(reversed(range(4))) == warm  # caches filled in another order


def test_threads_emptying_the_caches_change_no_answer():
    """Threads share the caches; one emptying them while others read must not change
    (nor break) any list."""
    import threading

    from cardrules.haggis.combos import clear_caches

    rnd = random.Random(11)
    cards = list(deck(2))
    hands = []
    for _ in range(6):
        rnd.shuffle(cards)
        hands.append([*cards[:14], J, Q, K])
    want = [declarations(h, suits=4) for h in hands]
    errors = []
    stop = threading.Event()

    def read():
        try:
            for _ in range(15):
                for h, w in zip(hands, want, strict=True):
                    if declarations(h, suits=4) != w:
                        errors.append("a list changed")
        except Exception as exc:  # reported below
            errors.append(repr(exc))

    def empty():
        while not stop.is_set():
            clear_caches()

    readers = [threading.Thread(target=read) for _ in range(3)]
    emptier = threading.Thread(target=empty)
    emptier.start()
    for t in readers:
        t.start()
    for t in readers:
        t.join()
    stop.set()
    emptier.join()
    assert not errors, errors[:3]
