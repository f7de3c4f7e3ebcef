"""The reference engine's step API is the same on every state: ``to_move``, ``legal_actions()``,
``play(action)``, ``undo()``, ``is_over``.  ``undo`` takes back exactly one action, whatever the
phase: a call, the call that ended an auction (and with it the play it started), the card or call
that ended a deal of a match (and with it the deal's score and the next deal).

The checks compare what a user can see of a state (its position text, legal actions, phase, scores)
before an action and after the action and its undo, and replay whole auctions, deals and matches
after undoing them to the start.
"""

from __future__ import annotations

import random
import re

import pytest

import belot_sim as bs
from belot_sim import reference as ref

RULE_SETS = [bs.BULGARIAN, bs.CLASSIC, bs.BRIDGE_BELOT_2001]


def auction_view(a: ref.AuctionState) -> tuple:
    return (list(a.calls), a.contract, a.declarer, a.multiplier, a.passes, a.round, a.is_void, a.is_over,
            a.to_move, a.legal_calls())


def deal_view(state: ref.FullDealState) -> tuple:
    return (state.to_text(), state.phase, state.to_move, state.legal_actions(), auction_view(state.auction))


def match_view(match: ref.MatchState) -> tuple:
    return (match.scores, match.winner, match.is_over, len(match.results), len(match.history), match.progress,
            match.to_move, match.legal_actions(), deal_view(match.deal))


def rewind_and_replay(state, view, views: list, actions: list, refusal: str) -> None:
    """Undo every action, checking the state seen before each (``views``), check that one undo more is
    refused, then play the actions again: the state at the end is the one it was."""
    end = view(state)
    for before in reversed(views):
        state.undo()
        assert view(state) == before
    with pytest.raises(bs.IllegalActionError, match=refusal):
        state.undo()
    for action in actions:
        state.play(action)
    assert view(state) == end


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
@pytest.mark.parametrize("seed", range(40))
def test_auction_undo_takes_back_one_call(rules, seed):
    rng = random.Random(seed)
    auction = ref.AuctionState.start(seed % 4, rules, turned=rng.randrange(32) if rules.is_classic else None)
    views = []
    while not auction.is_over:
        before = auction_view(auction)
        assert auction.legal_actions() == auction.legal_calls()
        for call in auction.legal_actions():  # every call, taken back
            auction.play(call)
            auction.undo()
            assert auction_view(auction) == before
        views.append(before)
        # passes most of the time, so that auctions of several rounds and doubles happen
        calls = auction.legal_actions()
        auction.play("pass" if rng.random() < 0.6 else rng.choice(calls))
    rewind_and_replay(auction, auction_view, views, [c for _, c in auction.calls], "no call to take back")


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.name)
@pytest.mark.parametrize("seed", range(12))
def test_full_deal_undo_crosses_the_end_of_the_auction(rules, seed):
    rng = random.Random(100 + seed)
    state = ref.FullDealState.random(seed, dealer=seed % 4, rules=rules)
    views, actions = [], []
    while not state.is_over:
        before = deal_view(state)
        for action in state.legal_actions():
            state.play(action)
            state.undo()
            assert deal_view(state) == before
        views.append(before)
        legal = state.legal_actions()
        action = "pass" if state.phase == "auction" and rng.random() < 0.5 else rng.choice(legal)
        actions.append(action)
        state.play(action)
    result = state.result()
    rewind_and_replay(state, deal_view, views, actions, "no action to take back")
    assert state.result() == result


@pytest.mark.parametrize("rules", [bs.BULGARIAN, bs.CLASSIC], ids=lambda r: r.name)
@pytest.mark.parametrize("seed", range(3))
def test_match_undo_crosses_deals(rules, seed):
    rng = random.Random(seed)
    match = ref.MatchState(rules, dealer=seed % 4, seed=seed)
    views, actions = [], []
    while not match.is_over:
        views.append(match_view(match))
        legal = match.legal_actions()
        auction = match.deal.phase == "auction"
        action = "pass" if auction and rng.random() < 0.6 else rng.choice(legal)
        actions.append(action)
        deals_before = len(match.results)
        match.play(action)
        if len(match.results) > deals_before:  # the action ended a deal: undo and redo it here too
            after = match_view(match)
            match.undo()
            assert match_view(match) == views[-1]
            match.play(action)
            assert match_view(match) == after
    assert len(match.results) >= 2  # the walk below crosses deal boundaries
    results = list(match.results)
    rewind_and_replay(match, match_view, views, actions, "no action to take back")
    assert match.results == results


def test_a_void_deal_keeps_the_step_api():
    """Four passes end a bulgarian deal with no play: the state still answers (it raised AttributeError)."""
    state = ref.FullDealState.random(1, dealer=2)
    for _ in range(4):
        state.play("pass")
    assert (state.phase, state.is_over, state.legal_actions(), state.to_move) == ("over", True, [], 3)
    state.undo()
    assert (state.phase, state.legal_actions()[0], state.to_move) == ("auction", "pass", 2)


def test_match_undo_after_the_packs_ran_out():
    """The deal whose end finds no pack left stays the current deal: undo takes back its last action,
    and playing it again runs out again (no pack is dealt twice)."""
    rng = random.Random(7)
    packs = [ref.game.shuffled_pack(random.Random(k)) for k in range(2)]
    match = ref.MatchState(bs.BULGARIAN, packs=iter(packs))
    views, actions = [], []
    with pytest.raises(ValueError, match="packs ran out"):
        while True:  # two deals rarely decide a match to 151
            views.append(match_view(match))
            legal = match.legal_actions()
            action = "pass" if match.deal.phase == "auction" and rng.random() < 0.6 else rng.choice(legal)
            actions.append(action)
            match.play(action)
    assert match.deal.is_over and len(match.results) == 2
    match.undo()
    assert match_view(match) == views[-1]
    for before in reversed(views[:-1]):
        match.undo()
        assert match_view(match) == before
    with pytest.raises(bs.IllegalActionError, match="no action to take back"):
        match.undo()
    for action in actions[:-1]:
        match.play(action)
    with pytest.raises(ValueError, match="packs ran out"):
        match.play(actions[-1])
    assert len(match.results) == 2


def test_undo_keeps_the_unknown_cards_of_a_position_text():
    """A state read from a text with '?' hands: undoing to the first call and replaying gives the same
    text back, the same unknown places and the same hidden seats in play."""
    state = ref.FullDealState.random(3, dealer=1)
    for call in ("pass", "pass", "pass", "C", "pass", "pass", "pass"):
        state.play(call)
    rng = random.Random(3)
    for _ in range(6):
        state.play(rng.choice(state.legal_actions()))
    mover = state.to_move
    hands = re.search(r"hands ([^;]*);", state.to_text())
    known = " ".join(h if seat == mover else "?" for seat, h in enumerate(hands.group(1).split()))
    read = ref.FullDealState.from_text(state.to_text().replace(hands.group(0), f"hands {known};"), seed=1)
    places, seats, written = read.hidden_places, read.play_state.hidden_seats, read.to_text()
    assert len(places) == 15 and mover not in seats and len(seats) == 3
    actions = [c for _, c in read.auction.calls] + [c for _, c in read.play_state.plays]
    for _ in actions:
        read.undo()
    assert read.play_state is None and read.auction.calls == []
    for action in actions:
        read.play(action)
    assert (read.hidden_places, read.play_state.hidden_seats, read.to_text()) == (places, seats, written)
