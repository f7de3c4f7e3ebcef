"""Deal scoring (docs/rules.md §7 bulgarian, §8 classic) and the rounding helpers.

Every expected value below is worked out by hand from docs/rules.md; none is produced by the
code under test.
"""

from __future__ import annotations

import pytest

import belot_sim as bs
from belot_sim.game.scoring import round_pair, round_total

# --------------------------------------------------------------------------------------
# docs/rules.md §7: the worked-example table, row by row.
# (contract, bidding raw, defenders raw, multiplier, outcome, bidding gets, defenders get, hangs)
# --------------------------------------------------------------------------------------

WORKED_EXAMPLES = [
    pytest.param("H", 106, 56, 1, "made", 10, 6, 0, id="H-106-56-made"),
    pytest.param("H", 156, 6, 1, "made", 15, 1, 0, id="H-156-6-made"),
    pytest.param("H", 56, 106, 1, "inside", 0, 16, 0, id="H-56-106-inside"),
    pytest.param("H", 81, 81, 1, "hanging", 0, 8, 8, id="H-81-81-hanging"),
    pytest.param("H", 106, 106, 1, "hanging", 0, 10, 11, id="H-106-106-hanging-50-declared"),
    pytest.param("AT", 224, 34, 1, "made", 22, 4, 0, id="AT-224-34-made"),
    pytest.param("AT", 194, 164, 1, "made", 19, 17, 0, id="AT-194-164-made-100-declared"),
    pytest.param("AT", 154, 154, 1, "hanging", 0, 15, 16, id="AT-154-154-hanging-50-declared"),
    pytest.param("AT", 134, 124, 1, "made", 13, 13, 0, id="AT-134-124-made"),
    pytest.param("NT", 134, 126, 1, "made", 13, 13, 0, id="NT-134-126-made"),
    pytest.param("NT", 120, 140, 1, "inside", 0, 26, 0, id="NT-120-140-inside"),
    pytest.param("H", 100, 62, 2, "made", 32, 0, 0, id="H-doubled-100-62-made"),
    pytest.param("H", 62, 100, 2, "inside", 0, 32, 0, id="H-doubled-62-100-inside"),
    pytest.param("H", 272, 0, 4, "made", 108, 0, 0, id="H-redoubled-valat-272-0-made"),
    pytest.param("H", 81, 81, 2, "hanging", 0, 0, 32, id="H-doubled-81-81-hanging"),
]


@pytest.mark.parametrize(
    "contract, bidding_raw, defenders_raw, multiplier, outcome, bidding, defenders, hanging", WORKED_EXAMPLES
)
def test_rules_worked_examples(contract, bidding_raw, defenders_raw, multiplier, outcome, bidding, defenders,
                               hanging):
    score = bs.score_deal(contract, bidding_raw, defenders_raw, multiplier)
    assert score == bs.DealScore(outcome, bidding, defenders, hanging)


@pytest.mark.parametrize(
    "contract, bidding_raw, defenders_raw, multiplier, outcome, bidding, defenders, hanging", WORKED_EXAMPLES
)
def test_worked_examples_with_contract_objects_and_explicit_rules(contract, bidding_raw, defenders_raw, multiplier,
                                                                   outcome, bidding, defenders, hanging):
    # The same vectors through a Contract object and an explicit bulgarian Rules object.
    score = bs.score_deal(bs.Contract.from_str(contract), bidding_raw, defenders_raw, multiplier, bs.BULGARIAN)
    assert (score.outcome, score.bidding, score.defenders, score.hanging) == (outcome, bidding, defenders, hanging)


def test_score_deal_default_multiplier_is_one():
    # 106-56 in hearts undoubled is 10-6; doubled it would be 32-0.
    assert bs.score_deal("H", 106, 56) == bs.DealScore("made", 10, 6, 0)


@pytest.mark.parametrize(
    "contract, bidding_raw, defenders_raw, expected",
    [
        # Other suits follow the same rules as hearts: 96 (tie digit, more) down, 66 (fewer) up.
        pytest.param("S", 96, 66, bs.DealScore("made", 9, 7, 0), id="S-96-66"),
        pytest.param("C", 87, 75, bs.DealScore("made", 9, 7, 0), id="C-87-75"),  # 7 up, 5 down
        pytest.param("D", 75, 87, bs.DealScore("inside", 0, 16, 0), id="D-75-87-inside"),  # 162 -> 16
        # AT: 0-3 down, 5-9 up, tie digit 4: 135 -> 14, 123 -> 12 (sum 26 = round(258)).
        pytest.param("AT", 135, 123, bs.DealScore("made", 14, 12, 0), id="AT-135-123"),
        pytest.param("AT", 123, 135, bs.DealScore("inside", 0, 26, 0), id="AT-123-135-inside"),
        # NT: half up: 136 -> 14, 124 -> 12.
        pytest.param("NT", 136, 124, bs.DealScore("made", 14, 12, 0), id="NT-136-124"),
        # NT hanging: 130/130 -> defenders 13, 13 hang.
        pytest.param("NT", 130, 130, bs.DealScore("hanging", 0, 13, 13), id="NT-130-130-hanging"),
        # Suit hanging without the tie digit: 91/91 -> 9 and 9 hang (1 rounds down).
        pytest.param("S", 91, 91, bs.DealScore("hanging", 0, 9, 9), id="S-91-91-hanging"),
    ],
)
def test_more_hand_checked_undoubled_deals(contract, bidding_raw, defenders_raw, expected):
    assert bs.score_deal(contract, bidding_raw, defenders_raw) == expected


