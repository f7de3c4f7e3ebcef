"""The card players ``random``/``easy``/``normal``/``hard`` (docs/rules.md §5, §11).

* legality: every card these players play in ``simulate`` is legal in the reference engine,
  and the rows it produces are identical to the reference's;
* the public view (players/view.py) is sound: it mirrors the reference state and its
  inferred exclusions never name a card the seat still holds (and name exactly the cards
  whose presence would have made the played card illegal);
* players never read hidden cards: rearranging the other seats' unplayed cards in any way
  consistent with the view changes nothing a player sees, so nothing it plays;
* determinism with seeds, threads and deal ranges;
* the named tactics of §11 on hand-built positions;
* the ladder random < easy < normal < hard in duplicate tournaments, and the tournament
  table's shape;
* bad player names.
"""

from __future__ import annotations

import dataclasses
import inspect
import random

import numpy as np
import pandas as pd
import pytest

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.game.cards import format_card, iter_cards, parse_card
from belot_sim.engine.registry import PLAYER_CODES, player_codes
from belot_sim.kernels.core import layouts as L
from belot_sim.kernels.players.judging import choose_card
from belot_sim.game.rules import STRENGTH, TRUMP_MASKS
from belot_sim.simulation.deals import simulate
from belot_sim.simulation.tournament import tournament
from helpers import family_of, fresh_view, mask, play_card, random_deal, relayout, replay_and_compare


STRATEGIC = ("easy", "normal", "hard", "neural")
PLAYER_SETS = {"easy": "easy", "normal": "normal", "hard": "hard", "neural": "neural",
               "mixed": ("hard", "random", "normal", "easy"), "mixed-neural": ("neural", "hard", "neural", "random")}
LEGALITY_RULES = {
    "bulgarian": bs.BULGARIAN,
    "bulgarian-strict": bs.BULGARIAN.replace(undertrump="required", at_overtake_partner=False),
    "classic-all": bs.CLASSIC.replace(all_no_trumps=True, declarations=True),
}
#: Every combination of the play options, in both families (all six contracts playable).
VIEW_RULES = [family.replace(undertrump=u, at_overtake_partner=o)
              for family in (bs.BULGARIAN, bs.CLASSIC.replace(all_no_trumps=True))
              for u in ("free", "required") for o in (True, False)]


# --- helpers ------------------------------------------------------------------------------

def position(hands, contract, declarer, plays=(), dealer=3, rules=bs.BULGARIAN):
    """A reference state after ``plays`` (card texts) and the matching public view."""
    state = ref.DealState.from_hands(hands, contract=contract, declarer=declarer, dealer=dealer, rules=rules)
    view = fresh_view(state)
    for text in plays:
        play_card(state, view, parse_card(text))
    return state, view


def choose(player: str, state: ref.DealState, view: np.ndarray, r32: int = 0) -> int:
    """The card ``player`` plays for the seat to move (arguments exactly as the kernels pass them)."""
    seat = state.to_move
    card = int(choose_card(PLAYER_CODES[player], state.legal_mask(), np.uint64(r32), state.hands[seat], seat,
                           view, family_of(state.rules)))
    assert state.legal_mask() >> card & 1, (player, format_card(card))
    return card


def power(card: int, contract: int) -> int:
    """docs/rules.md §11 / tactics.py: strength within the suit, plus 8 for a trump."""
    return int(STRENGTH[contract, card]) + (8 if int(TRUMP_MASKS[contract]) >> card & 1 else 0)


def weakest_key(card: int, contract: int, rules) -> tuple[int, int]:
    return power(card, contract), int(rules.card_points(contract)[card])


# --- 1. legality --------------------------------------------------------------------------

@pytest.mark.parametrize("rules_name", sorted(LEGALITY_RULES))
@pytest.mark.parametrize("players_name", sorted(PLAYER_SETS))
def test_players_play_only_legal_cards(players_name, rules_name):
    """Every card is legal in the reference engine and every result row identical."""
    rules = LEGALITY_RULES[rules_name]
    players = PLAYER_SETS[players_name]
    deals, plays = simulate(300, rules=rules, players=players, seed=31, plays=True)
    assert replay_and_compare(deals, plays, rules, check_steps=True) == 300
    assert set(deals["contract"].astype(str)) == {"C", "D", "H", "S", "NT", "AT"}


