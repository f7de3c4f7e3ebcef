"""Tests of ``simulate()``: the DataFrame contract, reproducibility, contract handling,
dealing statistics, scoring invariants and input validation (docs/rules.md §1–§3, §7–§8).

Statistical checks compare simulated frequencies with exact combinatorial values; every
tolerance is derived from the sample size (a number of binomial standard deviations), never
guessed.  With z = 4.5 one check fails by chance with probability ~7e-6.
"""

from __future__ import annotations

import math
from math import comb

import numpy as np
import pandas as pd
import pytest

import belot_sim as bs
import belot_sim.simulation.deals as sim_module
from belot_sim.simulation.deals import simulate
from helpers import card

DEAL_COLUMNS = [
    "deal_id", "dealer", "contract", "declarer", "multiplier", "hand0", "hand1", "hand2", "hand3",
    "trick_points0", "trick_points1", "declared0", "declared1", "belot0", "belot1", "valat",
    "raw0", "raw1", "outcome", "score0", "score1", "hanging",
]
PLAY_COLUMNS = ["deal_id", "trick", "pos", "seat", "card"]
CONTRACTS = ["C", "D", "H", "S", "NT", "AT"]
OUTCOMES = {"made", "hanging", "inside"}
FULL_DECK = 0xFFFFFFFF
HANDS = ["hand0", "hand1", "hand2", "hand3"]
#: Columns that describe the deal itself (cards and dealer): a function of (seed, deal_id) only.
DEAL_ONLY = ["deal_id", "dealer", *HANDS]
CLASSIC_ALL = bs.CLASSIC.replace(all_no_trumps=True)
BULGARIAN_TOTALS = {"C": 162, "D": 162, "H": 162, "S": 162, "AT": 258, "NT": 260}

Z = 4.5  # standard deviations allowed for one binomial count


def binomial_bound(n: int, p: float, z: float = Z) -> float:
    """``z`` standard deviations of a Binomial(n, p) count."""
    return z * math.sqrt(n * p * (1 - p))


def assert_binomial(count: int, n: int, p: float, what: str, z: float = Z) -> None:
    expected = n * p
    bound = binomial_bound(n, p, z)
    assert abs(count - expected) <= bound, (
        f"{what}: observed {count} of {n}, expected {expected:.1f} ± {bound:.1f} ({z} sd)")


def chi_square_bound(df: int, z: float = 4.75) -> float:
    """Upper chi-square quantile by the Wilson–Hilferty approximation (z = 4.75 ≈ tail 1e-6)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def assert_uniform_counts(values: pd.Series, categories: list, what: str) -> None:
    """Each category ~ Binomial(n, 1/k) within Z sd, and Pearson's chi-square below its bound."""
    n = len(values)
    k = len(categories)
    counts = values.value_counts()
    assert set(counts[counts > 0].index) == set(categories), f"{what}: categories seen {sorted(counts.index)}"
    observed = np.array([counts.get(c, 0) for c in categories], dtype=float)
    for c, o in zip(categories, observed):
        assert_binomial(int(o), n, 1 / k, f"{what} = {c}")
    chi2 = float(((observed - n / k) ** 2 / (n / k)).sum())
    assert chi2 <= chi_square_bound(k - 1), f"{what}: chi-square {chi2:.1f} > {chi_square_bound(k - 1):.1f}"


def hands_array(deals: pd.DataFrame) -> np.ndarray:
    """(n, 4) int64 array of the hand masks."""
    return deals[HANDS].to_numpy().astype(np.int64)


def holds(hands: np.ndarray, mask: int) -> np.ndarray:
    """(n, 4) bool: the seat holds every card of ``mask``."""
    return (hands & mask) == mask


def popcount(masks: np.ndarray) -> np.ndarray:
    bits = (masks[..., None] >> np.arange(32)) & 1
    return bits.sum(axis=-1)


# --- shared runs (module scope: each is simulated once) ---------------------------------

@pytest.fixture(scope="module")
def big():
    """200 000 bulgarian deals, random contract and declarer: statistics and invariants."""
    return simulate(200_000, seed=20240611)


@pytest.fixture(scope="module")
def with_plays():
    return simulate(3000, seed=7, plays=True)


# --- 1. columns, dtypes, plays -----------------------------------------------------------

