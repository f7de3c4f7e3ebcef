"""Estimates conditional on the auction (belot_sim/estimates/conditional.py, ``estimate_bid(auction=...)``).

* the accepted layouts are uniform among the consistent ones: a chi-square test against a brute-force
  enumeration of a small case (8 free cards), and none inconsistent is ever accepted;
* every accepted layout replays the auction through the auction loop's own bidders;
* the result is the same on one thread and two, and ``auction=None`` is the uniform estimate;
* ``bid_table`` with an auction evaluates every legal call on shared layouts: the bids as contracts, and
  every call by its continuation (``ev_call``), which the reference engine recomputes;
* a classic auction with its turned card;
* bad input (illegal or finished auctions, auctions that contradict the hand, unknown or unusable
  bidder models, seat/dealer mismatches, contracts that cannot be bid) -> a clear error before any
  kernel runs.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.estimates import conditional
from belot_sim.kernels.batch import estimate as kernel_estimate
from belot_sim.kernels.bidding.auction_loop import run_auction_params
from belot_sim.kernels.bid_models.codes import HEURISTIC
from belot_sim.kernels.bid_models.consistent import first_mismatch
from belot_sim.kernels.core import auction_rules as ka
from belot_sim.kernels.core.auction_rules import CALL_OF_NAME
from belot_sim.kernels.core.dealing import auction_hands
from belot_sim.kernels.core.layouts import A_SIZE, BIDDER_WEIGHTS
from belot_sim.kernels.core.rule_flags import flags_of
from belot_sim.engine.bidder_options import bidder_params
from helpers import mask

HAND = "JH 9H AH KS 7C"
WEIGHTS = BIDDER_WEIGHTS.defaults()
BULGARIAN_FLAGS = flags_of(bs.BULGARIAN)
HEURISTIC4 = np.full(4, HEURISTIC, dtype=np.int64)


def chi2_critical(dof: int, p: float = 1e-4) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile of upper tail ``p``."""
    z = {1e-4: 3.719}[p]
    return dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3


def accepts(codes, hands5, dealer=3, skip=-1) -> bool:
    state = np.zeros(A_SIZE, dtype=np.int64)
    return first_mismatch(np.array(codes, dtype=np.int64), len(codes), hands5, dealer, 0, BULGARIAN_FLAGS, -1,
                          HEURISTIC4, skip, state, WEIGHTS) < 0


def class_of(pack, free_cards):
    """Which free cards seat 0 (pack[0:3]) and seat 1 (pack[5:8]) hold."""
    return (tuple(c for c in free_cards if c in pack[[0, 1, 2]]), tuple(c for c in free_cards if c in pack[[5, 6, 7]]))


