"""What tests/pyodide/run.mjs runs inside Pyodide (CPython compiled to WebAssembly), with
the pure-Python wheel of cardrules installed: a rule compiled and judged, every game
played to its end, a JSON round trip and a science round.  It prints one line per check
and raises at the first that fails.  Under CPython it does nothing when imported."""

from __future__ import annotations

import random
import sys

import cardrules
from cardrules import GAMES, _hotloops, from_json, parse_card, parse_cards, to_json
from cardrules.eleusis import Scientist, compile_rule, play_science


def main() -> None:
    assert sys.platform == "emscripten", sys.platform
    assert _hotloops.IMPLEMENTATION == "Python", _hotloops.IMPLEMENTATION
    print(f"cardrules {cardrules.__version__} on Python {sys.version.split()[0]} ({sys.platform}), pure Python")

    rule = compile_rule("card.color != prev.color")
    assert rule.accepts(parse_cards("5H"), parse_card("7C"))
    assert not rule.accepts(parse_cards("5H"), parse_card("9D"))
    print("rule: compiled and judged")

    for name in ("aegis", "gunsore", "eleusis", "haggis"):
        game = GAMES[name]
        rng = random.Random(1)
        state = game.new_game(seed=7)
        moves = 0
        while not state.is_over:
            actions = game.legal_actions(state)
            state = game.apply(state, actions[rng.randrange(len(actions))])
            moves += 1
        again = from_json(to_json(state))
        assert again == state, name
        assert to_json(again) == to_json(state), name
        print(f"{name}: played to the end in {moves} moves, scores {list(state.scores)}; JSON round trip")

    result = play_science(compile_rule("card.color != prev.color"), Scientist(seed=3, time_per_move=30), seed=3)
    assert result.solved, result
    print(f"science round: solved at turn {result.turns}, score {result.score}")
    print("pyodide: all checks passed")


if __name__ == "__main__":  # run by run.mjs; pytest only imports it
    main()
