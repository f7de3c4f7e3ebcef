"""``belot-sim simulate``: play many deals; print outcome rates per contract, or save the rows."""

from __future__ import annotations

import argparse
import os
import time

import pandas as pd

from ..engine.registry import BIDDERS, PLAYERS, SEARCH_PLAYERS
from ..game.rules import CONTRACT_CODES, Rules
from .common import (UsageError, add_bidder_options, add_contract, add_overwrite, add_rules, add_run_options, default_n,
                     bidder_options_of, bidders_value, check_output_file, players_value, positive_int, progress_of,
                     rules_of, seat, seat_names_text)

#: ``--out`` files by suffix (anything else is a dataset folder).
FILE_SUFFIXES = (".csv", ".parquet")


def add_parser(sub) -> None:
    sim = sub.add_parser("simulate", help="play many deals: outcome rates per contract, or save the rows",
                         description="Play many deals and print, per contract, the outcome rates (%) and the mean "
                                     "raw points of the bidding team and the defenders; or save every row with "
                                     "--out: a folder becomes a partitioned Parquet dataset (resumable, any size, "
                                     "also on a Dask cluster), a .csv or .parquet file holds a small run.")
    sim.add_argument("-n", type=positive_int, default=None,
                     help="number of deals (default 1,000,000, or 1,000 with a searching player: "
                          f"{', '.join(SEARCH_PLAYERS)}; with --resume the dataset's own, or a larger one to grow it)")
    add_rules(sim)
    add_contract(sim)
    sim.add_argument("--declarer", type=seat, default=None, help="declarer seat 0..3 (default: random per deal)")
    sim.add_argument("--players", type=players_value, default="random",
                     help="player of every seat, or four comma-separated (seats 0..3): "
                          + ", ".join(PLAYERS) + " (default: random)")
    sim.add_argument("--bidders", type=bidders_value, default=None,
                     help="hold an auction per deal with these bidders: one of " + ", ".join(BIDDERS) + ", or four "
                          "comma-separated (seats 0..3) (excludes --contract and --declarer; void deals are counted "
                          "and left out of the table)")
    add_bidder_options(sim, "the --bidders")
    sim.add_argument("--plays", action="store_true", help="with --out: also save every card played")
    sim.add_argument("--calls", action="store_true", help="with --out and --bidders: also save every call")
    sim.add_argument("--out", metavar="PATH",
                     help="save the rows: a folder (or URL) becomes a Parquet dataset, one file per partition "
                          "(read it with belot_sim.read_parquet, pandas, DuckDB or Dask); PATH.csv or "
                          "PATH.parquet: one file, made in memory")
    sim.add_argument("--resume", action="store_true",
                     help="complete the dataset at --out (same arguments), computing only its missing parts; "
                          "a larger -n appends parts")
    sim.add_argument("--partition-size", type=positive_int, default=None,
                     help="deals per dataset part (default 1,000,000)")
    sim.add_argument("--scheduler", metavar="ADDRESS",
                     help="run the dataset's parts on a Dask cluster, e.g. tcp://scheduler:8786 (the --out folder "
                          "must be reachable by every worker; needs the dask extra)")
    sim.add_argument("--engine", choices=["fast", "reference"], default="fast",
                     help="fast = compiled kernels (default); reference = the pure-Python oracle (slow, random play)")
    add_overwrite(sim, "the --out file and its .plays/.calls siblings", "; a sibling this run does not write is "
                  "removed")
    add_run_options(sim, scheduler=True)
    sim.set_defaults(func=run)


def simulate_reference(n: int, rules: Rules, seed: int, contract: str | None = None,
                       declarer: int | None = None) -> pd.DataFrame:
    """``n`` random-play deals of the reference engine, as ``simulate`` rows."""
    from ..reference import random_play_deal

    rows = []
    for i in range(n):
        result = random_play_deal(seed * 1_000_003 + i, rules=rules, contract=contract, declarer=declarer)
        rows.append({"deal_id": i, **result.as_row()})
    return pd.DataFrame(rows)


def summary_table(deals: pd.DataFrame) -> pd.DataFrame:
    """Per-contract outcome rates (%) and mean raw points of the bidding and defending teams (void
    deals, which have neither, are left out)."""
    from ..engine.frames import bidding_team as team_of

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