def test_easy_always_plays_a_weakest_legal_card():
    """§11 easy, checked on every decision of simulated deals (independent power/points)."""
    rules = bs.BULGARIAN.replace(undertrump="required")
    players = ("easy", "random", "easy", "random")
    deals, plays = simulate(150, rules=rules, players=players, seed=4, plays=True)
    played = plays["card"].to_numpy().reshape(-1, 32)
    checked = 0
    for i, row in enumerate(deals.itertuples(index=False)):
        state = ref.DealState.from_hands([getattr(row, f"hand{s}") for s in range(4)], contract=str(row.contract),
                                         declarer=int(row.declarer), dealer=int(row.dealer), rules=rules)
        contract = int(state.contract)
        for k in range(32):
            card = int(played[i, k])
            if players[state.to_move] == "easy":
                legal = state.legal_actions()
                best = min(weakest_key(c, contract, rules) for c in legal)
                assert weakest_key(card, contract, rules) == best, (i, k, format_card(card))
                checked += 1
            state.play(card)
    assert checked == 150 * 16


# --- 2. the public view -------------------------------------------------------------------

def excluded_oracle(state: ref.DealState, card: int) -> int:
    """Cards whose presence in the mover's hand would have made ``card`` illegal."""
    seat = state.to_move
    hand = state.hands[seat]
    mask = 0
    for x in range(32):
        if not hand >> x & 1:
            if not ref.legal_cards(hand | 1 << x, state.trick, seat, state.contract, state.rules) >> card & 1:
                mask |= 1 << x
    return mask


def check_view_matches(state: ref.DealState, view: np.ndarray) -> None:
    played_by = [0, 0, 0, 0]
    for seat, card in state.plays:
        played_by[seat] |= 1 << card
    assert view[L.V_PLAYED] == sum(1 << c for _, c in state.plays)
    assert [int(view[L.V_PLAYED_BY + s]) for s in range(4)] == played_by
    assert view[L.V_TRICK] == state.trick_number
    assert view[L.V_POS] == len(state.trick)
    assert view[L.V_LEADER] == state.leader
    assert view[L.V_CONTRACT] == int(state.contract) and view[L.V_DECLARER] == state.declarer
    assert view[L.V_ON_TABLE] == sum(1 << c for _, c in state.trick)
    points = state.rules.card_points(state.contract)
    assert view[L.V_TABLE_POINTS] == sum(int(points[c]) for _, c in state.trick)
    if not state.is_over:  # the points of the tricks each team won (the last trick's 10 aside)
        assert [int(view[L.V_POINTS_WON + t]) for t in range(2)] == state.trick_points
    if state.trick:
        assert view[L.V_LED] == state.trick[0][1] >> 3
        trick_cards = [c for _, c in state.trick]
        winner_seat, winner_card = state.trick[ref.trick_winner(trick_cards, state.contract)]
        assert (view[L.V_WINNING], view[L.V_WINNER]) == (winner_card, winner_seat)
    else:
        assert view[L.V_LED] == -1
        assert view[L.V_WINNER] == state.leader  # the seat that won the last trick leads
    assert (view[L.V_DEALER], view[L.V_MULTIPLIER]) == (state.dealer, state.multiplier)
    won = [0, 0]
    for trick in state.completed_tricks():
        won[trick[ref.trick_winner([c for _, c in trick], state.contract)][0] & 1] |= sum(1 << c for _, c in trick)
    assert [int(view[L.V_WON + t]) for t in range(2)] == won
    for s in range(4):
        held = view[L.V_EXCLUDED + s] & state.hands[s]
        assert held == 0, f"view excludes {bs.format_cards(int(held))} from seat {s}, which holds them"


@pytest.mark.parametrize("index", range(len(VIEW_RULES)),
                         ids=[f"{r.family}-{r.undertrump}-overtake{r.at_overtake_partner}" for r in VIEW_RULES])