@pytest.mark.parametrize(
    "contract, bidding_raw, defenders_raw, multiplier, expected",
    [
        # AT redoubled, 144/114: total 258 -> 26, x4 = 104 to the team with more raw points.
        pytest.param("AT", 144, 114, 4, bs.DealScore("made", 104, 0, 0), id="AT-redoubled-made"),
        # NT doubled, 120/140: total 260 -> 26, x2 = 52 to the defenders.
        pytest.param("NT", 120, 140, 2, bs.DealScore("inside", 0, 52, 0), id="NT-doubled-inside"),
        # AT doubled tie 129/129: total 258 -> 26, x2 = 52 hangs.
        pytest.param("AT", 129, 129, 2, bs.DealScore("hanging", 0, 0, 52), id="AT-doubled-hanging"),
    ],
)
def test_more_hand_checked_doubled_deals(contract, bidding_raw, defenders_raw, multiplier, expected):
    assert bs.score_deal(contract, bidding_raw, defenders_raw, multiplier) == expected


# --------------------------------------------------------------------------------------
# Rounding helpers (§7 step 3).
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "points, contract, expected",
    [
        (162, "H", 16),   # last digit 2: down
        (165, "S", 16),   # 5: down in suits
        (167, "C", 17),   # 7: up
        (169, "D", 17),   # 9: up
        (160, "H", 16),
        (258, "AT", 26),  # 8: up
        (253, "AT", 25),  # 3: down in AT
        (255, "AT", 26),  # 5: up in AT
        (260, "NT", 26),
        (125, "NT", 13),  # half up
        (124, "NT", 12),
        (0, "H", 0),
        (272, "H", 27),
    ],
)
def test_round_total(points, contract, expected):
    assert round_total(points, contract) == expected


@pytest.mark.parametrize(
    "points, other, contract, expected",
    [
        (106, 56, "H", 10),   # tie digit 6, more points: down
        (56, 106, "H", 6),    # tie digit 6, fewer points: up
        (96, 66, "H", 9),
        (66, 96, "H", 7),
        (87, 75, "H", 9),     # not the tie digit: ordinary rounding
        (75, 87, "H", 7),
        (224, 34, "AT", 22),  # tie digit 4, more: down
        (34, 224, "AT", 4),   # tie digit 4, fewer: up
        (134, 124, "AT", 13),
        (124, 134, "AT", 13),
        (135, 123, "AT", 14),
        (136, 124, "NT", 14),  # NT: half up, no tie digit
        (124, 136, "NT", 12),
    ],
)
def test_round_pair(points, other, contract, expected):
    assert round_pair(points, other, contract) == expected


@pytest.mark.parametrize(
    "a, b, contract, expected_total",
    [
        (106, 56, "H", 16),    # 162 -> 16
        (96, 66, "S", 16),
        (86, 76, "D", 16),
        (224, 34, "AT", 26),   # 258 -> 26
        (194, 164, "AT", 36),  # 358 (100 declared) -> 36
        (144, 114, "AT", 26),
        (116, 96, "H", 21),    # 212 (50 declared) -> 21
    ],
)
def test_round_pair_sums_to_the_rounded_total(a, b, contract, expected_total):
    # §7 step 3: "the two results always sum to the rounded total".  The totals here end
    # in 2 (suits) or 8 (AT), so the rounded total is unambiguous.
    assert round_pair(a, b, contract) + round_pair(b, a, contract) == expected_total


# --------------------------------------------------------------------------------------
# Classic (§8): no rounding, inside / litige / capot.
# --------------------------------------------------------------------------------------

CLASSIC_DECL = bs.CLASSIC.replace(declarations=True)


def test_classic_made_scores_raw_points():
    # Attackers 82 card points + belote 20 = 102, defenders 80: each scores its raw points.
    score = bs.score_deal("H", 102, 80, rules=bs.CLASSIC, belot=(20, 0))
    assert score == bs.DealScore("made", 102, 80, 0)


def test_classic_made_no_rounding():
    # 97 vs 65: no rounding at all in classic.
    assert bs.score_deal("S", 97, 65, rules="classic") == bs.DealScore("made", 97, 65, 0)


