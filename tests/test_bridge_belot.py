"""The "bridge-belot-2001" preset: one declaration contest and a trailing point (docs/rules.md §6,
§7, §10), as worked examples, in the reference engine, in the kernels and in every API."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import assert_same_frames, mask

import belot_sim as bs
from belot_sim import reference as ref

PRESET = bs.BRIDGE_BELOT_2001
SINGLE = bs.BULGARIAN.replace(declaration_contest="single")
TRAILING = bs.BULGARIAN.replace(trailing_point=True)


def resolve(hands, rules, contract="H"):
    per_seat = [ref.find_declarations(mask(h)) for h in hands]
    return ref.resolve_declarations(per_seat, contract, rules)


# --- the options and the preset --------------------------------------------------------------

def test_the_preset_is_bulgarian_with_both_options():
    assert bs.Rules.preset("bridge-belot-2001") == PRESET == bs.Rules.preset("Bridge-Belot-2001")
    assert PRESET.family == "bulgarian" and PRESET.declaration_contest == "single" and PRESET.trailing_point
    assert PRESET.replace(declaration_contest="by_category", trailing_point=False) == bs.BULGARIAN
    assert PRESET.name == "bridge-belot-2001" and PRESET.replace(undertrump="required").name == "bulgarian (custom)"
    assert bs.BULGARIAN.declaration_contest == "by_category" and not bs.BULGARIAN.trailing_point


@pytest.mark.parametrize("changes, pattern", [
    ({"declaration_contest": "one"}, "unknown declaration_contest 'one'"),
    ({"trailing_point": 1}, "trailing_point must be True or False"),
])
def test_bad_option_values_are_refused(changes, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        bs.BULGARIAN.replace(**changes)


@pytest.mark.parametrize("changes", [{"declaration_contest": "single"}, {"trailing_point": True}])
def test_classic_refuses_the_bulgarian_options(changes):
    with pytest.raises(ValueError, match="applies to the bulgarian family"):
        bs.CLASSIC.replace(**changes)


# --- worked examples (docs/rules.md §6, §7) -------------------------------------------------------

@pytest.mark.parametrize("hands, by_category, single", [
    # four Queens (100) against a quarte + a tierce (50 + 20)
    (["QC QD QH QS", "7C 8C 9C TC 7D 8D 9D", "", ""], (100, 70), (100, 0)),
    # a quint against a carré of Kings: equal points, a carré beats a quint
    (["7S 8S 9S TS JS", "KC KD KH KS", "", ""], (100, 100), (0, 100)),
    # a 6-card run to the K against a 5-card run to the A: length does not count among quints
    (["8S 9S TS JS QS KS", "TH JH QH KH AH", "", ""], (100, 0), (0, 100)),
    # the team with the better best declaration scores all of them, carrés and sequences
    (["JC JD JH JS 7D 8D 9D", "QS KS AS 7H 8H 9H TH", "", ""], (200, 70), (220, 0)),
    # equal best declarations: nobody scores
    (["7C 8C 9C", "7D 8D 9D", "", ""], (0, 0), (0, 0)),
    # carrés of 100 compare A > 10 > K > Q
    (["AC AD AH AS", "TC TD TH TS", "", ""], (100, 0), (100, 0)),
    (["QC QD QH QS", "KC KD KH KS", "", ""], (0, 100), (0, 100)),
])
def test_declaration_contest_examples(hands, by_category, single):
    assert resolve(hands, bs.BULGARIAN) == by_category
    assert resolve(hands, SINGLE) == single
    assert resolve(hands, PRESET) == single


@pytest.mark.parametrize("contract, bidding, defenders, today, trailing", [
    ("H", 160, 2, (16, 0), (15, 1)),
    ("AT", 255, 3, (26, 0), (25, 1)),
    ("NT", 256, 4, (26, 0), (25, 1)),
    ("H", 106, 56, (10, 6), (10, 6)),  # the trailing side has points: nothing changes
    ("H", 162, 0, (16, 0), (16, 0)),  # it took nothing: nothing to round up
])
def test_trailing_point_examples(contract, bidding, defenders, today, trailing):
    for rules, expected in ((bs.BULGARIAN, today), (TRAILING, trailing), (PRESET, trailing)):
        score = bs.score_deal(contract, bidding, defenders, rules=rules)
        assert (score.outcome, score.bidding, score.defenders) == ("made", *expected), rules.name


@pytest.mark.parametrize("contract, bidding, defenders, multiplier", [
    ("H", 2, 160, 1), ("H", 81, 81, 1), ("H", 160, 2, 2), ("AT", 255, 3, 4), ("H", 81, 81, 2),
])
def test_inside_hanging_and_doubled_deals_are_unchanged(contract, bidding, defenders, multiplier):
    assert bs.score_deal(contract, bidding, defenders, multiplier, PRESET) == \
        bs.score_deal(contract, bidding, defenders, multiplier, bs.BULGARIAN)


# --- the engines agree -----------------------------------------------------------------------------

def test_random_deals_under_the_preset_only_change_declarations_and_scores():
    """Same seed, both rule sets: the cards and the play are the same; declared points and match
    points change only where the reference says they should (replayed deal by deal)."""
    columns = ["deal_id", "dealer", "contract", "declarer", "hand0", "hand1", "hand2", "hand3", "trick_points0",
               "trick_points1", "belot0", "belot1", "valat"]
    plain = bs.simulate(20_000, seed=4)
    preset = bs.simulate(20_000, seed=4, rules=PRESET)
    pd.testing.assert_frame_equal(plain[columns], preset[columns])
    changed = (plain[["declared0", "declared1", "score0", "score1"]] != preset[["declared0", "declared1", "score0",
                                                                              "score1"]]).any(axis=1)
    assert changed.sum() > 100
    for row in preset[changed].head(300).to_dict("records"):
        hands = [row[f"hand{s}"] for s in range(4)]
        contract = bs.Contract.from_str(str(row["contract"]))
        declared = (0, 0) if contract == bs.Contract.NO_TRUMPS else \
            ref.resolve_declarations([ref.find_declarations(h) for h in hands], contract, PRESET)
        assert (row["declared0"], row["declared1"]) == declared
        b = row["declarer"] % 2
        score = bs.score_deal(contract, int(row[f"raw{b}"]), int(row[f"raw{1 - b}"]), int(row["multiplier"]), PRESET)
        assert (row[f"score{b}"], row[f"score{1 - b}"]) == (score.bidding, score.defenders)


@pytest.mark.parametrize("players, bidders", [("random", None), ("hard", "heuristic"), ("pimc", None)])
def test_every_api_takes_the_preset_by_name(players, bidders):
    kwargs = dict(players=players, seed=3, worlds=3) if players == "pimc" else dict(players=players, seed=3)
    n = 4 if players == "pimc" else 300
    by_name = bs.simulate(n, rules="bridge-belot-2001", bidders=bidders, **kwargs)
    assert_same_frames(by_name, bs.simulate(n, rules=PRESET, bidders=bidders, **kwargs))


def test_matches_estimates_and_tournaments_take_the_preset():
    matches, deals = bs.simulate_matches(50, rules="bridge-belot-2001", seed=2)
    assert len(matches) == 50 and (matches["winner"] >= 0).all()
    table = bs.bid_table("JH 9H AH KS 7C", samples=200, players="hard", rules="bridge-belot-2001", seed=1).table
    assert set(table.index) == {"C", "D", "H", "S", "NT", "AT"}
    estimate = bs.estimate_bid("JH 9H AH KS 7C", "H", samples=50, rules="bridge-belot-2001", seed=1)
    assert 0 <= estimate.p_made <= 1
    assert bs.tournament("hard", "easy", 200, rules="bridge-belot-2001", seed=1).table.loc["all", "deals"] == 200


def test_the_trailing_point_appears_in_simulated_deals():
    deals = bs.simulate(50_000, seed=8, rules=TRAILING, contract="H")
    plain = bs.simulate(50_000, seed=8, contract="H")
    moved = deals["score0"] != plain["score0"]
    assert moved.any()
    made = plain[moved]
    assert (made["outcome"] == "made").all() and (made["multiplier"] == 1).all()
    low = np.minimum(made["raw0"], made["raw1"])
    assert ((low > 0) & (low < 6)).all()  # the trailing side took a few points and rounded to 0
