"""The PettingZoo environment (belot_sim/env.py; extra ``env``, installed with ``test``).

* ``pettingzoo.test.api_test`` passes: four agents, and one agent against three bots;
* the observation holds what its docstring says, relative to the observer, and never another
  seat's hidden cards; the action mask is the legal cards and calls;
* deals are ``simulate``'s packs and dealers; rewards are the deal's match points;
* opponents play as the same bots asked directly; bad opponents and illegal actions are refused.
"""

from __future__ import annotations

import importlib
import sys

import numpy as np
import pytest
from pettingzoo.test import api_test

import belot_sim as bs
from belot_sim import env as belot_env
from belot_sim.game.cards import iter_cards
from belot_sim.kernels.core.auction_rules import CALL_OF_NAME

SLOTS = {s.name: s for s in belot_env.OBSERVATION.slots}


def bits(obs, name, k=0):
    """The cards (or indices) set in block ``k`` of slot ``name``."""
    slot = SLOTS[name]
    width = 32 if slot.size % 32 == 0 and name not in ("AUCTION",) else slot.size
    return [i for i in range(width) if obs[slot.offset + k * width + i]]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("rules, opponents", [("bulgarian", None), ("classic", {1: "hard", 2: "random", 3: "pimc"}),
                                              (bs.BRIDGE_BELOT_2001, {0: "normal", 2: "easy"})])
def test_pettingzoo_api_test_passes(rules, opponents):
    api_test(belot_env.env(rules=rules, opponents=opponents, seed=3), num_cycles=200)


def play_random(e, rng, check):
    """Play one episode with random legal actions, calling ``check(e, agent, observation)`` first."""
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        check(e, agent, observation)
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_observations_show_what_the_seat_knows_relative_to_it():
    rng = np.random.default_rng(1)
    e = belot_env.env(rules=bs.CLASSIC.replace(all_no_trumps=True, declarations=True), seed=5)
    seen = {"auction": 0, "play": 0}

    def check(e, agent, observation):
        obs, mask = observation["observation"], observation["action_mask"]
        seat = int(agent[-1])
        deal = e.unwrapped.deal
        assert deal.to_move == seat and bits(obs, "TO_MOVE") == [0]
        assert bits(obs, "DEALER") == [(deal.dealer - seat) % 4]
        assert bits(obs, "TURNED") == [deal.turned]
        if deal.phase == "auction":
            seen["auction"] += 1
            assert bits(obs, "HAND") == list(iter_cards(deal.first_hands[seat])) and bits(obs, "PHASE") == [0]
            assert list(np.flatnonzero(mask)) == sorted(32 + CALL_OF_NAME[c] for c in deal.legal_actions())
            calls = [np.flatnonzero(obs[SLOTS["AUCTION"].offset + 9 * k:SLOTS["AUCTION"].offset + 9 * k + 9]).tolist()
                     for k in range(len(deal.auction.calls))]
            assert calls == [[CALL_OF_NAME[c]] for _, c in deal.auction.calls]
            return
        seen["play"] += 1
        play = deal.play_state
        assert bits(obs, "HAND") == list(iter_cards(play.hands[seat])) and bits(obs, "PHASE") == [1]
        assert list(np.flatnonzero(mask)) == play.legal_actions()
        assert bits(obs, "CONTRACT") == [int(play.contract)] and bits(obs, "DECLARER") == [(play.declarer - seat) % 4]
        for s in range(4):
            played = sorted(c for p, c in play.plays if p == s)
            assert bits(obs, "PLAYED_BY", (s - seat) % 4) == played
            assert bits(obs, "TRICK", (s - seat) % 4) == [c for p, c in play.trick if p == s]
        won = bits(obs, "WON", 0) + bits(obs, "WON", 1)
        assert sorted(won) == sorted(c for t in play.completed_tricks() for _, c in t)
        for k in range(4):  # what the play showed is true of the seat's real cards
            s = (seat + k) % 4
            assert not set(bits(obs, "EXCLUDED", k)) & set(iter_cards(play.hands[s]))
            assert set(bits(obs, "SHOWN", k)) <= set(iter_cards(play.initial_hands[s]))
        assert obs.dtype == np.int8 and set(np.unique(obs)) <= {0, 1}

    for _ in range(6):
        e.reset()
        play_random(e, rng, check)
    assert seen["auction"] > 6 and seen["play"] > 100


