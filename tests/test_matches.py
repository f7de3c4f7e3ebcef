"""Whole matches in the fast engine (belot_sim/simulation/matches.py, kernels/match.py) against the reference.

* every deal of ``simulate_matches`` (bulgarian and classic to 501; random, heuristic and mixed
  bidders; several players) replayed in ``ref.MatchState`` with the same packs, first dealer and
  the recorded calls and plays: identical deal rows, running scores, carried points, targets,
  winners and deal counts;
* the match step kernel on hand-checked sequences (valat rule, hanging carry, ties) and against
  :meth:`MatchProgress.after_deal` on random sequences;
* layout (deal ids, dealer rotation), determinism across threads/start/retries, bad arguments.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import belot_sim as bs
from belot_sim.simulation import matches as matches_module
from belot_sim import reference as ref
from belot_sim.kernels.batch.match import DEAL_ID_STRIDE, first_dealer, match_after_deal
from belot_sim.kernels.core.scoring import OUTCOME_NAMES
from belot_sim.engine.frames import AUCTION_HAND_COLUMNS, DEAL_COLUMNS
from helpers import as_reference_row, assert_same_frames, grouped, pack_of


CLASSIC_501 = bs.CLASSIC.replace(match_target=501)
CLASSIC_501_ALL = bs.CLASSIC.replace(match_target=501, all_no_trumps=True)
OUTCOME = {name: code for code, name in enumerate(OUTCOME_NAMES)}


def replay_matches(rules, seed, matches, deals, plays, calls) -> dict:
    """Replay every match in ``ref.MatchState``; returns counts of what was seen."""
    call_map = grouped(calls, ("seat", "call"))
    play_map = grouped(plays, ("seat", "card"))
    seen = {"deals": 0, "void": 0, "hanging": 0, "carried_twice": 0, "valat": 0, "raised": 0}
    by_match = dict(tuple(deals.groupby("match_id", sort=False)))
    for m in matches.itertuples(index=False):
        rows = by_match[m.match_id].to_dict("records")
        assert [r["deal"] for r in rows] == list(range(m.deals))
        assert m.first_dealer == first_dealer(np.uint64(seed), m.match_id)
        packs = [pack_of(seed, r["deal_id"]) for r in rows]
        st = ref.MatchState(rules, dealer=int(m.first_dealer), packs=iter(packs), max_deals=m.deals)
        for k, row in enumerate(rows):
            assert row["deal_id"] == m.match_id * DEAL_ID_STRIDE + k
            for seat, call in call_map[row["deal_id"]]:
                assert st.to_move == seat
                st.play(call)  # IllegalActionError if the kernel made an illegal call
            assert (row["deal_id"] in play_map) == (row["outcome"] != "void")  # void deals have no plays
            for seat, card in play_map.get(row["deal_id"], []):
                assert st.to_move == seat
                st.play(card)
            assert len(st.results) == k + 1, "the recorded calls and plays did not finish the deal"
            assert st.results[k].as_row() == as_reference_row(row)
            progress = st.history[k]
            assert progress.scores == (row["total0"], row["total1"])
            assert progress.carried == row["carried"]
            seen["deals"] += 1
            seen["void"] += row["outcome"] == "void"
            seen["hanging"] += row["outcome"] == "hanging"
            seen["carried_twice"] += row["outcome"] == "hanging" and row["carried"] > row["hanging"]
            seen["valat"] += row["valat"] >= 0
        assert st.is_over and st.winner == m.winner
        assert len(st.results) == m.deals
        assert st.scores == (m.score0, m.score1)
        assert st.progress.target == m.target
        seen["raised"] += m.target > rules.match_target
    return seen


REPLAYS = [
    # (rules, players, bidders, matches)
    (bs.BULGARIAN, "random", "heuristic", 60),
    (bs.BULGARIAN, ("random", "easy", "normal", "hard"), "random", 40),
    (bs.BULGARIAN, "random", ("heuristic", "random", "random", "heuristic"), 40),
    (CLASSIC_501, "random", "heuristic", 40),
    (CLASSIC_501_ALL, "normal", ("random", "heuristic", "heuristic", "random"), 40),
    # the slow path (one match per work item): a searching player and an mc bidder
    (bs.BULGARIAN, ("dd", "random", "hard", "random"), ("mc", "heuristic", "heuristic", "heuristic"), 4),
]


@pytest.mark.parametrize("rules, players, bidders, n", REPLAYS,
                         ids=[f"{r.family}-{r.match_target}-{p}-{b}" for r, p, b, _ in REPLAYS])
def test_every_deal_matches_the_reference(rules, players, bidders, n):
    seed = 11
    matches, deals, plays, calls = bs.simulate_matches(n, rules=rules, players=players, bidders=bidders, seed=seed,
                                                       plays=True, calls=True)
    assert len(matches) == n and len(deals) == matches["deals"].sum()
    seen = replay_matches(rules, seed, matches, deals, plays, calls)
    if n >= 40:  # the sample is not degenerate
        assert seen["void"] > 0
        if not rules.is_classic:  # (a classic litige needs an exact tie: rare)
            assert seen["hanging"] > 0
    if rules.is_classic:
        assert (matches["target"] == rules.match_target).all()  # no valat rule in classic


def test_valat_and_long_hanging_matches_match_the_reference():
    """The rare paths, picked out of a bigger run: matches whose target a valat raised, and
    matches where hanging points piled up over two deals or more."""
    seed = 5
    matches, deals, plays, calls = bs.simulate_matches(1500, seed=seed, plays=True, calls=True)
    raised = matches.loc[matches["target"] > 151, "match_id"].head(8)
    piled = deals.loc[(deals["outcome"] == "hanging") & (deals["carried"] > deals["hanging"]), "match_id"]
    picked = sorted(set(raised) | set(piled.head(8)))
    assert len(raised) >= 3 and len(piled) >= 1
    pick = matches["match_id"].isin(picked)
    deal_ids = deals.loc[deals["match_id"].isin(picked), "deal_id"]
    seen = replay_matches(bs.BULGARIAN, seed, matches[pick], deals[deals["match_id"].isin(picked)],
                          plays[plays["deal_id"].isin(deal_ids)], calls[calls["deal_id"].isin(deal_ids)])
    assert seen["raised"] >= 3 and seen["carried_twice"] >= 1 and seen["valat"] >= 3


def test_layout_ids_dealers_and_totals():
    seed = 3
    matches, deals = bs.simulate_matches(300, seed=seed, start=1000)
    assert list(matches.columns) == list(matches_module.MATCH_COLUMNS)
    assert list(deals.columns) == ["match_id", "deal", *DEAL_COLUMNS, "auction", *AUCTION_HAND_COLUMNS, "bidding_team",
                                   "total0", "total1", "carried"]
    assert matches["match_id"].tolist() == list(range(1000, 1300))
    assert (deals["deal_id"] == deals["match_id"] * DEAL_ID_STRIDE + deals["deal"]).all()
    first = deals["match_id"].map(matches.set_index("match_id")["first_dealer"])
    assert ((first + deals["deal"]) % 4 == deals["dealer"]).all()
    assert set(matches["first_dealer"]) == {0, 1, 2, 3}
    last = deals.groupby("match_id").tail(1).set_index("match_id")
    m = matches.set_index("match_id")
    assert (last["total0"] == m["score0"]).all() and (last["total1"] == m["score1"]).all()
    assert (last["deal"] + 1 == m["deals"]).all()
    winner_total = np.where(m["winner"] == 0, m["score0"], m["score1"])
    loser_total = np.where(m["winner"] == 0, m["score1"], m["score0"])
    assert (winner_total >= m["target"]).all() and (winner_total > loser_total).all()
    assert str(deals["contract"].dtype) == "category" and str(deals["outcome"].dtype) == "category"


# --------------------------------------------------------------------------------------
# The match step kernel: hand-checked sequences and random sequences vs MatchProgress.
# --------------------------------------------------------------------------------------

def step(state, outcome, declarer, score0, score1, hanging=0, valat=-1, family=0):
    """One deal through the kernel: ``state`` is ``(total0, total1, target, carried)``."""
    *state, winner = match_after_deal(*state, OUTCOME[outcome], declarer, score0, score1, hanging, valat, family)
    return tuple(int(x) for x in state), int(winner)


def test_valat_raises_the_target_and_the_match_goes_on():
    # 140-100, team 0 bids H and takes all tricks: 25-0 -> 165-100, over 151 but no winner.
    state, winner = step((140, 100, 151, 0), "made", 0, 25, 0, valat=0)
    assert (state, winner) == ((165, 100, 166, 0), -1)
    # Next deal team 1 makes 10-6: 171-110, over the new target 166 -> team 0 wins.
    assert step(state, "made", 1, 6, 10) == ((171, 110, 166, 0), 0)
    # A valat by the trailing team raises the target above the leader, not above itself.
    assert step((150, 120, 151, 0), "made", 1, 0, 25, valat=1) == ((150, 145, 151, 0), -1)
    assert step((170, 120, 151, 0), "made", 1, 0, 25, valat=1) == ((170, 145, 171, 0), -1)
    # Classic has no valat rule: a capot deal can end the match.
    assert step((480, 100, 501, 0), "made", 0, 252, 0, valat=0, family=1) == ((732, 100, 501, 0), 0)


def test_hanging_points_pile_up_until_a_deal_has_a_winner():
    state, winner = step((0, 0, 151, 0), "hanging", 0, 0, 8, hanging=8)  # H 81-81: defenders 8, 8 hang
    assert (state, winner) == ((0, 8, 151, 8), -1)
    state, _ = step(state, "hanging", 1, 0, 0, hanging=32)  # doubled 81-81: all 32 hang
    assert state == (0, 8, 151, 40)
    state, _ = step(state, "void", -1, 0, 0)  # all passed: nothing moves
    assert state == (0, 8, 151, 40)
    state, _ = step(state, "inside", 1, 16, 0)  # team 1 bid and went inside: team 0 takes 16 + 40
    assert state == (56, 8, 151, 0)
    # Equal match points in a made AT (134-124 -> 13-13): the carried points go to the bidders.
    state, _ = step((0, 0, 151, 10), "made", 1, 13, 13)
    assert state == (13, 23, 151, 0)


def test_both_over_the_target_higher_wins_equal_plays_on():
    assert step((140, 145, 151, 0), "made", 0, 16, 10)[1] == 0  # 156-155
    assert step((140, 145, 151, 0), "made", 0, 15, 10) == ((155, 155, 151, 0), -1)  # equal: play on
    assert step((140, 145, 151, 0), "made", 0, 10, 5)[1] == -1  # 150-150 under the target


@pytest.mark.parametrize("rules", [bs.BULGARIAN, bs.CLASSIC, bs.BULGARIAN.replace(match_target=51)])
def test_match_step_agrees_with_match_progress(rules):
    rng = random.Random(rules.match_target)
    family = int(rules.is_classic)
    for _ in range(300):
        progress = bs.MatchProgress.start(rules)
        state = (0, 0, rules.match_target, 0)
        while not progress.is_over and progress.deals < 200:
            outcome = rng.choice(["made", "hanging", "inside", "void", "made"])
            declarer = -1 if outcome == "void" else rng.randrange(4)
            bidding = rng.randrange(40) if outcome == "made" else rng.randrange(3) if outcome != "void" else 0
            defenders = rng.randrange(40) if outcome in ("made", "inside", "hanging") else 0
            hanging = rng.randrange(1, 40) if outcome == "hanging" else 0
            if outcome == "made" and rng.random() < 0.5:
                defenders = min(defenders, bidding)
            valat = rng.choice([0, 1]) if outcome == "made" and rng.random() < 0.15 else -1
            score = bs.DealScore(outcome, bidding, defenders, hanging)
            team = None if declarer < 0 else declarer % 2
            progress = progress.after_deal(score, team, valat, rules)
            s0, s1 = (0, 0) if team is None else (bidding, defenders) if team == 0 else (defenders, bidding)
            state, winner = step(state, outcome, declarer, s0, s1, hanging, valat, family)
            assert state == (*progress.scores, progress.target, progress.carried)
            assert winner == (-1 if progress.winner is None else progress.winner)


# --------------------------------------------------------------------------------------
# Determinism, retries, long matches, bad arguments.
# --------------------------------------------------------------------------------------

def test_small_blocks_and_replays_give_identical_results(monkeypatch):
    """Matches that outgrow their first deal slots are played again: nothing changes."""
    expected = bs.simulate_matches(120, seed=6, plays=True, calls=True, rules=CLASSIC_501)
    monkeypatch.setattr(matches_module, "FIRST_CAP", 2)
    monkeypatch.setattr(matches_module, "BLOCK_SLOTS", 64)
    assert_same_frames(bs.simulate_matches(120, seed=6, plays=True, calls=True, rules=CLASSIC_501), expected)


def test_long_matches_and_max_deals():
    rules = bs.BULGARIAN.replace(match_target=1001)  # some 100 deals: more than the first slots
    matches, deals = bs.simulate_matches(20, rules=rules, seed=2)
    assert (matches["deals"] > matches_module.FIRST_CAP).any()
    assert (matches[["score0", "score1"]].max(axis=1) >= 1001).all()
    with pytest.raises(RuntimeError, match="not decided after 40 deals"):
        bs.simulate_matches(20, rules=rules, seed=2, max_deals=40)
    with pytest.raises(RuntimeError, match="max_deals"):  # bidders that always pass: no match ever ends
        bs.simulate_matches(2, bidders="random", bidder_options={"pass_prob": 1.0}, max_deals=300)


def test_zero_matches():
    matches, deals, plays, calls = bs.simulate_matches(0, plays=True, calls=True)
    assert len(matches) == len(deals) == len(plays) == len(calls) == 0
    assert list(deals.columns)[:3] == ["match_id", "deal", "deal_id"]


BAD_INPUTS = [
    ({"n": -1}, r"\bn\b"),
    ({"n": 2.5}, r"\bn\b"),
    ({"seed": -1}, r"seed"),
    ({"start": -1}, r"start"),
    ({"start": 2**42}, r"start"),
    ({"threads": 0}, r"threads"),
    ({"bidders": None}, r"bidders"),
    ({"bidders": "nobody"}, r"unknown bidder"),
    ({"bidders": ("random",) * 3}, r"bidders"),
    ({"players": "genius"}, r"genius"),
    ({"bidder_options": [1]}, r"bidder_options"),
    ({"bidder_options": {"thr_sut": 3}}, r"unknown bidder option"),
    ({"max_deals": 0}, r"max_deals"),
    ({"max_deals": 2**21}, r"max_deals"),
    ({"max_deals": 10.0}, r"max_deals"),
    ({"worlds": 0}, r"worlds"),
    ({"plays": "yes"}, r"plays"),
    ({"calls": 1}, r"calls"),
    ({"rules": "foo"}, r"foo"),
]


@pytest.mark.parametrize("kwargs, pattern", BAD_INPUTS, ids=[repr(k) for k, _ in BAD_INPUTS])
def test_bad_input_raises_before_any_kernel(rejected_before_kernel, kwargs, pattern):
    rejected_before_kernel(matches_module, "play_matches", bs.simulate_matches, kwargs, pattern)
