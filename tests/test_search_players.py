"""The searching players ``dd`` (perfect information) and ``pimc`` (players/search.py).

* ``dd`` plays, at every decision, a card whose exact double-dummy value for its team is the
  best (checked with the solver's Python edge on the reference state);
* ``dd``/``pimc`` deals replay identically in the reference engine (every card legal);
* ``pimc`` cannot see hidden cards (its kernel has no argument for them) and its imagined
  layouts are consistent with the view: sizes, own hand, played cards, exclusions, shown
  cards (the card-ownership model's layouts too); uniform when nothing constrains them; the
  constrained fallback finds the only layout;
* shown declaration cards equal the reference's scoring declarations;
* with ``dd`` in every seat, the one-solve path gives the rows card-by-card play gives;
* determinism across threads and deal ranges; bad ``worlds``.
"""

from __future__ import annotations

import inspect
import random

import numpy as np
import pandas as pd
import pytest

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.game.cards import iter_cards, parse_cards
from belot_sim.kernels.core.declarations import shown_cards
from belot_sim.kernels.core import layouts as L
from belot_sim.kernels.players.pimc import pimc_card
from belot_sim.kernels.players.owners import model_odds, sample_model_layout
from belot_sim.kernels.players.sampling import sample_layout
from belot_sim.kernels.core.layouts import SCRATCH_SIZE, SW_HANDS, SW_REJECTED, SW_RNG
from belot_sim.simulation.deals import simulate
from helpers import (CallCounter, check_layout, fresh_view, play_card, random_deal, replay_and_compare,
                     without_compile_lines)


FULL = (1 << 32) - 1


def test_dd_plays_a_best_double_dummy_card():
    checked = 0
    for rules, contract in [(bs.BULGARIAN, c) for c in ("C", "H", "NT", "AT")] + [(bs.CLASSIC, "S")]:
        deals, plays = simulate(2, rules=rules, contract=contract, players="dd", seed=5, plays=True)
        replay_and_compare(deals, plays, rules, check_steps=False)
        cards = plays["card"].to_numpy().reshape(-1, 32)
        for i, row in enumerate(deals.itertuples()):
            state = ref.DealState.from_hands([getattr(row, f"hand{s}") for s in range(4)], contract=contract,
                                             declarer=row.declarer, dealer=row.dealer, rules=rules)
            for k in range(31):
                if len(state.legal_actions()) > 1:
                    values = bs.solve_moves(state)
                    assert values[int(cards[i, k])] == max(values.values()), (contract, i, k)
                    checked += 1
                state.play(int(cards[i, k]))
    assert checked > 150


@pytest.mark.parametrize("rules", [bs.BULGARIAN.replace(undertrump="required"),
                                   bs.CLASSIC.replace(all_no_trumps=True, declarations=True)],
                         ids=["bulgarian-strict", "classic-all"])
def test_pimc_deals_replay_in_the_reference(rules):
    deals, plays = simulate(12, rules=rules, players=("pimc", "hard", "pimc", "random"), seed=3, worlds=3,
                            plays=True)
    assert replay_and_compare(deals, plays, rules, check_steps=True) == 12


def test_pimc_kernel_has_no_argument_for_other_hands():
    params = list(inspect.signature(pimc_card.py_func).parameters)
    assert params == ["legal", "r32", "hand", "seat", "view", "family", "ctx", "tt", "scratch", "sampler",
                      "node_budget"]


def _scratch(seed: int) -> np.ndarray:
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    scratch[SW_RNG] = seed
    return scratch


def _model_layout(view, me, hand, scratch):
    """A layout of the card-ownership model (its odds for the decision filled first, as a search does)."""
    model_odds(view, me, hand, scratch)
    sample_model_layout(view, me, hand, scratch)


@pytest.mark.parametrize("sample", [sample_layout, _model_layout], ids=["uniform", "model"])
def test_layouts_are_consistent_with_the_view(sample):
    rng = random.Random(8)
    for i in range(150):
        rules = bs.BULGARIAN.replace(undertrump="required") if i % 2 else bs.CLASSIC.replace(all_no_trumps=True)
        state = random_deal(rng, rules.contracts[i % 6], rules)
        view = fresh_view(state)
        for _ in range(rng.randrange(0, 29)):
            play_card(state, view, rng.choice(state.legal_actions()))
        me = state.to_move
        for s in range(4):  # pretend some unplayed cards were shown (as declarations are)
            if s != me and state.hands[s] and rng.random() < 0.5:
                view[L.V_KNOWN + s] = 1 << rng.choice(list(iter_cards(state.hands[s])))
        scratch = _scratch(i)
        for _ in range(20):
            sample(view, me, np.int64(state.hands[me]), scratch)
            check_layout([int(h) for h in scratch[SW_HANDS:SW_HANDS + 4]], state, view, me)


