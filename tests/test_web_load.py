"""A small load check of the web table (``benchmarks/bench_web.py``, by hand, runs 50
games and 3 kills): 5 concurrent games driven over WebSockets by seeded random clients,
the server killed with SIGKILL halfway and started again on the same database; every
game ends with the record of the same seeds played in-process."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
pytest.importorskip("websockets", reason="the web extra (websockets) is not installed")

from benchmark_scripts import benchmark_script

bench_web = benchmark_script("bench_web")


@pytest.mark.parametrize("fast_commits", [False, True], ids=["durable", "fast-commits"])
def test_five_games_survive_a_sigkill_with_every_accepted_action(tmp_path, fast_commits):
    result = bench_web.run(5, short=True, seed="test", db=tmp_path / "load.db", fast_commits=fast_commits)
    assert result["killed_after"] is not None and result["killed_after"] > 0
    assert result["unfinished_at_kill"] > 0  # the kill came mid-game
    assert result["reconnects"] > 0
    assert result["same_records"] == 5
    assert result["actions"] > result["killed_after"]


def test_the_comparison_can_fail():
    # a record whose client seed is another's is not the one played in-process
    from cardrules import GAMES, to_json

    g = GAMES["aegis"]
    st = g.new_game(g.Rules(target=5), seed="x")
    while not st.is_over:
        legal = g.legal_actions(st)
        st = g.apply(st, legal[bench_web.choose("a", len(st.history), len(legal))])
    record = to_json(st)
    assert bench_web.in_process(record, "a") == record
    assert bench_web.in_process(record, "b") != record
