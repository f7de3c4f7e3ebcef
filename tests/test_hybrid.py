"""``hybrid`` and the card-ownership model behind its layouts.

* ``hybrid`` plays ``neural``'s card before ``SEARCH_FROM_TRICK`` and its search's card from then on;
  its deals replay in the reference engine; rearranging the cards the mover cannot see leaves its
  choices unchanged; rows are the same for any threads and split (tests/test_reproducibility.py);
* a search stops drawing layouts once its solver nodes pass the budget (the worst-case bound);
* the model's probabilities: the kernel's forward pass equals torch's, they sum to 1 over the seats that
  may hold a card and are 0 for the others, and they do not depend on the hidden cards;
* model layouts: uniform when the odds are even, drawn to the seat the odds favour (consistent with the
  view: tests/test_search_players.py);
* the labels (``owner_deals``) are the true holders; the training's shards, fit and report.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch

import belot_sim as bs
from belot_sim.game.cards import iter_cards, popcount
from belot_sim.kernels.core import layouts as L
from belot_sim.kernels.core.layouts import SCRATCH_SIZE, SP_NODES, SP_SOLVED, SP_WORLDS, SW_HANDS, SW_ODDS, SW_RNG
from belot_sim.kernels.core.tables import NT
from belot_sim.kernels.players import hybrid, owners
from belot_sim.kernels.players.encoding import swap_card
from belot_sim.kernels.players.neural import INPUTS, neural_card
from belot_sim.kernels.players.pimc import NO_BUDGET, UNIFORM_LAYOUTS, pimc_card
from belot_sim.kernels.solver.api import new_ctx
from belot_sim.positions.bots import Bot
from belot_sim.training import data as shards
from belot_sim.training.fit import FitPlan, Network, OwnersTask, evaluate, fit, save_weights
from belot_sim.training.labels import SEEN
from belot_sim.training.ownership import PREDICTORS, ownership_report
from test_bots import replay_with_bots
from helpers import RULE_SETS, fresh_view, play_card, random_deal, rearranged, replay_and_compare, view_of

ROOT = Path(__file__).resolve().parent.parent
FULL = (1 << 32) - 1
CTX = new_ctx(2)
TT = np.zeros(2 << 16, dtype=np.int64)


def positions(seed: int, n: int, rules=bs.BULGARIAN, tricks=(0, 8)):
    """``(state, view)`` at random points (trick in ``tricks``) of random deals, the mover with a choice."""
    rng = random.Random(seed)
    for i in range(n):
        state = random_deal(rng, rules.contracts[i % len(rules.contracts)], rules)
        view = fresh_view(state)
        for _ in range(rng.randrange(4 * tricks[0], min(31, 4 * tricks[1]))):
            play_card(state, view, rng.choice(state.legal_actions()))
        if len(state.legal_actions()) > 1 and tricks[0] <= state.trick_number < tricks[1]:
            yield state, view


def scratch_for(stream: int, worlds: int = 8) -> np.ndarray:
    s = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    s[SP_WORLDS] = worlds
    s[SW_RNG] = stream
    return s


def call(kernel, state, view, stream: int, *extra):
    seat = state.to_move
    s = scratch_for(stream)
    card = int(kernel(np.int64(state.legal_mask()), np.uint64(99), np.int64(state.hands[seat]), seat, view,
                      1 if state.rules.is_classic else 0, CTX, TT, s, *extra))
    return card, s


# --- the player ------------------------------------------------------------------------------------

def test_hybrid_plays_the_networks_card_early_and_the_searchs_card_later():
    early = late = 0
    for i, (state, view) in enumerate(positions(5, 160)):
        seat = state.to_move
        card, _ = call(hybrid.hybrid_card, state, view, i)
        if state.trick_number < hybrid.SEARCH_FROM_TRICK:
            assert card == neural_card(np.int64(state.legal_mask()), np.int64(state.hands[seat]), seat, view)
            early += 1
        else:
            expected, _ = call(pimc_card, state, view, i, hybrid.LAYOUTS, hybrid.NODE_BUDGET)
            assert card == expected
            late += 1
    assert early > 30 and late > 30


@pytest.mark.parametrize("rules_name", ["bulgarian-strict", "classic-all"])
def test_hybrid_deals_replay_in_the_reference(rules_name):
    rules = RULE_SETS[rules_name]
    deals, plays = bs.simulate(12, rules=rules, players=("hybrid", "hard", "hybrid", "pimc"), seed=3, worlds=4,
                               plays=True)
    assert replay_and_compare(deals, plays, rules, check_steps=True) == 12


@pytest.mark.parametrize("rules_name", ["bulgarian-strict", "classic-all"])
def test_hybrid_bots_make_simulates_cards_after_heuristic_auctions(rules_name):
    """A bot reads the auction as the play loop hands it to hybrid's search (its layouts replay it)."""
    assert replay_with_bots(RULE_SETS[rules_name], ("hybrid", "hard", "hybrid", "hard"), "heuristic", 10, seed=5,
                            worlds=4) > 8 * 32