def test_constrained_fallback_finds_the_only_layout():
    hands = ["7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD", "7H 8H 9H TH JH QH KH AH",
             "7S 8S 9S TS JS QS KS AS"]
    state = ref.DealState.from_hands(hands, contract="NT", declarer=0, dealer=3)
    view = fresh_view(state)
    masks = [parse_cards(h) for h in hands]
    for s in (1, 2, 3):  # each other seat can hold only its own suit: one layout in C(24; 8, 8, 8)
        view[L.V_EXCLUDED + s] = FULL & ~masks[s]
    scratch = _scratch(1)
    sample_layout(view, 0, masks[0], scratch)
    assert scratch[SW_REJECTED] == 1  # uniform tries cannot hit it
    assert [int(h) for h in scratch[SW_HANDS:SW_HANDS + 4]] == masks


def test_unconstrained_layouts_are_uniform():
    rng = random.Random(4)
    state = random_deal(rng, "H", bs.BULGARIAN)
    view = fresh_view(state)
    me = state.to_move
    counts = np.zeros((32, 4))
    scratch = _scratch(2)
    samples = 3000
    for _ in range(samples):
        sample_layout(view, me, state.hands[me], scratch)
        for s in range(4):
            if s != me:
                for c in iter_cards(int(scratch[SW_HANDS + s])):
                    counts[c, s] += 1
    unseen = [c for c in range(32) if not state.hands[me] >> c & 1]
    observed = counts[unseen][:, [s for s in range(4) if s != me]]
    expected = samples / 3
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    # 24 cards x 3 seats with 24 x 2 = 48 degrees of freedom: P(chi2 > 90) < 1e-4.
    assert chi2 < 90, chi2


def _scoring_declaration_cards(hands, contract, rules) -> list[int]:
    per_seat = [ref.find_declarations(h) for h in hands]
    one_contest = rules.is_classic or rules.declaration_contest == "single"
    categories = [None] if one_contest else ["sequence", "carre"]
    shown = [0, 0, 0, 0]
    for kind in categories:
        chosen = [[d for d in decls if kind is None or d.kind == kind] for decls in per_seat]
        points = ref.resolve_declarations(chosen, contract, rules)
        for s in range(4):
            if points[s % 2] > 0:
                for d in chosen[s]:
                    shown[s] |= d.cards
    return shown


def test_shown_declaration_cards_match_the_reference():
    rng = random.Random(12)
    seen = 0
    for i in range(3000):
        rules = (bs.BULGARIAN, bs.CLASSIC.replace(declarations=True), bs.BRIDGE_BELOT_2001)[i % 3]
        pack = list(range(32))
        rng.shuffle(pack)
        hands = [sum(1 << c for c in pack[8 * s:8 * s + 8]) for s in range(4)]
        contract = rng.choice([c for c in rules.contracts if str(c) != "NT"])
        out = np.zeros(4, dtype=np.int64)
        shown_cards(np.array(hands, dtype=np.int64), int(contract), rules.is_classic,
                    rules.declaration_contest == "single", out)
        expected = _scoring_declaration_cards(hands, contract, rules)
        assert [int(x) for x in out] == expected, (hands, contract)
        seen += any(expected)
    assert seen > 1000


def test_pimc_plays_depend_on_its_worlds():
    players = ("pimc", "dd", "hard", "pimc")
    one = simulate(10, players=players, seed=6, worlds=3, plays=True)
    more_worlds = simulate(10, players=players, seed=6, worlds=6, plays=True)
    assert not np.array_equal(more_worlds[1]["card"].to_numpy(), one[1]["card"].to_numpy())


@pytest.mark.parametrize("rules", ["bulgarian", bs.CLASSIC.replace(all_no_trumps=True, declarations=True)])
def test_all_dd_deals_from_one_solve_match_card_by_card_play(rules):
    """``plays=True`` plays every card (the plays are recorded); without it a deal with four dd
    seats is one minimax solve when that is exact (kernels/dd_deal.py): the rows must agree."""
    played, _plays = simulate(72, players="dd", rules=rules, seed=12, plays=True)
    solved = simulate(72, players="dd", rules=rules, seed=12)
    pd.testing.assert_frame_equal(played, solved)
    assert played["contract"].nunique() == 6
    assert (played["valat"] >= 0).any()
    auction = dict(players="dd", rules=rules, bidders="heuristic", seed=3)
    pd.testing.assert_frame_equal(simulate(24, plays=True, **auction)[0], simulate(24, **auction))