def check_deal_dtypes(deals: pd.DataFrame) -> None:
    assert list(deals.columns) == DEAL_COLUMNS
    assert isinstance(deals["contract"].dtype, pd.CategoricalDtype)
    assert isinstance(deals["outcome"].dtype, pd.CategoricalDtype)
    assert list(deals["contract"].cat.categories) == CONTRACTS
    assert OUTCOMES <= set(deals["outcome"].cat.categories)
    for h in HANDS:
        assert deals[h].dtype == np.uint32, h
    assert np.issubdtype(deals["deal_id"].dtype, np.integer) and deals["deal_id"].dtype.itemsize == 8
    for name in DEAL_COLUMNS:
        if name in ("deal_id", "contract", "outcome", *HANDS):
            continue
        dtype = deals[name].dtype
        assert np.issubdtype(dtype, np.signedinteger), f"{name}: {dtype}"
        assert dtype.itemsize <= 2, f"{name} is not compact: {dtype}"
    for name in ("dealer", "declarer", "multiplier", "valat"):
        assert deals[name].dtype.itemsize == 1, f"{name}: {deals[name].dtype}"


def test_columns_and_dtypes(big):
    check_deal_dtypes(big)
    assert len(big) == 200_000
    assert (big["deal_id"].to_numpy() == np.arange(200_000)).all()
    assert big["dealer"].between(0, 3).all() and big["declarer"].between(0, 3).all()
    assert (big["multiplier"] == 1).all()
    assert big["valat"].isin([-1, 0, 1]).all()
    assert big["outcome"].isin(list(OUTCOMES)).all()
    assert big["contract"].notna().all()


def test_hands_are_disjoint_and_cover_the_deck(big):
    hands = hands_array(big)
    assert (popcount(hands) == 8).all()
    union = hands[:, 0] | hands[:, 1] | hands[:, 2] | hands[:, 3]
    assert (union == FULL_DECK).all()
    for a in range(4):
        for b in range(a + 1, 4):
            assert not (hands[:, a] & hands[:, b]).any(), (a, b)


