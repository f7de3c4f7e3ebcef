"""Bid tables for a list of hands, written to one CSV.

Run: ``python scripts/bid_table.py HANDS.txt --out bids.csv [--samples 1000] [--players neural]``
where ``HANDS.txt`` has one hand per line (5 or 8 cards, e.g. ``JH 9H AH KS 7C``; blank lines and
``#`` comments are skipped), or give hands with ``--hand`` (repeatable).  Every hand's contracts are
evaluated on the same sampled layouts (see ``belot_sim.bid_table``); the CSV has one row per
(hand, contract) and is written atomically (complete or absent).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import belot_sim as bs
from belot_sim.estimates.bid import MAX_SAMPLES
from belot_sim.engine.io import write_csv_atomically
from belot_sim.engine.registry import DEFAULT_BID_PLAYERS

from gallery_common import PRESETS, at_most, output_file, run, seat_names, seed_int


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
    parser.add_argument("--samples", type=at_most(MAX_SAMPLES), default=1000, help="layouts per hand (default 1000)")
    parser.add_argument("--players", default=DEFAULT_BID_PLAYERS,
                        help=f"the layouts' players: one of {', '.join(sorted(bs.PLAYERS))} (default "
                             f"{DEFAULT_BID_PLAYERS}), or four "
                             "comma-separated (seats 0..3)")
    parser.add_argument("--rules", default="bulgarian", choices=PRESETS, help="rule preset (default bulgarian)")
    parser.add_argument("--seat", type=int, default=0, choices=range(4), help="the bidder's seat 0..3 (default 0)")
    parser.add_argument("--seed", type=seed_int, default=0)
    parser.add_argument("--progress", action="store_true", help="a progress bar of all hands' layouts on stderr")
    args = parser.parse_args(argv)

    players = seat_names(parser, args.players, bs.PLAYERS, "players")
    hands = (read_hands(parser, args.hands_file) if args.hands_file else []) + args.hand
    if not hands:
        parser.error("no hands: give a file or --hand")
    try:  # every hand and argument is checked before the first layout is played
        frame = bs.bid_tables(hands, samples=args.samples, players=players, rules=args.rules, seat=args.seat,
                              seed=args.seed, progress=args.progress)
    except (ValueError, TypeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    per_hand = len(frame) // len(hands)  # every hand has a row per contract of the rules, in hand order
    for k in range(len(hands)):
        rows = frame.iloc[k * per_hand:(k + 1) * per_hand]
        chosen = rows.loc[rows["recommended"], "contract"]
        print(f"[{k + 1}/{len(hands)}] {rows['hand'].iloc[0]}: recommended {chosen.iloc[0] if len(chosen) else 'pass'}")
    # 10 significant digits: the estimates' precision is far coarser, and the file loses float noise
    # such as -9.540000000000001
    write_csv_atomically(frame, args.out, index=False, float_format="%.10g")
    print(f"wrote {args.out} ({len(frame)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
