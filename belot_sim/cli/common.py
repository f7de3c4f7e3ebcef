"""Arguments and helpers the subcommands share.

Exit codes: 0 done, 2 a usage error (a bad argument or option, found before any work starts), 1 a
run that failed (e.g. a file that could not be written), 130 interrupted (Ctrl-C), 141 the reader of
its output went away (``belot-sim simulate | head``: a closed pipe, as a shell's own tools end).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys
import tempfile

import pandas as pd

from ..engine.registry import BIDDER_CODES, PLAYER_CODES, SEARCH_PLAYERS
from ..game.rules import PRESETS, Contract, Rules

USAGE = 2
FAILED = 1
INTERRUPTED = 130
CLOSED_PIPE = 141  # 128 + SIGPIPE


class UsageError(ValueError):
    """A bad command line found after parsing (exit code 2, one line, no traceback)."""


#: A count with its digits grouped by thousands (``1,000,000``): the only commas a count may have.
THOUSANDS = re.compile(r"\d{1,3}(,\d{3})+")


def positive_int(text: str) -> int:
    """An argparse type: a positive integer, its digits grouped by ``_`` (as Python writes them) or by
    thousands with ``,`` if wished (``1,000,000``; ``1,5`` is refused, not read as 15)."""
    try:
        if "," in text and not THOUSANDS.fullmatch(text.strip()):
            raise ValueError(text)
        value = int(text.replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def seat(text: str) -> int:
    if text not in ("0", "1", "2", "3"):
        raise argparse.ArgumentTypeError(f"must be a seat 0..3, got {text!r}")
    return int(text)


def contract_name(text: str) -> str | None:
    """``random`` (None) or a contract in any spelling the API takes (``h``, ``nt``, ``hearts``)."""
    if text.strip().lower() == "random":
        return None
    try:
        return str(Contract.from_str(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def players_value(text: str) -> str | tuple[str, ...]:
    """One player name, or four comma-separated (seats 0..3), any case."""
    return _seat_names(text, PLAYER_CODES, "player")


def bidders_value(text: str) -> str | tuple[str, ...]:
    """One bidder name, or four comma-separated (seats 0..3), any case."""
    return _seat_names(text, BIDDER_CODES, "bidder")


def _seat_names(text: str, known, what: str) -> str | tuple[str, ...]:
    """An argparse type: one name of ``known`` for every seat, or four comma-separated (seats 0..3)."""
    names = [name.strip().lower() for name in text.split(",")]
    if len(names) not in (1, 4):
        raise argparse.ArgumentTypeError(f"give one {what} or four comma-separated {what}s, got {text!r}")
    unknown = [name for name in names if name not in known]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown {what} {unknown[0]!r}: choose from {sorted(known)}")
    return names[0] if len(names) == 1 else tuple(names)


def seat_names_text(names: str | tuple[str, ...]) -> str:
    """``--players`` / ``--bidders`` as given: one name, or four joined by commas."""
    return names if isinstance(names, str) else ",".join(names)


def add_bidder_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--bidder-option NAME=VALUE`` (repeatable), the library's ``bidder_options``."""
    from ..engine.bidder_options import BIDDER_OPTIONS

    parser.add_argument("--bidder-option", action="append", default=[], metavar="NAME=VALUE",
                        help=f"tune {what} (repeatable): e.g. --bidder-option pass_prob=0.8 --bidder-option "
                             f"mc_samples=64; the names: {', '.join(sorted(BIDDER_OPTIONS))}")


def bidder_options_of(args: argparse.Namespace) -> dict | None:
    """The ``--bidder-option`` pairs as ``bidder_options`` (None when none is given): numbers, or a
    player name (``mc_player``); the library checks names and values."""
    options: dict = {}
    for item in args.bidder_option:
        name, sep, text = item.partition("=")
        name, text = name.strip().lower(), text.strip()
        if not sep or not name or not text:
            raise UsageError(f"--bidder-option takes NAME=VALUE, e.g. pass_prob=0.8, got {item!r}")
        if name in options:  # the later one would win unseen
            raise UsageError(f"--bidder-option {name}= given twice")
        options[name] = _number_or_name(text)
    return options or None


def _number_or_name(text: str) -> int | float | str:
    """``64`` → 64, ``0.8`` → 0.8, ``Hard`` → ``"hard"`` (ASCII digits only: ``"²"`` stays text)."""
    if text.isascii():
        for kind in (int, float):
            try:
                return kind(text)
            except ValueError:
                pass
    return text.lower()


def player_name(text: str) -> str:
    name = text.strip().lower()
    if name not in PLAYER_CODES:
        raise argparse.ArgumentTypeError(f"unknown player {text!r}: choose from {sorted(PLAYER_CODES)}")
    return name


def add_rules(parser: argparse.ArgumentParser) -> None:
    """``--rules PRESET`` and ``--rule NAME=VALUE`` (repeatable)."""
    parser.add_argument("--rules", type=str.lower, choices=sorted(PRESETS), default="bulgarian",
                        help="rule preset (default bulgarian; the rules are in docs/rules.md)")
    options = ", ".join(_option_fields())
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help=f"change one rule option of the preset (repeatable): {options}; "
                             "e.g. --rule undertrump=required --rule match_target=101 (the family is the "
                             "preset's: --rules classic)")


