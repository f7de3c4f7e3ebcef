"""Legal moves and trick winners of docs/rules.md §5, each as a hand-built position.

Every position uses the public step API of the reference engine
(``ref.DealState.from_hands`` → ``play`` → ``legal_actions``).  Seats 0..3 play in
order; with ``dealer=3`` seat 0 leads the first trick.  Expected legal sets and winners
are worked out by hand from docs/rules.md §2 (card orders) and §5 (play rules):

    trump order  J 9 A T K Q 8 7
    plain order  A T K Q J 9 8 7
"""

from __future__ import annotations

import pytest

import belot_sim as bs
from belot_sim import reference as ref
from helpers import cards, position

BULGARIAN = bs.BULGARIAN
REQUIRED = bs.BULGARIAN.replace(undertrump="required")
NO_AT_OVERTAKE = bs.BULGARIAN.replace(at_overtake_partner=False)
BOTH_UNDERTRUMP_RULES = pytest.mark.parametrize("rules", [BULGARIAN, REQUIRED], ids=["free", "required"])
BOTH_AT_RULES = pytest.mark.parametrize("rules", [BULGARIAN, NO_AT_OVERTAKE], ids=["overtake", "no-overtake"])


# --- helpers ---------------------------------------------------------------------------


def legal(st: ref.DealState) -> set[str]:
    return {bs.format_card(c) for c in st.legal_actions()}


def cardset(text: str) -> set[str]:
    return set(text.split())


# --- positions ---------------------------------------------------------------------------
# Each tuple is (seat 0, seat 1, seat 2, seat 3); seats 0 and 2 are partners, 1 and 3.

# Trump (H) led, partner winning with QH; seat 2 holds KH AH (beat Q) and 7H (does not).
TRUMP_LED_1 = ("QH 7C 8C 9C 7D 8D 9D 7S",
               "8H TC JC QC TD JD QD 8S",
               "7H KH AH KC AC KD AD 9S",
               "9H TH JH TS JS QS KS AS")

# Trump (H) led with 9H: seat 1 has 7H 8H QH (none beats 9H); seat 2 has JH and TH.
TRUMP_LED_2 = ("9H 7C 8C 9C TC 7D 8D 9D",
               "7H 8H QH JC QC KC AC TD",
               "JH TH JD QD KD AD 7S 8S",
               "KH AH 9S TS JS QS KS AS")

# Contract H.  Seat 1 is void in clubs (hearts + diamonds), seat 2 has clubs and trumps.
PLAIN_A = ("KC 7D 8D 9D TD 7S 8S 9S",
           "7H 8H 9H TH JD QD KD AD",
           "7C 8C AC JH QH TS JS QS",
           "9C TC JC QC KH AH KS AS")

# Contract S.  Seat 0 holds every club; seats 1, 2, 3 are void in clubs.
VOID_B = ("7C 8C 9C TC JC QC KC AC",
          "QS 9S 7D 8D 9D TD JD QD",
          "7S 8S KS AS 7H 8H 9H TH",
          "JS TS KD AD JH QH KH AH")

# Contract S.  Seat 2 is void in clubs AND spades (trumps); seat 0 holds every club.
VOID_C = ("7C 8C 9C TC JC QC KC AC",
          "7S 7H 8H 9H TH 7D 8D 9D",
          "JH QH KH AH TD JD QD KD",
          "8S 9S TS JS QS KS AS AD")

# Contract H.  Seat 1 is void in spades and in hearts (trumps).
VOID_D = ("AS 7C 8C 9C TC 7D 8D 9D",
          "JC QC KC AC TD JD QD KD",
          "7S 8S 9S AD 7H 8H 9H TH",
          "TS JS QS KS JH QH KH AH")

# Contract H.  Seat 2 is void in clubs and holds four trumps.
VOID_E = ("AC 8C 9C TC 7D 8D 9D TD",
          "7C JC QC KC JD QD KD AD",
          "7H 8H 9H TH 7S 8S 9S TS",
          "JH QH KH AH JS QS KS AS")

# AT / NT.  Hearts: seat 0 TH, seat 1 7H QH, seat 2 8H 9H AH, seat 3 JH KH.
MIXED_F = ("TH 7C 8C 9C TC 7D 8D 9D",
           "7H QH JC QC KC AC TD JD",
           "8H 9H AH QD KD AD 7S 8S",
           "JH KH 9S TS JS QS KS AS")


# --- suit contract: trump led ---------------------------------------------------------------


