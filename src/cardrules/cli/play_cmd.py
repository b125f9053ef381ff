"""``cardrules play GAME``: a game in a terminal, one person against the computer.

You play seat ``--seat`` against the computer's agents (the stronger agent of the game,
or ``--opponents random``).  Before each of your turns the table is drawn as your seat
sees it (what to beat, cards held, scores, whose turn); you type an action as text, in
the game's notation (``7H``, ``bid 3``, ``exchange 2S 7H``, ``war``, ``5H 6H 7H``,
``pass``, ``no play``, ``prophet``, ``judge right``...).  ``list`` numbers the legal
actions (``list 5H`` only those with 5H), and a number typed right after the list picks
one; ``#3`` picks the third legal action at any time (elsewhere a number is card text:
``10`` is a ten).  ``help`` or ``?`` explains the notation, ``table`` draws the table
again, ``quit`` stops.  A wrong input
says why and names the nearest legal actions.  Every other action is shown as it
happens, as your seat may be told it, and so are the results of each season or hand.

A game whose rules are written as text takes them with ``--rule`` (a file, ``FILE:NAME``
or the text itself; ``--name`` picks one of several named ones in a file).  New Eleusis:
player 0 is God, whose secret rule (``--rule``; default alternating colours; with
``--god computer`` the computer chooses it, and the summary reveals it) judges every
play.  ``--seat 1`` (the default) to ``--seat N-1`` makes you a scientist among
the computer's scientists; ``--seat 0`` makes you God: you choose the rule and watch the
computer's scientists hunt for it.  ``--hot-seat`` lets several people share the
keyboard, every seat typed.  ``--auto`` lets the computer play every seat.

Any registered game can be played (``cardrules --load MODULE_OR_FILE play GAME`` for a
game of your own): everything the command shows of a game comes from its
:class:`~cardrules.GameDef` (its title, notation, seats, lines and summary).

Input is read line by line from standard input, so a game can be scripted through a
pipe; the end of input or Ctrl-C stops the game cleanly.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from ..agents import AGENTS, RandomAgent, make_agent, strong_agent
from ..errors import CardRulesError
from ..protocol import GAMES, Agent, GameDef
from ._rulefiles import split_rule_arg

#: What ``help`` says of a game that does not say how to write its actions.
PLAIN_NOTATION = "  the text of an action, as 'list' shows it"

COMMANDS = """\
  list [TEXT]  number the legal actions (only those containing TEXT); a number typed next picks one
  #N           the Nth legal action (as 'list' numbers them), at any time
  table        draw the table again
  help, ?      this help
  quit         stop the game"""

EXAMPLES = """\
examples:
  cardrules play haggis                     you (player 0) against the computer
  cardrules play haggis --players 3 --seed 7
  cardrules play aegis --seat 1 --opponents random
  cardrules play eleusis                    you: scientist 1; the rest: computer
  cardrules play eleusis --seat 0 --rule 'card.rank > prev.rank'    you are God
  cardrules play eleusis --hot-seat --players 4   several people at one keyboard
  cardrules play eleusis --god computer    the computer chooses the secret rule
  cardrules play gunsore --auto --seed 1    watch the computer play both seats"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a game in the terminal against the computer",
        description=(__doc__ or "").split("\n\n", 1)[0].split(": ", 1)[-1],
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", choices=GAMES, help="the game to play")
    p.add_argument("--seat", type=int, help="your seat (default 0; Eleusis: 1, a scientist; 0 is God)")
    p.add_argument(
        "--players",
        type=int,
        help="players (Aegis, Gunsore: 2; Haggis: 2 or 3, default 2; Eleusis: 3-8 with God, default 5)",
    )
    p.add_argument(
        "--opponents",
        choices=AGENTS,  # the one registry of agent kinds (a kind added there is offered here)
        default="strong",
        metavar="KIND",
        help=f"who plays the other seats: one of {', '.join(AGENTS)} (cardrules.agents.AGENTS); "
        "default strong, the game's stronger agent (random agents for a game without one)",
    )
    p.add_argument(
        "--budget",
        help="the search opponent's budget per move: iterations (300) or milliseconds (100ms)",
    )
    p.add_argument("--seed", help="seed for the shuffles (default: a random one, printed)")
    p.add_argument(
        "--rule",
        metavar="RULE",
        help="for a game whose rules are written as text (New Eleusis: the secret rule): "
        "a file, FILE:NAME or the text itself (default: the game's own; Eleusis: alternating colours)",
    )
    p.add_argument("--name", help="which rule of the --rule file, when it holds several")
    p.add_argument(
        "--god",
        choices=["computer"],
        help="New Eleusis: the computer chooses the secret rule (cardrules.eleusis.choose_rule, "
        "from the seed) and reveals it at the end",
    )
    p.add_argument("--auto", action="store_true", help="the computer plays every seat; you watch")
    p.add_argument("--hot-seat", action="store_true", help="every seat is typed at this keyboard")
    p.add_argument(
        "--max-actions", type=int, default=5000, help="stop after this many actions (default 5000)"
    )
    p.set_defaults(func=run)


