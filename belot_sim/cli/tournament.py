"""``belot-sim tournament``: a duplicate tournament between two players, or duplicate matches between
two teams (a bidder and a player each)."""

from __future__ import annotations

import argparse
import time

from ..registry import PLAYERS
from .common import (add_contract, add_overwrite, add_rules, add_run_options, check_output_file, player_name,
                     positive_int, progress_of, rules_of, write_csv)


def add_parser(sub) -> None:
    tour = sub.add_parser("tournament", help="duplicate tournament between two players, or matches between two teams",
                          description="Players (A B): every deal is played twice on the same cards with the "
                                      "players' seats swapped; prints the mean raw-point edge of A over B per "
                                      "contract with a 95% confidence interval. Teams (--a BIDDER:PLAYER --b "
                                      "BIDDER:PLAYER): every match is played twice on the same cards with the "
                                      "teams' seats swapped, auctions included; prints the match-point edge per "
                                      "deal and the match win rate of A, with 95% intervals. An interval needs two "
                                      "deals (the win rate's two matches) at least: n/a otherwise. The same player "
                                      "or team on both sides is marked (A) and (B).")
    tour.add_argument("a", nargs="?", type=player_name,
                      help="player A (seats 0/2 in the first play): " + ", ".join(PLAYERS))
    tour.add_argument("b", nargs="?", type=player_name, help="player B")
    tour.add_argument("--a", dest="team_a", metavar="BIDDER:PLAYER", help="team A, e.g. mc:hard (plays matches)")
    tour.add_argument("--b", dest="team_b", metavar="BIDDER:PLAYER", help="team B, e.g. heuristic:hard")
    tour.add_argument("-n", type=positive_int, default=None,
                      help="duplicate deals (players; default 30,000) or matches (teams; default 200)")
    add_rules(tour)
    add_contract(tour)
    tour.add_argument("--csv", help="also write the table to this CSV file")
    add_overwrite(tour, "the --csv file")
    add_run_options(tour)
    tour.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    teams = args.team_a is not None or args.team_b is not None
    if teams and (args.a or args.b):
        raise ValueError("give two players (A B) or two teams (--a BIDDER:PLAYER --b BIDDER:PLAYER), not a mix")
    if teams and (args.team_a is None or args.team_b is None):
        given = "a" if args.team_b is None else "b"
        raise ValueError(f"give both teams: --a BIDDER:PLAYER and --b BIDDER:PLAYER (only --{given} was given)")
    if not teams and not (args.a and args.b):
        raise ValueError("give two players (A B) or two teams (--a BIDDER:PLAYER --b BIDDER:PLAYER)")
    if args.csv:
        check_output_file("--csv", args.csv, args.overwrite)
    if teams:
        return _teams(args)
    from ..simulation import simulate
    from ..tournament import format_tournament, tournament

    rules = rules_of(args)
    n = 30_000 if args.n is None else args.n
    simulate(1, rules=rules, players=(args.a, args.b, args.a, args.b))  # compile or load the cache first
    start = time.perf_counter()
    table = tournament(args.a, args.b, n, rules=rules, contract=args.contract, seed=args.seed,
                       threads=args.threads, progress=progress_of(args), worlds=args.worlds)
    elapsed = time.perf_counter() - start
    print(format_tournament(table))
    print(f"{2 * n / elapsed:,.0f} deals/s ({elapsed:.2f} s for {2 * n:,} deals)")
    write_csv(table, args.csv)
    return 0


def _teams(args: argparse.Namespace) -> int:
    from ..match_tournament import check_team, format_match_tournament, match_tournament

    if args.contract is not None:
        raise ValueError("--contract does not apply to teams: their auctions decide")
    a, b = check_team(args.team_a, "--a"), check_team(args.team_b, "--b")
    n = 200 if args.n is None else args.n
    start = time.perf_counter()
    table = match_tournament(a, b, n, rules=rules_of(args), seed=args.seed, threads=args.threads,
                             worlds=args.worlds, progress=progress_of(args))
    elapsed = time.perf_counter() - start
    print(format_match_tournament(table))
    print(f"({elapsed:.2f} s for 2 x {n:,} matches, compilation included on a first run)")
    write_csv(table, args.csv)
    return 0