def _check(args: argparse.Namespace) -> str | None:
    """The kind of ``--out`` (``"dataset"``, ``".csv"``, ``".parquet"``, None), after the checks
    that need no work (a UsageError names the problem)."""
    if args.bidders and (args.contract is not None or args.declarer is not None):
        raise UsageError("--bidders excludes --contract and --declarer (the auction decides)")
    if args.calls and not args.bidders and not args.resume:  # a resumed dataset may have its bidders
        raise UsageError("--calls needs --bidders (there is no auction without bidders)")
    if args.bidder_option and not args.bidders and not args.resume:
        raise UsageError("--bidder-option tunes the bidders: give --bidders too")
    if (args.plays or args.calls) and not args.out:
        raise UsageError("--plays and --calls save rows: give --out")
    if args.engine == "reference":
        extra = [flag for flag, given in (("--bidders", args.bidders), ("--out", args.out),
                                          ("--players", args.players != "random")) if given]
        if extra:
            raise UsageError(f"--engine reference plays random deals into the table only: drop {', '.join(extra)}")
    kind = None
    if args.out == "":
        raise UsageError("--out needs a path: a folder, or a .csv or .parquet file")
    if args.out:
        suffix = os.path.splitext(args.out)[1].lower()
        kind = suffix if suffix in FILE_SUFFIXES and "://" not in args.out else "dataset"
        if kind != ".csv":
            from ..engine.io import require_pyarrow

            require_pyarrow(f"--out {args.out}")
    dataset_only = [flag for flag, given in (("--resume", args.resume), ("--partition-size", args.partition_size),
                                             ("--scheduler", args.scheduler)) if given]
    if args.overwrite and kind not in FILE_SUFFIXES:
        raise UsageError("--overwrite: only for a .csv or .parquet file given with --out (a dataset folder is "
                         "never replaced: complete it with --resume)")
    if dataset_only and kind != "dataset":
        raise UsageError(f"{', '.join(dataset_only)}: only for a dataset folder given with --out (not a .csv or "
                         ".parquet file)")
    if kind in FILE_SUFFIXES:
        names = _frame_names(args)
        check_output_file("--out", args.out, args.overwrite, also=_file_names(args.out, kind, names)[1:])
        others = _other_runs_files(args.out, kind, names)
        if others and not args.overwrite:  # beside the new files they would pass for this run's
            raise UsageError(f"--out: {', '.join(others)} (of another run; this one does not write "
                             f"{'it' if len(others) == 1 else 'them'}) beside {args.out}: give --overwrite to remove, "
                             "or choose another name")
    return kind


def _check_size(args: argparse.Namespace, rules: Rules, kind: str | None) -> None:
    """Before the first compile, for either engine: ``-n`` and ``--seed`` in the library's ranges, and
    rows that fit in memory (the fast engine's bound per deal; the reference engine keeps more) unless
    they go to a dataset, which takes any ``-n`` in bounded memory."""
    from ..engine.checks import check_fits_in_memory, check_int, check_seed
    from ..simulation.deals import MAX_DEALS, DealArrays, plan_deals

    if args.n is not None:
        check_int(args.n, "-n", 1, MAX_DEALS)
    check_seed(args.seed, "--seed")
    if kind == "dataset":
        return
    plan = plan_deals(rules=rules, contract=args.contract, declarer=args.declarer, players=args.players,
                      bidders=args.bidders, seed=args.seed, plays=args.plays, multiplier=1, worlds=args.worlds,
                      calls=args.calls, bidder_options=bidder_options_of(args))
    advice = ("ask for fewer" if args.engine == "reference" else
              "give --out FOLDER, a dataset, which takes any number in bounded memory")
    check_fits_in_memory(args.n, DealArrays.bytes_per_deal(plan), f"{args.n:,} deals", advice)


#: The frames a run may write, to ``--out`` and its siblings.
FRAMES = ("deals", "plays", "calls")


def _frame_names(args: argparse.Namespace) -> list[str]:
    return ["deals", *(["plays"] if args.plays else []), *(["calls"] if args.calls else [])]


def _other_runs_files(out: str, kind: str, names) -> list[str]:
    """The siblings of ``out`` that exist but hold frames this run (``names``) does not write."""
    return [path for path in _file_names(out, kind, [f for f in FRAMES if f not in names]) if os.path.exists(path)]


def _file_names(out: str, kind: str, names) -> list[str]:
    """``deals`` goes to ``out``, the other frames beside it (``run.plays.csv``)."""
    stem = out[: -len(kind)]
    return [out if name == "deals" else f"{stem}.{name}{kind}" for name in names]


#: The command-line options behind each keyword of ``simulate`` (their ``dest`` names).
_OPTIONS_OF = {"rules": {"rules", "rule"}, "contract": {"contract"}, "declarer": {"declarer"}, "players": {"players"},
               "bidders": {"bidders"}, "seed": {"seed"}, "worlds": {"worlds"}, "plays": {"plays"}, "calls": {"calls"},
               "bidder_options": {"bidder_option"}}

