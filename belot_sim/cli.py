"""The ``belot-sim`` command line."""

from __future__ import annotations

import argparse
import sys
import time

import pandas as pd

from .rules import Rules


def _simulate_reference(n: int, rules: Rules, seed: int, contract: str | None = None) -> pd.DataFrame:
    from .reference import random_play_deal

    rows = []
    for i in range(n):
        result = random_play_deal(seed * 1_000_003 + i, rules=rules, contract=contract)
        rows.append({"deal_id": i, **result.as_row()})
    return pd.DataFrame(rows)


def summary_table(deals: pd.DataFrame) -> pd.DataFrame:
    """Per-contract outcome rates (%) and mean raw points of the bidding and defending teams."""
    bidding_team = deals["declarer"] % 2
    table = pd.DataFrame({
        "contract": deals["contract"].astype(str),
        "made": deals["outcome"] == "made",
        "hanging": deals["outcome"] == "hanging",
        "inside": deals["outcome"] == "inside",
        "valat": deals["valat"] >= 0,
        "bidding_raw": deals["raw0"].where(bidding_team == 0, deals["raw1"]),
        "defenders_raw": deals["raw1"].where(bidding_team == 0, deals["raw0"]),
    })
    grouped = table.groupby("contract", sort=False)
    out = grouped.agg(deals=("made", "size"), made_pct=("made", "mean"), hanging_pct=("hanging", "mean"),
                      inside_pct=("inside", "mean"), valat_pct=("valat", "mean"),
                      bidding_raw=("bidding_raw", "mean"), defenders_raw=("defenders_raw", "mean"))
    order = [c for c in ("C", "D", "H", "S", "NT", "AT") if c in out.index]
    out = out.loc[order]
    for col in ("made_pct", "hanging_pct", "inside_pct", "valat_pct"):
        out[col] *= 100
    return out.round(1)


def _cmd_simulate(args: argparse.Namespace) -> int:
    rules = Rules.preset(args.rules)
    contract = None if args.contract == "random" else args.contract
    if args.engine == "reference":
        start = time.perf_counter()
        deals = _simulate_reference(args.n, rules, args.seed, contract)
        elapsed = time.perf_counter() - start
    else:
        from .simulation import simulate

        if args.bidders and contract is not None:
            raise SystemExit("belot-sim simulate: --bidders and --contract exclude each other (the auction decides)")
        deal_kwargs = dict(rules=rules, contract=contract, bidders=args.bidders, worlds=args.worlds)
        simulate(1, players=args.players, **deal_kwargs)  # compile or load the cache first
        start = time.perf_counter()
        deals = simulate(args.n, players=args.players, seed=args.seed, threads=args.threads, progress=args.progress,
                         **deal_kwargs)
        elapsed = time.perf_counter() - start
        if args.bidders:
            void = int((deals["outcome"] == "void").sum())
            print(f"{void:,} void deals (everybody passed) left out of the table")
            deals = deals[deals["outcome"] != "void"]
    what = ("random contract and declarer" if contract is None else f"contract {contract}, random declarer") \
        if not args.bidders else f"auctions by {args.bidders} bidders"
    print(f"{args.n:,} deals, {rules.family} rules, {what}, players {args.players} "
          f"({args.engine} engine, seed {args.seed})")
    print(summary_table(deals).to_string())
    print(f"{args.n / elapsed:,.0f} deals/s ({elapsed:.2f} s, DataFrame included)")
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    from .simulation import simulate
    from .tournament import format_tournament, tournament

    contract = None if args.contract == "random" else args.contract
    simulate(1, rules=args.rules, players=(args.a, args.b, args.a, args.b))  # compile or load the cache first
    start = time.perf_counter()
    table = tournament(args.a, args.b, args.n, rules=args.rules, contract=contract, seed=args.seed,
                       threads=args.threads, progress=args.progress, worlds=args.worlds)
    elapsed = time.perf_counter() - start
    print(format_tournament(table))
    print(f"{2 * args.n / elapsed:,.0f} deals/s ({elapsed:.2f} s for {2 * args.n:,} deals)")
    _write_csv(table, args.csv)
    return 0


def _cmd_bid(args: argparse.Namespace) -> int:
    from .estimate import bid_table, format_bid_table

    known = {}
    for item in args.known or []:
        seat, _, cards = item.partition(":")
        if not seat.strip().isdigit() or not cards.strip():
            raise SystemExit(f"belot-sim bid: --known takes SEAT:CARDS such as 0:JH, got {item!r}")
        known[int(seat)] = (known.get(int(seat), "") + " " + cards).strip()
    start = time.perf_counter()
    table = bid_table(args.hand, seat=args.seat, dealer=args.dealer, known=known or None, samples=args.samples,
                      players=args.players, rules=args.rules, seed=args.seed, threads=args.threads,
                      worlds=args.worlds, progress=args.progress)
    elapsed = time.perf_counter() - start
    print(format_bid_table(table))
    print(f"({elapsed:.2f} s, compilation included on a first run)")
    _write_csv(table, args.csv)
    return 0


