"""A table of the web server: one game, its seats, and what each seat is shown.

Pure library code (no web package): :class:`GameTable` holds a game's state, who sits
at each seat (a person, or a computer agent named as in :data:`cardrules.agents.AGENTS`),
each person's seat token, and the lines of the game as each seat may be told them.  Every
action goes through the game's :class:`~cardrules.GameDef`: a person's action is read
with ``parse_action`` (its errors are the library's), a computer's is chosen by its agent
from the seat's ``view`` alone, and both are applied with ``apply``.
:meth:`GameTable.message` is all a seat is ever sent: its own view, its table drawn with
``render(state, seat)``, its legal actions, its history lines (``describe_for``) and the
scores; never the state itself (whose seed would tell every card still to come).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from ..agents import AGENT_KINDS, AGENTS, make_agent
from ..codec import encode_value
from ..errors import CardRulesError
from ..protocol import GAMES, GameDef, Shuffle
from ..search import analyse
from .options import check_options

__all__ = [
    "COMPUTER",
    "COMPUTER_KINDS",
    "HUMAN",
    "MAX_CLOCK",
    "MAX_HISTORY",
    "ON_TIMEOUT",
    "GameTable",
    "TableError",
    "TableSettings",
    "hash_token",
    "new_token",
    "to_text",
    "unencodable",
]

#: the kind of a seat a person takes
HUMAN: Final = "human"
#: the kinds of computer seat (the agents of :data:`cardrules.agents.AGENTS`)
COMPUTER_KINDS: Final = AGENT_KINDS  # read when used: a kind added to AGENTS is offered too
#: the kind of a God's seat the computer takes (any computer kind there is one): it
#: chooses the secret rule when none is given
COMPUTER: Final = "computer"
#: the most history lines a message carries (the latest ones)
MAX_HISTORY: Final = 200
#: what a human seat whose clock runs out does: plays the game's greedy move, or forfeits
ON_TIMEOUT: Final = ("move", "forfeit")
#: the longest turn clock, in seconds (a day)
MAX_CLOCK: Final = 24 * 3600


class TableError(CardRulesError):
    """A request a table refuses (not your turn, no such seat, a bad setting...)."""


def unencodable(value: object, what: str = "the request") -> str | None:
    """Why JSON data ``value`` cannot be stored or sent back as UTF-8 (a text, or an
    object's key, holding a lone surrogate such as ``"\\ud800"``, which JSON's escapes
    allow and no character is), or ``None`` when it can."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start : exc.end]
        return f"{what} holds {bad!r}, half of a surrogate pair, which is no character: refused"
    except (ValueError, TypeError, RecursionError):
        return f"{what} is not plain JSON data"
    return None


