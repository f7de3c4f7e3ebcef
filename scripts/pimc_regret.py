"""How much does a player's card lose, judged by an independent sampling judge?

Question: the shortcuts of ``pimc`` (choices eliminated, sampling stopped early) and fewer layouts
make decisions cheaper; how much do they cost, decision by decision, in the currency ``pimc``
itself maximises?

Method: random points (0..31 cards played) of ``--deals`` deals played by ``hard`` (random
contract and declarer), kept where the seat to move has a choice.  A judge — ``bs.analyze`` with
``--judge-worlds`` layouts from another seed — gives every legal card its mean double-dummy value
over its layouts (``pimc_mean``); a player's regret at a decision is the judge's best mean minus the mean of the
card the player chose (raw points, >= 0).  The judge's layouts are independent of the players', so
the difference of two players' mean regrets is an unbiased estimate of how much better one
decides; its standard error comes from the paired differences.  A duplicate tournament measures
the same thing with far more noise (one different card changes the rest of the deal).

    python scripts/pimc_regret.py                       # 800 deals, the default players
    python scripts/pimc_regret.py --players pimc,pimc-exact:10 --deals 2000

Each player is ``name`` or ``name:worlds`` (default 20 layouts); the first is the reference the
others are compared with.  One thread; CPU seconds of each player's decisions are shown.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numba
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks"))

import belot_sim as bs  # noqa: E402
from belot_sim import reference as ref  # noqa: E402
from belot_sim.engine.searching import MAX_WORLDS  # noqa: E402
from belot_sim.game.cards import popcount  # noqa: E402
from belot_sim.simulation.deals import MAX_DEALS  # noqa: E402
from bots import deals  # noqa: E402  (benchmarks/bots.py: hard deals as reference states)
from gallery_common import at_most, run, seed_int  # noqa: E402

DEFAULT_PLAYERS = "pimc-exact,pimc,pimc-exact:10,hard"


def positions(n_deals: int, seed: int) -> list[tuple[int, ref.DealState]]:
    """``(deal id, state)`` at a random point of each of ``n_deals`` ``hard`` deals, where the seat to
    move has more than one legal card."""
    rng = random.Random(seed)
    out = []
    for i, (state, cards) in enumerate(deals(n_deals, seed=seed)):
        for card in cards[:rng.randrange(32)]:
            state.play(int(card))
        if popcount(state.legal_mask()) > 1:
            out.append((i, state))
    return out


def parse_players(parser: argparse.ArgumentParser, text: str) -> dict[str, bs.Bot]:
    """``--players``: comma-separated ``name`` or ``name:worlds`` (else a usage error naming the item)."""
    bots = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        name, _, worlds = item.lower().partition(":")
        if name not in bs.PLAYERS:
            parser.error(f"--players: unknown player {name!r}: expected one of {', '.join(sorted(bs.PLAYERS))}")
        if worlds and not (worlds.isascii() and worlds.isdigit() and 0 < int(worlds) <= MAX_WORLDS):
            parser.error(f"--players: {item!r}: the layouts after ':' must be an integer in 1..{MAX_WORLDS:,}")
        bots[item] = bs.Bot(name, worlds=int(worlds) if worlds else 20)
    if not bots:
        parser.error("--players: no player given")
    return bots


def regrets(bots: dict[str, bs.Bot], states, judge_worlds: int, judge_seed: int):
    """Per player, the regret at every decision, and the CPU seconds of its decisions."""
    for deal_id, state in states[:10]:  # warm-up: kernels loaded, tables touched
        for bot in bots.values():
            bot.play(state, deal_id=deal_id)
    out = {name: np.empty(len(states)) for name in bots}
    cpu = dict.fromkeys(bots, 0.0)
    for k, (deal_id, state) in enumerate(states):
        judged = bs.analyze(state, worlds=judge_worlds, seed=(judge_seed + deal_id) % 2**64, players=()).table
        means = dict(zip(judged["card"], judged["pimc_mean"]))
        best = max(means.values())
        for name, bot in bots.items():
            start = time.process_time()
            card = bot.play(state, deal_id=deal_id)
            cpu[name] += time.process_time() - start
            out[name][k] = best - means[card]
    return out, cpu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=at_most(MAX_DEALS), default=800,
                        help="hard deals to take positions from (default 800)")
    parser.add_argument("--players", default=DEFAULT_PLAYERS, help=f"comma-separated (default {DEFAULT_PLAYERS})")
    parser.add_argument("--judge-worlds", type=at_most(MAX_WORLDS), default=60,
                        help="the judge's layouts (default 60)")
    parser.add_argument("--seed", type=seed_int, default=0, help="the deals' seed (default 0)")
    args = parser.parse_args(argv)
    bots = parse_players(parser, args.players)
    numba.set_num_threads(1)
    states = positions(args.deals, args.seed)
    values, cpu = regrets(bots, states, args.judge_worlds, 1_000_003 * (args.seed + 1))
    tricks = np.array([len(state.plays) // 4 for _, state in states])
    first = next(iter(bots))
    print(f"{len(states)} decisions with a choice; judge bs.analyze with {args.judge_worlds} layouts; "
          f"regret in raw points per decision (standard error of the difference)")
    print(f"{'player':>14} {'regret':>7} {'vs ' + first:>22} {'cpu s':>7}  by trick 1..8")
    for name, r in values.items():
        d = r - values[first]
        by_trick = " ".join(f"{r[tricks == t].mean():.2f}" if (tricks == t).any() else "  - " for t in range(8))
        print(f"{name:>14} {r.mean():7.3f} {d.mean():+14.3f} ({d.std(ddof=1) / np.sqrt(len(d)):.3f}) "
              f"{cpu[name]:7.2f}  {by_trick}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run(main))