@BOTH_UNDERTRUMP_RULES
def test_trump_led_must_overtrump_even_over_partner(rules):
    # Seat 0 (partner of seat 2) leads QH and is winning; seat 2 must still beat it.
    st = position(TRUMP_LED_1, "H", "QH 8H", rules=rules)
    assert st.to_move == 2
    assert legal(st) == cardset("KH AH")  # not 7H, no plain cards


def test_trump_led_opponent_winning_must_overtrump():
    st = position(TRUMP_LED_1, "H", "QH 8H AH")
    assert legal(st) == cardset("9H JH")  # TH is below AH in trump order


def test_trump_led_only_lower_trump_is_forced():
    st = position(TRUMP_LED_1, "H", "QH")
    assert legal(st) == cardset("8H")


@BOTH_UNDERTRUMP_RULES
def test_trump_led_cannot_beat_plays_any_trump(rules):
    # 9H led: 7H 8H QH are all below 9H -> any trump, but never a plain card.
    st = position(TRUMP_LED_2, "H", "9H", rules=rules)
    assert st.to_move == 1
    assert legal(st) == cardset("7H 8H QH")


def test_trump_led_partner_winning_only_the_higher_trump():
    # Partner (seat 0) wins with 9H; seat 2 holds JH (beats 9H) and TH (does not): JH only.
    st = position(TRUMP_LED_2, "H", "9H 8H")
    assert legal(st) == cardset("JH")


def test_trump_led_nobody_can_beat_jack():
    st = position(TRUMP_LED_2, "H", "9H 8H JH")
    assert legal(st) == cardset("KH AH")


# --- suit contract: following a plain suit ---------------------------------------------------


def test_follow_plain_suit_no_obligation_to_beat():
    # Contract H, 8C led by seat 0: seat 1 may play any club, including 7C that loses.
    st = position(VOID_E, "H", "8C")
    assert legal(st) == cardset("7C JC QC KC")


def test_follow_plain_suit_may_not_trump_when_holding_led_suit():
    # Contract H, AS led; seat 1 discards; seat 2 holds spades and trumps: spades only.
    st = position(VOID_D, "H", "AS JC")
    assert legal(st) == cardset("7S 8S 9S")


def test_follow_plain_suit_after_opponent_trumped():
    # Contract H, KC led, seat 1 trumps with 7H; seat 2 has clubs: any club, no need
    # to beat and no obligation to overtrump.
    st = position(PLAIN_A, "H", "KC 7H")
    assert legal(st) == cardset("7C 8C AC")


# --- suit contract: void in the led suit ------------------------------------------------------


@BOTH_UNDERTRUMP_RULES
def test_void_partner_winning_with_plain_card_any_card(rules):
    # Contract H: seat 0 leads AC and wins; seat 2 is void in clubs -> any card.
    st = position(VOID_E, "H", "AC 7C", rules=rules)
    assert legal(st) == cardset("7H 8H 9H TH 7S 8S 9S TS")


@BOTH_UNDERTRUMP_RULES
def test_void_partner_winning_with_trump_any_card(rules):
    # Contract S: AC led, seat 1 trumps 9S, seat 2 discards; seat 3 (partner of seat 1)
    # could overtrump with JS but need not.
    st = position(VOID_B, "S", "AC 9S 7H" if rules is BULGARIAN else "AC 9S 7S", rules=rules)
    assert st.to_move == 3
    assert legal(st) == cardset("JS TS KD AD JH QH KH AH")


@BOTH_UNDERTRUMP_RULES
def test_void_opponent_trumped_must_overtrump(rules):
    # Contract S: AC led, seat 1 trumps with QS; seat 2 holds 7S 8S KS AS: K and A beat Q.
    st = position(VOID_B, "S", "AC QS", rules=rules)
    assert legal(st) == cardset("KS AS")


@BOTH_UNDERTRUMP_RULES
def test_void_opponent_trumped_must_overtrump_seat3(rules):
    # Contract S: AC, QS, KS (seat 2 overtrumps); seat 3 must beat KS: JS and TS do.
    st = position(VOID_B, "S", "AC QS KS", rules=rules)
    assert legal(st) == cardset("JS TS")


@BOTH_UNDERTRUMP_RULES
def test_void_opponent_overtrumped_only_jack_beats_nine(rules):
    # Contract H: 7C, JC (seat 1 wins), seat 2 must trump and plays 9H; seat 3 has
    # JH QH KH AH: only JH beats 9H.
    st = position(VOID_D, "H", "7C JC 9H", rules=rules)
    assert legal(st) == cardset("JH")


