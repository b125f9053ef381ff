"""What ``cardrules play`` says to a person: the words they type, never the Python
names of actions, and a refusal that says what to do instead."""

import io
import sys
from pathlib import Path

from cardrules import GAMES, IllegalActionError
from cardrules.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _refusal(game, state, text):
    try:
        GAMES[game].parse_action(state, text)
    except IllegalActionError as exc:
        return str(exc)
    raise AssertionError(f"{text!r} was read as an action")


def _eleusis_in(phase):
    """The first state of a seeded 5-player round in ``phase``."""
    g = GAMES["eleusis"]
    for seed in range(20):
        st = g.new_game(players=5, seed=seed)
        for _ in range(400):
            if st.is_over:
                break
            if st.phase == phase:
                return st
            st = g.apply(st, g.legal_actions(st)[0])
    raise AssertionError(f"no {phase} phase found")


def test_eleusis_refusals_use_the_words_a_person_types():
    st = _eleusis_in("offer")
    for text in ("5H", "no play", "judge right"):
        said = _refusal("eleusis", st, text)
        assert "()" not in said, said
        assert "'prophet' or 'pass'" in said
    assert "not a card" not in _refusal("eleusis", st, "no play")
    turn = GAMES["eleusis"].new_game(players=4, seed=1)
    said = _refusal("eleusis", turn, "judge right")
    assert "()" not in said and "'no play'" in said, said


def test_haggis_pass_when_leading_says_what_to_do():
    g = GAMES["haggis"]
    st = g.new_game(players=2, seed=1)
    while type(g.legal_actions(st)[0]).__name__ == "Bet" or st.trick:  # to the first lead
        st = g.apply(st, g.legal_actions(st)[0])
    said = _refusal("haggis", st, "pass")
    assert said.startswith("'pass': you lead this trick: you may not pass; play cards")
    assert " as " not in said  # no list of declared combinations that look nothing like 'pass'
    assert "not a card" not in _refusal("haggis", st, "no play")
    # where passing is legal, 'no play' is a pass
    after = g.apply(st, next(a for a in g.legal_actions(st) if "as" not in str(a)))
    assert g.parse_action(after, "no play") == g.parse_action(after, "pass")


def test_the_rule_file_s_comments_stay_out_of_the_table(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    rule = ROOT / "examples" / "rules" / "alternating-colours.rule"
    assert "#" in rule.read_text(encoding="utf-8")
    assert main(["play", "eleusis", "--rule", str(rule), "--auto", "--seed", "1", "--max-actions", "30"]) == 0
    out = capsys.readouterr().out
    assert 'the secret rule: rule "alternate colours": card.color != prev.color\n' in out
    assert "#" not in out
