"""The ``cardrules`` command.

Each sub-command lives in its own module of this package and offers
``register(subparsers)``, which adds its parser and sets ``func`` (taking the parsed
arguments and returning an exit status).  New commands only add a module and a name to
:data:`COMMANDS`.  ``--load MODULE_OR_FILE``, before the command, makes every command
take the games that module or file registers (``cardrules.cli._loading``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import textwrap
from collections.abc import Iterator, Sequence

from .._hotloops import IMPLEMENTATION
from .._version import __version__
from ..errors import CardRulesError
from ._loading import LoadAction

#: Sub-command modules, in the order ``--help`` lists them.
COMMANDS = ("demo", "games", "simulate", "tournament", "rule", "table", "play", "science", "serve", "analyse")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardrules",
        description="Card games run exactly by the book: check rules, play and simulate.",
    )
    loops = "C loops" if IMPLEMENTATION == "C" else "pure Python"  # worth knowing in a bug report
    parser.add_argument("--version", action="version", version=f"cardrules {__version__} ({loops})")
    parser.add_argument(
        "--load",
        action=LoadAction,
        default=[],
        metavar="MODULE_OR_FILE",
        help="first import this module, or load this Python file (path/to/games.py), which "
        "registers games of its own with cardrules.register_game; every command then takes "
        "them (repeatable; before the command: cardrules --load mygames play mygame)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:  # the sub-command modules of this package, by name
        importlib.import_module(f"{__name__}.{name}_cmd").register(sub)
    for each in parsers(parser):
        each.formatter_class = HelpFormatter
    return parser


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help whose descriptions and epilogs are wrapped to the terminal's width, paragraph
    by paragraph, except the paragraphs with indented lines (the examples), which are
    kept as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = []
        for paragraph in text.strip("\n").split("\n\n"):
            if any(line[:1].isspace() for line in paragraph.splitlines()):
                paragraphs.append("\n".join(indent + line for line in paragraph.splitlines()))
            else:
                words = " ".join(paragraph.split())
                paragraphs.append(textwrap.indent(textwrap.fill(words, width - len(indent)), indent))
        return "\n\n".join(paragraphs)


def parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and every sub-command's parser under it, depth first."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from parsers(sub)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command ``argv`` (the process's arguments by default); the exit status."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        status: int = args.func(args)
    except CardRulesError as exc:
        print(f"cardrules: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `cardrules demo | head`
        return 0
    except KeyboardInterrupt:  # Ctrl-C, anywhere: one line, and the shell's usual 128 + SIGINT
        print("cardrules: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
