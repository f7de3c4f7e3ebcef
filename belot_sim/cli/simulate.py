"""``belot-sim simulate``: play many deals and print outcome rates per contract."""

from __future__ import annotations

import argparse
import time

import pandas as pd

from ..rules import CONTRACT_CODES, Rules
from .common import add_contract, add_rules, add_run_options, contract_of, positive_int


def add_parser(sub) -> None:
    sim = sub.add_parser("simulate", help="play many deals and print outcome rates per contract",
                         description="Play many deals and print, per contract, the outcome rates (%%) and the "
                                     "mean raw points of the bidding team and the defenders.")
    sim.add_argument("-n", type=positive_int, default=1_000_000, help="number of deals (default 1,000,000)")
    add_rules(sim)
    add_contract(sim)
    sim.add_argument("--players", default="random", help="player for every seat (default random)")
    sim.add_argument("--engine", choices=["fast", "reference"], default="fast",
                     help="fast = compiled kernels (default); reference = the pure-Python oracle (slow)")
    sim.add_argument("--bidders", default=None, choices=["random", "heuristic", "mc"],
                     help="hold an auction per deal with these bidders (excludes --contract; void deals are "
                          "counted and left out of the table)")
    add_run_options(sim)
    sim.set_defaults(func=run)


def simulate_reference(n: int, rules: Rules, seed: int, contract: str | None = None) -> pd.DataFrame:
    """``n`` random-play deals of the reference engine, as ``simulate`` rows."""
    from ..reference import random_play_deal

    rows = []
    for i in range(n):
        result = random_play_deal(seed * 1_000_003 + i, rules=rules, contract=contract)
        rows.append({"deal_id": i, **result.as_row()})
    return pd.DataFrame(rows)


def summary_table(deals: pd.DataFrame) -> pd.DataFrame:
    """Per-contract outcome rates (%) and mean raw points of the bidding and defending teams (void
    deals, which have neither, are left out)."""
    from ..frames import bidding_team as team_of

    bidding_team = team_of(deals["declarer"].to_numpy())
    deals = deals[bidding_team >= 0]
    bidding_team = bidding_team[bidding_team >= 0]
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
    out = out.loc[[c for c in CONTRACT_CODES if c in out.index]]
    for col in ("made_pct", "hanging_pct", "inside_pct", "valat_pct"):
        out[col] *= 100
    return out.round(1)


def run(args: argparse.Namespace) -> int:
    rules = Rules.preset(args.rules)
    contract = contract_of(args)
    if args.engine == "reference":
        start = time.perf_counter()
        deals = simulate_reference(args.n, rules, args.seed, contract)
        elapsed = time.perf_counter() - start
    else:
        from ..simulation import simulate

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
    print(f"{args.n:,} deals, {rules.name} rules, {what}, players {args.players} "
          f"({args.engine} engine, seed {args.seed})")
    print(summary_table(deals).to_string())
    print(f"{args.n / elapsed:,.0f} deals/s ({elapsed:.2f} s, DataFrame included)")
    return 0
