"""``simulate(bidders=...)`` against the reference engine, deal by deal.

Each deal's pack comes from the kernel's own shuffle (``deal_pack(seed, deal_id)``, which also
draws the row's dealer); the reference deals it (``ref.FullDealState``), so the recorded hands
check the kernel's dealing.  The ``calls`` frame is replayed in the reference auction (every
call must be legal for the seat to move) and must give the row's contract, declarer,
multiplier or void; the ``plays`` frame then replays the card play and ``result()`` must equal
the whole row.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.kernels.core.dealing import deal_pack
from belot_sim.engine.frames import CALL_LETTERS
from helpers import as_reference_row, grouped

CALL_NAMES = ("pass", "C", "D", "H", "S", "NT", "AT", "double", "redouble")
LETTER = dict(zip(CALL_NAMES, CALL_LETTERS))

CASES = [
    # (rules, bidders, players, deals)
    (bs.BULGARIAN, "random", "random", 200),
    (bs.BULGARIAN, "heuristic", "random", 200),
    (bs.BULGARIAN, ("heuristic", "random", "random", "heuristic"), "normal", 120),
    (bs.CLASSIC, "random", "random", 150),
    (bs.CLASSIC, "heuristic", "easy", 150),
    (bs.CLASSIC.replace(all_no_trumps=True), "random", "random", 150),
    (bs.CLASSIC.replace(all_no_trumps=True), ("random", "heuristic", "heuristic", "random"), "random", 150),
]


@pytest.mark.parametrize("rules, bidders, players, n", CASES,
                         ids=[f"{r.family}{'-all' if r.all_no_trumps and r.is_classic else ''}-{b}-{p}"
                              for r, b, p, _ in CASES])
def test_auctions_and_results_agree_with_the_reference(rules, bidders, players, n):
    seed = 21
    deals, plays, calls = bs.simulate(n, rules=rules, bidders=bidders, players=players, seed=seed, plays=True,
                                      calls=True)
    call_map = grouped(calls, ("seat", "call"))
    play_map = grouped(plays, ("seat", "card"))
    pack = np.empty(32, dtype=np.int64)
    contracts, voids, doubled = set(), 0, 0
    for row in deals.to_dict("records"):
        deal_id = row["deal_id"]
        dealer = deal_pack(np.uint64(seed), deal_id, pack)
        assert dealer == row["dealer"]
        st = ref.FullDealState(pack.tolist(), int(dealer), rules)
        deal_calls = call_map[deal_id]
        assert "".join(LETTER[c] for _, c in deal_calls) == row["auction"]
        for seat, call in deal_calls:
            assert st.phase == "auction" and st.to_move == seat
            st.play(call)  # IllegalActionError if the kernel's bidder made an illegal call
        auction = st.auction
        assert auction.is_over, "the recorded calls did not end the auction"
        if auction.is_void:
            voids += 1
            assert row["outcome"] == "void" and pd.isna(row["contract"])
            assert (row["declarer"], row["multiplier"]) == (-1, 1)
            assert [row[f"hand{s}"] for s in range(4)] == list(st.first_hands)  # the 5-card hands
            # (its rows in ``plays`` are not checked here: see test_void_deals_have_no_plays)
        else:
            assert (str(row["contract"]), row["declarer"], row["multiplier"]) == (
                str(auction.contract), auction.declarer, auction.multiplier)
            contracts.add(str(auction.contract))
            doubled += auction.multiplier > 1
            for seat, card in play_map[deal_id]:
                assert st.to_move == seat
                st.play(card)
        assert st.is_over
        assert st.result().as_row() == as_reference_row(row)
    assert len(contracts) >= 3  # not degenerate
    if bidders == "heuristic":  # (random bidders rarely pass all round)
        assert voids > 0
    if rules.is_classic:
        assert set(contracts) <= ({"C", "D", "H", "S", "NT", "AT"} if rules.all_no_trumps else {"C", "D", "H", "S"})
        assert (deals["multiplier"] == 1).all()
    elif bidders == "random":
        assert doubled > 0  # random bidders double and redouble


def test_calls_and_plays_flags_do_not_change_the_deals():
    plain = bs.simulate(300, bidders="heuristic", seed=8)
    deals, _, _ = bs.simulate(300, bidders="heuristic", seed=8, plays=True, calls=True)
    pd.testing.assert_frame_equal(plain, deals)


def test_void_deals_have_no_plays():
    deals, plays = bs.simulate(200, bidders="heuristic", seed=1, plays=True)
    void = deals.loc[deals["outcome"] == "void", "deal_id"]
    assert len(void) > 0
    assert not plays["deal_id"].isin(void).any()
