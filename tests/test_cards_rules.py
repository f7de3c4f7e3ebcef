"""Card encoding, parsing/formatting, mask helpers, Rules presets, Contract, and the
rank/point tables — checked against docs/rules.md §1, §2, §10 and the conventions of the README."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import belot_sim as bs
from belot_sim.game import cards
from belot_sim.game import rules
from belot_sim.game.rules import STRENGTH, Contract

SUITS = "CDHS"
RANKS = "789TJQKA"  # sequence order, index 0..7
FULL = (1 << 32) - 1

# ---------------------------------------------------------------------------------------
# Card encoding (docs/rules.md §1: index = suit * 8 + rank)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("suit", range(4))
@pytest.mark.parametrize("rank", range(8))
def test_card_index_is_suit_times_8_plus_rank(suit, rank):
    text = RANKS[rank] + SUITS[suit]
    index = suit * 8 + rank
    assert bs.parse_card(text) == index
    assert bs.parse_cards(text) == 1 << index
    assert bs.format_card(index) == text
    assert cards.card_index(suit, rank) == index
    assert cards.card_suit(index) == suit
    assert cards.card_rank(index) == rank
    assert cards.card_bit(index) == 1 << index


def test_known_card_indices():
    # A few spelled out by hand so the test does not just mirror the formula.
    assert bs.parse_card("7C") == 0
    assert bs.parse_card("AC") == 7
    assert bs.parse_card("7D") == 8
    assert bs.parse_card("JH") == 20
    assert bs.parse_card("TS") == 27
    assert bs.parse_card("AS") == 31
    assert bs.parse_cards("JH 9H TS") == (1 << 20) | (1 << 18) | (1 << 27)


def test_suits_occupy_byte_lanes():
    assert cards.SUIT_MASKS == (0xFF, 0xFF00, 0xFF0000, 0xFF000000)
    assert [cards.suit_mask(s) for s in range(4)] == [0xFF, 0xFF00, 0xFF0000, 0xFF000000]
    assert cards.SUIT_MASKS_ARRAY.dtype == np.uint32
    assert cards.FULL_DECK == FULL
    assert cards.NUM_CARDS == 32
    assert bs.parse_cards("7H 8H 9H TH JH QH KH AH") == 0xFF0000


def test_consecutive_ranks_are_adjacent_bits():
    # A sequence 9-T-J of hearts is three adjacent bits.
    mask = bs.parse_cards("9H TH JH")
    low = cards.lowest_card(mask)
    assert mask == 0b111 << low


# ---------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["JH", "jh", "Jh", "jH", "J♥", "j♥", "J♡", " JH "])
def test_parse_jack_of_hearts_spellings(text):
    assert bs.parse_card(text) == 20
    assert bs.parse_cards(text) == 1 << 20


@pytest.mark.parametrize("text", ["10H", "TH", "th", "10h", "T♥", "10♥"])
def test_parse_ten_spellings(text):
    assert bs.parse_card(text) == 2 * 8 + 3


@pytest.mark.parametrize("symbol, letter", [("♣", "C"), ("♦", "D"), ("♥", "H"), ("♠", "S")])
def test_parse_suit_symbols(symbol, letter):
    for rank in RANKS:
        assert bs.parse_card(rank + symbol) == bs.parse_card(rank + letter)


@pytest.mark.parametrize(
    "text",
    ["JH 9H TS", "JH,9H,TS", "JH, 9H, TS", "jh 9h ts", "J♥ 9♥ 10♠", "  JH   9H\tTS  ", "TS,JH 9H", "10S, jh,9♥"],
)
def test_parse_cards_separators_and_case(text):
    assert bs.parse_cards(text) == (1 << 20) | (1 << 18) | (1 << 27)


def test_parse_cards_accepts_an_iterable_of_texts():
    assert bs.parse_cards(["JH", "9h", "10S"]) == bs.parse_cards("JH 9H TS")


def test_parse_full_deck():
    text = " ".join(r + s for s in SUITS for r in RANKS)
    assert bs.parse_cards(text) == FULL


def test_parse_empty_text_is_empty_mask():
    assert bs.parse_cards("") == 0
    assert bs.parse_cards(" , ") == 0


@pytest.mark.parametrize(
    "text, words",
    [
        ("XH", ["rank"]),  # unknown rank letter
        ("6H", ["rank"]),  # rank 6 does not exist in a 32-card pack
        ("6♥", ["rank"]),
        ("1H", ["rank"]),
        ("11H", ["rank"]),
        ("JX", ["suit"]),  # unknown suit letter
        ("JHH", ["rank"]),
        ("J", []),  # empty suit
        ("10", ["suit"]),  # "10" without a suit
        ("H", []),
        ("", []),
        ("hello", []),
    ],
)
def test_parse_card_errors_name_the_problem(text, words):
    with pytest.raises(ValueError) as info:
        bs.parse_card(text)
    message = str(info.value).lower()
    assert "card" in message
    assert repr(text).lower() in message or text.strip().lower() in message  # names the bad text
    for word in words:
        assert word in message


@pytest.mark.parametrize("text", ["JH 6H", "JH, XS", "JH J", "7C 8C 9Q", "JH 10"])
def test_parse_cards_errors(text):
    with pytest.raises(ValueError, match=r"(?i)card"):
        bs.parse_cards(text)


@pytest.mark.parametrize("text", ["JH JH", "JH, jh", "JH 9H J♥", "TS 10S", "10s ts"])
def test_parse_cards_duplicate_is_an_error(text):
    with pytest.raises(ValueError, match=r"(?i)duplicate") as info:
        bs.parse_cards(text)
    # the message names the duplicated card
    assert any(name in str(info.value) for name in ("JH", "TS"))


def test_parse_card_rejects_non_text():
    with pytest.raises(TypeError):
        bs.parse_card(20)


# ---------------------------------------------------------------------------------------
# Formatting
# ---------------------------------------------------------------------------------------


def test_format_cards_docstring_example():
    assert bs.format_cards(bs.parse_cards("JH 9H TS")) == "TS 9H JH"
    assert bs.format_cards(bs.parse_cards("JH, 9h 10S")) == "TS 9H JH"


def test_format_cards_order_spades_down_to_clubs_ranks_upwards():
    mask = bs.parse_cards("AC 7C JD 7S AS 9H 8H KD")
    assert bs.format_cards(mask) == "7S AS 8H 9H JD KD 7C AC"


def test_format_full_and_empty():
    expected = " ".join(r + s for s in "SHDC" for r in RANKS)
    assert bs.format_cards(FULL) == expected
    assert bs.format_cards(0) == ""


def test_format_accepts_numpy_uint32():
    assert bs.format_cards(np.uint32(bs.parse_cards("AS KS"))) == "KS AS"


@pytest.mark.parametrize("bad", [-1, 1 << 32, 1 << 40])
def test_format_cards_rejects_out_of_range_masks(bad):
    with pytest.raises(ValueError):
        bs.format_cards(bad)


@pytest.mark.parametrize("bad", ["JH", 1.5, None, True])
def test_format_cards_rejects_non_masks(bad):
    with pytest.raises(TypeError):
        bs.format_cards(bad)


@pytest.mark.parametrize("bad", [-1, 32, 100])
def test_format_card_rejects_bad_index(bad):
    with pytest.raises(ValueError):
        bs.format_card(bad)


def _expected_format(mask: int) -> str:
    """format_cards order written independently: S H D C, ranks 7..A within a suit."""
    out = []
    for suit in (3, 2, 1, 0):
        for rank in range(8):
            if mask >> (suit * 8 + rank) & 1:
                out.append(RANKS[rank] + SUITS[suit])
    return " ".join(out)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=FULL))
def test_format_parse_round_trip(mask):
    text = bs.format_cards(mask)
    assert text == _expected_format(mask)
    assert bs.parse_cards(text) == mask
    assert bs.parse_cards(text.lower()) == mask
    assert bs.parse_cards(text.replace(" ", ",")) == mask
    assert len(text.split()) == bin(mask).count("1")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 31), unique=True, max_size=32), st.randoms(use_true_random=False))
def test_parse_any_order_and_spelling(indices, rnd):
    spellings = []
    for idx in indices:
        rank, suit = RANKS[idx & 7], SUITS[idx >> 3]
        if rank == "T" and rnd.random() < 0.5:
            rank = "10"
        if rnd.random() < 0.5:
            suit = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[suit]
        text = rank + suit
        spellings.append(text.lower() if rnd.random() < 0.5 else text)
    sep = rnd.choice([" ", ",", ", ", " , "])
    expected = sum(1 << i for i in indices)
    assert bs.parse_cards(sep.join(spellings)) == expected


# ---------------------------------------------------------------------------------------
# Mask helpers
# ---------------------------------------------------------------------------------------


def test_mask_helpers_examples():
    mask = bs.parse_cards("9C JH AS")
    assert cards.popcount(mask) == 3
    assert cards.lowest_card(mask) == 2
    assert list(cards.iter_cards(mask)) == [2, 20, 31]
    assert cards.cards_of(mask) == [2, 20, 31]
    assert cards.mask_of([31, 2, 20]) == mask
    assert cards.popcount(0) == 0
    assert cards.cards_of(0) == []
    assert cards.mask_of([]) == 0
    assert cards.popcount(FULL) == 32
    assert cards.lowest_card(1 << 31) == 31


def test_lowest_card_of_empty_mask_is_an_error():
    with pytest.raises(ValueError):
        cards.lowest_card(0)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=FULL))
def test_mask_helpers_properties(mask):
    indices = cards.cards_of(mask)
    assert indices == [i for i in range(32) if mask >> i & 1]
    assert cards.popcount(mask) == len(indices)
    assert cards.mask_of(indices) == mask
    if mask:
        assert cards.lowest_card(mask) == indices[0]
    # the suit masks split any mask into its four suits
    assert sum(mask & cards.suit_mask(s) for s in range(4)) == mask


def test_to_mask_accepts_masks_text_and_iterables():
    mask = bs.parse_cards("JH 9H TS")
    assert cards.to_mask(mask) == mask
    assert cards.to_mask("JH 9H TS") == mask
    assert cards.to_mask([20, 18, 27]) == mask
    assert cards.to_mask(["JH", "9H", "TS"]) == mask
    assert cards.to_mask(np.uint32(mask)) == mask
    with pytest.raises(ValueError, match="(?i)duplicate"):
        cards.to_mask([20, 20])
    with pytest.raises(ValueError):
        cards.to_mask([32])
    with pytest.raises(ValueError):
        cards.to_mask(1 << 32)
    with pytest.raises(TypeError):
        cards.to_mask(1.5)


# ---------------------------------------------------------------------------------------
# Rules presets and options (docs/rules.md §10)
# ---------------------------------------------------------------------------------------


def test_bulgarian_preset_defaults():
    r = bs.BULGARIAN
    assert r.family == "bulgarian"
    assert r.undertrump == "free"
    assert r.at_overtake_partner is True
    assert r.declarations is True
    assert r.all_no_trumps is True
    assert r.match_target == 151
    assert not r.is_classic
    assert set(r.contracts) == set(Contract)


def test_classic_preset_defaults():
    r = bs.CLASSIC
    assert r.family == "classic"
    assert r.undertrump == "free"
    assert r.at_overtake_partner is True
    assert r.declarations is False
    assert r.all_no_trumps is False
    assert r.match_target == 1000
    assert r.is_classic
    assert set(r.contracts) == {Contract.CLUBS, Contract.DIAMONDS, Contract.HEARTS, Contract.SPADES}


def test_presets_by_name():
    assert bs.Rules.preset("classic") == bs.CLASSIC
    assert bs.Rules.preset("bulgarian") == bs.BULGARIAN
    assert bs.Rules.preset("Classic") == bs.CLASSIC
    assert bs.Rules() == bs.BULGARIAN  # bulgarian is the default everywhere
    assert bs.Rules.coerce("classic") == bs.CLASSIC
    assert bs.Rules.coerce(bs.BULGARIAN) is bs.BULGARIAN
    with pytest.raises(ValueError, match="(?i)preset"):
        bs.Rules.preset("french")
    with pytest.raises(TypeError):
        bs.Rules.coerce(3)


def test_replace_returns_modified_copy():
    r = bs.BULGARIAN.replace(undertrump="required")
    assert r.undertrump == "required"
    assert bs.BULGARIAN.undertrump == "free"  # presets are not changed
    assert dataclasses.replace(r, undertrump="free") == bs.BULGARIAN
    c = bs.CLASSIC.replace(all_no_trumps=True, at_overtake_partner=False)
    assert c.all_no_trumps and not c.at_overtake_partner and c.family == "classic"
    assert set(c.contracts) == set(Contract)
    assert bs.CLASSIC.replace(match_target=501).match_target == 501


def test_rules_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        bs.BULGARIAN.undertrump = "required"


@pytest.mark.parametrize("name", ["undertrumps", "overtake", "target", "family_name"])
def test_replace_unknown_option_is_type_error(name):
    with pytest.raises(TypeError, match=name):
        bs.BULGARIAN.replace(**{name: 1})


@pytest.mark.parametrize(
    "option, value",
    [
        ("undertrump", "sometimes"),
        ("undertrump", True),
        ("match_target", 0),
        ("match_target", -5),
        ("match_target", 151.0),
        ("match_target", True),
        ("declarations", "yes"),
        ("declarations", 1),
        ("at_overtake_partner", "no"),
        ("family", "french"),
        ("declarations_shown", "never"),
        ("declarations_shown", True),
    ],
)
def test_bad_option_value_is_an_error(option, value):
    with pytest.raises((ValueError, TypeError)) as info:
        bs.BULGARIAN.replace(**{option: value})
    assert option.split("_")[0] in str(info.value) or "family" in str(info.value)


def test_bulgarian_always_has_at_and_nt():
    with pytest.raises(ValueError):
        bs.BULGARIAN.replace(all_no_trumps=False)


def test_classic_without_all_no_trumps_refuses_at_and_nt():
    for c in ("AT", "NT"):
        with pytest.raises(ValueError):
            bs.CLASSIC.check_contract(c)
        assert bs.CLASSIC.replace(all_no_trumps=True).check_contract(c) == Contract.from_str(c)
    assert bs.CLASSIC.check_contract("H") == Contract.HEARTS


# ---------------------------------------------------------------------------------------
# Contract
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, contract, code",
    [
        ("C", Contract.CLUBS, "C"),
        ("d", Contract.DIAMONDS, "D"),
        ("H", Contract.HEARTS, "H"),
        ("s", Contract.SPADES, "S"),
        ("NT", Contract.NO_TRUMPS, "NT"),
        ("nt", Contract.NO_TRUMPS, "NT"),
        ("AT", Contract.ALL_TRUMPS, "AT"),
        ("at", Contract.ALL_TRUMPS, "AT"),
        ("hearts", Contract.HEARTS, "H"),
        ("Spades", Contract.SPADES, "S"),
        ("♥", Contract.HEARTS, "H"),
    ],
)
def test_contract_from_str(text, contract, code):
    c = Contract.from_str(text)
    assert c == contract
    assert str(c) == code
    assert Contract.from_str(str(c)) == c


def test_contract_order_and_codes():
    # bidding order C < D < H < S < NT < AT; suit contracts equal their suit index
    assert [str(c) for c in sorted(Contract)] == ["C", "D", "H", "S", "NT", "AT"]
    assert [int(Contract.from_str(s)) for s in "CDHS"] == [0, 1, 2, 3]
    assert Contract.HEARTS == bs.Contract.HEARTS == 2
    assert Contract.HEARTS.is_suit and not Contract.NO_TRUMPS.is_suit and not Contract.ALL_TRUMPS.is_suit
    assert Contract.HEARTS.trump_mask == 0xFF0000
    assert Contract.ALL_TRUMPS.trump_mask == FULL
    assert Contract.NO_TRUMPS.trump_mask == 0


@pytest.mark.parametrize("text", ["X", "", "hearts!", "spade-s", "6", "TT", "pass"])
def test_unknown_contract_is_value_error(text):
    with pytest.raises(ValueError, match="(?i)contract"):
        Contract.from_str(text)


def test_contract_coerce():
    assert Contract.coerce("AT") == Contract.ALL_TRUMPS
    assert Contract.coerce(3) == Contract.SPADES
    assert Contract.coerce(Contract.CLUBS) is Contract.CLUBS
    for bad in (6, -1, True, "Z"):
        with pytest.raises(ValueError):
            Contract.coerce(bad)


# ---------------------------------------------------------------------------------------
# Point tables (docs/rules.md §2)
# ---------------------------------------------------------------------------------------

# Written out from docs/rules.md §2, in sequence order 7 8 9 T J Q K A.
TRUMP_POINTS = [0, 0, 14, 10, 20, 3, 4, 11]
PLAIN_POINTS = [0, 0, 0, 10, 2, 3, 4, 11]
CLASSIC_AT_POINTS = [0, 0, 9, 5, 13, 2, 3, 6]
CLASSIC_NT_POINTS = [0, 0, 0, 10, 2, 3, 4, 19]
CLASSIC_ALL = bs.CLASSIC.replace(all_no_trumps=True)


@pytest.mark.parametrize("contract", ["C", "D", "H", "S"])
@pytest.mark.parametrize("preset", [bs.BULGARIAN, CLASSIC_ALL], ids=["bulgarian", "classic"])
def test_suit_contract_points_per_suit(contract, preset):
    table = preset.card_points(contract)
    trump = Contract.from_str(contract)
    for suit in range(4):
        row = [int(x) for x in table[8 * suit:8 * suit + 8]]
        if suit == trump:
            assert row == TRUMP_POINTS
            assert sum(row) == 62
        else:
            assert row == PLAIN_POINTS
            assert sum(row) == 30
    assert preset.total_trick_points(contract) == 162


def test_bulgarian_at_nt_points():
    at = bs.BULGARIAN.card_points("AT")
    nt = bs.BULGARIAN.card_points("NT")
    for suit in range(4):
        assert [int(x) for x in at[8 * suit:8 * suit + 8]] == TRUMP_POINTS
        assert [int(x) for x in nt[8 * suit:8 * suit + 8]] == PLAIN_POINTS
    assert int(at.sum()) == 248
    assert int(nt.sum()) == 120
    assert bs.BULGARIAN.total_trick_points("AT") == 258
    assert bs.BULGARIAN.total_trick_points("NT") == 260
    assert bs.BULGARIAN.trick_multiplier("NT") == 2
    assert bs.BULGARIAN.trick_multiplier("AT") == 1
    assert bs.BULGARIAN.trick_multiplier("H") == 1


def test_classic_at_nt_points():
    at = CLASSIC_ALL.card_points("AT")
    nt = CLASSIC_ALL.card_points("NT")
    for suit in range(4):
        assert [int(x) for x in at[8 * suit:8 * suit + 8]] == CLASSIC_AT_POINTS
        assert [int(x) for x in nt[8 * suit:8 * suit + 8]] == CLASSIC_NT_POINTS
    assert int(at.sum()) == int(nt.sum()) == 152
    assert CLASSIC_ALL.total_trick_points("AT") == 162
    assert CLASSIC_ALL.total_trick_points("NT") == 162
    assert CLASSIC_ALL.trick_multiplier("NT") == 1


def test_point_tables_shape_and_read_only():
    for table in (rules.POINTS_BULGARIAN, rules.POINTS_CLASSIC, STRENGTH):
        assert table.shape == (6, 32)
        with pytest.raises(ValueError):
            table[0, 0] = 99
    assert rules.LAST_TRICK_BONUS == 10
    assert rules.VALAT_BONUS == 90
    assert rules.BELOT_POINTS == 20


def test_declarations_allowed():
    assert bs.BULGARIAN.declarations_allowed("H")
    assert bs.BULGARIAN.declarations_allowed("AT")
    assert not bs.BULGARIAN.declarations_allowed("NT")
    assert not bs.CLASSIC.declarations_allowed("H")  # off by default in classic
    assert bs.CLASSIC.replace(declarations=True).declarations_allowed("H")


# ---------------------------------------------------------------------------------------
# Strength orders (docs/rules.md §2)
# ---------------------------------------------------------------------------------------

TRUMP_ORDER = "J9ATKQ87"  # high → low
PLAIN_ORDER = "ATKQJ987"


def _order(contract: Contract, suit: int) -> str:
    ranks = sorted(range(8), key=lambda r: -int(STRENGTH[contract, suit * 8 + r]))
    return "".join(RANKS[r] for r in ranks)


@pytest.mark.parametrize("contract", list(Contract), ids=str)
def test_strength_orders(contract):
    for suit in range(4):
        strengths = [int(STRENGTH[contract, suit * 8 + r]) for r in range(8)]
        assert len(set(strengths)) == 8  # a strict order within a suit
        trump = contract == Contract.ALL_TRUMPS or contract == suit
        assert _order(contract, suit) == (TRUMP_ORDER if trump else PLAIN_ORDER)


def test_strength_examples():
    h = Contract.HEARTS
    jh, nh, ah, th = (bs.parse_card(c) for c in ("JH", "9H", "AH", "TH"))
    assert STRENGTH[h, jh] > STRENGTH[h, nh] > STRENGTH[h, ah] > STRENGTH[h, th]
    js, ts = bs.parse_card("JS"), bs.parse_card("TS")
    assert STRENGTH[h, ts] > STRENGTH[h, js]  # plain: 10 beats J
    nt = Contract.NO_TRUMPS
    assert STRENGTH[nt, ah] > STRENGTH[nt, th] > STRENGTH[nt, jh] > STRENGTH[nt, nh]
