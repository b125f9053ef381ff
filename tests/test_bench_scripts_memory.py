"""The memory benchmark and the playout profiler of ``benchmarks/`` (cheap runs: one or
two games), checked against sizes worked out by hand."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from benchmark_scripts import benchmark_script

import cardrules
from cardrules import gunsore

memory = benchmark_script("bench_memory")
profile = benchmark_script("profile_playouts")


def test_deep_size_counts_each_object_once() -> None:
    inner = [1000, 2000]  # ints above 256: not shared by the interpreter
    outer = (inner, inner, "a text of its own")
    expected = sys.getsizeof(outer) + sys.getsizeof(inner) + sys.getsizeof(outer[2])
    expected += sys.getsizeof(inner[0]) + sys.getsizeof(inner[1])
    assert memory.deep_size(outer, set()) == expected


def test_deep_size_leaves_out_what_is_skipped_and_what_only_it_reaches() -> None:
    shared = [10_000]
    only_under_left_out = [20_000]
    left_out = (only_under_left_out, shared)
    root = (shared, left_out)
    assert memory.deep_size(root, {id(shared)}, leave_out=(left_out,)) == sys.getsizeof(root)
    # small integers, None and types cost nothing
    assert memory.deep_size((None, 5, int), set(memory._INTERPRETER_SHARED)) == sys.getsizeof((None, 5, int))


def test_measure_one_game_of_gunsore() -> None:
    row = memory.measure(gunsore, {}, 1)
    states = memory.play(gunsore, {}, 0)
    final = states[-1]
    assert row["states"] == len(states)
    assert row["actions"] == len(final.history)
    assert row["json_bytes_per_action"] == len(cardrules.to_json(final).encode()) / len(final.history)
    # a state holds at least its own record and its history tuple
    assert row["state_bytes"] > row["position_bytes"] >= sys.getsizeof(final)
    assert 0 < row["kept_bytes_per_state"] < row["state_bytes"]
    assert row["history_bytes_per_action"] >= sys.getsizeof(final.history) / len(final.history)
    assert row["rules_bytes"] >= sys.getsizeof(final.rules)


def test_json_and_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "memory.json"
    memory.main(["--games", "1", "--game", "gunsore", "--json", str(out)])
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert set(doc["results"]) == {"gunsore"}
    assert doc["environment"]["python"]
    memory.main(["--games", "1", "--game", "gunsore", "--compare", str(out)])
    printed = capsys.readouterr().out.splitlines()
    header = next(i for i, line in enumerate(printed) if line.rstrip().endswith("new/old"))
    compared = printed[header + 1 :]
    # the same code, the same games: every figure once, old and new alike
    assert len(compared) == len(memory.METRICS)
    assert all(line.startswith("gunsore") and line.split()[-1] == "1.00" for line in compared)


def test_profile_prints_list_tables(capsys: pytest.CaptureFixture[str]) -> None:
    profile.main(["--game", "gunsore", "--games", "2", "--top", "3", "--rst"])
    text = capsys.readouterr().out
    assert text.count(".. list-table:: gunsore: 2 games") == 1
    assert text.count("   * - ``") == 3  # three entries (the header row is "* - function")
    stats, decisions = profile.profile(gunsore, {}, 2)
    total, rows = profile.top_entries(stats, 5)
    assert decisions > 0 and len(rows) == 5
    assert [r[2] for r in rows] == sorted((r[2] for r in rows), reverse=True)
    assert all(r[3] == r[2] / total for r in rows)
    assert sum(r[3] for r in rows) <= 1.0 + 1e-9
