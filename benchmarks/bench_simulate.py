"""simulate on executors, side by side in one run: speed-up of 2 local workers over 1,
a Dask LocalCluster against the process pool, and what each executor costs a task.

Needs the extra ``cardrules[dask]`` (``pip install -e '.[dask]'``)::

    python benchmarks/bench_simulate.py [--games 2000] [--chunks 4]

1. ``--games`` 2-player Haggis games between two ``RandomAgent`` factories, default
   batching, on: this process (no executor), a ``ProcessPoolExecutor`` with 1 worker,
   one with 2 workers, and a Dask ``LocalCluster(n_workers=2, threads_per_worker=1,
   processes=True)`` through ``Client.get_executor()``.  Each summary is checked equal to
   the others.  Pools and the cluster are started before the clock starts and warmed
   with one small run.  Since the machine is shared, the games are played in
   ``--chunks`` parts (500 games each by default, seeds ``bench:0``, ``bench:1``...)
   and the four executors take turns part after part, so that a change of load
   falls on all of them alike; each executor's time is the sum over its parts.
2. Per-task overhead: 400 tasks that play no game (empty batches: the task is sent, the
   agents unpickled, an empty list returned) on each executor of 1; a task's time is the
   wall time over the tasks.  Per game
   that is the whole cost with ``batch_size=1``, and a task's cost divided by the batch
   size with batching.

3. The CPU time the workers used (read from ``/proc``, so Linux only): CPU seconds over
   wall seconds is how many cores an executor actually got, and the CPU time a game
   shows what two workers cost beside one when each has a core.
4. A control for a shared machine: the same pure-Python loop (no cardrules, no data sent)
   in 64 tasks on the pools of 1 and 2 workers.  Its speed-up is what the machine gives two
   processes at that moment; the simulation's cannot be higher.

Wall-clock times (``time.perf_counter``): what a user waits for.  The load average of the
machine is printed before and after, since the speed-up needs two idle cores.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from cardrules import RandomAgent, simulate
from cardrules.simulation import _Batch, _payload, _play_batch, default_batch_size


def spin(n: int) -> int:
    """The control's task: pure-Python work (about 30 ms on an idle core)."""
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def cpu_seconds(pids) -> float:
    """User + system CPU time of the processes ``pids`` so far (Linux /proc)."""
    ticks = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def timed(fn):
    t = time.perf_counter()
    result = fn()
    return time.perf_counter() - t, result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--chunks", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=1, help="rounds of the control")
    ap.add_argument("--tasks", type=int, default=400)
    args = ap.parse_args()
    from distributed import Client, LocalCluster

    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores")
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    agents = [RandomAgent, RandomAgent]
    # each pool's worker processes, by the public multiprocessing.active_children(): the
    # children that appear as the pool is warmed (its workers started, cardrules imported)
    pool1 = ProcessPoolExecutor(1)
    simulate("haggis", agents, games=8, seed="warm", executor=pool1, batch_size=1)
    pool1_pids = [p.pid for p in multiprocessing.active_children()]
    pool2 = ProcessPoolExecutor(2)
    simulate("haggis", agents, games=8, seed="warm", executor=pool2, batch_size=1)
    pool2_pids = [p.pid for p in multiprocessing.active_children() if p.pid not in pool1_pids]
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                           worker_dashboard_address=None)
    client = Client(cluster)
    dask = client.get_executor()
    executors = {"this process": None, "process pool, 1 worker": pool1, "process pool, 2 workers": pool2,
                 "Dask LocalCluster, 2 workers": dask}  # fmt: skip
    for ex in executors.values():  # warm: workers started, cardrules imported
        if ex is not None:
            simulate("haggis", agents, games=8, seed="warm", executor=ex, batch_size=1)

    pids = {
        "this process": None,
        "process pool, 1 worker": pool1_pids,
        "process pool, 2 workers": pool2_pids,
        "Dask LocalCluster, 2 workers": list(client.run(os.getpid).values()),
    }
    cpu: dict[str, float] = dict.fromkeys(executors, 0.0)
    best: dict[str, float] = dict.fromkeys(executors, 0.0)
    part = args.games // args.chunks
    batch = default_batch_size(part)
    games = 0
    for c in range(args.chunks):
        summaries = {}
        for name, ex in executors.items():
            before = time.process_time() if pids[name] is None else cpu_seconds(pids[name])
            t, s = timed(lambda ex=ex, c=c: simulate("haggis", agents, games=part, seed=f"bench:{c}", executor=ex))
            after = time.process_time() if pids[name] is None else cpu_seconds(pids[name])
            cpu[name] += after - before
            best[name] += t
            summaries[name] = s
        assert len(set(summaries.values())) == 1, "summaries differ"
        games += s.games
    print(f"\n{games} 2-player Haggis games, random agents, batches of {batch}, "
          f"in {args.chunks} parts taken in turns:")  # fmt: skip
    for name, t in best.items():
        print(f"  {name:<30} {t:7.2f} s  {games / t:7.1f} games/s   CPU {cpu[name]:6.2f} s: "
              f"{cpu[name] / t:4.2f} cores, {1000 * cpu[name] / games:5.1f} ms a game")  # fmt: skip
    print(f"  speed-up of 2 workers over 1:       {best['process pool, 1 worker'] / best['process pool, 2 workers']:.2f}x")
    one, two = cpu["process pool, 1 worker"] / games, cpu["process pool, 2 workers"] / games
    print(f"  2 workers over 1 with two free cores (2 x CPU a game, 1 worker / 2 workers): {2 * one / two:.2f}x")
    print(f"  Dask / process pool (2 workers):    {best['Dask LocalCluster, 2 workers'] / best['process pool, 2 workers']:.2f}")

    payload = _payload(agents, None, ["0", "1"])
    empty = [_Batch("haggis", "cardrules.haggis", payload, "o", 0, 0, 1000) for _ in range(args.tasks)]
    print(f"\nper-task overhead ({args.tasks} tasks that play no game):")
    per_game = games / best["this process"]
    for name, ex in executors.items():
        if ex is None:
            continue
        t, _ = timed(lambda ex=ex: list(ex.map(_play_batch, empty)))
        task_ms = 1000 * t / args.tasks
        print(f"  {name:<30} {task_ms:6.2f} ms a task: {task_ms:6.2f} ms a game with batch_size=1 "
              f"({task_ms * per_game / 10:.0f}% of a game's own time), {task_ms / batch:.3f} ms a game in batches of {batch}")  # fmt: skip
    control = {}
    for _ in range(args.rounds):
        for name, ex in (("1 worker", pool1), ("2 workers", pool2)):
            t, _ = timed(lambda ex=ex: list(ex.map(spin, [200_000] * 64)))
            control[name] = min(control.get(name, t), t)
    print(f"\ncontrol, a pure-Python loop in 64 tasks: 1 worker {control['1 worker']:.2f} s, "
          f"2 workers {control['2 workers']:.2f} s, speed-up {control['1 worker'] / control['2 workers']:.2f}x")  # fmt: skip
    print("load average after:  {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    client.close()
    cluster.close()
    pool1.shutdown()
    pool2.shutdown()


if __name__ == "__main__":
    sys.exit(main())
