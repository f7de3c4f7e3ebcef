"""Property tests of the reference engine over random deals and random legal play.

Every example draws a deal (a ``random.Random(seed)`` shuffle of the 32 cards), a
contract, a rule preset/options, the declarer/dealer/multiplier and a play seed, then
plays the deal to the end with uniformly random legal cards and checks the invariants of
docs/rules.md §1, §2, §5, §6, §7 and §8.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.game.rules import Contract
from helpers import random_hands

CLASSIC_ALL = bs.CLASSIC.replace(all_no_trumps=True)  # so classic AT/NT exist
CONTRACTS = ["C", "D", "H", "S", "NT", "AT"]

# --- an independent oracle written from docs/rules.md §2/§5 (not from belot_sim.game.rules) -------
RANKS = "789TJQKA"
_TRUMP_HIGH_TO_LOW = "J9ATKQ87"
_PLAIN_HIGH_TO_LOW = "ATKQJ987"
TRUMP_STRENGTH = {RANKS.index(r): 7 - i for i, r in enumerate(_TRUMP_HIGH_TO_LOW)}
PLAIN_STRENGTH = {RANKS.index(r): 7 - i for i, r in enumerate(_PLAIN_HIGH_TO_LOW)}
POINTS = {  # by rank index 7 8 9 T J Q K A
    "trump": [0, 0, 14, 10, 20, 3, 4, 11],
    "plain": [0, 0, 0, 10, 2, 3, 4, 11],
    "classic_at": [0, 0, 9, 5, 13, 2, 3, 6],
    "classic_nt": [0, 0, 0, 10, 2, 3, 4, 19],
}


def _is_trump(card: int, contract: str) -> bool:
    return contract == "AT" or (contract in "CDHS" and card >> 3 == "CDHS".index(contract))


def oracle_winner(trick: list[int], contract: str) -> int:
    """Position of the winning card of a full trick (docs/rules.md §5 "Trick winner")."""
    trumps = [i for i, c in enumerate(trick) if contract in "CDHS" and _is_trump(c, contract)]
    if trumps:
        return max(trumps, key=lambda i: TRUMP_STRENGTH[trick[i] & 7])
    led = trick[0] >> 3
    order = TRUMP_STRENGTH if contract == "AT" else PLAIN_STRENGTH
    follow = [i for i, c in enumerate(trick) if c >> 3 == led]
    return max(follow, key=lambda i: order[trick[i] & 7])


def oracle_legal(hand: int, trick: list[tuple[int, int]], seat: int, contract: str, rules: bs.Rules) -> list[int]:
    """Legal cards by docs/rules.md §5, written independently of belot_sim.reference.play."""
    cards = [c for c in range(32) if hand >> c & 1]
    if not trick:
        return cards
    played = [c for _, c in trick]
    led = played[0] >> 3

    def strength(card):  # comparable strength of a card within the current trick
        if contract in "CDHS" and _is_trump(card, contract):
            return (2, TRUMP_STRENGTH[card & 7])
        if card >> 3 == led:
            return (1, (TRUMP_STRENGTH if contract == "AT" else PLAIN_STRENGTH)[card & 7])
        return (0, 0)

    win_pos = max(range(len(played)), key=lambda i: (strength(played[i]), -i))
    winning = played[win_pos]
    partner_winning = trick[win_pos][0] % 2 == seat % 2
    follow = [c for c in cards if c >> 3 == led]
    higher = [c for c in follow if strength(c) > strength(winning)]
    if contract == "NT":
        return follow or cards
    if contract == "AT":
        if not follow:
            return cards
        if partner_winning and not rules.at_overtake_partner:
            return follow
        return higher or follow
    trumps = [c for c in cards if _is_trump(c, contract)]
    if follow:
        if _is_trump(played[0], contract):
            return higher or follow
        return follow
    if partner_winning:
        return cards
    if _is_trump(winning, contract):
        over = [c for c in trumps if strength(c) > strength(winning)]
        if over:
            return over
        if rules.undertrump == "required" and trumps:
            return trumps
        return cards
    return trumps or cards


def oracle_points(card: int, contract: str, classic: bool) -> int:
    rank = card & 7
    if contract == "AT":
        return POINTS["classic_at" if classic else "trump"][rank]
    if contract == "NT":
        return POINTS["classic_nt" if classic else "plain"][rank]
    return POINTS["trump" if _is_trump(card, contract) else "plain"][rank]


def expected_total(contract: str, rules: bs.Rules) -> int:
    """docs/rules.md §2: 162 / 258 / 260 in bulgarian, always 162 in classic."""
    if rules.is_classic:
        return 162
    return {"AT": 258, "NT": 260}.get(contract, 162)


# --- strategies ---------------------------------------------------------------------------


@st.composite
def deals(draw):
    """(hands, kwargs for DealState.from_hands, play seed)."""
    seed = draw(st.integers(0, 2**32 - 1))
    contract = draw(st.sampled_from(CONTRACTS))
    family = draw(st.sampled_from(["bulgarian", "classic"]))
    base = bs.BULGARIAN if family == "bulgarian" else CLASSIC_ALL
    rules = base.replace(
        undertrump=draw(st.sampled_from(["free", "required"])),
        at_overtake_partner=draw(st.booleans()),
    )
    if draw(st.integers(0, 3)) == 0:  # sometimes the non-default declarations setting
        rules = rules.replace(declarations=not rules.declarations)
    multiplier = 1 if rules.is_classic else draw(st.sampled_from([1, 2, 4]))
    kwargs = dict(
        contract=contract,
        declarer=draw(st.integers(0, 3)),
        dealer=draw(st.integers(0, 3)),
        multiplier=multiplier,
        rules=rules,
    )
    return random_hands(seed), kwargs, draw(st.integers(0, 2**32 - 1))


def play_random(hands, kwargs, play_seed, on_step=None):
    """Play a whole deal with random legal cards; returns the finished state."""
    rng = random.Random(play_seed)
    state = ref.DealState.from_hands(hands, **kwargs)
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, "a player to move must always have a legal card"
        if on_step is not None:
            on_step(state, legal, rng)
        state.play(rng.choice(legal))
    return state


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- properties -----------------------------------------------------------------------------


@SETTINGS
@given(deals())
def test_every_card_played_once_by_its_owner(deal):
    hands, kwargs, play_seed = deal
    state = play_random(hands, kwargs, play_seed)
    plays = state.plays
    assert len(plays) == 32
    assert sorted(card for _, card in plays) == list(range(32))
    for seat in range(4):
        own = [card for s, card in plays if s == seat]
        assert len(own) == 8
        assert sum(1 << c for c in own) == hands[seat]
    assert state.hands == [0, 0, 0, 0]
    assert state.legal_actions() == []
    assert state.is_over


@SETTINGS
@given(deals())
def test_turn_order_and_tricks_match_oracle(deal):
    """The first speaker leads; each trick goes round in seat order; the winner leads next;
    legal cards, trick winners and trick points are what an independent reading of
    docs/rules.md §2/§5 gives."""
    hands, kwargs, play_seed = deal
    contract, rules = kwargs["contract"], kwargs["rules"]

    def check_legal(state, legal, rng):
        seat = state.to_move
        assert legal == oracle_legal(state.hands[seat], state.trick, seat, contract, rules)

    state = play_random(hands, kwargs, play_seed, on_step=check_legal)
    leader = (kwargs["dealer"] + 1) % 4
    points = [0, 0]
    tricks = [0, 0]
    last_team = None
    for t in range(8):
        trick = state.plays[4 * t:4 * t + 4]
        assert [seat for seat, _ in trick] == [(leader + i) % 4 for i in range(4)]
        cards = [card for _, card in trick]
        winner = trick[oracle_winner(cards, contract)][0]
        team = winner % 2
        points[team] += sum(oracle_points(c, contract, rules.is_classic) for c in cards)
        tricks[team] += 1
        last_team = team
        leader = winner
    points[last_team] += 10
    if contract == "NT" and not rules.is_classic:
        points = [2 * p for p in points]
    result = state.result()
    assert result.trick_points == tuple(points)
    valat = 0 if tricks[0] == 8 else 1 if tricks[1] == 8 else -1
    assert result.valat == valat


@SETTINGS
@given(deals())
def test_trick_points_total_and_raw_composition(deal):
    hands, kwargs, play_seed = deal
    contract, rules = kwargs["contract"], kwargs["rules"]
    result = play_random(hands, kwargs, play_seed).result()

    # conservation: exactly 162 / 258 / 260 (classic 162), valat or not
    assert sum(result.trick_points) == expected_total(contract, rules)
    assert all(p >= 0 for p in result.trick_points)
    if result.valat >= 0:
        assert result.trick_points[1 - result.valat] == 0
        assert result.trick_points[result.valat] == expected_total(contract, rules)

    # raw = trick points + declared + belot (+90 to the valat team)
    for team in (0, 1):
        valat_bonus = 90 if result.valat == team else 0
        assert result.raw[team] == (
            result.trick_points[team] + result.declared[team] + result.belot[team] + valat_bonus
        )

    # echo of the inputs
    assert result.contract == Contract.from_str(contract)
    assert result.declarer == kwargs["declarer"]
    assert result.dealer == kwargs["dealer"]
    assert result.multiplier == kwargs["multiplier"]
    assert result.hands == tuple(hands)
    assert result.bidding_team == kwargs["declarer"] % 2


def _belot_suits_of(hand: int, contract: str) -> int:
    suits = range(4) if contract == "AT" else [] if contract == "NT" else ["CDHS".index(contract)]
    return sum(1 for s in suits if hand >> (8 * s + 5) & 1 and hand >> (8 * s + 6) & 1)


def _oracle_belot(hands, plays, contract: str) -> tuple[int, int]:
    """docs/rules.md §6: K+Q of a trump suit in one hand score 20 when the first of the two is
    played in its own suit (led, followed or trumped); a discard on another suit loses it."""
    belot = [0, 0]
    if contract == "NT":
        return (0, 0)
    suits = range(4) if contract == "AT" else ["CDHS".index(contract)]
    for seat in range(4):
        for suit in suits:
            queen, king = 8 * suit + 5, 8 * suit + 6
            if not (hands[seat] >> queen & 1 and hands[seat] >> king & 1):
                continue
            i = next(i for i, (s, c) in enumerate(plays) if s == seat and c in (queen, king))
            led_suit = plays[i - i % 4][1] >> 3
            card_suit = plays[i][1] >> 3
            trumped = contract != "AT" and _is_trump(plays[i][1], contract)
            if led_suit == card_suit or trumped:
                belot[seat % 2] += 20
    return tuple(belot)


@SETTINGS
@given(deals())
def test_declarations_and_belot_only_add(deal):
    hands, kwargs, play_seed = deal
    contract, rules = kwargs["contract"], kwargs["rules"]
    state = play_random(hands, kwargs, play_seed)
    result = state.result()
    for team in (0, 1):
        assert result.declared[team] >= 0
        assert result.belot[team] >= 0
        assert result.belot[team] % 20 == 0
        # at most one belot per K+Q of a trump suit held by one player of the team
        held = sum(_belot_suits_of(hands[s], contract) for s in (team, team + 2))
        assert result.belot[team] <= 20 * held
        if contract in "CDHS":  # in a suit contract a held belot always counts
            assert result.belot[team] == 20 * held
    assert result.belot == _oracle_belot(hands, state.plays, contract)
    if contract == "NT":
        assert result.declared == (0, 0)
        assert result.belot == (0, 0)
    if not rules.declarations:
        assert result.declared == (0, 0)
    # declarations and belots never take points away
    for team in (0, 1):
        assert result.raw[team] >= result.trick_points[team] + result.belot[team]


@SETTINGS
@given(deals())
def test_replay_is_deterministic(deal):
    hands, kwargs, play_seed = deal
    first = play_random(hands, kwargs, play_seed)
    replay = ref.DealState.from_hands(hands, **kwargs)
    for seat, card in first.plays:
        assert replay.to_move == seat
        replay.play(card)
    assert replay.plays == first.plays
    assert replay.result() == first.result()
    # and playing with the same seed again gives the same sequence
    again = play_random(hands, kwargs, play_seed)
    assert again.plays == first.plays
    assert again.result() == first.result()


def _snapshot(state):
    return (
        list(state.hands),
        list(state.trick),
        list(state.plays),
        state.leader,
        state.to_move,
        list(state.trick_points),
        list(state.tricks_won),
        state.last_trick_team,
        dict(state.belot_decided),
        state.legal_actions(),
    )


@SETTINGS
@given(deals())
def test_undo_restores_the_state(deal):
    hands, kwargs, play_seed = deal

    def check_undo(state, legal, rng):
        before = _snapshot(state)
        for card in legal:  # try every legal card, then take it back
            state.play(card)
            state.undo()
            assert _snapshot(state) == before
            assert state.legal_actions() == legal

    state = play_random(hands, kwargs, play_seed, on_step=check_undo)
    result = state.result()
    # undo all the way back to the start, then replay: identical result
    plays = list(state.plays)
    for _ in range(32):
        state.undo()
    assert state.plays == []
    assert state.hands == list(hands)
    assert state.to_move == (kwargs["dealer"] + 1) % 4
    with pytest.raises(bs.IllegalActionError):
        state.undo()
    for _, card in plays:
        state.play(card)
    assert state.result() == result


def _expected_outcome(bidding_raw: int, defenders_raw: int) -> str:
    if bidding_raw > defenders_raw:
        return "made"
    if bidding_raw < defenders_raw:
        return "inside"
    return "hanging"


@SETTINGS
@given(deals())
def test_outcome_agrees_with_raw_comparison(deal):
    hands, kwargs, play_seed = deal
    result = play_random(hands, kwargs, play_seed).result()
    b = kwargs["declarer"] % 2
    assert result.outcome == _expected_outcome(result.raw[b], result.raw[1 - b])
    score = result.deal_score
    assert score.outcome == result.outcome
    assert result.score[b] == score.bidding and result.score[1 - b] == score.defenders
    assert min(result.score) >= 0 and result.hanging >= 0
    if result.outcome == "inside":
        assert result.score[b] == 0 or kwargs["rules"].is_classic  # classic: attackers keep belote
    if result.outcome == "made":
        assert result.hanging == 0


@SETTINGS
@given(deals(), st.data())
def test_illegal_cards_are_refused(deal, data):
    """Cards outside the legal set raise IllegalActionError listing the legal cards, and
    leave the state untouched."""
    hands, kwargs, play_seed = deal
    steps = data.draw(st.integers(0, 31))
    rng = random.Random(play_seed)
    state = ref.DealState.from_hands(hands, **kwargs)
    for _ in range(steps):
        state.play(rng.choice(state.legal_actions()))
    legal = state.legal_actions()
    illegal = [c for c in range(32) if c not in legal]
    if illegal:
        card = data.draw(st.sampled_from(illegal))
        before = _snapshot(state)
        with pytest.raises(bs.IllegalActionError) as info:
            state.play(card)
        for c in legal:
            assert bs.format_card(c) in str(info.value)
        assert _snapshot(state) == before


# --- valat / capot, deterministic -----------------------------------------------------------


@pytest.mark.parametrize("contract", CONTRACTS)
@pytest.mark.parametrize("rules", [bs.BULGARIAN, CLASSIC_ALL], ids=["bulgarian", "classic"])
def test_valat_keeps_trick_points_and_adds_90(contract, rules):
    """Seat 0 holds a whole suit (the trump suit in a suit contract) and leads: team 0
    takes all eight tricks whatever the others play."""
    suit = "CDHS".index(contract) if contract in "CDHS" else 2
    pack = [suit * 8 + r for r in range(8)] + [c for c in range(32) if c >> 3 != suit]
    hands = [sum(1 << c for c in pack[8 * s:8 * s + 8]) for s in range(4)]
    for play_seed in range(3):
        kwargs = dict(contract=contract, declarer=1, dealer=3, multiplier=1, rules=rules)
        result = play_random(hands, kwargs, play_seed).result()
        total = expected_total(contract, rules)
        assert result.valat == 0
        assert result.trick_points == (total, 0)
        assert result.raw[0] == total + result.declared[0] + result.belot[0] + 90
        assert result.raw[1] == result.declared[1] + result.belot[1]
        assert result.outcome == _expected_outcome(result.raw[1], result.raw[0])
