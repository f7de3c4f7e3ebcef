"""Declarations (tierce, quarte, quint, carrés) and belots of docs/rules.md §6.

Checked through ``ref.find_declarations`` / ``ref.resolve_declarations`` and through whole
deals played card by card with the step API (``DealState.result().declared`` / ``.belot``).
Expected values are worked out by hand from docs/rules.md:

    sequence order 7 8 9 T J Q K A; tierce 20, quarte 50, 5..8 cards one quint 100
    carrés J 200, 9 150, A/T/K/Q 100, 7s and 8s nothing; carré order J > 9 > A > T > K > Q
"""

from __future__ import annotations

import pytest

import belot_sim as bs
from belot_sim import reference as ref
from helpers import check_fixture, mask

BULGARIAN = bs.BULGARIAN
CLASSIC_DECL = bs.CLASSIC.replace(declarations=True)
CLASSIC_DECL_AT = bs.CLASSIC.replace(declarations=True, all_no_trumps=True)


# --- helpers -------------------------------------------------------------------------------


def found(text: str) -> set[tuple[str, int, int]]:
    """Declarations of one hand as {(kind, points, card mask)}."""
    return {(d.kind, d.points, d.cards) for d in ref.find_declarations(mask(text))}


def seq(text: str, points: int) -> tuple[str, int, int]:
    return ("sequence", points, mask(text))


def carre(rank: str, points: int) -> tuple[str, int, int]:
    return ("carre", points, mask(" ".join(rank + s for s in "CDHS")))


def carre_text(rank: str) -> str:
    return " ".join(rank + s for s in "CDHS")


def resolve(hands, contract, rules=BULGARIAN) -> tuple[int, int]:
    """Resolved declared points (team 0, team 1) of four seats' cards."""
    per_seat = [ref.find_declarations(mask(h)) for h in hands]
    return tuple(ref.resolve_declarations(per_seat, bs.Contract.from_str(contract), rules))


def play_deal(hands, contract, *, opening: str = "", dealer: int = 3, rules=BULGARIAN):
    """Play a whole deal: the ``opening`` cards in order (each must be legal), then the
    lowest legal card for every remaining play.  Returns the finished DealState."""
    check_fixture(hands)
    st = ref.DealState.from_hands(list(hands), contract=contract, declarer=0, dealer=dealer, rules=rules)
    for card in opening.split():
        st.play(card)
    while not st.is_over:
        st.play(min(st.legal_actions()))
    assert len(st.plays) == 32
    return st


# --- finding declarations in one hand ---------------------------------------------------------


def test_carre_taken_before_sequence():
    # JH would extend 8H 9H TH to a quarte, but it belongs to the carré of jacks.
    assert found("JC JD JH JS 8H 9H TH 7S") == {carre("J", 200), seq("8H 9H TH", 20)}


def test_card_of_carre_not_reused_so_run_is_broken():
    # Without JH the hearts 9 T _ Q are no sequence at all.
    assert found("JC JD JH JS 9H TH QH AS") == {carre("J", 200)}


def test_four_sevens_score_nothing_and_stay_free_for_a_sequence():
    assert found("7C 7D 7H 7S 8H 9H AS KD") == {seq("7H 8H 9H", 20)}


def test_four_eights_score_nothing_and_stay_free_for_a_sequence():
    assert found("8C 8D 8H 8S 9S TS JS AC") == {seq("8S 9S TS JS", 50)}


def test_four_sevens_and_four_eights_declare_nothing():
    assert found("7C 7D 7H 7S 8C 8D 8H 8S") == set()


