"""Perft: counts of legal play sequences from fixed deals (as python-chess does for chess).

``ref.perft`` walks the tree with play/undo.  Here it is checked against a naive
brute-force counter that rebuilds a fresh ``DealState`` and replays the whole card
sequence for every node (no undo at all), and then exact counts from fixed deals are
pinned as literal numbers.
"""

from __future__ import annotations

import random

import pytest

import belot_sim as bs
from belot_sim import reference as ref
from helpers import random_hands


def brute_counts(hands, kwargs, prefix, max_depth):
    """Naive perft for every depth 0..max_depth at once: ``counts[d]`` is the number of
    distinct sequences of ``d`` cards from the state after ``prefix`` (a sequence that
    ends the deal earlier counts once).  Every node is a fresh state replayed from the
    start; nothing is undone."""
    state = ref.DealState.from_hands(hands, **kwargs)
    for card in prefix:
        state.play(card)
    counts = [1] * (max_depth + 1)
    if state.is_over or max_depth == 0:
        return counts
    for d in range(1, max_depth + 1):
        counts[d] = 0
    for card in state.legal_actions():
        sub = brute_counts(hands, kwargs, prefix + [card], max_depth - 1)
        for d in range(1, max_depth + 1):
            counts[d] += sub[d - 1]
    return counts


def snapshot(state):
    return (list(state.hands), list(state.trick), list(state.plays), state.leader, list(state.trick_points),
            list(state.tricks_won), state.last_trick_team, dict(state.belot_decided), state.legal_actions())


# ---------------------------------------------------------------------------------------
# Fixed deals.  Seat 0 leads (dealer 3).
# ---------------------------------------------------------------------------------------

# Hearts: seats 1 and 2 are void in clubs; seat 1 can trump a club lead with JH/9H and
# seat 2 then holds only lower trumps (7H 8H TH), so undertrump="required" matters from
# the first trick on.
DEAL_SUIT = ["AC TC KC 9C 7C AS 7D 8D", "JH 9H AH QS KS 9S 9D TD",
             "7H 8H TH 7S 8S AD KD QD", "8C JC QC KH QH TS JS JD"]
DEAL_AT = ["JS QS TH KH 8D 9D QC AC", "7S QH AH 7D QD KD AD 7C",
           "8S 9S TS 7H 9H TD TC KC", "KS AS 8H JH JD 8C 9C JC"]
DEAL_NT = ["QS TH JH AH JD QD JC AC", "KH 7D 8D 9D TD 7C 8C 9C",
           "8S AS 9H QH AD TC QC KC", "7S 9S TS JS KS 7H 8H KD"]

# PINNED perft counts, depth 1, 2, 3, ... — computed once with brute_counts above (and
# equal to ref.perft).  These numbers are the contract for every later, faster engine
# (Numba kernels etc.): from the same deal, contract and rule options they must
# reproduce them exactly.  Do not regenerate them from an engine under test.
PINNED = {
    "H-undertrump-free": (
        DEAL_SUIT, dict(contract="H", declarer=1, dealer=3, rules=bs.BULGARIAN),
        [8, 22, 138, 384, 2688, 6078, 11390, 39648],
    ),
    "H-undertrump-required": (
        DEAL_SUIT, dict(contract="H", declarer=1, dealer=3, rules=bs.BULGARIAN.replace(undertrump="required")),
        [8, 22, 63, 159, 1113, 2568, 4730, 14268],
    ),
    "AT": (
        DEAL_AT, dict(contract="AT", declarer=0, dealer=3, rules=bs.BULGARIAN),
        [8, 13, 18, 26, 182, 327, 569, 836, 5016, 9030],
    ),
    "AT-no-overtake-partner": (
        DEAL_AT, dict(contract="AT", declarer=0, dealer=3, rules=bs.BULGARIAN.replace(at_overtake_partner=False)),
        [8, 13, 19, 28, 196, 353, 651, 952, 5712, 10314],
    ),
    "NT": (
        DEAL_NT, dict(contract="NT", declarer=0, dealer=3, rules=bs.BULGARIAN),
        [8, 25, 48, 244, 1708, 6264, 13736, 40596],
    ),
}
FAST_MAX_DEPTH = 7  # deeper pinned counts run under -m slow


