"""The position notation (belot_sim/game/notation.py, docs/notation.md) and the reference states'
``to_text()`` / ``from_text()``.

* round trips: random states of every rule set, at every phase (auction, play, over, void), read
  back equal (same hands, calls, plays, legal actions, result) and write the same text;
* the examples of docs/notation.md read, and its error messages are the ones raised;
* unknown hands (``?``) are filled consistently: known cards kept, every recorded card legal, the
  sizes right, the unknown seats remembered and written as ``?`` again, layouts varying with the seed;
* the cards shown (``shown``): the reference's agree with the kernels' public view, a text that
  hides hands but keeps them gives a bot the view of the real deal, and a wrong field is refused;
* malformed texts: a ValueError naming the field and what it expected.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import belot_sim as bs
from belot_sim.game import notation
from belot_sim import reference as ref
from belot_sim.game.cards import popcount
from helpers import RULE_SETS

DOC = Path(__file__).resolve().parent.parent / "docs" / "notation.md"
CUSTOM = {"bulgarian-strict", "bulgarian-no-declarations", "classic-all"}


def random_full_state(rng: random.Random, rules) -> ref.FullDealState:
    """A deal from a random pack stopped at a random point (auction, play or the end)."""
    state = ref.FullDealState.random(rng.randrange(10**6), dealer=rng.randrange(4), rules=rules)
    stop = rng.randrange(45)
    while not state.is_over and stop:
        actions = state.legal_actions()
        passes = [a for a in actions if a == "pass"]
        state.play(passes[0] if passes and rng.random() < 0.6 else rng.choice(actions))
        stop -= 1
    return state


def same_deal(a: ref.DealState, b: ref.DealState) -> None:
    assert (a.rules, a.contract, a.declarer, a.dealer, a.multiplier) == (b.rules, b.contract, b.declarer, b.dealer,
                                                                        b.multiplier)
    assert a.initial_hands == b.initial_hands and a.hands == b.hands and a.plays == b.plays
    assert a.legal_actions() == b.legal_actions()
    if a.is_over:
        assert a.result() == b.result()


@pytest.mark.parametrize("rules_name", sorted(RULE_SETS))
def test_random_states_round_trip(rules_name):
    rules = RULE_SETS[rules_name]
    rng = random.Random(rules_name)
    phases = set()
    for _ in range(120):
        full = random_full_state(rng, rules)
        phases.add(full.phase)
        text = full.to_text()
        assert "\n" not in text and text.startswith("belot full; rules ")
        back = ref.FullDealState.from_text(text)
        assert back.to_text() == text
        assert (back.phase, back.first_hands, back.auction.calls, back.legal_actions()) == (
            full.phase, full.first_hands, full.auction.calls, full.legal_actions())
        if full.play_state is not None:
            deal_text = full.play_state.to_text()
            deal = ref.DealState.from_text(deal_text)
            assert deal.to_text() == deal_text
            same_deal(deal, full.play_state)
            same_deal(back.play_state, full.play_state)
        if full.is_over:
            assert back.result() == full.result()
    assert phases == {"auction", "play", "over"}
    assert ("custom" in rules.name) == (rules_name in CUSTOM)


def doc_positions() -> list[str]:
    return [line for line in re.findall(r"```\n(.*?)```", DOC.read_text(), re.S)
            for line in line.splitlines() if line.startswith("belot ")]


def test_the_documented_examples_read_and_write_back():
    texts = doc_positions()
    assert len(texts) >= 5
    for text in texts:
        state = ref.state_from_text(text)
        assert state.to_text() == text, text


def test_the_documented_example_positions_mean_what_the_doc_says():
    first, middle, unknown, full, classic = doc_positions()[:5]
    st = ref.DealState.from_text(first)
    assert [bs.format_cards(h) for h in st.hands[:2]] == ["7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD"]
    st = ref.DealState.from_text(middle)
    assert st.trick_number == 2 and st.to_move == 3 and len(st.trick) == 1
    st = ref.DealState.from_text(unknown)
    assert st.hidden_seats == (0, 1, 2) and st.hands[3] == ref.DealState.from_text(middle).hands[3]
    st = ref.FullDealState.from_text(full)
    assert (str(st.play_state.contract), st.play_state.declarer, st.play_state.multiplier) == ("H", 2, 2)
    st = ref.FullDealState.from_text(classic)
    assert st.auction.round == 2 and st.to_move == 0 and bs.format_card(st.turned) == "TD"


def test_the_documented_errors_are_the_ones_raised():
    block = re.search(r"## Errors.*?```\n(.*?)```", DOC.read_text(), re.S).group(1).splitlines()
    base = "belot deal; dealer 2; contract H; declarer 0; hands T.AQT9.T7.J AK98...AQT8 .K.AKQJ9.K9 QJ7.J87.8.7"
    full = ("belot full; dealer 0; hands T8.7.Q.K QJ.T.98. .K.K.AQ7 7.AQ.A7.; stock 9S 9H TD TC 8H 9C 8C AS JD JC "
            "KS JH")
    texts = ["belot foo", base.replace("dealer 2", "dealer 5"), base.replace("T.AQT9.T7.J", "T.AQT9.T7."),
             base + "; play 7S TS | AS", base + "; play 7S TS AS KH | AD 9C", full + "; auction P H P X",
             base + "; color red"]
    assert len(texts) == len(block)
    for text, message in zip(texts, block):
        with pytest.raises(ValueError) as error:
            ref.state_from_text(text)
        assert str(error.value) == message


@pytest.mark.parametrize("rules_name", ["bulgarian", "classic-all"])
def test_unknown_hands_are_filled_consistently(rules_name):
    rules = RULE_SETS[rules_name]
    rng = random.Random(rules_name)
    layouts = variable = positions = 0
    for i in range(150):
        full = random_full_state(rng, rules)
        deal = full.play_state
        if deal is None or deal.is_over:
            continue
        hidden = sorted(rng.sample(range(4), rng.randrange(1, 5)))
        text = deal.to_text()
        hands = text.split("; hands ")[1].split(";")[0].split()
        unknown = text.replace(" ".join(hands), " ".join("?" if s in hidden else h for s, h in enumerate(hands)))
        filled = ref.DealState.from_text(unknown, seed=i)
        assert filled.hidden_seats == tuple(hidden) and filled.to_text() == unknown
        assert filled.plays == deal.plays  # (from_text replays them: every recorded card was legal)
        for s in range(4):
            assert popcount(filled.hands[s]) == popcount(deal.hands[s])
            if s not in hidden:
                assert filled.initial_hands[s] == deal.initial_hands[s]
        positions += 1
        if len(hidden) > 1 and popcount(deal.hands[hidden[0]]) > 1:  # else only one layout exists
            variable += 1
            layouts += ref.DealState.from_text(unknown, seed=i + 1000).initial_hands != filled.initial_hands
    assert positions > 40 and variable > 20 and layouts > 0.8 * variable


def test_a_full_text_with_unknown_cards_hides_the_seats_that_hold_them():
    text = ("belot full; rules bulgarian; dealer 0; hands ? QJ.T.98. ? ?; stock ?; auction P H P P X P P P; "
            "play 8D KD 7D QD | 7C 8C")
    state = ref.FullDealState.from_text(text, seed=3)
    assert state.to_text() == text + "; shown ... ... ... ..."  # past the first trick: what was shown is said
    assert state.play_state.hidden_seats == (0, 1, 2, 3)  # seat 1's three stock cards are unknown too
    # dealer 0: the first seat after it (seat 1) gets the stock's first three cards
    partly = text.replace("stock ?", "stock 9S 9H TD" + " ?" * 9)
    state = ref.FullDealState.from_text(partly, seed=3)
    # seat 1's tierce T 9 8 of diamonds scores against unknown seats that announced nothing: shown
    assert state.to_text() == partly + "; shown ... ..T98. ... ..."
    assert state.play_state.hidden_seats == (0, 2, 3)
    assert state.play_state.initial_hands[1] == bs.parse_cards("QS JS 9S TH 9H TD 9D 8D")


@pytest.mark.parametrize("text, pattern", [
    ("", "must start with 'belot deal'"),
    ("belot deal", "needs the field"),
    ("belot deal; dealer 1; contract H; declarer 0; hands ? ? ?", "expected four hands"),
    ("belot deal; dealer 1; contract H; declarer 0; hands ? ? ? ?;; play 7C", "empty field"),
    ("belot deal; dealer 1; dealer 2; contract H; declarer 0; hands ? ? ? ?", "'dealer' appears twice"),
    ("belot deal; dealer 1; contract H; declarer 4; hands ? ? ? ?", "field 'declarer': expected a seat"),
    ("belot deal; dealer 1; contract H; declarer 0; multiplier 3; hands ? ? ? ?", "field 'multiplier'"),
    ("belot deal; rules classic; dealer 1; contract NT; declarer 0; hands ? ? ? ?", "field 'contract'.*all_no_trumps"),
    ("belot deal; rules french; dealer 1; contract H; declarer 0; hands ? ? ? ?", "field 'rules': unknown preset"),
    ("belot deal; rules classic colour=red; dealer 1; contract H; declarer 0; hands ? ? ? ?", "field 'rules'.*colour"),
    ("belot deal; rules classic declarations; dealer 1; contract H; declarer 0; hands ? ? ? ?", "option=value"),
    ("belot deal; rules bulgarian undertrump=required undertrump=free; dealer 1; contract H; declarer 0; "
     "hands ? ? ? ?", "field 'rules': option 'undertrump' given twice"),
    ("belot deal; rules classic; dealer 1; contract H; declarer 0; multiplier 2; hands ? ? ? ?",
     "field 'multiplier': expected 1 .classic"),
    ("belot deal; dealer 1; contract H; declarer 0; hands AKQJT98Z... ? ? ?", "'Z' is not a rank"),
    ("belot deal; dealer 1; contract H; declarer 0; hands AAKQJT98... ? ? ?", "AS appears twice"),
    ("belot deal; dealer 1; contract H; declarer 0; hands AKQJT987... AKQJT987... ? ?", "AS is in two hands"),
    ("belot deal; dealer 1; contract H; declarer 0; hands ? ? ? ?; play 7C 1X", "field 'play': card 2"),
    ("belot deal; dealer 1; contract H; declarer 0; hands ? ? ? ?; play 7C 7C", "7C is played twice"),
    ("belot deal; dealer 1; contract H; declarer 0; hands ? ? ? ?;;", "empty field"),
    ("belot full; dealer 1; hands ? ? ? ?; stock 7C 8C 9C | ? ? ? ? ? ? ? ? ?", "'|' separates tricks"),
    ("belot deal; dealer 1; contract H; declarer 0; hands ? ? ? ?; shown ... ...", "field 'shown': expected four"),
    ("belot deal; dealer 3; contract H; declarer 0; hands ? ? ? ?; play 7C 8D 9C AC | 8C TC KC",
     "field 'play': card 2 .8D.: seat 1 could not play it while holding KC, which it plays at card 7"),
    ("belot deal; dealer 3; contract C; declarer 0; hands ? ? ? ?; play 7C 8D; shown ... ...KQ ... ...",
     "field 'play': card 2 .8D.: seat 1 could not play it while holding QC, which it showed"),
    ("belot deal; dealer 1; contract H; declarer 0; hands ? ? ? ?; shown .Q.. .Q.. ... ...", "QH is shown by two"),
    ("belot deal; dealer 1; contract H; declarer 0; hands ? ? ? ?; play KS; shown ... KQ... ... ...",
     "field 'shown': seat 1 showed KS, which the text does not put in its hand"),
    ("belot deal; dealer 1; contract H; declarer 0; hands ? ? ? ?; shown AKQJT.AKQJ.. ... ... ...",
     "field 'shown': seat 0 holds 8 cards, fewer than it holds, played and showed"),
    ("belot deal; dealer 2; contract H; declarer 0; hands T.AQT9.T7.J AK98...AQT8 .K.AKQJ9.K9 QJ7.J87.8.7; "
     "play 7S TS AS KH; shown T... ... ..AKQJ. ...", "seat 0 showed TS, which is in no declaration nor a belot"),
    ("belot deal; dealer 1; contract H; declarer 0; hands ...AKQJT987 ? ? ?; shown ... ...K ... ...",
     "seat 1 showed KC, which the text does not put in its hand"),
    ("belot deal; dealer 2; contract H; declarer 0; hands T.AQT9.T7.J AK98...AQT8 .K.AKQJ9.K9 QJ7.J87.8.7; "
     "play 7S TS AS KH; shown ... ... ... ...",
     r"the hands and plays show \.\.\. \.\.\. \.\.AKQJ\. \.\.\., the field says \.\.\. \.\.\. \.\.\. \.\.\."),
    ("belot deal; dealer 3; contract H; declarer 0; hands ? ? ? ?; play 7C 7D 7H 7S; shown ...AK ... ... ...",
     "seat 0 showed KC, which is in no declaration nor a belot"),
    ("belot deal; dealer 3; contract H; declarer 0; hands ? ? ? ?; play 7C 7D; shown ...AKQ ... ... ...",
     "seat 0 showed QC, which is in no belot .no declaration is shown yet."),
    ("belot deal; dealer 3; contract H; declarer 0; hands ? ? ? ?; play 7C 7D 7H 7S; shown ...AKQ ..AKQ. ... ...",
     "no layout of the unknown cards .of 5000 drawn. shows exactly"),  # both teams' sequences: impossible
    ("belot deal; dealer 1; contract H; declarer 0; hands AKQJT987... ? ? ?; play 7C 7S", "another place"),
    ("belot deal; dealer 3; contract H; declarer 0; hands ...AKQJT987 ? ? ?; play 7H", "not in its hand"),
    ("belot full; dealer 1; hands ? ? ? ?; stock 7C 8C", "field 'stock': expected the 12 cards"),
    ("belot full; rules classic; dealer 1; hands ? ? ? ?; stock ?", "turned card"),
    ("belot full; dealer 1; hands ? ? ? ?; stock ?; auction P Q", "call 2 'Q' is not a call"),
    ("belot full; dealer 1; hands ? ? ? ?; stock ?; auction P P P P; play 7C", "only after an auction"),
    ("belot full; dealer 1; hands AKQJT... AKQJT... ? ?; stock ?", "AS is in two hands"),
    ("belot deal; dealer 1; contract H; declarer 0; hands ? ? ? ?; stock ?", "unknown field 'stock'"),
])
def test_malformed_texts_name_the_problem(text, pattern):
    with pytest.raises(ValueError, match=pattern):
        ref.state_from_text(text)


def test_rule_options_are_read_in_any_case_and_a_bad_seed_is_a_type_error():
    text = "belot deal; rules bulgarian UNDERTRUMP=Required; dealer 1; contract H; declarer 0; hands ? ? ? ?"
    assert ref.DealState.from_text(text, seed=1).rules == bs.BULGARIAN.replace(undertrump="required")
    for seed in ("1", 1.5, True):
        with pytest.raises(TypeError, match="seed must be an integer"):
            ref.DealState.from_text(text, seed=seed)


def test_a_text_of_the_wrong_kind_says_which_reader_to_use():
    deal = "belot deal; dealer 1; contract H; declarer 0; hands ? ? ? ?"
    with pytest.raises(ValueError, match="DealState.from_text"):
        ref.FullDealState.from_text(deal)
    with pytest.raises(ValueError, match="FullDealState.from_text"):
        ref.DealState.from_text("belot full; dealer 1; hands ? ? ? ?; stock ?; auction P H P P P")
    with pytest.raises(TypeError, match="string"):
        notation.parse_position(42)


def test_hands_are_written_spades_first_from_the_ace_down():
    assert notation.format_hand(bs.parse_cards("AS 7S KH TD 9C")) == "A7.K.T.9"
    assert notation.parse_hand("A7.K.T.9", "a hand") == bs.parse_cards("AS 7S KH TD 9C")
    assert notation.parse_hand("A-7.K.10.9", "a hand") == notation.parse_hand("A7.K.T.9", "a hand")
    assert notation.format_rules(bs.CLASSIC.replace(match_target=501, undertrump="required")) == \
        "classic undertrump=required match_target=501"


# -- the cards shown -------------------------------------------------------------------------------


def kernel_shown(deal: ref.DealState) -> tuple:
    """The cards the kernels' public view knows each seat holds (the view a bot rebuilds)."""
    import numpy as np

    from belot_sim.positions.bots import fill_record, new_record
    from belot_sim.kernels.core import layouts as L
    from belot_sim.kernels.players.position import public_view

    record = new_record(deal.rules, 0, False)
    fill_record(record, deal)
    view = np.zeros(L.V_SIZE, dtype=np.int64)
    public_view(record, view)
    return tuple(int(view[L.V_KNOWN + s]) for s in range(4))