def test_classic_inside_defenders_get_162_plus_all_declarations_attackers_keep_belote():
    # Attackers: 50 card points + tierce 20 + belote 20 = 90.
    # Defenders: 112 card points + quarte 50 = 162.  90 < 162: inside.
    # Defenders: 162 + (20 + 50) declarations + own belote 0 = 232; attackers keep belote 20.
    score = bs.score_deal("H", 90, 162, rules=CLASSIC_DECL, belot=(20, 0), declared=(20, 50))
    assert score == bs.DealScore("inside", 20, 232, 0)


def test_classic_inside_defenders_keep_their_own_belote():
    # Attackers 70 card points; defenders 92 + belote 20 = 112: inside.
    # Defenders 162 + their belote 20 = 182; attackers 0.
    score = bs.score_deal("D", 70, 112, rules=bs.CLASSIC, belot=(0, 20))
    assert score == bs.DealScore("inside", 0, 182, 0)


def test_classic_inside_without_bonuses():
    # 60 vs 102: defenders score 162, attackers nothing.
    assert bs.score_deal("C", 60, 102, rules=bs.CLASSIC) == bs.DealScore("inside", 0, 162, 0)


def test_classic_litige_with_attackers_belote():
    # Attackers 71 card points + belote 20 = 91; defenders 91 card points.  Equal: litige.
    # Defenders score 91 now; attackers' belote 20 now; 71 held for the next deal's winner.
    score = bs.score_deal("H", 91, 91, rules=bs.CLASSIC, belot=(20, 0))
    assert score == bs.DealScore("hanging", 20, 91, 71)


def test_classic_litige_without_belote():
    # 81 vs 81: defenders 81 now, attackers 0, 81 held.
    assert bs.score_deal("S", 81, 81, rules=bs.CLASSIC) == bs.DealScore("hanging", 0, 81, 81)


def test_classic_litige_with_defenders_belote():
    # Attackers 91 card points; defenders 71 + belote 20 = 91.  Defenders score 91 (belote
    # included); attackers score 0 now and all 91 (no belote of theirs) are held.
    score = bs.score_deal("C", 91, 91, rules=bs.CLASSIC, belot=(0, 20))
    assert score == bs.DealScore("hanging", 0, 91, 91)


def test_classic_attackers_capot_scores_252():
    score = bs.score_deal("H", 252, 0, rules=bs.CLASSIC, capot="bidding")
    assert score == bs.DealScore("made", 252, 0, 0)


def test_classic_attackers_capot_with_belote():
    score = bs.score_deal("H", 272, 0, rules=bs.CLASSIC, belot=(20, 0), capot="bidding")
    assert score == bs.DealScore("made", 272, 0, 0)


def test_classic_defenders_capot_is_inside_with_252():
    score = bs.score_deal("S", 0, 252, rules=bs.CLASSIC, capot="defenders")
    assert score == bs.DealScore("inside", 0, 252, 0)


def test_classic_defenders_capot_with_declarations_and_attackers_belote():
    # Attackers hold belote (20) but take no trick; attackers declared a tierce (20),
    # defenders a quarte (50).  Attackers raw 0 + 20 + 20 = 40; defenders 252 + 50 = 302.
    # Inside: defenders 252 + all declarations (20 + 50) = 322; attackers keep belote 20.
    score = bs.score_deal("D", 40, 302, rules=CLASSIC_DECL, belot=(20, 0), declared=(20, 50), capot="defenders")
    assert score == bs.DealScore("inside", 20, 322, 0)


def test_classic_with_all_no_trumps_contracts():
    rules = bs.CLASSIC.replace(all_no_trumps=True)
    # Classic AT/NT also total 162 and are not rounded.
    assert bs.score_deal("AT", 96, 66, rules=rules) == bs.DealScore("made", 96, 66, 0)
    assert bs.score_deal("NT", 66, 96, rules=rules) == bs.DealScore("inside", 0, 162, 0)


# --------------------------------------------------------------------------------------
# Errors.
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("multiplier", [0, 3, 8, -1])
def test_bad_multiplier_is_a_value_error(multiplier):
    with pytest.raises(ValueError):
        bs.score_deal("H", 100, 62, multiplier)


@pytest.mark.parametrize("bidding_raw, defenders_raw", [(-1, 163), (100, -2), (-5, -5)])
def test_negative_raw_points_are_a_value_error(bidding_raw, defenders_raw):
    with pytest.raises(ValueError):
        bs.score_deal("H", bidding_raw, defenders_raw)


@pytest.mark.parametrize("multiplier", [2, 4])
def test_doubling_in_classic_is_a_value_error(multiplier):
    with pytest.raises(ValueError):
        bs.score_deal("H", 100, 62, multiplier, rules=bs.CLASSIC)


@pytest.mark.parametrize("contract", ["X", "hearts and spades", "", 6, -1])
def test_unknown_contract_is_a_value_error(contract):
    with pytest.raises(ValueError):
        bs.score_deal(contract, 100, 62)


def test_bad_capot_value_is_a_value_error():
    with pytest.raises(ValueError):
        bs.score_deal("H", 252, 0, rules=bs.CLASSIC, capot="attackers")
