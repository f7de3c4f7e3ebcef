"""The ``neural`` player: one encoding shared with the environment, a forward pass equal to torch's, its
choices, its weights file, and the training pipeline (labels, shards, fit, resume) — the ``train``
extra's PyTorch is installed for the tests (.ci/run)."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.game.cards import iter_cards
from belot_sim.kernels.core import layouts as L
from belot_sim.kernels.core.tables import NT
from belot_sim.kernels.players import neural
from belot_sim.kernels.players.encoding import encode_play, swap_card, swap_mask
from belot_sim.kernels.core.mlp import WEIGHT_NAMES
from belot_sim.positions.bots import Bot, turned_card_of
from belot_sim.training import data as shards
from belot_sim.training.fit import FitPlan, Network, fit, save_weights, unpack
from belot_sim.training.labels import NOT_LEGAL
from helpers import RULE_SETS, random_deal, rearranged, view_of

ROOT = Path(__file__).resolve().parent.parent


def encoded(state, view, swap: int = 0) -> np.ndarray:
    obs = np.zeros(L.O_SIZE, dtype=np.int8)
    encode_play(obs, state.to_move, state.hands[state.to_move], view, swap)
    return obs


ALL_RULES = tuple(RULE_SETS.values())


def random_positions(seed: int, n: int, rules_list=ALL_RULES):
    rng = random.Random(seed)
    for i in range(n):
        rules = rules_list[i % len(rules_list)]
        state = random_deal(rng, rules.contracts[i % len(rules.contracts)], rules)
        for _ in range(rng.randrange(0, 31)):
            state.play(rng.choice(state.legal_actions()))
        yield rng, state


# --- one encoding --------------------------------------------------------------------------------

def test_the_environments_observation_is_the_networks_input():
    """At every play decision of environment episodes (both families, the classic turned card shown),
    the observation's first INPUTS entries are what the neural player encodes from its own view."""
    pytest.importorskip("pettingzoo")  # the env extra is installed in CI (.ci/run)
    from belot_sim import env as belot_env

    compared = 0
    for rules in (bs.BULGARIAN, bs.CLASSIC.replace(all_no_trumps=True)):
        e = belot_env.raw_env(rules=rules, seed=4)
        for episode in range(12):
            e.reset()
            rng = random.Random(episode)
            while not e.deal.is_over:
                agent = e.agent_selection
                observation = e.observe(agent)
                if e.deal.phase == "play":
                    deal = e.deal.play_state
                    mine = encoded(deal, view_of(deal, turned_card_of(e.deal)))
                    assert np.array_equal(observation["observation"][:neural.INPUTS], mine[:neural.INPUTS])
                    compared += 1
                e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert compared > 500


def test_the_encoding_reads_only_what_the_seat_knows():
    """Moving the unseen cards between the other seats (as the view allows) changes no entry."""
    compared = 0
    for rng, state in random_positions(5, 150):
        view = view_of(state)
        other = rearranged(state, view, rng)
        if other is None:  # another seat's declarations changed what was shown
            continue
        other_view = view_of(other)
        for swap in range(4):
            assert np.array_equal(encoded(other, other_view, swap), encoded(state, view, swap))
        compared += other.hands != state.hands
    assert compared > 100


