"""An independent reference for a round of New Eleusis, written the plain way.

The engine is a pure function of immutable states with a queue of pending work; this
reference is a mutable object whose whole round is one generator, written straight from
spec/eleusis.md: it yields what it waits for (a shuffle, a player's action) and receives
it.  Random rounds (strings included) are replayed through both and compared after every
action: hands, lines, stock, counts, prophet, expelled, who acts, and the scores.
"""

import random

import pytest

from cardrules import CHANCE, Shuffle, canonical, standard_deck
from cardrules import eleusis as E

DECK = standard_deck()


class Reference:
    def __init__(self, rules, players):
        self.rules, self.n = rules, players
        self.hands = [[] for _ in range(players)]
        self.stock, self.main, self.sides = [], [], []
        self.count, self.prophet, self.marker = 0, None, None
        self.former, self.expelled = [], []
        self.waiting = None
        self.game = self.round()
        self.waiting = next(self.game)

    def send(self, action):
        try:
            self.waiting = self.game.send(action)
        except StopIteration:
            self.waiting = None

    # -- the round, as the spec tells it ----------------------------------------------

    def round(self):
        r, s = self.rules, self.n - 1
        order = list((yield ("chance", canonical(DECK * r.decks))).order)
        for i in range(s * r.hand_size):
            self.hands[i % s + 1].append(order[i])
        deck, rejected = order[s * r.hand_size :], []
        while True:
            while deck and not r.secret.accepts_start(deck[0]):
                rejected.append(deck.pop(0))
            if deck:
                break
            self.stock = rejected
            deck, rejected = list((yield ("chance", DECK)).order), []
            rejected_before = self.stock
            self.stock = []
            rejected = rejected_before + rejected
        starter = deck.pop(0)
        self.main = [starter]
        self.stock = deck + rejected
        turn = (starter.rank - 1) % s + 1
        while True:
            action = yield ("act", turn)
            call = (yield ("judge", self.prophet)) if self.prophet is not None else None
            sudden = (
                self.count - self.marker >= r.sudden_death_prophet
                if self.prophet is not None
                else self.count >= r.sudden_death
            )
            draws, reshuffle_to = [], None
            if isinstance(action, E.Play):
                cards = list(action.cards)
                line, right = list(self.main), True
                for c in cards:
                    if not r.secret.accepts(line, c):
                        right = False
                        break
                    line.append(c)
                overthrown = call is not None and call.right != right
                for c in cards:
                    self.hands[turn].remove(c)
                self.count += len(cards)
                if right:
                    self.main += cards
                else:
                    self.sides.append((len(self.main) - 1, tuple(cards)))
                    if not overthrown:
                        if sudden:
                            self.expelled.append(turn)
                        else:
                            draws.append((turn, r.penalty * len(cards)))
            else:
                rights = [c for c in DECK if c in self.hands[turn] and r.secret.accepts(self.main, c)]
                if call is None:
                    overthrown = False
                elif call.right:
                    overthrown = bool(rights)
                else:
                    overthrown = not (rights and call.card in rights)
                if not rights:
                    reshuffle_to = len(self.hands[turn]) - r.no_play_shrink
                else:
                    card = call.card if call is not None and not overthrown and not call.right else rights[0]
                    self.hands[turn].remove(card)
                    self.main.append(card)
                    self.count += 1
                    if not overthrown:
                        if sudden:
                            self.expelled.append(turn)
                        else:
                            draws.append((turn, r.no_play_penalty))
            if overthrown:
                draws.insert(0, (self.prophet, r.overthrow_penalty))
                self.prophet = self.marker = None
                self.marker_main = self.marker_side = None
            for who, k in draws:
                for _ in range(k):
                    if not self.stock:
                        self.stock = list((yield ("chance", DECK)).order)
                    self.hands[who].append(self.stock.pop(0))
            if self.over():
                return
            if reshuffle_to is not None:
                if reshuffle_to <= 0:
                    self.stock += canonical(self.hands[turn])  # the engine keeps hands sorted
                    self.hands[turn] = []
                    return
                order = list((yield ("chance", canonical(self.stock + self.hands[turn]))).order)
                self.hands[turn], self.stock = order[:reshuffle_to], order[reshuffle_to:]
            if (
                isinstance(action, E.Play)
                and r.prophets
                and self.prophet is None
                and turn not in self.expelled
                and turn not in self.former
                and sum(1 for p in range(1, self.n) if p != turn and p not in self.expelled) >= 2
            ):
                answer = yield ("offer", turn)
                if isinstance(answer, E.BecomeProphet):
                    self.prophet, self.marker = turn, self.count
                    self.marker_main = len(self.main)
                    self.marker_side = sum(len(c) for _, c in self.sides)
                    self.former.append(turn)
            while True:
                turn = turn % s + 1
                if turn != self.prophet and turn not in self.expelled:
                    break

    def over(self):
        if any(not self.hands[p] for p in range(1, self.n)):
            return True
        return len(self.expelled) + (self.prophet is not None) == self.n - 1

    def scores(self):
        held = [len(self.hands[p]) for p in range(1, self.n)]
        high = max(held)
        sci = [high - k + (4 if k == 0 else 0) for k in held]
        god = max(sci)
        if self.prophet is not None:
            sides = sum(len(c) for _, c in self.sides)
            sci[self.prophet - 1] += len(self.main) - self.marker_main + 2 * (sides - self.marker_side)
            god = min(max(sci), 2 * self.marker)
        return (god, *sci)