def test_void_opponent_trumped_cannot_overtrump_free_any_card():
    # Contract S: AC led, seat 1 trumps 9S; seat 2's trumps 7S 8S KS AS are all below 9S.
    st = position(VOID_B, "S", "AC 9S", rules=BULGARIAN)
    assert legal(st) == cardset("7S 8S KS AS 7H 8H 9H TH")


def test_void_opponent_trumped_cannot_overtrump_required_lower_trump():
    st = position(VOID_B, "S", "AC 9S", rules=REQUIRED)
    assert legal(st) == cardset("7S 8S KS AS")


@BOTH_UNDERTRUMP_RULES
def test_void_opponent_trumped_no_trump_at_all_any_card(rules):
    # Contract S: AC led, seat 1 trumps with 7S; seat 2 has neither clubs nor spades.
    st = position(VOID_C, "S", "AC 7S", rules=rules)
    assert legal(st) == cardset("JH QH KH AH TD JD QD KD")


@BOTH_UNDERTRUMP_RULES
def test_void_opponent_trumped_no_trump_any_card_other_position(rules):
    # Contract S, dealer 1 -> seat 2 leads KH; seat 3 trumps 8S; seat 0 (all clubs) is void
    # in hearts and spades.
    st = position(VOID_C, "S", "KH 8S", dealer=1, rules=rules)
    assert st.to_move == 0
    assert legal(st) == cardset("7C 8C 9C TC JC QC KC AC")


def test_void_opponent_winning_with_plain_card_must_trump():
    # Contract H, KC led by seat 0; seat 1 is void in clubs: any trump, no diamonds.
    st = position(PLAIN_A, "H", "KC")
    assert legal(st) == cardset("7H 8H 9H TH")


def test_void_opponent_winning_with_plain_card_must_trump_low_trumps_too():
    # Contract H: AC (seat 0), 7C, seat 2 discards 7S; seat 3 is void in clubs and the
    # opponent's AC wins: any trump (JH QH KH AH), no spades.
    st = position(VOID_E, "H", "AC 7C 7S")
    assert legal(st) == cardset("JH QH KH AH")


def test_void_opponent_winning_with_plain_card_must_trump_seven_trumps():
    # Contract S, dealer 1 -> seat 2 leads KH; seat 3 has seven spades and AD: spades only.
    st = position(VOID_C, "S", "KH", dealer=1)
    assert legal(st) == cardset("8S 9S TS JS QS KS AS")


def test_void_opponent_winning_with_plain_card_must_trump_after_follow():
    # Contract H: 7C, JC; seat 2 is void in clubs, opponent's JC wins: any trump.
    st = position(VOID_D, "H", "7C JC")
    assert legal(st) == cardset("7H 8H 9H TH")


@BOTH_UNDERTRUMP_RULES
def test_void_opponent_winning_with_plain_card_no_trump_any_card(rules):
    # Contract H, AS led; seat 1 has neither spades nor hearts: any card.
    st = position(VOID_D, "H", "AS", rules=rules)
    assert legal(st) == cardset("JC QC KC AC TD JD QD KD")


def test_follow_plain_suit_when_partner_trumped():
    # Contract S, dealer 1: KH, 8S (seat 3 trumps), 7C; seat 1 holds hearts: any heart.
    st = position(VOID_C, "S", "KH 8S 7C", dealer=1)
    assert legal(st) == cardset("7H 8H 9H TH")


# --- all trumps -----------------------------------------------------------------------------


def test_at_overtake_partner_true_must_beat_partner():
    # AT: TH (seat 0), 7H; seat 2's partner wins with TH; 9H and AH beat it, 8H does not.
    st = position(MIXED_F, "AT", "TH 7H", rules=BULGARIAN)
    assert legal(st) == cardset("9H AH")


def test_at_overtake_partner_false_any_card_of_led_suit():
    st = position(MIXED_F, "AT", "TH 7H", rules=NO_AT_OVERTAKE)
    assert legal(st) == cardset("8H 9H AH")  # still must follow hearts


@BOTH_AT_RULES
def test_at_opponent_winning_must_beat(rules):
    # AT: TC led by seat 0; seat 1 holds JC QC KC AC: J and A beat T, Q and K do not.
    st = position(MIXED_F, "AT", "TC", rules=rules)
    assert legal(st) == cardset("JC AC")


