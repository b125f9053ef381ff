"""Regenerate the stored OpenSpiel playthroughs (``python tests/integrations/make_playthroughs.py``).

Each file is OpenSpiel's ``generate_playthrough.playthrough`` of one game, with a fixed
random seed, on the smallest rules that still play a whole game (a full Aegis or Haggis
game to 25 or 250 points would make files of megabytes): one Aegis season (``target=1``),
Gunsore with hands of two, one Haggis hand (``target=1``), and Eleusis for
three players with hands of two and sudden death after two cards.  The tensors make the
text long (every displayed state prints each player's tensors, mostly zeros), so each
file is stored gzip-compressed (``<game>.txt.gz``, about 20 times smaller).  The test
``tests/test_integrations_playthroughs.py`` replays each file's actions and compares the
regenerated text with the stored one.
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

HERE = Path(__file__).parent / "playthroughs"

#: file name -> (game string, seed)
PLAYTHROUGHS = {
    "aegis.txt.gz": ("python_cardrules_aegis(players=2,target=1,max_exchanges=1)", 1),
    "gunsore.txt.gz": ("python_cardrules_gunsore(players=2,hand_size=2)", 1),
    "haggis.txt.gz": ("python_cardrules_haggis(players=2,target=1,bets=)", 1),
    "eleusis.txt.gz": (
        "python_cardrules_eleusis(players=3,hand_size=2,decks=1,sudden_death=2,"
        "sudden_death_prophet=1,max_string=1,prophets=False)",
        1,
    ),
}


def generate(game_string: str, seed: int | None, actions: list[int] | None = None) -> str:
    """OpenSpiel's playthrough text of ``game_string`` (random actions from ``seed`` after
    the given ``actions``)."""
    from open_spiel.python.algorithms import generate_playthrough

    import cardrules.integrations.openspiel  # noqa: F401  (registers the games)

    text: str = generate_playthrough.playthrough(game_string, actions, seed=seed)
    return text


def read(path: Path) -> str:
    return gzip.decompress(path.read_bytes()).decode("utf-8")


def write(path: Path, text: str) -> None:
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


def replay(text: str) -> str:
    """Regenerate a stored playthrough from its game string and actions (what OpenSpiel's
    ``generate_playthrough.replay`` does, without its command-line flags)."""
    game = re.search(r"^game: (.*)$", text, re.M)
    assert game is not None, "no game line"
    actions = [int(a) for a in re.findall(r"^action: (\d+)$", text, re.M)]
    return generate(game.group(1), None, actions)


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name, (game_string, seed) in PLAYTHROUGHS.items():
        text = generate(game_string, seed)
        write(HERE / name, text)
        print(f"{name}: {len(text.splitlines())} lines, {len(text)} characters", file=sys.stderr)


if __name__ == "__main__":
    main()