def test_a_suit_swap_renames_every_card_slot():
    for _rng, state in random_positions(6, 60):
        view = view_of(state)
        plain = encoded(state, view)
        for swap in (1, 2, 3):
            swapped = encoded(state, view, swap)
            for slot in L.OBSERVATION.slots:
                if slot.name in ("CONTRACT", "AUCTION") or slot.size % 32:
                    continue
                for k in range(slot.size // 32):
                    for c in range(32):
                        assert swapped[slot.offset + 32 * k + swap_card(c, swap)] == plain[slot.offset + 32 * k + c]
            contract = int(state.contract)
            named = swap_card(8 * contract, swap) >> 3 if contract < NT else contract
            assert swapped[L.O_CONTRACT + named] == 1
    mask = bs.parse_cards("7C AC JH 9S")
    assert bs.format_cards(swap_mask(mask, 2)) == bs.format_cards(bs.parse_cards("7H AH JC 9S"))


# --- the network ---------------------------------------------------------------------------------

def shipped_network() -> Network:
    w1, b1, w2, b2, w3, b3 = neural.load_weights(neural.PACKAGE_WEIGHTS)
    net = Network(w1.shape[1], w2.shape[1])
    linear = [m for m in net.layers if isinstance(m, torch.nn.Linear)]
    with torch.no_grad():
        for layer, w, b in zip(linear, (w1, w2, w3), (b1, b2, b3)):
            layer.weight.copy_(torch.from_numpy(w.T))
            layer.bias.copy_(torch.from_numpy(b))
    return net


def test_the_kernels_forward_pass_equals_torchs():
    net = shipped_network()
    rng = np.random.default_rng(3)
    obs = np.zeros((300, L.O_SIZE), dtype=np.int8)
    obs[:, :neural.INPUTS] = rng.random((300, neural.INPUTS)) < rng.uniform(0.02, 0.3, (300, 1))
    with torch.no_grad():
        expected = net(torch.from_numpy(obs[:, :neural.INPUTS].astype(np.float32))).numpy()
    out = np.empty(32, dtype=np.float32)
    for i in range(300):
        neural.network_values(obs[i], out)
        np.testing.assert_allclose(out, expected[i], rtol=1e-4, atol=1e-4 * max(1.0, np.abs(expected[i]).max()))
    exported = net.weights()
    for name, array in zip(WEIGHT_NAMES, neural.load_weights(neural.PACKAGE_WEIGHTS)):
        assert np.array_equal(exported[name], array)


def test_neural_plays_the_legal_card_of_the_highest_value():
    checked = 0
    for _, state in random_positions(8, 150, (bs.BULGARIAN,)):
        legal = state.legal_mask()
        if legal & (legal - 1) == 0:
            continue
        contract = int(state.contract)
        swap = contract if contract < NT else 0
        values = np.empty(32, dtype=np.float32)
        neural.network_values(encoded(state, view_of(state), swap), values)
        best = max(iter_cards(legal), key=lambda c: (values[swap_card(c, swap)], -c))
        assert Bot("neural").play(state) == best
        checked += 1
    assert checked > 90


def test_neural_is_no_weaker_than_hard_in_duplicate_deals():
    """A floor, not the measurement (benchmarks/RESULTS.md has that): far above chance on 600 deals."""
    table = bs.tournament("neural", "hard", 600, bidders="heuristic", seed=41).table
    assert table.loc["all", "ci_low"] > 0


def test_every_entry_point_plays_neural(capsys):
    from belot_sim import env as belot_env
    from belot_sim.cli import main

    deals = bs.simulate(200, players="neural", bidders="heuristic", seed=3)
    assert (deals["contract"].notna()).sum() > 100
    matches, _ = bs.simulate_matches(5, players="neural", seed=3)
    assert len(matches) == 5
    duel = bs.match_tournament(("heuristic", "neural"), ("heuristic", "hard"), 6, seed=1).table
    assert duel.loc["all", "deals"] > 6 and 0 <= duel.loc["all", "match_win_rate"] <= 1
    assert 0 <= bs.estimate_bid("JH 9H AH KS 7C", "H", samples=200, players="neural", seed=1).p_made <= 1
    assert "neural" in " ".join(bs.analyze(next(random_positions(3, 1))[1], worlds=5).table["bots"])
    e = belot_env.env(opponents={1: "neural", 2: "neural", 3: "neural"}, seed=2)
    e.reset()
    while e.agents and not e.terminations[e.agent_selection]:
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert main(["simulate", "-n", "300", "--players", "neural", "--seed", "1"]) == 0
    assert "players neural" in capsys.readouterr().out


# --- the weights file ----------------------------------------------------------------------------

def test_the_shipped_weights_are_small_and_whole():
    assert neural.PACKAGE_WEIGHTS.stat().st_size <= 5 * 2**20
    assert neural.LOADED_FROM == neural.PACKAGE_WEIGHTS


@pytest.mark.parametrize("damage, message", [
    (lambda a: a.pop("w2"), "missing w2"),
    (lambda a: a.update(w1=a["w1"][:-1]), "do not make a network"),
    (lambda a: a["b3"].__setitem__(4, np.nan), "NaN"),
    (lambda a: a.update(w1=np.zeros((neural.INPUTS, 400), np.float32), b1=np.zeros(400, np.float32),
                        w2=np.zeros((400, a["w2"].shape[1]), np.float32)), "larger than Numba compiles"),
])
def test_bad_weights_files_are_refused_by_name(tmp_path, damage, message):
    arrays = dict(zip(WEIGHT_NAMES, neural.load_weights(neural.PACKAGE_WEIGHTS)))
    damage(arrays)
    path = tmp_path / "bad.npz"
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match=message) as info:
        neural.load_weights(path)
    assert str(path) in str(info.value)


