"""Decision times of ``bs.Bot`` asked from Python: every player at positions of real deals, the
``pimc`` player (20 layouts) at the opening lead of a full deal, the bidders in auctions.

    python benchmarks/bots.py                 # 1,000 positions per player, 40 pimc opening leads
    python benchmarks/bots.py --record        # also add the result to benchmarks/RESULTS.md

One thread, warm-up first (the kernels compiled or loaded, each bot asked 50 times); each figure is
the median (and the 90th percentile) of the wall time of single ``bot.play(state)`` /
``bot.bid(state)`` calls, the rebuilding of the seat's view from the state included.  The positions
are random points of ``simulate(players="hard", plays=True, seed=7)`` deals.  Aimed at: a ``hard``
decision within 50 us, a ``pimc`` decision on a full deal within 20 ms (medians).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numba
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import belot_sim as bs  # noqa: E402
from belot_sim import reference as ref  # noqa: E402
from belot_sim.kernels.core.layouts import SP_NODES, SP_SEARCHES, SP_SOLVED  # noqa: E402
from belot_sim.cli.common import positive_int  # noqa: E402
from report import Tee, environment, record  # noqa: E402

TARGETS = {"hard": 50e-6, "pimc opening lead": 20e-3}


def deals(n: int, seed: int = 7) -> list[ref.DealState]:
    """``n`` deals of ``hard`` play (every contract), as reference states with their plays."""
    frame, plays = bs.simulate(n, players="hard", plays=True, seed=seed)
    cards = plays["card"].to_numpy().reshape(-1, 32)
    out = []
    for i, row in enumerate(frame.itertuples()):
        state = ref.DealState.from_hands([getattr(row, f"hand{s}") for s in range(4)], contract=str(row.contract),
                                         declarer=row.declarer, dealer=row.dealer, multiplier=row.multiplier)
        out.append((state, cards[i]))
    return out


def positions(n: int, rng: random.Random) -> list[ref.DealState]:
    """States at a random point (0..31 cards played) of ``n`` deals."""
    out = []
    for state, cards in deals(n):
        for card in cards[:rng.randrange(32)]:
            state.play(int(card))
        out.append(state)
    return out


def timed(ask, states) -> np.ndarray:
    for state in states[:50]:  # warm-up
        ask(state)
    times = np.empty(len(states))
    for k, state in enumerate(states):
        start = time.perf_counter()
        ask(state)
        times[k] = time.perf_counter() - start
    return times


def search_work(bot: bs.Bot, states) -> np.ndarray:
    """Per ``pimc`` decision: the solver nodes it searched, the card values it asked the solver for and
    the layouts it used (its statistics slots ``SP_NODES``, ``SP_SEARCHES``, ``SP_SOLVED``), one row each."""
    out = []
    for state in states:
        bot.play(state)
        out.append([int(bot._scratch[slot]) for slot in (SP_NODES, SP_SEARCHES, SP_SOLVED)])
    return np.array(out)


def auctions(n: int, rng: random.Random) -> list[ref.FullDealState]:
    """Deals at a random point of a heuristic auction."""
    out = []
    bidder = bs.Bot("random", bidder="heuristic")
    for i in range(n):
        state = ref.FullDealState.random(i, dealer=i % 4)
        for _ in range(rng.randrange(4)):
            if state.phase == "auction":
                state.play(bidder.bid(state))
        if state.phase == "auction":
            out.append(state)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=positive_int, default=1000, help="positions per player (default 1,000)")
    parser.add_argument("--pimc", type=positive_int, default=40, help="pimc opening leads (default 40)")
    parser.add_argument("--record", action="store_true", help="add the result to benchmarks/RESULTS.md")
    args = parser.parse_args(argv)
    numba.set_num_threads(1)
    out = Tee()
    out(environment())
    rng = random.Random(1)
    states = positions(args.positions, rng)
    rows = []
    for player in ("random", "easy", "normal", "hard", "dd"):
        bot = bs.Bot(player)
        rows.append((player, timed(bot.play, states)))
    openings = [state for state, _ in deals(args.pimc, seed=8)]
    rows.append(("pimc opening lead", timed(bs.Bot("pimc", worlds=20).play, openings)))
    work = search_work(bs.Bot("pimc", worlds=20), openings)
    rows.append(("pimc any position", timed(bs.Bot("pimc", worlds=20).play, states[:args.pimc * 5])))
    bids = auctions(args.positions, rng)
    for bidder in ("random", "heuristic", "mc"):
        asked = bids[:200] if bidder == "mc" else bids
        rows.append((f"bid: {bidder}", timed(bs.Bot("random", bidder=bidder).bid, asked)))
    out(f"bs.Bot decisions from Python, one thread, after warm-up; {len(states)} positions of hard-play deals "
        f"(pimc: 20 layouts)")
    out(f"{'decision':>20} {'calls':>6} {'median':>11} {'p90':>11}  target")
    for name, times in rows:
        target = TARGETS.get(name)
        verdict = "" if target is None else f"<= {_fmt(target)}: {'met' if np.median(times) <= target else 'NOT met'}"
        out(f"{name:>20} {len(times):>6} {_fmt(np.median(times)):>11} {_fmt(np.percentile(times, 90)):>11}  {verdict}")
    nodes, searches, layouts = work.T
    out(f"pimc opening lead: a median {int(np.median(nodes)):,} solver nodes, {int(np.sum(nodes)):,} in all "
        f"(the same on any machine: a measure of work that does not drift); a median {np.median(searches):.0f} "
        f"card values searched in a lead (mean {np.mean(searches):.1f}, {np.mean(nodes / searches):,.0f} nodes "
        f"each); {np.sum(layouts == 20)} of {len(layouts)} leads used all 20 layouts")
    if args.record:
        record("benchmarks/bots.py", out.text)
    return 0


def _fmt(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:.2f} ms"


if __name__ == "__main__":
    raise SystemExit(main())
