"""The auction (docs/rules.md §4), dealing (§3) and whole deals through ``FullDealState``.

Expected values are worked out by hand from docs/rules.md and the pack-to-player mapping
documented in ``belot_sim/reference/dealing.py``:

* order ``j = 0..3`` is seat ``(dealer + 1 + j) % 4``;
* first five cards: order ``j`` gets ``pack[5j : 5j + 5]``;
* bulgarian completion: order ``j`` gets ``pack[20 + 3j : 23 + 3j]``;
* classic: ``pack[20]`` is turned; ``pack[21:32]`` is dealt in order ``j``, the taker
  getting the turned card and 2 cards, every other seat 3.
"""

from __future__ import annotations

import re

import pytest

import belot_sim as bs
from belot_sim import reference as ref
from helpers import mask, shuffled_pack


def auction(dealer=3, rules=bs.BULGARIAN, turned=None, calls=()):
    st = ref.AuctionState.start(dealer, rules, turned=turned)
    for c in calls:
        st.call(c)
    return st


def legal(st):
    return set(st.legal_calls())


def tokens(message):
    return set(re.findall(r"[A-Za-z]+", message))


# --------------------------------------------------------------------------------------
# Bulgarian auction (§4.1).  With dealer 3, seat 0 speaks first; teams: {0, 2} and {1, 3}.
# --------------------------------------------------------------------------------------

def test_opening_calls_are_pass_and_every_contract():
    st = auction()
    assert not st.is_over and not st.is_void
    assert legal(st) == {"pass", "C", "D", "H", "S", "NT", "AT"}


def test_contract_calls_must_be_higher():
    st = auction(calls=["H"])  # seat 0: H; seat 1 to speak
    assert legal(st) == {"pass", "S", "NT", "AT", "double"}
    for lower in ("C", "D", "H"):
        with pytest.raises(bs.IllegalActionError):
            st.call(lower)


def test_double_only_by_an_opponent_of_the_contract_team():
    st = auction(calls=["H"])  # seat 0 (team 0) holds H; seat 1 (team 1) to speak
    assert "double" in legal(st)
    st.call("pass")  # seat 1
    # seat 2 is the declarer's partner: no double
    assert "double" not in legal(st)
    with pytest.raises(bs.IllegalActionError):
        st.call("double")
    st.call("pass")  # seat 2
    # seat 3 is an opponent: may double
    assert "double" in legal(st)
    st.call("double")
    assert st.multiplier == 2
    assert st.contract == bs.Contract.HEARTS and st.declarer == 0


def test_double_not_allowed_when_already_doubled():
    st = auction(calls=["H", "double", "pass"])  # seat 3 (opponent) to speak, contract doubled
    assert "double" not in legal(st)
    with pytest.raises(bs.IllegalActionError):
        st.call("double")


def test_redouble_only_by_contract_team_after_a_double():
    st = auction(calls=["H"])
    # before any double nobody may redouble
    assert "redouble" not in legal(st)  # seat 1, opponent
    st.call("pass")
    assert "redouble" not in legal(st)  # seat 2, partner, not doubled yet
    with pytest.raises(bs.IllegalActionError):
        st.call("redouble")
    st.call("pass")  # seat 2
    st.call("double")  # seat 3
    # seat 0, the declarer, may redouble
    assert "redouble" in legal(st)
    st.call("pass")  # seat 0
    # seat 1, the doubler's partner (an opponent of the contract), may not redouble
    assert "redouble" not in legal(st)
    with pytest.raises(bs.IllegalActionError):
        st.call("redouble")
    st.call("pass")  # seat 1
    # seat 2, declarer's partner, may redouble
    assert "redouble" in legal(st)
    st.call("redouble")
    assert st.multiplier == 4


def test_no_double_or_redouble_after_a_redouble():
    st = auction(calls=["H", "double", "redouble"])  # seat 3 to speak
    assert "double" not in legal(st) and "redouble" not in legal(st)
    st.call("pass")  # seat 3
    assert "double" not in legal(st) and "redouble" not in legal(st)  # seat 0
    with pytest.raises(bs.IllegalActionError):
        st.call("redouble")


def test_higher_contract_cancels_the_double_and_changes_declarer():
    st = auction(calls=["H", "double"])
    assert st.multiplier == 2 and st.declarer == 0
    st.call("S")  # seat 2, partner of the declarer, bids higher
    assert st.multiplier == 1
    assert st.contract == bs.Contract.SPADES
    assert st.declarer == 2
    # the new contract can be doubled again by the opponents
    assert "double" in legal(st)  # seat 3