def pinned_cases(fast: bool):
    for name, (_hands, _kwargs, counts) in PINNED.items():
        for depth, count in enumerate(counts, start=1):
            if (depth <= FAST_MAX_DEPTH) == fast:
                yield pytest.param(name, depth, count, id=f"{name}-d{depth}")


@pytest.mark.parametrize("name, depth, count", list(pinned_cases(fast=True)))
def test_pinned_perft(name, depth, count):
    hands, kwargs, _ = PINNED[name]
    state = ref.DealState.from_hands(hands, **kwargs)
    assert ref.perft(state, depth) == count


@pytest.mark.slow
@pytest.mark.parametrize("name, depth, count", list(pinned_cases(fast=False)))
def test_pinned_perft_deep(name, depth, count):
    hands, kwargs, _ = PINNED[name]
    state = ref.DealState.from_hands(hands, **kwargs)
    assert ref.perft(state, depth) == count


def test_pinned_deals_are_valid_and_options_matter():
    for name, (hands, _kwargs, counts) in PINNED.items():
        masks = [bs.parse_cards(h) for h in hands]
        assert sum(bin(m).count("1") for m in masks) == 32 and sum(masks) == (1 << 32) - 1, name
        assert counts[0] == 8  # the leader may lead any card
    # the rule options change the tree of the same deal
    assert PINNED["H-undertrump-free"][2] != PINNED["H-undertrump-required"][2]
    assert PINNED["AT"][2] != PINNED["AT-no-overtake-partner"][2]


def test_pinned_hands_accept_masks_too():
    hands, kwargs, counts = PINNED["H-undertrump-required"]
    masks = [bs.parse_cards(h) for h in hands]
    assert ref.perft(ref.DealState.from_hands(masks, **kwargs), 4) == counts[3]


# ---------------------------------------------------------------------------------------
# perft against the brute-force counter
# ---------------------------------------------------------------------------------------

RANDOM_CASES = [
    (101, "S", bs.BULGARIAN),
    (202, "AT", bs.BULGARIAN.replace(at_overtake_partner=False)),
    (303, "NT", bs.BULGARIAN),
    (404, "D", bs.BULGARIAN.replace(undertrump="required")),
    (505, "AT", bs.CLASSIC.replace(all_no_trumps=True)),
]