def test_hybrid_does_not_see_hidden_cards():
    rng = random.Random(31)
    compared = changed = 0
    bot = Bot("hybrid", worlds=4, seed=2)
    for i in range(60):
        state = random_deal(rng, bs.Contract(i % 6), bs.BULGARIAN)
        for _ in range(rng.randrange(2, 28)):
            state.play(rng.choice(state.legal_actions()))
        other = rearranged(state, view_of(state), rng)
        if other is None:
            continue
        changed += other.hands != state.hands
        assert bot.play(other) == bot.play(state), i
        compared += 1
    assert compared > 30 and changed > 25


def test_a_search_stops_drawing_layouts_past_its_node_budget():
    """The worst-case bound: with a budget of 0 one layout is solved, without one every layout is."""
    checked = 0
    for i, (state, view) in enumerate(positions(8, 60, tricks=(0, 2))):
        _, unbounded = call(pimc_card, state, view, i, UNIFORM_LAYOUTS, NO_BUDGET)
        if unbounded[SP_SOLVED] < 2:
            continue  # elimination settled after one layout: nothing to bound
        _, bounded = call(pimc_card, state, view, i, UNIFORM_LAYOUTS, 0)
        assert bounded[SP_SOLVED] == 1 and 0 < bounded[SP_NODES] < unbounded[SP_NODES]
        checked += 1
    assert checked > 10


# --- the card-ownership model ----------------------------------------------------------------------

def test_the_models_forward_pass_equals_torchs():
    arrays = owners.load_weights(owners.PACKAGE_WEIGHTS)
    net = Network(arrays[0].shape[1], arrays[2].shape[1], owners.OUTPUTS)
    linear = [m for m in net.layers if isinstance(m, torch.nn.Linear)]
    with torch.no_grad():
        for layer, w, b in zip(linear, arrays[0::2], arrays[1::2]):
            layer.weight.copy_(torch.from_numpy(w.T))
            layer.bias.copy_(torch.from_numpy(b))
    rng = np.random.default_rng(5)
    obs = np.zeros((200, L.O_SIZE), dtype=np.int8)
    obs[:, :INPUTS] = rng.random((200, INPUTS)) < rng.uniform(0.02, 0.3, (200, 1))
    with torch.no_grad():
        expected = net(torch.from_numpy(obs[:, :INPUTS].astype(np.float32))).numpy()
    out = np.empty(owners.OUTPUTS, dtype=np.float32)
    for i in range(200):
        owners.owner_logits(obs[i], out)
        np.testing.assert_allclose(out, expected[i], rtol=1e-4, atol=1e-4 * max(1.0, np.abs(expected[i]).max()))


def test_probabilities_cover_the_seats_that_may_hold_each_card():
    p = np.empty(128)
    checked = 0
    for state, view in positions(11, 80):
        me = state.to_move
        n = owners.owner_probabilities(view, me, np.int64(state.hands[me]), p)
        table = p.reshape(32, 4)
        unseen = FULL & ~state.hands[me] & ~int(view[L.V_PLAYED])
        for c in range(32):
            if not unseen >> c & 1:
                assert not table[c].any()
                continue
            assert table[c, me] == 0
            for s in range(4):
                if view[L.V_EXCLUDED + s] >> c & 1:
                    assert table[c, s] == 0
            assert table[c].sum() == pytest.approx(1.0)
            checked += 1
        assert n == popcount(unseen)  # no card shown in these positions
    assert checked > 500


def test_probabilities_do_not_depend_on_hidden_cards():
    rng = random.Random(13)
    compared = 0
    p, q = np.empty(128), np.empty(128)
    for state, _ in positions(12, 120):
        other = rearranged(state, view_of(state), rng)
        if other is None or other.hands == state.hands:
            continue
        me = state.to_move
        owners.owner_probabilities(view_of(state), me, np.int64(state.hands[me]), p)
        owners.owner_probabilities(view_of(other), me, np.int64(other.hands[me]), q)
        assert np.array_equal(p, q)
        compared += 1
    assert compared > 30


def _frequencies(state, view, odds, samples=3000):
    me = state.to_move
    scratch = scratch_for(3)
    scratch[SW_ODDS:SW_ODDS + 128] = odds
    counts = np.zeros((32, 4))
    for _ in range(samples):
        owners.sample_model_layout(view, me, np.int64(state.hands[me]), scratch)
        for s in range(4):
            for c in iter_cards(int(scratch[SW_HANDS + s])):
                counts[c, s] += 1
    return counts / samples


