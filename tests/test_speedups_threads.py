"""The C accelerator used from many threads at once gives what one thread gives.

On a free-threaded CPython (3.13t) the module declares that it needs no GIL, so these
threads really run its functions at the same time; on other builds the GIL takes turns
between them every few microseconds, which still mixes their calls.  Each thread plays
the same seeded games, shuffles shared and private lists and builds exchanges, and
every result must equal the one-thread reference.
"""

from __future__ import annotations

import random
import threading
from itertools import combinations

import pytest

from cardrules import _hotloops, aegis, gunsore, standard_deck
from cardrules.aegis import Exchange

pytestmark = pytest.mark.skipif(_hotloops.IMPLEMENTATION != "C", reason="cardrules._speedups is not in use")

THREADS = 6
DECK = standard_deck()


def _playout(module: object, seed: int) -> tuple[object, ...]:
    rules = module  # aegis or gunsore: new_game, legal_actions, apply
    state = rules.new_game(seed=seed)  # type: ignore[attr-defined]
    rng = random.Random(seed)
    moves = 0
    while not state.is_over:
        actions = rules.legal_actions(state)  # type: ignore[attr-defined]
        state = rules.apply(state, actions[rng.randrange(len(actions))])  # type: ignore[attr-defined]
        moves += 1
    return (moves, tuple(state.scores))


def _in_threads(work: object) -> list[object]:
    barrier = threading.Barrier(THREADS)
    results: list[object] = [None] * THREADS
    errors: list[BaseException] = []

    def run(k: int) -> None:
        try:
            barrier.wait()
            results[k] = work()  # type: ignore[operator]
        except BaseException as exc:  # reported below, in the test's own thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


@pytest.mark.parametrize("game", [aegis, gunsore], ids=["aegis", "gunsore"])
def test_seeded_games_in_threads_are_the_one_thread_games(game: object) -> None:
    seeds = range(8)
    reference = [_playout(game, s) for s in seeds]
    results = _in_threads(lambda: [_playout(game, s) for s in seeds])
    assert all(r == reference for r in results)


def test_checks_in_threads() -> None:
    hand = tuple(DECK[:5])

    def work() -> bool:
        ok = True
        for _ in range(300):
            ok &= _hotloops.same_objects(hand, hand[::-1])
            ok &= not _hotloops.same_objects(hand, (*hand[1:], DECK[9]))
        return ok

    assert all(_in_threads(work))


def test_coded_exchanges_in_threads() -> None:
    hand = tuple(DECK[:5])
    codes = {c: i for i, c in enumerate(DECK)}
    tables = []
    for k in range(4):
        table: list[object] = [None] * 52**k
        for s in combinations(hand, k):
            rank = 0
            for c in s:
                rank = rank * 52 + codes[c]
            table[rank] = Exchange(s)
        tables.append(tuple(table))
    reference = _hotloops.coded_subsets_py(hand, codes, 52, tuple(tables), Exchange, "cards")

    def work() -> bool:
        ok = True
        for _ in range(300):
            got = _hotloops.coded_subsets(hand, codes, 52, tuple(tables), Exchange, "cards")
            ok &= got == reference and all((g is r) == (len(g.cards) <= 3) for g, r in zip(got, reference, strict=True))
        return ok

    assert all(_in_threads(work))


def test_shuffling_one_shared_list_in_threads_keeps_its_items() -> None:
    # Threads swap the items of one list at the same time: whatever order results, the
    # list still holds each item once (no item lost or duplicated, no crash).
    shared = list(range(52))
    stream = random.Random(7).randbytes(8 * 51)

    def work() -> None:
        for _ in range(2000):
            _hotloops.fisher_yates(shared, stream)

    _in_threads(work)
    assert sorted(shared) == list(range(52))


def test_private_shuffles_in_threads_are_the_python_shuffle() -> None:
    streams = [random.Random(s).randbytes(8 * 51) for s in range(20)]

    def expected(stream: bytes) -> list[int]:
        items = list(range(52))
        _hotloops.fisher_yates_py(items, stream)
        return items

    reference = [expected(s) for s in streams]

    def work() -> list[list[int]]:
        out = []
        for s in streams:
            items = list(range(52))
            _hotloops.fisher_yates(items, s)
            out.append(items)
        return out

    assert all(r == reference for r in _in_threads(work))