def test_higher_contract_by_the_doubling_team_cancels_a_redouble():
    st = auction(calls=["H", "double", "redouble", "NT"])  # seat 3 bids NT over a redoubled H
    assert st.multiplier == 1
    assert st.contract == bs.Contract.NO_TRUMPS
    assert st.declarer == 3
    for c in ("pass", "pass", "pass"):
        st.call(c)
    assert st.is_over and not st.is_void
    assert (st.contract, st.declarer, st.multiplier) == (bs.Contract.NO_TRUMPS, 3, 1)


def test_three_passes_after_a_call_end_the_auction():
    st = auction(calls=["pass", "H", "pass", "pass"])  # seat 1 bid H
    assert not st.is_over
    st.call("pass")
    assert st.is_over and not st.is_void
    assert st.contract == bs.Contract.HEARTS
    assert st.declarer == 1
    assert st.multiplier == 1
    assert st.legal_calls() == []


def test_overcall_restarts_the_pass_count():
    st = auction(calls=["C", "pass", "pass", "D", "pass", "pass"])
    assert not st.is_over
    st.call("pass")
    assert st.is_over
    assert (st.contract, st.declarer, st.multiplier) == (bs.Contract.DIAMONDS, 3, 1)


def test_four_passes_at_the_start_void_the_deal():
    st = auction(calls=["pass", "pass", "pass"])
    assert not st.is_over and not st.is_void
    st.call("pass")
    assert st.is_over and st.is_void
    assert st.contract is None


def test_fourth_speaker_may_open_after_three_passes():
    st = auction(calls=["pass", "pass", "pass"])
    st.call("C")  # seat 3 opens after three passes: not void
    assert not st.is_over and not st.is_void
    for c in ("pass", "pass"):
        st.call(c)
    assert not st.is_over
    st.call("pass")
    assert st.is_over and not st.is_void
    assert (st.contract, st.declarer, st.multiplier) == (bs.Contract.CLUBS, 3, 1)


def test_passes_after_a_double_end_with_multiplier_two():
    st = auction(calls=["H", "double", "pass", "pass"])
    assert not st.is_over
    st.call("pass")
    assert st.is_over and not st.is_void
    assert (st.contract, st.declarer, st.multiplier) == (bs.Contract.HEARTS, 0, 2)


def test_all_trumps_doubled_and_redoubled_is_four():
    st = auction(calls=["AT"])
    assert legal(st) == {"pass", "double"}  # nothing is higher than AT
    for c in ("double", "redouble", "pass", "pass"):
        st.call(c)
    assert not st.is_over
    st.call("pass")
    assert st.is_over and not st.is_void
    assert (st.contract, st.declarer, st.multiplier) == (bs.Contract.ALL_TRUMPS, 0, 4)


def test_first_speaker_is_the_seat_after_the_dealer():
    st = auction(dealer=1, calls=["S", "pass", "pass", "pass"])
    assert st.declarer == 2  # seat after dealer 1


def test_illegal_call_raises_and_lists_legal_calls():
    st = auction(calls=["H"])  # seat 1: legal pass, S, NT, AT, double
    with pytest.raises(bs.IllegalActionError) as info:
        st.call("D")
    words = tokens(str(info.value))
    for c in ("pass", "S", "NT", "AT", "double"):
        assert c in words
    # nothing changed
    assert (st.contract, st.declarer, st.multiplier) == (bs.Contract.HEARTS, 0, 1)


def test_illegal_action_error_is_a_value_error():
    st = auction(calls=["H"])
    with pytest.raises(ValueError):
        st.call("redouble")


def test_unknown_call_raises():
    st = auction()
    with pytest.raises(bs.IllegalActionError):
        st.call("bananas")


def test_call_after_the_auction_is_over_raises():
    st = auction(calls=["pass"] * 4)
    with pytest.raises(bs.IllegalActionError):
        st.call("H")


# --------------------------------------------------------------------------------------
# Classic auction (§4.2).
# --------------------------------------------------------------------------------------

NINE_H = bs.parse_card("9H")


def test_classic_round1_only_turned_suit_or_pass():
    st = auction(rules=bs.CLASSIC, turned=NINE_H)
    assert legal(st) == {"pass", "H"}
    for c in ("C", "D", "S", "NT", "AT", "double"):
        with pytest.raises(bs.IllegalActionError):
            st.call(c)


def test_classic_round1_taking_ends_the_auction():
    st = auction(rules=bs.CLASSIC, turned=NINE_H, calls=["pass"])
    st.call("H")  # seat 1 takes
    assert st.is_over and not st.is_void
    assert st.contract == bs.Contract.HEARTS
    assert st.declarer == 1
    assert st.multiplier == 1


