"""``bs.Bot``: every player and bidder one decision at a time (belot_sim/positions/bots.py).

* the same decisions as ``simulate``: its deals replayed through reference states, a bot given the
  deal's stream (``deal_id``) makes every recorded call and plays every recorded card — every
  contract, both families, the rule options, every player and bidder;
* without a deal id a decision is a pure function of the seed and what the seat knows: the same
  position gives the same answer in any order, and rearranging the cards the seat cannot see
  (consistently with what it knows) changes nothing, for the randomised players too;
* the auction array a bot rebuilds equals the kernels' own; a perfect-information bot alone reads
  other hands;
* bad input of every kind is refused with a clear error.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.positions.bots import Bot
from belot_sim.kernels.core import auction_rules as ka
from belot_sim.kernels.core import layouts as L
from belot_sim.kernels.core.dealing import deal_pack
from helpers import RULE_SETS, grouped, random_deal, rearranged, view_of

FAST = ("random", "easy", "normal", "hard")


def replay_with_bots(rules, players, bidders, n, seed, worlds=20, bidder_options=None, contracts=None) -> int:
    """Replay ``simulate``'s deals through reference states, asking one bot per player (and one per
    bidder) at every decision with the deal's stream; returns the decisions checked (the contracts
    played are added to ``contracts``)."""
    contracts = set() if contracts is None else contracts
    kwargs = dict(rules=rules, players=players, seed=seed, plays=True, worlds=worlds, bidder_options=bidder_options)
    if bidders is None:
        deals, plays = bs.simulate(n, **kwargs)
        calls = None
    else:
        deals, plays, calls = bs.simulate(n, bidders=bidders, calls=True, **kwargs)
    seats = (players,) * 4 if isinstance(players, str) else players
    players_of = {p: Bot(p, rules=rules, seed=seed, worlds=worlds) for p in set(seats)}
    bidder_seats = (bidders,) * 4 if isinstance(bidders, str) else bidders
    bidders_of = {b: Bot("random", rules=rules, seed=seed, bidder=b, bidder_options=bidder_options)
                  for b in set(bidder_seats or ())}
    contracts.update(str(c) for c in deals["contract"].dropna())
    play_map = grouped(plays, ("seat", "card"))
    call_map = grouped(calls, ("seat", "call")) if calls is not None else {}
    pack = np.empty(32, dtype=np.int64)
    checked = 0
    for row in deals.to_dict("records"):
        d = row["deal_id"]
        if calls is None:
            hands = [row[f"hand{s}"] for s in range(4)]
            state = ref.DealState.from_hands(hands, contract=str(row["contract"]), declarer=row["declarer"],
                                             dealer=row["dealer"], multiplier=row["multiplier"], rules=rules)
        else:
            dealer = deal_pack(np.uint64(seed), d, pack)
            state = ref.FullDealState(pack.tolist(), int(dealer), rules)
            for seat, call in call_map[d]:
                assert bidders_of[bidder_seats[seat]].bid(state, deal_id=d) == call, (d, seat)
                state.play(call)
                checked += 1
        for seat, card in play_map.get(d, []):
            assert players_of[seats[seat]].play(state, deal_id=d) == card, (d, seat, len(checked_plays(state)))
            state.play(card)
            checked += 1
        assert state.is_over
    return checked


def checked_plays(state):
    return (state.play_state if isinstance(state, ref.FullDealState) else state).plays


@pytest.mark.parametrize("rules_name", sorted(RULE_SETS))
def test_bots_make_simulates_calls_and_cards(rules_name):
    """Auctions between the random and heuristic bidders, play by the four fast players, then fixed
    random contracts (every contract of the rules) with the players in other seats."""
    rules = RULE_SETS[rules_name]
    contracts = set()
    checked = replay_with_bots(rules, FAST, ("heuristic", "random", "random", "heuristic"), 800, seed=3,
                               contracts=contracts)
    checked += replay_with_bots(rules, ("random", "hard", "easy", "normal"), None, 400, seed=4, contracts=contracts)
    assert checked > 900 * 32
    assert contracts == {str(c) for c in rules.contracts}


@pytest.mark.parametrize("rules_name", ["bulgarian-strict", "classic-all"])
def test_searching_bots_and_mc_bidders_make_simulates_choices(rules_name):
    rules = RULE_SETS[rules_name]
    options = {"mc_samples": 6}
    assert replay_with_bots(rules, ("pimc", "dd", "pimc", "hard"), ("mc", "heuristic", "random", "mc"), 8, seed=7,
                            worlds=4, bidder_options=options) > 6 * 32
    assert replay_with_bots(rules, "dd", None, 8, seed=8) == 8 * 32


def test_one_pimc_bot_follows_a_deals_world_stream_in_any_order_of_asking():
    deals, plays = bs.simulate(3, players="pimc", contract="AT", seed=2, worlds=3, plays=True)
    bot = Bot("pimc", worlds=3, seed=2)
    cards = plays["card"].to_numpy().reshape(-1, 32)
    for i, row in enumerate(deals.itertuples()):
        state = ref.DealState.from_hands([getattr(row, f"hand{s}") for s in range(4)], contract="AT",
                                         declarer=row.declarer, dealer=row.dealer)
        for k in range(32):
            assert bot.play(state, deal_id=i) == cards[i, k]
            assert bot.play(state, deal_id=i) == cards[i, k]  # a position asked again: the stream it had
            state.play(int(cards[i, k]))


def test_without_a_deal_id_a_decision_depends_on_the_seed_and_the_position_only():
    rng = random.Random(5)
    states = []
    for i in range(60):
        state = random_deal(rng, bs.BULGARIAN.contracts[i % 6], bs.BULGARIAN)
        for _ in range(rng.randrange(0, 30)):
            state.play(rng.choice(state.legal_actions()))
        states.append(state)
    for player in ("random", "pimc"):
        bot = Bot(player, worlds=3, seed=9)
        first = [bot.play(s) for s in states]
        assert [bot.play(s) for s in reversed(states)] == first[::-1]
        assert [Bot(player, worlds=3, seed=9).play(s) for s in states] == first
    other = [Bot("random", seed=10).play(s) for s in states]
    assert other != [Bot("random", seed=9).play(s) for s in states]


def test_hidden_cards_are_really_hidden():
    """Rearranging the cards the mover cannot see changes no player's card (dd is shown every hand)."""
    rng = random.Random(77)
    rules_list = list(RULE_SETS.values())
    bots = {}
    compared = changed = 0
    for i in range(150):
        rules = rules_list[i % len(rules_list)]
        state = random_deal(rng, rules.contracts[i % len(rules.contracts)], rules)
        for _ in range(rng.randrange(2, 28)):
            state.play(rng.choice(state.legal_actions()))
        other = rearranged(state, view_of(state), rng)
        if other is None:
            continue
        changed += other.hands != state.hands
        for player in ("random", "easy", "normal", "hard", "neural", "pimc"):
            bot = bots.setdefault((player, rules), Bot(player, rules=rules, worlds=3, seed=i))
            assert bot.play(other) == bot.play(state), (i, player)
        compared += 1
    assert compared > 100 and changed > 90


