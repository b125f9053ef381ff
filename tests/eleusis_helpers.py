"""Stacked decks and small helpers for the Eleusis tests."""

from collections import Counter

from cardrules import Shuffle, canonical, chance_cards, parse_card, parse_cards, standard_deck
from cardrules import eleusis as E


def rule(text):
    return E.compile_rule(text)


def start_rule(start, play):
    """A named rule with a start: clause."""
    return E.compile_rule(f'rule "stacked":\n    start: {start}\n    play: {play}\n')


def deal_order(hands, starter="", stock="", decks=2):
    """The Shuffle that deals ``hands`` (one string per scientist), then ``starter``,
    then ``stock`` on top of the stock; the rest of the cards follow in canonical order."""
    hands = [parse_cards(h) for h in hands]
    n, size = len(hands), len(hands[0])
    assert all(len(h) == size for h in hands)
    order = [hands[i % n][i // n] for i in range(n * size)]
    order += parse_cards(starter) + parse_cards(stock)
    full = Counter({c: decks for c in standard_deck()})
    rest = full - Counter(order)
    assert sum(Counter(order).values()) + sum(rest.values()) == 52 * decks, "more cards than the decks hold"
    return Shuffle((*order, *canonical(rest.elements())))


def game(hands, starter, stock="", secret=None, **opts):
    """A round dealt from a stacked deck: ``hands`` one string per scientist."""
    size = len(parse_cards(hands[0]))
    kwargs = {"hand_size": size, **opts}
    if secret is not None:
        kwargs["secret"] = secret if isinstance(secret, E.Rule) else rule(secret)
    rules = E.Rules(**kwargs)
    state = E.new_game(rules, players=len(hands) + 1)
    return E.apply(state, deal_order(hands, starter, stock, rules.decks))


def play(state, text):
    return E.apply(state, E.Play(parse_cards(text)))


def fresh(state, top=""):
    """Resolve a fresh-deck chance node with ``top`` on top, the rest canonical."""
    cards = chance_cards(state)
    first = parse_cards(top)
    rest = Counter(cards) - Counter(first)
    return E.apply(state, Shuffle((*first, *canonical(rest.elements()))))


def hand(state, p):
    return " ".join(map(str, state.hands[p]))


def line(state):
    return " ".join(map(str, state.main))


def card(text):
    return parse_card(text)


def total_cards(state):
    return sum(len(h) for h in state.hands) + len(state.stock) + len(state.main) + state.side_cards
