"""The auction kernels (kernels/core/auction_rules.py, kernels/bidding/) and bidders against the
reference engine (belot_sim/reference/auction.py, dealing.py).

* every step of thousands of random auctions: kernel legal-call mask == reference
  ``legal_calls()``; final contract/declarer/multiplier/void agree;
* ``run_auction`` with random and heuristic bidders makes only legal calls (replayed in
  the reference) and stays within ``MAX_CALLS`` — which an exhaustive search shows is exact;
* heuristic sanity, determinism, bidder-name validation.
"""

from __future__ import annotations

import random
import zlib

import numpy as np
import pytest

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.engine import bidder_options as options
from belot_sim.engine import registry
from belot_sim.kernels.bidding import auction_loop, choose
from belot_sim.kernels.core import auction_rules as ka
from belot_sim.kernels.core import dealing
from belot_sim.kernels.core import layouts as L
from belot_sim.kernels.core.rule_flags import flags_of
from helpers import family_of

DEFAULTS = (auction_loop.DEFAULT_INTS, auction_loop.DEFAULT_WEIGHTS)
CLASSIC_DEFAULTS = (auction_loop.CLASSIC_INTS, auction_loop.DEFAULT_WEIGHTS)


def params(**given):
    return options.bidder_params(None, given)

RULE_SETS = {
    "bulgarian": bs.BULGARIAN,
    "classic": bs.CLASSIC,
    "classic-all": bs.CLASSIC.replace(all_no_trumps=True),
}


def names(mask: int) -> set[str]:
    return {ka.CALL_NAMES[c] for c in range(ka.N_CODES) if (mask >> c) & 1}


def new_state() -> np.ndarray:
    return np.zeros(L.A_SIZE, dtype=np.int64)


def check_final(state: np.ndarray, st: ref.AuctionState) -> None:
    assert bool(state[L.A_OVER]) == st.is_over
    assert bool(state[L.A_VOID]) == st.is_void
    assert state[L.A_N_CALLS] == len(st.calls)
    if st.is_over and not st.is_void:
        assert state[L.A_CONTRACT] == int(st.contract)
        assert state[L.A_DECLARER] == st.declarer
        assert state[L.A_MULTIPLIER] == st.multiplier


def call_codes(names_in_order) -> list[int]:
    return [ka.CALL_OF_NAME[n] for n in names_in_order]


# --------------------------------------------------------------------------------------
# (a) step-by-step differential test with random legal calls
# --------------------------------------------------------------------------------------

@pytest.mark.parametrize("rule_name", sorted(RULE_SETS))
def test_legal_calls_match_reference_every_step(rule_name):
    rules = RULE_SETS[rule_name]
    family = family_of(rules)
    rng = random.Random(rule_name)
    state = new_state()
    seen_codes = set()
    n_auctions = 3000
    for i in range(n_auctions):
        dealer = rng.randrange(4)
        turned = rng.randrange(32) if rules.is_classic else None
        turned_suit = turned >> 3 if turned is not None else -1
        st = ref.AuctionState.start(dealer, rules, turned=turned)
        ka.auction_start(state, dealer, family, turned_suit)
        # Vary how often pass is chosen so both short and long (doubled, redoubled) auctions occur.
        pass_prob = rng.choice((0.2, 0.5, 0.8))
        while not st.is_over:
            seat = st.to_move
            assert state[L.A_TO_MOVE] == seat
            mask = int(ka.legal_calls(state, seat, family, rules.all_no_trumps, turned_suit))
            legal = st.legal_calls()
            assert names(mask) == set(legal), (i, st.calls)
            others = [c for c in legal if c != "pass"]
            call = "pass" if not others or rng.random() < pass_prob else rng.choice(others)
            seen_codes.add(call)
            st.call(call)
            over = ka.apply_call(state, ka.CALL_OF_NAME[call], family, rules.all_no_trumps, turned_suit)
            assert bool(over) == st.is_over
            assert state[L.A_N_CALLS] <= ka.MAX_CALLS
        check_final(state, st)
        assert ka.legal_calls(state, st.to_move, family, rules.all_no_trumps, turned_suit) == 0
    expected = set(ka.CALL_NAMES) if family == 0 else set(ka.CALL_NAMES) - {"double", "redouble"}
    if rule_name == "classic":
        expected -= {"NT", "AT"}
    assert seen_codes == expected  # every kind of call was exercised