def test_the_dd_bot_alone_reads_other_hands():
    rng = random.Random(3)
    differs = 0
    for _ in range(40):
        state = random_deal(rng, "H", bs.BULGARIAN)
        for _ in range(rng.randrange(4, 20)):
            state.play(rng.choice(state.legal_actions()))
        other = rearranged(state, view_of(state), rng)
        if other is not None:
            differs += Bot("dd").play(other) != Bot("dd").play(state)
    assert differs > 0


def test_the_auction_array_equals_the_kernels_own():
    rng = random.Random(11)
    rule_sets = (bs.BULGARIAN, bs.CLASSIC.replace(all_no_trumps=True))
    bots = [Bot("random", rules=rules, bidder="random") for rules in rule_sets]
    for i in range(300):
        rules, bot = rule_sets[i % 2], bots[i % 2]
        state = ref.FullDealState.random(i, dealer=i % 4, rules=rules)
        kernel = np.zeros(L.A_SIZE, dtype=np.int64)
        turned = -1 if state.turned is None else state.turned
        ka.auction_start(kernel, state.dealer, int(rules.is_classic), turned >> 3 if rules.is_classic else -1)
        while state.phase == "auction":
            bot._fill_auction(state.auction, turned)
            assert np.array_equal(bot._auction, kernel), i
            call = rng.choice(state.legal_actions())
            ka.apply_call(kernel, ka.CALL_OF_NAME[call], int(rules.is_classic), rules.all_no_trumps,
                          turned >> 3 if rules.is_classic else -1)
            state.play(call)


def test_bots_play_whole_matches_with_legal_choices():
    match = ref.MatchState("bulgarian", seed=4)
    bots = [Bot(p, bidder=b) for p, b in (("hard", "heuristic"), ("normal", "mc"), ("pimc", "random"),
                                           ("easy", "heuristic"))]
    while not match.is_over:
        bot = bots[match.to_move]
        match.play(bot.bid(match) if match.deal.phase == "auction" else bot.play(match))
    assert match.winner in (0, 1) and len(match.results) > 3


# --- bad input ------------------------------------------------------------------------------------

def finished() -> ref.DealState:
    return ref.random_full_deal(1).play_state or ref.random_full_deal(2).play_state


