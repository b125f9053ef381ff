"""Play many games between agents, on this process or on any executor, and summarise them.

:func:`simulate` plays seeded games between agents and returns a :class:`Summary`;
:func:`tournament` plays every seating of several agents and returns a :class:`Table`;
:func:`play` plays one game.  All three are also reachable from ``cardrules``.

Seeds
   Game ``i`` of a simulation with seed ``s`` is dealt with seed ``f"{s}:{i}"``, and the
   agent in seat ``p`` of that game is reseeded (or made, see factories) with seed
   ``f"{s}:{i}:{p}"``.  A game's result therefore depends only on the master seed and the
   game's number: the summary is the same whether the games run here, on a process pool
   or on a cluster, and whatever the batch size.

Executors
   ``executor`` is anything with a ``map(fn, iterable)`` method that returns the results
   in order: a ``concurrent.futures.ProcessPoolExecutor``, a Dask
   ``Client.get_executor()``, a ``multiprocessing.pool.Pool``, a Ray ``Pool``.
   Games go to it in batches of ``batch_size`` games (one task each), since a task has a
   cost of its own (a few milliseconds on Dask).

Agents and factories
   Each entry of ``agents`` is an agent (a callable ``agent(view, legal_actions)``) or a
   *factory*: a class, or a :class:`Factory`, called as ``factory(seed)`` to make a new
   agent for each game.  Agent objects are copied to the executor (pickled once), so they
   must be picklable, and a copy that changes as it plays (one that learns) changes only
   for the games of its batch; a factory gives every game a new agent, the same for any
   executor.  An agent or factory that cannot be pickled is refused with a
   :class:`~cardrules.errors.CardRulesError` naming it before any game is played.

Failures
   A game whose agent raises (or returns an illegal action) does not stop the others:
   every other game is played, and then :class:`SimulationError` is raised, carrying the
   :class:`GameFailure` of each failed game (its number, seed and error) and the summary of
   the games that finished.  An executor that breaks its contract (no ``map``, a ``map``
   that raises, returns too few results or something other than a task's results) fails
   the games it lost the same way, each failure saying what the executor did; the
   results that came back are kept.
"""

from __future__ import annotations

import math
import pickle
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import permutations
from typing import Any, Protocol

import attrs

from .errors import CardRulesError
from .protocol import GAMES, Agent, game_named

__all__ = [
    "Executor",
    "Factory",
    "GameFailure",
    "GameResult",
    "SimulationError",
    "Summary",
    "Table",
    "TableRow",
    "default_batch_size",
    "fit_elo",
    "play",
    "simulate",
    "tournament",
    "wilson_interval",
]


class Executor(Protocol):
    """What :func:`simulate` needs of an executor: ``map(fn, iterable)``, results in order."""

    def map(self, fn: Callable[[Any], Any], iterable: Iterable[Any], /) -> Iterable[Any]: ...