def test_even_odds_deal_uniformly_and_odds_move_cards():
    state = random_deal(random.Random(4), "H", bs.BULGARIAN)
    view = fresh_view(state)
    me = state.to_move
    others = [s for s in range(4) if s != me]
    unseen = [c for c in range(32) if not state.hands[me] >> c & 1]
    even = _frequencies(state, view, owners.ODDS_ONE)[unseen][:, others]
    chi2 = float(((even * 3000 - 1000) ** 2 / 1000).sum())
    assert chi2 < 90, chi2  # 48 degrees of freedom: P(chi2 > 90) < 1e-4
    odds = np.full(128, owners.ODDS_ONE, dtype=np.int64)
    favoured = {c: others[k % 3] for k, c in enumerate(unseen[:6])}
    for c, s in favoured.items():
        odds[4 * c + s] = 20 * owners.ODDS_ONE
    skewed = _frequencies(state, view, odds)
    for c, s in favoured.items():
        assert skewed[c, s] > 0.75, (c, s, skewed[c])


# --- labels and training ---------------------------------------------------------------------------

def test_ownership_labels_are_the_true_holders():
    deals, plays = bs.simulate(30, players="hard", seed=6, plays=True)
    frame = shards.owner_frame(deals, plays, threads=1)
    cards = plays["card"].to_numpy().reshape(-1, 32)
    row = 0
    for i, deal in enumerate(deals.itertuples()):
        hands = [int(getattr(deal, f"hand{s}")) for s in range(4)]
        state = bs.reference.DealState.from_hands(hands, contract=str(deal.contract), declarer=deal.declarer,
                                                  dealer=deal.dealer)
        swap = int(state.contract) if int(state.contract) < NT else 0
        for k in range(32):
            if len(state.legal_actions()) > 1:
                me = state.to_move
                expected = np.full(32, SEEN)
                for s in range(4):
                    if s != me:
                        for c in iter_cards(state.hands[s]):
                            expected[swap_card(c, swap)] = (s - me) % 4
                assert np.array_equal(frame["owners"][row], expected) and frame["trick"][row] == k // 4
                row += 1
            state.play(int(cards[i, k]))
    assert row == len(frame["owners"]) > 500


def test_a_fit_of_ownership_resumes_and_beats_no_knowledge(tmp_path):
    def data(seed):
        deals, plays = bs.simulate(2000, players="hard", seed=seed, plays=True)
        return shards.owner_frame(deals, plays, threads=1)

    train, valid = data(1), data(2)
    plan = FitPlan(epochs=2, hidden1=32, hidden2=16, batch=256, learning_rate=3e-3, threads=1, kind="owners")
    whole = fit(tmp_path / "whole", train, valid, plan, log=lambda line: None)

    class Stop(Exception):
        pass

    def stop(line):
        raise Stop(line)

    with pytest.raises(Stop):
        fit(tmp_path / "stopped", train, valid, plan, log=stop)
    resumed = fit(tmp_path / "stopped", train, valid, plan, log=lambda line: None)
    assert all(torch.equal(a, b) for a, b in zip(whole.parameters(), resumed.parameters()))
    curve = pd.read_csv(tmp_path / "whole" / "curve.csv")
    even = Network(32, 16, owners.OUTPUTS)  # every logit 0: even odds over the seats not excluded
    for parameter in even.parameters():
        torch.nn.init.zeros_(parameter)
    assert curve["val_loss"].iloc[-1] < evaluate(even, valid, OwnersTask)[0] - 0.02
    path = save_weights(resumed, tmp_path / "owners.npz", {"test": True})
    assert [a.shape for a in owners.load_weights(path)][-2:] == [(16, owners.OUTPUTS), (owners.OUTPUTS,)]


def test_the_report_ranks_the_shipped_model_above_uniform_layouts():
    deals, plays = bs.simulate(60, players="hard", bidders="heuristic", seed=9, plays=True)
    table = ownership_report(deals, plays, samples=100, threads=1)
    assert list(table.columns) == ["hidden cards", *PREDICTORS]
    assert table.loc["all", "hidden cards"] > 1000
    assert table.loc["all", "model"] < table.loc["all", "uniform layouts"] < 1.1
    with pytest.raises(ValueError, match="no auction"):
        ownership_report(*bs.simulate(5, players="hard", seed=1, plays=True))


def test_the_training_script_runs_and_resumes(tmp_path):
    command = [sys.executable, str(ROOT / "scripts" / "train_owners.py"), "--out", str(tmp_path), "--shards", "2",
               "--deals", "40", "--epochs", "1", "--hidden", "8", "8", "--threads", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    first = (tmp_path / "owners.npz").read_bytes()
    assert [a.shape for a in owners.load_weights(tmp_path / "owners.npz")][:2] == [(INPUTS, 8), (8,)]
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
    again = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0 and "data:" not in again.stdout
    assert (tmp_path / "owners.npz").read_bytes() == first
