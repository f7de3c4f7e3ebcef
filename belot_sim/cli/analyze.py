"""``belot-sim analyze``: every legal card of a position, judged exactly and over sampled layouts."""

from __future__ import annotations

import argparse

from .common import positive_int


def add_parser(sub) -> None:
    analyze = sub.add_parser(
        "analyze", help="analyse a position: each legal card's double-dummy value, pimc statistics, the bots' cards",
        description="Reads POSITION in the text notation (docs/notation.md; 'belot deal; ...' or 'belot full; ...', "
                    "in the play phase) and prints one row per legal card of the seat to move: its exact "
                    "double-dummy value with the actual hands (dd), the mean and standard error of that value "
                    "over layouts of the cards the seat cannot see (pimc_mean, pimc_se), the share of layouts in "
                    "which it is best (p_best), and which bots play it. Values are the mover's team's points "
                    "still to come.")
    analyze.add_argument("position", help="the position text, in quotes")
    analyze.add_argument("--worlds", type=positive_int, default=200, help="sampled layouts (default 200)")
    analyze.add_argument("--seed", type=int, default=0, help="random seed of the layouts and the bots (default 0)")
    analyze.add_argument("--players", default=None,
                         help="comma-separated bots to ask (default: every player)")
    analyze.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..positions.analysis import analyze
    from ..engine.checks import check_seed
    from ..reference import state_from_text
    from ..engine.registry import PLAYERS

    check_seed(args.seed)  # the layouts' bound, said before the position is read
    state = state_from_text(args.position, seed=args.seed)
    players = tuple(PLAYERS) if args.players is None else tuple(p.strip() for p in args.players.split(","))
    print(analyze(state, worlds=args.worlds, seed=args.seed, players=players))
    return 0