class Factory:
    """A picklable recipe for agents: ``Factory(fn, *args, **kwargs)(seed)`` is
    ``fn(*args, seed, **kwargs)``.

    >>> from cardrules.agents import RandomAgent, greedy_agent
    >>> Factory(greedy_agent, "haggis")(7)
    GreedyAgent(seed=7)
    >>> Factory(RandomAgent)("0:3:1")
    RandomAgent(seed='0:3:1')

    ``fn`` must be importable by name (a module-level function or class) for the factory
    to be sent to another process.
    """

    def __init__(self, fn: Callable[..., Agent], /, *args: Any, **kwargs: Any) -> None:
        self.fn = fn
        self.args = args
        self.kwargs = kwargs

    def __call__(self, seed: object) -> Agent:
        return self.fn(*self.args, seed, **self.kwargs)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Factory):
            return NotImplemented
        return (self.fn, self.args, self.kwargs) == (other.fn, other.args, other.kwargs)

    def __hash__(self) -> int:
        return hash((self.fn, self.args))

    def __repr__(self) -> str:
        parts = [getattr(self.fn, "__qualname__", repr(self.fn)), *map(repr, self.args)]
        parts += [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"Factory({', '.join(parts)})"


def _is_factory(entry: object) -> bool:
    return isinstance(entry, (type, Factory))


@attrs.frozen
class GameResult:
    """One finished game: its number in the simulation, its seed, its length (actions,
    chance included), every player's final score and the winners' seats."""

    game: int
    seed: str
    length: int
    scores: tuple[Any, ...]
    winners: tuple[int, ...]


@attrs.frozen
class GameFailure:
    """One game that could not finish: its number, its seed, the error
    (``"ValueError: ..."``) and the traceback as text (it may come from another machine)."""

    game: int
    seed: str
    error: str
    traceback: str = attrs.field(default="", repr=False)
    #: The exception itself, when the game was played in this process (``None`` otherwise).
    exception: BaseException | None = attrs.field(default=None, repr=False, eq=False)


@attrs.frozen
class Summary:
    """What :func:`simulate` found.

    ``win_rates[p]`` is the share of games player ``p`` was among the winners (a tie
    counts as a win for every tied player, so rates may add up to more than 1);
    ``average_scores[p]`` its mean final score; ``lengths[i]`` is game ``i``'s length
    and ``average_length``, ``min_length``, ``max_length`` sum them up (lengths count
    actions, chance included).  ``results`` holds every game's :class:`GameResult`, in
    the order of the games.
    """

    game: str
    games: int
    wins: tuple[int, ...]
    win_rates: tuple[float, ...]
    average_scores: tuple[float, ...]
    average_length: float
    min_length: int
    max_length: int
    lengths: tuple[int, ...] = ()
    results: tuple[GameResult, ...] = attrs.field(default=(), repr=False)

    @classmethod
    def of(cls, game: str, players: int, results: Sequence[GameResult]) -> Summary:
        """The summary of ``results`` (at least one), which must be in game order for the
        sums to be the same floats whatever order the games finished in."""
        n = len(results)
        wins = [0] * players
        totals: list[Any] = [0] * players
        for r in results:
            for w in r.winners:
                wins[w] += 1
            for p, s in enumerate(r.scores):
                totals[p] += s
        lengths = tuple(r.length for r in results)
        return cls(
            game=game,
            games=n,
            wins=tuple(wins),
            win_rates=tuple(w / n for w in wins),
            average_scores=tuple(t / n for t in totals),
            average_length=sum(lengths) / n,
            min_length=min(lengths),
            max_length=max(lengths),
            lengths=lengths,
            results=tuple(results),
        )

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain JSON-ready values, every game included."""
        return {
            "game": self.game,
            "games": self.games,
            "players": len(self.wins),
            "wins": list(self.wins),
            "win_rates": list(self.win_rates),
            "average_scores": list(self.average_scores),
            "average_length": self.average_length,
            "min_length": self.min_length,
            "max_length": self.max_length,
            "results": [
                {
                    "game": r.game,
                    "seed": r.seed,
                    "length": r.length,
                    "scores": list(r.scores),
                    "winners": list(r.winners),
                }
                for r in self.results
            ],
        }


class SimulationError(CardRulesError):
    """Some games failed.  ``failures`` lists them (:class:`GameFailure`, by game
    number); ``summary`` is the :class:`Summary` of the games that finished (``None``
    when none did), and ``summaries`` the same per seating for a :func:`tournament`."""

    def __init__(
        self,
        failures: Sequence[GameFailure],
        summary: Summary | None,
        total: int,
        summaries: Mapping[tuple[str, ...], Summary] | None = None,
    ) -> None:
        self.failures = tuple(failures)
        self.summary = summary
        self.summaries = dict(summaries or {})
        first = self.failures[0]
        super().__init__(
            f"{len(self.failures)} of {total} games failed; the first, game {first.game} "
            f"(seed {first.seed!r}), with {first.error}"
        )


# -- one game ---------------------------------------------------------------------------


def play(
    game: str,
    agents: Sequence[Agent],
    *,
    seed: object,
    rules: Any = None,
    max_actions: int = 1_000_000,
    on_action: Callable[[Any, Any], None] | None = None,
) -> Any:
    """Play one seeded game to its end; returns the final state.

    ``agents[p]`` chooses for player ``p`` (their number is the number of players).
    ``on_action(state, action)`` is called before each player action is applied (for
    records).

    >>> from cardrules import play, RandomAgent
    >>> final = play("aegis", [RandomAgent(1), RandomAgent(2)], seed=3)
    >>> final.is_over, len(final.scores)
    (True, 2)
    """
    g = GAMES[game]
    state = g.new_game(rules, players=len(agents), seed=seed)
    for _ in range(max_actions):
        if state.is_over:
            return state
        p = state.to_act
        actions = g.legal_actions(state)
        action = agents[p](g.view(state, p), actions)
        if on_action is not None:
            on_action(state, action)
        state = g.apply(state, action)
    raise CardRulesError(f"{game}: no end after {max_actions} actions")


def _play_numbered(
    game: str, entries: Sequence[Any], seed: str, i: int, rules: Any, max_actions: int
) -> GameResult | GameFailure:
    """Game ``i`` of a simulation with seed ``seed``: a result, or the failure."""
    game_seed = f"{seed}:{i}"
    try:
        agents: list[Agent] = []
        for p, entry in enumerate(entries):
            if _is_factory(entry):
                agents.append(entry(f"{game_seed}:{p}"))
            else:  # agents with a reset start each game afresh
                reset = getattr(entry, "reset", None)
                if callable(reset):
                    reset(f"{game_seed}:{p}")
                agents.append(entry)
        final = play(game, agents, seed=game_seed, rules=rules, max_actions=max_actions)
    except Exception as exc:
        return GameFailure(i, game_seed, f"{type(exc).__name__}: {exc}", traceback.format_exc(), exc)
    return GameResult(i, game_seed, len(final.history), tuple(final.scores), tuple(final.winners))


# -- batches, as sent to an executor ----------------------------------------------------


@attrs.frozen
class _Batch:
    """Games ``start`` to ``stop - 1`` of one run; ``payload`` is the pickled agents and
    rules (pickled once for every batch)."""

    game: str
    module: str | None
    payload: bytes
    seed: str
    start: int
    stop: int
    max_actions: int


def _play_batch(batch: _Batch) -> list[GameResult | GameFailure]:
    """The task an executor runs: every game of ``batch``, failures included."""
    try:
        game_named(batch.game, batch.module)  # a game of the user's registers as its module loads
        # the payload _payload pickled in the simulate call that made this task, sent by
        # the caller's own executor: never data from outside the program
        entries, rules = pickle.loads(batch.payload)
    except Exception as exc:  # say so for every game of the batch rather than lose it
        error = f"the worker cannot load the agents or the game: {type(exc).__name__}: {exc}"
        trace = traceback.format_exc()
        return [GameFailure(i, f"{batch.seed}:{i}", error, trace) for i in range(batch.start, batch.stop)]
    outcomes = [
        _play_numbered(batch.game, entries, batch.seed, i, rules, batch.max_actions)
        for i in range(batch.start, batch.stop)
    ]
    # An exception object may not survive pickling back: its text and traceback travel.
    return [attrs.evolve(o, exception=None) if isinstance(o, GameFailure) else o for o in outcomes]


def _payload(entries: Sequence[Any], rules: Any, names: Sequence[str]) -> bytes:
    """The entries and rules pickled, or an error naming what cannot be sent."""
    for name, entry in zip(names, entries, strict=True):
        try:
            pickle.dumps(entry)
        except Exception as exc:
            raise CardRulesError(
                f"agent {name} ({entry!r}) cannot be sent to the executor, it cannot be pickled "
                f"({type(exc).__name__}: {exc}); give an object of a module-level class, or a "
                "factory (a class or a cardrules.Factory of a module-level function)"
            ) from exc
    try:
        return pickle.dumps((tuple(entries), rules))
    except Exception as exc:
        raise CardRulesError(
            f"the rules cannot be sent to the executor ({type(exc).__name__}: {exc})"
        ) from exc


def default_batch_size(games: int) -> int:
    """The batch size used when none is given: the games in about 64 tasks, at most 250
    games a task (enough tasks to share among workers, few enough that a task's own cost
    is small beside its games)."""
    return max(1, min(250, -(-games // 64)))


@attrs.frozen
class _Run:
    """One simulation of a larger job: its game, player count, entries, seed and size."""

    key: tuple[str, ...]
    game: str
    entries: tuple[Any, ...]
    names: tuple[str, ...]
    seed: str
    games: int
    rules: Any


def _check(game: str, players: int, games: int, rules: Any) -> None:
    if game not in GAMES:
        raise CardRulesError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise CardRulesError(f"simulate needs games >= 1, not {games!r}")
    g = GAMES[game]
    if players not in g.player_counts:
        allowed = " or ".join(map(str, g.player_counts))
        raise CardRulesError(f"{game} is played by {allowed} players, not {players} (one agent a player)")
    g.new_game(rules, players=players)  # refuses rules of another game before any is played


def _execute(
    runs: Sequence[_Run],
    *,
    executor: Executor | None,
    batch_size: int | None,
    max_actions: int,
    progress: Callable[[int, int], None] | None,
) -> tuple[dict[tuple[str, ...], list[GameResult]], list[GameFailure]]:
    """Play every game of ``runs``; the results of each run in game order, and the failures."""
    if batch_size is not None and (isinstance(batch_size, bool) or not isinstance(batch_size, int)
                                   or batch_size < 1):  # fmt: skip
        raise CardRulesError(f"batch_size must be a whole number >= 1, not {batch_size!r}")
    results: dict[tuple[str, ...], list[GameResult]] = {r.key: [] for r in runs}
    failures: list[GameFailure] = []
    total = sum(r.games for r in runs)
    done = 0

    def take(run: _Run, outcomes: Iterable[GameResult | GameFailure]) -> None:
        nonlocal done
        for o in outcomes:
            if isinstance(o, GameResult):
                results[run.key].append(o)
            else:
                failures.append(o)
            done += 1

    if executor is None:  # here, with the caller's own agent objects
        for run in runs:
            for i in range(run.games):
                take(run, [_play_numbered(run.game, run.entries, run.seed, i, run.rules, max_actions)])
                if progress is not None:
                    progress(done, total)
        return results, failures

    size = batch_size or default_batch_size(total)
    batches: list[tuple[_Run, _Batch]] = []
    for run in runs:
        payload = _payload(run.entries, run.rules, run.names)
        module = GAMES[run.game].module
        for start in range(0, run.games, size):
            stop = min(start + size, run.games)
            batches.append((run, _Batch(run.game, module, payload, run.seed, start, stop, max_actions)))
    tasks = [b for _, b in batches]

    def lost(k: int, error: str, trace: str = "", stop: int | None = None) -> None:
        """Batches ``k`` to ``stop - 1`` (default: all the rest) are lost: every game of
        theirs fails with ``error``."""
        for run2, batch2 in batches[k:stop]:
            for i in range(batch2.start, batch2.stop):
                failures.append(GameFailure(i, f"{run2.seed}:{i}", error, trace))

    mapper = getattr(executor, "map", None)
    if not callable(mapper):
        lost(0, f"the executor {_short(executor)} has no map(fn, iterable) method")
        return results, failures
    try:
        outcomes: Iterator[Any] = iter(mapper(_play_batch, tasks))
    except Exception as exc:  # map itself raised, or returned nothing to iterate
        lost(0, f"the executor's map raised {type(exc).__name__}: {_short(str(exc))}", traceback.format_exc())
        return results, failures
    for k, (run, batch) in enumerate(batches):
        try:
            got = next(outcomes)
        except StopIteration:  # an executor that drops results
            lost(k, f"the executor's map returned {k} results for {len(batches)} tasks")
            break
        except Exception as exc:  # the task itself was lost (a worker died, ...)
            # with ``map``, so are the batches after it
            lost(k, f"{type(exc).__name__}: {_short(str(exc))}", traceback.format_exc())
            break
        why = _wrong_batch(got, batch)
        if why is not None:  # this batch's games are lost; the next results may be right
            why = f"the executor's map returned {why} for games {batch.start} to {batch.stop - 1}"
            lost(k, why, stop=k + 1)
        else:
            take(run, got)
        if progress is not None:
            progress(done, total)
    return results, failures


def _short(value: object, limit: int = 200) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _wrong_batch(got: object, batch: _Batch) -> str | None:
    """What is wrong with ``got`` as the results of ``batch`` (``None``: nothing): a list
    of one :class:`GameResult` or :class:`GameFailure` per game, in order."""
    if not isinstance(got, list):
        return f"{_short(got)} (not a list of results)"
    games = range(batch.start, batch.stop)
    if len(got) != len(games):
        return f"{len(got)} results (not {len(games)})"
    for i, o in zip(games, got, strict=True):
        if not isinstance(o, (GameResult, GameFailure)) or o.game != i:
            return f"{_short(o)} (not the result of game {i})"
    return None


def _raise_failures(
    failures: list[GameFailure], summaries: dict[tuple[str, ...], Summary], total: int, single: bool
) -> None:
    if not failures:
        return
    summary = next(iter(summaries.values()), None) if single else None
    err = SimulationError(failures, summary, total, None if single else summaries)
    original = failures[0].exception
    if original is not None:
        raise err from original
    raise err


# -- simulate ---------------------------------------------------------------------------


def simulate(
    game_name: str,
    agents: Sequence[Any],
    *,
    games: int,
    seed: object,
    rules: Any = None,
    executor: Executor | None = None,
    batch_size: int | None = None,
    max_actions: int = 1_000_000,
    progress: Callable[[int, int], None] | None = None,
) -> Summary:
    """Play ``games`` seeded games between ``agents`` (one per player) and summarise them.

    Game ``i`` uses seed ``f"{seed}:{i}"``.  Each entry of ``agents`` is an agent or a
    factory (a class, or a :class:`Factory`).  Before game ``i`` an agent with a
    ``reset`` method gets ``reset(f"{seed}:{i}:{p}")`` (``p`` its seat), and a factory
    makes the seat's agent with that seed: the library's agents then play every game as
    if new, so the same seed gives the same summary even with agent objects used before,
    and the same summary with any ``executor`` and ``batch_size`` (see the module's
    notes).  Without an executor the games are played here, one after the other, with
    the very agent objects given (an agent without ``reset`` is left as it is, learning
    across games if it learns).

    ``progress(done, total)`` is called as games finish.  When some games fail, the
    others are still played and :class:`SimulationError` is raised at the end.

    >>> from cardrules import simulate, RandomAgent
    >>> s = simulate("haggis", [RandomAgent, RandomAgent], games=4, seed="doc")
    >>> s.games, len(s.results), s.results[1].seed
    (4, 4, 'doc:1')
    """
    n = len(agents)
    _check(game_name, n, games, rules)
    run = _Run(("",), game_name, tuple(agents), tuple(f"{p}" for p in range(n)), f"{seed}", games, rules)
    results, failures = _execute(
        [run], executor=executor, batch_size=batch_size, max_actions=max_actions, progress=progress
    )
    finished = results[run.key]
    summaries = {run.key: Summary.of(game_name, n, finished)} if finished else {}
    _raise_failures(failures, summaries, games, single=True)
    return summaries[run.key]


# -- tournaments ------------------------------------------------------------------------

#: The normal quantile of a two-sided 95% interval.
_Z95 = 1.959963984540054


def wilson_interval(wins: float, games: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a win rate of ``wins`` in ``games``.

    >>> low, high = wilson_interval(8, 10)
    >>> round(low, 3), round(high, 3)
    (0.49, 0.943)
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    low = 0.0 if wins <= 0 else max(0.0, centre - half)  # exact ends where rounding would miss them
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return (low, high)


def fit_elo(
    names: Sequence[str], scores: Mapping[tuple[str, str], float], games: Mapping[tuple[str, str], int]
) -> dict[str, float]:
    """Elo ratings fitted to pairwise results (a Bradley-Terry model).

    ``scores[a, b]`` is what ``a`` scored against ``b`` (1 a win, 1/2 a draw) in
    ``games[a, b]`` games.  The strengths ``g`` maximise the likelihood of the results
    with ``P(a beats b) = g[a] / (g[a] + g[b])``, found by Hunter's minorization-
    maximization iteration; each agent also gets one drawn game against a fixed
    reference of strength 1, so that one that never lost (or never won) still has a
    finite rating.  Ratings are ``400 log10 g``, shifted so that their mean is 1500; a
    difference of 200 points is a 76% expected score.

    >>> r = fit_elo(["a", "b"], {("a", "b"): 30, ("b", "a"): 10}, {("a", "b"): 40, ("b", "a"): 40})
    >>> round(r["a"] - r["b"])
    188
    """
    strength = dict.fromkeys(names, 1.0)
    won = {a: 0.5 + sum(scores.get((a, b), 0.0) for b in names if b != a) for a in names}
    for _ in range(10_000):
        new = {}
        for a in names:
            denominator = 1.0 / (strength[a] + 1.0)  # the virtual drawn game
            for b in names:
                n_ab = games.get((a, b), 0)
                if b != a and n_ab:
                    denominator += n_ab / (strength[a] + strength[b])
            new[a] = won[a] / denominator
        change = max(abs(math.log(new[a] / strength[a])) for a in names)
        strength = new
        if change < 1e-12:
            break
    elo = {a: 400 * math.log10(strength[a]) for a in names}
    mean = sum(elo.values()) / len(elo)
    return {a: 1500 + elo[a] - mean for a in names}


@attrs.frozen
class TableRow:
    """One agent's line of a :class:`Table`: games played, games won (among the
    winners), the win rate with its Wilson 95% interval, the average final score and the
    fitted Elo rating."""

    name: str
    games: int
    wins: int
    win_rate: float
    win_low: float
    win_high: float
    average_score: float
    elo: float


@attrs.frozen
class Table:
    """What :func:`tournament` found: ``rows`` best rating first, and the
    :class:`Summary` of every seating (``summaries[("greedy", "random")]`` has
    ``greedy`` in seat 0)."""

    game: str
    players: int
    games_per_seating: int
    rows: tuple[TableRow, ...]
    summaries: Mapping[tuple[str, ...], Summary] = attrs.field(repr=False, eq=False)

    def __str__(self) -> str:
        width = max(5, *(len(r.name) for r in self.rows))
        lines = [
            f"{self.game}, {self.players} players, {len(self.summaries)} seatings of "
            f"{self.games_per_seating} games",
            f"{'agent':<{width}}  {'games':>6}  {'wins':>6}  {'win rate (95%)':<22}  "
            f"{'score':>8}  {'elo':>6}",
        ]
        for r in self.rows:
            rate = f"{r.win_rate:.3f} ({r.win_low:.3f}-{r.win_high:.3f})"
            lines.append(
                f"{r.name:<{width}}  {r.games:>6}  {r.wins:>6}  {rate:<22}  "
                f"{r.average_score:>8.2f}  {r.elo:>6.0f}"
            )
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        """The table as plain JSON-ready values, with every seating's summary."""
        return {
            "game": self.game,
            "players": self.players,
            "games_per_seating": self.games_per_seating,
            "rows": [attrs.asdict(r) for r in self.rows],
            "seatings": [
                {"agents": list(key), **summary.as_dict()} for key, summary in self.summaries.items()
            ],
        }


