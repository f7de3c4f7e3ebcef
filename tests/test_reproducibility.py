"""Reproducibility: every frame-producing API gives the same rows on one thread and on two, and for
any split of its ids into runs (a run is a pure function of its seed, its ids and its arguments)."""

from __future__ import annotations

import pytest
from helpers import assert_same_frames, assert_same_rows_any_split

import belot_sim as bs

CLASSIC_ALL = bs.CLASSIC.replace(all_no_trumps=True, declarations=True)

#: name → (run(n, start, threads), n, cuts): cuts split the ids into consecutive runs.
CASES = {
    "simulate": (lambda n, start, threads: bs.simulate(n, seed=31, start=start, threads=threads, plays=True),
                 3000, (1, 7, 512, 1500, 2999)),
    "simulate, contracts cycled, declarer, doubled": (
        lambda n, start, threads: bs.simulate(n, seed=99, start=start, threads=threads, plays=True,
                                              contract=["C", "NT", "AT", "S", "D"], declarer=1, multiplier=2),
        2000, (13, 700)),
    "simulate, classic": (lambda n, start, threads: bs.simulate(n, rules=CLASSIC_ALL, seed=5, start=start,
                                                               threads=threads), 2000, (1000,)),
    "simulate, strategic players": (
        lambda n, start, threads: bs.simulate(n, players=("hard", "normal", "easy", "random"), seed=21, start=start,
                                              threads=threads, plays=True), 1500, (800,)),
    "simulate, searching players": (
        lambda n, start, threads: bs.simulate(n, players=("pimc", "dd", "hard", "pimc"), worlds=3, seed=6,
                                              start=start, threads=threads, plays=True), 10, (6,)),
    "simulate, bidders": (
        lambda n, start, threads: bs.simulate(n, bidders=("heuristic", "mc", "random", "heuristic"), players="hard",
                                              bidder_options={"mc_samples": 8}, seed=2, start=start,
                                              threads=threads, plays=True, calls=True), 120, (50,)),
    "simulate_matches": (lambda n, start, threads: bs.simulate_matches(n, seed=4, start=start, threads=threads,
                                                                      plays=True, calls=True), 400, (250,)),
    "simulate_matches, slow players and bidders": (
        lambda n, start, threads: bs.simulate_matches(n, players=("dd", "random", "random", "random"), seed=9,
                                                      bidders=("heuristic", "mc", "random", "heuristic"),
                                                      start=start, threads=threads, plays=True, calls=True), 3, (1,)),
    # The estimates number their layouts 0..samples-1 (no start): threads only.
    "estimate_bid, hard": (lambda n, start, threads: bs.estimate_bid("JH 9H AH KS 7C", "H", samples=n,
                                                                     players="hard", seed=3, threads=threads).frame,
                           600, ()),
    "estimate_bid, dd": (lambda n, start, threads: bs.estimate_bid("JH 9H AH KS 7C", "AT", samples=n, seed=3,
                                                                   threads=threads).frame, 40, ()),
    "bid_table": (lambda n, start, threads: bs.bid_table("JH 9H AH KS 7C", samples=n, players="hard", seed=1,
                                                         threads=threads).table, 400, ()),
    "tournament": (lambda n, start, threads: bs.tournament("hard", "normal", n, seed=2, threads=threads).table, 600,
                   ()),
    "simulate, neural": (lambda n, start, threads: bs.simulate(n, players=("neural", "hard", "neural", "random"),
                                                               bidders="heuristic", seed=8, start=start,
                                                               threads=threads, plays=True), 800, (1, 511)),
    "simulate, hybrid": (lambda n, start, threads: bs.simulate(n, players=("hybrid", "hard", "hybrid", "pimc"),
                                                               bidders="heuristic", seed=5, start=start, worlds=4,
                                                               threads=threads, plays=True), 12, (5,)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_same_rows_for_any_threads_and_split(name):
    run, n, cuts = CASES[name]
    assert_same_rows_any_split(run, n, cuts)


def test_large_start_ids_are_slices_of_a_bigger_run():
    start = 2**40 + 12345
    part = bs.simulate(5, seed=1, start=start)
    assert (part["deal_id"].to_numpy() == range(start, start + 5)).all()
    assert_same_frames(part, bs.simulate(10, seed=1, start=start - 3).iloc[3:8])


def test_a_different_seed_gives_different_deals():
    assert not bs.simulate(50, seed=1).equals(bs.simulate(50, seed=2))
    assert not bs.simulate_matches(50, seed=5)[0].equals(bs.simulate_matches(50, seed=4)[0])
