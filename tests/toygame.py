"""A tiny game written on the shared protocol, used to test the protocol on its own.

"Highcard": two players, the six cards AS..6S.  A shuffle deals three each (order[0],
order[2], order[4] to player 0).  Player 0 plays, then player 1; the higher rank scores a
point; after three rounds the game ends.  It also shows how small a game module can be.
"""

from __future__ import annotations

import attrs

from cardrules import CHANCE, Card, IllegalActionError, RulesError, Shuffle, Suit, canonical
from cardrules.protocol import GameDef, register_game


@attrs.frozen
class Rules:
    cards: int = attrs.field(default=6)

    @cards.validator
    def _check(self, attribute: object, value: int) -> None:
        if value not in (2, 4, 6):
            raise RulesError("highcard deals 2, 4 or 6 cards")


@attrs.frozen
class Play:
    card: Card


@attrs.frozen
class State:
    rules: Rules
    players: int
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    scores: tuple[int, ...]
    to_act: object
    history: tuple[object, ...]
    seed: object = attrs.field(default=None, eq=False)

    @property
    def is_over(self) -> bool:
        return self.to_act is None

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        best = max(self.scores)
        return tuple(p for p, s in enumerate(self.scores) if s == best)


def _deck(rules: Rules) -> tuple[Card, ...]:
    return tuple(Card(r, Suit.SPADES) for r in range(1, rules.cards + 1))


def start(rules: Rules, players: int) -> State:
    return State(rules, players, ((), ()), (), (0, 0), CHANCE, ())


def chance_cards(state: State) -> tuple[Card, ...]:
    return _deck(state.rules)


def deal(state: State, shuffle: Shuffle) -> State:
    o = shuffle.order
    hands = (canonical(o[0::2]), canonical(o[1::2]))
    return attrs.evolve(state, hands=hands, to_act=0, history=(*state.history, shuffle))


def legal_actions(state: State) -> tuple[Play, ...]:
    if not isinstance(state.to_act, int):
        return ()
    return tuple(Play(c) for c in state.hands[state.to_act])


def step(state: State, action: object) -> State:
    p = state.to_act
    assert isinstance(p, int)
    if not isinstance(action, Play) or action.card not in state.hands[p]:
        raise IllegalActionError(f"{getattr(action, 'card', action)} is not in your hand")
    hands = list(state.hands)
    hands[p] = tuple(c for c in hands[p] if c is not action.card)
    table = (*state.table, action.card)
    scores = state.scores
    to_act: object = 1 - p
    if len(table) == 2:
        w = 0 if table[0].rank > table[1].rank else 1
        scores = tuple(s + (i == w) for i, s in enumerate(scores))
        table = ()
        to_act = 0 if hands[0] else None
    return State(state.rules, 2, tuple(hands), table, scores, to_act,
                 (*state.history, action), state.seed)


def view(state: State, player: int) -> tuple[Card, ...]:
    return state.hands[player]


GAME = GameDef(
    "highcard",
    rules_type=Rules,
    state_type=State,
    action_types=(Play,),
    player_counts=(2,),
    default_players=2,
    start=start,
    legal_actions=legal_actions,
    step=step,
    chance_cards=chance_cards,
    deal=deal,
    view=view,
    module=__name__,
)
register_game(GAME)
