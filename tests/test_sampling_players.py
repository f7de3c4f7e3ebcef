"""The sampling players ``pimc`` and ``pimc-exact``: legal cards, nothing hidden read, reproducible,
and ``pimc``'s shortcuts against the plain rule on recorded decisions."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import fresh_view, play_card, random_deal, relayout, replay_and_compare

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.kernels.core.layouts import SCRATCH_SIZE, SP_DROPPED, SP_SOLVED, SP_WORLDS, SS_GEN, SW_RNG
from belot_sim.kernels.players.judging import choose_card
from belot_sim.kernels.players.pimc import (EXACT_FROM_TRICK, MIN_WORLDS, NO_BUDGET, UNIFORM_LAYOUTS, pimc_card,
                                            pimc_exact_card)
from belot_sim.kernels.solver.api import new_ctx
from belot_sim.engine.registry import PLAYER_CODES

def pimc(*args):
    """``pimc``'s card (``pimc_card`` without the expert's auction inference)."""
    return pimc_card(*args, UNIFORM_LAYOUTS, NO_BUDGET)


SAMPLERS = {"pimc": pimc, "pimc-exact": pimc_exact_card}
CTX = new_ctx(2)
TT = np.zeros(2 << 16, dtype=np.int64)


#: The last table stamp handed out: the table is shared by every call here, so stamps must not repeat.
STAMP = [0]


def scratch(worlds: int, stream: int) -> np.ndarray:
    out = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    out[SP_WORLDS] = worlds
    out[SW_RNG] = stream
    out[SS_GEN] = STAMP[0]
    return out


def decide(kernel, state, view, worlds=20, stream=5, r32=12345):
    """``kernel``'s card for the seat to move of ``state``, from a fresh world stream, with (pimc)
    the mask of the choices it eliminated and the layouts it counted."""
    seat = state.to_move
    s = scratch(worlds, stream)
    card = int(kernel(np.int64(state.legal_mask()), np.uint64(r32), np.int64(state.hands[seat]), seat, view,
                      1 if state.rules.is_classic else 0, CTX, TT, s))
    STAMP[0] = int(s[SS_GEN])
    assert state.legal_mask() >> card & 1
    return card, int(s[SP_DROPPED]), int(s[SP_SOLVED])


def hard_positions(n_deals: int, seed: int, rules=bs.BULGARIAN, first_tricks: int = 3):
    """Decisions with a choice in the first tricks of deals played by ``hard``: ``(state, view)``."""
    rng = random.Random(seed)
    for i in range(n_deals):
        state = random_deal(rng, rules.contracts[i % len(rules.contracts)], rules)
        view = fresh_view(state)
        while not state.is_over and state.trick_number < first_tricks:
            legal = state.legal_mask()
            if legal & (legal - 1):
                yield state, view
            seat = state.to_move
            card = int(choose_card(PLAYER_CODES["hard"], np.int64(legal), np.uint64(0), np.int64(state.hands[seat]),
                                   seat, view, 1 if rules.is_classic else 0))
            play_card(state, view, card)


@pytest.mark.parametrize("rules", [bs.BULGARIAN, bs.CLASSIC.replace(all_no_trumps=True, declarations=True,
                                                                   undertrump="required")],
                         ids=["bulgarian", "classic-all"])
def test_sampling_players_play_legal_cards_and_score_as_the_reference(rules):
    deals, plays = bs.simulate(10, rules=rules, players=("pimc", "hard", "pimc-exact", "pimc"), seed=3, worlds=4,
                               plays=True)
    assert replay_and_compare(deals, plays, rules, check_steps=True) == 10


def test_without_elimination_pimc_plays_the_plain_rules_card():
    """Below MIN_WORLDS layouts no choice is eliminated: the same layouts give the same card."""
    worlds = MIN_WORLDS - 1
    checked = 0
    for k, (state, view) in enumerate(hard_positions(30, seed=8)):
        a = decide(pimc, state, view, worlds=worlds, stream=k, r32=k * 7919)[0]
        b = decide(pimc_exact_card, state, view, worlds=worlds, stream=k, r32=k * 7919)[0]
        assert a == b, (k, state.plays)
        checked += 1
    assert checked > 200


def test_late_decisions_are_the_plain_rules_card():
    """From trick EXACT_FROM_TRICK on (cheap decisions) nothing is eliminated and sampling never stops
    early: with the same 20 layouts both rules play the same card."""
    checked = 0
    for k, (state, view) in enumerate(hard_positions(40, seed=10, first_tricks=8)):
        if state.trick_number < EXACT_FROM_TRICK:
            continue
        a, dropped, solved = decide(pimc, state, view, stream=k, r32=k * 31)
        assert a == decide(pimc_exact_card, state, view, stream=k, r32=k * 31)[0], (k, state.plays)
        assert dropped == 0 and (solved == 20 or solved == 0), (k, dropped, solved)
        checked += 1
    assert checked > 150


def test_elimination_agrees_with_the_plain_rule_unless_it_dropped_the_plain_rules_card():
    """With 20 layouts, ``pimc`` drops a choice once its deficit is significant, and stops sampling
    when one is left or the ones left were equal in every layout so far: it plays another card than
    the plain rule's (the best total over all 20 layouts) only when it dropped that card or stopped
    before the 20th layout."""
    agree = differ = 0
    for k, (state, view) in enumerate(hard_positions(40, seed=9, first_tricks=2)):
        a, dropped, solved = decide(pimc, state, view, stream=k, r32=k)
        b = decide(pimc_exact_card, state, view, stream=k, r32=k)[0]
        if a == b:
            agree += 1
        else:
            differ += 1
            assert dropped >> b & 1 or solved < 20, (k, state.plays)
    assert agree > 4 * differ, (agree, differ)


@pytest.mark.parametrize("player", sorted(SAMPLERS))
def test_choices_do_not_depend_on_hidden_cards(player):
    rng = random.Random(21)
    changed = 0
    for i in range(25):
        state = random_deal(rng, bs.Contract(i % 6), bs.BULGARIAN)
        view = fresh_view(state)
        for _ in range(rng.randrange(1, 20)):
            play_card(state, view, rng.choice(state.legal_actions()))
        if len(state.legal_actions()) < 2:
            continue
        before = decide(SAMPLERS[player], state, view, worlds=6, stream=i)[0]
        hands = relayout(state, view, rng)
        changed += hands != state.hands
        played = [0, 0, 0, 0]
        for seat, card in state.plays:
            played[seat] |= 1 << card
        other = ref.DealState.from_hands([hands[s] | played[s] for s in range(4)], contract=state.contract,
                                         declarer=state.declarer, dealer=state.dealer, rules=state.rules)
        other_view = fresh_view(other)
        for _, card in state.plays:
            play_card(other, other_view, card)
        assert (other_view == view).all()
        assert decide(SAMPLERS[player], other, other_view, worlds=6, stream=i)[0] == before
    assert changed > 10


def test_sampling_players_are_reproducible_and_depend_on_their_worlds():
    kwargs = dict(players=("pimc", "pimc-exact", "pimc", "hard"), seed=12, plays=True)
    first = bs.simulate(6, worlds=3, **kwargs)
    again = bs.simulate(6, worlds=3, **kwargs)
    assert first[0].equals(again[0]) and first[1].equals(again[1])
    more = bs.simulate(6, worlds=6, **kwargs)
    assert not np.array_equal(more[1]["card"].to_numpy(), first[1]["card"].to_numpy())


def test_registry_lists_the_reference_rule():
    assert {"pimc", "pimc-exact"} <= set(bs.PLAYERS) and "exact" in bs.PLAYERS["pimc-exact"]
