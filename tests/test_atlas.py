"""The bid atlas (belot_sim/estimates/atlas.py, scripts/bid_atlas.py) and the ``atlas`` bidder.

* the classes: every 5-card hand maps to one class per contract kind, suit symmetry respected;
* the shipped table has every row, and any row recomputed from its seed gives the stored figures;
* ``estimate_bid(method="atlas")`` reads its row (or pools the four positions), for ``hard`` only;
* the rows agree with fresh estimates of the shipped code (random classes, positions, members);
* the atlas bidder's lookup table agrees with the rows; it bids legally, in simulate and in a Bot;
* the job script: partitions, manifest, refused mismatched resumes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import belot_sim as bs
from belot_sim.estimates import atlas_build
from belot_sim.engine import atlas_table
from belot_sim.kernels.bid_models.atlas_bidder import hand_rank

REPO = Path(__file__).resolve().parent.parent


def test_classes_respect_suit_symmetry():
    suits, others = atlas_table.class_keys()
    assert (len(suits), len(others)) == (38_304, 10_808)
    hand = bs.parse_cards("JH 9H AS 7C 8D")
    swapped = bs.parse_cards("JH 9H AC 7S 8D")  # two side suits exchanged: the same hearts class
    assert atlas_table.row_of(hand, 2, 1) == atlas_table.row_of(swapped, 2, 1)
    assert atlas_table.row_of(hand, 2, 1) != atlas_table.row_of(hand, 3, 1)  # spades as trump is another class
    rotated = bs.parse_cards("JS 9S AD 7H 8C")
    assert atlas_table.row_of(hand, 4, 0) == atlas_table.row_of(rotated, 4, 0)  # NT: any permutation of the suits
    assert atlas_table.row_of(hand, 5, 3) == atlas_table.row_of(rotated, 5, 3)
    masks, kinds, positions = atlas_table.atlas_rows()
    assert len(masks) == 4 * (len(suits) + 2 * len(others))
    row = atlas_table.row_of(hand, 2, 1)
    assert (kinds[row], positions[row]) == (0, 1) and bin(int(masks[row])).count("1") == 5


def test_hand_ranks_are_the_combinatorial_number_system():
    ranks = sorted(hand_rank(np.int64(h)) for h in atlas_table.all_hands()[:: 97])
    assert len(set(ranks)) == len(ranks) and ranks[0] >= 0 and ranks[-1] < 201_376
    assert hand_rank(np.int64(0b11111)) == 0 and hand_rank(np.int64(0b11111 << 27)) == 201_375


def test_the_shipped_table_has_every_row_and_reproduces():
    frame = bs.bid_atlas()
    assert len(frame) == 239_680
    assert frame["p_made"].between(0, 1).all() and (frame["p_made_low"] <= frame["p_made"]).all()
    assert (frame["p_made"] <= frame["p_made_high"]).all()
    meta = atlas_table.atlas_meta()
    assert meta["players"] == "hard" and meta["samples"] == frame["samples"].iloc[0]
    assert atlas_table.DATA.stat().st_size < 5_000_000
    for row in (0, 123_456, 239_679):
        totals = atlas_build.compute_rows(row, row + 1, samples=meta["samples"], seed=meta["seed"])[0]
        got = frame.iloc[row]
        assert got.p_made == totals[0] / meta["samples"] and got.p_hanging == totals[1] / meta["samples"]
        assert got.mean_score_bidding == pytest.approx(totals[2] / meta["samples"], abs=0.006)
        assert got.mean_raw_defenders == pytest.approx(totals[5] / meta["samples"], abs=0.06)
    # stronger trumps do better: the jack and nine of trumps against two small ones
    strong, weak = (frame.iloc[atlas_table.row_of(bs.parse_cards(t), 3, 0)].ev
                    for t in ("JS 9S AC 7D 8H", "7S 8S AC 7D 8H"))
    assert strong > weak


def test_estimate_from_the_atlas():
    est = bs.estimate_bid("JH 9H AH KS 7C", "H", seat=1, dealer=3, method="atlas")
    frame = bs.bid_atlas()
    row = frame.iloc[atlas_table.row_of(bs.parse_cards("JH 9H AH KS 7C"), 2, 1)]
    assert est.method == "atlas" and est.p_made == row.p_made and est.samples == row.samples
    assert frame.attrs["players"] == "hard" and set(frame["players"]) == {"hard"} and row.players == "hard"
    assert frame.attrs["members"] == "uniform" and frame.attrs["member_sd"] == atlas_table.MEMBER_SD
    assert "hard play" in str(est)
    assert est.p_made_ci == pytest.approx((row.p_made_low, row.p_made_high))  # no spread among suit members
    # NT: the interval is the hand's, the class's Wilson interval widened by the members' spread
    nt = bs.estimate_bid("JH 9H AH KS 7C", "NT", seat=1, dealer=3, method="atlas")
    row = frame.iloc[atlas_table.row_of(bs.parse_cards("JH 9H AH KS 7C"), 4, 1)]
    sd = atlas_table.MEMBER_SD["NT"]
    assert sd > 0 and nt.p_made_ci[0] < row.p_made_low and nt.p_made_ci[1] > row.p_made_high
    assert nt.p_made_ci == pytest.approx((row.p_made - np.hypot(row.p_made - row.p_made_low, 1.96 * sd),
                                          row.p_made + np.hypot(row.p_made_high - row.p_made, 1.96 * sd)), abs=1e-5)
    row = frame.iloc[atlas_table.row_of(bs.parse_cards("JH 9H AH KS 7C"), 2, 1)]
    assert est.mean_score_bidding - est.mean_score_defenders == pytest.approx(row.ev)
    pooled = bs.estimate_bid("JH 9H AH KS 7C", "H", method="atlas")
    assert pooled.samples == 4 * row.samples
    for players in ("dd", "neural", ("hard", "hard", "hard", "normal")):  # the atlas answers for hard only
        with pytest.raises(ValueError, match='computed with hard play in every seat.*needs method="sample"'):
            bs.estimate_bid("JH 9H AH KS 7C", "H", method="atlas", players=players)
    assert bs.estimate_bid("JH 9H AH KS 7C", "H", method="atlas", players="HARD").p_made == pooled.p_made
    with pytest.raises(ValueError, match="bulgarian preset"):
        bs.estimate_bid("JH 9H AH KS 7C", "H", method="atlas", rules="classic")
    with pytest.raises(ValueError, match="5-card hands"):
        bs.estimate_bid("JH 9H AH KS 7C 8C", "H", method="atlas")


def two_proportions_z(p_a: float, n_a: int, p_b: float, n_b: int, extra_var: float = 0.0) -> float:
    """The difference of two proportions over its standard error (pooled proportion, plus ``extra_var``)."""
    pooled = (p_a * n_a + p_b * n_b) / (n_a + n_b)
    var = pooled * (1 - pooled) * (1 / n_a + 1 / n_b) + extra_var
    return 0.0 if var == 0 else (p_a - p_b) / np.sqrt(var)


def test_a_class_is_every_suit_permutation_of_a_hand():
    members = atlas_table.class_members(bs.parse_cards("7S TS KS 8H 8C"), 4)
    assert len(members) == 12 and (bs.parse_cards("8H 8D 7C TC KC"), 4) in members  # the two 8s: 24 / 2
    assert {atlas_table.row_of(h, c, 2) for h, c in members} == {atlas_table.row_of(members[0][0], 4, 2)}
    suit = atlas_table.class_members(bs.parse_cards("JH 9H AS 7C 8D"), 2)  # hearts trump: it moves with JH 9H
    assert len(suit) == 24 and (bs.parse_cards("JS 9S AH 7C 8D"), 3) in suit
    assert len({atlas_table.row_of(h, c, 0) for h, c in suit}) == 1


def atlas_checks(n: int = 30, seed: int = 52) -> list[tuple]:
    """``n`` checks of the atlas against fresh ``hard`` estimates (a third of each kind: a random class,
    position and dealer), each ``(row, member hand, z_class, z_member)``: see the test below."""
    rng = np.random.default_rng(seed)
    masks, kinds, positions = atlas_table.atlas_rows()
    table = atlas_table.load_table()
    samples = int(table["meta"]["samples"])
    out = []
    for k in range(n):
        row = int(rng.choice(np.flatnonzero(kinds == k % 3)))
        contract = atlas_table.KIND_CONTRACT[k % 3]
        dealer = int(rng.integers(4))
        seat = (dealer + 1 + int(positions[row])) % 4
        members = atlas_table.class_members(int(masks[row]), contract)
        each = max(1, 1000 // len(members))
        fresh = np.mean([bs.estimate_bid(h, c, seat=seat, dealer=dealer, players="hard", samples=each,
                                         seed=100 + 100 * k + j).p_made for j, (h, c) in enumerate(members)])
        z_class = two_proportions_z(table["made"][row] / samples, samples, fresh, each * len(members))
        hand, member_contract = members[int(rng.integers(len(members)))]
        atlas = bs.estimate_bid(hand, member_contract, seat=seat, dealer=dealer, method="atlas")
        own = bs.estimate_bid(hand, member_contract, seat=seat, dealer=dealer, players="hard", samples=1000, seed=k)
        sd = atlas_table.MEMBER_SD[atlas_table.KINDS[k % 3]]
        z_member = two_proportions_z(atlas.p_made, atlas.samples, own.p_made, own.samples, sd * sd)
        out.append((row, bs.format_cards(hand), z_class, z_member))
    return out


def test_the_atlas_agrees_with_fresh_estimates_of_the_shipped_code():
    """Issue 52: the atlas against fresh ``hard`` estimates of the code that ships, 30 random rows (10 of
    each kind: a random class, position and dealer; fixed seeds).

    * class check: the row against the mean of fresh estimates of every member of its class (1,000
      layouts split equally among them) — the quantity a row estimates, so only sampling error parts them;
    * member check: ``estimate_bid(method="atlas")`` of a random member against that hand's own fresh
      estimate (1,000 layouts), the members' spread ``MEMBER_SD`` added to the error.

    ``z`` is the difference over the combined standard error (two proportions, pooled).  For a correct
    atlas each ``z`` is close to standard normal, P(|z| > 4) = 6.3e-5, so a correct atlas fails one of the
    60 with probability about 0.4 %.  Measured on 2026-12-07: the shipped table's largest |z| is 3.39, a
    class check of an AT row (7H TH KD 9C KC, position 2) whose fresh mean over 24 x 41 layouts came out
    0.305, 3.2 standard deviations below the 0.365 of 30 other seeds (48,000 layouts: 0.372; the row:
    0.377).  Moving every row's figures to the next position (a lookup off by one) gives 6.0.  The
    2026-12-01 table (each row played on its class's representative only: NT and AT rows 0.010 and 0.012
    high on average, under a row's own standard error of about 0.016) gives 3.98 and passes: that lean
    shows in aggregate only (``python benchmarks/atlas.py``, docs/bidding.md).
    """
    checks = atlas_checks()
    worst = max(checks, key=lambda c: max(abs(c[2]), abs(c[3])))
    assert max(abs(worst[2]), abs(worst[3])) <= 4.0, worst


def test_the_atlas_bidders_table_agrees_with_the_rows():
    lookup = atlas_table.atlas_lookup()
    frame = bs.bid_atlas()
    hands = atlas_table.all_hands()
    for h in hands[::20011]:
        for contract in range(6):
            for position in range(4):
                expected = frame.iloc[atlas_table.row_of(int(h), contract, position)].ev
                assert lookup[hand_rank(np.int64(h)) * 24 + contract * 4 + position] == pytest.approx(expected)


def test_the_atlas_bidders_weights_are_made_once_per_set_of_options():
    from belot_sim.kernels.core.layouts import BIDDER_WEIGHTS, BW_SIZE
    from belot_sim.engine.bidder_options import BIDDER_CODES, bidder_params

    atlas_code = [BIDDER_CODES["atlas"]]
    _, first = bidder_params("bulgarian", {"atlas_min_ev": 0.5}, atlas_code)
    _, again = bidder_params("bulgarian", {"atlas_min_ev": 0.5}, atlas_code)
    _, other = bidder_params("bulgarian", {"atlas_min_ev": -0.5}, atlas_code)
    assert again is first and other is not first  # the 38 MB table is not copied again
    assert first[BIDDER_WEIGHTS["ATLAS_MIN_EV"].offset] == 0.5 and other[BIDDER_WEIGHTS["ATLAS_MIN_EV"].offset] == -0.5
    assert first.flags.writeable and np.array_equal(first[BW_SIZE:], atlas_table.atlas_lookup())


def test_the_atlas_bidder_bids_in_simulate_and_in_a_bot():
    deals, calls = bs.simulate(200, bidders=("atlas", "heuristic", "atlas", "heuristic"), players="hard", seed=5,
                               calls=True)
    assert deals["contract"].notna().sum() > 100
    bot = bs.Bot("hard", bidder="atlas")
    from belot_sim import reference as ref
    from belot_sim.kernels.core.dealing import deal_pack

    pack = np.empty(32, dtype=np.int64)
    for row in deals.head(30).itertuples():
        dealer = deal_pack(np.uint64(5), row.deal_id, pack)
        state = ref.FullDealState(pack.tolist(), int(dealer), bs.BULGARIAN)
        for call in calls[calls["deal_id"] == row.deal_id].itertuples():
            if call.seat % 2 == 0:
                assert bot.bid(state) == call.call
            state.play(call.call)
    with pytest.raises(ValueError, match="bulgarian preset"):
        bs.simulate(5, bidders="atlas", rules="classic")


def test_the_job_script_resumes_and_refuses_other_arguments(tmp_path):
    out, table = tmp_path / "parts", tmp_path / "atlas.npz"
    script = [sys.executable, str(REPO / "scripts" / "bid_atlas.py"), "--out", str(out), "--table", str(table),
              "--samples", "2", "--parts", "40", "--threads", "1"]
    done = subprocess.run(script, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "manifest.json").read_text())["samples"] == 2
    assert len(list(out.glob("part-*.npy"))) == 40
    first = np.load(table)["made"]
    (out / "part-00007.npy").unlink()
    again = subprocess.run(script + ["--resume"], capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "39 of 40 parts done" in again.stderr
    assert np.array_equal(np.load(table)["made"], first)
    refused = subprocess.run(script[:-6] + ["--samples", "3", "--parts", "40", "--resume"], capture_output=True,
                             text=True, timeout=600)
    assert refused.returncode != 0 and "samples=2" in refused.stderr
    fresh = subprocess.run(script, capture_output=True, text=True, timeout=600)
    assert fresh.returncode != 0 and "--resume" in fresh.stderr


def test_the_atlas_bidder_plays_matches_to_any_target_but_no_other_rules():
    matches, deals = bs.simulate_matches(3, bidders="atlas", rules=bs.BULGARIAN.replace(match_target=101), seed=4)
    assert len(matches) == 3 and (matches["target"] >= 101).all() and len(deals) > 3
    for rules in (bs.BULGARIAN.replace(declarations=False), bs.CLASSIC):
        with pytest.raises(ValueError, match="bulgarian preset only"):
            bs.simulate_matches(3, bidders="atlas", rules=rules)


def test_a_partition_computed_in_blocks_equals_one_call_over_its_rows(tmp_path, monkeypatch):
    """compute_part plays its rows a block at a time (Ctrl-C stops it between two); rows depend only on
    their ids, so the partition is the one kernel call's."""
    calls = []
    compute_rows = atlas_build.compute_rows
    monkeypatch.setattr(atlas_build, "compute_rows",
                        lambda a, b, **kw: calls.append((a, b)) or compute_rows(a, b, **kw))
    assert atlas_build.compute_part(tmp_path, 3, 2000, samples=1000, seed=7, threads=1) == 3  # the first block: 64 rows
    start, stop = atlas_build.part_bounds(3, 2000)
    assert len(calls) >= 2 and calls[0] == (start, start + 64) and calls[-1][1] == stop
    assert all(b == c for (_, b), (c, _) in zip(calls, calls[1:]))  # consecutive ranges
    assert np.array_equal(np.load(atlas_build.part_path(tmp_path, 3)), compute_rows(start, stop, samples=1000, seed=7))
