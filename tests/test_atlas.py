"""The bid atlas (belot_sim/estimates/atlas.py, scripts/bid_atlas.py) and the ``atlas`` bidder.

* the classes: every 5-card hand maps to one class per contract kind, suit symmetry respected;
* the shipped table has every row, and any row recomputed from its seed gives the stored figures;
* ``estimate_bid(method="atlas")`` reads its row (or pools the four positions);
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
    row = bs.bid_atlas().iloc[atlas_table.row_of(bs.parse_cards("JH 9H AH KS 7C"), 2, 1)]
    assert est.method == "atlas" and est.p_made == row.p_made and est.samples == row.samples
    assert est.mean_score_bidding - est.mean_score_defenders == pytest.approx(row.ev)
    pooled = bs.estimate_bid("JH 9H AH KS 7C", "H", method="atlas")
    assert pooled.samples == 4 * row.samples
    with pytest.raises(ValueError, match="hard play"):
        bs.estimate_bid("JH 9H AH KS 7C", "H", method="atlas", players="dd")
    with pytest.raises(ValueError, match="bulgarian preset"):
        bs.estimate_bid("JH 9H AH KS 7C", "H", method="atlas", rules="classic")
    with pytest.raises(ValueError, match="5-card hands"):
        bs.estimate_bid("JH 9H AH KS 7C 8C", "H", method="atlas")


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