def test_eight_card_run_is_one_quint_of_100():
    result = ref.find_declarations(mask("7H 8H 9H TH JH QH KH AH"))
    assert len(result) == 1
    d = result[0]
    assert (d.kind, d.points, d.length, d.cards) == ("sequence", 100, 8, mask("7H 8H 9H TH JH QH KH AH"))


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("7H 8H 9H", {seq("7H 8H 9H", 20)}),
        ("JH QH KH", {seq("JH QH KH", 20)}),  # sequence order, not trump order
        ("QS KS AS", {seq("QS KS AS", 20)}),
        ("9D TD JD QD", {seq("9D TD JD QD", 50)}),
        ("TC JC QC KC AC", {seq("TC JC QC KC AC", 100)}),
        ("7C 8C 9C TC JC QC", {seq("7C 8C 9C TC JC QC", 100)}),
        ("8C 9C TC JC QC KC AC", {seq("8C 9C TC JC QC KC AC", 100)}),
        ("7H 8H 9H JH QH KH", {seq("7H 8H 9H", 20), seq("JH QH KH", 20)}),  # two runs
        ("7H 8H TH JH", set()),
        ("9H JH KH AH", set()),
        ("7H 8H 9H 7S 8S 9S TS", {seq("7H 8H 9H", 20), seq("7S 8S 9S TS", 50)}),
        ("AC AD AH AS KC KD KH KS", {carre("A", 100), carre("K", 100)}),  # no sequences left
    ],
)
def test_sequences_and_their_points(hand, expected):
    assert found(hand) == expected


@pytest.mark.parametrize("rank, points", [("J", 200), ("9", 150), ("A", 100), ("T", 100), ("K", 100), ("Q", 100)])
def test_carre_points(rank, points):
    assert found(carre_text(rank)) == {carre(rank, points)}


def test_carre_with_king_queen_and_sequence_from_rest():
    # Q and K carrés are taken first; 8D 9D TD remain a tierce, JD is alone.
    hand = "QC QD QH QS KC KD KH KS"
    assert found(hand) == {carre("Q", 100), carre("K", 100)}
    assert found("KC KD KH KS 8D 9D TD QD") == {carre("K", 100), seq("8D 9D TD", 20)}


# --- bulgarian resolution -------------------------------------------------------------------


def test_bulgarian_equal_best_sequences_cancel():
    # Both teams' best: tierce up to J.  Seat 0's is even a trump tierce: no tiebreak.
    hands = ["9H TH JH", "9S TS JS", "7C 8C 9C", ""]
    assert resolve(hands, "H") == (0, 0)
    assert resolve(hands, "AT") == (0, 0)


def test_bulgarian_equal_best_quartes_cancel_even_with_other_lower_runs():
    hands = ["TC JC QC KC", "TD JD QD KD", "7H 8H 9H", "7S 8S 9S"]
    assert resolve(hands, "S") == (0, 0)


def test_bulgarian_longer_sequence_beats_shorter():
    # Team 0: quarte up to T; team 1: tierces up to A and J.
    hands = ["7C 8C 9C TC", "QS KS AS", "", "9D TD JD"]
    assert resolve(hands, "H") == (50, 0)


def test_bulgarian_equal_length_higher_top_wins_all_sequences():
    # Team 1's best tierce (top Q) beats team 0's (top J); team 1 also scores its 7-8-9
    # tierce, which is lower than team 0's.
    hands = ["9C TC JC", "TD JD QD", "", "7S 8S 9S"]
    assert resolve(hands, "H") == (0, 40)


def test_bulgarian_winning_team_scores_every_sequence_of_both_partners():
    hands = ["7C 8C 9C TC JC", "9S TS JS QS", "7D 8D 9D", "7H 8H 9H"]
    assert resolve(hands, "S") == (120, 0)


def test_bulgarian_six_card_run_beats_five_card_run():
    # Both score 100, but longer is better.
    hands = ["7H 8H 9H TH JH QH", "TS JS QS KS AS", "7D 8D 9D", ""]
    assert resolve(hands, "C") == (120, 0)


def test_bulgarian_sequences_and_carres_resolved_separately():
    # Sequences: team 0's quarte beats team 1's tierce.  Carrés: only team 1 has one.
    hands = ["7H 8H 9H TH", "QC QD QH QS 7C 8C 9C", "", ""]
    assert resolve(hands, "S") == (50, 100)


def test_bulgarian_quint_and_carre_of_equal_points_both_score():
    hands = ["9D TD JD QD KD", "AC AD AH AS", "", ""]
    assert resolve(hands, "H") == (100, 100)