@pytest.mark.parametrize("rules_name", sorted(RULE_SETS))
def test_the_cards_shown_are_those_of_the_kernels_view(rules_name):
    rng = random.Random(f"shown {rules_name}")
    seen = 0
    for _ in range(300):
        deal = random_full_state(rng, RULE_SETS[rules_name]).play_state
        if deal is None:
            continue
        assert deal.shown_cards() == kernel_shown(deal)
        seen += any(deal.shown_cards())
    assert seen > 20 or not RULE_SETS[rules_name].declarations


def test_a_text_that_hides_hands_but_keeps_what_was_shown_gives_a_bot_the_real_view():
    """Replacing the hands a seat cannot see by ``?`` in ``to_text()`` keeps the bot's view, so a
    deterministic bot plays the same card from both; without ``shown`` the view loses the cards."""
    rng = random.Random(5)
    bot, compared, lost = bs.Bot("hard"), 0, 0
    for i in range(200):
        deal = random_full_state(rng, bs.BULGARIAN).play_state
        if deal is None or deal.is_over:
            continue
        text = deal.to_text()
        hands = text.split("; hands ")[1].split(";")[0].split()
        mine = deal.to_move
        hidden = text.replace(" ".join(hands), " ".join(h if s == mine else "?" for s, h in enumerate(hands)))
        filled = ref.DealState.from_text(hidden, seed=i)
        assert filled.shown_cards() == deal.shown_cards() and filled.to_text() == hidden
        view, filled_view = kernel_shown(deal), kernel_shown(filled)
        assert view == filled_view
        assert bot.play(filled) == bot.play(deal)
        compared += 1
        if "; shown " in hidden:
            quiet = ref.DealState.from_text(hidden.split("; shown ")[0], seed=i)
            lost += kernel_shown(quiet) != view
    assert compared > 100 and lost > 10
