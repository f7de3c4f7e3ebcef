"""Pictures of positions and deal rows: the SVG parses, and shows each seat's cards, the trick, the
tricks played and the contract it should."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import belot_sim as bs
from belot_sim import reference as ref

SVG = "{http://www.w3.org/2000/svg}"
POSITION = ("belot deal; rules bulgarian; dealer 2; contract H; declarer 0; multiplier 2; hands T.AQT9.T7.J "
            "AK98...AQT8 .K.AKQJ9.K9 QJ7.J87.8.7; play 7S TS AS KH | AD 8D 7D 8C | 9D")


def drawn(svg: str) -> dict:
    """What an SVG shows: ``{(place, seat): set of card names}``, the card backs per seat, the texts."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    cards: dict = {}
    for element in root.iter():
        if element.get("class") == "card":
            cards.setdefault((element.get("data-place"), int(element.get("data-seat"))), []).append(
                element.get("data-card"))
    backs = {}
    for element in root.iter(f"{SVG}g"):
        if element.get("class") == "back":
            seat = int(element.get("data-seat"))
            backs[seat] = backs.get(seat, 0) + 1
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    return {"cards": cards, "backs": backs, "texts": texts}


def test_a_position_shows_the_hands_the_trick_and_the_contract():
    st = ref.DealState.from_text(POSITION)
    shown = drawn(st._repr_svg_())
    for seat in range(4):
        assert sorted(shown["cards"][("hand", seat)]) == sorted(str(c) for c in bs.Cards(st.hands[seat]))
    assert shown["cards"][("trick", 2)] == ["9D"] and not shown["backs"]
    assert "H doubled by seat 0 · dealer 2 · seat 3 to move" in shown["texts"]
    assert "team 0: 36 points, 2 tricks · team 1: 0 points, 0 tricks" in shown["texts"]
    assert not any(place == "played" for place, _ in shown["cards"])
    with_tricks = drawn(st.to_svg(tricks=True))
    played = [card for (place, _), names in with_tricks["cards"].items() if place == "played" for card in names]
    assert sorted(played) == sorted(bs.format_card(c) for _, c in st.plays[:8])


def test_unknown_hands_are_card_backs():
    st = ref.DealState.from_text(POSITION.replace("AK98...AQT8", "?"))
    shown = drawn(st.to_svg())
    assert shown["backs"] == {1: 6} and ("hand", 1) not in shown["cards"]
    assert sorted(shown["cards"][("hand", 0)]) == sorted(str(c) for c in bs.Cards(st.hands[0]))
    full = ref.FullDealState.from_text("belot full; dealer 0; hands ? AKQJT... ? ?; stock ?; auction P")
    shown = drawn(full.to_svg())
    assert shown["backs"] == {0: 5, 2: 5, 3: 5} and shown["cards"] == {("hand", 1): ["AS", "KS", "QS", "JS", "TS"]}
    assert "auction: P" in shown["texts"] and "auction · dealer 0 · seat 2 to move" in shown["texts"]


def test_the_classic_turned_card_is_shown_during_the_auction():
    full = ref.FullDealState.random(seed=5, rules="classic")
    shown = drawn(full.to_svg())
    assert shown["cards"][("turned", full.dealer)] == [bs.format_card(full.turned)]
    assert f"turned card: {bs.format_card(full.turned)}" in str(full)
    bulgarian = ref.FullDealState.random(seed=5)
    assert not any(place == "turned" for place, _ in drawn(bulgarian.to_svg())["cards"])


def test_an_auction_a_finished_deal_and_a_match():
    full = ref.FullDealState.random(seed=4)
    shown = drawn(full.to_svg())
    assert {seat: sorted(shown["cards"][("hand", seat)]) for seat in range(4)} == {
        seat: sorted(str(c) for c in bs.Cards(full.first_hands[seat])) for seat in range(4)}
    full.play("H")
    for _ in range(3):
        full.play("pass")
    while not full.is_over:
        full.play(full.legal_actions()[0])
    shown = drawn(full.to_svg(tricks=True))
    assert sum(len(v) for (place, _), v in shown["cards"].items() if place == "played") == 32
    assert not any(place == "hand" for place, _ in shown["cards"])
    assert "auction: H P P P" in shown["texts"] and any(t.startswith(full.result().outcome) for t in shown["texts"])
    match = ref.MatchState(seed=3)
    assert "match: 0–0" in drawn(match._repr_svg_())["texts"]


def test_a_deal_row_with_its_tricks(tmp_path):
    deals, plays = bs.simulate(20, contract="NT", plays=True, seed=3)
    row = deals.iloc[5]
    shown = drawn(deals.belot.picture(deals.index[5], plays).to_svg())
    for seat in range(4):
        assert sorted(shown["cards"][("hand", seat)]) == sorted(str(c) for c in bs.Cards(int(row[f"hand{seat}"])))
    mine = plays[plays["deal_id"] == row["deal_id"]]
    for seat in range(4):
        assert sorted(shown["cards"][("played", seat)]) == sorted(
            bs.format_card(int(c)) for c in mine.loc[mine["seat"] == seat, "card"])
    assert f"{row['outcome']} · raw {row['raw0']}–{row['raw1']} · score {row['score0']}–{row['score1']}" in \
        shown["texts"]
    path = bs.write_svg(row, tmp_path / "deal.svg", plays=plays)
    assert path == tmp_path / "deal.svg" and drawn(path.read_text(encoding="utf-8"))["cards"] == shown["cards"]
    no_tricks = drawn(bs.write_svg(row, tmp_path / "plain.svg").read_text(encoding="utf-8"))
    assert not any(place == "played" for place, _ in no_tricks["cards"])
    assert "NT" in no_tricks["texts"]  # the contract on the empty table


def test_write_svg_takes_a_position_text_and_refuses_other_things(tmp_path):
    path = bs.write_svg(POSITION, tmp_path / "pos.svg", tricks=True)
    assert drawn(path.read_text(encoding="utf-8"))["cards"] == drawn(
        ref.DealState.from_text(POSITION).to_svg(tricks=True))["cards"]
    with pytest.raises(TypeError, match="cannot draw a int"):
        bs.write_svg(3, tmp_path / "x.svg")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        bs.write_svg(POSITION, tmp_path / "missing" / "x.svg")
    deals = bs.simulate(2, seed=1)
    with pytest.raises(ValueError, match="lacks the column"):
        bs.write_svg(deals.iloc[0].drop("hand0"), tmp_path / "x.svg")


def test_the_docs_show_a_current_picture_and_diagram():
    """docs/position.svg is what write_svg draws of the README's position today, and the Python block
    of docs/notation.md (the diagram) runs as shown."""
    import doctest
    import re
    from pathlib import Path

    docs = Path(__file__).resolve().parent.parent / "docs"
    readme_position = POSITION.replace("multiplier 2", "multiplier 1")
    assert (docs / "position.svg").read_text(encoding="utf-8") == \
        ref.DealState.from_text(readme_position).to_svg(tricks=True)
    blocks = re.findall(r"```python\n(.*?)```", (docs / "notation.md").read_text(encoding="utf-8"), re.S)
    assert blocks
    for k, block in enumerate(blocks):
        test = doctest.DocTestParser().get_doctest(block, {}, f"notation.md block {k}", "docs/notation.md", 0)
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(test)
        assert runner.summarize(verbose=False).failed == 0