def same(state, ref):
    w = ref.waiting
    if w is None:
        assert state.is_over and state.scores == ref.scores()
    elif w[0] == "chance":
        assert state.to_act is CHANCE and E.GAME.chance_cards(state) == tuple(w[1])
    else:
        assert (
            state.to_act == w[1] and state.phase == {"act": "turn", "judge": "judge", "offer": "offer"}[w[0]]
        )
    assert [sorted(h, key=lambda c: c.index) for h in ref.hands] == [list(h) for h in state.hands]
    assert tuple(ref.main) == state.main and tuple(ref.sides) == state.sides
    if w is None or w[0] != "chance":
        assert tuple(ref.stock) == state.stock
    assert ref.count == state.count and ref.prophet == state.prophet
    assert tuple(ref.expelled) == state.expelled and tuple(ref.former) == state.former_prophets


RULESETS = [
    {},
    {"sudden_death": 6, "sudden_death_prophet": 3},
    {"hand_size": 5, "penalty": 3, "no_play_shrink": 2, "sudden_death": 12},
    {"decks": 1, "hand_size": 6, "sudden_death": 40, "sudden_death_prophet": 30},
    {
        "decks": 1,
        "hand_size": 7,
        "secret": 'rule "AS": start: card.rank == 1 and card.suit == spades play: card.color != prev.color',
    },
    {"secret": 'rule "aces": start: card is ace play: card.rank >= prev.rank or card is ace'},
    {"secret": "card.suit == prev.suit or card.rank == prev.rank", "prophets": False},
    {"secret": "card is red", "max_string": 2},
    {"secret": "card.rank == prev.rank", "no_play_shrink": 1, "sudden_death": 60, "sudden_death_prophet": 40},
    {"secret": "card.rank == prev.rank", "hand_size": 6, "sudden_death": 60},
]


@pytest.mark.parametrize("opts", RULESETS, ids=range(len(RULESETS)))
@pytest.mark.parametrize("players", [3, 5, 8])
def test_random_rounds_match_the_reference(opts, players):
    opts = dict(opts)
    if "secret" in opts:
        opts["secret"] = E.compile_rule(opts["secret"])
    rules = E.Rules(**opts)
    for game in range(8):
        rng = random.Random(f"{players}:{game}:{sorted(opts)}")
        state = E.new_game(rules, players=players)
        ref = Reference(rules, players)
        same(state, ref)
        for _ in range(3000):
            if state.is_over:
                break
            if state.to_act is CHANCE:
                order = list(E.GAME.chance_cards(state))
                rng.shuffle(order)
                action = Shuffle(tuple(order))
            else:
                actions = E.legal_actions(state)
                hand = state.hands[state.to_act]
                if state.phase == "turn" and len(hand) >= 2 and rng.random() < 0.25:
                    n = rng.randint(2, min(len(hand), rules.max_string))
                    action = E.Play(tuple(rng.sample(hand, n)))
                else:
                    action = actions[rng.randrange(len(actions))]
            state = E.apply(state, action)
            ref.send(action)
            same(state, ref)
        assert state.is_over
