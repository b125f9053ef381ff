"""``GameDef.public_view`` and ``describe_public``: what someone at no seat (a web table's
spectator) may see and be told.  Over random games of the four games, at every state:
the public view holds no card of any hand, and every card it holds is in every player's
own view; each public line holds only cards every player's own line holds."""

from __future__ import annotations

import json
import random
import re

import pytest
import toygame

from cardrules import GAMES
from cardrules.codec import encode_value

CARD = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")
SHORT = {
    "aegis": {"target": 5},
    "gunsore": {"hand_size": 3},
    "haggis": {"target": 20},
    "eleusis": {"hand_size": 5, "sudden_death": 10, "sudden_death_prophet": 8},
}


def cards_in(value: object) -> set[str]:
    return set(CARD.findall(json.dumps(encode_value(value))))


@pytest.mark.parametrize("game", sorted(SHORT))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_public_view_shows_what_every_player_sees_and_no_hand(game, seed):
    g = GAMES[game]
    assert g.has_public_view
    rng = random.Random(seed)
    st = g.new_game(g.Rules(**SHORT[game]), seed=seed)
    states = 0
    while not st.is_over:
        public = g.public_view(st)
        assert type(public) is g.view_type and public.hand == ()
        views = [g.view(st, p) for p in range(st.players)]
        shown = cards_in(public)
        every = set.intersection(*(cards_in(v) for v in views))
        assert shown <= every, sorted(shown - every)
        if game == "eleusis":
            assert public.rule is None and views[0].rule is not None
        if game == "aegis":
            assert public.discarded == ()
        legal = g.legal_actions(st)
        action = legal[rng.randrange(len(legal))]
        line = g.describe_public(st, action)
        told = set.intersection(*(set(CARD.findall(g.describe_for(st, action, p))) for p in range(st.players)))
        assert set(CARD.findall(line)) <= told, line
        st = g.apply(st, action)
        states += 1
    assert states > 5


def test_the_check_can_fail():
    # a player's own view holds its hand, which some other player does not see
    g = GAMES["haggis"]
    st = g.new_game(g.Rules(**SHORT["haggis"]), seed=1)
    every = set.intersection(*(cards_in(g.view(st, p)) for p in range(st.players)))
    assert cards_in(g.view(st, 0)) - every


def test_an_opponent_s_exchange_is_told_without_its_cards():
    g = GAMES["aegis"]
    st = g.new_game(g.Rules(target=5), seed=3)
    exchange = next(a for a in g.legal_actions(st) if type(a).__name__ == "Exchange" and a.cards)
    line = g.describe_public(st, exchange)
    cards = set(map(str, exchange.cards))
    assert not cards & set(CARD.findall(line)) and re.search(r"exchanges \d+ cards?", line)
    assert cards <= set(CARD.findall(g.describe(st, exchange)))


def test_a_game_without_a_public_view_shows_none():
    g = toygame.GAME
    assert not g.has_public_view
    st = g.new_game(seed=1)
    assert g.public_view(st) is None
    assert g.describe_public(st, g.legal_actions(st)[0]) == g.describe(st, g.legal_actions(st)[0])
    with pytest.raises(TypeError):
        g.public_view("not a state")