def test_view_is_sound_and_mirrors_the_reference(index):
    rules = VIEW_RULES[index]
    rng = random.Random(1000 + index)
    seen = {"void": 0, "void_no_trump": 0, "followed_without_beating": 0, "under_trump": 0}
    for d in range(100):
        contract = rules.contracts[d % 6]
        trumps = int(TRUMP_MASKS[int(contract)])
        state = random_deal(rng, contract, rules)
        view = fresh_view(state)
        check_view_matches(state, view)
        while not state.is_over:
            seat = state.to_move
            card = rng.choice(state.legal_actions())
            before = int(view[L.V_EXCLUDED + seat])
            oracle = 0
            if state.trick:
                oracle = excluded_oracle(state, card)
                led = 0xFF << 8 * (state.trick[0][1] >> 3)
                winning = state.trick[ref.trick_winner([c for _, c in state.trick], contract)][1]
                seen["void"] += oracle & led == led
                seen["void_no_trump"] += oracle & led == led and oracle & trumps & ~led != 0
                seen["followed_without_beating"] += 0 < oracle & led != led
                # a lower trump shown missing: only when undertrumping is required
                lower = sum(1 << x for x in iter_cards(trumps) if not ref.beats(x, winning, contract))
                seen["under_trump"] += trumps >> winning & 1 and oracle & lower != 0 and led & trumps == 0
            trick_ends = len(state.trick) == 3
            assert play_card(state, view, card) == trick_ends
            # Exactly the cards the rules show the seat cannot hold (sound and complete).
            assert view[L.V_EXCLUDED + seat] == before | oracle, (d, seat, format_card(card))
            check_view_matches(state, view)
    assert seen["void"] > 0 and seen["followed_without_beating"] > 0 and seen["void_no_trump"] > 0, seen
    assert (seen["under_trump"] > 0) == (rules.undertrump == "required"), seen


def test_view_exclusions_on_a_hand_built_trick():
    """Heart contract: seat 1 does not follow spades and does not trump -> no spades, no trumps."""
    hands = ["AS 7S 8S 9S 7C 8C 9C TC", "AC KC QC JC 7D 8D 9D TD",
             "KS QS JS TS JD QD KD AD", "7H 8H 9H TH JH QH KH AH"]
    state, view = position(hands, "H", declarer=0, plays=["7S", "AC"])
    assert view[L.V_EXCLUDED + 1] == mask("7S 8S 9S TS JS QS KS AS") | TRUMP_MASKS[2]
    assert view[L.V_EXCLUDED + 0] == view[L.V_EXCLUDED + 2] == view[L.V_EXCLUDED + 3] == 0
    play_card(state, view, parse_card("KS"))  # seat 2 follows: nothing inferred in a plain suit
    assert view[L.V_EXCLUDED + 2] == 0
    play_card(state, view, parse_card("7H"))  # seat 3 trumps: void in spades only
    assert view[L.V_EXCLUDED + 3] == mask("7S 8S 9S TS JS QS KS AS")
    assert (view[L.V_TRICK], view[L.V_LEADER], view[L.V_POS]) == (1, 3, 0)


# --- 3. no peeking ------------------------------------------------------------------------

def test_choose_card_has_no_argument_for_other_hands():
    params = list(inspect.signature(choose_card.py_func).parameters)
    assert params == ["player", "legal", "r32", "hand", "seat", "view", "family"]
    # The view's slots (players/view.py): none holds another seat's unshown cards; a new slot must be checked.
    assert [slot.name for slot in L.VIEW.slots] == [
        "PLAYED", "TRICK", "POS", "LED", "WINNING", "WINNER", "TABLE_POINTS", "CONTRACT", "DECLARER", "LEADER",
        "UNDERTRUMP_REQUIRED", "AT_OVERTAKE_PARTNER", "PLAYED_BY", "EXCLUDED", "ON_TABLE", "KNOWN", "TRICK_CARD",
        "TRICKS_WON", "POINTS_WON", "WON", "DEALER", "MULTIPLIER", "TURNED"]


def test_choices_do_not_depend_on_hidden_cards():
    rng = random.Random(77)
    positions = changed = 0
    for i in range(120):
        rules = VIEW_RULES[i % len(VIEW_RULES)]
        state = random_deal(rng, rules.contracts[i % 6], rules)
        view = fresh_view(state)
        for _ in range(rng.randrange(4, 29)):
            play_card(state, view, rng.choice(state.legal_actions()))
        me = state.to_move
        r32 = rng.getrandbits(32)
        before = {p: choose(p, state, view, r32) for p in STRATEGIC + ("random",)}

        current = relayout(state, view, rng)
        changed += current != state.hands
        played_by = [0, 0, 0, 0]
        for seat, card in state.plays:
            played_by[seat] |= 1 << card
        initial = [current[s] | played_by[s] for s in range(4)]
        assert initial[me] == state.initial_hands[me]
        other = ref.DealState.from_hands(initial, contract=state.contract, declarer=state.declarer,
                                         dealer=state.dealer, rules=rules)
        other_view = fresh_view(other)
        for _, card in state.plays:  # the same history is legal in the new layout
            play_card(other, other_view, card)
        assert other.hands == current
        assert np.array_equal(other_view, view)
        assert other.legal_mask() == state.legal_mask() and other.hands[me] == state.hands[me]
        after = {p: choose(p, other, other_view, r32) for p in STRATEGIC + ("random",)}
        assert after == before, i
        positions += 1
    assert positions == 120
    assert changed >= 100  # the layouts really were different