def test_accepted_layouts_are_uniform_among_the_consistent_ones():
    # Dealer 3: seat 0 speaks first (pack[0:5]), seat 1 second (pack[5:10]).  Eight cards are free:
    # three of seat 0's auction cards, three of seat 1's and two cards dealt later.
    rest = [c for c in range(32)]
    free_cards = [bs.parse_card(t) for t in "JH 9H AH TH JS 9S JC 7D".split()]
    others = [c for c in rest if c not in free_cards]
    free_positions = [0, 1, 2, 5, 6, 7, 20, 21]
    fixed = np.full(32, -1, dtype=np.int64)
    fixed[[p for p in range(32) if p not in free_positions]] = others
    free = np.array(free_cards, dtype=np.int64)
    # Brute force: the classes (which cards seat 0 and seat 1 get), all equally likely.
    classes = [(a, b) for a in itertools.combinations(free_cards, 3)
               for b in itertools.combinations([c for c in free_cards if c not in a], 3)]
    assert len(classes) == 560

    def hands_of(a, b):
        pack = fixed.copy()
        pack[[0, 1, 2]], pack[[5, 6, 7]] = a, b
        pack[[20, 21]] = [c for c in free_cards if c not in a + b]
        hands5 = np.empty(4, dtype=np.int64)
        auction_hands(pack, 3, hands5)
        return hands5

    hands = {cls: hands_of(*cls) for cls in classes}
    # An auction that some classes fit and others do not.
    chosen = None
    for codes in ([ka.PASS, ka.CALL_C], [ka.PASS, ka.PASS], [ka.CALL_AT, ka.PASS], [ka.PASS, ka.CALL_AT]):
        fit = {cls for cls in classes if accepts(codes, hands[cls])}
        if 0.15 * len(classes) < len(fit) < 0.85 * len(classes):
            chosen = codes
            break
    assert chosen is not None
    n = 200_000
    flags = np.zeros(n, dtype=np.int8)
    kernel_estimate.screen_layouts(np.uint64(5), 0, n, fixed, free, np.array(chosen, dtype=np.int64), 3, 0,
                                   BULGARIAN_FLAGS, HEURISTIC4, -1, WEIGHTS, flags)
    ids = np.flatnonzero(flags)
    counts = dict.fromkeys(fit, 0)
    pack, work = np.empty(32, dtype=np.int64), np.empty(32, dtype=np.int64)
    for candidate in ids:
        kernel_estimate.auction_pack(np.uint64(5), candidate, fixed, free, work, pack)
        cls = class_of(pack, free_cards)
        assert cls in counts, "an inconsistent layout was accepted"
        counts[cls] += 1
    assert len(ids) == pytest.approx(n * len(fit) / len(classes), rel=0.03)
    expected = len(ids) / len(fit)
    chi2 = sum((k - expected) ** 2 / expected for k in counts.values())
    assert chi2 < chi2_critical(len(fit) - 1), (chi2, len(fit))
    # Rejected candidates are exactly the inconsistent ones.
    for candidate in range(300):
        kernel_estimate.auction_pack(np.uint64(5), candidate, fixed, free, work, pack)
        cls = class_of(pack, free_cards)
        assert bool(flags[candidate]) == (cls in fit)


def test_every_accepted_layout_replays_the_auction_through_the_auction_loop():
    est = bs.estimate_bid(HAND, "S", seat=2, auction="PH", players="hard", samples=300, seed=3)
    assert est.method == "auction" and est.accepted == 300 and est.tried > 300
    assert est.acceptance == pytest.approx(300 / est.tried)
    frame = est.frame
    ints, weights = bidder_params("bulgarian")
    state = np.zeros(A_SIZE, dtype=np.int64)
    calls = np.zeros(ka.MAX_CALLS, dtype=np.int8)
    for row in frame.itertuples():
        hands5 = np.array([getattr(row, f"auction_hand{s}") for s in range(4)], dtype=np.int64)
        assert hands5[2] == mask(HAND)
        for s in range(4):
            assert hands5[s] & getattr(row, f"hand{s}") == hands5[s]  # 5 of its final 8 cards
        run_auction_params(hands5, 3, 0, True, -1, HEURISTIC4, np.uint64(1), state, calls, ints, weights)
        assert calls[:2].tolist() == [ka.PASS, ka.CALL_H]
    assert frame["layout"].is_monotonic_increasing and frame["dealer"].eq(3).all()


def test_the_auction_estimate_is_reproducible_and_none_is_the_uniform_estimate():
    kwargs = dict(seat=2, dealer=3, players="hard", samples=200, seed=8)
    one = bs.estimate_bid(HAND, "S", auction="PH", threads=1, **kwargs)
    two = bs.estimate_bid(HAND, "S", auction=["pass", "hearts"], threads=2, **kwargs)
    assert one.frame.equals(two.frame) and one.tried == two.tried
    uniform = bs.estimate_bid(HAND, "S", **kwargs)
    assert uniform.method == "uniform" and uniform.tried == uniform.accepted == 200
    empty = bs.estimate_bid(HAND, "S", auction="PP", bidders="random", **kwargs)
    assert empty.tried == empty.accepted == 200  # random bidders' calls say nothing about their cards
    assert "consistent" in str(one) and "consistent" not in str(uniform)