@pytest.mark.parametrize("rule_name", sorted(RULE_SETS))
def test_max_calls_is_the_exact_longest_auction(rule_name):
    """Exhaustive longest path over the kernel's (memoised) auction states."""
    rules = RULE_SETS[rule_name]
    family = family_of(rules)
    memo: dict[tuple, int] = {}

    def longest(state) -> int:
        if state[L.A_OVER]:
            return 0
        # the state without the call count and the history (A_CALLS on): what decides the calls to come
        key = tuple(int(x) for i, x in enumerate(state[:L.A_CALLS]) if i != L.A_N_CALLS)
        if key not in memo:
            mask = ka.legal_calls(state, state[L.A_TO_MOVE], family, rules.all_no_trumps, 0)
            best = 0
            for code in range(ka.N_CODES):
                if (mask >> code) & 1:
                    nxt = state.copy()
                    ka.apply_call(nxt, code, family, rules.all_no_trumps, 0)
                    best = max(best, 1 + longest(nxt))
            memo[key] = best
        return memo[key]

    state = new_state()
    ka.auction_start(state, 0, family, 0)
    expected = {"bulgarian": ka.MAX_CALLS, "classic": 8, "classic-all": 12}[rule_name]
    assert longest(state) == expected


def test_the_longest_bulgarian_auction_is_legal_in_the_reference():
    calls = ["pass"] * 3
    for contract in ("C", "D", "H", "S", "NT", "AT"):
        calls += [contract, "pass", "pass", "double", "pass", "pass", "redouble", "pass", "pass"]
    calls.append("pass")  # the last contract: redoubled, then three passes
    assert len(calls) == ka.MAX_CALLS
    st = ref.AuctionState.start(3, bs.BULGARIAN)
    state = new_state()
    ka.auction_start(state, 3, 0, -1)
    for call in calls:
        st.call(call)
        ka.apply_call(state, ka.CALL_OF_NAME[call], 0, True, -1)
    assert st.is_over and str(st.contract) == "AT" and st.multiplier == 4
    check_final(state, st)


def test_classic_turned_suit_and_rounds():
    rules = bs.CLASSIC.replace(all_no_trumps=True)
    turned = bs.parse_card("TD")
    state = new_state()
    ka.auction_start(state, 1, 1, turned >> 3)
    assert names(ka.legal_calls(state, 2, 1, True, 1)) == {"pass", "D"}
    for _ in range(4):
        ka.apply_call(state, 0, 1, True, 1)
    assert state[L.A_ROUND] == 2
    assert names(ka.legal_calls(state, 2, 1, True, 1)) == {"pass", "C", "H", "S"}
    for _ in range(4):
        ka.apply_call(state, 0, 1, True, 1)
    assert names(ka.legal_calls(state, 2, 1, True, 1)) == {"pass", "NT", "AT"}
    ka.apply_call(state, ka.CALL_AT, 1, True, 1)
    st = ref.AuctionState.start(1, rules, turned=turned)
    for call in ["pass"] * 8 + ["AT"]:
        st.call(call)
    check_final(state, st)
    assert state[L.A_DECLARER] == 2  # dealer 1: seats 2 3 0 1, twice, then seat 2 takes


# --------------------------------------------------------------------------------------
# (b) whole auctions with bidders, replayed in the reference; dealing helpers
# --------------------------------------------------------------------------------------

def random_pack(rng: np.random.Generator) -> np.ndarray:
    return rng.permutation(32).astype(np.int64)


@pytest.mark.parametrize("rule_name", sorted(RULE_SETS))
@pytest.mark.parametrize("bidder_names", ["random", "heuristic", ("heuristic", "random", "random", "heuristic"),
                                          ("mc", "heuristic", "mc", "random")])