# --- 4. determinism -----------------------------------------------------------------------

def test_same_seed_same_deals_and_plays():
    first = simulate(400, players="hard", seed=9, plays=True)
    second = simulate(400, players="hard", seed=9, plays=True)
    pd.testing.assert_frame_equal(first[0], second[0])
    pd.testing.assert_frame_equal(first[1], second[1])
    other = simulate(400, players="hard", seed=10, plays=True)
    assert not first[0].equals(other[0])
    assert not np.array_equal(first[1]["card"].to_numpy(), other[1]["card"].to_numpy())
    # Names are case-insensitive and one name means four equal seats.
    same = simulate(400, players=("HARD", "hard", "Hard", "hard"), seed=9)
    pd.testing.assert_frame_equal(first[0], same)


def test_players_change_plays_but_not_the_cards():
    a = simulate(200, players="hard", seed=3)
    b = simulate(200, players="easy", seed=3)
    columns = ["dealer", "contract", "declarer", "hand0", "hand1", "hand2", "hand3"]
    pd.testing.assert_frame_equal(a[columns], b[columns])
    assert not a["raw0"].equals(b["raw0"])


# --- 5. named tactics on hand-built positions --------------------------------------------
# Hearts (H) is trump unless said otherwise; the dealer is seat 3, so seat 0 leads first.

def test_easy_plays_the_weakest_legal_card():
    hands = ["JH 7H AS KS 8C QD TD 9S", "7C 9C TC JC QC KC AC 7D",
             "8D 9D JD KD AD 8H 9H TH", "QH KH AH 7S 8S TS JS QS"]
    state, view = position(hands, "H", declarer=0)
    assert choose("easy", state, view) == parse_card("8C")  # least power; a trump 7 has power 8
    # A plain Q (3 points) is still weaker than the lowest trump.
    hands = ["QS KD AD TS 7H 8H 9H JH", "7C 8C 9C TC JC QC KC AC",
             "7D 8D 9D TD JD QD 7S 8S", "9S JS KS AS TH QH KH AH"]
    state, view = position(hands, "H", declarer=0)
    assert choose("easy", state, view) == parse_card("QS")
    # Void, partner winning (any card): the plain 7 rather than the trump 7.
    hands = ["7S 9S TS JS QS KS 7C 8C", "AS 8D 9D TD JD QD KD AD",
             "8S 9C TC JC QC KC AC AH", "7H 8H 9H TH JH QH KH 7D"]
    state, view = position(hands, "D", declarer=0, plays=["7S", "AS", "8S"])
    assert state.legal_mask() == state.hands[3]
    assert choose("easy", state, view) == parse_card("7H")
    # Void, an opponent winning with a plain card: must trump; the lowest trump.
    hands = ["7S 8S 9S TS JS QS KS AS", "7D 8D 9D TD JD QD KD AD",
             "AC KC QC JC TC 9C 8C 7C", "7H 8H 9H TH JH QH KH AH"]
    state, view = position(hands, "D", declarer=0, plays=["7S"])
    assert state.legal_mask() == mask("7D 8D 9D TD JD QD KD AD")
    assert choose("easy", state, view) == parse_card("7D")
    # All trumps: every card is a trump, so the lowest in trump order (no 7 here: the 8).
    state, view = position(["QS 9C JC 8H AD TD KD JD", "7C 8C TC QC KC AC 7S 8S",
                            "QD 9D 7D 7H 9H TH JH QH", "9S TS JS KS AS KH AH 8D"], "AT", declarer=0)
    assert choose("easy", state, view) == parse_card("8H")
    # No trumps: plain order, the 9 (strength 2) before the J (strength 3).
    state, view = position(["QS 9C JC TH AD TD KD JD", "7C 8C TC QC KC AC 7S 8S",
                            "QD 9D 7D 7H 9H 8H JH QH", "9S TS JS KS AS KH AH 8D"], "NT", declarer=0)
    assert choose("easy", state, view) == parse_card("9C")


