"""The frames' ``.belot`` accessor: every operation against hand-written pandas on the same frame."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import belot_sim as bs


@pytest.fixture(scope="module")
def frames():
    """Deals with auctions (void deals among them), shuffled and re-indexed so labels are not positions."""
    deals, plays = bs.simulate(3000, bidders="heuristic", players="hard", plays=True, seed=5)
    deals = deals.sample(frac=1, random_state=1)
    deals.index = deals.index * 10 + 3
    assert (deals["declarer"] < 0).any() and (deals["declarer"] >= 0).any()
    return deals, plays


def by_hand_declarer_mask(deals: pd.DataFrame, offset: int = 0) -> pd.Series:
    """The declarer's (``offset`` 2: the partner's) hand, row by row, 0 for void deals."""
    def pick(row):
        return 0 if row["declarer"] < 0 else int(row[f"hand{(row['declarer'] + offset) % 4}"])
    return deals.apply(pick, axis=1)


def test_hands_as_text(frames):
    deals, _ = frames
    for seat in range(4):
        expected = deals[f"hand{seat}"].map(lambda m: bs.format_cards(int(m)))
        pd.testing.assert_series_equal(deals.belot.hand(seat), expected, check_names=False)
    assert deals.belot.hands().equals(pd.DataFrame({f"hand{s}": deals.belot.hand(s) for s in range(4)}))
    for name, offset in (("declarer", 0), ("partner", 2)):
        masks = by_hand_declarer_mask(deals, offset)
        assert (deals.belot.mask(name).to_numpy(np.int64) == masks.to_numpy()).all()
        expected = masks.map(lambda m: bs.format_cards(int(m))).where(deals["declarer"] >= 0, None)
        pd.testing.assert_series_equal(deals.belot.hand(name), expected, check_names=False)
    assert deals.belot.hand("declarer")[deals["declarer"] < 0].isna().all()


@pytest.mark.parametrize("seat, cards, any_", [("declarer", "JH 9H", False), ("partner", ["AS", "TS"], True),
                                               (2, "JC", False), (0, bs.parse_cards("7D 8D"), True)])
def test_holds_filters_like_hand_written_masks(frames, seat, cards, any_):
    deals, _ = frames
    wanted = bs.Cards(cards)
    masks = (by_hand_declarer_mask(deals, 2 * (seat == "partner")) if isinstance(seat, str)
             else deals[f"hand{seat}"].astype("int64"))
    common = masks.to_numpy(np.int64) & wanted
    expected = (common != 0) if any_ else (common == wanted)
    if isinstance(seat, str):
        expected &= (deals["declarer"] >= 0).to_numpy()
    held = deals.belot.holds(seat=seat, cards=cards, any=any_)
    assert held.index.equals(deals.index) and (held.to_numpy() == expected).all()
    assert 0 < held.sum() < len(deals)
    chosen = deals[held]
    assert all(set(wanted) & set(bs.Cards(int(m))) for m in chosen.belot.mask(seat))


@pytest.mark.parametrize("column", ["score", "raw", "trick_points"])
def test_the_bidding_side_and_the_defenders(frames, column):
    deals, _ = frames
    bidding, defenders = deals.belot.bidding_side(column), deals.belot.defenders(column)
    played = deals[deals["declarer"] >= 0]
    team = played["declarer"] % 2
    expected_bid = played[f"{column}0"].where(team == 0, played[f"{column}1"])
    expected_def = played[f"{column}1"].where(team == 0, played[f"{column}0"])
    assert (bidding[played.index].astype("int64") == expected_bid.astype("int64")).all()
    assert (defenders[played.index].astype("int64") == expected_def.astype("int64")).all()
    assert bidding[deals["declarer"] < 0].isna().all() and defenders[deals["declarer"] < 0].isna().all()
    assert (deals.belot.bidding_team() == deals["bidding_team"]).all()


def test_card_names_of_a_plays_frame(frames):
    _, plays = frames
    names = plays.belot.card_names()
    assert names.index.equals(plays.index)
    assert names.tolist() == [bs.format_card(int(c)) for c in plays["card"]]
    classic = bs.simulate(200, rules="classic", bidders="heuristic", seed=2)
    turned = classic.belot.card_names("turned_card")
    assert (turned.isna() == (classic["turned_card"] < 0)).all()
    assert turned.dropna().tolist() == [bs.format_card(int(c)) for c in classic["turned_card"] if c >= 0]


def test_clear_errors(frames):
    deals, plays = frames
    with pytest.raises(ValueError, match="no column 'hand0'"):
        plays.belot.hand(0)
    with pytest.raises(ValueError, match="seat must be 0..3, 'declarer' or 'partner'"):
        deals.belot.hand(4)
    with pytest.raises(ValueError, match="unknown card"):
        deals.belot.holds("declarer", "JX")
    with pytest.raises(ValueError, match="at least one card"):
        deals.belot.holds("declarer", "")
    with pytest.raises(ValueError, match="no column 'points0'"):
        deals.belot.bidding_side("points")