def test_run_auction_is_legal_in_the_reference(rule_name, bidder_names):
    rules = RULE_SETS[rule_name]
    family = family_of(rules)
    bidders = np.array(registry.bidder_codes(bidder_names), dtype=np.int64)
    gen = np.random.default_rng(zlib.crc32(f"{rule_name}{bidder_names}".encode()))
    state = new_state()
    calls_out = np.zeros(ka.MAX_CALLS, dtype=np.int8)
    hands5 = np.zeros(4, dtype=np.int64)
    final = np.zeros(4, dtype=np.int64)
    contracts = set()
    for _ in range(400):
        pack = random_pack(gen)
        dealer = int(gen.integers(4))
        dealing.auction_hands(pack, dealer, hands5)
        assert list(hands5) == ref.first_hands(pack.tolist(), dealer)
        turned = int(pack[20]) if rules.is_classic else -1
        rng0 = np.uint64(gen.integers(2**63))
        rng1, contract, declarer, multiplier, n = auction_loop.run_auction(hands5, dealer, family, rules.all_no_trumps,
                                                                 turned, bidders, rng0, state, calls_out)
        assert 1 <= n <= ka.MAX_CALLS
        assert rng1 != rng0
        st = ref.AuctionState.start(dealer, rules, turned=turned if rules.is_classic else None)
        for code in calls_out[:n]:
            st.call(ka.CALL_NAMES[code])  # raises IllegalActionError on an illegal call
        assert st.is_over
        if st.is_void:
            assert (contract, declarer, multiplier) == (-1, -1, 1)
            continue
        assert (contract, declarer, multiplier) == (int(st.contract), st.declarer, st.multiplier)
        contracts.add(contract)
        if rules.is_classic:
            dealing.classic_final_hands(pack, dealer, declarer, final)
            assert list(final) == ref.complete_hands(pack.tolist(), dealer, classic=True, taker=declarer)
    assert len(contracts) >= 3  # the auctions are not degenerate


# --------------------------------------------------------------------------------------
# (c) heuristic sanity and determinism
# --------------------------------------------------------------------------------------

def heuristic_first_call(hand_text: str, family: int = 0, turned: int = -1) -> int:
    state = new_state()
    ka.auction_start(state, 3, family, turned >> 3 if turned >= 0 else -1)
    legal = ka.legal_calls(state, 0, family, family == 0, turned >> 3 if turned >= 0 else -1)
    return choose.choose_call(choose.HEURISTIC, legal, np.uint64(0), bs.parse_cards(hand_text), 0, state, family,
                              turned, *(CLASSIC_DEFAULTS if family else DEFAULTS))


def test_heuristic_opens_strong_hearts():
    assert heuristic_first_call("JH 9H AH TH KH") >= ka.CALL_H


def test_heuristic_passes_a_worthless_hand():
    assert heuristic_first_call("7C 8C 7D 8D QS") == ka.PASS
    assert heuristic_first_call("7H 8S 7D 8D QC") == ka.PASS


def test_heuristic_opens_all_trumps_and_no_trumps():
    assert heuristic_first_call("JC JD JS 9C 9D") == ka.CALL_AT
    assert heuristic_first_call("AC AD AS TC TS") == ka.CALL_NT


def opening_call(hand: int, turned: int, rules: bs.Rules) -> int:
    """The heuristic's first call with ``hand`` as seat 0 (dealer 3) under ``rules``' parameters
    (``turned``: the classic turned card, ignored in bulgarian)."""
    family = 1 if rules.is_classic else 0
    turned = turned if family else -1
    state = new_state()
    ka.auction_start(state, 3, family, turned >> 3 if family else -1)
    legal = ka.legal_calls(state, 0, family, rules.all_no_trumps, turned >> 3 if family else -1)
    return choose.choose_call(choose.HEURISTIC, legal, np.uint64(0), np.int64(hand), 0, state, family, turned,
                              *options.bidder_params(rules))


@pytest.mark.parametrize("preset", [bs.BULGARIAN, bs.CLASSIC.replace(all_no_trumps=True)], ids=["bulgarian", "classic"])
def test_the_heuristic_counts_declarations_exactly_when_the_rules_score_them(preset):
    """The ``declarations`` option, not the family, decides: hands without a sequence or carré call
    the same either way, and some hands with one call differently (a stronger contract or a bid)."""
    from belot_sim.kernels.bid_models.heuristic import declaration_points

    on, off = preset.replace(declarations=True), preset.replace(declarations=False)
    rng = random.Random(7)
    changed = 0
    for _ in range(3000):
        *cards, turned = rng.sample(range(32), 6)
        hand = sum(1 << c for c in cards)
        a, b = opening_call(hand, turned, on), opening_call(hand, turned, off)
        if declaration_points(np.int64(hand | (1 << turned) if preset.is_classic else hand)) == 0:
            assert a == b, bs.format_cards(hand)
        changed += a != b
    assert changed >= 20