CHEAP_WIN_HANDS = ["KS 7C 8C 9C TC JC QC KC", "7S AC 7D 8D 9D TD JD QD",
                   "8S KD AD 7H 8H 9H TH QH", "AS TS JH 9S JS QS KH AH"]


@pytest.mark.parametrize("player", ["normal", "hard"])
def test_last_to_play_wins_as_cheaply_as_possible(player):
    # Seat 0 (opponent of seat 3) wins with KS; seat 3 last holds AS and TS: TS is enough.
    state, view = position(CHEAP_WIN_HANDS, "H", declarer=0, plays=["KS", "7S", "8S"])
    assert state.to_move == 3 and (view[L.V_WINNER] ^ 3) & 1 == 1
    assert choose(player, state, view) == parse_card("TS")
    # Void in the led suit, an opponent winning with a plain card: the lowest trump wins it.
    hands = ["AD 7C 8C 9C TC JC QC KC", "7D AC 7S 8S 9S TS JS QS",
             "8D KS AS KD QD JD TD 9D", "7H 8H 9H TH JH QH KH AH"]
    state, view = position(hands, "H", declarer=0, plays=["AD", "7D", "8D"])
    assert choose(player, state, view) == parse_card("7H")


@pytest.mark.parametrize("player", ["normal", "hard"])
def test_ducks_with_the_cheapest_card_when_it_cannot_win(player):
    hands = ["AS 7C 8C 9C TC JC QC KC", "8S AC 7D 8D 9D TD JD QD",
             "9S KD AD 7H 8H 9H TH QH", "7S QS KS TS JH JS KH AH"]
    state, view = position(hands, "H", declarer=0, plays=["AS", "8S", "9S"])
    assert state.legal_mask() == mask("7S QS KS TS JS")
    assert choose(player, state, view) == parse_card("7S")


@pytest.mark.parametrize("player", ["normal", "hard"])
def test_throws_points_on_partners_trick_when_last(player):
    # Seat 1 (partner of seat 3) wins with AC; seat 3 is void in clubs: a plain 10, not a trump,
    # and not the master JH.
    hands = ["7C 7S 8S 9S QS KS AS QH", "AC 8D 9D QD KD AD 9H AH",
             "8C 9C TC JC QC KC JS 7H", "TD KH 7D JD TS 8H JH TH"]
    state, view = position(hands, "H", declarer=0, plays=["7C", "AC", "8C"])
    assert state.to_move == 3 and state.legal_mask() == state.hands[3]
    assert choose(player, state, view) == parse_card("TD")
    # Without a plain 10, the plain K (no master: AS and TS are out).
    hands = ["7C 7S 8S TS QS AS QH TD", "AC 8D 9D QD KD AD 9H AH",
             "8C 9C TC JC QC KC JS 7H", "9S KS 7D JD 8H JH TH KH"]
    state, view = position(hands, "H", declarer=0, plays=["7C", "AC", "8C"])
    assert choose(player, state, view) == parse_card("KS")


def _at_discard(seat3: str, plays: list[str], rules=bs.BULGARIAN) -> tuple[ref.DealState, np.ndarray]:
    """An all-trumps position after ``plays`` (clubs led by seat 0) with seat 3, void in clubs,
    holding ``seat3``; the other cards are dealt in turn to seats 0-2, the clubs first (seat 0:
    8C 9C KC, seat 1: JC AC QC, seat 2: 7C TC)."""
    rest = [c for c in ("8C JC 7C 9C AC TC KC QC " + " ".join(
        f"{r}{s}" for s in "DHS" for r in "J9ATKQ87")).split() if c not in seat3.split()]
    hands = [" ".join(rest[k::3]) for k in range(3)] + [seat3]
    return position(hands, "AT", declarer=0, plays=plays, rules=rules)


CLASSIC_AT = dataclasses.replace(bs.Rules.coerce("classic"), all_no_trumps=True)


