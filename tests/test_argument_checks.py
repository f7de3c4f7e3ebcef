"""Wrong arguments a careless user gives: each is refused before any work with an error naming the
problem (found by a review of the public functions, 2026-12-02)."""

from __future__ import annotations

import numpy as np
import pytest

import belot_sim as bs
import belot_sim.reference as ref
from belot_sim.engine import checks
from belot_sim.simulation import deals as simulation
from belot_sim.game.cards import to_mask

HAND = "JH 9H AH KS 7C"
POSITION = "belot deal; dealer 2; contract H; declarer 0; hands T.AQT9.T7.J AK98...AQT8 .K.AKQJ9.K9 QJ7.J87.8.7"


@pytest.mark.parametrize("kwargs, pattern", [
    (dict(multiplier=2), "undoubled"),
    (dict(multiplier=3), "multiplier must be"),
    (dict(samples="x"), "samples"),
    (dict(seed="x"), "seed"),
    (dict(worlds=0), "worlds"),
    (dict(threads=0), "threads"),
    (dict(progress="x"), "progress"),
    (dict(bidders="foo"), "foo"),
    (dict(max_tries=10), "max_tries"),
    (dict(samples=500), 'samples=500 needs method="sample"'),
    (dict(samples=1000), 'samples=1000 needs method="sample"'),
])
def test_the_atlas_estimate_refuses_what_it_cannot_honour(kwargs, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        bs.estimate_bid(HAND, "H", method="atlas", **kwargs)
    assert bs.estimate_bid(HAND, "H", method="atlas", multiplier=1).method == "atlas"


@pytest.mark.parametrize("kwargs, pattern", [
    (dict(bidders="foo"), "unknown bidder 'foo'"),
    (dict(bidders=5), "bidders must be one name or four names"),
    (dict(bidder_options={"foo": 1}), "unknown bidder option 'foo'"),
    (dict(max_tries=100), "max_tries= limits the screen"),
    (dict(min_samples=5), "min_samples= limits the screen"),
    (dict(bidders="mc"), "mc cannot be the bidder model"),
    (dict(bidder_options={"thr_at": 15}), "give them with auction="),
    (dict(turned="KD"), "bulgarian deals have none"),
])
def test_estimates_without_an_auction_check_the_model_arguments(kwargs, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        bs.estimate_bid(HAND, "H", samples=10, players="hard", **kwargs)
    with pytest.raises((ValueError, TypeError), match=pattern):
        bs.bid_table(HAND, samples=10, players="hard", **kwargs)


def test_match_targets_are_bounded_and_numpy_values_are_plain_ones():
    for target, error in ((10**30, ValueError), (2**63, ValueError), (0, ValueError), (1.5, TypeError),
                          (True, TypeError), ("151", TypeError)):
        with pytest.raises(error, match="match_target must be an integer from 1 to 1,000,000"):
            bs.Rules(match_target=target)
    rules = bs.Rules(match_target=np.int64(151), declarations=np.True_)
    assert rules == bs.BULGARIAN and type(rules.match_target) is int and type(rules.declarations) is bool


def test_numpy_integers_are_accepted_as_points_seats_and_cards():
    assert bs.score_deal("H", np.int64(106), np.int32(56)) == bs.score_deal("H", 106, 56)
    hands = ["JH 9H AH TH KH QH 8H 7H", "JS 9S AS TS KS QS 8S 7S", "JD 9D AD TD KD QD 8D 7D",
             "JC 9C AC TC KC QC 8C 7C"]
    state = ref.DealState.from_hands(hands, contract="H", declarer=np.int64(1), dealer=np.int8(3))
    assert (state.declarer, type(state.declarer), type(state.dealer)) == (1, int, int)
    card = np.int64(state.legal_actions()[0])
    state.play(card)
    assert state.plays == [(0, int(card))] and type(state.plays[0][1]) is int
    with pytest.raises(bs.IllegalActionError, match="cannot play"):
        state.play(np.int64(card))
    with pytest.raises(ValueError, match="bidding_raw"):
        bs.score_deal("H", np.float64(106), 56)


def test_a_turned_card_is_its_text_or_its_index():
    from belot_sim.estimates.conditional import check_turned

    assert check_turned("KD", bs.CLASSIC, 0) == check_turned(bs.parse_card("KD"), bs.CLASSIC, 0) == 14
    assert check_turned(np.int64(8), bs.CLASSIC, 0) == 8
    for bad in (32, -1):
        with pytest.raises(ValueError, match="index 0..31"):
            check_turned(bad, bs.CLASSIC, 0)
    with pytest.raises(ValueError, match="in the hand"):
        check_turned(14, bs.CLASSIC, bs.parse_cards("KD"))


def test_numpy_multipliers_are_accepted():
    a = bs.simulate(50, contract="H", multiplier=np.int64(2), seed=3)
    b = bs.simulate(50, contract="H", multiplier=2, seed=3)
    assert a.equals(b)
    assert bs.score_deal("H", 100, 62, np.int64(2)) == bs.score_deal("H", 100, 62, 2)


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: bs.simulate(10, players=5), ValueError, "players must be one name or four names"),
    (lambda: bs.simulate(10, bidders=5), ValueError, "bidders must be one name or four names"),
    (lambda: bs.simulate(10, players="hard,normal"), ValueError,
     r"one name per seat \(0..3\) is a list of four, e.g. \['hard', 'normal', 'hard', 'normal'\]"),
    (lambda: bs.simulate(10, bidder_options={"pass_prob": 0.5}), ValueError, "give bidders= too"),
    (lambda: bs.simulate(10, bidders="heuristic", bidder_options={"pass_prob": float("nan")}), ValueError, "finite"),
    (lambda: bs.simulate(10, bidders="mc", bidder_options={"mc_z": -1}), ValueError, "mc_z"),
    (lambda: bs.parse_cards(5), TypeError, "cards must be a text"),
    (lambda: bs.warmup(5), TypeError, "families must be"),
    (lambda: bs.wilson_interval(5, 3), ValueError, "successes must be between 0 and n=3"),
    (lambda: bs.analyze(ref.DealState.from_text(POSITION), players=None), TypeError, "players must be"),
    (lambda: ref.DealState.from_text(POSITION, seed="x"), TypeError, "seed must be an integer"),
    (lambda: ref.DealState.from_text(POSITION + "; play 7S TS AS KH || AD"), ValueError, "an empty trick"),
    (lambda: ref.DealState.from_text(POSITION + "; play | 7S"), ValueError, "an empty trick"),
    (lambda: bs.tournament("hard", "easy", 10, partition_size=0), ValueError, "partition_size"),
    (lambda: bs.simulate_matches(3, partition_size=-1), ValueError, "partition_size"),
    (lambda: bs.match_tournament((["heuristic"] * 4, ["hard"] * 4), ("random", "hard"), 3), TypeError,
     "pair of names"),
    (lambda: bs.match_tournament(("heuristic", "hard"), ("random", "hard"), 3, per_deal="x"), TypeError, "per_deal"),
    (lambda: bs.simulate_to_parquet("", 10), ValueError, "path is empty"),
])
def test_bad_arguments_name_the_problem(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: bs.solve(["AS", "", "TS", "8S"], "H", 1, trick=b"7S"), TypeError, "trick must be"),
    (lambda: bs.Rules.preset(["x"]), TypeError, "rule preset is named by text"),
    (lambda: ref.FullDealState([-1, *range(1, 32)], 0), ValueError, "pack must hold card indices 0..31, got -1"),
    (lambda: ref.FullDealState([float(c) for c in range(32)], 0), TypeError, "pack must hold card indices"),
    (lambda: ref.FullDealState([True, *range(1, 32)], 0), TypeError, "pack must hold card indices"),
    (lambda: ref.FullDealState("0 1 2", 0), TypeError, "pack must be a sequence"),
    (lambda: ref.DealState.from_text(POSITION.replace("belot deal;", "belot deal; rules bulgarian match_target=²;")),
     ValueError, "field 'rules': match_target must be an integer"),
    (lambda: bs.bid_table(HAND, contracts={"H": 1}), TypeError, "contracts must be a contract or a list"),
    (lambda: bs.parse_card("Kſ"), ValueError, "unknown card 'Kſ'.*ASCII"),
    (lambda: bs.parse_cards("JH KS Kſ"), ValueError, "unknown card 'Kſ'"),
    (lambda: bs.format_card(True), TypeError, "card index must be an integer"),
    (lambda: bs.format_card(np.bool_(False)), TypeError, "card index must be an integer"),
    (lambda: to_mask(b"\x01"), TypeError, "cards must be a mask"),
    (lambda: bs.Rules(undertrump=np.array(["free"])), TypeError, "undertrump must be text"),
    (lambda: bs.Rules(family=["classic"]), TypeError, "family must be text"),
    (lambda: bs.BULGARIAN.replace(declarations_shown=np.array(["end"])), TypeError, "declarations_shown must be"),
])
def test_errors_name_the_argument_and_refuse_lookalikes(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


def test_the_full_pack_and_plain_strings_are_still_taken():
    assert ref.FullDealState(np.arange(32, dtype=np.int8), 1).pack == list(range(32))
    assert bs.parse_card("k♠") == bs.parse_card("KS") == bs.parse_card(" ks ")
    rules = bs.Rules(undertrump=np.str_("required"))
    assert rules.undertrump == "required" and type(rules.undertrump) is str


@pytest.mark.parametrize("kwargs, pattern", [
    (dict(rules="bulgarian", belot=(-20, 0)), "belot must be a pair"),
    (dict(rules="bulgarian", capot="all"), "capot must be"),
    (dict(rules="classic", belot=5), "belot must be a pair"),
    (dict(rules="classic", belot=(-20, 0)), "belot must be a pair"),
    (dict(rules="classic", belot=(10, 0)), "belot points come in 20s"),
    (dict(rules="classic", declared=(1.5, 0)), "declared must be a pair"),
    (dict(rules="classic", declared=None), "declared must be a pair"),
])
def test_score_deal_checks_belots_declarations_and_capot(kwargs, pattern):
    with pytest.raises(ValueError, match=pattern):
        bs.score_deal("H", 70, 92, **kwargs)
    assert bs.score_deal("H", 70, 112, rules="classic", belot=(20, 0), declared=(0, 20)).outcome == "inside"


def test_an_eight_card_classic_hand_holds_its_turned_card():
    hand = "JH 9H AH TH KD 7C 8S 9S"
    made = bs.estimate_bid(hand, "H", rules="classic", turned="KD", samples=20, players="hard", seed=1)
    assert 0 <= made.p_made <= 1
    with pytest.raises(ValueError, match="must be one of its cards"):
        bs.estimate_bid(hand, "H", rules="classic", turned="QD", samples=20, players="hard")
    with pytest.raises(ValueError, match="is in the hand"):
        bs.estimate_bid("JH 9H AH TH KD", "H", rules="classic", turned="KD", samples=20, players="hard")


def test_a_result_bigger_than_the_machine_is_refused_before_any_work(monkeypatch):
    """A mistyped n fails at once, naming what it needs and the dataset call that writes any size, rather
    than allocating arrays that Linux lets be made and kills the process for as they fill."""
    with pytest.raises(ValueError, match=r"100,000,000,000 matches need at least .* GiB of memory, more than this "
                                         r"machine's .*simulate_matches_to_parquet"):
        bs.simulate_matches(10**11)
    monkeypatch.setattr(checks, "physical_memory", lambda: 2**30)  # a 1 GiB machine
    with pytest.raises(ValueError, match=r"30,000,000 deals need at least 1.3 GiB of memory, more than this "
                                         r"machine's 1.0 GiB: write a dataset instead, .*\(simulate_to_parquet; "
                                         r"on the command line, --out FOLDER\)"):
        bs.simulate(30_000_000)
    with pytest.raises(ValueError, match="need at least 1.2 GiB"):
        bs.simulate_matches(10_000_000)
    assert len(bs.simulate(1000, plays=True)[1]) == 32_000  # what fits still runs
    monkeypatch.setattr(checks, "physical_memory", lambda: 64 * 2**20)
    with pytest.raises(ValueError, match=r"2,000,000 deals need at least 85.8 MiB of memory, more than this "
                                         r"machine's 64.0 MiB: write a dataset"):
        bs.simulate(2_000_000)
    monkeypatch.setattr(checks, "physical_memory", lambda: None)  # a system that does not say: no check
    checks.check_fits_in_memory(10**15, 100, "rows", "")
    monkeypatch.undo()
    monkeypatch.setattr(checks.os, "sysconf", lambda name: -1)  # POSIX: indeterminate
    assert checks.physical_memory() is None


@pytest.mark.parametrize("kind", [dict(), dict(plays=True), dict(bidders="heuristic"),
                                  dict(bidders="heuristic", plays=True, calls=True)],
                         ids=["plain", "plays", "auction", "plays and calls"])
def test_the_memory_bound_counts_the_arrays_simulate_makes(kind):
    """The refusal above compares a per-deal bound with the machine: its array part is what the arrays
    really take (one table of shapes serves both)."""
    arguments = dict(rules="bulgarian", contract=None, declarer=None, players="random", bidders=None, seed=1,
                     plays=False, multiplier=1, worlds=20, calls=False, bidder_options=None) | kind
    plan = simulation.plan_deals(**arguments)
    arrays = simulation.DealArrays(plan, 1000)
    # every array the object holds, listed in the table or not
    total = sum(value.nbytes for value in vars(arrays).values() if isinstance(value, np.ndarray))
    assert total == 1000 * simulation.DealArrays.array_bytes_per_deal(plan)
    assert simulation.DealArrays.bytes_per_deal(plan) >= simulation.DealArrays.array_bytes_per_deal(plan)
