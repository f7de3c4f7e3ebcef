"""The ``belot-sim`` command line: one module per subcommand (exit codes: :mod:`.common`)."""

from __future__ import annotations

import argparse
import os
import select
import stat
import sys

from .._version import __version__
from . import analyze
from . import bid
from . import simulate
from . import tournament
from . import warmup
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
    except BrokenPipeError as error:
        if not _stdout_closed(error):  # another pipe (a FIFO, a socket): a failure like any other
            print(f"belot-sim {args.command}: {error}", file=sys.stderr)
            return FAILED
        return CLOSED_PIPE
    except (ValueError, TypeError, ImportError) as error:  # bad cards, seats, options, a missing extra
        print(f"belot-sim {args.command}: {_message(error)}", file=sys.stderr)
        return USAGE
    except (OSError, RuntimeError) as error:  # the run failed: a file not written, a scheduler gone
        print(f"belot-sim {args.command}: {_message(error)}", file=sys.stderr)
        return FAILED


def _message(error: BaseException) -> str:
    """The error's text with its notes (a dataset writer's note names the part and the remedy)."""
    return "; ".join([str(error), *getattr(error, "__notes__", ())])


def _stdout_closed(error: BrokenPipeError) -> bool:
    """Whether ``error`` is stdout's reader going away (``belot-sim simulate | head``): no file named,
    stdout a pipe or socket that reports an error.  If so stdout is pointed at /dev/null, so that the
    interpreter's last flush is silent too."""
    if error.filename is not None:
        return False
    try:
        fd = sys.stdout.fileno()
        mode = os.fstat(fd).st_mode
    except (OSError, ValueError, AttributeError):  # no file descriptor behind sys.stdout (a notebook)
        return False
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        return False
    if hasattr(select, "poll"):  # a pipe without readers polls as an error (Linux, macOS)
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        if not any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0)):
            return False
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
    return True


if __name__ == "__main__":
    sys.exit(main())