def _write_csv(table: pd.DataFrame, path: str | None) -> None:
    """``--csv``: the printed table, written atomically (complete or absent)."""
    if path:
        from .io import write_csv_atomically

        write_csv_atomically(table, path)
        print(f"wrote {path}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="belot-sim", description="Belot simulation from the command line.")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play many deals and print outcome rates per contract",
                         description="Play many deals and print, per contract, the outcome rates (%%) and the "
                                     "mean raw points of the bidding team and the defenders.")
    sim.add_argument("-n", type=_positive_int, default=1_000_000, help="number of deals (default 1,000,000)")
    sim.add_argument("--rules", choices=["bulgarian", "classic"], default="bulgarian", help="rule preset")
    sim.add_argument("--contract", default="random", choices=["random", "C", "D", "H", "S", "NT", "AT"],
                     help="fixed contract, or random per deal (default)")
    sim.add_argument("--players", default="random", help="player for every seat (default random)")
    sim.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    sim.add_argument("--threads", type=_positive_int, default=None, help="Numba threads (default: all cores)")
    sim.add_argument("--engine", choices=["fast", "reference"], default="fast",
                     help="fast = compiled kernels (default); reference = the pure-Python oracle (slow)")
    sim.add_argument("--bidders", default=None, choices=["random", "heuristic", "mc"],
                     help="hold an auction per deal with these bidders (excludes --contract; void deals are "
                          "counted and left out of the table)")
    sim.add_argument("--worlds", type=_positive_int, default=20, help="layouts per pimc decision (default 20)")
    sim.add_argument("--progress", action="store_true", help="show progress on stderr")
    sim.set_defaults(func=_cmd_simulate)

    from .registry import POLICY_CODES

    tour = sub.add_parser("tournament", help="duplicate tournament between two players",
                          description="Every deal is played twice on the same cards with the teams' seats "
                                      "swapped; prints the mean raw-point edge of A over B per contract with a "
                                      "95%% confidence interval.")
    tour.add_argument("a", choices=sorted(POLICY_CODES), help="player A (seats 0/2 in the first play)")
    tour.add_argument("b", choices=sorted(POLICY_CODES), help="player B")
    tour.add_argument("-n", type=_positive_int, default=30_000, help="duplicate deals (default 30,000)")
    tour.add_argument("--rules", choices=["bulgarian", "classic"], default="bulgarian", help="rule preset")
    tour.add_argument("--contract", default="random", choices=["random", "C", "D", "H", "S", "NT", "AT"],
                      help="fixed contract, or random per deal (default)")
    tour.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    tour.add_argument("--threads", type=_positive_int, default=None, help="Numba threads (default: all cores)")
    tour.add_argument("--csv", help="also write the table to this CSV file")
    tour.add_argument("--worlds", type=_positive_int, default=20, help="layouts per pimc decision (default 20)")
    tour.add_argument("--progress", action="store_true", help="show progress on stderr")
    tour.set_defaults(func=_cmd_tournament)

    bid = sub.add_parser("bid", help="bid table: P(made) and expected score of every contract for a hand",
                         description="Samples layouts of the unseen cards around HAND (5 cards at auction time, "
                                     "or 8), plays every contract on the same layouts and prints P(made) with a "
                                     "95%% Wilson interval, P(hanging), P(inside), the expected match-point "
                                     "difference (plain, doubled, redoubled) and the recommended call.")
    bid.add_argument("hand", help='the cards, e.g. "JH 9H AH KS 7C"')
    bid.add_argument("--samples", type=_positive_int, default=1000, help="layouts (default 1000)")
    bid.add_argument("--players", default="dd",
                     help="who plays the layouts: dd (default; every seat double-dummy, perfect information), "
                          "pimc, hard, normal, easy, random; or four comma-separated names")
    bid.add_argument("--seat", type=int, default=0, help="your seat 0..3 (declarer; default 0)")
    bid.add_argument("--dealer", type=int, default=None, help="the dealer 0..3 (default: random per layout)")
    bid.add_argument("--known", action="append", metavar="SEAT:CARDS",
                     help="cards known to be in a seat, e.g. 0:JH for a classic turned card you take (repeatable)")
    bid.add_argument("--rules", choices=["bulgarian", "classic"], default="bulgarian", help="rule preset")
    bid.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    bid.add_argument("--threads", type=_positive_int, default=None, help="Numba threads (default: all cores)")
    bid.add_argument("--worlds", type=_positive_int, default=20, help="layouts per pimc decision (default 20)")
    bid.add_argument("--csv", help="also write the table to this CSV file")
    bid.add_argument("--progress", action="store_true", help="show progress on stderr")
    bid.set_defaults(func=_cmd_bid)
    return parser


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


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