def tournament(
    game: str,
    agents: Mapping[str, Any],
    *,
    games: int,
    seed: object,
    executor: Executor | None = None,
    players: int | None = None,
    rules: Any = None,
    batch_size: int | None = None,
    max_actions: int = 1_000_000,
    progress: Callable[[int, int], None] | None = None,
) -> Table:
    """Play every seating of the named ``agents`` (agents or factories) ``games`` times.

    With ``n`` players (the game's default unless ``players`` is given) a seating is a
    choice of ``n`` different agents in an order: every pairing with its seats swapped
    for two players, every order of every group for more.  Each seating is a
    :func:`simulate` run of ``games`` games with seed ``f"{seed}:{a}/{b}/..."`` (the
    seated names), so adding an agent leaves the other seatings' games as they were.

    An agent's wins count the games it was among the winners.  The Elo ratings are
    fitted (:func:`fit_elo`) to every pair of agents at the same table in a game: a win
    for one that won when the other did not, a draw when both or neither won.

    >>> from cardrules import tournament, RandomAgent
    >>> from cardrules.agents import strong_agent
    >>> from cardrules.simulation import Factory
    >>> table = tournament("aegis", {"greedy": Factory(strong_agent, "aegis"), "random": RandomAgent},
    ...                    games=3, seed="doc")
    >>> [r.name for r in table.rows], sorted(table.summaries)
    (['greedy', 'random'], [('greedy', 'random'), ('random', 'greedy')])
    """
    if game not in GAMES:
        raise CardRulesError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    names = list(agents)
    if not all(isinstance(a, str) and a for a in names):
        raise CardRulesError(f"a tournament's agents are named by non-empty strings, not {names!r}")
    n = GAMES[game].default_players if players is None else players
    if len(names) < max(2, n):
        raise CardRulesError(
            f"a tournament of {game} with {n} players needs at least {max(2, n)} agents, "
            f"not {len(names)}" + ("" if players is not None else " (give fewer players)")
        )
    _check(game, n, games, rules)
    runs = [
        _Run(seating, game, tuple(agents[a] for a in seating), seating, f"{seed}:{'/'.join(seating)}",
             games, rules)
        for seating in permutations(names, n)
    ]
    results, failures = _execute(
        runs, executor=executor, batch_size=batch_size, max_actions=max_actions, progress=progress
    )
    summaries = {key: Summary.of(game, n, rs) for key, rs in results.items() if rs}
    _raise_failures(failures, summaries, games * len(runs), single=False)

    played = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    score_sums: dict[str, Any] = dict.fromkeys(names, 0)
    pair_scores: dict[tuple[str, str], float] = {}
    pair_games: dict[tuple[str, str], int] = {}
    for seating, summary in summaries.items():
        for r in summary.results:
            for p, a in enumerate(seating):
                played[a] += 1
                score_sums[a] += r.scores[p]
                wins[a] += p in r.winners
            for p, a in enumerate(seating):
                for q, b in enumerate(seating):
                    if p != q:
                        score = 0.5 + 0.5 * ((p in r.winners) - (q in r.winners))
                        pair_scores[a, b] = pair_scores.get((a, b), 0.0) + score
                        pair_games[a, b] = pair_games.get((a, b), 0) + 1
    elo = fit_elo(names, pair_scores, pair_games)
    rows = []
    for a in names:
        low, high = wilson_interval(wins[a], played[a])
        rows.append(
            TableRow(a, played[a], wins[a], wins[a] / played[a], low, high, score_sums[a] / played[a], elo[a])
        )
    rows.sort(key=lambda r: -r.elo)
    return Table(game, n, games, tuple(rows), summaries)
