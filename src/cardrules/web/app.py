"""The web table as an ASGI application (Starlette): :func:`create_app`.

Routes: ``/`` the lobby page; ``/games`` the registered games (JSON); ``POST /tables``
makes a table and answers one join link per human seat; ``/table/{id}`` the table page
(the seat's token rides in the link's fragment, which browsers never send to a server);
``/ws/{id}`` the WebSocket of one seat, whose first message is ``{"type": "join",
"token": ...}``.  Then the seat sends ``{"type": "act", "action": TEXT}`` (the text of a
legal action) or, for New Eleusis's God before the game starts, ``{"type": "rule",
"text": RULE}``; the server answers every change with the seat's own
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
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..codec import encode_value
from ..errors import CardRulesError
from ..protocol import GAMES
from .database import open_store
from .store import StaleTable, Store, TableStore, catch_up, table_step
from .table import COMPUTER_KINDS, HUMAN, GameTable, TableError

__all__ = ["MAX_BODY", "MAX_MESSAGE", "STATIC", "create_app"]

#: the largest request body (``POST /tables``), in bytes
MAX_BODY: Final = 64 * 1024
#: the largest WebSocket message a seat may send, in characters
MAX_MESSAGE: Final = 16 * 1024
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
    its connections (seat, socket), a lock that orders its changes, and the task that
    plays its computer seats.

    With a store other processes share (``store.shared``: PostgreSQL), a table in memory
    may be behind the stored one: it is read again when a seat joins, when the listener
    (:meth:`listen`) hears that another process changed it, and when a save is refused
    as stale; whenever that moves it on, every seat connected here is sent its message
    (a table is never moved on here without telling its seats).  A table is always the
    same :class:`GameTable` object here, updated in place, so every connection's
    handler and the computers' task see the same one."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self.tables: dict[str, GameTable] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.sockets: dict[str, list[tuple[int, WebSocket]]] = {}
        self.runners: dict[str, asyncio.Task[None]] = {}
        self.listener: asyncio.Task[None] | None = None
        self._refreshes: set[asyncio.Task[None]] = set()

    def table(self, table_id: str) -> GameTable | None:
        table = self.tables.get(table_id)
        if table is None:
            table = self.store.load(table_id)
            if table is None:
                return None
            self.tables[table_id] = table
        elif self.store.shared and not self.sockets.get(table_id) and not self.lock(table_id).locked():
            # No seat of it here: the listener has not kept it fresh, and no one here is
            # to be told that it moved on.  Read it again (its settings too: the seat
            # tokens), never while a change of ours is being committed (it would be
            # noted twice).  With seats here, the listener keeps it fresh, and a seat
            # that joins reads it again (and tells the others) in seat_socket.
            self.reload(table)
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
            await self.broadcast(table)
            raise

    def lock(self, table_id: str) -> asyncio.Lock:
        return self.locks.setdefault(table_id, asyncio.Lock())

    def create(self, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise TableError("a new table is a JSON object: game, seats, and optional rules, rule")
        unknown = set(body) - {"game", "seats", "rules", "rule"}
        if unknown:
            raise TableError(f"unknown field {sorted(unknown)[0]!r}")
        rule = body.get("rule")
        if rule is not None and not isinstance(rule, str):
            raise TableError("rule is a text")
        table_id = secrets.token_urlsafe(12)
        table, tokens = GameTable.create(
            table_id, body.get("game"), body.get("seats"), rules=body.get("rules"), rule=rule or None
        )
        self.store.add(table)
        self.tables[table_id] = table
        g = table.game
        links = [
            {"seat": seat, "name": g.seat_name(seat), "url": f"/table/{table_id}#{token}"}
            for seat, token in sorted(tokens.items())
        ]
        self.wake(table)
        return {"id": table_id, "links": links, "waits_for_rule": table.waits_for_rule}

    async def broadcast(self, table: GameTable) -> None:
        """Send each connected seat its own message."""
        for seat, socket in list(self.sockets.get(table.id, [])):
            try:
                await socket.send_json(table.message(seat))
            except Exception:  # a socket closing meanwhile: its own loop forgets it
                _log.debug("cannot send to seat %s of %s", seat, table.id)

    async def act(self, table: GameTable, seat: int, text: object) -> None:
        async with self.lock(table.id):
            action = table.read_action(seat, text)
            new = table.after(action)
            await self._save(table, new)
            table.commit(new, action)
            await self.broadcast(table)
        self.wake(table)

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
            )
            probe.start_with_rule(text)  # the library's error, with its caret, if it does not compile
            await self._save(table, probe.state, written=probe)
            table.rule_text, table.state, table.lines = probe.rule_text, probe.state, probe.lines
            await self.broadcast(table)
        self.wake(table)

    def wake(self, table: GameTable) -> None:
        """Start the task that plays the table's computer seats, if one is to act."""
        if not table.computer_to_act:
            return
        running = self.runners.get(table.id)
        if running is not None and not running.done():
            return
        self.runners[table.id] = asyncio.get_running_loop().create_task(self._computers(table))

    async def _computers(self, table: GameTable) -> None:
        while table.computer_to_act:
            step = table_step(table.state)
            try:
                # an agent may think for a while (the strong one searches): off the event loop
                action = await anyio.to_thread.run_sync(table.choose)
                async with self.lock(table.id):
                    if table_step(table.state) != step:
                        continue  # the table moved on (read again) while the agent thought
                    new = table.after(action)
                    await self._save(table, new)
                    table.commit(new, action)
                    await self.broadcast(table)
            except StaleTable:
                # another process played this move first (the same one: the agents are
                # seeded by the step) and the table was read again: go on from there
                continue
            except Exception:
                _log.exception("table %s: the computer's turn failed", table.id)
                return

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
        unknown): if seats of it are connected here and it changed, read it again and
        send each its message.  (The computers' turns are played by the process where the
        change was made, or, after a kill, where a seat connects again; two that play
        the same turn are resolved by the step check.)"""
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
                await self.broadcast(table)

    async def close(self) -> None:
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.listener
        for task in self.runners.values():
            task.cancel()
        for task in self.runners.values():
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
            }
        )
    return out


async def _body(request: Request) -> Any:
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
        raise TableError(f"a request is at most {MAX_BODY} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise TableError(f"a request is at most {MAX_BODY} bytes")
    try:
        return json.loads(bytes(data))
    except (ValueError, RecursionError):
        raise TableError("the request is not JSON") from None


def _page(name: str) -> Response:
    return FileResponse(STATIC / name, headers=_HEADERS, media_type="text/html")


def create_app(db_path: str, *, durable: bool = True, debug: bool = False) -> Starlette:
    """The web table's ASGI application, its tables kept in the SQLite file ``db_path``
    (made when missing; ``":memory:"`` keeps nothing), or in the PostgreSQL database of
    a ``postgresql://`` URL, which several processes may serve at once
    (:func:`~cardrules.web.database.open_store`).  Every accepted action is committed
    before anyone is told of it; ``durable=False`` commits without waiting for the disk
    (see :class:`~cardrules.web.store.Store`).  Serve it with any ASGI server
    (``uvicorn.run(create_app("tables.db"))``), or mount it in your own Starlette app."""

    store = open_store(db_path, durable=durable)
    server = Server(store)

    async def lobby(request: Request) -> Response:
        return _page("lobby.html")

    async def table_page(request: Request) -> Response:
        return _page("table.html")

    async def games(request: Request) -> Response:
        return JSONResponse({"games": games_catalog(), "kinds": [HUMAN, *COMPUTER_KINDS]}, headers=_HEADERS)

    async def new_table(request: Request) -> Response:
        try:
            body = await _body(request)
            made = server.create(body)
        except CardRulesError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400, headers=_HEADERS)
        return JSONResponse(made, status_code=201, headers=_HEADERS)

    async def seat_socket(socket: WebSocket) -> None:
        table_id = socket.path_params["table_id"]
        await socket.accept()
        seat, table = await _join(socket, server, table_id)
        if table is None or seat is None:
            await socket.close(code=4403)
            return
        entry = (seat, socket)
        server.sockets.setdefault(table.id, []).append(entry)
        try:
            async with server.lock(table.id):
                # another process may have moved it on (the listener lags a little): read it
                # again, and then every seat here is shown it, not only this one
                if store.shared and await anyio.to_thread.run_sync(server.reload, table):
                    await server.broadcast(table)
                else:
                    await socket.send_json(table.message(seat))
            server.wake(table)
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if not isinstance(text, str):
                    await _error(socket, "a message is JSON text, not binary")
                    continue
                await _handle(socket, server, table, seat, text)
        except WebSocketDisconnect:
            pass
        finally:
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
            Route("/games", games),
            Route("/tables", new_table, methods=["POST"]),
            Route("/table/{table_id}", table_page),
            WebSocketRoute("/ws/{table_id}", seat_socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app


async def _error(socket: WebSocket, message: str) -> None:
    await socket.send_json({"type": "error", "message": message})


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
    return msg


async def _join(socket: WebSocket, server: Server, table_id: str) -> tuple[int | None, GameTable | None]:
    try:
        with anyio.fail_after(30):
            text = await socket.receive_text()
    except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
        return None, None
    msg = _decode(text)
    if isinstance(msg, str) or msg.get("type") != "join":
        why = msg if isinstance(msg, str) else 'the first message is {"type": "join", "token": ...}'
        await _error(socket, why)
        return None, None
    table = server.table(table_id)
    seat = None if table is None else table.seat_of(msg.get("token"))
    if table is None or seat is None:
        await _error(socket, "no such table, or no seat with this token")
        return None, None
    return seat, table


async def _handle(socket: WebSocket, server: Server, table: GameTable, seat: int, text: str) -> None:
    msg = _decode(text)
    if isinstance(msg, str):
        await _error(socket, msg)
        return
    kind = msg["type"]
    try:
        if kind == "act":
            await server.act(table, seat, msg.get("action"))
        elif kind == "rule":
            await server.write_rule(table, seat, msg.get("text"))
        elif kind == "state":
            async with server.lock(table.id):
                await socket.send_json(table.message(seat))
        else:
            await _error(socket, f"no message of type {kind[:40]!r} (types: act, rule, state)")
    except CardRulesError as exc:
        await _error(socket, str(exc))
    except Exception:  # a fault of the server's (or of a game's own code): nothing was changed
        _log.exception("table %s: a message of seat %s failed", table.id, seat)
        await _error(socket, "the server could not handle this message; nothing was changed")