def test_a_searching_auction_estimate_is_the_same_for_any_threads_and_blocks():
    kwargs = dict(seat=2, dealer=3, players="dd", samples=24, seed=8)
    one = bs.estimate_bid(HAND, "S", auction="PH", threads=1, **kwargs)
    two = bs.estimate_bid(HAND, "S", auction="PH", threads=2, progress=True, **kwargs)  # other blocks
    assert one.frame.equals(two.frame) and one.accepted == 24
    first = bs.estimate_bid(HAND, "S", auction="PH", threads=1, **{**kwargs, "samples": 5})
    assert first.frame.equals(one.frame.iloc[:5])  # the first layouts whatever the blocks after them


def test_a_finished_auction_is_estimated_for_its_declarer_and_multiplier():
    deals = bs.simulate(300, bidders="heuristic", players="hard", seed=4)
    row = deals[(deals["bidding_team"] >= 0) & (deals["auction"].str.len() > 4)].iloc[0]
    d = int(row.declarer)
    est = bs.estimate_bid(int(row[f"auction_hand{d}"]), str(row.contract), seat=d, auction=row.auction,
                          players="hard", samples=100)
    assert est.frame["dealer"].eq(row.dealer).all() and est.frame["multiplier"].eq(row.multiplier).all()
    assert est.frame["declarer"].eq(d).all()


def test_bid_table_with_an_auction_rates_every_legal_call():
    result = bs.bid_table(HAND, seat=2, auction="PH", players="hard", samples=200, seed=2)
    table = result.table
    assert list(table.index) == ["S", "NT", "AT", "pass", "double"]
    assert result.auction == "PH" and 0 < result.acceptance < 1
    single = bs.estimate_bid(HAND, "NT", seat=2, auction="PH", players="hard", samples=200, seed=2)
    assert single.p_made == table.loc["NT", "p_made"]
    assert table.loc[["pass", "double"], "p_made"].isna().all() and table["ev_call"].notna().all()
    assert result.best_call == table["ev_call"].idxmax()
    chosen = bs.bid_table(HAND, seat=2, auction="PH", players="hard", samples=200, seed=2, contracts=["NT", "AT"]).table
    assert list(chosen.index) == ["NT", "AT"] and "ev_call" not in chosen.columns
    pd.testing.assert_frame_equal(chosen, table.loc[["NT", "AT"], chosen.columns], check_like=True)
    text = str(result)
    assert "EV call" in text and "best call by EV call" in text and "nan" not in text


def test_a_table_with_no_contract_to_bid_values_the_other_calls():
    result = bs.bid_table("7S 8S 7D 8D 9C", seat=0, dealer=0, auction="PAX", bidders="random", players="hard",
                          samples=100, seed=1)  # random: the partner's AT and the double are rare under the heuristic
    table = result.table
    assert list(table.index) == ["pass", "redouble"]
    assert table["p_made"].isna().all() and table["ev_call"].notna().all()
    assert result.recommended == "pass" and table["recommended"].tolist() == [True, False]
    assert table["p_made"].dtype == float  # no object columns when no contract is left to bid


def test_the_value_of_a_call_is_its_auction_finished_and_played_by_the_reference_engine():
    """Each call's value on one layout, recomputed with the reference engine: the pack of the accepted
    layout, the call, the heuristic bots' calls to the end of the auction, the neural bots' cards (both
    deterministic), the score of the seat's team minus the other's."""
    from belot_sim.estimates import bid as bid_module
    from belot_sim.kernels.batch.estimate import auction_pack

    plan = bid_module._plan(HAND, None, dict(seat=2, dealer=None, auction="PH", bidders="heuristic", known=None,
                                             turned=None, multiplier=None, samples=6, players="neural",
                                             rules=bs.BULGARIAN, seed=4, worlds=20, max_tries=None, min_samples=None,
                                             bidder_options=None))
    lay = plan.layouts
    ids, _ = conditional.screen(plan.seed, plan.samples, lay.max_tries, lay.fixed, lay.free, lay.auction,
                                plan.rules, lay.models, plan.seat, lay.weights)
    names = list(lay.auction.legal)
    codes = np.array([CALL_OF_NAME[n] for n in names], dtype=np.int64)
    bidder, player = bs.Bot("neural", bidder="heuristic"), bs.Bot("neural")
    pack, work = np.empty(32, dtype=np.int64), np.empty(32, dtype=np.int64)
    for layout in ids:
        values = bid_module._call_values(plan, np.array([layout]), codes)
        auction_pack(np.uint64(plan.seed), int(layout), lay.fixed, lay.free, work, pack)
        for name, value in zip(names, values):
            deal = ref.FullDealState([int(c) for c in pack], lay.auction.dealer)
            for call in ("pass", "H", name):
                deal.play(call)
            while deal.phase == "auction":
                deal.play(bidder.bid(deal))
            while deal.phase == "play":
                deal.play(player.play(deal))
            if deal.auction.is_void:
                assert value == 0
                continue
            score = deal.result().score
            assert value == score[0] - score[1], (layout, name)


