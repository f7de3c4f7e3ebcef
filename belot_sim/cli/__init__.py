"""The ``belot-sim`` command line: one module per subcommand (exit codes: :mod:`.common`)."""

from __future__ import annotations

import argparse
import os
import select
import signal
import stat
import sys
import threading
from contextlib import contextmanager

from .._version import __version__
from ..engine.compiling import compiling_now
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
    args.given = given_options(argv)
    try:
        with _interrupts_during_compiles_exit(args.command):
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


def given_options(argv: list[str] | None) -> frozenset[str]:
    """The options (argparse ``dest`` names) the command line ``argv`` gives, defaults left out: what a
    resumed dataset does not take from its manifest.  The same parser with every default suppressed
    parses it again (argparse keeps no record of which values were defaults)."""
    parser = build_parser()
    subcommands = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for sub in (p for action in subcommands for p in action.choices.values()):
        for action in sub._actions:
            action.default = argparse.SUPPRESS
    return frozenset(vars(parser.parse_args(argv)))


@contextmanager
def _interrupts_during_compiles_exit(command: str):
    """Ctrl-C while Numba compiles ends the process at once with ``interrupted``: a KeyboardInterrupt
    unwinding through the compiler can be swallowed by LLVM (the run goes on for minutes) or leave a
    half-built library that fails later with an unrelated error.  Nothing is lost by exiting there:
    Numba writes its cache files whole, and a dataset writer survives a kill (its parts are renamed
    only when complete).  Elsewhere Ctrl-C raises KeyboardInterrupt as usual."""
    # signal handlers live in the main thread; a background job started with SIGINT ignored keeps it so
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield
        return

    def on_interrupt(signum, frame):
        if compiling_now():
            print(f"belot-sim {command}: interrupted", file=sys.stderr, flush=True)
            os._exit(INTERRUPTED)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


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