def to_text(message: Mapping[str, Any]) -> str:
    """A message as JSON text that UTF-8 can always carry: a stored text that holds a lone
    surrogate (from before such texts were refused) is sent as its JSON escape."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(message, ensure_ascii=True, separators=(",", ":"))
    return text


@attrs.frozen
class TableSettings:
    """How a table is run, chosen by whoever makes it (all optional in ``POST /tables``).

    ``spectators``: anyone with the watch link may watch (the public view only);
    ``listed``: the table is in the list of open tables (``GET /tables``), and anyone
    may take one of its human seats no one has taken yet; ``clock``: seconds a human
    seat has for each move (``None``: no clock); ``on_timeout``: what a seat whose
    clock runs out does, ``"move"`` (the game's greedy move is played for it) or
    ``"forfeit"`` (the table ends, that seat having forfeited); ``autoplay``: the
    computer seats play on when no person is connected (within the server's budget of
    such tables), instead of waiting for one; ``hints``: a seat to act may ask for a
    hint (``{"type": "hint"}``), the search's analysis of its view
    (:meth:`GameTable.hint`)."""

    spectators: bool = True
    listed: bool = False
    clock: int | None = None
    on_timeout: str = "move"
    autoplay: bool = False
    hints: bool = False

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> TableSettings:
        """The settings named in ``data`` (a new table's request, or a stored table's
        settings), checked; the others are the defaults."""
        for name in ("spectators", "listed", "autoplay", "hints"):
            if name in data and not isinstance(data[name], bool):
                raise TableError(f"{name} is true or false, not {data[name]!r}")
        clock = data.get("clock")
        if clock is not None and (
            isinstance(clock, bool) or not isinstance(clock, int) or not 1 <= clock <= MAX_CLOCK
        ):
            raise TableError(
                f"clock is a whole number of seconds from 1 to {MAX_CLOCK}, or null; not {clock!r}"
            )
        on_timeout = data.get("on_timeout", "move")
        if on_timeout not in ON_TIMEOUT:
            raise TableError(f"on_timeout is {' or '.join(map(repr, ON_TIMEOUT))}, not {on_timeout!r}")
        return cls(
            spectators=data.get("spectators", True),
            listed=data.get("listed", False),
            clock=clock,
            on_timeout=on_timeout,
            autoplay=data.get("autoplay", False),
            hints=data.get("hints", False),
        )


def new_token() -> str:
    """An unguessable seat token (:func:`secrets.token_urlsafe`, 256 bits)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What the store keeps of a token: its SHA-256, so that the database alone lets no
    one take a seat."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _check_options(options: object) -> dict[str, Any] | None:
    """Rule options as given (plain JSON values: numbers, texts, true/false), checked."""
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise TableError("rule options are an object of names and values")
    for key, value in options.items():
        plain = value is None or isinstance(value, (int, str, bool, float))
        numbers = isinstance(value, list) and all(isinstance(x, int) for x in value)
        if not isinstance(key, str) or not (plain or numbers):
            raise TableError(
                f"rule option {key!r}: a number, a text, true/false or a list of numbers, not {value!r}"
            )
    return dict(options) or None


def _with_options(game: GameDef[Any, Any], rules: Any, options: Mapping[str, Any] | None) -> Any:
    """``rules`` (``None``: the game's default ones) with ``options`` changed."""
    if not options:
        return rules
    try:
        if rules is None:
            return game.Rules(**dict(options))
        return attrs.evolve(rules, **dict(options))
    except (TypeError, ValueError) as exc:
        raise TableError(f"{game.name}: bad rule options: {exc}") from None


def _computer_rule(game: GameDef[Any, Any], seats: Sequence[str], players: int, seed: str) -> str | None:
    """The rule text a computer God chooses (the game's ``rule_chooser``, New Eleusis's
    :func:`cardrules.eleusis.choose_rule`, with the table's seed) when the seat that
    writes the rules is a computer's; else ``None``."""
    if game.rules_from_text is None or game.rule_chooser is None:
        return None
    if not any(seat < players and seats[seat] != HUMAN for seat in game.observer_seats):
        return None
    return game.rule_chooser(players, seed)


class GameTable:
    """One game at the web table.

    ``seats`` names each seat's kind: ``"human"`` or one of
    :data:`~cardrules.web.table.COMPUTER_KINDS`.  A seat that never acts (New Eleusis's
    God) is ``"human"`` when a person takes it; when the game's rules are written as
    text and no rule is given, that person writes them at the table (:meth:`set_rule`)
    before the game starts, and until then ``state`` is ``None``.  When that seat is the
    computer's (:data:`~cardrules.web.table.COMPUTER`, or any computer kind) and no rule is given, the game's
    ``rule_chooser`` picks it with the table's seed (New Eleusis's computer God,
    :func:`cardrules.eleusis.choose_rule`).  ``tokens`` are the seat tokens' hashes
    (:func:`~cardrules.web.table.hash_token`) of the human seats.
    """

    def __init__(
        self,
        table_id: str,
        game: str,
        players: int,
        seats: Sequence[str],
        tokens: Mapping[int, str],
        seed: str,
        state: Any = None,
        rule_text: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        settings: TableSettings | None = None,
        deadline: float | None = None,
        forfeit: int | None = None,
        taken: Iterable[int] = (),
    ) -> None:
        self.id = table_id
        self.game: GameDef[Any, Any] = GAMES[game]
        self.players = players
        self.seats = tuple(seats)
        self.tokens = dict(tokens)
        self.seed = seed
        self.rule_text = rule_text
        #: the rule options the table was made with (``{"target": 50}``), or ``None``
        self.options = _check_options(options)
        #: how the table is run (spectators, listed, clock ...)
        self.settings = settings if settings is not None else TableSettings()
        #: when the clock of the human seat to act runs out (``time.time()``), or ``None``
        self.deadline = deadline
        #: the seat that forfeited (its clock ran out on a ``"forfeit"`` table): the
        #: table is over, its game stopped where it was
        self.forfeit = forfeit
        #: the human seats someone has joined or claimed (the others are free to claim
        #: on a listed table)
        self.taken: set[int] = set(taken)
        self.state: Any = None
        #: each seat's lines, one per player's action (a deal shows nothing: its order
        #: is every hidden card)
        self.lines: list[list[str]] = [[] for _ in range(players)]
        #: the lines as someone at no seat (a spectator) may be told them
        self.public_lines: list[str] = []
        #: who made the last player's action, and how many actions the game had then
        self.last: tuple[int, int] | None = None
        #: the last hand (season, round) that ended with a change of the scores: the
        #: number of actions after it, the state at its end (before the next deal), and
        #: the index of its line
        self.ended: tuple[int, Any, int] | None = None
        # each seat's message (``None``: a spectator's) as made at ``_version``, with its
        # JSON text: made once per change and shared by every reply until the next one
        self._version = 0
        self._messages: dict[int | None, tuple[int, dict[str, Any], str]] = {}
        if state is not None:
            self._load(state)

    # -- making one ----------------------------------------------------------------

    @classmethod
    def create(
        cls,
        table_id: str,
        game: object,
        seats: object,
        *,
        rules: object = None,
        rule: str | None = None,
        seed: str | None = None,
        settings: TableSettings | None = None,
    ) -> tuple[GameTable, dict[int, str]]:
        """A new table and the token of each human seat (given once: the table keeps
        only their hashes).  ``rules`` are rule options (``{"target": 50}``); ``rule``
        the rules as text, for a game whose rules are written so (New Eleusis's secret
        rule); ``seed`` decides chance (default: a secret random one)."""
        if not isinstance(game, str) or game not in GAMES:
            raise TableError(f"no game named {game!r} (games: {', '.join(GAMES)})")
        g = GAMES[game]
        if not isinstance(seats, (list, tuple)) or not all(isinstance(s, str) for s in seats):
            raise TableError("seats are a list of kinds: human, " + ", ".join(COMPUTER_KINDS))
        players = g.check_players(len(seats))
        for i, kind in enumerate(seats):
            if kind == COMPUTER and i in g.observer_seats:
                continue  # a computer God: any computer kind is one there
            if kind != HUMAN and kind not in COMPUTER_KINDS:
                raise TableError(f"seat {i}: no kind {kind!r} (kinds: {HUMAN}, {', '.join(COMPUTER_KINDS)})")
            if kind != HUMAN and i not in g.observer_seats and kind not in AGENTS:
                raise TableError(f"seat {i}: no agent {kind!r}")
        tokens = {i: new_token() for i, kind in enumerate(seats) if kind == HUMAN}
        table = cls(
            table_id,
            game,
            players,
            seats,
            {i: hash_token(t) for i, t in tokens.items()},
            seed if seed is not None else secrets.token_hex(16),
            # checked against the game's Rules now, even when God writes the rule later
            options=check_options(g, rules),
            settings=settings,
        )
        if rule is None:
            rule = _computer_rule(g, table.seats, players, table.seed)
        if rule is not None:
            table.start_with_rule(rule)
        elif not table.waits_for_rule:
            table._start(_with_options(g, None, table.options))
        table.deadline = table.deadline_for(table.state)
        return table, tokens

    @property
    def god(self) -> int | None:
        """The seat that writes the rules (a human observer seat of a game whose rules
        are written as text), or ``None``."""
        g = self.game
        if g.rules_from_text is None:
            return None
        for seat in sorted(g.observer_seats):
            if seat < self.players and self.seats[seat] == HUMAN:
                return seat
        return None

    @property
    def waits_for_rule(self) -> bool:
        """Whether the game waits for its rule, written at the table by :attr:`god`."""
        return self.state is None and self.god is not None

    def _start(self, rules: Any) -> None:
        self._load(self.game.new_game(rules, players=self.players, seed=self.seed))

    def start_with_rule(self, text: str) -> None:
        """Start the game with the rules ``text`` gives (the game's ``rules_from_text``,
        then the table's rule options); a rule that does not compile raises the
        library's error (line, column, caret)."""
        g = self.game
        if g.rules_from_text is None:
            raise TableError(f"{g.name} takes no rules as text")
        if not isinstance(text, str):
            raise TableError("a rule is a text")
        rules = _with_options(g, g.rules_from_text(text, None), self.options)
        self.rule_text = text
        self._start(rules)

    def check_rule_writer(self, seat: int) -> None:
        """Refuse, saying why, unless the person at ``seat`` may write the rule now."""
        if self.god is None:
            raise TableError("no one writes the rules at this table")
        if seat != self.god:
            raise TableError(f"only {self.game.seat_name(self.god)} writes the rule")
        if self.state is not None:
            raise TableError("the rule is written already: the game has started")

    def set_rule(self, seat: int, text: str) -> None:
        """The god at ``seat`` writes the rule: the game starts with it."""
        self.check_rule_writer(seat)
        self.start_with_rule(text)

    def _load(self, state: Any) -> None:
        """Take ``state`` (and work out every seat's lines of its history)."""
        g = self.game
        self.lines = [[] for _ in range(self.players)]
        self.public_lines = []
        self.last = self.ended = None
        history = state.history
        replay = g.new_game(state.rules, players=self.players)
        i = 0
        while i < len(history):
            action = history[i]
            after = g.apply(replay, action)
            i += 1
            if type(action) is not Shuffle:
                ended = after  # unseeded: the state at the chance node, before the deal
                # the deals that follow an action belong to it, as in a seeded game
                while i < len(history) and type(history[i]) is Shuffle:
                    after = g.apply(after, history[i])
                    i += 1
                self._note(replay, action, after)
                self._remember(replay, ended, after, i)
            replay = after
        self.state = state
        self.changed()

    def _note(self, before: Any, action: Any, after: Any) -> None:
        if type(action) is Shuffle:
            return  # a deal: its order is every hidden card
        g = self.game
        extra = g.after_action(before, after)
        for seat in range(self.players):
            line = g.describe_for(before, action, seat)
            self.lines[seat].append(line if extra is None else f"{line}\n{extra}")
        line = g.describe_public(before, action)
        self.public_lines.append(line if extra is None else f"{line}\n{extra}")

    def changed(self) -> None:
        """Forget the messages made so far (call after changing the table by hand)."""
        self._version += 1
        self._messages.clear()

    # -- seats -----------------------------------------------------------------------

    def seat_of(self, token: object) -> int | None:
        """The human seat whose token is ``token``, or ``None``."""
        if not isinstance(token, str) or len(token) > 200:
            return None
        digest = hash_token(token)
        found = None
        for seat, kept in self.tokens.items():
            if hmac.compare_digest(kept, digest):
                found = seat
        return found

    @property
    def to_act(self) -> int | None:
        st = self.state
        if st is None or st.is_over or self.forfeit is not None or type(st.to_act) is not int:
            return None
        return int(st.to_act)

    @property
    def step(self) -> int:
        """The number of actions so far (deals included): what an act names."""
        return 0 if self.state is None else len(self.state.history)

    @property
    def is_over(self) -> bool:
        """Whether the table is over: its game ended, or a seat forfeited."""
        return self.forfeit is not None or (self.state is not None and self.state.is_over)

    @property
    def status(self) -> str:
        """``"rule"`` (waiting for God's rule), ``"play"`` or ``"over"``."""
        if self.state is None:
            return "rule"
        return "over" if self.is_over else "play"

    def free_seats(self) -> list[int]:
        """The human seats no one has joined or claimed (God's too, before the rule)."""
        if self.is_over:
            return []
        return [seat for seat in sorted(self.tokens) if seat not in self.taken]

    def claim(self, seat: object) -> str:
        """Take the free human seat ``seat`` of a listed table: its new token (the seat's
        former link no longer joins it)."""
        if not self.settings.listed:
            raise TableError("this table is not listed: its seats are taken only by their links")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self.free_seats():
            free = ", ".join(map(str, self.free_seats())) or "none"
            raise TableError(f"seat {seat!r} is not a free human seat (free seats: {free})")
        token = new_token()
        self.tokens[seat] = hash_token(token)
        self.taken.add(seat)
        return token

    # -- the clock ---------------------------------------------------------------------

    def deadline_for(self, state: Any, now: float | None = None) -> float | None:
        """When the clock of the seat to act in ``state`` runs out, from ``now``: ``None``
        without a clock, or when no human seat is to act."""
        clock = self.settings.clock
        if clock is None or state is None or state.is_over or self.forfeit is not None:
            return None
        p = state.to_act
        if type(p) is not int or self.seats[p] != HUMAN:
            return None
        return (time.time() if now is None else now) + clock

    def clock_message(self, now: float | None = None) -> dict[str, Any] | None:
        """The running clock as a message shows it, or ``None``."""
        p = self.to_act
        if self.deadline is None or self.settings.clock is None or p is None:
            return None
        left = self.deadline - (time.time() if now is None else now)
        return {"seat": p, "remaining": round(max(0.0, left), 3), "per_move": self.settings.clock}

    def timeout_action(self) -> Any:
        """The move played for the human seat to act when its clock runs out: the game's
        greedy agent's (a random legal action for a game that has none), chosen from the
        seat's view and seeded like a computer's (call it off the event loop)."""
        p = self.to_act
        if p is None:
            raise TableError("no seat is to act")
        st = self.state
        kind = "greedy" if self.game.greedy_agent is not None else "random"
        agent = make_agent(kind, self.game.name, f"{self.seed}:{p}:{len(st.history)}:clock")
        return agent(self.game.view(st, p), self.game.legal_actions(st))

    def forfeits(self, seat: int) -> None:
        """End the table: ``seat`` forfeited (its clock ran out on a ``"forfeit"`` table)."""
        self.forfeit = seat
        self.deadline = None
        self.changed()

    @property
    def computer_to_act(self) -> bool:
        """Whether the seat to act is a computer's."""
        p = self.to_act
        return p is not None and self.seats[p] != HUMAN

    # -- actions ---------------------------------------------------------------------

    def read_action(self, seat: int, text: object) -> Any:
        """The action the person at ``seat`` sends as ``text`` (the game's notation,
        ``str(action)`` of a legal action); the library's error when it is not one."""
        if not isinstance(text, str):
            raise TableError(f"an action is a text, not {type(text).__name__}")
        if self.state is None:
            raise TableError("the game has not started: the rule is not written yet")
        if self.is_over:
            raise TableError("the game is over")
        if self.to_act != seat:
            who = self.to_act
            raise TableError(
                "it is not your turn" + (f": {self.game.seat_name(who)} is to act" if who is not None else "")
            )
        return self.game.parse_action(self.state, text)

    def choose(self) -> Any:
        """The action the computer at the seat to act chooses, from that seat's view
        only; its agent is made anew, seeded by the table's seed, the seat and the
        number of actions so far, so a table reloaded from the store plays on as it
        would have (this may take a while: call it off the event loop)."""
        p = self.to_act
        if p is None or self.seats[p] == HUMAN:
            raise TableError("no computer is to act")
        st = self.state
        agent = make_agent(self.seats[p], self.game.name, f"{self.seed}:{p}:{len(st.history)}")
        return agent(self.game.view(st, p), self.game.legal_actions(st))

    def hint(self, seat: int) -> dict[str, Any]:
        """The hint message of ``seat``, the seat to act on a table that gives hints:
        the search's analysis of that seat's view (:func:`cardrules.search.analyse` with the
        game's strongest configuration and its budget, about 100 ms, seeded by the
        table's seed, the seat and the number of actions so far), each legal action
        with its estimated value, visits and interval, the search's choice first.  Made
        from the seat's view alone, so it tells nothing the seat may not know (this takes
        a while: call it off the event loop)."""
        if not self.settings.hints:
            raise TableError("this table gives no hints")
        st = self.state
        if st is None or st.is_over or self.to_act != seat:
            raise TableError("a hint is for the seat to act: it is not your turn")
        hooks = self.game.search
        if hooks is None or hooks.config is None:
            raise TableError(f"{self.game.title or self.game.name} has no search to give hints")
        view, legal = self.game.view(st, seat), self.game.legal_actions(st)
        seed = f"{self.seed}:{seat}:{len(st.history)}:hint"
        found = analyse(self.game, view, legal, config=hooks.config, seed=seed, rules=st.rules)
        return {"type": "hint", "step": self.step, "analysis": found.to_json()}

    def after(self, action: Any) -> Any:
        """The state after ``action`` (the table is not changed: see :meth:`commit`)."""
        if self.state is None:
            raise TableError("the game has not started")
        return self.game.apply(self.state, action)

    def commit(self, state: Any, action: Any) -> None:
        """Take ``state``, reached from the current one by ``action``."""
        before = self.state
        self._note(before, action, state)
        ended = state
        if state.scores != before.scores and not state.is_over:
            # the same action without the seed stops at the deal that follows it
            ended = self.game.apply(attrs.evolve(before, seed=None), action)
        self._remember(before, ended, state, len(state.history))
        self.state = state
        self.changed()

    def _remember(self, before: Any, ended: Any, after: Any, step: int) -> None:
        """Note who acted (``before.to_act``), and the end of a hand when the action
        changed the scores (``ended``: the state at its end, before the next deal)."""
        if type(before.to_act) is int:
            self.last = (int(before.to_act), step)
        if after.scores != before.scores or after.is_over:
            self.ended = (step, ended, len(self.lines[0]) - 1)  # and the index of its line

    # -- what a seat is shown ----------------------------------------------------------

    def message(self, seat: int | None, now: float | None = None) -> dict[str, Any]:
        """Everything ``seat`` is shown, as JSON values: never another seat's hidden
        cards (it is made from ``view(state, seat)``, ``render(state, seat)`` and
        ``describe_for``).  ``seat`` ``None`` is a spectator's: the game's
        ``public_view``, the public lines, no legal actions, and no hidden card of
        anyone's.  Made once per change of the table and shared; the clock's time left
        is as at ``now``."""
        out = dict(self._message(seat)[0])
        out["clock"] = self.clock_message(now)
        return out

    def message_text(self, seat: int | None, now: float | None = None) -> str:
        """:meth:`message` as JSON text (what the server sends), made once per change of
        the table: only the clock is added at each call."""
        text = self._message(seat)[1]
        return f'{text[:-1]},"clock":{to_text({"c": self.clock_message(now)})[5:-1]}}}'

    def _message(self, seat: int | None) -> tuple[dict[str, Any], str]:
        kept = self._messages.get(seat)
        if kept is not None and kept[0] == self._version:
            return kept[1], kept[2]
        message = self._make_message(seat)
        text = to_text(message)
        self._messages[seat] = (self._version, message, text)
        return message, text

    def _make_message(self, seat: int | None) -> dict[str, Any]:
        g = self.game
        seats = [
            {"name": g.seat_name(i), "kind": kind, "observer": i in g.observer_seats}
            for i, kind in enumerate(self.seats)
        ]
        out: dict[str, Any] = {
            "type": "state",
            "table": self.id,
            "game": g.name,
            "title": g.title,
            "seat": seat,
            "seat_name": "spectator" if seat is None else g.seat_name(seat),
            "spectator": seat is None,
            "seats": seats,
            "notation": g.notation or "",
            "hints": self.settings.hints and seat is not None,
        }
        st = self.state
        if st is None:
            out.update(status="rule", step=0, god=self.god, legal=[], history=[], scores=[0] * self.players)
            return out
        legal: list[str] = []
        groups: list[str] = []
        if seat is not None and self.to_act == seat and self.seats[seat] == HUMAN:
            actions = g.legal_actions(st)
            legal = [str(a) for a in actions]
            groups = [g.group_of(a) for a in actions]
        lines = self.public_lines if seat is None else self.lines[seat]
        view = g.view(st, seat) if seat is not None else g.public_view(st)
        out.update(
            status=self.status,
            step=len(st.history),
            to_act=self.to_act,
            view=encode_value(view),
            groups=groups,
            layout=self._layout(view),
            last=self._last(lines),
            ended=self._ended(seat),
            text=g.render(st, seat) if seat is not None else self._public_text(),
            legal=legal,
            history=lines[-MAX_HISTORY:],
            history_count=len(lines),
            scores=list(st.scores),
        )
        if self.forfeit is not None:
            f = self.forfeit
            players = [p for p in range(self.players) if p not in g.observer_seats and p != f]
            out.update(
                forfeit=f,
                winners=players,
                summary=f"{g.seat_name(f)} forfeited (the clock ran out); "
                f"scores {' '.join(map(str, st.scores))}",
            )
        elif st.is_over:
            out.update(winners=list(st.winners), summary=g.summary(st))
        if self.is_over and self.rule_text is not None:
            out["rule"] = self.rule_text
        return out

    def _last(self, lines: list[str]) -> dict[str, Any] | None:
        """The last player's action: its ``seat``, ``step`` (the number of actions
        after it) and ``text`` (its line, as the seat shown it may be told it)."""
        if self.last is None:
            return None
        return {"seat": self.last[0], "step": self.last[1], "text": lines[-1] if lines else ""}

    def _layout(self, view: Any) -> dict[str, Any] | None:
        """The game's own table for the page (its ``table_layout``) drawn from ``view``
        (a seat's, or the public view), or ``None`` (no hook, or no public view)."""
        hook = self.game.table_layout
        if hook is None or view is None:
            return None
        return dict(hook(view))

    def _ended(self, seat: int | None) -> dict[str, Any] | None:
        """What the last hand that ended came to, for ``seat`` (``None``: a spectator,
        told it from the public view and the public lines): ``step`` (the number of
        actions after it), ``title`` and ``lines`` (the game's layout's ``result``, or
        the line of the action that ended it)."""
        if self.ended is None:
            return None
        step, state, at = self.ended
        g = self.game
        result = None
        view = g.view(state, seat) if seat is not None else g.public_view(state)
        if g.table_layout is not None and view is not None:
            result = g.table_layout(view).get("result")
        if not result:
            lines = self.lines[seat] if seat is not None else self.public_lines
            line = lines[at] if 0 <= at < len(lines) else ""
            result = {"title": f"The {self.game.scoring} is over", "lines": line.splitlines()}
        return {"step": step, **result}

    def _public_text(self) -> str:
        """The table as a spectator reads it: whose turn, the scores, the hand sizes."""
        g, st = self.game, self.state
        lines = [f"{g.title}: " + ("over" if self.is_over else "play")]
        if self.to_act is not None:
            lines.append(f"to act: {g.seat_name(self.to_act)}")
        lines.append("scores: " + " ".join(map(str, st.scores)))
        sizes = getattr(g.public_view(st), "hand_sizes", None)
        if isinstance(sizes, tuple):
            lines.append("cards in hand: " + ", ".join(f"{g.seat_name(p)} {n}" for p, n in enumerate(sizes)))
        return "\n".join(lines)