def test_classic_round2_other_suits_only():
    st = auction(rules=bs.CLASSIC, turned=NINE_H, calls=["pass"] * 4)
    assert not st.is_over
    assert legal(st) == {"pass", "C", "D", "S"}
    with pytest.raises(bs.IllegalActionError):
        st.call("H")
    st.call("pass")  # seat 0
    st.call("S")  # seat 1 takes spades
    assert st.is_over and not st.is_void
    assert st.contract == bs.Contract.SPADES
    assert st.declarer == 1


def test_classic_all_pass_twice_is_void_without_all_no_trumps():
    st = auction(rules=bs.CLASSIC, turned=NINE_H, calls=["pass"] * 7)
    assert not st.is_over
    st.call("pass")
    assert st.is_over and st.is_void
    assert st.contract is None


def test_classic_round3_with_all_no_trumps():
    rules = bs.CLASSIC.replace(all_no_trumps=True)
    st = auction(rules=rules, turned=NINE_H, calls=["pass"] * 8)
    assert not st.is_over
    assert legal(st) == {"pass", "NT", "AT"}
    for c in ("C", "D", "H", "S"):
        with pytest.raises(bs.IllegalActionError):
            st.call(c)
    st.call("pass")  # seat 0
    st.call("pass")  # seat 1
    st.call("AT")  # seat 2
    assert st.is_over and not st.is_void
    assert st.contract == bs.Contract.ALL_TRUMPS
    assert st.declarer == 2


def test_classic_all_pass_three_rounds_is_void_with_all_no_trumps():
    rules = bs.CLASSIC.replace(all_no_trumps=True)
    st = auction(rules=rules, turned=NINE_H, calls=["pass"] * 11)
    assert not st.is_over
    st.call("pass")
    assert st.is_over and st.is_void


def test_classic_round1_with_all_no_trumps_still_only_turned_suit():
    rules = bs.CLASSIC.replace(all_no_trumps=True)
    st = auction(rules=rules, turned=bs.parse_card("7C"))
    assert legal(st) == {"pass", "C"}


def test_classic_has_no_doubling():
    st = auction(rules=bs.CLASSIC, turned=NINE_H, calls=["pass"] * 4)
    assert "double" not in legal(st) and "redouble" not in legal(st)
    with pytest.raises(bs.IllegalActionError):
        st.call("double")


def test_classic_auction_needs_turned_card():
    with pytest.raises(ValueError):
        ref.AuctionState.start(0, bs.CLASSIC)


# --------------------------------------------------------------------------------------
# Dealing (§3).
# --------------------------------------------------------------------------------------

IDENTITY = list(range(32))


def test_first_hands_identity_pack_dealer0():
    # dealer 0: seat 1 gets pack[0:5], seat 2 pack[5:10], seat 3 pack[10:15], seat 0 pack[15:20]
    hands = ref.first_hands(IDENTITY, 0)
    assert hands == [mask(range(15, 20)), mask(range(0, 5)), mask(range(5, 10)), mask(range(10, 15))]


def test_first_hands_shuffled_pack_dealer2():
    pack = shuffled_pack(7)
    hands = ref.first_hands(pack, 2)
    # dealer 2: order 0 is seat 3, order 1 seat 0, order 2 seat 1, order 3 seat 2
    assert hands[3] == mask(pack[0:5])
    assert hands[0] == mask(pack[5:10])
    assert hands[1] == mask(pack[10:15])
    assert hands[2] == mask(pack[15:20])


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("dealer", range(4))
def test_first_hands_are_four_disjoint_five_card_hands(seed, dealer):
    hands = ref.first_hands(shuffled_pack(seed), dealer)
    assert len(hands) == 4
    assert all(bin(h).count("1") == 5 for h in hands)
    union = 0
    for h in hands:
        assert union & h == 0
        union |= h
    assert bin(union).count("1") == 20


def test_complete_hands_bulgarian_identity_pack_dealer0():
    # order j (seat j+1 mod 4) gets pack[20+3j : 23+3j] on top of its five cards
    hands = ref.complete_hands(IDENTITY, 0)
    assert hands[1] == mask(range(0, 5)) | mask(range(20, 23))
    assert hands[2] == mask(range(5, 10)) | mask(range(23, 26))
    assert hands[3] == mask(range(10, 15)) | mask(range(26, 29))
    assert hands[0] == mask(range(15, 20)) | mask(range(29, 32))


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("dealer", range(4))
def test_complete_hands_bulgarian_contain_first_hands(seed, dealer):
    pack = shuffled_pack(seed)
    first = ref.first_hands(pack, dealer)
    full = ref.complete_hands(pack, dealer)
    assert all(bin(h).count("1") == 8 for h in full)
    union = 0
    for f, h in zip(first, full):
        assert f & ~h == 0  # the 5-card hand is part of the 8-card hand
        assert union & h == 0
        union |= h
    assert union == (1 << 32) - 1


