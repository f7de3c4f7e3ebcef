"""The ``belot-sim`` command line."""

from __future__ import annotations

import argparse
import sys
import time

import pandas as pd

from .rules import Rules


def _simulate_reference(n: int, rules: Rules, seed: int) -> pd.DataFrame:
    from .reference import random_play_deal

    rows = []
    for i in range(n):
        result = random_play_deal(seed * 1_000_003 + i, rules=rules)
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
    start = time.perf_counter()
    deals = _simulate_reference(args.n, rules, args.seed)
    elapsed = time.perf_counter() - start
    print(f"{args.n} random deals, {rules.family} rules, random contract and declarer, random play "
          f"(reference engine, seed {args.seed})")
    print(summary_table(deals).to_string())
    print(f"{args.n / elapsed:,.0f} deals/s")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="belot-sim", description="Belot simulation from the command line.")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play random deals and print outcome rates per contract")
    sim.add_argument("-n", type=_positive_int, default=3000, help="number of deals (default 3000)")
    sim.add_argument("--rules", choices=["bulgarian", "classic"], default="bulgarian", help="rule preset")
    sim.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    sim.set_defaults(func=_cmd_simulate)
    return parser


def _positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