@pytest.mark.parametrize(
    "high, low, high_points",
    [("J", "9", 200), ("9", "A", 150), ("A", "T", 100), ("T", "K", 100), ("K", "Q", 100), ("J", "Q", 200),
     ("9", "K", 150), ("A", "Q", 100)],
)
@pytest.mark.parametrize("high_team", [0, 1])
def test_bulgarian_carre_order(high, low, high_points, high_team):
    # J > 9 > A > T > K > Q, whatever the points.
    hands = ["", "", "", ""]
    hands[high_team] = carre_text(high)
    low_seat = 3 if high_team == 0 else 0  # an opponent of high_team
    hands[low_seat] = carre_text(low)
    expected = [0, 0]
    expected[high_team] = high_points
    assert resolve(hands, "H") == tuple(expected)


def test_bulgarian_team_with_highest_carre_scores_all_its_carres():
    hands = ["9C 9D 9H 9S", "AC AD AH AS", "QC QD QH QS", ""]
    assert resolve(hands, "D") == (250, 0)
    hands = ["QC QD QH QS", "AC AD AH AS", "KC KD KH KS", "TC TD TH TS"]
    assert resolve(hands, "D") == (0, 200)


def test_no_declarations_in_no_trumps():
    hands = ["7C 8C 9C TC", "JC JD JH JS", "7D 8D 9D", "AC AD AH AS"]
    assert resolve(hands, "NT") == (0, 0)
    assert resolve(hands, "NT", CLASSIC_DECL_AT) == (0, 0)
    assert resolve(hands, "H") == (70, 300)  # the same cards do score outside NT


def test_declarations_option_off():
    hands = ["7C 8C 9C TC", "JC JD JH JS", "7D 8D 9D", "AC AD AH AS"]
    assert resolve(hands, "H", BULGARIAN.replace(declarations=False)) == (0, 0)
    assert resolve(hands, "AT", BULGARIAN.replace(declarations=False)) == (0, 0)
    assert resolve(hands, "H", bs.CLASSIC) == (0, 0)  # off by default in classic


# --- classic resolution ----------------------------------------------------------------------


def test_classic_more_points_wins():
    hands = ["7C 8C 9C TC", "QS KS AS", "", "9D TD JD"]
    assert resolve(hands, "H", CLASSIC_DECL) == (50, 0)


def test_classic_best_single_declaration_decides_not_the_total():
    # Team 0 holds two tierces (40 in all), team 1 one quarte (50): team 1 scores.
    hands = ["7C 8C 9C", "9S TS JS QS", "JD QD KD", ""]
    assert resolve(hands, "H", CLASSIC_DECL) == (0, 50)


def test_classic_sequences_and_carres_compared_together():
    # Bulgarian would split this (sequences to team 0, carrés to team 1); classic: the
    # carré of queens (100) beats the quarte (50) and team 1 scores all: 100 + 20.
    hands = ["7H 8H 9H TH", "QC QD QH QS 7C 8C 9C", "", ""]
    assert resolve(hands, "S", CLASSIC_DECL) == (0, 120)


def test_classic_carre_beats_sequence_of_equal_points():
    hands = ["9D TD JD QD KD", "AC AD AH AS", "", ""]
    assert resolve(hands, "H", CLASSIC_DECL) == (0, 100)
    hands = ["AC AD AH AS", "9D TD JD QD KD", "", ""]
    assert resolve(hands, "D", CLASSIC_DECL) == (100, 0)  # even against a trump quint


def test_classic_longer_sequence_beats_shorter_of_equal_points():
    hands = ["TS JS QS KS AS", "7H 8H 9H TH JH QH", "", ""]
    assert resolve(hands, "C", CLASSIC_DECL) == (0, 100)


def test_classic_equal_length_higher_top_card_wins():
    hands = ["9C TC JC", "TD JD QD", "", ""]
    assert resolve(hands, "H", CLASSIC_DECL) == (0, 20)
    hands = ["JS QS KS", "9H TH JH", "", ""]
    assert resolve(hands, "H", CLASSIC_DECL) == (20, 0)  # higher top beats trump


