"""``bs.analyze`` and ``belot-sim analyze`` (belot_sim/positions/analysis.py, cli/analyze.py).

* one row per legal card; ``dd`` equals ``solve_position`` (moves) for the position; the sampled
  statistics are those of the layout values (mean, standard error, share of layouts where best);
* the layouts are the ones a ``pimc`` bot with as many worlds and the same seed draws, so that
  bot's card has the best sampled mean; the ``bots`` column names the card each bot plays;
* with unknown hands the exact column is empty and ``dd`` is not asked;
* the command prints the table; bad input is refused.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import belot_sim as bs
from belot_sim import reference as ref
from belot_sim.game.notation import format_hand
from belot_sim.positions.analysis import layout_table
from belot_sim.cli import main
from helpers import RULE_SETS, random_deal


def positions(n: int, seed: int):
    rng = random.Random(seed)
    rules_list = list(RULE_SETS.values())
    for i in range(n):
        rules = rules_list[i % len(rules_list)]
        state = random_deal(rng, rules.contracts[i % len(rules.contracts)], rules)
        for _ in range(rng.randrange(8, 30)):
            state.play(rng.choice(state.legal_actions()))
        yield state


def test_one_row_per_legal_card_with_the_exact_and_the_sampled_values():
    for state in positions(18, 1):
        result = bs.analyze(state, worlds=30, seed=2, players=("hard", "dd"))
        table = result.table
        assert sorted(table["card"]) == state.legal_actions()
        assert list(table.columns) == ["card", "name", "dd", "pimc_mean", "pimc_se", "p_best", "bots"]
        team = state.to_move % 2
        exact = bs.solve_moves(state.hands, state.contract, state.leader, team, state.rules,
                               trick=[c for _, c in state.trick], valat=state.tricks_won[1 - team] == 0)
        assert dict(zip(table["card"].tolist(), table["dd"].tolist())) == exact
        legal, values = layout_table(state, 30, 2)
        cards = state.legal_actions()
        assert legal == state.legal_mask()
        v = values[:, cards]
        by_card = table.set_index("card")
        assert np.allclose(by_card.loc[cards, "pimc_mean"], v.mean(axis=0))
        assert np.allclose(by_card.loc[cards, "pimc_se"], v.std(axis=0, ddof=1) / np.sqrt(30))
        assert np.allclose(by_card.loc[cards, "p_best"], (v == v.max(axis=1, keepdims=True)).mean(axis=0))
        assert (table["pimc_mean"].diff().dropna() <= 0).all()  # best first
        assert table["p_best"].max() > 0 and table["p_best"].sum() >= 1 - 1e-9
        assert by_card.loc[result.choices["dd"], "dd"] == max(exact.values())
        for player, card in result.choices.items():
            assert player in by_card.loc[card, "bots"].split()
            assert card == bs.Bot(player, rules=state.rules, seed=2).play(state)


def classic_auction_positions(n: int, seed: int):
    """Classic deals after a heuristic auction (the turned card known to be the declarer's), a few
    random cards into the play."""
    rng = random.Random(seed)
    bidder = bs.Bot("random", rules=bs.CLASSIC, bidder="heuristic")
    k = 0
    while n:
        k += 1
        state = ref.FullDealState.random(1000 * seed + k, dealer=k % 4, rules=bs.CLASSIC)
        while state.phase == "auction":
            state.play(bidder.bid(state))
        if state.phase != "play":
            continue
        for _ in range(rng.randrange(0, 6)):
            state.play(rng.choice(state.legal_actions()))
        n -= 1
        yield state


def test_the_layouts_are_the_pimc_bots_own():
    """Also in classic after an auction, where both know that the declarer holds the turned card."""
    for state in [*positions(12, 3), *classic_auction_positions(8, 5)]:
        table = bs.analyze(state, worlds=5, seed=4, players=()).table
        card = bs.Bot("pimc", rules=state.rules, worlds=5, seed=4).play(state)
        assert table.set_index("card").loc[card, "pimc_mean"] == table["pimc_mean"].max()


def test_unknown_hands_leave_the_exact_column_empty():
    text = ("belot deal; rules bulgarian; dealer 2; contract H; declarer 0; multiplier 1; hands ? ? ? QJ7.J87.8.7; "
            "play 7S TS AS KH | AD 8D 7D 8C | 9D")
    result = bs.analyze(ref.DealState.from_text(text), worlds=40)
    table = result.table
    assert table["dd"].isna().all() and "dd" not in result.choices
    assert sorted(table["name"]) == ["7H", "8H", "JH"]
    # the same position with one layout of the unknown hands written out (the other seats announced
    # nothing in it): what seat 3 knows is the same, so are the layouts and every statistic drawn from them
    stand_in = ref.DealState.from_text(text, seed=8).initial_hands
    hands = " ".join(format_hand(stand_in[s]) for s in range(3))
    known = bs.analyze(ref.DealState.from_text(text.replace("? ? ?", hands)), worlds=40)
    assert known.table["dd"].notna().all() and "dd" in known.choices
    columns = ["card", "pimc_mean", "pimc_se", "p_best"]
    assert known.table[columns].equals(table[columns])


def test_the_command_prints_the_table(capsys):
    text = ("belot deal; rules bulgarian; dealer 2; contract H; declarer 0; multiplier 1; "
            "hands T.AQT9.T7.J AK98...AQT8 .K.AKQJ9.K9 QJ7.J87.8.7; play 7S TS AS KH | AD 8D 7D 8C | 9D")
    assert main(["analyze", text, "--worlds", "50", "--players", "hard,normal"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("seat 3 to move (team 1), trick 3, H by seat 0")
    assert out[1].split() == ["card", "name", "dd", "pimc_mean", "pimc_se", "p_best", "bots"]
    assert len(out) == 5 and any(line.split()[1] == "JH" and line.split()[-1] == "normal" for line in out[2:])


@pytest.mark.parametrize("argv, pattern", [
    (["analyze", "belot foo"], "must start with"),
    (["analyze", "belot deal; dealer 3; contract H; declarer 0; hands ? ? ? ?"], "seat 0, to move, is unknown"),
    (["analyze", "belot deal; dealer 3; contract H; declarer 0; hands ...AKQJT987 ? ? ?", "--players", "best"],
     "unknown player 'best'"),
    (["analyze", "belot deal; dealer 3; contract H; declarer 0; hands ...AKQJT987 ? ? ?", "--seed", "-1"],
     "seed must be in 0..18446744073709551615, got -1"),  # the words of the other commands
])
def test_the_command_refuses_bad_input(argv, pattern, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("belot-sim analyze:") and pattern in err


@pytest.mark.parametrize("kwargs, pattern", [({"worlds": 0}, "worlds"), ({"seed": -3}, "seed"),
                                             ({"players": ("hard", "genius")}, "genius")])
def test_bad_arguments(kwargs, pattern):
    state = next(positions(1, 5))
    with pytest.raises((ValueError, TypeError), match=pattern):
        bs.analyze(state, **kwargs)
    with pytest.raises(TypeError, match="DealState"):
        bs.analyze(b"belot deal")
    with pytest.raises(ValueError, match="position text"):
        bs.analyze("belot deal")


def test_a_position_text_is_analysed_as_the_state_it_reads():
    text = ("belot deal; rules bulgarian; dealer 2; contract H; declarer 0; multiplier 1; hands ? ? ? QJ7.J87.8.7; "
            "play 7S TS AS KH | AD 8D 7D 8C | 9D")
    for seed in (0, 3):
        read = bs.analyze(ref.DealState.from_text(text, seed=seed), worlds=30, seed=seed, players=("hard", "pimc"))
        assert bs.analyze(text, worlds=30, seed=seed, players=("hard", "pimc")).table.equals(read.table)
