"""The ``belot-sim`` command line: one module per subcommand."""

from __future__ import annotations

import argparse
import sys

from . import analyze, bid, simulate, tournament

SUBCOMMANDS = (simulate, tournament, bid, analyze)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="belot-sim", description="Belot simulation from the command line.")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in SUBCOMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "players", None) and "," in args.players:
        args.players = tuple(name.strip() for name in args.players.split(","))
    try:
        return args.func(args)
    except (ValueError, TypeError) as error:  # bad cards, seats, options: one clear line, no traceback
        print(f"belot-sim {args.command}: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