def _option_fields() -> dict:
    """The rule options ``--rule`` changes: all but ``family``, which --rules chooses (changing it alone
    would keep the other family's defaults: a silent hybrid)."""
    return {f.name: f for f in dataclasses.fields(Rules) if f.name != "family"}


def rules_of(args: argparse.Namespace) -> Rules:
    """The preset with the ``--rule`` changes (a UsageError names a bad one)."""
    rules = Rules.preset(args.rules)
    fields = _option_fields()
    changes, given = {}, {}
    for item in args.rule:
        name, sep, text = item.partition("=")
        name = name.strip().lower()
        if name == "family":
            raise UsageError(f"--rule family= would keep the other options of the {args.rules} preset, a mix of "
                             f"families: choose a preset with --rules ({', '.join(sorted(PRESETS))}), then change "
                             "its options with --rule")
        if not sep or name not in fields:
            raise UsageError(f"--rule takes NAME=VALUE with NAME one of {sorted(fields)}, got {item!r}")
        if name in changes:  # the later one would win unseen, as a typo in a long command line
            raise UsageError(f"--rule {name}= given twice ({given[name]!r}, then {text.strip()!r})")
        given[name] = text.strip()
        changes[name] = _option_value(name, getattr(rules, name), text.strip())
    try:
        return rules.replace(**changes)
    except (ValueError, TypeError) as error:
        raise UsageError(f"--rule: {error}") from None


def _option_value(name: str, current, text: str):
    if isinstance(current, bool):
        if text.lower() in ("true", "yes", "on", "1"):
            return True
        if text.lower() in ("false", "no", "off", "0"):
            return False
        raise UsageError(f"--rule {name}= takes true or false, got {text!r}")
    if isinstance(current, int):
        try:
            return int(text)
        except ValueError:
            raise UsageError(f"--rule {name}= takes an integer, got {text!r}") from None
    return text.lower()


def add_contract(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--contract", default=None, type=contract_name, metavar="CONTRACT",
                        help="fixed contract: C, D, H, S, NT or AT in any case (or their names); default: random "
                             "per deal")


def add_run_options(parser: argparse.ArgumentParser, scheduler: bool = False) -> None:
    """``--seed``, ``--threads``, ``--worlds``, ``--progress`` / ``--no-progress`` (``scheduler``: the
    command has ``--scheduler``)."""
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--threads", type=positive_int, default=None,
                        help="Numba threads (default: all cores" + ("; 1 per task with --scheduler)" if scheduler
                                                                     else ")"))
    parser.add_argument("--worlds", type=positive_int, default=20, help="layouts per pimc decision (default 20)")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="a progress bar with rate and time left on stderr (default: when stderr is a terminal; "
                             "--progress into a file or pipe writes a line every 30 s instead)")


def default_n(n: int | None, players, defaults: tuple[int, int]) -> int:
    """``n``, or when it is not given ``defaults[0]``, or ``defaults[1]`` if a seat of ``players`` (a
    name, or several) searches: a default run of about a minute or less whatever the players."""
    if n is not None:
        return n
    names = [players] if isinstance(players, str) else players
    return defaults[any(name in SEARCH_PLAYERS for name in names)]


def progress_of(args: argparse.Namespace) -> bool:
    return sys.stderr.isatty() if args.progress is None else args.progress


def add_overwrite(parser: argparse.ArgumentParser, what: str, more: str = "") -> None:
    parser.add_argument("--overwrite", action="store_true",
                        help=f"replace {what} if it exists (default: refuse, so no earlier result is lost){more}")


def check_output_file(flag: str, path: str, overwrite: bool, also=()) -> None:
    """Before any work: ``path`` (and the files ``also`` written beside it) can be created, and
    replaces no file unless ``overwrite`` (a UsageError names the problem)."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"{flag} {path}: the folder {folder} does not exist")
    if os.path.isdir(path):
        raise UsageError(f"{flag} {path} is a folder, not a file name")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"{flag} {path}: the folder {folder} is not writable")
    _probe_folder(flag, path, folder)
    existing = [name for name in (path, *also) if os.path.exists(name)]
    if existing and not overwrite:
        raise UsageError(f"{flag}: {', '.join(existing)} already exist{'s' if len(existing) == 1 else ''}; give "
                         f"--overwrite to replace, or choose another name")


def _probe_folder(flag: str, path: str, folder: str) -> None:
    """Create and delete an empty file in ``folder``: a folder can look writable and still refuse files
    (``/proc``, a read-only mount seen as root, a full quota), which would otherwise show only after
    the whole run."""
    try:
        handle, probe = tempfile.mkstemp(prefix=".belot-sim-probe-", dir=folder)
    except OSError as error:
        raise UsageError(f"{flag} {path}: cannot create a file in {folder} ({error.strerror})") from None
    os.close(handle)
    os.unlink(probe)


def write_csv(table: pd.DataFrame, path: str | None) -> None:
    """``--csv``: the printed table, written atomically (complete or absent)."""
    if path:
        from ..engine.io import write_csv_atomically

        write_csv_atomically(table, path)
        print(f"wrote {path}")