def test_blocks_give_the_same_deals(monkeypatch, capsys):
    """Searching players run in blocks of at most SLOW_BLOCK deals (sized to about half a second);
    blocks of 3 give the same deals and plays as whatever blocks the run chose, with the bar."""
    from belot_sim.simulation import deals as sim_module

    players = ("pimc", "dd", "hard", "dd")
    whole = simulate(7, players=players, seed=8, worlds=3, plays=True)
    assert without_compile_lines(capsys.readouterr().err) == ""  # no bar unless asked
    calls = CallCounter(monkeypatch, sim_module, "rollout")
    monkeypatch.setattr(sim_module, "SLOW_BLOCK", 3)
    blocks = simulate(7, players=players, seed=8, worlds=3, plays=True, progress=True)
    err = capsys.readouterr().err
    assert calls.count >= 3 and "7/7" in err and "deals/s" in err  # at most 3 deals a call
    pd.testing.assert_frame_equal(whole[0], blocks[0])
    pd.testing.assert_frame_equal(whole[1], blocks[1])


def test_dd_beats_hard_in_a_duplicate_tournament():
    result = bs.tournament("dd", "hard", 60, seed=2)
    assert result.table.loc["all", "ci_low"] > 0, result


@pytest.mark.parametrize("worlds", [0, -1, 1.5, "20"])
def test_bad_worlds(worlds):
    with pytest.raises((ValueError, TypeError), match="worlds"):
        simulate(1, players="pimc", worlds=worlds)


def test_dd_best_is_the_lowest_best_card():
    from belot_sim.kernels.solver import api as ks

    rng = random.Random(31)
    ctx = ks.new_ctx()
    tt = np.zeros(2 << 16, dtype=np.int64)
    for i in range(120):
        rules = [bs.BULGARIAN, bs.BULGARIAN.replace(undertrump="required", at_overtake_partner=False),
                 bs.CLASSIC.replace(all_no_trumps=True)][i % 3]
        state = random_deal(rng, rules.contracts[i % 6], rules)
        for _ in range(rng.randrange(8, 27)):
            state.play(rng.choice(state.legal_actions()))
        if len(state.legal_actions()) < 2:
            continue
        values = bs.solve_moves(state)
        team = state.to_move % 2
        trick = np.zeros(4, dtype=np.int64)
        for k, (_, card) in enumerate(state.trick):
            trick[k] = card
        best = max(values.values())
        # no guess, a good one, a poor one: where the value's search starts never changes the answer
        for k, guess in enumerate((-1, best, rng.randrange(0, 300))):
            card, value = ks.dd_best(np.array(state.hands, dtype=np.int64), state.leader, trick, len(state.trick),
                                     int(state.contract), team, 1 if rules.is_classic else 0,
                                     rules.undertrump == "required", rules.at_overtake_partner,
                                     state.tricks_won[1 - team] == 0, ctx, tt, 3 * i + k + 1, guess)
            assert value == best
            assert card == min(c for c, v in values.items() if v == best), i


@pytest.mark.parametrize("shown", ["first_trick", "end"])
def test_declarations_are_known_from_the_second_trick_only_when_shown_then(shown):
    """The view a bot rebuilds (and the play loop's, the same functions) holds the scoring team's
    declaration cards from the end of the first trick on with ``declarations_shown="first_trick"``,
    and never with ``"end"``: then the deal's rules hide them until it is scored."""
    from belot_sim.positions.bots import fill_record, new_record
    from belot_sim.kernels.players.position import public_view

    rules = bs.BULGARIAN.replace(declarations_shown=shown)
    hands = ["7H 8H 9H JS QS KS 7C 8C", "TH QH KH AH 9S TS AS 9C", "JH 7S 8S 7D 8D 9D TC JC",
             "TD JD QD KD AD QC KC AC"]
    state = ref.DealState.from_hands(hands, contract="C", declarer=1, dealer=3, rules=rules)
    known = []
    while len(state.plays) < 8:
        record = new_record(rules, 0, False)
        fill_record(record, state)
        view = np.zeros(L.V_SIZE, dtype=np.int64)
        public_view(record, view)
        hidden = int(view[L.V_PLAYED]) | parse_cards("QC KC")  # played, or shown by a belot announced
        known.append([int(view[L.V_KNOWN + s]) & ~hidden for s in range(4)])
        state.play(state.legal_actions()[0])
    expected = np.zeros(4, dtype=np.int64)
    shown_cards(np.array([parse_cards(h) for h in hands], dtype=np.int64), 0, False, False, expected)
    assert expected[1] and expected[3] and not expected[0]  # team 1's quint beats team 0's tierces
    assert not any(any(k) for k in known[:4])  # during the first trick nothing is shown
    for k in known[4:]:
        if shown == "end":
            assert not any(k)
        else:
            assert [bool(x) for x in k] == [False, True, False, True]