def rules_from_arg(game: GameDef[Any, Any], arg: str, name: str | None = None) -> Any:
    """The ``Rules`` of ``game`` that ``arg`` gives as text: a file (``name`` picks one of
    several named ones), ``FILE:NAME``, or the text itself; the game reads the text
    (its ``rules_from_text``).  An argument that looks like a file name and is no file
    is an error ("no such file")."""
    if game.rules_from_text is None:
        raise CardRulesError(f"{game.name} takes no rules as text")
    path, name = split_rule_arg(arg, name)
    if path is None:
        return game.rules_from_text(arg, name)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or str(exc)
        raise CardRulesError(f"cannot read the rule file {path}: {why}") from None
    return game.rules_from_text(text, name)


def _budget(text: str | None) -> dict[str, Any]:
    """``--budget``: ``"300"`` is 300 iterations per move, ``"100ms"`` 100 milliseconds."""
    if text is None:
        return {}
    t = text.strip().lower()
    try:
        if t.endswith("ms"):
            ms = float(t[:-2])
            if ms > 0:
                return {"time_per_move": ms / 1000}
        elif int(t) > 0:
            return {"iterations": int(t)}
    except ValueError:
        pass
    raise CardRulesError(
        f"--budget must be a number of iterations (300) or of milliseconds (100ms), not {text!r}"
    )


def _agent(game: str, opponents: str, seed: str, budget: dict[str, Any]) -> Agent:
    """The computer's agent for a seat: the game's strongest (with ``budget``; a random
    one for a game that has no stronger agent), or the agent of :data:`AGENTS` named
    ``opponents``."""
    if opponents == "strong":
        try:
            agent: Agent = strong_agent(game, seed, **budget)
        except CardRulesError:
            if _has_strong_agent(GAMES[game]):
                raise
        else:
            return agent
        return RandomAgent(seed)
    return make_agent(opponents, game, seed)


def _has_strong_agent(game: GameDef[Any, Any]) -> bool:
    hooks = game.search
    return game.greedy_agent is not None or (
        hooks is not None and (hooks.config is not None or hooks.strong is not None)
    )


def _computer_god(game: GameDef[Any, Any], rule: str | None, players: int, seed: str) -> Any:
    """``--god computer``: the rules with the secret rule the game's computer God
    chooses for ``seed`` (its ``rule_chooser``: New Eleusis's
    :func:`cardrules.eleusis.choose_rule`); the round's summary reveals it."""
    if game.rule_chooser is None or game.rules_from_text is None:
        raise CardRulesError(f"--god computer: {game.name} has no computer god")
    if rule is not None:
        raise CardRulesError("--god computer chooses the rule: give it or --rule, not both")
    return game.rules_from_text(game.rule_chooser(players, seed), None)


def run(args: argparse.Namespace) -> int:
    game = args.game
    g = GAMES[game]
    if g.rules_from_text is None:
        for option, value in (("--rule", args.rule), ("--name", args.name)):
            if value is not None:
                raise CardRulesError(
                    f"{option} is for games whose rules are written as text; {game} has none"
                )
    elif args.name is not None and args.rule is None:
        raise CardRulesError("--name picks a rule of the --rule file: give --rule too")
    if args.auto and args.hot_seat:
        raise CardRulesError("--auto and --hot-seat exclude each other")
    rules = rules_from_arg(g, args.rule, args.name) if args.rule else None
    n = g.check_players(args.players)
    seed = args.seed if args.seed is not None else str(random.randrange(10**9))
    if args.god is not None:
        rules = _computer_god(g, args.rule, n, seed)
    seat = args.seat if args.seat is not None else g.default_seat
    if not 0 <= seat < n:
        raise CardRulesError(f"--seat must be a seat from 0 to {n - 1}, not {seat}")
    state = g.new_game(rules, players=n, seed=seed)
    if args.auto:
        people: set[int] = set()
    elif args.hot_seat:
        people = set(range(n))
    else:
        people = {seat}
    budget = _budget(args.budget)
    session = _Session(game, state, people, sys.stdout, args.opponents, seed, budget)
    return session.play(args.max_actions)