def test_deals_are_simulates_and_rewards_are_the_match_points():
    deals = bs.simulate(8, bidders="heuristic", seed=11)
    e = belot_env.env(opponents={1: "hard", 2: "hard", 3: "hard"}, seed=11)
    rng = np.random.default_rng(2)
    for row in deals.itertuples():
        e.reset()
        deal = e.unwrapped.deal
        assert deal.dealer == row.dealer
        rewards = {}
        for agent in e.agent_iter():
            observation, reward, terminated, truncated, info = e.last()
            if terminated:
                rewards[agent] = reward
                result = deal.result()
                assert info == {"outcome": result.outcome, "raw": result.raw, "score": result.score}
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert rewards == {"seat_0": deal.result().score[0]}
        # simulate's hands of the deal (8 cards, 5 when void) hold the environment's 5-card hands
        assert all(deal.first_hands[s] & ~int(getattr(row, f"hand{s}")) == 0 for s in range(4))


def test_opponents_play_as_the_bots_asked_directly():
    e = belot_env.env(opponents={0: "hard", 1: bs.Bot("normal", bidder="random"), 3: "easy"}, seed=4)
    e.reset()
    bots = {0: bs.Bot("hard", bidder="heuristic"), 1: bs.Bot("normal", bidder="random"),
            3: bs.Bot("easy", bidder="heuristic")}
    deal = e.unwrapped.deal
    copy = bs.reference.FullDealState(deal.pack, deal.dealer, deal.rules)
    rng = np.random.default_rng(7)
    for _agent in e.agent_iter():
        observation, _, terminated, _, _ = e.last()
        if terminated:
            e.step(None)
            continue
        history = deal.auction.calls + (deal.play_state.plays if deal.play_state else [])
        for seat, action in history[len(copy.auction.calls) + (len(copy.play_state.plays) if copy.play_state else 0):]:
            bot = bots[seat] if seat != 2 else None
            if bot is not None:  # the environment's bots acted here: the same choice
                expected = bot.bid(copy) if copy.phase == "auction" else bot.play(copy)
                assert expected == action
            copy.play(action)
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_bad_opponents_and_illegal_actions_are_refused():
    for opponents, pattern in [({4: "hard"}, "not a seat"), ({1: "genius"}, "unknown player"),
                               ({1: bs.Bot("hard")}, "no bidder"), ({1: bs.Bot("hard", rules="classic",
                                                                                bidder="heuristic")}, "other rules"),
                               ({s: "hard" for s in range(4)}, "all four seats"), ([1, 2], "dict")]:
        with pytest.raises((ValueError, TypeError), match=pattern):
            belot_env.env(opponents=opponents)
    belot_env.env(rules=bs.BULGARIAN.replace(match_target=101), opponents={1: bs.Bot("hard", bidder="heuristic")})
    e = belot_env.env(seed=1)
    e.reset()
    observation, *_ = e.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(bs.IllegalActionError, match="cannot take action"):
        e.step(illegal)
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    for wrong in (float(legal), np.array([legal]), np.array(float(legal)), True, str(legal)):
        with pytest.raises(TypeError, match="an action is an integer"):
            e.step(wrong)
    e.step(np.array(legal))  # a 0-d integer array, as a policy may return it
    assert e.agent_selection == "seat_1"
    with pytest.raises(ValueError, match="render_mode"):
        belot_env.env(render_mode="rgb_array")


def test_bad_seeds_and_agents_are_refused_by_name():
    """As ``simulate`` refuses them, when the environment is made or reset (not a numpy overflow later)."""
    for seed, error in [(-1, ValueError), (2**64, ValueError), (1.7, TypeError), (True, TypeError), ("5", TypeError)]:
        with pytest.raises(error, match="seed must be"):
            belot_env.env(seed=seed)
        with pytest.raises(error, match="seed must be"):
            belot_env.env().reset(seed=seed)
    e = belot_env.raw_env(opponents={1: "hard", 3: "hard"}, seed=2)
    e.reset()
    for agent in ("seat_9", "foo", "seat_1"):
        with pytest.raises(ValueError, match=rf"{agent!r} is not an agent of this environment.*seat_0"):
            e.observe(agent)
    assert e.observe("seat_2")["action_mask"].shape == (belot_env.N_ACTIONS,)


def test_the_documented_observation_layout_is_the_environments():
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "bots.md").read_text()
    rows = re.findall(r"^\| `([A-Z_]+)` \| ([0-9 ×]+) \|", doc, re.M)
    sizes = {name: int(np.prod([int(x) for x in size.split("×")])) for name, size in rows}
    assert sizes == {s.name: s.size for s in belot_env.OBSERVATION.slots}
    docstring = {line.split()[0]: line.split()[1:4] for line in belot_env.__doc__.splitlines()
                 if line[:1].isupper() and line.split()[0] in sizes}
    assert set(docstring) == set(sizes)


def test_without_the_env_extra_the_import_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "belot_sim.env")
    with pytest.raises(ImportError, match=r"belot_sim.env needs PettingZoo and Gymnasium: pip install "
                                          r"'belot-sim\[env\]'"):
        importlib.import_module("belot_sim.env")