@pytest.mark.parametrize("seed, contract, rules", RANDOM_CASES, ids=[f"{s}-{c}" for s, c, _ in RANDOM_CASES])
def test_perft_equals_brute_force_random_deals(seed, contract, rules):
    hands = random_hands(seed)
    kwargs = dict(contract=contract, declarer=seed % 4, dealer=(seed // 4) % 4, rules=rules)
    expected = brute_counts(hands, kwargs, [], 5)
    state = ref.DealState.from_hands(hands, **kwargs)
    before = snapshot(state)
    for depth in range(0, 6):
        assert ref.perft(state, depth) == expected[depth], depth
        assert snapshot(state) == before  # perft leaves the state as it found it


@pytest.mark.parametrize("name", list(PINNED))
def test_perft_equals_brute_force_pinned_deals(name):
    hands, kwargs, counts = PINNED[name]
    expected = brute_counts(hands, kwargs, [], 5)
    assert expected[1:] == counts[:5]
    state = ref.DealState.from_hands(hands, **kwargs)
    assert [ref.perft(state, d) for d in range(1, 6)] == expected[1:]


@pytest.mark.parametrize("played", [5, 13, 26, 29, 31])
def test_perft_mid_and_end_of_deal(played):
    """From a state part-way through the deal (with a trick in progress); sequences that
    reach the end of the deal before ``depth`` cards count once."""
    hands = random_hands(played)
    kwargs = dict(contract="H", declarer=2, dealer=1, rules=bs.BULGARIAN.replace(undertrump="required"))
    rng = random.Random(played)
    state = ref.DealState.from_hands(hands, **kwargs)
    for _ in range(played):
        state.play(rng.choice(state.legal_actions()))
    prefix = [card for _, card in state.plays]
    max_depth = min(5, 32 - played + 2)  # near the end, go past the last card
    expected = brute_counts(hands, kwargs, prefix, max_depth)
    for depth in range(max_depth + 1):
        assert ref.perft(state, depth) == expected[depth]
    if played == 31:
        assert expected == [1] * (max_depth + 1)  # one card left: one sequence whatever the depth


def test_perft_finished_deal_and_depth_zero():
    hands, kwargs, _ = PINNED["NT"]
    state = ref.DealState.from_hands(hands, **kwargs)
    assert ref.perft(state, 0) == 1
    rng = random.Random(0)
    while not state.is_over:
        state.play(rng.choice(state.legal_actions()))
    for depth in (0, 1, 5):
        assert ref.perft(state, depth) == 1
    assert ref.perft_divide(state, 3) == {}


def test_perft_negative_depth_is_an_error():
    hands, kwargs, _ = PINNED["AT"]
    state = ref.DealState.from_hands(hands, **kwargs)
    with pytest.raises(ValueError, match="depth"):
        ref.perft(state, -1)


# ---------------------------------------------------------------------------------------
# depth 1 and perft_divide
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_perft_depth_1_is_number_of_legal_cards(seed):
    hands = random_hands(1000 + seed)
    contract = ["C", "D", "H", "S", "NT", "AT"][seed]
    kwargs = dict(contract=contract, declarer=seed % 4, dealer=seed % 4, rules=bs.BULGARIAN)
    state = ref.DealState.from_hands(hands, **kwargs)
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        assert ref.perft(state, 1) == len(legal) == bin(state.legal_mask()).count("1")
        state.play(rng.choice(legal))


@pytest.mark.parametrize("name", list(PINNED))
@pytest.mark.parametrize("depth", [1, 2, 4])
def test_perft_divide_sums_to_perft(name, depth):
    hands, kwargs, counts = PINNED[name]
    state = ref.DealState.from_hands(hands, **kwargs)
    divide = ref.perft_divide(state, depth)
    assert sorted(divide) == state.legal_actions()
    assert sum(divide.values()) == ref.perft(state, depth) == counts[depth - 1]
    assert all(n >= 1 for n in divide.values())
    if depth == 1:
        assert set(divide.values()) == {1}
    # each branch equals perft after playing that card
    for card, n in divide.items():
        child = ref.DealState.from_hands(hands, **kwargs)
        child.play(card)
        assert ref.perft(child, depth - 1) == n


def test_perft_divide_pinned_branch_counts():
    """Per-first-card split of a pinned count, useful to locate a disagreement."""
    hands, kwargs, counts = PINNED["H-undertrump-required"]
    state = ref.DealState.from_hands(hands, **kwargs)
    divide = ref.perft_divide(state, 3)
    expected = {}
    for card in state.legal_actions():
        expected[card] = brute_counts(hands, kwargs, [card], 2)[2]
    assert divide == expected
    assert sum(divide.values()) == counts[2]


@pytest.mark.parametrize("name", list(PINNED))
def test_pinned_perft_kernels(name):
    """The Numba engine reproduces every pinned count, deep ones included."""
    from belot_sim.kernels.batch.perft import perft as kernel_perft

    hands, kwargs, counts = PINNED[name]
    state = ref.DealState.from_hands(hands, **kwargs)
    assert [kernel_perft(state, depth) for depth in range(1, len(counts) + 1)] == counts
