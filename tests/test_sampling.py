"""State samplers: ``GAMES[name].sample_state(view)`` gives whole states that agree with
the view, keep every card the player has seen where it was seen, deal the hidden cards
(uniformly when only counts are known) and can be played on."""

import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules import CHANCE, GAMES, CardRulesError, Shuffle, parse_cards
from cardrules.agents import RandomAgent
from cardrules.protocol import GAME_NAMES
from cardrules.sampling import SampleError

CASES = sorted({(g, n) for g in GAME_NAMES for n in (min(GAMES[g].player_counts), max(GAMES[g].player_counts))})


def hidden(name, state, p):
    """The multiset of cards player ``p`` cannot see, from the true state (an
    independent statement of each game's rules on what is hidden)."""
    if name == "aegis":
        o = 1 - p
        mine = set(GAMES["aegis"].view(state, p).discarded)
        return Counter([*state.hands[o], *state.stock, *(c for c in state.discards if c not in mine)])
    if name == "gunsore":
        return Counter([*state.hands[1 - p], *state.stock])
    if name == "haggis":
        return Counter([*(c for q, h in enumerate(state.hands) if q != p for c in h if c.suit is not None),
                        *state.haggis])
    pending = state.pending.cards if state.phase == "judge" and hasattr(state.pending, "cards") else ()
    shown = state.turn if state.phase == "judge" and not pending else None
    out = Counter()
    for q, h in enumerate(state.hands):
        if q not in (p, shown):
            out.update(h)
    if state.turn != p:
        out.subtract(pending)
    out.update(state.stock)
    return +out


def random_state(name, players, seed, steps):
    g = GAMES[name]
    state = g.new_game(players=players, seed=seed)
    agent = RandomAgent(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = g.apply(state, agent(None, g.legal_actions(state)))
    return state


@pytest.mark.parametrize("name, players", CASES)
@settings(max_examples=15)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 300), who=st.integers(0, 7), k=st.integers(0, 10**6))
def test_a_sample_agrees_with_the_view_and_plays_on(name, players, seed, steps, who, k):
    g = GAMES[name]
    state = random_state(name, players, seed, steps)
    p = who % players
    v = g.view(state, p)
    sample = g.sample_state(v, seed=k, rules=state.rules)
    assert type(sample) is type(state)
    assert g.view(sample, p) == v
    assert sample.hands[p] == state.hands[p]
    assert hidden(name, sample, p) == hidden(name, state, p), "the same cards are hidden, placed anew"
    assert sample.to_act == state.to_act and sample.scores == state.scores
    # play goes on from the sample as from any state
    rng = random.Random(k)
    for _ in range(30):
        if sample.is_over:
            break
        if sample.to_act is CHANCE:
            order = list(g.chance_cards(sample))
            rng.shuffle(order)
            sample = g.apply(sample, Shuffle(tuple(order)))
            continue
        sample = g.apply(sample, rng.choice(g.legal_actions(sample)))


@pytest.mark.parametrize("name, players", CASES)
def test_samples_are_reproducible_and_vary(name, players):
    g = GAMES[name]
    state = random_state(name, players, 7, 12)
    p = 1 if name == "eleusis" else state.to_act
    v = g.view(state, p)
    assert g.sample_state(v, seed=3, rules=state.rules) == g.sample_state(v, seed=3, rules=state.rules)
    draws = {g.sample_state(v, seed=s, rules=state.rules) for s in range(6)}
    assert len(draws) > 1, "hidden cards are dealt anew"


@settings(max_examples=20)
@given(seed=st.integers(0, 10**6), steps=st.integers(12, 60))
def test_aegis_sample_respects_the_suits_an_opponent_lacks(seed, steps):
    g = GAMES["aegis"]
    state = random_state("aegis", 2, seed, steps)
    for p in (0, 1):
        v = g.view(state, p)
        void = {t.cards[0].suit for t in v.played if t.leader == p and t.cards[1].suit is not t.cards[0].suit}
        for k in range(5):
            sample = g.sample_state(v, seed=k)
            assert not [c for c in sample.hands[1 - p] if c.suit in void]