def test_plays_frame_shape_and_dtypes(with_plays):
    deals, plays = with_plays
    check_deal_dtypes(deals)
    n = len(deals)
    assert list(plays.columns) == PLAY_COLUMNS
    assert len(plays) == 32 * n
    for name in PLAY_COLUMNS:
        assert np.issubdtype(plays[name].dtype, np.integer), name
    assert (plays.groupby("deal_id").size() == 32).all()
    assert (plays["deal_id"].to_numpy() == np.repeat(deals["deal_id"].to_numpy(), 32)).all()
    assert (plays["trick"].to_numpy() == np.tile(np.arange(32) // 4, n)).all()
    assert (plays["pos"].to_numpy() == np.tile(np.arange(32) % 4, n)).all()


def test_plays_are_consistent_with_hands(with_plays):
    deals, plays = with_plays
    n = len(deals)
    cards = plays["card"].to_numpy().astype(np.int64).reshape(n, 32)
    seats = plays["seat"].to_numpy().astype(np.int64).reshape(n, 32)
    # every card exactly once per deal
    assert (np.sort(cards, axis=1) == np.arange(32)).all()
    # each card played by the seat that held it
    hands = hands_array(deals)
    held = (hands[np.arange(n)[:, None], seats] >> cards) & 1
    assert held.all()
    # trick 0 led by the seat after the dealer; seats follow playing order within a trick
    dealer = deals["dealer"].to_numpy().astype(np.int64)
    assert (seats[:, 0] == (dealer + 1) % 4).all()
    by_trick = seats.reshape(n, 8, 4)
    assert (by_trick == (by_trick[:, :, :1] + np.arange(4)) % 4).all()
    # each seat plays 8 cards
    for s in range(4):
        assert ((seats == s).sum(axis=1) == 8).all()
    # a valat team won every trick, so it led tricks 2..8
    leaders_team = by_trick[:, 1:, 0] % 2
    valat = deals["valat"].to_numpy()
    for t in (0, 1):
        rows = valat == t
        assert (leaders_team[rows] == t).all()


def test_plays_flag_does_not_change_deals(with_plays):
    deals, _ = with_plays
    pd.testing.assert_frame_equal(simulate(3000, seed=7), deals)


@pytest.mark.parametrize("plays", [False, True])
def test_zero_deals(plays):
    result = simulate(0, seed=3, plays=plays)
    deals = result[0] if plays else result
    assert len(deals) == 0
    check_deal_dtypes(deals)
    if plays:
        assert list(result[1].columns) == PLAY_COLUMNS
        assert len(result[1]) == 0


# --- 2. reproducibility -------------------------------------------------------------------

def test_small_block_size_gives_identical_results(monkeypatch):
    kwargs = dict(seed=123, start=37, contract=["H", "AT", "NT"], plays=True)
    deals, plays = simulate(1000, **kwargs)
    monkeypatch.setattr(sim_module, "BLOCK", 64)
    small_deals, small_plays = simulate(1000, **kwargs)  # 1000 = 15 full blocks + 40
    pd.testing.assert_frame_equal(small_deals, deals)
    pd.testing.assert_frame_equal(small_plays, plays)
    check_deal_dtypes(small_deals)
    plain = simulate(1000, seed=123, start=37, contract=["H", "AT", "NT"])
    pd.testing.assert_frame_equal(plain, deals)


@pytest.mark.parametrize("kwargs", [
    {"contract": "H"},
    {"contract": "NT"},
    {"contract": "AT", "declarer": 0},
    {"contract": ["C", "D", "AT"], "declarer": 3},
    {"contract": "S", "multiplier": 2},
    {"contract": "random", "multiplier": 4},
    {"declarer": 2},
    {"plays": True},
    {"threads": 1},
])
def test_deal_depends_only_on_seed_and_deal_id(kwargs):
    reference = simulate(2000, seed=42)[DEAL_ONLY]
    result = simulate(2000, seed=42, **kwargs)
    deals = result[0] if kwargs.get("plays") else result
    pd.testing.assert_frame_equal(deals[DEAL_ONLY], reference)


def test_different_seeds_give_different_deals():
    a = hands_array(simulate(2000, seed=0))
    b = hands_array(simulate(2000, seed=1))
    c = hands_array(simulate(2000, seed=2**64 - 1))
    # the chance that two random deals give seat 0 the same hand is 1/C(32,8) ≈ 1e-7
    assert (a[:, 0] != b[:, 0]).all()
    assert (a[:, 0] != c[:, 0]).all()
    assert (b[:, 0] != c[:, 0]).all()


# --- 3. contract handling -----------------------------------------------------------------

@pytest.mark.parametrize("contract, expected", [
    ("H", "H"), ("at", "AT"), ("NT", "NT"), (bs.Contract.SPADES, "S"), (bs.Contract.from_str("C"), "C"),
])
def test_single_contract(contract, expected):
    deals = simulate(500, seed=4, contract=contract)
    assert (deals["contract"] == expected).all()


def test_contract_list_cycles_by_deal_id():
    names = ["C", "NT", "AT", "H"]
    deals = simulate(1001, seed=8, start=6, contract=names)
    expected = [names[d % len(names)] for d in deals["deal_id"]]
    assert deals["contract"].astype(str).tolist() == expected
    # a tuple, and mixed Contract objects / text, work the same
    again = simulate(1001, seed=8, start=6, contract=(bs.Contract.CLUBS, "nt", "AT", bs.Contract.HEARTS))
    pd.testing.assert_frame_equal(again, deals)


@pytest.mark.parametrize("contract", [None, "random", "RANDOM"])
def test_random_contracts_are_uniform(contract):
    deals = simulate(60_000, seed=17, contract=contract)
    assert_uniform_counts(deals["contract"].astype(str), CONTRACTS, "contract")
    assert_uniform_counts(deals["declarer"], [0, 1, 2, 3], "declarer")


def test_random_contract_is_the_default():
    pd.testing.assert_frame_equal(simulate(2000, seed=17), simulate(2000, seed=17, contract="random"))
    pd.testing.assert_frame_equal(simulate(2000, seed=17), simulate(2000, seed=17, contract=None))


@pytest.mark.parametrize("declarer", [0, 1, 2, 3])
def test_fixed_declarer(declarer):
    deals = simulate(500, seed=2, declarer=declarer)
    assert (deals["declarer"] == declarer).all()


def test_random_declarer_with_fixed_contract():
    deals = simulate(40_000, seed=3, contract="H")
    assert_uniform_counts(deals["declarer"], [0, 1, 2, 3], "declarer")
    assert (deals["contract"] == "H").all()


def test_classic_preset_plays_only_suit_contracts():
    deals = simulate(40_000, seed=5, rules="classic")
    assert_uniform_counts(deals["contract"].astype(str), ["C", "D", "H", "S"], "classic contract")
    same = simulate(40_000, seed=5, rules=bs.CLASSIC)
    pd.testing.assert_frame_equal(same, deals)


def test_classic_all_no_trumps_plays_all_contracts():
    deals = simulate(60_000, seed=5, rules=CLASSIC_ALL)
    assert_uniform_counts(deals["contract"].astype(str), CONTRACTS, "classic all_no_trumps contract")
    at = simulate(200, seed=5, rules=CLASSIC_ALL, contract="AT")
    assert (at["contract"] == "AT").all()


# --- 4. dealing statistics with exact values ---------------------------------------------

def test_four_jacks_probability(big):
    n = len(big)
    p = comb(28, 4) / comb(32, 8)
    jacks = sum(1 << card(f"J{s}") for s in "CDHS")
    held = holds(hands_array(big), jacks)
    for seat in range(4):
        assert_binomial(int(held[:, seat].sum()), n, p, f"seat {seat} holds four jacks")
    # the events are disjoint across seats: some seat holds all four jacks with probability 4p
    assert_binomial(int(held.any(axis=1).sum()), n, 4 * p, "some seat holds four jacks")


def test_king_queen_of_hearts_probability(big):
    n = len(big)
    p = (8 * 7) / (32 * 31)
    held = holds(hands_array(big), (1 << card("KH")) | (1 << card("QH")))
    for seat in range(4):
        assert_binomial(int(held[:, seat].sum()), n, p, f"seat {seat} holds KH+QH")
    assert_binomial(int(held.any(axis=1).sum()), n, 4 * p, "one seat holds KH+QH")


def test_each_card_lands_in_each_seat_uniformly(big):
    n = len(big)
    hands = hands_array(big)
    bits = (hands[:, :, None] >> np.arange(32)) & 1  # (n, seat, card)
    counts = bits.sum(axis=0)
    assert (counts.sum(axis=0) == n).all()  # every card in exactly one hand
    # 128 cells: z = 5 keeps the family-wise false alarm rate below 1e-4
    for seat in range(4):
        for c in range(32):
            assert_binomial(int(counts[seat, c]), n, 0.25, f"card {c} in seat {seat}", z=5.0)
    # same by position after the dealer (order 0 leads first), which a fixed dealing map could bias
    dealer = big["dealer"].to_numpy().astype(np.int64)
    order_counts = np.zeros((4, 32), dtype=np.int64)
    for j in range(4):
        seat = (dealer + 1 + j) % 4
        order_counts[j] = bits[np.arange(n), seat, :].sum(axis=0)
    for j in range(4):
        for c in range(32):
            assert_binomial(int(order_counts[j, c]), n, 0.25, f"card {c} in order {j}", z=5.0)


def test_dealer_is_uniform(big):
    assert_uniform_counts(big["dealer"], [0, 1, 2, 3], "dealer")


# --- 5. scoring invariants ----------------------------------------------------------------

def check_scoring_invariants(deals: pd.DataFrame, rules: bs.Rules) -> None:
    contract = deals["contract"].astype(str).to_numpy()
    i = {name: deals[name].to_numpy().astype(np.int64) for name in DEAL_COLUMNS
         if name not in ("contract", "outcome")}
    classic = rules.is_classic
    totals = np.array([162 if classic else BULGARIAN_TOTALS[c] for c in contract])
    assert (i["trick_points0"] + i["trick_points1"] == totals).all()
    assert (i["trick_points0"] >= 0).all() and (i["trick_points1"] >= 0).all()
    valat = i["valat"]
    for t in (0, 1):
        raw = i[f"trick_points{t}"] + i[f"declared{t}"] + i[f"belot{t}"] + 90 * (valat == t)
        assert (i[f"raw{t}"] == raw).all(), f"raw{t}"
        # a valat team took every card point; the other team took nothing
        assert (i[f"trick_points{t}"][valat == t] == totals[valat == t]).all()
        assert (i[f"trick_points{1 - t}"][valat == t] == 0).all()
        assert (i[f"belot{t}"] % 20 == 0).all() and (i[f"belot{t}"] >= 0).all()
        assert (i[f"declared{t}"] % 10 == 0).all() and (i[f"declared{t}"] >= 0).all()
        assert (i[f"score{t}"] >= 0).all()
    nt = contract == "NT"
    for name in ("declared0", "declared1", "belot0", "belot1"):
        assert (i[name][nt] == 0).all(), f"{name} in NT"
    if not rules.declarations:
        assert (i["declared0"] == 0).all() and (i["declared1"] == 0).all()

    # belot in a suit contract: always counts, exactly when one player of the team held trump K+Q
    hands = hands_array(deals)
    for suit in "CDHS":
        rows = contract == suit
        kq = holds(hands[rows], (1 << card(f"K{suit}")) | (1 << card(f"Q{suit}")))
        for t in (0, 1):
            expected = 20 * (kq[:, t] | kq[:, t + 2])
            assert (i[f"belot{t}"][rows] == expected).all(), f"belot{t} in {suit}"
    at = contract == "AT"
    for t in (0, 1):
        pairs = sum(holds(hands[at], (1 << card(f"K{suit}")) | (1 << card(f"Q{suit}")))[:, [t, t + 2]].sum(axis=1)
                    for suit in "CDHS")
        assert (i[f"belot{t}"][at] <= 20 * pairs).all(), f"belot{t} in AT"

    # outcome from the bidding team's raw vs the defenders'
    bidding = i["declarer"] % 2
    raw = np.stack([i["raw0"], i["raw1"]], axis=1)
    rows = np.arange(len(deals))
    raw_b = raw[rows, bidding]
    raw_d = raw[rows, 1 - bidding]
    expected = np.where(raw_b > raw_d, "made", np.where(raw_b == raw_d, "hanging", "inside"))
    assert (deals["outcome"].astype(str).to_numpy() == expected).all()
    assert (i["hanging"][expected != "hanging"] == 0).all()
    assert (i["hanging"] >= 0).all()


def check_against_score_deal(deals: pd.DataFrame, rules: bs.Rules) -> None:
    """Every (distinct) row's match points equal bs.score_deal of its raw totals."""
    frame = deals.assign(contract=deals["contract"].astype(str), outcome=deals["outcome"].astype(str))
    frame = frame.drop_duplicates(subset=["contract", "declarer", "multiplier", "raw0", "raw1", "belot0", "belot1",
                                          "declared0", "declared1", "valat"])
    for row in frame.itertuples(index=False):
        b = row.declarer % 2
        raw = (row.raw0, row.raw1)
        belot = (row.belot0, row.belot1)
        declared = (row.declared0, row.declared1)
        capot = None if row.valat < 0 else ("bidding" if row.valat == b else "defenders")
        s = bs.score_deal(row.contract, int(raw[b]), int(raw[1 - b]), int(row.multiplier), rules,
                          belot=(int(belot[b]), int(belot[1 - b])),
                          declared=(int(declared[b]), int(declared[1 - b])), capot=capot)
        score = (row.score0, row.score1)
        got = (row.outcome, score[b], score[1 - b], row.hanging)
        assert got == (s.outcome, s.bidding, s.defenders, s.hanging), (row, s)


def test_scoring_invariants_bulgarian(big):
    check_scoring_invariants(big, bs.BULGARIAN)
    # both outcomes other than "made" actually occur in a big random run
    assert set(big["outcome"].astype(str)) == OUTCOMES


def test_scores_match_python_scoring_bulgarian(big):
    check_against_score_deal(big.iloc[:50_000], bs.BULGARIAN)


@pytest.mark.parametrize("rules", [bs.CLASSIC, CLASSIC_ALL, bs.CLASSIC.replace(declarations=True)],
                         ids=["classic", "classic-all", "classic-declarations"])
def test_scoring_invariants_classic(rules):
    deals = simulate(20_000, seed=6, rules=rules)
    check_scoring_invariants(deals, rules)
    check_against_score_deal(deals, rules)


@pytest.mark.parametrize("multiplier", [2, 4])
def test_doubled_losing_team_scores_nothing(multiplier):
    deals = simulate(20_000, seed=9, multiplier=multiplier)
    assert (deals["multiplier"] == multiplier).all()
    check_scoring_invariants(deals, bs.BULGARIAN)
    check_against_score_deal(deals.iloc[:5000], bs.BULGARIAN)
    raw0 = deals["raw0"].to_numpy()
    raw1 = deals["raw1"].to_numpy()
    s0 = deals["score0"].to_numpy().astype(np.int64)
    s1 = deals["score1"].to_numpy().astype(np.int64)
    assert (s0[raw0 < raw1] == 0).all()
    assert (s1[raw1 < raw0] == 0).all()
    assert (s0[raw0 == raw1] == 0).all() and (s1[raw0 == raw1] == 0).all()
    winner = np.where(raw0 > raw1, s0, s1)[raw0 != raw1]
    assert (winner > 0).all() and (winner % multiplier == 0).all()
    # the same cards and plays as undoubled: only the match points change
    single = simulate(20_000, seed=9)
    same = [c for c in DEAL_COLUMNS if c not in ("multiplier", "score0", "score1", "hanging")]
    pd.testing.assert_frame_equal(deals[same], single[same])


# --- 6. bad input -------------------------------------------------------------------------

BAD_INPUTS = [
    ({"n": -1}, r"\bn\b"),
    ({"n": 1.5}, r"\bn\b"),
    ({"n": "10"}, r"\bn\b"),
    ({"seed": -1}, r"seed"),
    ({"start": -1}, r"start"),
    ({"threads": 0}, r"threads"),
    ({"threads": 10**6}, r"threads"),
    ({"contract": "X"}, r"contract"),
    ({"contract": []}, r"contract"),
    ({"declarer": 4}, r"declarer"),
    ({"players": "genius"}, r"genius"),
    ({"players": ("random",) * 3}, r"players"),
    ({"multiplier": 3}, r"multiplier"),
    ({"multiplier": 2, "rules": "classic"}, r"multiplier"),
    ({"rules": "foo"}, r"foo"),
    ({"bidders": "random", "contract": "H"}, r"bidders"),
    ({"bidders": "nobody"}, r"unknown bidder"),
    ({"bidders": "mc", "bidder_options": {"mc_player": "pimc"}}, r"mc_player"),
    ({"bidders": "heuristic", "bidder_options": {"thr_sut": 3}}, r"unknown bidder option"),
    ({"calls": True}, r"calls=True needs bidders"),
    ({"contract": "AT", "rules": "classic"}, r"AT"),
    ({"plays": "yes"}, r"plays"),
]


@pytest.mark.parametrize("kwargs, pattern", BAD_INPUTS, ids=[repr(k) for k, _ in BAD_INPUTS])
def test_bad_input_raises_before_any_kernel(rejected_before_kernel, kwargs, pattern):
    rejected_before_kernel(sim_module, "rollout", simulate, kwargs, pattern)


def test_csv_written_atomically(tmp_path):
    """A failing write leaves neither a partial file nor a temporary file behind."""
    import pandas as pd

    from belot_sim.engine.io import write_csv_atomically

    target = tmp_path / "out.csv"
    write_csv_atomically(pd.DataFrame({"x": [1, 2]}), target, index=False)
    assert target.read_text().splitlines() == ["x", "1", "2"]

    class Boom(Exception):
        pass

    class Exploding(pd.DataFrame):
        def to_csv(self, *args, **kwargs):
            args[0].write("x\n1\n")  # part of the output, then the run dies
            raise Boom

    with pytest.raises(Boom):
        write_csv_atomically(Exploding({"x": [3]}), target, index=False)
    assert target.read_text().splitlines() == ["x", "1", "2"]  # the old complete file is intact
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_csv_to_a_missing_folder_or_under_a_file_is_refused_by_name(tmp_path):
    import pandas as pd

    from belot_sim.engine.io import write_csv_atomically

    frame = pd.DataFrame({"x": [1]})
    with pytest.raises(FileNotFoundError, match="the folder .*nowhere does not exist"):
        write_csv_atomically(frame, tmp_path / "nowhere" / "out.csv")
    (tmp_path / "plain").write_text("")
    with pytest.raises(NotADirectoryError, match="plain is a file, not a folder"):
        write_csv_atomically(frame, tmp_path / "plain" / "out.csv")