def test_simulated_auctions_follow_the_declarations_option():
    deals = {r.name: bs.simulate(3000, rules=r, bidders="heuristic", seed=3)["auction"]
             for r in (bs.BULGARIAN, bs.BULGARIAN.replace(declarations=False))}
    first, second = deals.values()
    assert (first != second).sum() > 30


def response_to_clubs(bidder: int, hand_text: str, rng: int) -> tuple[int, np.ndarray]:
    """Seat 1's call (and the auction state) after seat 0 opens clubs (dealer 3, bulgarian)."""
    state = new_state()
    ka.auction_start(state, 3, 0, -1)
    ka.apply_call(state, ka.CALL_C, 0, True, -1)  # seat 0 bids clubs
    legal = ka.legal_calls(state, 1, 0, True, -1)
    call = choose.choose_call(bidder, legal, np.uint64(rng), bs.parse_cards(hand_text), 1, state, 0, -1, *DEFAULTS)
    return call, state


def test_heuristic_doubles_when_holding_their_trumps_and_redoubles_when_strong():
    call, state = response_to_clubs(choose.HEURISTIC, "JC 9C AC 7C AS", 0)
    assert call == ka.DOUBLE
    ka.apply_call(state, ka.DOUBLE, 0, True, -1)  # seat 1 doubles
    legal = ka.legal_calls(state, 2, 0, True, -1)
    assert names(legal) >= {"redouble"}
    weak = choose.choose_call(choose.HEURISTIC, legal, np.uint64(0), bs.parse_cards("7D 8D 7H 8H 7S"), 2, state, 0,
                              -1, *DEFAULTS)
    assert weak == ka.PASS
    # Partner holds strong clubs too (impossible with the hand above, but the bidder only sees its own cards).
    strong = choose.choose_call(choose.HEURISTIC, legal, np.uint64(0), bs.parse_cards("JC 9C AC TC AS"), 2, state,
                                0, -1, *DEFAULTS)
    assert strong == ka.REDOUBLE


def test_heuristic_classic_takes_the_turned_suit_when_strong():
    turned = bs.parse_card("JH")
    assert heuristic_first_call("9H AH 7H 7S 8S", family=1, turned=turned) == ka.CALL_H
    assert heuristic_first_call("7C 8C 7D 8D QS", family=1, turned=turned) == ka.PASS


def test_random_bidder_pass_probability():
    chosen = params(pass_prob=1.0)
    legal = (1 << ka.PASS) | (1 << ka.CALL_S) | (1 << ka.CALL_AT)
    state = new_state()
    assert all(choose.choose_call(choose.RANDOM_BIDDER, legal, np.uint64(r), 0, 0, state, 0, -1, *chosen) == ka.PASS
               for r in (0, 2**31, 2**32 - 1))
    chosen = params(pass_prob=0.0)
    picks = {choose.choose_call(choose.RANDOM_BIDDER, legal, np.uint64(r), 0, 0, state, 0, -1, *chosen)
             for r in range(0, 2**32, 2**28)}
    assert picks == {ka.CALL_S, ka.CALL_AT}
    with pytest.raises(ValueError, match="unknown bidder option 'pass_probability'"):
        params(pass_probability=0.5)


@pytest.mark.parametrize("bidder_names", ["random", "heuristic", "mc"])
def test_run_auction_is_deterministic(bidder_names):
    bidders = np.array(registry.bidder_codes(bidder_names), dtype=np.int64)
    gen = np.random.default_rng(7)
    hands5 = np.zeros(4, dtype=np.int64)
    sequences = []
    for _ in range(50):
        pack = random_pack(gen)
        dealing.auction_hands(pack, 0, hands5)
        seed = np.uint64(gen.integers(2**63))
        runs = []
        for _ in range(2):
            state = new_state()
            calls_out = np.zeros(ka.MAX_CALLS, dtype=np.int8)
            result = auction_loop.run_auction(hands5, 0, 0, True, -1, bidders, seed, state, calls_out)
            runs.append((result, calls_out[:result[4]].tolist()))
        assert runs[0] == runs[1]
        sequences.append(tuple(runs[0][1]))
    assert len(set(sequences)) > 5