def test_kernels_with_the_neural_player_are_cached(tmp_path):
    """Weight arrays over 1 MB would be read through pointers, and Numba caches no kernel holding one:
    every process would compile afresh.  A fresh cache directory, then no 'Cannot cache' warning."""
    code = ("import warnings; warnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as caught:\n"
            "    import belot_sim as bs; bs.simulate(20, players='neural', bidders='heuristic', threads=1)\n"
            "print([str(w.message)[:60] for w in caught if 'cache' in str(w.message)])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
    assert list(tmp_path.rglob("*network_values*.nbi"))


def test_a_missing_weights_file_is_named_before_any_work(monkeypatch, tmp_path):
    missing = tmp_path / "nowhere.npz"
    monkeypatch.setenv("BELOT_SIM_NEURAL_WEIGHTS", str(missing))
    for run in (lambda: bs.simulate(10, players="neural"), lambda: Bot("neural"),
                lambda: bs.tournament("neural", "hard", 10)):
        with pytest.raises(FileNotFoundError, match="nowhere.npz"):
            run()
    other = tmp_path / "other.npz"
    other.write_bytes(neural.PACKAGE_WEIGHTS.read_bytes())
    monkeypatch.setenv("BELOT_SIM_NEURAL_WEIGHTS", str(other))  # too late: the kernels hold the package's
    for run in (lambda: bs.simulate(10, players="neural"), lambda: Bot("neural")):
        with pytest.raises(ValueError, match="set it before importing belot_sim"):
            run()


# --- training ------------------------------------------------------------------------------------

def test_labels_are_the_solvers_values_of_each_legal_card():
    deals, plays = bs.simulate(6, players="hard", bidders="heuristic", seed=12, plays=True)
    arrays = shards.label_frame(deals, plays)
    played = deals[deals["contract"].notna()].reset_index(drop=True)
    cards = plays["card"].to_numpy().reshape(-1, 32)
    row = 0
    for i, deal in played.iterrows():
        state = ref.DealState.from_hands([int(deal[f"hand{s}"]) for s in range(4)], contract=str(deal["contract"]),
                                         declarer=int(deal["declarer"]), dealer=int(deal["dealer"]),
                                         multiplier=int(deal["multiplier"]))
        contract = int(state.contract)
        swap = contract if contract < NT else 0
        for k in range(32):
            legal = state.legal_mask()
            if legal & (legal - 1):
                expected = np.full(32, NOT_LEGAL)
                for card, value in bs.solve_moves(state).items():
                    expected[swap_card(card, swap)] = value
                assert np.array_equal(arrays["values"][row], expected), (i, k)
                assert arrays["legal"][row] == swap_mask(legal, swap)
                assert arrays["played"][row] == swap_card(int(cards[i, k]), swap)
                obs = unpack(arrays["bits"][row:row + 1])[0]
                assert np.array_equal(obs, encoded(state, view_of(state), swap)[:neural.INPUTS])
                row += 1
            state.play(int(cards[i, k]))
    assert row == len(arrays["legal"]) > 60


def test_shards_resume_and_refuse_damage(tmp_path):
    plan = shards.ShardPlan(tmp_path / "s", seed=3, deals=30, players="hard", threads=1)
    paths = shards.make_shards(plan, 4)
    first = [shards.read_shard(p) for p in paths]
    paths[1].unlink()
    shards.make_shards(plan, 4)
    again = shards.read_shard(paths[1])
    for name in shards.KINDS["values"][1]:
        assert np.array_equal(again[name], first[1][name])
    data = bytearray(paths[2].read_bytes())
    data[len(data) // 2] ^= 0xFF
    paths[2].write_bytes(bytes(data))
    with pytest.raises(ValueError, match="shard_00002.npz"):
        shards.read_shard(paths[2])
    with pytest.raises(ValueError, match="another plan"):
        shards.make_shards(shards.ShardPlan(tmp_path / "s", seed=4, deals=30), 4)
    assert not list((tmp_path / "s").glob(".*tmp"))


def _tiny_data(seed: int):
    deals, plays = bs.simulate(40, players="hard", seed=seed, plays=True)
    return shards.label_frame(deals, plays, threads=1)


class Stop(Exception):
    pass


def test_a_stopped_fit_resumes_to_the_same_weights(tmp_path):
    train, valid = _tiny_data(1), _tiny_data(2)
    plan = FitPlan(epochs=3, hidden1=16, hidden2=8, batch=64, threads=1)
    whole = fit(tmp_path / "whole", train, valid, plan, log=lambda line: None)

    def stop_after_first(line):
        raise Stop(line)

    with pytest.raises(Stop):
        fit(tmp_path / "stopped", train, valid, plan, log=stop_after_first)
    resumed = fit(tmp_path / "stopped", train, valid, plan, log=lambda line: None)
    for a, b in zip(whole.parameters(), resumed.parameters()):
        assert torch.equal(a, b)
    assert len((tmp_path / "stopped" / "curve.csv").read_text().splitlines()) == 4
    with pytest.raises(ValueError, match="another training"):
        fit(tmp_path / "stopped", train, valid, FitPlan(epochs=4, hidden1=16, hidden2=8, batch=64, threads=1))
    path = save_weights(resumed, tmp_path / "w.npz", {"test": True})
    assert [a.shape for a in neural.load_weights(path)] == [(neural.INPUTS, 16), (16,), (16, 8), (8,), (8, 32),
                                                            (32,)]


def test_the_training_script_runs_two_rounds_and_resumes(tmp_path):
    """The documented command with tiny sizes: round 1's shards are played by round 0's weights (recorded
    by digest), each round's weights are checked in duplicate deals, and a rerun changes nothing."""
    command = [sys.executable, str(ROOT / "scripts" / "train_neural.py"), "--out", str(tmp_path), "--shards", "3",
               "--deals", "30", "--rounds", "2", "--round-shards", "3", "--epochs", "1", "--hidden", "8", "8",
               "--eval-deals", "30", "--threads", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    first = {p.name: p.read_bytes() for p in tmp_path.glob("*.npz")}
    assert set(first) == {"neural-0.npz", "neural-1.npz", "neural.npz"}
    assert first["neural.npz"] == first["neural-1.npz"] != first["neural-0.npz"]
    assert [a.shape for a in neural.load_weights(tmp_path / "neural.npz")][:2] == [(neural.INPUTS, 8), (8,)]
    digest = hashlib.sha256(first["neural-0.npz"]).hexdigest()[:16]
    assert digest in (tmp_path / "shards-round1" / "shards.json").read_text()
    for r in range(2):
        table = pd.read_csv(tmp_path / f"evaluation-{r}.csv", index_col=0)
        assert table.loc["all", "deals"] == 30
    assert len(pd.read_csv(tmp_path / "curve.csv")) == 1
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
    again = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0, again.stderr[-3000:]
    assert {p.name: p.read_bytes() for p in tmp_path.glob("*.npz")} == first
    assert "data: round" not in again.stdout  # every shard was there


def test_the_training_script_checks_its_arguments():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "train_neural.py"), "--shards", "0"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "--shards must be at least 1" in result.stderr
