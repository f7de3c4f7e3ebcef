"""The auction in the frames: ``auction_hand0..3`` (the 5-card hands the auction was held on; classic
``turned_card``) and ``bidding_team`` (-1 for void deals) appear with bidders only, in ``simulate``
and ``simulate_matches``, and agree with the reference dealing of the deal's own pack."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.cli.simulate import summary_table
from belot_sim.engine.frames import AUCTION_HAND_COLUMNS
from belot_sim.kernels.core.dealing import deal_pack
from belot_sim.kernels.batch.match import DEAL_ID_STRIDE, first_dealer


@pytest.mark.parametrize("rules", [bs.BULGARIAN, bs.CLASSIC.replace(all_no_trumps=True)], ids=["bulgarian", "classic"])
def test_auction_columns_are_the_hands_of_the_deals_pack(rules):
    deals = bs.simulate(400, rules=rules, bidders="heuristic", players="easy", seed=6)
    assert list(deals.columns[-6:]) == ["auction", *AUCTION_HAND_COLUMNS, "bidding_team"] if not rules.is_classic \
        else list(deals.columns[-7:]) == ["auction", *AUCTION_HAND_COLUMNS, "turned_card", "bidding_team"]
    pack = np.empty(32, dtype=np.int64)
    for row in deals.to_dict("records"):
        dealer = deal_pack(np.uint64(6), row["deal_id"], pack)
        state = ref.FullDealState(pack.tolist(), int(dealer), rules)
        assert [row[c] for c in AUCTION_HAND_COLUMNS] == list(state.first_hands)
        if rules.is_classic:
            assert row["turned_card"] == pack[20]
        if row["outcome"] == "void":
            assert row["bidding_team"] == -1 and [row[f"hand{s}"] for s in range(4)] == list(state.first_hands)
        else:
            assert row["bidding_team"] == row["declarer"] % 2
            assert all(row[f"auction_hand{s}"] & row[f"hand{s}"] == row[f"auction_hand{s}"] for s in range(4))
    assert (deals["bidding_team"] == -1).sum() == (deals["outcome"] == "void").sum() > 0
    assert deals["bidding_team"].dtype == np.int8 and deals["auction_hand0"].dtype == np.uint32


def test_without_bidders_there_are_no_auction_columns():
    deals = bs.simulate(10, seed=1)
    assert not {"auction", "bidding_team", *AUCTION_HAND_COLUMNS} & set(deals.columns)


def test_match_deals_carry_the_auction_columns():
    matches, deals = bs.simulate_matches(20, bidders="heuristic", players="easy", seed=3)
    pack = np.empty(32, dtype=np.int64)
    for row in deals.head(60).to_dict("records"):
        deal_pack(np.uint64(3), row["deal_id"], pack)
        dealer = (first_dealer(np.uint64(3), row["match_id"]) + row["deal"]) % 4
        assert row["deal_id"] == row["match_id"] * DEAL_ID_STRIDE + row["deal"]
        assert [row[c] for c in AUCTION_HAND_COLUMNS] == ref.first_hands(pack.tolist(), int(dealer))
    assert ((deals["bidding_team"] == -1) == (deals["outcome"] == "void")).all()


def test_the_summary_table_leaves_void_deals_out():
    deals = bs.simulate(2000, bidders="heuristic", players="easy", seed=2)
    table = summary_table(deals)
    played = deals[deals["bidding_team"] >= 0]
    assert table["deals"].sum() == len(played)
    # bidding_raw is the declarer's team's raw points (not team 1's for void deals)
    hearts = played[played["contract"] == "H"]
    expected = np.where(hearts["bidding_team"] == 0, hearts["raw0"], hearts["raw1"]).mean()
    assert table.loc["H", "bidding_raw"] == pytest.approx(round(expected, 1))
    assert not pd.isna(table.index).any()
