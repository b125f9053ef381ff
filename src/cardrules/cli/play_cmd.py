"""``cardrules play GAME``: a game in a terminal.

``cardrules play eleusis``: a round of New Eleusis.  The secret rule (``--rule FILE``,
default: alternating colours) plays God.  Scientists sit hot-seat at one keyboard, or
``--auto`` lets random agents play every seat.  The layout is drawn as text after each
play.

``cardrules play aegis`` (``gunsore``, ``haggis``): you play seat ``--seat`` (default 0)
against the game's strongest agent, the search agent (``--budget 300`` iterations or
``--budget 100ms`` per move; ``--opponents random`` for random ones), choosing each
action from the numbered list of legal actions, or by typing part of one (``7H``,
``bid(3)``, ``two 5s``) to narrow the list.  You see what your seat may see: your hand,
and every other action as the game shows it to you (an opponent's Aegis exchange is
shown as a number of cards).  ``--auto`` lets agents play your seat too.

Input is read line by line from standard input, so a game can be scripted through a pipe.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, TextIO

from ..agents import RandomAgent
from ..cards import parse_cards
from ..errors import CardRulesError, IllegalActionError

HELP = """\
On your turn type the cards to play: one card ('5H') or a string of up to {max} ('5H 6C 7D'),
'none' when you hold no right card, 'layout' to see the table again, 'quit' to stop.
A prophet judges with 'right' or 'wrong' (for a no-play: 'right', or 'wrong CARD' naming a
right card of the player).  After a play: 'y' to become prophet, 'n' to pass."""


def register(sub: Any) -> None:
    p = sub.add_parser("play", help="play a game in the terminal")
    p.add_argument("game", choices=["eleusis", "aegis", "gunsore", "haggis"], help="the game to play")
    p.add_argument(
        "--rule", metavar="FILE", help="the secret rule, in the rule language (default: alternating colours)"
    )
    p.add_argument("--name", help="which rule of FILE, when it holds several named rules")
    p.add_argument(
        "--players", type=int, help="players (Eleusis: God included, 3-8, default 5; Haggis: 2 or 3)"
    )
    p.add_argument("--seat", type=int, default=0, help="your seat in Aegis, Gunsore, Haggis (default 0)")
    p.add_argument(
        "--opponents",
        choices=["strong", "random"],
        default="strong",
        help="who plays the other seats of Aegis, Gunsore, Haggis (default: the stronger agent)",
    )
    p.add_argument(
        "--budget",
        help="the search opponent's budget per move: iterations (300) or milliseconds (100ms)",
    )
    p.add_argument("--seed", help="seed for the shuffles (default: a random one, printed)")
    p.add_argument("--auto", action="store_true", help="random agents play every scientist")
    p.add_argument(
        "--max-actions", type=int, default=5000, help="stop after this many actions (default 5000)"
    )
    p.set_defaults(func=run)


def load_rule(path: str, name: str | None = None) -> Any:
    """The compiled rule of ``path`` (``name`` picks one of several named rules)."""
    from .. import eleusis

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise CardRulesError(f"cannot read the rule file {path}: {exc.strerror}") from None
    if name is not None:
        rules = eleusis.compile_rules(text)
        if name not in rules:
            known = ", ".join(sorted(rules)) or "none"
            raise CardRulesError(f"{path} has no rule named {name!r} (it has: {known})")
        return rules[name]
    try:
        return eleusis.compile_rule(text)
    except eleusis.RuleSyntaxError:
        try:
            several = eleusis.compile_rules(text)
        except CardRulesError:
            several = {}
        if len(several) > 1:
            names = ", ".join(f'"{n}"' for n in several)
            raise CardRulesError(
                f"{path} holds {len(several)} rules ({names}): choose one with --name"
            ) from None
        raise


def run(args: argparse.Namespace) -> int:
    if args.game != "eleusis":
        return play_against_agents(args, sys.stdin, sys.stdout)
    from .. import eleusis

    if args.players is None:
        args.players = 5
    secret = load_rule(args.rule, args.name) if args.rule else eleusis.default_rule()
    rules = eleusis.Rules(secret=secret)
    seed = args.seed if args.seed is not None else str(random.randrange(10**9))
    state = eleusis.new_game(rules, players=args.players, seed=seed)
    out = sys.stdout
    out.write(f"New Eleusis, {args.players} players (player 0 is God), seed {seed}\n")
    if not args.auto:
        out.write(HELP.format(max=rules.max_string) + "\n")
    out.write(_table(state) + "\n")
    agents = [RandomAgent(f"{seed}:{p}") for p in range(args.players)]
    for _ in range(args.max_actions):
        if state.is_over:
            break
        if args.auto:
            action = agents[state.to_act](eleusis.view(state, state.to_act), eleusis.legal_actions(state))
        else:
            action = _ask(state, sys.stdin, out)
            if action is None:
                out.write("stopped.\n")
                return 0
        out.write(eleusis.GAME.describe(state, action) + "\n")
        before = state
        state = eleusis.apply(state, action)
        if state.main != before.main or state.sides != before.sides or state.is_over:
            out.write(_table(state) + "\n")
    else:
        out.write(f"stopped after {args.max_actions} actions.\n")
        return 0
    out.write(eleusis.summary(state) + "\n")
    out.write(f"scores: {list(state.scores)}; winners: {list(state.winners)}\n")
    return 0


def _table(state: Any) -> str:
    from .. import eleusis

    lines = ["", eleusis.layout_text(state)]
    sizes = "  ".join(
        f"{p}:{len(state.hands[p])}"
        + ("(prophet)" if p == state.prophet else "")
        + ("(out)" if p in state.expelled else "")
        for p in range(1, state.players)
    )
    death = " - sudden death" if state.in_sudden_death else ""
    lines.append(f"cards held  {sizes}   counted: {state.sudden_death_count}{death}")
    return "\n".join(lines) + "\n"


def _ask(state: Any, stdin: TextIO, out: TextIO) -> Any:
    """Read the action of the player to act; ``None`` at the end of input or on quit."""
    from .. import eleusis

    p = state.to_act
    while True:
        if state.phase == "turn":
            hand = " ".join(map(str, state.hands[p]))
            prompt = f"player {p}, your hand: {hand}\nplayer {p}> "
        elif state.phase == "judge":
            what = eleusis._what(state.pending)
            if isinstance(state.pending, eleusis.NoPlay):
                shown = " ".join(map(str, state.hands[state.turn]))
                what += f", showing {shown}; 'right', or 'wrong CARD' naming a right card"
            prompt = f"prophet {p}: player {state.turn} {what}. right or wrong?\nprophet {p}> "
        else:
            prompt = f"player {p}: become prophet? (y/n)\nplayer {p}> "
        out.write(prompt)
        out.flush()
        line = stdin.readline()
        if not line:
            out.write("\n")
            return None
        text = line.strip()
        if text.lower() in ("quit", "exit", "q"):
            return None
        if text.lower() in ("help", "?"):
            out.write(HELP.format(max=state.rules.max_string) + "\n")
            continue
        if text.lower() == "layout":
            out.write(_table(state) + "\n")
            continue
        try:
            action = _parse(state, text)
            eleusis.apply(state, action)  # check it now, to ask again on a mistake
        except CardRulesError as exc:
            out.write(f"  {exc}\n")
            continue
        return action


def _parse(state: Any, text: str) -> Any:
    from .. import eleusis

    words = text.lower().split()
    if not words:
        raise IllegalActionError("type something (or 'help')")
    if state.phase == "offer":
        if words[0] in ("y", "yes"):
            return eleusis.BecomeProphet()
        if words[0] in ("n", "no", "pass"):
            return eleusis.Pass()
        raise IllegalActionError("answer y (become prophet) or n (pass)")
    if state.phase == "judge":
        if words[0] in ("r", "right"):
            return eleusis.Judge(True)
        if words[0] in ("w", "wrong"):
            cards = parse_cards(" ".join(words[1:]))
            if len(cards) > 1:
                raise IllegalActionError("name one right card")
            return eleusis.Judge(False, cards[0] if cards else None)
        raise IllegalActionError("answer right or wrong")
    if words[0] in ("none", "noplay", "no-play", "pass"):
        return eleusis.NoPlay()
    return eleusis.Play(parse_cards(text))


# -- Aegis, Gunsore, Haggis: one player against agents -------------------------------------

SHOWN = 30  # legal actions listed at once; more are found by typing part of one


def play_against_agents(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """One game of ``args.game``: the player at ``args.seat`` types, agents play the rest."""
    import importlib

    from ..agents import strong_agent
    from ..protocol import GAMES

    g = GAMES[args.game]
    n = args.players if args.players is not None else g.default_players
    seed = args.seed if args.seed is not None else str(random.randrange(10**9))
    state = g.new_game(players=n, seed=seed)
    if not 0 <= args.seat < n:
        raise CardRulesError(f"--seat must be a seat from 0 to {n - 1}, not {args.seat}")
    module = importlib.import_module(g.module or f"cardrules.{args.game}")
    # what the player may be told of each action (an opponent's exchange hides its cards)
    describe_for = getattr(module, "describe_for", None)
    budget = _budget(getattr(args, "budget", None))
    agents = [
        strong_agent(args.game, f"{seed}:{p}", **budget)
        if args.opponents == "strong"
        else RandomAgent(f"{seed}:{p}")
        for p in range(n)
    ]
    you = None if args.auto else args.seat
    seat = "" if you is None else f"; you are player {you}"
    out.write(f"{args.game}, {n} players, seed {seed}{seat}\n")
    if you is not None:
        out.write("Type the number of an action, or part of one to list those that match; 'quit' to stop.\n")
    for _ in range(args.max_actions):
        if state.is_over:
            break
        p = state.to_act
        legal = g.legal_actions(state)
        if p == you:
            action = _choose(g.view(state, p), legal, stdin, out)
            if action is None:
                out.write("stopped.\n")
                return 0
        else:
            action = agents[p](g.view(state, p), legal)
        if you is None or describe_for is None:
            line = g.describe(state, action)
        else:
            line = describe_for(state, action, you)
        out.write(line + "\n")
        state = g.apply(state, action)
    else:
        out.write(f"stopped after {args.max_actions} actions.\n")
        return 0
    summary = getattr(module, "summary", None)
    if summary is not None:
        out.write(summary(state) + "\n")
    out.write(f"scores: {list(state.scores)}; winners: {list(state.winners)}\n")
    return 0


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


def _choose(view: Any, legal: tuple[Any, ...], stdin: TextIO, out: TextIO) -> Any:
    """The action the player picks among ``legal``; ``None`` on 'quit' or at the end of input."""
    out.write(f"your hand: {' '.join(map(str, view.hand)) or '(empty)'}\n")
    shown = list(enumerate(legal))
    while True:
        for i, a in shown[:SHOWN]:
            out.write(f"  {i + 1:>4}  {a}\n")
        if len(shown) > SHOWN:
            out.write(f"  ... {len(shown) - SHOWN} more: type part of an action to narrow the list\n")
        out.write("> ")
        out.flush()
        line = stdin.readline()
        if not line or line.strip().lower() in ("quit", "q"):
            return None
        text = " ".join(line.split()).lower()
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            out.write(f"no action {k}: choose from 1 to {len(legal)}\n")
            continue
        exact = [a for a in legal if str(a).lower() == text]
        if exact:
            return exact[0]
        matches = [(i, a) for i, a in enumerate(legal) if text in str(a).lower()]
        if len(matches) == 1:
            return matches[0][1]
        if not matches:
            out.write(f"no legal action matches {line.strip()!r}\n")
            shown = list(enumerate(legal))
        else:
            shown = matches