def test_turned_card_is_pack_20():
    pack = shuffled_pack(3)
    assert ref.turned_card(pack) == pack[20]
    assert ref.turned_card(IDENTITY) == 20


def test_complete_hands_classic_identity_pack_taker_gets_turned_card():
    # dealer 0, taker seat 2 (order 1): seat 1 gets 21..23; seat 2 the turned 20 and 24, 25;
    # seat 3 gets 26..28; seat 0 gets 29..31.
    hands = ref.complete_hands(IDENTITY, 0, classic=True, taker=2)
    assert hands[1] == mask(range(0, 5)) | mask([21, 22, 23])
    assert hands[2] == mask(range(5, 10)) | mask([20, 24, 25])
    assert hands[3] == mask(range(10, 15)) | mask([26, 27, 28])
    assert hands[0] == mask(range(15, 20)) | mask([29, 30, 31])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("dealer", range(4))
@pytest.mark.parametrize("taker", range(4))
def test_complete_hands_classic_properties(seed, dealer, taker):
    pack = shuffled_pack(seed)
    turned = ref.turned_card(pack)
    first = ref.first_hands(pack, dealer)
    full = ref.complete_hands(pack, dealer, classic=True, taker=taker)
    assert full[taker] >> turned & 1
    for seat in range(4):
        if seat != taker:
            assert not full[seat] >> turned & 1
    assert all(bin(h).count("1") == 8 for h in full)
    union = 0
    for f, h in zip(first, full):
        assert f & ~h == 0
        assert union & h == 0
        union |= h
    assert union == (1 << 32) - 1


def test_complete_hands_classic_needs_taker():
    with pytest.raises(ValueError):
        ref.complete_hands(IDENTITY, 0, classic=True)


# --------------------------------------------------------------------------------------
# FullDealState end to end.
# --------------------------------------------------------------------------------------

def play_cards_to_end(st):
    n = 0
    while not st.is_over:
        actions = st.legal_actions()
        assert actions and all(isinstance(a, int) for a in actions)
        st.play(actions[0])
        n += 1
    return n


@pytest.mark.parametrize("dealer", range(4))
def test_full_deal_all_pass_is_void(dealer):
    st = ref.FullDealState(shuffled_pack(11), dealer, bs.BULGARIAN)
    assert st.phase == "auction"
    assert st.to_move == (dealer + 1) % 4
    for _ in range(4):
        st.play("pass")
    assert st.is_over
    res = st.result()
    assert res.outcome == "void"
    assert res.contract is None
    assert res.declarer == -1
    assert res.bidding_team is None
    assert res.score == (0, 0) and res.hanging == 0
    assert res.dealer == dealer
    assert st.legal_actions() == []
    with pytest.raises(bs.IllegalActionError):
        st.play("pass")


def test_full_deal_result_not_available_before_the_end():
    st = ref.FullDealState(shuffled_pack(11), 0, bs.BULGARIAN)
    with pytest.raises(bs.IllegalActionError):
        st.result()


def test_full_deal_fixed_auction_then_play_bulgarian():
    pack = shuffled_pack(21)
    dealer = 3  # seat 0 speaks first
    st = ref.FullDealState(pack, dealer, bs.BULGARIAN)
    assert st.first_hands == tuple(ref.first_hands(pack, dealer))
    for c in ["pass", "H", "double", "pass", "pass", "pass"]:
        # seat 0 pass, seat 1 H, seat 2 double, seats 3, 0, 1 pass
        st.play(c)
    assert st.phase == "play"
    assert st.to_move == 0  # the seat after the dealer leads
    assert play_cards_to_end(st) == 32
    res = st.result()
    assert res.contract == bs.Contract.HEARTS
    assert res.declarer == 1
    assert res.bidding_team == 1
    assert res.multiplier == 2
    assert res.dealer == dealer
    # hands after the auction: the documented bulgarian mapping
    expected = [0] * 4
    for j in range(4):
        seat = (dealer + 1 + j) % 4
        expected[seat] = mask(pack[5 * j:5 * j + 5]) | mask(pack[20 + 3 * j:23 + 3 * j])
    assert tuple(res.hands) == tuple(expected)
    # suit contract: 152 card points + 10 last trick
    assert sum(res.trick_points) == 162
    assert res.outcome in ("made", "inside", "hanging")
    # doubled: the team with more raw points scores round(total) * 2, the other 0 (§7 step 4).
    # Trick points 162 plus declarations/belots (multiples of 10) plus valat 90 end in 2,
    # so the total rounds down.
    total = res.raw[0] + res.raw[1]
    assert total % 10 == 2
    whole = total // 10 * 2
    b, d = 1, 0
    if res.raw[b] > res.raw[d]:
        assert res.outcome == "made" and res.score == (0, whole) and res.hanging == 0
    elif res.raw[b] < res.raw[d]:
        assert res.outcome == "inside" and res.score == (whole, 0) and res.hanging == 0
    else:
        assert res.outcome == "hanging" and res.score == (0, 0) and res.hanging == whole