def test_a_classic_auction_with_its_turned_card():
    est = bs.estimate_bid("9H AH 7S 8S TD", "H", seat=1, auction="P", turned="JH", rules="classic", players="hard",
                          samples=200, seed=1)
    frame = est.frame
    assert (frame["turned_card"] == bs.parse_card("JH")).all()
    assert ((frame["hand1"].to_numpy(np.int64) >> bs.parse_card("JH")) & 1).all()  # the taker gets it
    assert est.tried > est.accepted  # seat 0's pass says it did not want hearts


@pytest.mark.parametrize("text, calls", [
    ("PHPP", ["pass", "H", "pass", "pass"]),
    ("P H", ["pass", "H"]),
    ("P NT X XX", ["pass", "NT", "double", "redouble"]),  # the position notation's words
    ("pass h Double", ["pass", "H", "double"]),
    ("PP AT", ["pass", "pass", "AT"]),
    ("NA", ["NT", "AT"]),  # letters, as the auction column writes them
])
def test_a_text_auction_takes_the_columns_letters_and_between_spaces_the_notations_words(text, calls):
    assert conditional.parse_calls(text) == calls


def test_one_auction_in_either_spelling_gives_the_same_estimate():
    kwargs = dict(seat=2, players="hard", samples=100, seed=3)
    assert bs.estimate_bid(HAND, "AT", auction="PN", **kwargs).p_made == \
        bs.estimate_bid(HAND, "AT", auction="P NT", **kwargs).p_made


BAD = [
    (dict(auction="PZ"), "not a call letter"),
    (dict(auction="P NTX"), "'T' is not a call letter"),
    (dict(auction=5), "auction must be"),
    (dict(auction=["pass", "bogus"]), "unknown call"),
    (dict(auction="PX"), "illegal"),
    (dict(auction="PHPPPP"), "over after"),
    (dict(auction="PPPP"), "void"),
    (dict(auction="PH", contract="C"), "not a legal bid"),
    (dict(auction="PH", seat=1, dealer=3), "not the seat to call"),
    (dict(auction="PH", dealer=0), "not the seat to call"),
    (dict(auction="PH", bidders="genius"), "genius"),
    (dict(auction="PH", bidders="mc"), "mc cannot be the bidder model"),
    (dict(auction="PH", hand="JH 9H AH KS 7C 8C 9C TC"), "5 cards held during the auction"),
    (dict(auction="PH", known={1: "TS"}), "known= cannot be combined"),
    (dict(auction="PH", turned="TS"), "turned card; bulgarian"),
    (dict(auction="PH", rules="classic"), "turned card"),
    (dict(auction="PH", max_tries=0), "max_tries"),
    (dict(auction="HPPP", seat=0, contract="S"), "ends in H by seat 0"),
    (dict(auction="HPPP", seat=0, contract="H", multiplier=2), "multiplier"),
    (dict(method="atlas", auction="PH"), "atlas"),
    (dict(method="guess"), "method"),
]


