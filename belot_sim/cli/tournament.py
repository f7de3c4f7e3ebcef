"""``belot-sim tournament``: a duplicate tournament between two players, or duplicate matches between
two teams (a bidder and a player each)."""

from __future__ import annotations

import argparse
import time

from ..engine.registry import BIDDERS, PLAYERS, SEARCH_PLAYERS
from .common import (UsageError, add_contract, add_overwrite, add_rules, add_run_options, check_output_file,
                     default_n, player_name, positive_int, progress_of, rules_of, write_csv)


def add_parser(sub) -> None:
    tour = sub.add_parser("tournament", help="duplicate tournament between two players, or matches between two teams",
                          description="Players (A B, e.g. hard normal): every deal is played twice on the same "
                                      "cards with the players' seats swapped; prints the mean raw-point edge of A "
                                      "over B per contract with a 95% confidence interval. Teams (A B as "
                                      "BIDDER:PLAYER, e.g. mc:hard heuristic:hard): every match is played twice on "
                                      "the same cards with the teams' seats swapped, auctions included; prints the "
                                      "match-point edge per deal and the match win rate of A, with 95% intervals. "
                                      "An interval needs two deals (the win rate's two matches) at least: n/a "
                                      "otherwise. The same player or team on both sides is marked (A) and (B).")
    tour.add_argument("a", nargs="?", metavar="A", help="player A (seats 0/2 in the first play): " + ", ".join(PLAYERS)
                      + "; or team A as BIDDER:PLAYER, e.g. mc:hard (bidders: " + ", ".join(BIDDERS) + ")")
    tour.add_argument("b", nargs="?", metavar="B", help="player B, or team B (e.g. heuristic:hard); the same kind as A")
    for flag in ("--a", "--b"):  # the teams' flags of earlier versions: say the one way now
        tour.add_argument(flag, dest="old_team_flag", action="append", help=argparse.SUPPRESS)
    tour.add_argument("-n", type=positive_int, default=None,
                      help="duplicate deals (players; default 30,000, or 300 with a searching player: "
                           f"{', '.join(SEARCH_PLAYERS)}) or matches (teams; default 200, or 20 with a searching "
                           "player)")
    add_rules(tour)
    add_contract(tour)
    tour.add_argument("--csv", help="also write the table to this CSV file")
    add_overwrite(tour, "the --csv file")
    add_run_options(tour)
    tour.set_defaults(func=run)


#: ``-n`` when not given: ``(plain players, searching players)``, a run of about a minute or less on 2
#: cores (``hard``: some 30,000 deals/s; ``pimc``: 10-20).
DEALS = (30_000, 300)
MATCHES = (200, 20)


def _sides(args: argparse.Namespace) -> tuple:
    """``(a, b)``: two player names, or two ``(bidder, player)`` teams (a UsageError names a bad one)."""
    from ..simulation.match_tournament import check_team

    if args.old_team_flag:
        raise UsageError("teams are given as A B like players now: e.g. belot-sim tournament mc:hard heuristic:hard "
                         "(no --a/--b)")
    if args.a is None or args.b is None:
        raise UsageError("give two players (e.g. hard normal) or two teams as BIDDER:PLAYER (e.g. mc:hard "
                         "heuristic:hard)")
    teams = [":" in side for side in (args.a, args.b)]
    if teams[0] != teams[1]:
        raise UsageError(f"give two players (e.g. hard normal) or two teams (e.g. mc:hard heuristic:hard), not one "
                         f"of each: got {args.a!r} and {args.b!r}")
    if teams[0]:
        return check_team(args.a, "A"), check_team(args.b, "B")
    try:
        return player_name(args.a), player_name(args.b)
    except argparse.ArgumentTypeError as error:
        raise UsageError(str(error)) from None


def run(args: argparse.Namespace) -> int:
    args.a, args.b = _sides(args)
    teams = isinstance(args.a, tuple)
    if args.csv:
        check_output_file("--csv", args.csv, args.overwrite)
    if teams:
        return _teams(args)
    from ..simulation.deals import simulate
    from ..simulation.tournament import tournament

    rules = rules_of(args)
    n = default_n(args.n, (args.a, args.b), DEALS)
    simulate(1, rules=rules, players=(args.a, args.b) * 2, progress=False)  # compile or load the cache first
    start = time.perf_counter()
    result = tournament(args.a, args.b, n, rules=rules, contract=args.contract, seed=args.seed,
                       threads=args.threads, progress=progress_of(args), worlds=args.worlds)
    elapsed = time.perf_counter() - start
    print(result)
    print(f"{2 * n / elapsed:,.0f} deals/s ({elapsed:.2f} s for {2 * n:,} deals)")
    write_csv(result.table, args.csv)
    return 0


def _teams(args: argparse.Namespace) -> int:
    from ..simulation.match_tournament import match_tournament

    if args.contract is not None:
        raise ValueError("--contract does not apply to teams: their auctions decide")
    a, b = args.a, args.b
    n = default_n(args.n, (a[1], b[1]), MATCHES)
    start = time.perf_counter()
    result = match_tournament(a, b, n, rules=rules_of(args), seed=args.seed, threads=args.threads,
                             worlds=args.worlds, progress=progress_of(args))
    elapsed = time.perf_counter() - start
    print(result)
    print(f"({elapsed:.2f} s for 2 x {n:,} matches, compilation included on a first run)")
    write_csv(result.table, args.csv)
    return 0
