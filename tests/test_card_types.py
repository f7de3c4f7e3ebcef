"""Cards by name: ``bs.Card`` and ``bs.Cards`` are the ints they stand for and print as names; the
states, bots and solver hand them out; a state's ``repr`` is its position text, its ``str`` a diagram."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pandas as pd
import pytest

import belot_sim as bs
from belot_sim import reference as ref

POSITION = ("belot deal; rules bulgarian; dealer 2; contract H; declarer 0; multiplier 1; hands T.AQT9.T7.J "
            "AK98...AQT8 .K.AKQJ9.K9 QJ7.J87.8.7; play 7S TS AS KH | AD 8D 7D 8C | 9D")
SUITED = ["7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD", "7H 8H 9H TH JH QH KH AH", "7S 8S 9S TS JS QS KS AS"]


def test_a_card_is_its_index_and_prints_its_name():
    card = bs.Card("J♥")
    assert card == 20 and isinstance(card, int) and hash(card) == hash(20)
    assert (str(card), repr(card), f"{card:>3}", f"{card:d}") == ("JH", "JH", " JH", "20")
    assert (card.suit, card.rank) == ("H", "J")
    assert bs.Card(20) is card and bs.Card(np.int8(20)) is card and bs.Card("10h") == bs.parse_card("TH")
    assert 1 << card == 1 << 20 and card + 1 == 21 and type(card + 1) is int
    assert np.zeros(32)[card] == 0 and np.array([card, bs.Card(3)]).dtype == np.int64
    assert json.dumps({"card": card}) == '{"card": 20}'
    assert pickle.loads(pickle.dumps(card)) is card
    assert str([bs.Card(c) for c in (0, 31)]) == "[7C, AS]"


@pytest.mark.parametrize("bad, error, pattern", [
    (32, ValueError, "0..31"), (-1, ValueError, "0..31"), ("JX", ValueError, "suit"), (True, TypeError, "integer"),
    (2.0, TypeError, "integer"),
])
def test_a_bad_card_is_refused_by_name(bad, error, pattern):
    with pytest.raises(error, match=pattern):
        bs.Card(bad)


def test_a_set_of_cards_is_its_mask_and_prints_its_cards():
    hand = bs.Cards("JH 9H 10S")
    assert hand == bs.parse_cards("JH 9H TS") and isinstance(hand, int)
    assert (str(hand), repr(hand)) == ("TS 9H JH", "Cards('TS 9H JH')")
    assert list(hand) == [18, 20, 27] and all(type(c) is bs.Card for c in hand)
    assert len(hand) == 3 and "9H" in hand and 20 in hand and "AS" not in hand
    assert type(hand | bs.Cards("7C")) is bs.Cards and str(hand & bs.parse_cards("JH AS")) == "JH"
    assert str(bs.parse_cards("7C") | hand) == "TS 9H JH 7C"  # an int on the left: still a set
    assert bs.Cards() == 0 and str(bs.Cards()) == "" and not bs.Cards()
    assert bs.Cards([20, "9H"]) == bs.parse_cards("JH 9H")
    assert np.array(hand).shape == () and pd.Series([hand]).dtype == np.int64  # a scalar to numpy and pandas
    with pytest.raises(ValueError, match="duplicate card JH"):
        bs.Cards("JH JH")


def test_legal_actions_are_cards_that_agents_use_as_ints():
    st = ref.DealState.from_hands(SUITED, contract="H", declarer=0, dealer=3)
    actions = st.legal_actions()
    assert actions == list(range(8)) and str(actions) == "[7C, 8C, 9C, TC, JC, QC, KC, AC]"
    assert st.legal_cards() == st.legal_mask() and str(st.legal_cards()) == "7C 8C 9C TC JC QC KC AC"
    st.play(actions[-1])
    assert st.plays == [(0, 7)] and type(st.plays[0][1]) is int  # the state keeps plain ints
    full = ref.FullDealState.random(seed=1)
    assert full.legal_cards() == bs.Cards() and full.legal_actions()[0] == "pass"  # an auction: calls
    match = ref.MatchState(seed=2)
    assert match.legal_cards() == bs.Cards()


def test_the_environment_masks_stay_plain_int_arrays():
    from belot_sim import env as belot_env

    e = belot_env.env(opponents={1: "hard", 2: "hard", 3: "hard"}, seed=1)
    e.reset()
    mask = e.observe("seat_0")["action_mask"]
    assert mask.dtype == np.int8 and set(np.unique(mask)) <= {0, 1}


def test_the_states_show_their_text_and_a_diagram():
    st = ref.DealState.from_text(POSITION)
    assert repr(st) == st.to_text() and ref.DealState.from_text(repr(st)).to_text() == st.to_text()
    text = str(st)
    assert text.splitlines()[0] == "H by seat 0 · dealer 2 · seat 3 to move"
    assert "0  ♠—  ♥AQT9  ♦T  ♣J" in text and "table: 9D (seat 2)" in text
    assert "team 0: 36 points, 2 tricks · team 1: 0 points, 0 tricks" in text
    full = ref.FullDealState.random(seed=3)
    assert repr(full) == full.to_text() and str(full).startswith("auction · dealer 0 · seat 1 to move")
    match = ref.MatchState(seed=1)
    assert str(match).endswith("match: 0–0")


def test_a_finished_deal_shows_its_result():
    st = ref.DealState.from_hands(SUITED, contract="H", declarer=0, dealer=3)
    while not st.is_over:
        st.play(st.legal_actions()[0])
    result = st.result()
    assert str(st).splitlines()[-1] == (f"{result.outcome} · raw {result.raw[0]}–{result.raw[1]} · score "
                                        f"{result.score[0]}–{result.score[1]}")
    assert "to move" not in str(st).splitlines()[0]


def test_a_bot_plays_a_card_and_takes_a_position_text():
    bot = bs.Bot("normal")
    card = bot.play(POSITION)
    assert type(card) is bs.Card and card == bot.play(ref.DealState.from_text(POSITION)) and str(card) == "JH"
    text = "belot full; dealer 0; hands ? AKQJT... ? ?; stock ? ? ? ? ? ? ? ? ? ? ? ?; auction"
    assert bs.Bot("hard", bidder="heuristic").bid(text) == bs.Bot("hard", bidder="heuristic").bid(
        ref.FullDealState.from_text(text))
    with pytest.raises(ValueError, match="position text"):
        bot.play("belot deal; dealer 9")


def test_solve_moves_keys_are_cards_or_names():
    hands = ["AS 7C", "7S 8C", "TS 9C", "8S TC"]
    values = bs.solve_moves(hands, "NT", leader=0)
    assert values == {0: 62, 31: 42} and all(type(k) is bs.Card for k in values)
    assert bs.solve_moves(hands, "NT", leader=0, names=True) == {"7C": 62, "AS": 42}
    assert bs.solve_moves(hands, "NT", leader=0, names=True) == {"7C": 62, "AS": 42}
    st = ref.DealState.from_text(POSITION)
    assert bs.solve_moves(st, names=True) == {bs.format_card(c): v for c, v in bs.solve_moves(st).items()}
    with pytest.raises(TypeError, match="names"):
        bs.solve_moves(hands, "NT", leader=0, names="yes")


def test_format_cards_takes_a_series_or_an_array():
    masks = np.array([bs.parse_cards("JH 9H TS"), 0, bs.parse_cards("7C AS")], dtype=np.uint32)
    assert bs.format_cards(masks).tolist() == ["TS 9H JH", "", "AS 7C"]
    series = pd.Series(masks, index=[7, 8, 9], name="hand0")
    text = bs.format_cards(series)
    assert isinstance(text, pd.Series) and text.name == "hand0" and list(text.index) == [7, 8, 9]
    assert text.tolist() == [bs.format_cards(int(m)) for m in masks]
    rng = np.random.default_rng(1)
    many = rng.integers(0, 2**32, 500, dtype=np.uint64).astype(np.uint32)
    assert bs.format_cards(many).tolist() == [bs.format_cards(int(m)) for m in many]
    with pytest.raises(ValueError, match="not a 32-bit card mask"):
        bs.format_cards(np.array([-1, 3]))
    with pytest.raises(TypeError, match="integers"):
        bs.format_cards(np.array([1.5]))