@pytest.mark.parametrize("make, call, pattern", [
    (lambda: Bot("hard", rules="classic"), lambda b: b.play(random_deal(random.Random(1), "H", bs.BULGARIAN)),
     "other rules"),
    (lambda: Bot("hard"), lambda b: b.play(finished()), "deal is over"),
    (lambda: Bot("hard", bidder="heuristic"), lambda b: b.bid(ref.random_full_deal(1)), "deal is over"),
    (lambda: Bot("hard", bidder="heuristic"), lambda b: b.play(ref.FullDealState.random(1)), "auction"),
    (lambda: Bot("hard", bidder="heuristic"), lambda b: b.bid(random_deal(random.Random(1), "H", bs.BULGARIAN)),
     "FullDealState"),
    (lambda: Bot("hard"), lambda b: b.bid(ref.FullDealState.random(1)), "no bidder"),
    (lambda: Bot("hard"), lambda b: b.play("7C 8C"), "DealState"),
    (lambda: Bot("hard"), lambda b: b.play(random_deal(random.Random(1), "H", bs.BULGARIAN), deal_id=-1),
     "deal_id"),
])
def test_bad_questions_are_refused(make, call, pattern):
    bot = make()
    with pytest.raises((ValueError, TypeError), match=pattern):
        call(bot)


def test_a_match_target_of_its_own_is_not_other_rules():
    """No card and no heuristic call reads the match target, so a bot answers states of any target alike (the
    neural bidder reads the score towards the target: test_neural_bidder.py)."""
    short = bs.BULGARIAN.replace(match_target=101)
    deal = random_deal(random.Random(3), "H", short)
    same = random_deal(random.Random(3), "H", bs.BULGARIAN)
    bot = Bot("hard")
    assert bot.play(deal) == Bot("hard", rules=short).play(deal) == bot.play(same) == bot.play(deal)
    match = ref.MatchState(short, seed=4)
    assert Bot("hard", bidder="heuristic").bid(match) == Bot("hard", rules=short, bidder="heuristic").bid(match)
    with pytest.raises(ValueError, match=r"other rules.*the state has \{'declarations': False\};"):
        Bot("hard").play(random_deal(random.Random(3), "H", short.replace(declarations=False)))


def test_a_bid_in_the_play_phase_and_a_play_of_a_void_deal_are_refused():
    bot = Bot("hard", bidder="heuristic")
    state = ref.FullDealState.random(3)
    while state.phase == "auction":
        state.play("H" if "H" in state.legal_actions() else "pass")
    with pytest.raises(ValueError, match="play phase.*bot.play"):
        bot.bid(state)
    void = ref.FullDealState.random(3)
    for _ in range(4):
        void.play("pass")
    with pytest.raises(ValueError, match="void|over"):
        bot.play(void)


@pytest.mark.parametrize("kwargs, pattern", [
    ({"player": "grandmaster"}, "unknown player 'grandmaster'.*hard"), ({"player": 3}, "unknown player"),
    ({"player": "hard", "bidder": "oracle"}, "unknown bidder 'oracle'"),
    ({"player": "hard", "rules": "french"}, "unknown rule preset"), ({"player": "pimc", "worlds": 0}, "worlds"),
    ({"player": "hard", "seed": -1}, "seed"), ({"player": "hard", "bidder_options": {"nope": 1}}, "nope"),
    ({"player": "pimc", "bidder_options": {"pass_prob": 0.5}}, "give bidder= too"),  # ignored, as simulate's would be
])
def test_bad_bots_are_refused(kwargs, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        Bot(**kwargs)
    Bot("expert", bidder_options={"thr_suit": 11})  # the options of the model it reads the auction with


def test_unknown_hands_are_refused_where_they_matter():
    text = ("belot deal; dealer 3; contract H; declarer 0; hands AKQJT987... ? ? ?; play AS")
    state = ref.DealState.from_text(text)
    with pytest.raises(ValueError, match="seat 1, to move, is unknown"):
        Bot("hard").play(state)
    state.undo()
    assert state.hidden_seats == (1, 2, 3) and state.legal_mask() >> Bot("hard").play(state) & 1
    with pytest.raises(ValueError, match="dd sees every hand"):
        Bot("dd").play(state)


def test_the_bots_document_runs_as_shown(capsys):
    import doctest
    import re
    from pathlib import Path

    from belot_sim.cli import main

    doc = (Path(__file__).resolve().parent.parent / "docs" / "bots.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert len(blocks) >= 2
    for k, block in enumerate(blocks):
        test = doctest.DocTestParser().get_doctest(block, {}, f"docs/bots.md block {k}", "docs/bots.md", 0)
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(test)
        assert runner.summarize(verbose=False).failed == 0, k
    command, *shown = re.search(r"```\n\$ (belot-sim analyze .*?)```", doc, re.S).group(1).splitlines()
    position = command.split('"')[1]
    capsys.readouterr()
    assert main(["analyze", position]) == 0
    assert capsys.readouterr().out.splitlines() == shown