@pytest.mark.parametrize("rules", [bs.BULGARIAN, CLASSIC_AT], ids=["bulgarian", "classic"])
@pytest.mark.parametrize("player", ["normal", "hard"])
def test_all_trumps_belot_pair_is_kept_while_a_cheap_card_will_do(player, rules):
    # The same cards in both families: the rule goes by rank (classic's A is worth 6, its 10 5).
    # Partner (seat 1) wins the trick: without the rule the richest spare card, the KS of the pair.
    state, view = _at_discard("KS QS 7S 8S 7H 8H 7D 8D", ["8C", "JC", "7C"], rules)
    assert state.to_move == 3 and view[L.V_WINNER] == 1
    assert format_card(choose(player, state, view)) not in ("KS", "QS")
    # An opponent wins: the duck would be the QS (the weakest card); the unpaired KH instead.
    state, view = _at_discard("KS QS KH AH TH AD TD 9D", ["8C", "QC", "TC"], rules)
    assert state.to_move == 3 and view[L.V_WINNER] == 2
    assert choose(player, state, view) == parse_card("KH")
    # Nothing under 10 points but the pair: the QS as before (an A, 10 or 9 would cost more).
    state, view = _at_discard("KS QS AH TH AD TD 9H 9D", ["8C", "QC", "TC"], rules)
    assert choose(player, state, view) == parse_card("QS")


def test_easy_does_not_throw_points_on_partners_trick():
    hands = ["7C 7S 8S 9S QS KS AS QH", "AC 8D 9D QD KD AD 9H AH",
             "8C 9C TC JC QC KC JS 7H", "TD KH 7D JD TS 8H JH TH"]
    state, view = position(hands, "H", declarer=0, plays=["7C", "AC", "8C"])
    assert choose("easy", state, view) == parse_card("7D")


TRUMP_LEAD_HANDS = ["JH 9H 7H AS 7C 8C 8D 9D", "AH TH 7S 8S 9C TC JC QC",
                    "KH QH 9S TS KC AC 7D TD", "8H JS QS KS JD QD KD AD"]


@pytest.mark.parametrize("player", ["normal", "hard"])
def test_bidding_team_draws_trumps_with_a_master_trump(player):
    state, view = position(TRUMP_LEAD_HANDS, "H", declarer=0)
    card = choose(player, state, view)
    assert card in (parse_card("JH"), parse_card("9H"))  # the masters: J, and 9 under one's own J
    assert card == parse_card("9H")  # the cheapest master keeps the J on top
    # The defenders do not draw trumps: they cash the plain master AS.
    state, view = position(TRUMP_LEAD_HANDS, "H", declarer=1)
    assert choose(player, state, view) == parse_card("AS")


VOID_OPPONENTS_HANDS = ["7H TH QH 7S 8S 9S 7D 8D", "7C 8C 9C TC JC QC KC AC",
                        "8H 9H JH KH AH AS TS AD", "9D TD JD QD KD JS QS KS"]


def test_hard_does_not_draw_trumps_the_opponents_cannot_hold():
    # Trick 1: trump led, both opponents discard -> they hold no trumps; seat 2 (bidding
    # side, masters JH 9H AH) leads: no point in drawing trumps, cash a plain ace instead.
    state, view = position(VOID_OPPONENTS_HANDS, "H", declarer=0, plays=["7H", "7C", "8H", "9D"])
    assert state.to_move == 2
    assert view[L.V_EXCLUDED + 1] & TRUMP_MASKS[2] == TRUMP_MASKS[2] == view[L.V_EXCLUDED + 3] & TRUMP_MASKS[2]
    card = choose("hard", state, view)
    assert not TRUMP_MASKS[2] >> card & 1
    assert card in (parse_card("AD"), parse_card("AS"))


def wiped(view: np.ndarray) -> np.ndarray:
    """What a seat without card memory knows: the trick on the table, nothing earlier."""
    out = view.copy()
    out[L.V_PLAYED] = view[L.V_ON_TABLE]
    for s in range(4):
        out[L.V_PLAYED_BY + s] = view[L.V_PLAYED_BY + s] & view[L.V_ON_TABLE]
        out[L.V_EXCLUDED + s] = 0
    return out


def test_normal_has_no_card_memory():
    """judge.py/knowledge.py: normal "has no card memory: it only knows its own hand and the
    trick on the table"; voids shown in earlier tricks are hard's knowledge only."""
    state, view = position(VOID_OPPONENTS_HANDS, "H", declarer=0, plays=["7H", "7C", "8H", "9D"])
    with_history = choose("normal", state, view)
    without_history = choose("normal", state, wiped(view))
    assert with_history == without_history, (format_card(with_history), format_card(without_history))


