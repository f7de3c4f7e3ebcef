"""The ``expert`` player: ``pimc`` on model layouts that replay the auction (kernels/players/inference.py).

Without an auction it is ``pimc``'s rule on the card-ownership model's layouts; with one its layouts
replay the calls (checked through the bots' own auction path), they put the declarer's trumps nearer the truth than
``pimc``'s, and its cards are legal, reproducible, the bots' and blind to the cards it cannot see.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import RULE_SETS, fresh_view, play_card, random_deal
from test_bots import replay_with_bots

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.kernels.core.auction_rules import CALL_OF_NAME
from belot_sim.positions.bots import fill_record, new_record, turned_card_of
from belot_sim.kernels.core.layouts import (SCRATCH_SIZE, SP_WORLDS, SS_TURNED_CARD, SW_HANDS, SW_RNG, SX_FIRST_TRY,
                                            SX_INFERRED, V_KNOWN, V_SIZE)
from belot_sim.kernels.core.rule_flags import flags_of
from belot_sim.kernels.players.position import public_view
from belot_sim.kernels.core.tables import TRUMPS
from belot_sim.kernels.players.inference import sample_inferred_layout, start_auction
from belot_sim.kernels.players.sampling import sample_layout
from belot_sim.engine.bidder_options import bidder_params
from belot_sim.engine.registry import BIDDER_CODES, PLAYER_CODES
from belot_sim.kernels.players.decide import decide_card
from belot_sim.kernels.players.pimc import MODEL_LAYOUTS, NO_BUDGET, pimc_card
from belot_sim.kernels.solver.api import new_ctx

BIDDERS = {rules.name: bs.Bot("random", rules=rules, bidder="heuristic") for rules in (bs.BULGARIAN, bs.CLASSIC)}
BIDDER = BIDDERS["bulgarian"]
WEIGHTS = bidder_params("bulgarian", None, [BIDDER_CODES["heuristic"]])[1]


def auctioned(seed: int, rules=bs.BULGARIAN) -> ref.FullDealState | None:
    """A deal after a heuristic auction (``None`` when everybody passed)."""
    state = ref.FullDealState.random(seed, dealer=seed % 4, rules=rules)
    while state.phase == "auction":
        state.play(BIDDERS[rules.name].bid(state))
    return state if state.phase == "play" else None


def expert_scratch(state: ref.FullDealState, seat: int, stream: int) -> np.ndarray:
    """A scratch holding what ``seat`` knows of the auction (its own first 5 cards only)."""
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    scratch[SW_RNG] = stream
    codes = np.array([CALL_OF_NAME[c] for _, c in state.auction.calls], dtype=np.int64)
    hands5 = np.zeros(4, dtype=np.int64)
    hands5[seat] = state.first_hands[seat]
    scratch[SS_TURNED_CARD] = -1 if state.auction.turned is None else state.auction.turned  # the deal's (start_deal)
    start_auction(scratch, codes, len(codes), state.dealer, flags_of(state.rules),
                  np.full(4, BIDDER_CODES["heuristic"], dtype=np.int64), hands5, WEIGHTS)
    return scratch


def test_without_an_auction_expert_is_pimcs_rule_on_model_layouts():
    rng = random.Random(3)
    ctx, tt = new_ctx(2), np.zeros(2 << 16, dtype=np.int64)
    checked = 0
    for i in range(40):
        state = random_deal(rng, bs.Contract(i % 6), bs.BULGARIAN)
        view = fresh_view(state)
        for _ in range(rng.randrange(0, 28)):
            play_card(state, view, rng.choice(state.legal_actions()))
        legal, seat = np.int64(state.legal_mask()), state.to_move
        if legal & (legal - 1) == 0:
            continue
        cards = []
        for kernel in ("expert", "model"):
            scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)  # no calls: SX_N_CALLS is 0
            scratch[SW_RNG], scratch[SP_WORLDS] = i, 6
            hands = np.zeros(4, dtype=np.int64)
            hands[seat] = state.hands[seat]
            args = (legal, np.uint64(i), hands if kernel == "expert" else hands[seat], seat, view, 0, ctx, tt, scratch)
            cards.append(int(decide_card(PLAYER_CODES["expert"], *args, tt) if kernel == "expert"
                             else pimc_card(*args, MODEL_LAYOUTS, NO_BUDGET)))
        assert cards[0] == cards[1], i
        checked += 1
    assert checked > 25


@pytest.mark.parametrize("rules", [bs.BULGARIAN, bs.CLASSIC], ids=["bulgarian", "classic"])
def test_the_layouts_replay_the_auction_through_the_bots_calls(rules):
    """Each layout kept: the 5 cards it gives every other seat are among that seat's cards (in classic
    the taker holds the turned card, and it is not among the taker's 5), and a heuristic bot handed
    them makes every call of the auction (the auction loop's path, not the replay the sampler uses)."""
    classic = int(rules.is_classic)
    checked = 0
    for seed in range(60):
        state = auctioned(seed, rules)
        if state is None:
            continue
        seat, taker, turned = state.to_move, state.play_state.declarer, state.auction.turned
        view = fresh_view(state.play_state, turned if classic else -1)
        scratch = expert_scratch(state, seat, stream=seed)
        for _ in range(3):
            if not sample_inferred_layout(view, seat, np.int64(state.play_state.hands[seat]), classic, scratch, False):
                continue
            first = [int(x) for x in scratch[SX_FIRST_TRY:SX_FIRST_TRY + 4]]
            held = [int(x) for x in scratch[SW_HANDS:SW_HANDS + 4]]
            assert first[seat] == state.first_hands[seat]
            if classic:
                assert held[taker] >> turned & 1 and not any(f >> turned & 1 for f in first)
            pack = [-1] * 32
            for s in range(4):
                assert bin(first[s]).count("1") == 5 and first[s] & ~held[s] == 0
                order = (s - state.dealer - 1) % 4
                pack[5 * order:5 * order + 5] = [c for c in range(32) if first[s] >> c & 1]
            rest = [c for c in range(32) if c not in pack and c != turned]
            pack[20:] = ([turned] if classic else []) + rest
            replay = ref.FullDealState(pack, state.dealer, rules)
            for _, call in state.auction.calls:
                assert BIDDERS[rules.name].bid(replay) == call
                replay.play(call)
            checked += 1
    assert checked > 60


def test_in_classic_every_sampled_layout_gives_the_turned_card_to_the_declarer():
    """The table saw the turned card go to the taker: the public view a bot rebuilds shows it in the
    declarer's hand, and so every ``pimc`` layout puts it there, until it is played.  A
    ``DealState`` has no auction, so no turned card; a bulgarian deal has none."""
    checked = 0
    hard = bs.Bot("hard", rules=bs.CLASSIC)
    for seed in range(40):
        state = auctioned(seed, bs.CLASSIC)
        if state is None:
            continue
        deal, turned = state.play_state, state.auction.turned
        assert turned_card_of(state) == turned and turned_card_of(deal) == -1
        for k in range(12):  # the first three tricks
            if state.is_over:
                break
            record = new_record(bs.CLASSIC, 0, False)
            fill_record(record, deal, turned_card_of(state))
            view = np.zeros(V_SIZE, dtype=np.int64)
            seat = public_view(record, view)
            assert view[V_KNOWN + deal.declarer] >> turned & 1
            if seat != deal.declarer:
                scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
                scratch[SW_RNG] = 1000 * seed + k
                for _ in range(5):
                    sample_layout(view, seat, np.int64(deal.hands[seat]), scratch)
                    still_held = turned not in [c for _, c in deal.plays]
                    assert (int(scratch[SW_HANDS + deal.declarer]) >> turned & 1) == still_held
                    checked += 1
            state.play(hard.play(state))
    assert checked > 500
    assert turned_card_of(next(s for s in map(auctioned, range(10)) if s is not None)) == -1


def test_an_expert_bot_without_a_deal_id_replays_a_classic_auction():
    """Asked without ``deal_id`` (streams keyed by what the seat knows), the bot keeps the turned
    card its auction replay needs, and its layouts replay the classic auction."""
    bot = bs.Bot("expert", rules=bs.CLASSIC, worlds=4)
    replayed = positions = 0
    for seed in range(12):
        state = auctioned(seed, bs.CLASSIC)
        if state is None:
            continue
        bot.play(state)
        assert bot._scratch[SS_TURNED_CARD] == state.auction.turned
        positions += 1
        replayed += bot._scratch[SX_INFERRED] > 0
    assert positions >= 6 and replayed >= positions // 2


def test_the_declarers_trumps_are_nearer_the_truth_than_pimcs():
    """At the opening lead, the trumps each sampler gives the declarer against the trumps it holds."""
    errors = {"expert": [], "pimc": []}
    for seed in range(200):
        state = auctioned(100 + seed)
        if state is None or int(state.play_state.contract) > 3:
            continue
        play = state.play_state
        seat, declarer = play.to_move, play.declarer
        if declarer == seat:
            continue
        trumps = int(TRUMPS[int(play.contract)])
        truth = bin(play.hands[declarer] & trumps).count("1")
        view = fresh_view(play)
        for name in errors:
            scratch = expert_scratch(state, seat, stream=seed)
            for _ in range(20):
                if name == "expert":
                    sample_inferred_layout(view, seat, np.int64(play.hands[seat]), 0, scratch, False)
                else:
                    sample_layout(view, seat, np.int64(play.hands[seat]), scratch)
                errors[name].append(abs(bin(int(scratch[SW_HANDS + declarer]) & trumps).count("1") - truth))
    expert, pimc = np.mean(errors["expert"]), np.mean(errors["pimc"])
    assert len(errors["pimc"]) > 1000 and expert < 0.8 * pimc, (expert, pimc)


@pytest.mark.parametrize("rules_name", ["bulgarian-strict", "classic-all"])
def test_expert_bots_make_simulates_cards_after_heuristic_auctions(rules_name):
    rules = RULE_SETS[rules_name]
    assert replay_with_bots(rules, ("expert", "hard", "expert", "hard"), "heuristic", 8, seed=5, worlds=4) > 6 * 32


def test_expert_is_reproducible_for_any_threads():
    kwargs = dict(players=("expert", "pimc", "expert", "hard"), bidders="heuristic", seed=9, worlds=4, plays=True)
    one = bs.simulate(8, threads=1, **kwargs)
    two = bs.simulate(8, threads=2, **kwargs)
    assert one[0].equals(two[0]) and one[1].equals(two[1])


def test_the_expert_does_not_read_the_cards_it_cannot_see():
    """The same calls over other cards for the other seats (the seat's own pack places kept): the
    expert's opening lead is the same."""
    rng = random.Random(4)
    bot = bs.Bot("expert", worlds=6, bidder="heuristic")
    compared = changed = 0
    for seed in range(30):
        state = auctioned(200 + seed)
        if state is None:
            continue
        seat = state.to_move
        own = {i for i, c in enumerate(state.pack) if state.play_state.hands[seat] >> c & 1}
        others = [i for i in range(32) if i not in own]
        cards = [state.pack[i] for i in others]
        rng.shuffle(cards)
        pack = list(state.pack)
        for i, c in zip(others, cards):
            pack[i] = c
        other = ref.FullDealState(pack, state.dealer, bs.BULGARIAN)
        for _, call in state.auction.calls:
            other.play(call)
        assert other.play_state.hands[seat] == state.play_state.hands[seat]
        changed += other.play_state.hands != state.play_state.hands
        assert bot.play(other) == bot.play(state)
        compared += 1
    assert compared > 20 and changed == compared