def test_at_no_overtake_option_still_beats_opponent():
    # AT, at_overtake_partner=False: TH, 7H, 8H; seat 0 (an opponent of seat 3) wins with
    # TH; seat 3 must beat it: JH does, KH does not.
    st = position(MIXED_F, "AT", "TH 7H 8H", rules=NO_AT_OVERTAKE)
    assert legal(st) == cardset("JH")


@BOTH_AT_RULES
def test_at_opponent_winning_must_beat_seat3(rules):
    # AT: TH, 7H, AH; seat 2 (an opponent of seat 3) wins with AH; JH beats it, KH does not.
    st = position(MIXED_F, "AT", "TH 7H AH", rules=rules)
    assert legal(st) == cardset("JH")


@BOTH_AT_RULES
def test_at_cannot_beat_any_card_of_led_suit(rules):
    # AT: TH led; seat 1's 7H and QH are both below TH.
    st = position(MIXED_F, "AT", "TH", rules=rules)
    assert legal(st) == cardset("7H QH")


@BOTH_AT_RULES
def test_at_follow_must_beat_with_led_suit_only(rules):
    # AT, dealer 1 -> seat 2 leads 7S; seat 3 must follow (every spade beats 7S); no hearts.
    st = position(MIXED_F, "AT", "7S", dealer=1, rules=rules)
    assert legal(st) == cardset("9S TS JS QS KS AS")


@BOTH_AT_RULES
def test_at_void_any_card(rules):
    st = position(MIXED_F, "AT", "7S 9S", dealer=1, rules=rules)
    assert st.to_move == 0
    assert legal(st) == cardset("TH 7C 8C 9C TC 7D 8D 9D")
    st.play("7C")
    assert legal(st) == cardset("7H QH JC QC KC AC TD JD")  # seat 1 void too


# --- no trumps ------------------------------------------------------------------------------


def test_nt_follow_suit_any_card_of_led_suit():
    st = position(MIXED_F, "NT", "TH")
    assert legal(st) == cardset("7H QH")
    st.play("7H")
    assert legal(st) == cardset("8H 9H AH")  # 8H and 9H lose, still legal
    st.play("8H")
    assert legal(st) == cardset("JH KH")  # no obligation to beat TH


def test_nt_void_any_card():
    st = position(MIXED_F, "NT", "7S 9S", dealer=1)
    assert legal(st) == cardset("TH 7C 8C 9C TC 7D 8D 9D")


def test_leader_may_play_any_card():
    st = position(MIXED_F, "H")
    assert legal(st) == cardset(MIXED_F[0])


def test_legal_actions_are_sorted_card_indices():
    st = position(TRUMP_LED_2, "H", "9H")
    assert st.legal_actions() == sorted(cards("7H 8H QH"))


# --- trick winners ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "contract, trick, winner",
    [
        # suit contract H: highest trump if any, else highest card of the led suit (plain order)
        ("H", "KC 7H AC TC", 1),
        ("H", "AC 7H", 1),
        ("H", "KC AC 9H JH", 3),
        ("H", "7C AC TC KC", 1),
        ("H", "TC KC QC JC", 0),  # T above K in plain order
        ("H", "JC QC 9C 8C", 1),  # Q above J in plain order
        ("H", "9C AD AS KS", 0),  # cards of other suits never win
        ("H", "QH KH TH AH", 3),  # trump order A > T > K > Q
        ("H", "AH 9H JH TH", 2),  # J highest trump
        ("H", "9H AH", 0),  # 9 above A in trump order
        ("H", "7D AD 8H 7H", 2),
        ("C", "9H AH", 1),  # hearts are plain under C
        ("C", "JH 9H 7C 8C", 3),
        # all trumps: highest card of the led suit in trump order
        ("AT", "TC 9C AC KC", 1),
        ("AT", "7C JD JH JS", 0),  # other suits never win, not even jacks
        ("AT", "QD KD 8D AD", 3),
        ("AT", "9H AH", 0),
        ("AT", "TH AH", 1),
        ("AT", "QS KS", 1),
        # no trumps: highest card of the led suit in plain order
        ("NT", "9S JS 7S 8S", 1),
        ("NT", "7S AC AH AD", 0),
        ("NT", "TS KS AS JS", 2),
        ("NT", "9H AH", 1),
        ("NT", "JH 9H", 0),
        ("NT", "KD TD", 1),
    ],
)
def test_trick_winner(contract, trick, winner):
    assert ref.trick_winner(cards(trick), bs.Contract.from_str(contract)) == winner