@pytest.mark.parametrize("contract, expected", [("H", (0, 20)), ("S", (20, 0)), ("C", (0, 0)), ("D", (0, 0))])
def test_classic_trump_sequence_breaks_ties_else_nobody(contract, expected):
    hands = ["9S TS JS", "9H TH JH", "", ""]
    assert resolve(hands, contract, CLASSIC_DECL) == expected


def test_classic_equal_sequences_in_all_trumps_cancel():
    hands = ["9S TS JS", "9H TH JH", "", ""]
    assert resolve(hands, "AT", CLASSIC_DECL_AT) == (0, 0)


def test_classic_winner_scores_all_its_declarations():
    hands = ["9S TS JS", "9H TH JH", "", "7C 8C 9C TC"]
    # Team 1's quarte (50) is the best single declaration: team 1 scores 20 + 50.
    assert resolve(hands, "H", CLASSIC_DECL) == (0, 70)


def test_classic_trump_tiebreak_with_contract_text():
    # Wherever a contract is taken, a Contract or its string works.
    per_seat = [ref.find_declarations(mask(h)) for h in ["9S TS JS", "9H TH JH", "", ""]]
    assert tuple(ref.resolve_declarations(per_seat, "H", CLASSIC_DECL)) == (0, 20)


# --- whole deals: declarations ---------------------------------------------------------------

# Seat 0 holds every king and queen: carrés of K and Q (200), a belot in every suit.
# Nobody else has a carré that counts or a sequence of three.
DEAL_KQ = ("KC QC KD QD KH QH KS QS",
           "7C 8C TC JC 9D AD 9H AH",
           "7D 8D TD JD 9S AS 9C AC",
           "7H 8H TH JH 7S 8S TS JS")

# Team 0: seat 0 quint (7..Q C, one quint of 100), seat 2 quarte 9..Q H (50).
# Team 1: seat 1 quarte 8..J D (50), seat 3 tierce 9..J S (20).  No carrés.
# Only K/Q pair in one hand: KS QS (seat 1).  QC/KC seats 0/2, QD/KD 2/3, QH/KH 2/3.
DEAL_S = ("7C 8C 9C TC JC QC AC 7D",
          "KS QS 8D 9D TD JD 7H 8H",
          "KC QD 9H TH JH QH 7S 8S",
          "KD AD KH AH 9S TS JS AS")

# Seat 0 quarte T..K C, seat 1 quarte T..K D (equal: sequences cancel); seat 2 carré of A,
# seat 3 carré of 9 (9 > A).  K/Q pairs: QD KD (seat 1), QH KH (seat 3); QC/KC, QS/KS split.
DEAL_CANCEL = ("TC JC QC KC 7H 8H 7S 8S",
               "7D 8D TD JD QD KD TH JH",
               "AC AD AH AS 7C 8C TS QS",
               "9C 9D 9H 9S QH KH JS KS")

# Opening of DEAL_KQ in AT (each card checked legal by the engine) that makes seat 0 play
# the first of each K/Q pair in its own suit: leads KH, follows spades with QS, diamonds
# with KD, clubs with QC.
DEAL_KQ_AT_OPENING = ("KH AH 7D JH "  # seat 1 must beat KH; seat 3 must beat partner's AH
                      "7S QS 7C AS "  # seat 3 won, leads 7S
                      "8D 8H KD AD "  # seat 2 won, leads 8D
                      "8C 9C 7H QC")  # seat 1 won, leads 8C


def test_deal_carres_and_belots_all_trumps():
    st = play_deal(DEAL_KQ, "AT", opening=DEAL_KQ_AT_OPENING)
    result = st.result()
    assert result.declared == (200, 0)  # carré K 100 + carré Q 100
    assert result.belot == (80, 0)  # four belots, each first card played in its own suit


def test_deal_suit_contract_one_belot_and_kq_also_in_carres():
    result = play_deal(DEAL_KQ, "H").result()
    assert result.declared == (200, 0)
    assert result.belot == (20, 0)  # only the trump suit gives a belot


def test_deal_no_trumps_no_declarations_no_belot():
    result = play_deal(DEAL_KQ, "NT").result()
    assert result.declared == (0, 0)
    assert result.belot == (0, 0)


