"""``belot-sim bid``: the bid table of a hand."""

from __future__ import annotations

import argparse
import re
import time

from ..engine.registry import DEFAULT_BID_PLAYERS, MODEL_BIDDERS, PLAYERS
from .common import (UsageError, add_bidder_options, add_overwrite, add_rules, add_run_options, bidder_options_of,
                     bidders_value, check_output_file, players_value, positive_int, progress_of, rules_of, seat,
                     write_csv)


def add_parser(sub) -> None:
    bid = sub.add_parser("bid", help="bid table: P(made) and expected score of every contract for a hand",
                         description="Samples layouts of the unseen cards around HAND (5 cards at auction time, "
                                     "or 8), plays every contract on the same layouts and prints P(made) with a "
                                     "95% Wilson interval, P(hanging), P(inside), the expected match-point "
                                     "difference (plain, doubled, redoubled) and the recommended call. With "
                                     "--auction the layouts are those consistent with the calls so far under "
                                     "the --bidders model (HAND: the 5 cards; --seat: the seat to call).")
    bid.add_argument("hand", help='the cards, e.g. "JH 9H AH KS 7C"')
    bid.add_argument("--samples", type=positive_int, default=1000, help="layouts (default 1000)")
    bid.add_argument("--players", type=players_value, default=DEFAULT_BID_PLAYERS,
                     help=f"who plays the layouts: {DEFAULT_BID_PLAYERS} (default), dd (every seat double-dummy, "
                          "perfect information: the face-up bound) or another of "
                          + ", ".join(p for p in PLAYERS if p not in ("dd", DEFAULT_BID_PLAYERS))
                          + "; or four comma-separated names")
    bid.add_argument("--seat", type=seat, default=0, help="your seat 0..3 (declarer; default 0)")
    bid.add_argument("--dealer", type=seat, default=None,
                     help="the dealer 0..3 (default: random per layout; with --auction, the dealer that makes "
                          "--seat the seat to call)")
    bid.add_argument("--known", action="append", metavar="SEAT:CARDS",
                     help="cards known to be in a seat, e.g. 1:AS (repeatable; not with --auction)")
    bid.add_argument("--turned", metavar="CARD",
                     help="classic: the turned card, which --seat takes (needed with --auction)")
    bid.add_argument("--auction", help="the calls so far as the auction column's letters, e.g. PC (pass, clubs), "
                                       "or words between spaces, e.g. 'P NT X'")
    bid.add_argument("--bidders", type=bidders_value, default="heuristic",
                     help="the bidder model of the calls with --auction: " + ", ".join(MODEL_BIDDERS)
                          + " (default heuristic), or four comma-separated (seats 0..3)")
    add_bidder_options(bid, "the --bidders model of the calls with --auction")
    bid.add_argument("--max-tries", type=positive_int, default=None,
                     help="with --auction: candidate layouts screened at most (default max(1,000,000, "
                          "1000 x --samples))")
    bid.add_argument("--min-samples", type=positive_int, default=None,
                     help="with --auction: accept a table on this many consistent layouts when --max-tries "
                          "finds fewer than --samples (default: --samples)")
    add_rules(bid)
    bid.add_argument("--csv", help="also write the table to this CSV file")
    add_overwrite(bid, "the --csv file")
    add_run_options(bid)
    bid.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..estimates.bid import bid_table

    if args.csv:
        check_output_file("--csv", args.csv, args.overwrite)
    known = {}
    for item in args.known or []:
        seat, _, cards = item.partition(":")
        if not (seat.strip().isascii() and seat.strip().isdigit()) or not cards.strip():
            raise UsageError(f"--known takes SEAT:CARDS such as 0:JH, got {item!r}")
        known[int(seat)] = (known.get(int(seat), "") + " " + cards).strip()
    start = time.perf_counter()
    try:
        result = bid_table(args.hand, seat=args.seat, dealer=args.dealer, known=known or None, turned=args.turned,
                          auction=args.auction, bidders=args.bidders, max_tries=args.max_tries,
                          min_samples=args.min_samples, bidder_options=bidder_options_of(args),
                          samples=args.samples, players=args.players,
                          rules=rules_of(args), seed=args.seed, threads=args.threads, worlds=args.worlds,
                          progress=progress_of(args))
    except (ValueError, TypeError) as error:  # the library names its keywords, the user gave flags
        raise (TypeError if isinstance(error, TypeError) else UsageError)(as_flags(str(error))) from None
    elapsed = time.perf_counter() - start
    print(result)
    print(f"({elapsed:.2f} s, compilation included on a first run)")
    write_csv(result.table, args.csv)
    return 0


#: The keywords of ``bid_table`` that are flags of this command, as the library's messages name them.
FLAG_KEYWORDS = ("known", "turned", "auction", "bidders", "max_tries", "min_samples", "samples", "players", "seat",
                 "dealer", "worlds", "bidder_options")
#: Keywords whose flag is not the keyword with dashes.
FLAG_NAMES = {"bidder_options": "--bidder-option"}


def as_flags(message: str) -> str:
    """``turned=`` -> ``--turned`` in a message of the library (one line, the same words otherwise)."""
    names = "|".join(FLAG_KEYWORDS)
    return re.sub(rf"(?<![\w-])({names})=(?=[\s,;:).]|$)",
                  lambda m: FLAG_NAMES.get(m.group(1), "--" + m.group(1).replace("_", "-")), message)
