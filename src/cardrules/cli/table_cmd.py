"""``cardrules table``: check a trick-table file, show what a table means.

``cardrules table check FILE`` compiles the file and reports its first fault with the
line, the column and a caret (exit status 1), or lists its tables (status 0).

``cardrules table show NAME|FILE`` prints each table: its classes in the order they are
tried, a matrix saying which class beats which, and the tie-break chain with the orders
it uses.  ``NAME`` is a shipped table (``aegis``, ``gunsore``, ``whist``); a path to an
existing file is read as table text.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..tricks import RankOrder, TableError, TrickTable, builtin, compile_tables

__all__ = ["register", "render"]


def register(sub: Any) -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = sub.add_parser(
        "table",
        help="check trick-table files and show what a table means",
        description="Check trick-table files; show which class of card beats which.",
        epilog="examples:\n  cardrules table check my.tricks\n  cardrules table show aegis\n"
        "  cardrules table show my.tricks --table pirate",
        formatter_class=raw,
    )
    actions = parser.add_subparsers(dest="table_action", metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="compile a table file and report its first fault",
        description="Compile a trick-table file: list its tables (status 0), or report its first "
        "fault with the line, the column and a caret (status 1).",
        epilog="examples:\n  cardrules table check my.tricks",
        formatter_class=raw,
    )
    check.add_argument("file", metavar="FILE", help="a trick-table file")
    check.set_defaults(func=_check)
    show = actions.add_parser(
        "show",
        help="print which class beats which, and the tie-break chain, as a matrix",
        description="Print each table: its classes in the order they are tried, a matrix of which "
        "class beats which, and the tie-break chain.",
        epilog="examples:\n  cardrules table show aegis\n  cardrules table show my.tricks --table pirate",
        formatter_class=raw,
    )
    show.add_argument("what", metavar="NAME|FILE", help="a shipped table (aegis, gunsore, whist) or a file")
    show.add_argument("--table", metavar="NAME", help="only this table of the file (default: every table)")
    show.set_defaults(func=_show)

    def _help(args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    parser.set_defaults(func=_help)


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"cardrules table: cannot read {path}: {exc}", file=sys.stderr)
        return None


def _report(path: str, exc: TableError) -> None:
    print(f"{path}: {exc}", file=sys.stderr)


def _check(args: argparse.Namespace) -> int:
    text = _read(args.file)
    if text is None:
        return 1
    try:
        tables = compile_tables(text)
    except TableError as exc:
        _report(args.file, exc)
        return 1
    names = ", ".join(tables) if tables else "no tables"
    print(f"{args.file}: ok ({len(tables)} table{'s' * (len(tables) != 1)}: {names})")
    return 0


def _show(args: argparse.Namespace) -> int:
    what: str = args.what
    tables: dict[str, TrickTable]
    if os.path.exists(what):
        text = _read(what)
        if text is None:
            return 1
        try:
            tables = compile_tables(text)
        except TableError as exc:
            _report(what, exc)
            return 1
    else:
        try:
            tables = {what: builtin(what)}
        except TableError as exc:
            print(f"cardrules table: {exc}; nor is there a file {what!r}", file=sys.stderr)
            return 1
    if args.table is not None:
        if args.table not in tables:
            print(f"cardrules table: {what} has no table {args.table!r} (tables: {', '.join(tables)})",
                  file=sys.stderr)  # fmt: skip
            return 1
        tables = {args.table: tables[args.table]}
    if not tables:
        print(f"{what}: no tables")
    print("\n\n".join(render(t) for t in tables.values()))
    return 0


def _rank(r: int) -> str:
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(r) or str(r)


_CELL = {1: "beats", -1: "loses", 0: "tie"}


def render(table: TrickTable) -> str:
    """A readable account of ``table``: classes, the relation matrix, the tie-break.

    >>> from cardrules.tricks import builtin
    >>> print(render(builtin("whist")))
    table whist (needs the key card)
    <BLANKLINE>
    classes, tried in order (the first that holds names the card):
      trump  when card.suit == key.suit
      led    when card.suit == lead.suit
      other  every other card
    <BLANKLINE>
    a card of the row's class, played after a card of the column's class:
             trump  led    other
      trump  tie    beats  beats
      led    loses  tie    beats
      other  loses  loses  tie
    (beats/loses: the classes decide; tie: the tie-break decides)
    <BLANKLINE>
    tie-break: ranks standard, then the earlier card keeps the trick
      ranks standard: A > K > Q > J > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 3 > 2
    """
    lines = [f"table {table.name}" + (" (needs the key card)" if table.uses_key else ""), ""]
    lines.append("classes, tried in order (the first that holds names the card):")
    width = max(len(c) for c in table.classes)
    for name, cond in zip(table.classes, table.conditions, strict=True):
        what = f"when {' '.join(cond.split())}" if cond is not None else "every other card"
        lines.append(f"  {name.ljust(width)}  {what}")
    lines += ["", "a card of the row's class, played after a card of the column's class:"]
    col = max(width, *(len(v) for v in _CELL.values()))
    lines.append("  " + " " * width + "  " + "  ".join(c.ljust(col) for c in table.classes).rstrip())
    for row in table.classes:
        cells = "  ".join(_CELL[table.relation(row, c)].ljust(col) for c in table.classes)
        lines.append(f"  {row.ljust(width)}  {cells}".rstrip())
    lines += ["(beats/loses: the classes decide; tie: the tie-break decides)", ""]
    chain = [f"{'ranks' if isinstance(o, RankOrder) else 'suits'} {o.name}" for o in table.tiebreak]
    last = "then the later card takes the trick" if table.later else "then the earlier card keeps the trick"
    lines.append("tie-break: " + ", ".join([*chain, last]))
    for label, order in zip(chain, table.tiebreak, strict=True):
        if isinstance(order, RankOrder) and len(order.groups) > 1:
            lines.append(f"  {label}:")
            for group, ranks in order.groups:
                lines.append(f"    group {group} = {' > '.join(_rank(r) for r in ranks)}")
            lines.append("    " + ", ".join(f"{a} beat {b}" for a, b in order.group_beats))
        else:
            lines.append(f"  {label}: {order.describe()}")
    return "\n".join(lines)