#: Deals of a run that does not say (-n): ``(plain players, a searching player)``, about a minute or
#: less on 2 cores (``random``: some 4 M deals/s, ``hard`` 0.45 M; ``pimc``: 10-20).
DEFAULT_N = (1_000_000, 1_000)


def run(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    kind = _check(args)
    if args.n is None and not (kind == "dataset" and args.resume):  # a resume's n is its manifest's
        args.n = default_n(None, args.players, DEFAULT_N)
    _check_size(args, rules, kind)
    if args.engine == "reference":
        start = time.perf_counter()
        deals = simulate_reference(args.n, rules, args.seed, args.contract, args.declarer)
        return _report(args, rules, deals, time.perf_counter() - start)
    kwargs = dict(rules=rules, contract=args.contract, declarer=args.declarer, players=args.players,
                  bidders=args.bidders, seed=args.seed, worlds=args.worlds, plays=args.plays, calls=args.calls,
                  **({"bidder_options": bidder_options_of(args)} if args.bidder_option else {}))
    if kind == "dataset":
        if args.resume:  # what the command line does not give is the dataset's (its manifest's), not our default
            kwargs = {key: value for key, value in kwargs.items() if _OPTIONS_OF[key] & args.given}
        return _write_dataset(args, kwargs)
    from ..simulation.deals import simulate

    simulate(1, **{**kwargs, "plays": False, "calls": False}, progress=False)  # compile or load the cache before timing
    start = time.perf_counter()
    result = simulate(args.n, threads=args.threads, progress=progress_of(args), **kwargs)
    elapsed = time.perf_counter() - start
    frames = result if isinstance(result, tuple) else (result,)
    if kind is not None:
        _write_files(args.out, kind, frames, _frame_names(args))
    return _report(args, rules, frames[0], elapsed)


def _report(args, rules: Rules, deals: pd.DataFrame, elapsed: float) -> int:
    if args.bidders:
        void = int((deals["outcome"] == "void").sum())
        print(f"{void:,} void deals (everybody passed) left out of the table")
        deals = deals[deals["outcome"] != "void"]
    players = seat_names_text(args.players)
    what = (f"auctions by {seat_names_text(args.bidders)} bidders" if args.bidders else
            f"{'random contract' if args.contract is None else 'contract ' + args.contract}, "
            f"{'random declarer' if args.declarer is None else f'declarer {args.declarer}'}")
    print(f"{args.n:,} deals, {rules.name} rules, {what}, players {players} ({args.engine} engine, seed {args.seed})")
    print(summary_table(deals).to_string())
    print(f"{args.n / elapsed:,.0f} deals/s ({elapsed:.2f} s, DataFrame included)")
    return 0


def _write_files(out: str, kind: str, frames, names) -> None:
    """The frames to their :func:`_file_names`."""
    from ..engine.io import write_csv_atomically, write_parquet_atomically

    for path, frame in zip(_file_names(out, kind, names), frames):
        if kind == ".csv":
            write_csv_atomically(frame, path, index=False)
        else:
            write_parquet_atomically(frame, path)
        print(f"wrote {path} ({len(frame):,} rows)")
    for stale in _other_runs_files(out, kind, names):  # --overwrite: it would pass for this run's
        os.remove(stale)
        print(f"removed {stale} (not written by this run)")


def _write_dataset(args, kwargs) -> int:
    from ..datasets.manifest import load_manifest
    from ..datasets.storage import Store
    from ..datasets.writing import simulate_to_parquet

    client = None
    if args.scheduler:
        from ..engine.distributed import require

        distributed = require("--scheduler")
        try:
            client = distributed.Client(args.scheduler, timeout="20s")
        except (OSError, TimeoutError) as error:
            raise OSError(f"cannot reach the Dask scheduler at {args.scheduler}: {error}") from None
    start = time.perf_counter()
    try:
        path = simulate_to_parquet(args.out, args.n, partition_size=args.partition_size, resume=args.resume,
                                   client=client, progress=progress_of(args), threads=args.threads, **kwargs)
    finally:
        if client is not None:
            client.close()
    elapsed = time.perf_counter() - start
    manifest = load_manifest(Store(path))  # -n and the frames, or with --resume the dataset's
    frames, n = ", ".join(manifest.frames), manifest.n
    print(f"wrote {n:,} deals to the dataset folder {path} ({frames}; {elapsed:.1f} s"
          f"{', resumed' if args.resume else ''}; one file: --out with .csv or .parquet)")
    return 0
