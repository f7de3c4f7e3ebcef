"""``estimate_bid`` / ``bid_table`` / ``belot-sim bid`` (belot_sim/estimates/bid.py).

* every card known: the estimate is the single deterministic outcome (dd), equal to the solver
  and to the reference scoring;
* sampled layouts: each seat's known cards always there, the unseen cards uniform (chi-square);
* common random numbers: one layout per sample shared by every contract of a bid table;
* a stronger trump never lowers P(made) on the same layouts;
* the Wilson interval covers a synthetic Bernoulli about 95% of the time;
* the dd fast path (one minimax solve) agrees with the solver and the reference scores; in AT it
  is taken only when nobody holds a K-Q pair, where card-by-card dd play reaches the solver value;
* runs in blocks of layouts give the same rows as one block, and show a progress bar on stderr;
* bad hands, contracts, sample counts, players → clear errors; the CLI prints the table.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.game.cards import iter_cards, parse_cards, popcount
from belot_sim.cli import main as cli_main
from helpers import CallCounter, without_compile_lines

HAND5 = "JH 9H AH KS 7C"
FULL = (1 << 32) - 1


def _hands(frame, i) -> list[int]:
    return [int(frame[f"hand{s}"].iloc[i]) for s in range(4)]


def _reference_result(hands, contract, declarer, dealer, rules, seed=0):
    """Any legal play of the deal in the reference (declarations/belots of suit contracts do not
    depend on the play)."""
    state = ref.DealState.from_hands(hands, contract=contract, declarer=declarer, dealer=dealer, rules=rules)
    rng = random.Random(seed)
    while not state.is_over:
        state.play(rng.choice(state.legal_actions()))
    return state.result()


def test_every_card_known_gives_the_deterministic_outcome():
    hands = ["JH 9H AH TH KH 7C 8C 9C", "7H 8H QH JC QC KC AC TC", "7S 8S 9S TS JS QS KS AS",
             "7D 8D 9D TD JD QD KD AD"]
    masks = [parse_cards(h) for h in hands]
    for contract in ("H", "NT", "AT"):
        est = bs.estimate_bid(hands[0], contract, known={1: hands[1], 2: hands[2], 3: hands[3]}, dealer=3,
                              samples=5, players="dd")  # every hand known: dd plays the solver's value
        frame = est.frame
        assert est.p_made in (0.0, 1.0)
        assert (frame.drop(columns="sample").nunique() == 1).all(), contract
        assert _hands(frame, 0) == masks
        row = frame.iloc[0]
        if contract != "AT":
            value = bs.solve(masks, contract, leader=0, team=0)
            assert row.trick_points0 + (90 if row.valat == 0 else 0) == value
        assert row.trick_points0 + row.trick_points1 == {"H": 162, "NT": 260, "AT": 258}[contract]


def test_known_cards_stay_and_unseen_cards_are_uniform():
    known = {2: "TS", 3: "7D 8D"}
    samples = 3000
    est = bs.estimate_bid(HAND5, "S", seat=1, known=known, samples=samples, players="random", seed=3)
    frame = est.frame
    hand = parse_cards(HAND5)
    fixed = [0, hand, parse_cards("TS"), parse_cards("7D 8D")]
    counts = np.zeros((32, 4))
    for s in range(4):
        column = frame[f"hand{s}"].to_numpy(np.int64)
        assert (column & fixed[s] == fixed[s]).all()  # known cards always in their seat
        assert all(popcount(int(x)) == 8 for x in column[:50])
        for c in range(32):
            counts[c, s] = ((column >> c) & 1).sum()
    unseen = [c for c in range(32) if not (fixed[0] | fixed[1] | fixed[2] | fixed[3]) >> c & 1]
    need = np.array([8 - popcount(f) for f in fixed], dtype=float)
    expected = samples * need / need.sum()
    chi2 = float(((counts[unseen] - expected) ** 2 / expected).sum())
    # 24 unseen cards x 4 seats, 24 x 3 = 72 degrees of freedom: P(chi2 > 125) < 1e-4.
    assert chi2 < 125, chi2


def test_bid_table_rows_share_the_layouts():
    result = bs.bid_table(HAND5, samples=300, players="hard", seed=4)
    table = result.table
    assert list(table.index) == ["C", "D", "H", "S", "NT", "AT"]
    assert table["recommended"].sum() <= 1
    eligible = table[table["p_made"] >= 0.5]
    assert result.recommended == (eligible["ev"].idxmax() if len(eligible) else "pass")
    assert (table["p_made_low"] <= table["p_made"]).all() and (table["p_made"] <= table["p_made_high"]).all()
    # The same layouts under every contract: estimate_bid of one contract sees the hands of the table.
    single = bs.estimate_bid(HAND5, "H", samples=300, players="hard", seed=4)
    assert single.p_made == table.loc["H", "p_made"]
    other = bs.estimate_bid(HAND5, "AT", samples=300, players="hard", seed=4)
    assert np.array_equal(single.frame[["hand0", "hand1", "hand2", "hand3", "dealer"]].to_numpy(),
                          other.frame[["hand0", "hand1", "hand2", "hand3", "dealer"]].to_numpy())
    # doubled values: the whole deal to the winner, twice / four times
    assert table.loc["H", "ev_redoubled"] == pytest.approx(2 * table.loc["H", "ev_doubled"])


@pytest.mark.parametrize("players, samples", [("hard", 2000), ("dd", 150)])
def test_a_stronger_trump_does_not_lower_p_made(players, samples):
    weak = bs.estimate_bid("8H 9H AH TH 7C", "H", samples=samples, players=players, seed=5)
    strong = bs.estimate_bid("JH 9H AH TH 7C", "H", samples=samples, players=players, seed=5)
    assert strong.p_made >= weak.p_made
    assert strong.mean_raw_bidding > weak.mean_raw_bidding


def test_wilson_interval_covers_a_bernoulli():
    rng = np.random.default_rng(7)
    for p, n in ((0.3, 100), (0.9, 50), (0.02, 400)):
        draws = rng.binomial(n, p, size=4000)
        covered = np.mean([lo <= p <= hi for lo, hi in (bs.wilson_interval(int(k), n) for k in draws)])
        assert 0.925 <= covered <= 0.975, (p, n, covered)
    assert bs.wilson_interval(0, 20)[0] == 0.0 and bs.wilson_interval(20, 20)[1] == 1.0


def test_wilson_intervals_hold_their_estimate_exactly():
    from belot_sim.estimates.atlas import wilson_arrays

    for n in range(1, 301):
        k = np.arange(n + 1)
        lows, highs = wilson_arrays(k, n)
        for successes in range(n + 1):
            low, high = bs.wilson_interval(successes, n)
            assert 0.0 <= low <= successes / n <= high <= 1.0, (successes, n, low, high)
            assert (low, high) == (lows[successes], highs[successes])
        assert bs.wilson_interval(0, n)[0] == 0.0 and bs.wilson_interval(n, n)[1] == 1.0
    assert bs.wilson_interval(0, 3)[0] == 0.0 and bs.wilson_interval(10, 10)[1] == 1.0


def test_the_readme_promise_on_intervals_holds_for_three_layouts():
    est = bs.estimate_bid("KC JS 7S JD 7D", "NT", seat=2, samples=3, players="dd", seed=7)
    assert 0 <= est.p_made_ci[0] <= est.p_made <= est.p_made_ci[1] <= 1


def test_a_single_contract_of_a_bid_table_may_be_a_numpy_code():
    one = bs.bid_table("JH 9H AH KS 7C", contracts=np.int64(2), samples=50, players="hard", seed=1).table
    assert list(one.index) == ["H"]
    assert one.equals(bs.bid_table("JH 9H AH KS 7C", contracts="H", samples=50, players="hard", seed=1).table)
    with pytest.raises(TypeError, match="contracts must be a contract or a list"):
        bs.bid_table("JH 9H AH KS 7C", contracts=2.0, samples=50, players="hard")


def test_dd_fast_path_matches_the_solver_and_the_reference():
    for rules, contract in ((bs.BULGARIAN, "S"), (bs.BULGARIAN, "NT"), (bs.CLASSIC.replace(declarations=True), "D")):
        est = bs.estimate_bid("JS 9S AD KS QS 7C 8C 9C", contract, seat=2, dealer=1, samples=12, rules=rules,
                              seed=2, players="dd")
        for i in range(len(est.frame)):
            row = est.frame.iloc[i]
            hands = _hands(est.frame, i)
            team = 0  # seat 2
            value = bs.solve(hands, contract, leader=2, team=team, rules=rules)
            assert row[f"trick_points{team}"] + (90 if row.valat == team else 0) == value
            expected = _reference_result(hands, contract, 2, 1, rules).as_row()
            for column in ("declared0", "declared1", "belot0", "belot1"):
                assert row[column] == expected[column], column
            bidding, defenders = row.raw0, row.raw1
            if rules.is_classic:
                continue  # classic scoring needs the belots/declarations split; covered by test_scoring
            score = bs.score_deal(contract, int(bidding), int(defenders))
            assert (row.outcome, row.score0, row.score1, row.hanging) == \
                (score.outcome, score.bidding, score.defenders, score.hanging)


def _holds_at_belot(hands) -> bool:
    return any(h >> (8 * s + 5) & 1 and h >> (8 * s + 6) & 1 for h in hands for s in range(4))


def test_at_without_belots_is_one_minimax_solve():
    # The premise of the AT fast path: with no K-Q pair anywhere, dd seats playing card by card
    # (each maximising its own team's points) end at the minimax value.
    deals = bs.simulate(60, contract="AT", players="dd", seed=11, threads=1)
    checked = 0
    for i in range(len(deals)):
        row = deals.iloc[i]
        hands = [int(row[f"hand{s}"]) for s in range(4)]
        if _holds_at_belot(hands):
            continue
        team = int(row.declarer) & 1
        value = bs.solve(hands, "AT", leader=(int(row.dealer) + 1) & 3, team=team)
        assert row[f"trick_points{team}"] + (90 if row.valat == team else 0) == value, i
        checked += 1
    assert checked >= 10
    # The estimate takes that path for such layouts, card-by-card play for the others.
    est = bs.estimate_bid(HAND5, "AT", samples=40, seed=5, dealer=3, players="dd")
    fast = 0
    for i in range(len(est.frame)):
        row = est.frame.iloc[i]
        hands = _hands(est.frame, i)
        if _holds_at_belot(hands):
            continue
        value = bs.solve(hands, "AT", leader=0, team=0)
        assert row.trick_points0 + (90 if row.valat == 0 else 0) == value, i
        assert row.belot0 == row.belot1 == 0
        fast += 1
    assert 5 <= fast < 40


def test_classic_turned_card_goes_to_the_taker():
    est = bs.estimate_bid("JH 9H AS KS 7C", "H", known={0: "TH"}, rules="classic", samples=200, players="hard")
    hands = est.frame["hand0"].to_numpy(np.int64)
    assert ((hands >> bs.parse_card("TH")) & 1).all()


def test_a_turned_card_given_as_turned_is_shown_to_the_sampling_players(monkeypatch):
    """``turned=`` (not ``known=``) tells the rollout which of the taker's cards lay face up: the
    kernel shows it to the sampling players (the play loop's ``show_turned``); ``known=`` cards and
    bulgarian estimates have none."""
    from belot_sim.kernels.batch import estimate as kernels

    seen = []
    real = kernels.estimate_rollout

    def spy(*args):
        seen.append(args[8])  # turned_card
        return real(*args)

    monkeypatch.setattr(kernels, "estimate_rollout", spy)
    hand = "JH 9H AS KS 7C"
    with_turned = bs.estimate_bid(hand, "H", turned="TH", rules="classic", samples=50, players="hard")
    known = bs.estimate_bid(hand, "H", known={0: "TH"}, rules="classic", samples=50, players="hard")
    bs.bid_table(hand, turned="TH", rules="classic", samples=20, players="hard")
    bs.estimate_bid(hand, "H", samples=20, players="hard")
    assert seen == [bs.parse_card("TH"), -1, bs.parse_card("TH"), -1]
    assert with_turned.frame.equals(known.frame)  # the same layouts: hard does not sample


BAD = [
    (dict(hand="JH 9H AH KS"), "5 cards"),
    (dict(hand="JH 9H AH KS 7C 8C"), "5 cards"),
    (dict(hand="JH JH AH KS 7C"), "duplicate"),
    (dict(hand="JH 9H AH KS ZZ"), "ZZ"),
    (dict(contract="X"), "contract"),
    (dict(contract="AT", rules="classic"), "AT"),
    (dict(samples=0), "samples"),
    (dict(samples=2.5), "samples"),
    (dict(seat=4), "seat"),
    (dict(dealer=-1), "dealer"),
    (dict(players="genius"), "genius"),
    (dict(multiplier=3), "multiplier"),
    (dict(known={1: "JH"}), "already placed"),
    (dict(known=["TS"]), "known must map"),
    (dict(known={1: "7S 8S 9S TS JS QS KS AS 7D"}), "known cards"),
    (dict(known={5: "TS"}), "known seat"),
    (dict(progress="yes"), "progress"),
]


@pytest.mark.parametrize("kwargs, pattern", BAD, ids=[repr(k) for k, _ in BAD])
def test_bad_input(kwargs, pattern):
    args = dict(hand=HAND5, contract="H", samples=10, players="hard")
    args.update(kwargs)
    with pytest.raises((ValueError, TypeError), match=pattern):
        bs.estimate_bid(args.pop("hand"), args.pop("contract"), **args)


def test_bid_table_bad_min_p_made():
    with pytest.raises(ValueError, match="min_p_made"):
        bs.bid_table(HAND5, samples=10, players="hard", min_p_made=1.5)


def test_cli_bid_prints_the_table(capsys, tmp_path):
    out = tmp_path / "bid.csv"
    assert cli_main(["bid", HAND5, "--samples", "200", "--players", "hard", "--csv", str(out)]) == 0
    text = capsys.readouterr().out
    assert "recommended call:" in text and "P(made)" in text
    assert out.read_text().count("\n") == 7
    assert cli_main(["bid", "JH 9H", "--samples", "10", "--players", "hard"]) == 2
    assert "5 cards" in capsys.readouterr().err
    assert cli_main(["bid", HAND5, "--samples", "100", "--players", "hard", "--seat", "2", "--dealer", "3",
                     "--auction", "PC"]) == 0
    text = capsys.readouterr().out
    assert "after 'PC': 100 of" in text and "      C " not in text  # clubs cannot be bid again
    assert cli_main(["bid", HAND5, "--players", "hard", "--seat", "1", "--dealer", "3", "--auction", "PC"]) == 2
    assert "not the seat to call" in capsys.readouterr().err


def test_cli_bid_takes_a_classic_turned_card(capsys):
    hand, args = "9H AH 7S 8S TD", ["--rules", "classic", "--players", "hard", "--samples", "50", "--seat", "1"]
    assert cli_main(["bid", hand, *args, "--auction", "P"]) == 2
    assert "needs the turned card" in capsys.readouterr().err
    assert cli_main(["bid", hand, *args, "--auction", "P", "--turned", "JH"]) == 0
    text = capsys.readouterr().out
    expected = bs.bid_table(hand, seat=1, auction="P", turned="JH", rules="classic", players="hard", samples=50)
    assert "after 'P': 50 of" in text and f"recommended call: {expected.recommended}" in text
    assert "EV x2" not in text and "nan" not in text  # classic deals are never doubled
    assert cli_main(["bid", hand, *args, "--turned", "9H"]) == 2
    assert "is in the hand" in capsys.readouterr().err


def test_every_layout_uses_only_unseen_cards():
    est = bs.estimate_bid(HAND5, "C", seat=3, samples=100, players="random", seed=9)
    for i in range(100):
        hands = _hands(est.frame, i)
        assert hands[0] | hands[1] | hands[2] | hands[3] == FULL
        assert sum(popcount(h) for h in hands) == 32
        assert hands[3] & parse_cards(HAND5) == parse_cards(HAND5)
        assert all(popcount(h) == 8 for h in hands)
        assert not any(c in iter_cards(hands[0]) for c in iter_cards(parse_cards(HAND5)))


@pytest.mark.parametrize("players, attr, samples", [("hard", "BLOCK", 23), ("dd", "SEARCH_BLOCK", 5)])
def test_blocks_of_layouts_give_the_same_rows(monkeypatch, capsys, players, attr, samples):
    from belot_sim.estimates import bid as estimate

    hand = HAND5 if players == "hard" else "JH 9H AH KS 7C TC AC 8D"
    args = dict(samples=samples, players=players, seed=4, contracts=["C", "AT"] if players == "dd" else None)
    whole = bs.bid_table(hand, **args)
    whole_est = bs.estimate_bid(hand, "C", samples=samples, players=players, seed=4)
    assert without_compile_lines(capsys.readouterr().err) == ""  # no progress unless asked
    from belot_sim.kernels.batch import estimate as kernels

    calls = CallCounter(monkeypatch, kernels, "estimate_rollout")
    monkeypatch.setattr(estimate, attr, 2)  # blocks of at most 2 layouts: ceil(samples / 2) kernel calls
    blocks = bs.bid_table(hand, progress=True, **args)
    err = capsys.readouterr().err
    assert f"{samples}/{samples}" in err and "layouts/s" in err and calls.count == (samples + 1) // 2
    blocks_est = bs.estimate_bid(hand, "C", samples=samples, players=players, seed=4, progress=True)
    assert whole.table.equals(blocks.table)
    assert whole_est.frame.equals(blocks_est.frame)


BID_HANDS = ["JH 9H AH KS 7C", "JS 9S AS KD 7C"]


def _same_rows(frame, hand: str, table) -> None:
    """The rows of ``hand`` in a ``bid_tables`` frame equal its own ``bid_table``."""
    import pandas as pd

    part = frame[frame["hand"] == table.hand].set_index("contract")
    pd.testing.assert_frame_equal(part[list(table.table.columns)], table.table, check_names=False,
                                  check_index_type=False, check_categorical=False)


def test_bid_tables_after_an_auction_are_each_hands_bid_table():
    kwargs = dict(samples=40, players="hard", seat=2, dealer=3, auction="PC", seed=3)
    frame = bs.bid_tables(BID_HANDS, **kwargs)
    for hand in BID_HANDS:
        table = bs.bid_table(hand, **kwargs)
        _same_rows(frame, hand, table)
        rows = frame[frame["hand"] == table.hand]
        assert (rows["tried"] == table.tried).all() and (rows["acceptance"] == table.acceptance).all()
    assert "C" not in set(frame["contract"])  # clubs was called: only the bids above it are rows


def test_bid_tables_without_an_auction_have_no_auction_columns():
    frame = bs.bid_tables(BID_HANDS, samples=30, players="hard", seed=4)
    assert "tried" not in frame.columns and len(frame) == 2 * 6
    for hand in BID_HANDS:
        _same_rows(frame, hand, bs.bid_table(hand, samples=30, players="hard", seed=4))


@pytest.mark.parametrize("kwargs, pattern", [
    (dict(auction="PC", seat=2, dealer=3, known={0: "AD"}), r"hands\[0\] .*known= cannot be combined"),
    (dict(auction="PC", seat=1, dealer=3), r"hands\[0\] .*seat 1 is not the seat to call"),
    (dict(auction="PC", seat=2, dealer=3, fancy=1), "unknown argument"),
])
def test_bid_tables_after_an_auction_bad_input(kwargs, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        bs.bid_tables(BID_HANDS, samples=20, players="hard", **kwargs)


def test_bid_tables_names_the_bad_hand_before_playing(monkeypatch):
    from belot_sim.estimates import conditional

    def fail(*args, **kwargs):
        raise AssertionError("layouts were screened before every hand was checked")

    monkeypatch.setattr(conditional, "screen", fail)
    with pytest.raises(ValueError, match=r"hands\[1\] .*5 cards"):
        bs.bid_tables([BID_HANDS[0], "JS 9S AS KD 7C 8C"], samples=20, players="hard", seat=2, dealer=3, auction="PC")