MEMORY_HANDS = ["AS TS 7C 8C 9D 8D 7H 8H", "7S 9C TC JC 7D TD 9H TH",
                "8S QC KC JD QD JH QH JS", "9S AC KD AD KH AH QS KS"]


def test_hard_remembers_the_ace_and_cashes_the_master_ten():
    # Seat 0 (a defender) led AS in trick 1 and leads again: TS is now the master of spades.
    state, view = position(MEMORY_HANDS, "H", declarer=1, plays=["AS", "7S", "8S", "9S"])
    assert state.to_move == 0
    assert choose("hard", state, view) == parse_card("TS")
    normal = choose("normal", state, view)
    assert normal != parse_card("TS")  # without memory AS may be anywhere: TS is no master
    assert normal == parse_card("7C")  # low from the longest plain suit (clubs, first of the ties)


def test_hard_keeps_a_remembered_master_when_giving_points():
    # Trick 1 took AD and TD; in trick 2 partner (seat 1) wins with AS and seat 3, last and
    # void in spades, gives points.  For hard, KD is the master of diamonds -> keep it.
    hands = ["AD 7S 9C TC 9D JD 9H TH", "TD AS KC AC QD JH QH 9S",
             "7D 8S KH AH TS JS QS KS", "8D KD 7C 8C JC QC 7H 8H"]
    state, view = position(hands, "H", declarer=1, plays=["AD", "TD", "7D", "8D", "7S", "AS", "8S"])
    assert state.to_move == 3
    assert choose("normal", state, view) == parse_card("KD")  # richest plain non-master it sees
    assert choose("hard", state, view) == parse_card("QC")


def test_hard_does_not_cash_into_an_opponents_void():
    # Seat 3 (an opponent of seat 0) showed void in diamonds and may hold trumps: hard does not
    # lead AD into the ruff; normal (no memory) cashes it.
    hands = ["7D AD AS 7C 8C 9C 7H 8H", "TD 7S 9D JD TC JC 9H TH",
             "8D 8S QD KD QS KS AC QH", "9S QC KC JH KH AH TS JS"]
    state, view = position(hands, "H", declarer=1, plays=["7D", "TD", "8D", "QC", "7S", "8S", "9S", "AS"])
    assert state.to_move == 0
    assert choose("normal", state, view) == parse_card("AD")
    assert choose("hard", state, view) == parse_card("7C")


# --- 6. the ladder and the tournament table -----------------------------------------------

@pytest.mark.parametrize("a, b, seed", [("easy", "random", 1), ("normal", "easy", 2), ("hard", "normal", 3)])
def test_ladder(a, b, seed):
    result = tournament(a, b, 4000, seed=seed)
    assert result.table.loc["all", "ci_low"] > 0, result


def check_table(table: pd.DataFrame, n: int) -> None:
    assert list(table.columns) == ["deals", "mean_edge", "ci_low", "ci_high", "a_better", "b_better", "equal"]
    assert table.index.name == "contract"
    assert table.index[-1] == "all" and set(table.index[:-1]) <= {"C", "D", "H", "S", "NT", "AT"}
    per_contract = table.drop(index="all")
    assert per_contract["deals"].sum() == table.loc["all", "deals"] == n
    fractions = table[["a_better", "b_better", "equal"]].sum(axis=1)
    assert np.allclose(fractions, 1.0)
    assert (table["ci_low"] <= table["mean_edge"]).all() and (table["mean_edge"] <= table["ci_high"]).all()
    weighted = (per_contract["mean_edge"] * per_contract["deals"]).sum() / n
    assert weighted == pytest.approx(table.loc["all", "mean_edge"])


