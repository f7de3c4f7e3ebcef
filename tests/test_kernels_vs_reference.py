"""Differential tests: every kernel against the reference engine on many random states.

The fast engine's deals are replayed card by card in the reference engine.  At every step
the kernel's legal-move mask must equal the reference's, every trick winner must agree,
and the final rows (declarations, belots, valat, raw, outcome, score, hanging) must be
identical.  The ``slow`` run repeats this on 100 000+ deals (``pytest -m slow``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.kernels.batch import perft as kperft
from belot_sim.kernels.core import bits
from belot_sim.kernels.core import declarations as kdecl
from belot_sim.kernels.core import scoring as kscore
from belot_sim.simulation.deals import simulate
from helpers import RULE_SETS, replay_and_compare

@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_random_deals_replay_identically(name):
    rules = RULE_SETS[name]
    multiplier = 1 if rules.is_classic else 2
    deals, plays = simulate(1500, rules=rules, seed=11, plays=True)
    assert replay_and_compare(deals, plays, rules, check_steps=True) == 1500
    deals, plays = simulate(300, rules=rules, seed=12, plays=True, multiplier=multiplier)
    replay_and_compare(deals, plays, rules, check_steps=False)


def test_every_contract_is_covered():
    deals = simulate(3000, seed=11)
    assert set(deals["contract"].astype(str)) == {"C", "D", "H", "S", "NT", "AT"}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_many_random_deals_replay_identically(name):
    """The big differential run (≥ 100 000 deals over all rule sets)."""
    rules = RULE_SETS[name]
    deals, plays = simulate(25_000, rules=rules, seed=2024, plays=True)
    assert replay_and_compare(deals, plays, rules, check_steps=True) == 25_000


def test_bit_helpers_match_python():
    rng = random.Random(3)
    masks = [0, 1, 0xFFFFFFFF, 0x80000000] + [rng.getrandbits(32) for _ in range(2000)]
    for m in masks:
        x = np.int64(m)
        assert bits.popcount(x) == bin(m).count("1")
        assert bits.ctz(x) == ((m & -m).bit_length() - 1 if m else 64)
        assert bits.popcount(np.uint32(m)) == bin(m).count("1")
        set_bits = [i for i in range(32) if m >> i & 1]
        for n, index in enumerate(set_bits):
            assert bits.nth_card(x, n) == index
            assert bits._nth_card_portable(x, n) == index  # the path for CPUs without BMI2


#: The three ways declarations are resolved: by category, single contest, classic.
DECLARATION_RULES = (bs.BULGARIAN, bs.BRIDGE_BELOT_2001, bs.CLASSIC.replace(declarations=True, all_no_trumps=True))


def test_declarations_match_reference_on_random_hands():
    rng = random.Random(5)
    for _ in range(3000):
        pack = list(range(32))
        rng.shuffle(pack)
        hands = [sum(1 << c for c in pack[8 * s:8 * s + 8]) for s in range(4)]
        contract = bs.Contract(rng.randrange(6))
        for rules in DECLARATION_RULES:
            per_seat = [ref.find_declarations(h) for h in hands]
            expected = ref.resolve_declarations(per_seat, contract, rules)
            if rules.declarations_allowed(contract):
                got = kdecl.declared_points(*hands, int(contract), rules.is_classic,
                                            rules.declaration_contest == "single")
                assert tuple(int(v) for v in got) == expected


def test_declarations_match_reference_on_rich_hands():
    """Random hands from a few suits, so carrés and long runs are common."""
    rng = random.Random(8)
    for _ in range(3000):
        cards = rng.sample(range(32), 32)
        hands = [0, 0, 0, 0]
        # Deal whole rank groups or runs to seats to provoke carrés and sequences.
        for seat in range(4):
            hands[seat] = sum(1 << c for c in cards[8 * seat:8 * seat + 8])
        if rng.random() < 0.5:  # swap in a carré of a random rank for seat 0
            rank = rng.randrange(8)
            carre = sum(1 << (8 * s + rank) for s in range(4))
            for seat in range(1, 4):
                moved = hands[seat] & carre
                if moved:
                    give = [c for c in range(32) if hands[0] >> c & 1 and not carre >> c & 1][:bin(moved).count("1")]
                    for c_from, c_to in zip([c for c in range(32) if moved >> c & 1], give):
                        hands[seat] ^= (1 << c_from) | (1 << c_to)
                        hands[0] ^= (1 << c_from) | (1 << c_to)
        for contract in bs.Contract:
            for rules in DECLARATION_RULES:
                if not rules.declarations_allowed(contract):
                    continue
                expected = ref.resolve_declarations([ref.find_declarations(h) for h in hands], contract, rules)
                got = kdecl.declared_points(*hands, int(contract), rules.is_classic,
                                            rules.declaration_contest == "single")
                assert tuple(int(v) for v in got) == expected


def test_kernel_scoring_matches_python_scoring():
    rng = random.Random(9)
    for _ in range(5000):
        contract = bs.Contract(rng.randrange(6))
        multiplier = rng.choice([1, 2, 4])
        b, d = rng.randrange(0, 400), rng.randrange(0, 400)
        if rng.random() < 0.2:
            d = b
        for rules in (bs.BULGARIAN, bs.BRIDGE_BELOT_2001):
            expected = bs.score_deal(contract, b, d, multiplier, rules)
            outcome, sb, sd, hanging = kscore.score_bulgarian(int(contract), b, d, multiplier, rules.trailing_point)
            assert (kscore.OUTCOME_NAMES[outcome], sb, sd, hanging) == \
                (expected.outcome, expected.bidding, expected.defenders, expected.hanging)
        belot = (rng.choice([0, 20]), rng.choice([0, 20]))
        declared = (rng.choice([0, 20, 50]), rng.choice([0, 20, 100]))
        capot = rng.choice([None, "defenders"])
        expected = bs.score_deal(contract, b, d, 1, bs.CLASSIC, belot=belot, declared=declared, capot=capot)
        got = kscore.score_classic(b, d, belot[0], belot[1], sum(declared), capot == "defenders")
        assert (kscore.OUTCOME_NAMES[got[0]], *got[1:]) == \
            (expected.outcome, expected.bidding, expected.defenders, expected.hanging)


def test_kernel_perft_matches_reference():
    rng = random.Random(21)
    for i in range(12):
        pack = list(range(32))
        rng.shuffle(pack)
        hands = [sum(1 << c for c in pack[8 * s:8 * s + 8]) for s in range(4)]
        contract = bs.Contract(i % 6)
        rules = bs.BULGARIAN.replace(undertrump=rng.choice(["free", "required"]),
                                     at_overtake_partner=rng.choice([True, False]))
        state = ref.DealState.from_hands(hands, contract=contract, declarer=0, rules=rules)
        for _ in range(rng.randrange(0, 20)):  # start from a random mid-deal position
            state.play(rng.choice(state.legal_actions()))
        assert kperft.perft(state, 5) == ref.perft(state, 5)
