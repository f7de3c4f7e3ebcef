"""Bid tables for a list of hands, written to one CSV.

Run: ``python scripts/bid_table.py HANDS.txt --out bids.csv [--samples 1000] [--players dd]``
where ``HANDS.txt`` has one hand per line (5 or 8 cards, e.g. ``JH 9H AH KS 7C``; blank lines and
``#`` comments are skipped), or give hands with ``--hand`` (repeatable).  Every hand's contracts are
evaluated on the same sampled layouts (see ``belot_sim.bid_table``); the CSV has one row per
(hand, contract) and is written atomically (complete or absent).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

import belot_sim as bs
from belot_sim.io import write_csv_atomically

from gallery_common import output_file, positive_int, run, seed_int


def read_hands(parser: argparse.ArgumentParser, path: str) -> list[str]:
    """The hands of a file, one per line (``#`` starts a comment); a usage error if it cannot be read."""
    try:
        lines = Path(path).read_text().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        parser.error(f"cannot read the hands file {path}: {error.strerror if isinstance(error, OSError) else error}")
    hands = []
    for line in lines:
        text = line.split("#", 1)[0].strip()
        if text:
            hands.append(text)
    return hands


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hands_file", nargs="?", help="file with one hand per line")
    parser.add_argument("--hand", action="append", default=[], help="a hand (repeatable)")
    parser.add_argument("--out", required=True, type=output_file, help="CSV file to write")
    parser.add_argument("--samples", type=positive_int, default=1000, help="layouts per hand (default 1000)")
    parser.add_argument("--players", default="dd", help="dd (default), pimc, hard, normal, easy or random")
    parser.add_argument("--rules", default="bulgarian", choices=["bulgarian", "classic"])
    parser.add_argument("--seat", type=int, default=0, choices=range(4), help="the bidder's seat 0..3 (default 0)")
    parser.add_argument("--seed", type=seed_int, default=0)
    parser.add_argument("--progress", action="store_true", help="show each hand's progress on stderr")
    args = parser.parse_args(argv)

    hands = (read_hands(parser, args.hands_file) if args.hands_file else []) + args.hand
    if not hands:
        parser.error("no hands: give a file or --hand")
    tables = []
    for k, hand in enumerate(hands, 1):
        try:
            table = bs.bid_table(hand, samples=args.samples, players=args.players, rules=args.rules,
                                 seat=args.seat, seed=args.seed, progress=args.progress)
        except (ValueError, TypeError) as error:
            print(f"hand {k} ({hand!r}): {error}", file=sys.stderr)
            return 2
        print(f"[{k}/{len(hands)}] {table.attrs['hand']}: recommended {table.attrs['recommended']}", flush=True)
        tables.append(table.reset_index().assign(hand=table.attrs["hand"]))
    frame = pd.concat(tables, ignore_index=True)
    frame = frame[["hand", *[c for c in frame.columns if c != "hand"]]]
    write_csv_atomically(frame, args.out, index=False)
    print(f"wrote {args.out} ({len(frame)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