def test_deal_declarations_off_keeps_belot():
    rules = BULGARIAN.replace(declarations=False)
    result = play_deal(DEAL_KQ, "AT", opening=DEAL_KQ_AT_OPENING, rules=rules).result()
    assert result.declared == (0, 0)
    assert result.belot == (80, 0)
    result = play_deal(DEAL_KQ, "H", rules=rules).result()
    assert result.declared == (0, 0)
    assert result.belot == (20, 0)


@pytest.mark.parametrize("contract", ["C", "S", "AT"])
def test_deal_team_with_longest_sequence_scores_all_sequences(contract):
    # Team 0's best is a 6-card run (one quint, 100) + partner's quarte 50.
    result = play_deal(DEAL_S, contract).result()
    assert result.declared == (150, 0)


@pytest.mark.parametrize("contract, belot", [("H", (0, 20)), ("S", (0, 0)), ("D", (0, 20))])
def test_deal_equal_sequences_cancel_carre_of_nines_wins(contract, belot):
    result = play_deal(DEAL_CANCEL, contract).result()
    assert result.declared == (0, 150)
    assert result.belot == belot


def test_deal_classic_declarations_compared_together():
    # Classic: team 1's carré of 9s (150) is the best single declaration; it scores all of
    # its declarations: 150 + quarte 50.  Belote-rebelote (QH KH of seat 3) is 20.
    result = play_deal(DEAL_CANCEL, "H", rules=CLASSIC_DECL).result()
    assert result.declared == (0, 200)
    assert result.belot == (0, 20)


def test_deal_classic_default_no_declarations_but_belote():
    result = play_deal(DEAL_CANCEL, "H", rules=bs.CLASSIC).result()
    assert result.declared == (0, 0)
    assert result.belot == (0, 20)


# --- whole deals: belot ---------------------------------------------------------------------


@pytest.mark.parametrize("contract", ["C", "H"])
def test_deal_trump_king_and_queen_split_between_partners_no_belot(contract):
    # DEAL_S: QC seat 0 / KC seat 2 (partners); QH seat 2 / KH seat 3.
    result = play_deal(DEAL_S, contract).result()
    assert result.belot == (0, 0)


def test_deal_suit_contract_belot_counts_when_trumping():
    # Contract S: AC led, seat 1 is void in clubs and trumps with QS (first of KS/QS).
    st = play_deal(DEAL_S, "S", opening="AC QS")
    assert st.result().belot == (0, 20)


def test_deal_suit_contract_belot_counts_whatever_the_play():
    st = play_deal(DEAL_S, "S")
    assert st.result().belot == (0, 20)


def test_deal_all_trumps_belot_kept_when_led():
    # AT, dealer 0: seat 1 leads KS.
    st = play_deal(DEAL_S, "AT", opening="KS", dealer=0)
    assert st.result().belot == (0, 20)


def test_deal_all_trumps_belot_kept_when_following_suit():
    # AT, dealer 2: seat 3 leads 9S, seat 0 (void in spades) plays 7C, seat 1 follows with QS
    # (it cannot beat 9S, so any spade is legal).
    st = play_deal(DEAL_S, "AT", opening="9S 7C QS", dealer=2)
    assert st.result().belot == (0, 20)


def test_deal_all_trumps_belot_lost_when_discarded():
    # AT, dealer 3: seat 0 leads AC, seat 1 (void in clubs) discards QS: the belot is lost,
    # even though KS is played later.
    st = play_deal(DEAL_S, "AT", opening="AC QS")
    assert st.result().belot == (0, 0)
    assert st.result().declared == (150, 0)


def test_deal_all_trumps_belot_lost_when_king_discarded_first():
    st = play_deal(DEAL_S, "AT", opening="AC KS")
    assert st.result().belot == (0, 0)


def test_deal_belot_counts_in_raw_points():
    # The 20 of a belot is part of the team's raw total (docs/rules.md §7 step 1).
    kept = play_deal(DEAL_S, "AT", opening="KS", dealer=0).result()
    assert kept.raw[1] == kept.trick_points[1] + kept.declared[1] + 20 + (90 if kept.valat == 1 else 0)