@pytest.mark.parametrize("kwargs, pattern", BAD, ids=[repr(k) for k, _ in BAD])
def test_bad_auction_input_is_refused_before_any_kernel(kwargs, pattern, rejected_before_kernel):
    args = dict(hand=HAND, contract="S", seat=2, samples=10, players="hard")
    args.update(kwargs)

    def run(n, **kw):
        return bs.estimate_bid(kw.pop("hand"), kw.pop("contract"), **kw)

    rejected_before_kernel(kernel_estimate, "screen_layouts", run, args, pattern)


def test_bid_table_refuses_a_finished_auction_and_an_impossible_one():
    with pytest.raises(ValueError, match="is over"):
        bs.bid_table(HAND, seat=0, auction="HPPP", players="hard", samples=10)
    # Three suits bid in a row are rare under the heuristic: 50 candidates do not give 50 layouts.
    with pytest.raises(ValueError, match="consistent with the auction"):
        bs.estimate_bid("7C 8C 7D 8D 9S", "AT", seat=0, dealer=3, auction="PCDH", players="hard", samples=50,
                        max_tries=50)


def test_read_auction_implies_the_dealer():
    auction = conditional.read_auction("PH", bs.BULGARIAN, None, 2, None)
    assert (auction.dealer, auction.to_move, auction.over) == (3, 2, False)
    done = conditional.read_auction("PHPPP", bs.BULGARIAN, None, 1, None)
    assert (done.dealer, done.declarer, str(done.contract), done.over) == (3, 1, "H", True)
    assert conditional.read_auction("PHPPP", bs.BULGARIAN, None, 0, None).dealer == 2  # seat 0 bid the hearts
    with pytest.raises(ValueError, match="call 2 by seat 0 .* illegal"):
        conditional.read_auction("PX", bs.BULGARIAN, None, 1, None)


def test_min_samples_accepts_fewer_layouts_within_max_tries():
    full = bs.estimate_bid(HAND, "S", seat=2, auction="PH", players="hard", samples=300, seed=3)
    assert full.tried > 20_000  # so 20,000 candidates hold fewer than 300 consistent layouts
    part = bs.estimate_bid(HAND, "S", seat=2, auction="PH", players="hard", samples=300, seed=3,
                           max_tries=20_000, min_samples=5)
    assert 5 <= part.accepted == part.samples == len(part.frame) < 300 and part.tried == 20_000
    assert part.frame["layout"].tolist() == full.frame["layout"].tolist()[:part.accepted]  # the same first ones
    with pytest.raises(conditional.TooFewLayouts, match="were needed"):
        bs.estimate_bid(HAND, "S", seat=2, auction="PH", players="hard", samples=300, seed=3, max_tries=1000)
    with pytest.raises(ValueError, match="min_samples"):
        bs.estimate_bid(HAND, "S", seat=2, auction="PH", players="hard", samples=30, min_samples=31)


def test_the_estimating_seats_own_calls_never_constrain_its_layouts():
    """Seat 0 called H where its model calls NT with these cards (issue 52): its calls are facts, so the
    estimate is the one whatever model seat 0 is given (its calls are never replayed)."""
    args = dict(seat=0, dealer=2, auction="PNPPP", players="hard", samples=200, seed=3)
    est = bs.estimate_bid("JH 9H AH KS 7C", "NT", **args)
    other = bs.estimate_bid("JH 9H AH KS 7C", "NT", bidders=["random", "heuristic", "heuristic", "heuristic"], **args)
    assert est.accepted == 200 and (est.tried, est.p_made) == (other.tried, other.p_made)


def test_an_impossible_call_of_another_seat_names_the_call_its_seat_and_model():
    """Seat 2 holds the jack, nine, ace, ten and king of hearts: the heuristic almost never bids hearts
    without them, so seat 1's H is the call the candidates fail."""
    with pytest.raises(ValueError, match=r"Most candidates fail call 2, H by seat 1, whose bidder model "
                                         r"'heuristic'.*bidders="):
        bs.estimate_bid("JH 9H AH TH KH", "S", seat=2, dealer=3, auction="PH", players="hard", samples=50,
                        max_tries=20_000)
