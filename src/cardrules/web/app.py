"""The web table as an ASGI application (Starlette): :func:`create_app`.

Routes: ``/`` the lobby page; ``/games`` the registered games (JSON, each with the form of
its rule options: :func:`~cardrules.web.options.options_schema`); ``POST /tables``
makes a table and answers one join link per human seat; ``GET /tables`` the listed
tables and ``POST /tables/{id}/seats/{seat}`` takes a free seat of one;
``/table/{id}`` the table page (the seat's token rides in the link's fragment, which
browsers never send to a server) and ``/watch/{id}`` a spectator's; ``/ws/{id}`` the
WebSocket of one seat, whose first message is ``{"type": "join", "token": ...}``, or
of a spectator (``{"type": "watch"}``).  Then the seat sends ``{"type": "act",
"action": TEXT, "step": N}`` (the text of a legal action, and the step it answers) or,
for New Eleusis's God before the game starts, ``{"type": "rule", "text": RULE}``; the
server answers every change with each connection's own
:meth:`~cardrules.web.table.GameTable.message`, and every refused message with
``{"type": "error", "message": ...}`` (the library's words), changing nothing.

Several processes may serve the same tables from one PostgreSQL database
(:mod:`cardrules.web.pgstore`): each save names the step it was made from and is
refused when another process moved the table on first (the seat is told, and shown the
table as it is), and each process listens for the tables the others change and sends
its connected seats their new messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..codec import encode_value
from ..errors import CardRulesError
from ..protocol import GAMES
from .database import open_store
from .limits import DEFAULT_LIMITS, Bucket, Limits, PerAddress
from .options import options_schema
from .store import StaleTable, Store, TableStore, catch_up, table_step
from .table import COMPUTER_KINDS, HUMAN, GameTable, TableError, TableSettings, to_text, unencodable

__all__ = ["MAX_BODY", "MAX_LISTED", "MAX_MESSAGE", "STATIC", "TABLE_FIELDS", "create_app"]

#: the largest request body (``POST /tables``), in bytes
MAX_BODY: Final = 64 * 1024
#: the largest WebSocket message a seat may send, in characters
MAX_MESSAGE: Final = 16 * 1024
#: the most tables ``GET /tables`` lists (the newest)
MAX_LISTED: Final = 50
#: the fields of ``POST /tables`` that say how a table is run (:class:`TableSettings`)
TABLE_FIELDS: Final = ("spectators", "listed", "clock", "on_timeout", "autoplay", "hints")
#: the page's files (HTML, JavaScript, CSS), shipped in the package
STATIC: Final = Path(__file__).parent / "static"

_log = logging.getLogger("cardrules.web")

_HEADERS: Final = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class Server:
    """The tables being played: loaded from the store when first asked for, each with
    its connections (seat, socket; a spectator's seat is ``None``), a lock that orders
    its changes, the task that plays its computer seats while a person is connected (or
    on its own, for an ``autoplay`` table within :attr:`Limits.autoplay_tables`), and
    the timer of its clock.

    With a store other processes share (``store.shared``: PostgreSQL), a table in memory
    may be behind the stored one: it is read again when a seat joins, when the listener
    (:meth:`listen`) hears that another process changed it, and when a save is refused
    as stale; whenever that moves it on, every connection here is sent its message
    (a table is never moved on here without telling them), and its clock is set again
    from the stored deadline.  A table is always the same :class:`GameTable` object
    here, updated in place, so every connection's handler and the computers' task see
    the same one."""

    def __init__(self, store: TableStore, limits: Limits = DEFAULT_LIMITS) -> None:
        self.store = store
        self.limits = limits
        self.tables: dict[str, GameTable] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.sockets: dict[str, list[tuple[int | None, WebSocket]]] = {}
        self.runners: dict[str, asyncio.Task[None]] = {}
        self.clocks: dict[str, asyncio.Task[None]] = {}
        #: autoplay tables playing with no person connected, and those waiting their turn
        self.autoplaying: set[str] = set()
        self.autoplay_queue: deque[str] = deque()
        self.address_messages = PerAddress(limits.address_messages, limits.address_messages_burst)
        self.address_tables = PerAddress(limits.tables / 60.0, limits.tables_burst)
        self.closing = False
        self.listener: asyncio.Task[None] | None = None
        self._refreshes: set[asyncio.Task[None]] = set()

    def table(self, table_id: str) -> GameTable | None:
        table = self.tables.get(table_id)
        if table is None:
            if not isinstance(table_id, str) or len(table_id) > 64 or unencodable(table_id) is not None:
                return None  # no table has such an id (a path's bytes that are not UTF-8 ...)
            try:
                table = self.store.load(table_id)
            except Exception:  # a damaged row: that table is refused, the server goes on
                _log.exception("table %s cannot be read from the store", table_id[:64])
                raise TableError("this table cannot be read from the store") from None
            if table is None:
                return None
            self.tables[table_id] = table
            self.arm_clock(table)
        elif (
            self.store.shared
            and not self.sockets.get(table_id)
            and not self.lock(table_id).locked()
            # No connection of it here: the listener has not kept it fresh, and no one
            # here is to be told that it moved on.  Read it again (its settings too: the
            # seat tokens, the taken seats, the clock), never while a change of ours is
            # being committed (it would be noted twice).  With connections here, the
            # listener keeps it fresh, and a seat that joins reads it again (and tells
            # the others) in seat_socket.
            and self.reload(table)
        ):
            self.arm_clock(table)
        return table

    def reload(self, table: GameTable) -> bool:
        """Update ``table`` in place to the stored one (blocking; never while a change of
        the table is under way: with its lock held, or free), by applying the actions
        it lacks (:func:`~cardrules.web.store.catch_up`) or else reading it whole;
        whether it changed."""
        row = self.store.row(table.id)
        if row is None:
            return False
        changed = catch_up(table, *row)
        if changed is not None:
            return changed
        fresh = Store._table(table.id, *row)
        # every attribute, whatever the settings hold: the object stays the one every
        # handler of this table refers to
        vars(table).update(vars(fresh))
        table.changed()  # no message made before is sent again
        return True

    async def _save(self, table: GameTable, state: Any, *, written: GameTable | None = None) -> None:
        """Commit ``state`` as ``table``'s (with the settings of ``written``, default
        ``table``), made from the table's current step.  When another process moved
        the table on first, read it again, show every seat here the table as it is, and
        raise :class:`~cardrules.web.store.StaleTable` (the action was not applied).
        Called with the table's lock held."""
        expected = table_step(table.state)
        try:
            # accepted once committed; the commit waits for the disk off the event loop
            await anyio.to_thread.run_sync(
                lambda: self.store.save(written or table, state, expected=expected)
            )
        except StaleTable:
            await anyio.to_thread.run_sync(self.reload, table)
            self.arm_clock(table)
            await self.broadcast(table)
            raise

    def lock(self, table_id: str) -> asyncio.Lock:
        return self.locks.setdefault(table_id, asyncio.Lock())

    def create(self, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise TableError("a new table is a JSON object: game, seats, and optional rules, rule")
        unknown = set(body) - {"game", "seats", "rules", "rule", *TABLE_FIELDS}
        if unknown:
            raise TableError(f"unknown field {sorted(unknown)[0]!r}")
        rule = body.get("rule")
        if rule is not None and not isinstance(rule, str):
            raise TableError("rule is a text")
        settings = TableSettings.read(body)
        table_id = secrets.token_urlsafe(12)
        table, tokens = GameTable.create(
            table_id,
            body.get("game"),
            body.get("seats"),
            rules=body.get("rules"),
            rule=rule or None,
            settings=settings,
        )
        self.store.add(table)
        self.tables[table_id] = table
        g = table.game
        links = [
            {"seat": seat, "name": g.seat_name(seat), "url": f"/table/{table_id}#{token}"}
            for seat, token in sorted(tokens.items())
        ]
        self.wake(table)
        self.arm_clock(table)
        return {
            "id": table_id,
            "links": links,
            "waits_for_rule": table.waits_for_rule,
            "watch": f"/watch/{table_id}" if settings.spectators else None,
        }

    def listing(self) -> list[dict[str, Any]]:
        """The listed tables, newest first (at most :data:`MAX_LISTED`)."""
        out = []
        for table_id in self.store.listed_ids(MAX_LISTED):
            try:
                table = self.table(table_id)
            except TableError:
                continue
            if table is None or not table.settings.listed:
                continue
            g = table.game
            free = set(table.free_seats())
            out.append(
                {
                    "id": table.id,
                    "game": g.name,
                    "title": g.title,
                    "players": table.players,
                    "status": table.status,
                    "seats": [
                        {"seat": i, "name": g.seat_name(i), "kind": kind, "free": i in free}
                        for i, kind in enumerate(table.seats)
                    ],
                    "watch": f"/watch/{table.id}" if table.settings.spectators else None,
                    "clock": table.settings.clock,
                }
            )
        return out

    async def claim(self, table_id: str, seat: object) -> dict[str, Any]:
        table = self.table(table_id)
        if table is None:
            raise TableError("no such table")
        async with self.lock(table.id):
            before = (dict(table.tokens), set(table.taken))
            token = table.claim(seat)
            try:
                await self._save(table, table.state)
            except StaleTable:
                raise  # read again: its seats are as stored (the seat may be taken)
            except BaseException:
                table.tokens, table.taken = before
                raise
        return {"url": f"/table/{table.id}#{token}"}

    async def joined(self, table: GameTable, seat: int) -> None:
        """A person joined ``seat``: it is taken (no longer free to claim)."""
        for _ in range(3):  # again when another process changed the table meanwhile
            if seat in table.taken:
                return
            async with self.lock(table.id):
                if seat in table.taken:
                    return
                table.taken.add(seat)
                try:
                    await self._save(table, table.state)
                    return
                except StaleTable:
                    continue  # read again: taken anew on the table as stored
                except BaseException:
                    table.taken.discard(seat)
                    raise

    def connected(self, table: GameTable) -> bool:
        """Whether a person (a seat or a spectator) is connected to ``table``."""
        return bool(self.sockets.get(table.id))

    async def send(self, socket: WebSocket, text: str) -> None:
        await socket.send_text(text)

    async def broadcast(self, table: GameTable) -> None:
        """Send each connected seat its own message (made once, shared by its sockets)."""
        now = time.time()
        for seat, socket in list(self.sockets.get(table.id, [])):
            try:
                await socket.send_text(table.message_text(seat, now))
            except Exception:  # a socket closing meanwhile: its own loop forgets it
                _log.debug("cannot send to seat %s of %s", seat, table.id)

    async def _commit(self, table: GameTable, action: Any) -> None:
        """Apply ``action`` (under the table's lock): stored, then taken, then sent."""
        new = table.after(action)
        before = table.deadline
        table.deadline = table.deadline_for(new)
        try:
            await self._save(table, new)
        except StaleTable:
            raise  # the table was read again: its deadline is the stored one
        except BaseException:
            table.deadline = before
            raise
        table.commit(new, action)
        await self.broadcast(table)

    async def act(self, table: GameTable, seat: int, text: object, step: object) -> None:
        if isinstance(step, bool) or not isinstance(step, int):
            raise TableError('an act names the step it answers: {"type": "act", "action": ..., "step": N}')
        async with self.lock(table.id):
            if step != table.step:
                raise TableError(
                    f"this act answers step {step}, but the table is at step {table.step}: "
                    "nothing was changed (look at the table again)"
                )
            action = table.read_action(seat, text)
            await self._commit(table, action)
        self.wake(table)
        self.arm_clock(table)

    async def write_rule(self, table: GameTable, seat: int, text: object) -> None:
        if not isinstance(text, str):
            raise TableError("a rule is a text")
        async with self.lock(table.id):
            table.check_rule_writer(seat)
            probe = GameTable(
                table.id,
                table.game.name,
                table.players,
                table.seats,
                table.tokens,
                table.seed,
                options=table.options,
                settings=table.settings,
                taken=table.taken,
            )
            probe.start_with_rule(text)  # the library's error, with its caret, if it does not compile
            probe.deadline = probe.deadline_for(probe.state)
            await self._save(table, probe.state, written=probe)
            table.rule_text, table.state, table.deadline = probe.rule_text, probe.state, probe.deadline
            table.lines, table.public_lines = probe.lines, probe.public_lines
            table.last, table.ended = probe.last, probe.ended
            table.changed()
            await self.broadcast(table)
        self.wake(table)
        self.arm_clock(table)

    # -- the computer seats ------------------------------------------------------------

    def _may_play(self, table: GameTable) -> bool:
        """Whether the computers of ``table`` may play now: a person is connected, or
        the table plays on its own and has (or takes) one of the budget's places."""
        if self.connected(table):
            return True
        if not table.settings.autoplay:
            return False
        if table.id in self.autoplaying:
            return True
        if len(self.autoplaying) < self.limits.autoplay_tables:
            self.autoplaying.add(table.id)
            return True
        if table.id not in self.autoplay_queue:
            self.autoplay_queue.append(table.id)
        return False

    def _release(self, table: GameTable) -> None:
        """``table`` no longer plays on its own: the next waiting table takes its place."""
        if table.id not in self.autoplaying:
            return
        self.autoplaying.discard(table.id)
        while self.autoplay_queue:
            waiting = self.tables.get(self.autoplay_queue.popleft())
            if waiting is not None and waiting.computer_to_act:
                self.wake(waiting)
                return

    def wake(self, table: GameTable) -> None:
        """Start the task that plays the table's computer seats, if one is to act and
        they may play now (see :meth:`_may_play`)."""
        if self.closing:
            return
        if not table.computer_to_act:
            self._release(table)
            return
        running = self.runners.get(table.id)
        if running is not None and not running.done():
            return
        if not self._may_play(table):
            return
        self.runners[table.id] = asyncio.get_running_loop().create_task(self._computers(table))

    async def _computers(self, table: GameTable) -> None:
        try:
            while table.computer_to_act and self._may_play(table):
                # an agent may think for a while (the strong one searches): off the event loop
                step = table.step
                action = await anyio.to_thread.run_sync(table.choose)
                async with self.lock(table.id):
                    if table.step != step or not table.computer_to_act:
                        continue  # the table moved on (or was read again) while the agent thought
                    try:
                        await self._commit(table, action)
                    except StaleTable:
                        # another process played this move first (the same one: the
                        # agents are seeded by the step) and the table was read again
                        continue
                self.arm_clock(table)
        except Exception:
            _log.exception("table %s: the computer's turn failed", table.id)
        finally:
            if self.connected(table) or table.is_over or not table.computer_to_act:
                self._release(table)

    # -- the clock -----------------------------------------------------------------------

    def arm_clock(self, table: GameTable) -> None:
        """(Re)start the timer of the table's clock: at its deadline, the seat to act
        plays the greedy move or forfeits (:class:`~cardrules.web.table.TableSettings`)."""
        old = self.clocks.pop(table.id, None)
        if old is not None and not old.done() and old is not asyncio.current_task():
            old.cancel()
        if table.deadline is None or table.to_act is None or self.closing:
            return
        with contextlib.suppress(RuntimeError):  # no running loop (a table loaded outside the app)
            loop = asyncio.get_running_loop()
            self.clocks[table.id] = loop.create_task(self._clock(table, table.step, table.deadline))

    async def _clock(self, table: GameTable, step: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        try:
            async with self.lock(table.id):
                if table.step != step or table.deadline != deadline or table.to_act is None:
                    return
                seat = table.to_act
                if table.settings.on_timeout == "forfeit":
                    before = table.deadline
                    table.forfeits(seat)
                    try:
                        await self._save(table, table.state)
                    except StaleTable:
                        raise  # read again: the table is as stored
                    except BaseException:
                        table.forfeit, table.deadline = None, before
                        table.changed()
                        raise
                    await self.broadcast(table)
                else:
                    action = await anyio.to_thread.run_sync(table.timeout_action)
                    await self._commit(table, action)
        except StaleTable:
            pass  # another process moved the table on first (its own clock, or a move)
        except Exception:
            _log.exception("table %s: the clock's move failed", table.id)
            return
        self.wake(table)
        self.arm_clock(table)

    async def listen(self) -> None:
        """Hear the tables other processes change (``store.changes()``), for as long as
        the server runs, listening again after a lost connection."""
        while True:
            try:
                async for change in self.store.changes():
                    if change is None:  # listening (again): anything may have changed before
                        for table_id in [t for t, socks in self.sockets.items() if socks]:
                            self._refresh_soon(table_id, None)
                    else:
                        self._refresh_soon(*change)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                _log.warning("listening for other processes' changes failed (%s): listening again", exc)
            if not self.store.shared:
                return
            await asyncio.sleep(1.0)

    def _refresh_soon(self, table_id: str, step: int | None) -> None:
        task = asyncio.get_running_loop().create_task(self.refresh(table_id, step))
        self._refreshes.add(task)
        task.add_done_callback(self._refreshes.discard)

    async def refresh(self, table_id: str, step: int | None) -> None:
        """Another process saved the table ``table_id`` at ``step`` (``None``:
        unknown): if connections of it are here and it changed, read it again (its
        settings too: a taken seat, the clock's deadline, which sets this process's
        timer again), and send each its message.  (The computers' turns are played by
        the process where the change was made, or, after a kill, where a seat connects
        again; two that play the same turn are resolved by the step check.)"""
        table = self.tables.get(table_id)
        if table is None or not self.sockets.get(table_id):
            return
        if step is not None and step < table_step(table.state):
            return  # read already (an equal step may bring new settings)
        async with self.lock(table_id):
            if step is not None and step < table_step(table.state):
                return
            try:
                changed = await anyio.to_thread.run_sync(self.reload, table)
            except Exception:
                _log.exception("table %s: cannot read it again after another process changed it", table_id)
                return
            if changed:
                self.arm_clock(table)
                await self.broadcast(table)

    async def close(self) -> None:
        self.closing = True
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.listener
        tasks = [*self.runners.values(), *self.clocks.values(), *self._refreshes]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.store.close()


def games_catalog() -> list[dict[str, Any]]:
    """The registered games, as the lobby shows them."""
    out = []
    for name in GAMES:
        g = GAMES[name]
        try:
            defaults = encode_value(g.Rules())
        except Exception:
            defaults = {}
        out.append(
            {
                "name": name,
                "title": g.title,
                "players": list(g.player_counts),
                "default_players": g.default_players,
                "observers": sorted(g.observer_seats),
                "seat_names": {str(k): v for k, v in g.seat_names.items()},
                "rule_text": g.rules_from_text is not None,
                "rules": defaults if isinstance(defaults, dict) else {},
                "options": list(options_schema(g)),
            }
        )
    return out


async def _body(request: Request) -> Any:
    size = request.headers.get("content-length")
    if size is not None and (not size.isdecimal() or int(size) > MAX_BODY):
        raise TableError(f"a request is at most {MAX_BODY} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise TableError(f"a request is at most {MAX_BODY} bytes")
    try:
        body = json.loads(bytes(data))
    except (ValueError, RecursionError):
        raise TableError("the request is not JSON") from None
    why = unencodable(body)
    if why is not None:
        raise TableError(why)
    return body


def _page(name: str) -> Response:
    return FileResponse(STATIC / name, headers=_HEADERS, media_type="text/html")


def _json(data: Any, status: int = 200) -> Response:
    return Response(to_text(data), status_code=status, headers=_HEADERS, media_type="application/json")


def _address(scope_client: Any) -> str:
    return str(scope_client[0]) if scope_client else "?"


def create_app(
    db_path: str, *, durable: bool = True, debug: bool = False, limits: Limits = DEFAULT_LIMITS
) -> Starlette:
    """The web table's ASGI application, its tables kept in the SQLite file ``db_path``
    (made when missing; ``":memory:"`` keeps nothing), or in the PostgreSQL database of
    a ``postgresql://`` URL, which several processes may serve at once
    (:func:`~cardrules.web.database.open_store`).  Every accepted action is committed
    before anyone is told of it; ``durable=False`` commits without waiting for the disk
    (see :class:`~cardrules.web.store.Store`).  ``limits`` bounds what one client may
    cost (:class:`~cardrules.web.limits.Limits`).  Serve it with any ASGI server
    (``uvicorn.run(create_app("tables.db"))``), or mount it in your own Starlette app."""

    store = open_store(db_path, durable=durable)
    server = Server(store, limits)
    catalog: list[Any] = []

    async def lobby(request: Request) -> Response:
        return _page("lobby.html")

    async def table_page(request: Request) -> Response:
        return _page("table.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", headers=_HEADERS, media_type="image/svg+xml")

    async def games(request: Request) -> Response:
        if not catalog:  # made once: the registered games do not change while serving
            catalog.append(to_text({"games": games_catalog(), "kinds": [HUMAN, *COMPUTER_KINDS]}))
        return Response(catalog[0], headers=_HEADERS, media_type="application/json")

    def limited(request: Request) -> Response | None:
        if server.address_tables.take(_address(request.client)):
            return None
        per_minute = server.limits.tables
        return _json({"error": f"too many new tables from this address (at most {per_minute:g} a minute): "
                               "try again later"}, 429)  # fmt: skip

    async def new_table(request: Request) -> Response:
        refused = limited(request)
        if refused is not None:
            return refused
        try:
            body = await _body(request)
            made = server.create(body)
        except CardRulesError as exc:
            return _json({"error": str(exc)}, 400)
        return _json(made, 201)

    async def open_tables(request: Request) -> Response:
        return _json({"tables": server.listing()})

    async def claim_seat(request: Request) -> Response:
        refused = limited(request)
        if refused is not None:
            return refused
        seat: object = request.path_params["seat"]
        try:
            seat = int(str(seat)) if str(seat).isdecimal() and len(str(seat)) < 4 else seat
            return _json(await server.claim(request.path_params["table_id"], seat))
        except CardRulesError as exc:
            return _json({"error": str(exc)}, 400)

    async def seat_socket(socket: WebSocket) -> None:
        table_id = socket.path_params["table_id"]
        address = _address(socket.client)
        entry: tuple[int | None, WebSocket] | None = None
        table: GameTable | None = None
        try:
            await socket.accept()
            joined = await _join(socket, server, table_id)
            if joined is None:
                await socket.close(code=4403)
                return
            seat, table = joined
            entry = (seat, socket)
            server.sockets.setdefault(table.id, []).append(entry)
            shown = False
            if store.shared:
                async with server.lock(table.id):
                    # another process may have moved it on (the listener lags a little):
                    # read it again, and then every connection here is shown it
                    if await anyio.to_thread.run_sync(server.reload, table):
                        server.arm_clock(table)
                        await server.broadcast(table)
                        shown = True
            if seat is not None:
                await server.joined(table, seat)
            if not shown:
                # a (re)connection is sent the whole current message, never a difference
                await socket.send_text(table.message_text(seat))
            server.wake(table)
            bucket = Bucket(server.limits.messages, server.limits.messages_burst)
            refused = 0
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not (bucket.take() and server.address_messages.take(address)):
                    refused += 1
                    if refused >= server.limits.flood:
                        await socket.close(code=1008, reason="too many messages")
                        break
                    await _error(socket, f"too many messages (at most {server.limits.messages:g} a second): "
                                         "this one was not read")  # fmt: skip
                    continue
                refused = 0
                text = message.get("text")
                if not isinstance(text, str):
                    await _error(socket, "a message is JSON text, not binary")
                    continue
                await _handle(socket, server, table, seat, text)
        except Exception as exc:
            # the client went away while it was being answered: a disconnect, not a fault
            if _gone(socket, exc):
                _log.debug("a client of table %s went away: %r", table_id[:64], exc)
            else:
                _log.exception("table %s: a connection failed", table_id[:64])
        finally:
            if table is not None and entry is not None:
                with contextlib.suppress(ValueError):
                    server.sockets.get(table.id, []).remove(entry)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if store.shared:
            server.listener = asyncio.get_running_loop().create_task(server.listen())
        yield
        await server.close()

    app = Starlette(
        debug=debug,
        routes=[
            Route("/", lobby),
            Route("/favicon.ico", favicon),
            Route("/games", games),
            Route("/tables", new_table, methods=["POST"]),
            Route("/tables", open_tables, methods=["GET"]),
            Route("/tables/{table_id}/seats/{seat}", claim_seat, methods=["POST"]),
            Route("/table/{table_id}", table_page),
            Route("/watch/{table_id}", table_page),
            WebSocketRoute("/ws/{table_id}", seat_socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app


#: what the servers' WebSocket layers raise for a client that went away (uvicorn, websockets)
_GONE: Final = frozenset(
    {
        "ClientDisconnected",  # uvicorn
        "ConnectionClosed",  # websockets
        "ConnectionClosedError",
        "ConnectionClosedOK",
        "WebSocketDisconnected",  # Starlette: a send after the close
    }
)


def _gone(socket: WebSocket, exc: Exception) -> bool:
    """Whether ``exc`` says only that the client is gone (closed, reset, or closed while
    a reply was being sent)."""
    if isinstance(exc, (WebSocketDisconnect, OSError, ConnectionError)):
        return True
    if type(exc).__name__ in _GONE:
        return True
    return isinstance(exc, RuntimeError) and (
        socket.client_state == WebSocketState.DISCONNECTED
        or socket.application_state == WebSocketState.DISCONNECTED
    )


async def _error(socket: WebSocket, message: str) -> None:
    await socket.send_text(to_text({"type": "error", "message": message}))


def _decode(text: str) -> dict[str, Any] | str:
    """A seat's message as a JSON object, or why it is not one."""
    if len(text) > MAX_MESSAGE:
        return f"a message is at most {MAX_MESSAGE} characters, not {len(text)}"
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        return "a message is a JSON object"
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        return "a message is a JSON object with a type"
    why = unencodable(msg, "the message")
    if why is not None:
        return why
    return msg


_FIRST: Final = 'the first message is {"type": "join", "token": ...} or {"type": "watch"}'


async def _join(socket: WebSocket, server: Server, table_id: str) -> tuple[int | None, GameTable] | None:
    """The seat (``None``: a spectator) and table a socket's first message joins, or
    ``None`` (said to the socket) when it joins none."""
    try:
        with anyio.fail_after(30):
            text = await socket.receive_text()
    except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
        return None
    msg = _decode(text)
    if isinstance(msg, str) or msg.get("type") not in ("join", "watch"):
        why = msg if isinstance(msg, str) else _FIRST
        await _error(socket, why)
        return None
    try:
        table = server.table(table_id)
    except TableError as exc:
        await _error(socket, str(exc))
        return None
    if msg["type"] == "watch":
        if table is None:
            await _error(socket, "no such table")
            return None
        if not table.settings.spectators:
            await _error(socket, "this table cannot be watched")
            return None
        return None, table
    seat = None if table is None else table.seat_of(msg.get("token"))
    if table is None or seat is None:
        await _error(socket, "no such table, or no seat with this token")
        return None
    return seat, table


async def _handle(socket: WebSocket, server: Server, table: GameTable, seat: int | None, text: str) -> None:
    msg = _decode(text)
    if isinstance(msg, str):
        await _error(socket, msg)
        return
    kind = msg["type"]
    try:
        if kind == "state":
            await socket.send_text(table.message_text(seat))
        elif kind in ("act", "rule", "hint") and seat is None:
            await _error(socket, "a spectator watches: it cannot act")
        elif kind == "hint" and seat is not None:
            # the search thinks for a while: off the event loop
            hint = await anyio.to_thread.run_sync(table.hint, seat)
            await socket.send_text(to_text(hint))
        elif kind == "act" and seat is not None:
            await server.act(table, seat, msg.get("action"), msg.get("step"))
        elif kind == "rule" and seat is not None:
            await server.write_rule(table, seat, msg.get("text"))
        else:
            await _error(socket, f"no message of type {kind[:40]!r} (types: act, rule, state, hint)")
    except CardRulesError as exc:
        await _error(socket, str(exc))
    except Exception as exc:
        if _gone(socket, exc):  # the client went away meanwhile: its connection's loop ends
            raise
        # a fault of the server's (or of a game's own code): nothing was changed
        _log.exception("table %s: a message of seat %s failed", table.id, seat)
        await _error(socket, "the server could not handle this message; nothing was changed")