def _chi2_upper(df, z=3.72):
    """The chi-square quantile with about 1e-4 above it (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _uniformity(g, state, p, place, n_samples):
    """Chi-square statistic of how often each unseen card lands in ``place(sample)``
    against a uniform placement, and its degrees of freedom."""
    v = g.view(state, p)
    truth_hidden = hidden(g.name, state, p)
    size = len(place(state))
    total = sum(truth_hidden.values())
    draw = g.sampler(v, rules=state.rules)
    rng = random.Random(1)
    counts = Counter()
    for _ in range(n_samples):
        counts.update(place(draw(rng)))
    stat = 0.0
    for card, mult in truth_hidden.items():
        e = n_samples * size * mult / total
        stat += (counts[card] - e) ** 2 / e
    return stat, len(truth_hidden) - 1


def test_aegis_opponent_card_is_uniform_near_the_end_of_a_season():
    # A stacked season, played to its last trick: the opponent holds one card, the rest
    # of the unseen cards are the stock and its discards.
    g = GAMES["aegis"]
    from cardrules import aegis

    state = g.new_game()
    deck = list(g.chance_cards(state))
    state = g.apply(state, Shuffle(tuple(parse_cards("KS 2S")) + tuple(c for c in deck if str(c) not in ("KS", "2S"))))
    assert state.master == 0
    key = parse_cards("2C")
    m = parse_cards("AS KS QS JS 10S")
    s = parse_cards("2H 3H 4H 5H 6D")
    rest = [c for c in deck if c not in (*key, *m, *s)]
    order = [*key, *(c for pair in zip(m, s, strict=True) for c in pair), *rest]
    state = g.apply(state, Shuffle(tuple(order)))
    state = g.apply(state, aegis.Exchange(()))
    state = g.apply(state, aegis.Bid(1))
    state = g.apply(state, aegis.Bid(1))
    for _ in range(4):  # master leads spades, the slave cannot follow: void in spades
        state = g.apply(state, g.legal_actions(state)[0])
        state = g.apply(state, g.legal_actions(state)[0])
    assert len(state.hands[1]) == 1 and state.to_act == 0
    # the slave showed it has no spades: no spade may be dealt to it
    v = g.view(state, 0)
    draw = g.sampler(v)
    rng = random.Random(2)
    assert all(c.suit.name != "SPADES" for _ in range(300) for c in draw(rng).hands[1])
    # among the cards it may hold, uniform
    allowed = Counter(c for c in hidden("aegis", state, 0) if c.suit.name != "SPADES")
    counts = Counter()
    n = 6000
    for _ in range(n):
        counts.update(draw(rng).hands[1])
    e = n / sum(allowed.values())
    chi = sum((counts[c] - e) ** 2 / e for c in allowed)
    assert chi < _chi2_upper(len(allowed) - 1), chi


@pytest.mark.parametrize("name, players", [("gunsore", 2), ("haggis", 2), ("haggis", 3), ("eleusis", 3)])
def test_hidden_cards_are_uniform_when_only_counts_are_known(name, players):
    g = GAMES[name]
    state = random_state(name, players, 21, 40)
    p = 1 if name == "eleusis" else state.to_act
    if name == "haggis":
        other = (p + 1) % players
        place = lambda s: [c for c in s.hands[other] if c.suit is not None]  # noqa: E731
    elif name == "gunsore":
        place = lambda s: s.hands[1 - p]  # noqa: E731
    else:
        other = 2 if p == 1 else 1
        place = lambda s: s.hands[other]  # noqa: E731
    stat, df = _uniformity(g, state, p, place, 3000)
    # each card's count is binomial (the cards of one hand are negatively correlated,
    # which only makes the statistic smaller): a chi-square bound holds
    assert stat < _chi2_upper(df), (stat, df)


def test_an_impossible_view_is_a_clear_error():
    import attrs

    g = GAMES["gunsore"]
    state = random_state("gunsore", 2, 3, 10)
    v = g.view(state, 0)
    with pytest.raises(SampleError):
        g.sample_state(attrs.evolve(v, stock_size=v.stock_size + 5))
    assert issubclass(SampleError, CardRulesError)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_sample_has_no_past_so_json_refuses_it_clearly(name):
    from cardrules import StateFormatError, from_json, to_json

    g = GAMES[name]
    state = g.new_game(seed=3)
    p = 1 if name == "eleusis" else state.to_act
    sample = g.sample_state(g.view(state, p), seed=1)
    assert sample.history == () and sample.seed is None
    with pytest.raises(StateFormatError, match="no history"):
        to_json(sample)
    start = g.new_game()
    assert from_json(to_json(start)) == start  # a new game has no history and is stored


# -- the shared shuffle -----------------------------------------------------------------


def _reference_shuffled(seed: int, items: list[object]) -> list[object]:
    """``sampling.shuffled`` written out from its documentation: ``n - 1`` big-endian
    64-bit draws from one ``randbytes`` call, Fisher-Yates from the last position down."""
    import struct

    out = list(items)
    n = len(out)
    if n < 2:
        return out
    draws = struct.unpack(f">{n - 1}Q", random.Random(seed).randbytes(8 * (n - 1)))
    for t, i in enumerate(range(n - 1, 0, -1)):
        j = draws[t] % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(0, 120))
def test_shuffled_is_the_documented_fisher_yates(seed: int, n: int) -> None:
    from cardrules.sampling import shuffled

    items = [object() for _ in range(n)]
    before = list(items)
    got = shuffled(random.Random(seed), items)
    assert items == before  # the argument is left as it was
    assert got == _reference_shuffled(seed, items)
    assert sorted(map(id, got)) == sorted(map(id, items))


def test_shuffled_is_the_same_without_the_c_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules import _hotloops, sampling

    deck = list(parse_cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2H 3H 4H"))
    with_c = [sampling.shuffled(random.Random(s), deck) for s in range(50)]
    monkeypatch.setattr(sampling, "fisher_yates", _hotloops.fisher_yates_py)
    assert [sampling.shuffled(random.Random(s), deck) for s in range(50)] == with_c


def test_shuffled_orders_are_uniform() -> None:
    from cardrules.sampling import shuffled

    rng = random.Random(11)
    n = 24_000
    counts = Counter(tuple(shuffled(rng, "abcd")) for _ in range(n))
    assert len(counts) == 24  # every order of four items
    e = n / 24
    chi = sum((k - e) ** 2 / e for k in counts.values())
    assert chi < _chi2_upper(23), chi
