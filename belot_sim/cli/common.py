"""Arguments and helpers the subcommands share."""

from __future__ import annotations

import argparse

import pandas as pd

from ..rules import PRESETS

CONTRACT_CHOICES = ["random", "C", "D", "H", "S", "NT", "AT"]


def positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def add_rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", choices=sorted(PRESETS), default="bulgarian",
                        help="rule preset (default bulgarian; the rules are in docs/rules.md)")


def add_contract(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--contract", default="random", choices=CONTRACT_CHOICES,
                        help="fixed contract, or random per deal (default)")


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """``--seed``, ``--threads``, ``--worlds``, ``--progress``."""
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--threads", type=positive_int, default=None, help="Numba threads (default: all cores)")
    parser.add_argument("--worlds", type=positive_int, default=20, help="layouts per pimc decision (default 20)")
    parser.add_argument("--progress", action="store_true", help="show progress on stderr")


def contract_of(args: argparse.Namespace) -> str | None:
    return None if args.contract == "random" else args.contract


def write_csv(table: pd.DataFrame, path: str | None) -> None:
    """``--csv``: the printed table, written atomically (complete or absent)."""
    if path:
        from ..io import write_csv_atomically

        write_csv_atomically(table, path)
        print(f"wrote {path}")