def test_full_deal_fixed_auction_redoubled_all_trumps():
    pack = shuffled_pack(5)
    dealer = 0  # seat 1 speaks first
    st = ref.FullDealState(pack, dealer, "bulgarian")
    for c in ["C", "AT", "double", "redouble", "pass", "pass", "pass"]:
        # seat 1 C, seat 2 AT, seat 3 double, seat 0 redouble, seats 1, 2, 3 pass
        st.play(c)
    assert st.phase == "play"
    play_cards_to_end(st)
    res = st.result()
    assert (res.contract, res.declarer, res.multiplier) == (bs.Contract.ALL_TRUMPS, 2, 4)
    assert sum(res.trick_points) == 258


def test_full_deal_classic_taker_gets_turned_card():
    pack = shuffled_pack(9)
    dealer = 1  # seat 2 speaks first
    st = ref.FullDealState(pack, dealer, bs.CLASSIC)
    turned = pack[20]
    assert st.turned == turned
    suit = "CDHS"[turned // 8]
    assert set(st.legal_actions()) == {"pass", suit}
    st.play("pass")  # seat 2
    st.play(suit)  # seat 3 takes
    assert st.phase == "play"
    assert play_cards_to_end(st) == 32
    res = st.result()
    assert res.contract == bs.Contract.from_str(suit)
    assert res.declarer == 3
    assert res.multiplier == 1
    assert res.hands[3] >> turned & 1
    # seat 3 is order 1: pack[21:24] goes to seat 2 (order 0), seat 3 gets the turned
    # card and pack[24:26], seat 0 pack[26:29], seat 1 pack[29:32]
    assert res.hands[2] == mask(pack[0:5]) | mask(pack[21:24])
    assert res.hands[3] == mask(pack[5:10]) | mask([turned]) | mask(pack[24:26])
    assert res.hands[0] == mask(pack[10:15]) | mask(pack[26:29])
    assert res.hands[1] == mask(pack[15:20]) | mask(pack[29:32])
    assert sum(res.trick_points) == 162


def test_full_deal_classic_all_pass_is_void():
    st = ref.FullDealState(shuffled_pack(4), 2, bs.CLASSIC)
    for _ in range(8):
        assert not st.is_over
        st.play("pass")
    assert st.is_over
    res = st.result()
    assert res.outcome == "void" and res.contract is None and res.declarer == -1


@pytest.mark.parametrize("kwargs, pattern", [
    (dict(dealer=9), "dealer must be a seat 0..3, got 9"),
    (dict(dealer=1.0), "dealer must be a seat"),
    (dict(dealer=0, rules="classic", turned=32), "turned must be a card index 0..31, got 32"),
    (dict(dealer=0, rules="classic", turned="JH"), "turned must be a card index"),
])
def test_a_bad_dealer_or_turned_card_is_refused_when_the_auction_starts(kwargs, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        ref.AuctionState.start(**kwargs)


def test_a_match_needs_room_for_one_deal_and_perft_an_integer_depth():
    for max_deals, error in ((0, ValueError), (-1, ValueError), (2.5, TypeError), ("9", TypeError)):
        with pytest.raises(error, match="max_deals must be a positive integer"):
            ref.MatchState(max_deals=max_deals)
    assert ref.MatchState(max_deals=1).deal is not None
    state = ref.DealState.from_hands(["7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD",
                                      "7H 8H 9H TH JH QH KH AH", "7S 8S 9S TS JS QS KS AS"],
                                     contract="H", declarer=0, dealer=3)
    for depth, error in (("a", TypeError), (1.5, TypeError), (-1, ValueError)):
        with pytest.raises(error, match="depth must be an integer >= 0"):
            ref.perft(state, depth)
