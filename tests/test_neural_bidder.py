"""The ``neural`` bidder: its inputs against a readable encoding of the reference auction, its calls,
its place among the bidders (names, models of an auction, classic refused, weights required), and its
labels against the engine's own deals."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.kernels.bid_models import neural_bidder
from belot_sim.kernels.bid_models.codes import HEURISTIC, NEURAL_BIDDER
from belot_sim.kernels.core import layouts as L
from belot_sim.kernels.core.auction_rules import CALL_NAMES, CALL_OF_NAME
from belot_sim.kernels.core.rule_flags import flags_of
from belot_sim.positions.bots import Bot
from belot_sim.training.data import call_frame, read_shard
from belot_sim.training import call_labels
from belot_sim.training.call_labels import NOT_LEGAL_CALL
from belot_sim.training.fit import unpack
from helpers import pack_of

ROOT = Path(__file__).resolve().parent.parent
BID_NAMES = CALL_NAMES[1:]  # the calls a seat's history records


SCORE_STEPS = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 105, 110, 115, 120, 125, 130, 135, 140, 145, 150]


def reference_inputs(auction: ref.AuctionState, hand5: int, declarations: bool = True,
                     score: tuple[int, int] = (0, 0)) -> np.ndarray:
    """The bidder's inputs, written out from the reference auction (layout ``CALL_OBSERVATION``) at the
    match score ``score`` (teams 0 and 1, towards 151)."""
    x = np.zeros(L.B_SIZE, dtype=np.int8)
    seat = auction.to_move
    for c in range(32):
        x[L.B_HAND + c] = hand5 >> c & 1
    x[L.B_POSITION + (seat - auction.dealer - 1) % 4] = 1
    x[L.B_CONTRACT + (0 if auction.contract is None else int(auction.contract) + 1)] = 1
    if auction.contract is not None:
        x[L.B_DECLARER + (auction.declarer - seat) % 4] = 1
    if auction.multiplier > 1:
        x[L.B_MULTIPLIER + (auction.multiplier == 4)] = 1
    if auction.passes:
        x[L.B_PASSES + auction.passes - 1] = 1
    for caller, call in auction.calls:
        if call != "pass":
            x[L.B_CALLED + (caller - seat) % 4 * len(BID_NAMES) + BID_NAMES.index(call)] = 1
    x[L.B_DECLARATIONS] = declarations
    ours, theirs = score[seat % 2], score[1 - seat % 2]
    for k, step in enumerate(SCORE_STEPS):
        x[L.B_SCORE + k], x[L.B_SCORE + len(SCORE_STEPS) + k] = ours >= step, theirs >= step
    return x


def kernel_inputs(auction: ref.AuctionState, hand5: int, rules, score: tuple[int, int] = (0, 0)) -> np.ndarray:
    state = np.zeros(L.A_SIZE, dtype=np.int64)
    state[L.A_SCORE:L.A_SCORE + 2] = score
    state[L.A_CONTRACT] = -1 if auction.contract is None else int(auction.contract)
    state[L.A_DECLARER], state[L.A_MULTIPLIER], state[L.A_PASSES] = auction.declarer, auction.multiplier, auction.passes
    state[L.A_N_CALLS], state[L.A_DEALER], state[L.A_TO_MOVE] = len(auction.calls), auction.dealer, auction.to_move
    state[L.A_CALLS:L.A_CALLS + len(auction.calls)] = [CALL_OF_NAME[call] for _, call in auction.calls]
    obs = np.empty(L.B_SIZE, dtype=np.int8)
    neural_bidder.encode_call(obs, np.int64(hand5), auction.to_move, state, flags_of(bs.Rules.coerce(rules)))
    return obs


def random_auctions(seed: int, n: int):
    """Positions of random bulgarian auctions (every legal call equally likely, passes more often)."""
    rng = random.Random(seed)
    for _ in range(n):
        pack = list(range(32))
        rng.shuffle(pack)
        deal = ref.FullDealState(pack, rng.randrange(4))
        while deal.phase == "auction":
            yield deal
            legal = deal.legal_actions()
            deal.play("pass" if rng.random() < 0.4 else rng.choice(legal))


def test_the_inputs_are_the_reference_auctions():
    checked = set()
    rng = random.Random(6)
    for deal in random_auctions(5, 120):
        a = deal.auction
        hand5 = deal.first_hands[a.to_move]
        score = (rng.choice([0, 9, 10, 99, 100, 104, 150, 151, 160, -20]), rng.randrange(-5, 170))
        for rules in ("bulgarian", bs.Rules.preset("bulgarian").replace(declarations=False)):
            expected = reference_inputs(a, hand5, bs.Rules.coerce(rules).declarations, score)
            assert np.array_equal(kernel_inputs(a, hand5, rules, score), expected), (a.calls, rules, score)
        checked.add((a.contract is not None, a.multiplier, a.passes))
    assert len(checked) >= 8  # contracts or none, doubled and redoubled, every count of passes


@pytest.mark.parametrize("target", [151, 101])
def test_a_bot_in_a_match_calls_as_the_match_kernel(target):
    """The match score reaches the bidder the same way in both: every call of ``simulate_matches``'s
    neural seats is the call ``Bot.bid`` makes in the reference ``MatchState`` of the same packs."""
    rules, seed = bs.BULGARIAN.replace(match_target=target), 3
    bidders = ("neural", "heuristic") * 2
    matches, deals, plays, calls = bs.simulate_matches(12, rules=rules, players="hard", bidders=bidders, seed=seed,
                                                       plays=True, calls=True)
    bot = Bot("hard", rules=rules, bidder="neural")
    call_map = {d: list(zip(g["seat"], g["call"])) for d, g in calls.groupby("deal_id", sort=False)}
    play_map = {d: list(zip(g["seat"], g["card"])) for d, g in plays.groupby("deal_id", sort=False)}
    scores_seen, score_mattered = set(), 0
    for m in matches.itertuples(index=False):
        rows = deals[deals["match_id"] == m.match_id]
        packs = [pack_of(seed, d) for d in rows["deal_id"]]
        st = ref.MatchState(rules, dealer=int(m.first_dealer), packs=iter(packs), max_deals=m.deals)
        for deal_id in rows["deal_id"]:
            for seat, call in call_map[deal_id]:
                if bidders[seat] == "neural":
                    assert bot.bid(st) == call, (m.match_id, deal_id, st.scores)
                    scores_seen.add(st.scores)
                    score_mattered += bot.bid(st.deal) != call  # the deal alone: 0 : 0
                st.play(call)
            for _seat, card in play_map.get(deal_id, []):
                st.play(card)
        assert st.winner == m.winner
    assert len(scores_seen) > 40 and score_mattered > 0


def test_the_bidder_makes_the_legal_call_it_values_most():
    bot = Bot("hard", bidder="neural")
    out = np.empty(neural_bidder.OUTPUTS, dtype=np.float32)
    made = set()
    for deal in random_auctions(8, 150):
        a = deal.auction
        neural_bidder.call_values(reference_inputs(a, deal.first_hands[a.to_move]), out)
        legal = [CALL_OF_NAME[c] for c in a.legal_calls()]
        best = max(legal, key=lambda code: (out[code], -code))
        assert bot.bid(deal) == CALL_NAMES[best]
        made.add(CALL_NAMES[best])
    assert {"pass", "double"} <= made and len(made) >= 5


def test_the_bidder_is_a_bidder_everywhere():
    assert "neural" in bs.BIDDERS
    deals = bs.simulate(300, players="hard", bidders="neural", seed=2)
    assert deals["contract"].notna().sum() > 150
    matches, _ = bs.simulate_matches(4, players="neural", bidders=["neural", "heuristic"] * 2, seed=1)
    assert len(matches) == 4
    # deterministic, so it can also be the model of an auction that layouts replay
    estimate = bs.estimate_bid("JH 9H AH KS 7C", "H", seat=1, dealer=3, auction="P", samples=100, players="hard",
                               bidders="neural", seed=1)
    assert 0 <= estimate.p_made <= 1
    with pytest.raises(ValueError, match="trained on bulgarian auctions"):
        bs.simulate(10, bidders="neural", rules="classic")


def test_a_missing_weights_file_is_named_before_any_work(monkeypatch, tmp_path):
    monkeypatch.setenv("BELOT_SIM_BIDDER_WEIGHTS", str(tmp_path / "nowhere.npz"))
    with pytest.raises(FileNotFoundError, match="nowhere.npz"):
        bs.simulate(10, bidders="neural")
    with pytest.raises(FileNotFoundError, match="nowhere.npz"):
        Bot("hard", bidder="neural")


def test_the_shipped_weights_are_small_and_whole():
    assert neural_bidder.PACKAGE_WEIGHTS.stat().st_size <= 5 * 2**20
    assert neural_bidder.LOADED_FROM == neural_bidder.PACKAGE_WEIGHTS


# --- the labels ----------------------------------------------------------------------------------

def test_the_heuristics_calls_are_worth_what_the_deal_scored():
    """Without random calls the labelled auction is simulate's: at every call, the heuristic's call is
    worth the score of the deal as simulate played it (same pack, dealer and play stream)."""
    n, seed = 150, 4
    data = call_frame(seed, 0, n, players="neural", explore=0.0, threads=2)
    deals = bs.simulate(n, players="neural", bidders="heuristic", seed=seed)
    x = unpack(data["bits"], neural_bidder.INPUTS)
    position = x[:, L.B_POSITION:L.B_POSITION + 4].argmax(axis=1)
    no_calls = x[:, L.B_CONTRACT] * (x[:, L.B_PASSES:L.B_PASSES + 3].sum(axis=1) == 0) * \
        (x[:, L.B_CALLED:L.B_CALLED + 32].sum(axis=1) == 0)
    deal_of_row = np.cumsum((no_calls == 1) & (position == 0)) - 1  # an auction's first call starts a deal
    assert deal_of_row[-1] == n - 1
    checked = 0
    for row, i in enumerate(deal_of_row):
        d = deals.iloc[i]
        seat = (d["dealer"] + 1 + position[row]) % 4
        ours, theirs = (0, 0) if pd.isna(d["contract"]) else (d[f"score{seat % 2}"], d[f"score{1 - seat % 2}"])
        assert data["values"][row, data["heuristic"][row]] == ours - theirs
        assert data["own"][row, data["heuristic"][row]] == ours
        checked += 1
    assert checked > 2 * n
    legal = data["values"] != NOT_LEGAL_CALL
    assert legal[:, 0].all() and (legal.sum(axis=1) >= 2).all()
    assert np.array_equal(legal, data["own"] != NOT_LEGAL_CALL)


def test_the_training_script_runs_two_rounds_and_resumes(tmp_path):
    """The documented command with tiny sizes: round 1's auctions seat round 0's bidder (recorded by
    digest), the weights and the curve are written, and a rerun finds everything there."""
    command = [sys.executable, str(ROOT / "scripts" / "train_bidder.py"), "--out", str(tmp_path), "--shards", "2",
               "--round-shards", "2", "--rounds", "2", "--deals", "40", "--epochs", "1", "--hidden", "8", "8",
               "--threads", "1", "--eval-matches", "0", "--odds-deals", "300", "--odds-matches", "10"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    first = {p.name: p.read_bytes() for p in tmp_path.glob("*.npz")}
    assert set(first) == {"bidder-0.npz", "bidder-1.npz", "bidder.npz", "odds.npz"}
    assert first["bidder.npz"] == first["bidder-1.npz"] != first["bidder-0.npz"]
    shapes = [a.shape for a in neural_bidder.load_weights(tmp_path / "bidder.npz")]
    assert shapes == [(neural_bidder.INPUTS, 8), (8,), (1, 8, 8), (8,), (8, 9), (9,)]  # one network: one block
    assert hashlib.sha256(first["bidder-0.npz"]).hexdigest()[:16] in \
        (tmp_path / "shards-round1" / "shards.json").read_text()
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
    shard = read_shard(tmp_path / "shards-round1" / "shard_00001.npz", "calls")
    assert len(shard["bits"]) > 80 and shard["values"].shape == (len(shard["bits"]), 9)
    with pytest.raises(ValueError, match="not a readable shard of values"):
        read_shard(tmp_path / "shards" / "shard_00001.npz", "values")
    again = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "data: round" not in again.stdout and {p.name: p.read_bytes() for p in tmp_path.glob("*.npz")} == first


def test_the_training_script_averages_the_networks_of_independent_seeds(tmp_path):
    """``--seeds 2``: two runs, seeds 3 and 4, each in its folder; the weights are one network of both."""
    command = [sys.executable, str(ROOT / "scripts" / "train_bidder.py"), "--out", str(tmp_path), "--seed", "3",
               "--seeds", "2", "--shards", "2", "--rounds", "1", "--deals", "30", "--epochs", "1", "--hidden", "8",
               "4", "--threads", "1", "--eval-matches", "0", "--odds-deals", "300", "--odds-matches", "10"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    runs = [tmp_path / "seed-3" / "bidder-0.npz", tmp_path / "seed-4" / "bidder-0.npz"]
    assert runs[0].read_bytes() != runs[1].read_bytes()
    w1, _, w2, _, w3, _ = neural_bidder.load_weights(tmp_path / "bidder.npz")
    assert w1.shape == (neural_bidder.INPUTS, 16) and w2.shape == (2, 8, 4) and w3.shape == (8, 9)
    assert json.loads(str(np.load(tmp_path / "bidder.npz")["meta"]))["average of"] == [
        "seed-3/bidder-0.npz", "seed-4/bidder-0.npz"]


def test_an_average_of_networks_is_one_network_of_their_mean(tmp_path):
    """``--average``: the networks side by side, their second layers as blocks; the kernel's outputs are
    the mean of the networks' outputs (numpy's), and a single network is one block with ``forward``'s."""
    from belot_sim.kernels.core.mlp import WEIGHT_NAMES, forward, forward_blocks, load_network
    from belot_sim.training.fit import save_average

    rng = np.random.default_rng(3)
    paths, nets = [], []
    for k, (h1, h2) in enumerate([(16, 8), (16, 8), (12, 6)]):
        shapes = [(neural_bidder.INPUTS, h1), (h1,), (h1, h2), (h2,), (h2, 9), (9,)]
        net = {name: rng.normal(size=shape).astype(np.float32) for name, shape in zip(WEIGHT_NAMES, shapes)}
        paths.append(tmp_path / f"net{k}.npz")
        np.savez(paths[-1], **net)
        nets.append(net)
    averaged = neural_bidder.load_weights(
        save_average(paths[:2], tmp_path / "average.npz", {"test": 1}, neural_bidder.INPUTS, neural_bidder.OUTPUTS))

    def numpy_forward(net, x):
        h = np.maximum(x @ net["w1"] + net["b1"], 0)
        return np.maximum(h @ net["w2"] + net["b2"], 0) @ net["w3"] + net["b3"]

    assert [a.shape for a in averaged] == [(neural_bidder.INPUTS, 32), (32,), (2, 16, 8), (16,), (16, 9), (9,)]
    single = load_network(paths[2], neural_bidder.INPUTS, neural_bidder.OUTPUTS, "test", blocks=True)
    flat = load_network(paths[2], neural_bidder.INPUTS, neural_bidder.OUTPUTS, "test")
    assert single[2].shape == (1, 12, 6)
    out, other = np.empty(9, np.float32), np.empty(9, np.float32)
    for x in rng.integers(0, 2, size=(50, neural_bidder.INPUTS)).astype(np.int8):
        forward_blocks(x, neural_bidder.INPUTS, *averaged, out)
        mean = (numpy_forward(nets[0], x.astype(np.float32)) + numpy_forward(nets[1], x.astype(np.float32))) / 2
        assert np.allclose(out, mean, atol=1e-3)
        forward_blocks(x, neural_bidder.INPUTS, *single, out)
        forward(x, neural_bidder.INPUTS, *flat, other)
        assert np.allclose(out, other, atol=1e-4)
    with pytest.raises(ValueError, match="different shapes cannot be averaged"):
        save_average(paths[1:], tmp_path / "mixed.npz", {}, neural_bidder.INPUTS, neural_bidder.OUTPUTS)


def test_a_later_round_seats_the_bidder_on_one_team():
    models = np.empty(4, dtype=np.int64)
    seen = set()
    for deal_id in range(8):
        call_labels.deal_models(deal_id, 0, models)
        assert set(models) == {HEURISTIC}
        call_labels.deal_models(deal_id, 1, models)
        assert models[deal_id % 2] == models[deal_id % 2 + 2] == NEURAL_BIDDER
        assert models[1 - deal_id % 2] == models[3 - deal_id % 2]
        seen.add(int(models[1 - deal_id % 2]))
    assert seen == {HEURISTIC, NEURAL_BIDDER}


def test_the_labels_refuse_a_searching_player_before_any_work():
    for player in ("dd", "pimc", "hybrid"):  # the label kernels hold no solver
        with pytest.raises(ValueError, match="players without search"):
            call_frame(1, 0, 5, players=player)