def test_unknown_bidder_code_passes():
    state = new_state()
    calls_out = np.zeros(ka.MAX_CALLS, dtype=np.int8)
    hands5 = np.zeros(4, dtype=np.int64)
    result = auction_loop.run_auction(hands5, 0, 0, True, -1, np.full(4, 9, dtype=np.int64), np.uint64(1), state,
                            calls_out)
    assert result[1:] == (-1, -1, 1, 4)


# --------------------------------------------------------------------------------------
# (d) bidder names
# --------------------------------------------------------------------------------------

def test_bidder_codes():
    assert registry.bidder_codes("random") == (0, 0, 0, 0)
    assert registry.bidder_codes(("Heuristic", "random", "mc", "random")) == (1, 0, 2, 0)


@pytest.mark.parametrize("bad", ["nope", ("random",) * 3, ("random", "random", "random", 5), None,
                                 ("random", "random", "random", "smart")])
def test_bad_bidder_names_raise(bad):
    with pytest.raises(ValueError, match="bidder"):
        registry.bidder_codes(bad)


# --------------------------------------------------------------------------------------
# (e) the mc bidder
# --------------------------------------------------------------------------------------

def mc_first_call(hand_text: str, **options) -> int:
    state = new_state()
    ka.auction_start(state, 3, 0, -1)
    legal = ka.legal_calls(state, 0, 0, True, -1)
    return choose.choose_call(choose.MC_BIDDER, legal, np.uint64(12345), bs.parse_cards(hand_text), 0, state, 0, -1,
                          *params(**options))


def test_mc_bids_a_strong_hand_and_passes_a_weak_one():
    assert mc_first_call("JH 9H AH TH KH") != ka.PASS
    assert mc_first_call("7C 8C 7D 8D 7S") == ka.PASS
    # mc departs from the heuristic's call only on a gain above its bar: an unreachable bar keeps the
    # heuristic's call, a bar every candidate clears makes it take another one.
    for hand in ("JH 9H AH TH KH", "JH 9H 7S 8D AC", "AS TS AD KC 7H"):
        state = new_state()
        ka.auction_start(state, 3, 0, -1)
        heuristic = choose.choose_call(choose.HEURISTIC, ka.legal_calls(state, 0, 0, True, -1), np.uint64(1),
                                       bs.parse_cards(hand), 0, state, 0, -1, *params())
        assert mc_first_call(hand, mc_margin=1e6, mc_samples=8) == heuristic, hand
    assert mc_first_call("JH 9H AH TH KH", mc_margin=-1e6, mc_samples=8) != ka.CALL_H


def test_mc_doubles_a_contract_it_holds_the_trumps_of():
    call, _ = response_to_clubs(choose.MC_BIDDER, "JC 9C AC TC KC", 7)
    assert call == ka.DOUBLE


def test_mc_player_option_validation():
    assert params(mc_player="easy")[0][L.BI_MC_PLAYER] == registry.PLAYER_CODES["easy"]
    with pytest.raises(ValueError, match="mc_player"):
        params(mc_player="dd")
    with pytest.raises(ValueError, match="mc_samples"):
        params(mc_samples=0)
    with pytest.raises(ValueError, match="mc_tries"):
        params(mc_tries=0)
    with pytest.raises(ValueError, match="unknown bidder option 'mc_threshold'"):
        params(mc_threshold=0.5)  # the rule on P(made) gave way to expected match points


def test_the_default_bidder_flags_are_the_presets():
    flags = L.BIDDER_INTS["FLAGS"].offset
    assert auction_loop.DEFAULT_INTS[flags] == flags_of(bs.BULGARIAN)
    assert auction_loop.CLASSIC_INTS[flags] == flags_of(bs.CLASSIC)