def test_trick_winner_accepts_contract_text():
    # Wherever a contract is taken, a Contract or its string works.
    assert ref.trick_winner(cards("KC 7H AC TC"), "H") == 1


@pytest.mark.parametrize(
    "hands, contract, dealer, trick, next_leader",
    [
        (PLAIN_A, "H", 3, "KC 7H 8C QC", 1),  # seat 1 trumped
        (VOID_B, "S", 3, "AC 9S 7H JS", 3),  # seat 3 overtrumped
        (VOID_D, "H", 3, "AS JC 7S TS", 0),  # plain ace of the led suit, JC is another suit
        (TRUMP_LED_2, "H", 3, "9H 8H JH AH", 2),
        (MIXED_F, "AT", 3, "TH 7H 9H JH", 3),  # seat 2 must beat TH; only JH beats 9H
        (MIXED_F, "AT", 1, "7S 9S 7C JD", 3),  # seat 2 led, seat 3 won with 9S
        (MIXED_F, "NT", 3, "TH 7H AH KH", 2),
        (MIXED_F, "NT", 1, "8S AS 7C JD", 3),
    ],
)
def test_winner_leads_next_trick(hands, contract, dealer, trick, next_leader):
    st = position(hands, contract, trick, dealer=dealer)
    assert st.to_move == next_leader
    played = set(trick.split())
    remaining = cardset(hands[next_leader]) - played
    assert legal(st) == remaining  # a leader may play anything


def test_tricks_won_and_points_after_one_trick():
    # Contract H: KC (4) 7H (0) 8C (0) QC (3): seat 1 (team 1) wins 7 card points.
    st = position(PLAIN_A, "H", "KC 7H 8C QC")
    assert st.tricks_won == [0, 1]
    assert st.trick_points == [0, 7]


# --- errors -----------------------------------------------------------------------------------


def test_illegal_card_raises_and_lists_legal_cards():
    st = position(PLAIN_A, "H", "KC")
    with pytest.raises(bs.IllegalActionError) as info:
        st.play("JD")  # seat 1 must trump
    message = str(info.value)
    for card in ("7H", "8H", "9H", "TH"):
        assert card in message
    assert "JD" in message
    # the state is unchanged and a legal card still works
    assert st.to_move == 1
    assert len(st.plays) == 1
    st.play("9H")
    assert st.to_move == 2


def test_card_from_another_hand_is_illegal():
    st = position(PLAIN_A, "H")
    with pytest.raises(bs.IllegalActionError) as info:
        st.play("7H")  # belongs to seat 1
    assert all(card in str(info.value) for card in PLAIN_A[0].split())


def test_illegal_undertrump_under_required_rule():
    st = position(VOID_B, "S", "AC 9S", rules=REQUIRED)
    with pytest.raises(bs.IllegalActionError, match="7S"):
        st.play("7H")


def test_illegal_action_error_is_a_value_error():
    assert issubclass(bs.IllegalActionError, ValueError)


def _bad(hands):
    return ref.DealState.from_hands(list(hands), contract="H", declarer=0, dealer=3)


def test_overlapping_hands_raise():
    hands = list(PLAIN_A)
    hands[3] = hands[3].replace("9C", "KC")  # KC is also in seat 0's hand
    with pytest.raises(ValueError, match=r"(?i)overlap.*KC|KC.*overlap"):
        _bad(hands)


def test_seven_card_hand_raises():
    hands = list(PLAIN_A)
    hands[1] = hands[1].replace(" AD", "")
    with pytest.raises(ValueError, match=r"7") as info:
        _bad(hands)
    assert "8" in str(info.value) and "1" in str(info.value)  # seat 1, expected 8


def test_unknown_card_text_raises():
    hands = list(PLAIN_A)
    hands[1] = hands[1].replace("7H", "6H")
    with pytest.raises(ValueError, match="6H"):
        _bad(hands)


def test_duplicate_card_in_one_string_raises():
    hands = list(PLAIN_A)
    hands[1] = hands[1].replace("8H", "7H")
    with pytest.raises(ValueError, match=r"(?i)duplicate.*7H"):
        _bad(hands)


def test_parse_cards_rejects_duplicates_and_unknown_cards():
    with pytest.raises(ValueError, match=r"(?i)duplicate"):
        bs.parse_cards("JH 9H JH")
    with pytest.raises(ValueError, match="6H"):
        bs.parse_cards("JH 6H")
    assert bs.parse_cards("10h J♥") == bs.parse_cards("TH JH")