class _Session:
    """One game at the terminal: the state, who types, the computer's agents."""

    def __init__(
        self,
        game: str,
        state: Any,
        people: set[int],
        out: TextIO,
        opponents: str,
        seed: str,
        budget: dict[str, Any] | None = None,
    ):
        self.game = game
        self.g = GAMES[game]
        self.state = state
        self.people = people
        self.out = out
        self.seed = seed
        n = state.players
        self.agents = [_agent(game, opponents, f"{seed}:{p}", budget or {}) for p in range(n)]
        self.listed: tuple[Any, ...] = ()

    def write(self, text: str) -> None:
        self.out.write(text + "\n")

    def play(self, max_actions: int) -> int:
        st = self.state
        n = st.players
        g = self.g
        if len(self.people) == 1:
            (you,) = self.people
            seat = f"; you are {g.seat_name(you)}"
        elif self.people:
            seat = "; every seat is typed here"
        else:
            seat = "; the computer plays every seat"
        self.write(f"{g.title}, {n} players, seed {self.seed}{seat}")
        if self.people and self.people <= g.observer_seats:
            (you,) = self.people
            self.write(f"{g.seat_name(you)} never acts: watch the others play.")
            self.people = set()  # a seat that never acts: its person watches
        if self.people:
            self.write("Type an action ('help' or '?' explains how; 'list' numbers the legal actions).")
        elif g.observer_seats:  # the table as a seat that watches sees it
            self.write(g.render(st, min(g.observer_seats)))
        try:
            return self._loop(max_actions)
        except KeyboardInterrupt:
            self.write("\ninterrupted.")
            return 130

    def _loop(self, max_actions: int) -> int:
        g = self.g
        for _ in range(max_actions):
            st = self.state
            if st.is_over:
                break
            p = st.to_act
            legal = g.legal_actions(st)
            if p in self.people:
                action = self._ask(p, legal)
                if action is None:
                    self.write("stopped.")
                    return 0
            else:
                action = self.agents[p](g.view(st, p), legal)
            self._tell(st, action)
            self.state = g.apply(st, action)
            self._results(st, self.state)
        else:
            self.write(f"stopped after {max_actions} actions.")
            return 0
        self._end()
        return 0

    def _tell(self, st: Any, action: Any) -> None:
        """The line for ``action``, as the person (if there is one) may be told it."""
        if len(self.people) == 1:
            (you,) = self.people
            self.write(self.g.describe_for(st, action, you))
        else:
            self.write(self.g.describe(st, action))

    def _results(self, before: Any, after: Any) -> None:
        """What the game shows after an action (the scores of a season or a hand as they
        change; the New Eleusis layout after each play)."""
        text = self.g.after_action(before, after)
        if text is not None:
            self.write(text)

    def _end(self) -> None:
        st = self.state
        self.write(self.g.summary(st))
        winners = list(st.winners)
        you = next(iter(self.people)) if len(self.people) == 1 else None
        if you is not None:
            verdicts = {0: "you lose", 1: "you win"}
            verdict = verdicts.get(len(winners), "a shared win") if you in winners else verdicts[0]
            self.write(f"game over: {verdict}")
        self.write(f"scores: {list(st.scores)}; winners: {winners}")

    # -- the person's turn -------------------------------------------------------------

    def _ask(self, p: int, legal: Sequence[Any]) -> Any:
        """The action the person at seat ``p`` types; ``None`` on quit or end of input."""
        st = self.state
        self.write("")
        self.write(self.g.render(st, p))
        self.listed = tuple(legal)
        numbered = False  # the last thing shown is the numbered list: a number picks from it
        while True:
            self.out.write(f"player {p}> ")
            self.out.flush()
            line = sys.stdin.readline()
            if not line:
                self.write("")
                return None
            text = " ".join(line.split())
            low = text.lower()
            after_list, numbered = numbered, False
            if low in ("quit", "exit"):  # not "q": the Haggis queen
                return None
            if low in ("help", "?", "h"):
                notation = self.g.notation if self.g.notation is not None else PLAIN_NOTATION
                self.write(f"How to write an action in {self.game}:\n{notation}\n{COMMANDS}")
                continue
            if low in ("table", "t", "layout"):
                self.write(self.g.render(st, p))
                continue
            if not text:
                self.write("type an action, 'list' or 'help'")
                continue
            if low == "list" or low.startswith("list "):
                numbered = self._list(legal, text[5:].strip())
                continue
            by_number = text[1:].strip() if text.startswith("#") else text if after_list else ""
            if by_number.isdecimal():
                k = int(by_number)
                if 1 <= k <= len(legal):
                    return legal[k - 1]
                self.write(f"no action {k}: 'list' numbers the {len(legal)} legal actions")
                continue
            try:
                return self.g.parse_action(st, text)
            except CardRulesError as exc:
                self.write(f"  {exc}")
                if text.isdecimal():
                    self.write(f"  (to choose by number: 'list', then the number; or #{text})")

    def _list(self, legal: Sequence[Any], needle: str) -> bool:
        """Number the legal actions that contain ``needle``; whether any was shown."""
        low = needle.lower()
        rows = [(i, str(a)) for i, a in enumerate(legal, 1) if low in str(a).lower()]
        if not rows:
            self.write(f"no legal action contains {needle!r}")
            return False
        limit = 60
        for i, text in rows[:limit]:
            self.write(f"  {i:>4}  {text}")
        if len(rows) > limit:
            self.write(f"  ... {len(rows) - limit} more: 'list TEXT' shows those containing TEXT")
        return True
