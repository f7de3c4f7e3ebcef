"""The ``belot-sim`` command line: one module per subcommand (exit codes: :mod:`.common`)."""

from __future__ import annotations

import argparse
import os
import sys

from .._version import __version__
from . import analyze, bid, simulate, tournament, warmup
from .common import CLOSED_PIPE, FAILED, INTERRUPTED, USAGE

SUBCOMMANDS = (simulate, tournament, bid, analyze, warmup)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="belot-sim", description="Belot simulation from the command line.")
    parser.add_argument("--version", action="version", version=f"belot-sim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in SUBCOMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)  # a bad command line exits with USAGE (argparse)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print(f"belot-sim {args.command}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:  # the reader closed stdout: stop quietly, even at the interpreter's final flush
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_PIPE
    except (ValueError, TypeError, ImportError) as error:  # bad cards, seats, options, a missing extra
        print(f"belot-sim {args.command}: {error}", file=sys.stderr)
        return USAGE
    except (OSError, RuntimeError) as error:  # the run failed: a file not written, a scheduler gone
        print(f"belot-sim {args.command}: {error}", file=sys.stderr)
        return FAILED


if __name__ == "__main__":
    sys.exit(main())
