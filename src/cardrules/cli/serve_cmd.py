"""``cardrules serve``: the web table (:mod:`cardrules.web`), served by uvicorn.

The lobby at ``http://HOST:PORT/`` makes a table of any registered game: each seat a
person (who gets a join link) or the computer (``random``, ``greedy``, ``strong``).
Every table is kept in the SQLite file ``--db``, or in the PostgreSQL database of a
``--db postgresql://...`` URL, which several processes may serve at once: a server
stopped (or killed) and started again on the same database goes on with every game
where it was.  It needs the extra ``cardrules[web]`` (Starlette, uvicorn, websockets),
and for PostgreSQL ``cardrules[postgres]`` (psycopg 3).
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import re
import sys
from typing import Any

from ..errors import CardRulesError

#: the packages ``cardrules serve`` needs (the extra ``cardrules[web]``)
NEEDS = ("starlette", "uvicorn", "websockets")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the web table: play any game in a browser",
        description="Serve the web table: a lobby makes a table of any game, with a join link "
        "per person; the computer takes the other seats.  Every game is kept in an SQLite "
        "file (or a PostgreSQL database, which several servers may share), so a restarted "
        "server goes on where it was.  Needs: pip install 'cardrules[web]' (and for "
        "PostgreSQL 'cardrules[postgres]').",
        epilog="examples:\n"
        "  cardrules serve             http://127.0.0.1:8000/, the games in cardrules.db\n"
        "  cardrules serve --port 8080 --db /var/lib/cardrules/tables.db\n"
        "  cardrules serve --port 8001 --db postgresql://cards@dbhost/cards\n"
        "      (as many processes as wanted may serve one PostgreSQL database)\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this machine only)"
    )
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    p.add_argument(
        "--db",
        default="cardrules.db",
        metavar="PATH_OR_URL",
        help="the SQLite file of the tables (default cardrules.db), or a postgresql:// URL: "
        "a PostgreSQL database that several cardrules serve processes may share",
    )
    p.add_argument(
        "--fast-commits",
        action="store_true",
        help="commit each action without waiting for the disk: the games survive the server "
        "being killed, not the machine losing power (default: wait)",
    )
    limits = p.add_argument_group(
        "limits",
        "what one client may cost (a message or a table over a limit is refused, with 429 for a table)",
    )
    limits.add_argument(
        "--messages-per-second",
        type=float,
        default=50.0,
        metavar="N",
        help="messages one connection may send a second, on average (bursts of 4N; default 50)",
    )
    limits.add_argument(
        "--address-messages-per-second",
        type=float,
        default=500.0,
        metavar="N",
        help="messages all the connections of one address may send a second (bursts of 2N; default 500)",
    )
    limits.add_argument(
        "--tables-per-minute",
        type=float,
        default=30.0,
        metavar="N",
        help="new tables (and claimed seats) one address may make a minute (bursts of 2N; default 30)",
    )
    limits.add_argument(
        "--autoplay-tables",
        type=int,
        default=2,
        metavar="N",
        help="tables whose computers play with no person connected that play at once (default 2)",
    )
    p.set_defaults(func=run)


class _Disconnects(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != "socket.send() raised exception."


def _shown(db: str) -> str:
    """``--db`` as printed: a URL's password hidden."""
    return re.sub(r"^(postgres(?:ql)?://[^:/@]*:)[^@]*@", r"\1***@", db)


def missing() -> list[str]:
    """The packages of ``cardrules[web]`` that are not installed."""
    return [name for name in NEEDS if importlib.util.find_spec(name) is None]


def run(args: argparse.Namespace) -> int:
    absent = missing()
    if absent:
        raise CardRulesError(
            f"cardrules serve needs {', '.join(absent)}, which {'is' if len(absent) == 1 else 'are'} "
            "not installed: pip install 'cardrules[web]'"
        )
    if not 0 <= args.port <= 65535:
        raise CardRulesError(f"--port must be from 0 to 65535, not {args.port}")
    for name in ("messages_per_second", "address_messages_per_second", "tables_per_minute"):
        value = getattr(args, name)
        if not 0 < value < 1e9:
            raise CardRulesError(f"--{name.replace('_', '-')} must be a positive number, not {value:g}")
    if not 0 <= args.autoplay_tables <= 10_000:
        raise CardRulesError(f"--autoplay-tables must be from 0 to 10000, not {args.autoplay_tables}")
    import uvicorn

    from ..web.app import MAX_MESSAGE, create_app
    from ..web.limits import Limits

    limits = Limits(
        messages=args.messages_per_second,
        messages_burst=max(1, round(4 * args.messages_per_second)),
        address_messages=args.address_messages_per_second,
        address_messages_burst=max(1, round(2 * args.address_messages_per_second)),
        tables=args.tables_per_minute,
        tables_burst=max(1, round(2 * args.tables_per_minute)),
        autoplay_tables=args.autoplay_tables,
    )
    app = create_app(args.db, durable=not args.fast_commits, limits=limits)
    # asyncio warns "socket.send() raised exception." for each write to a connection its
    # client dropped: a disconnect, not a fault of the server's, so not in its log
    logging.getLogger("asyncio").addFilter(_Disconnects())
    print(
        f"cardrules: serving the web table at http://{args.host}:{args.port}/ (tables in {_shown(args.db)})",
        file=sys.stderr,
    )
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=4 * MAX_MESSAGE,  # bigger frames are refused by uvicorn itself
        log_level="warning",
        access_log=False,
    )
    return 0