def test_tournament_table_is_well_formed_and_matches_its_definition():
    n = 600
    result = tournament("normal", "random", n, seed=8)
    table = result.table
    check_table(table, n)
    assert list(table.index) == ["C", "D", "H", "S", "NT", "AT", "all"]
    assert result.metadata() == {"a": "normal", "b": "random", "n": n, "seed": 8}
    assert result.edge == table.loc["all", "mean_edge"]
    # The edge of a deal: a's raw points minus b's, averaged over the two seatings.
    first = simulate(n, players=("normal", "random", "normal", "random"), seed=8)
    second = simulate(n, players=("random", "normal", "random", "normal"), seed=8)
    edge = ((first["raw0"].astype(int) - first["raw1"].astype(int))
            + (second["raw1"].astype(int) - second["raw0"].astype(int))) / 2
    assert table.loc["all", "mean_edge"] == pytest.approx(edge.mean())
    assert table.loc["all", "a_better"] == pytest.approx((edge > 0).mean())
    half = 1.959963984540054 * edge.std(ddof=1) / np.sqrt(n)
    assert table.loc["all", "ci_low"] == pytest.approx(edge.mean() - half)
    # Same cards for both seatings.
    pd.testing.assert_series_equal(first["hand0"], second["hand0"])

    one = tournament("hard", "easy", 300, seed=8, contract="S", declarer=1).table
    check_table(one, 300)
    assert list(one.index) == ["S", "all"]


@pytest.mark.parametrize("player", ["random", "easy", "hard"])
def test_tournament_of_a_player_against_itself_is_exactly_even(player):
    """Both seatings play the same deals with the same random streams and identical players,
    so the two plays are the same game and every deal's edge is exactly 0 (random included)."""
    table = tournament(player, player, 500, seed=5).table
    check_table(table, 500)
    assert (table["mean_edge"] == 0).all() and (table["equal"] == 1).all()
    assert table.loc["all", "ci_low"] <= 0 <= table.loc["all", "ci_high"]


def test_tournament_sums_add_up_exactly_over_any_blocks():
    """The table is made from integer sums per block (memory independent of ``n``): two blocks add
    up to the sums of one, and the sums are those of the per-deal edges."""
    from belot_sim.simulation.tournament import SUM_COLUMNS, duplicate_edges, duplicate_plans, duplicate_sums

    first, second = duplicate_plans("hard", "normal", rules="bulgarian", contract=None, declarer=None,
                                    bidders="heuristic", seed=4, worlds=20, bidder_options=None)
    whole = duplicate_sums(first, second, 0, 900)
    halves = duplicate_sums(first, second, 0, 400) + duplicate_sums(first, second, 400, 500)
    np.testing.assert_array_equal(whole, halves)
    edge, contract = duplicate_edges(first, second, 0, 900)
    assert whole.shape == (7, len(SUM_COLUMNS)) and whole[:, 0].sum() == 900
    assert whole[-1, 0] == pd.isna(contract).sum() > 0  # void deals: the last row
    for row, code in enumerate(["C", "D", "H", "S", "NT", "AT"]):
        chosen = edge[contract == code]
        assert list(whole[row]) == [len(chosen), 2 * chosen.sum(), (4 * chosen * chosen).sum(), (chosen > 0).sum(),
                                    (chosen < 0).sum()]


def test_tournament_is_antisymmetric():
    ab = tournament("easy", "random", 500, seed=6).table
    ba = tournament("random", "easy", 500, seed=6).table
    assert np.allclose(ab["mean_edge"], -ba["mean_edge"])
    assert np.allclose(ab["ci_low"], -ba["ci_high"])
    assert np.allclose(ab["a_better"], ba["b_better"]) and np.allclose(ab["equal"], ba["equal"])


# --- 7. bad input -------------------------------------------------------------------------

AVAILABLE = ("easy", "hard", "normal", "random")


@pytest.mark.parametrize("players", ["grandmaster", ("hard", "random", "normal", "champion"),
                                     ("hard", 3, "normal", "easy")])
def test_unknown_player_names_are_rejected(players):
    with pytest.raises(ValueError) as info:
        simulate(10, players=players)
    assert all(name in str(info.value) for name in AVAILABLE), str(info.value)
    with pytest.raises(ValueError):
        player_codes(players)


def test_unknown_player_in_a_tournament_is_rejected():
    with pytest.raises(ValueError) as info:
        tournament("hard", "grandmaster", 10)
    assert "grandmaster" in str(info.value)
    assert all(name in str(info.value) for name in AVAILABLE)


@pytest.mark.parametrize("players", [("hard", "easy"), ("hard",) * 5, ()])
def test_wrong_number_of_players_is_rejected_naming_the_players(players):
    with pytest.raises(ValueError) as info:
        simulate(10, players=players)
    assert all(name in str(info.value) for name in AVAILABLE), str(info.value)
