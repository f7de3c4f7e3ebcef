"""The bid atlas: P(made) and expected match points of every 5-card hand, seat position and contract
under ``hard`` play with no auction (bulgarian rules), computed once and shipped with the package.

Hands are taken up to suit symmetry: for a suit contract the trump suit stays itself and the three
other suits are interchangeable (the table stores the trump suit as spades); for NT and AT all four
suits are.  That leaves 38,304 suit-contract classes and 10,808 NT/AT classes; with four positions
after the dealer (0 speaks first and leads) the table has 239,680 rows.  Each row is the outcome of
``samples`` uniform layouts of the 27 other cards played out, each around a uniformly drawn member of
the class (its suits permuted, the trump with them: :func:`belot_sim.kernels.batch.atlas.atlas_rollout`;
row ``r``'s layout ``k`` uses the streams of id ``r * 2**20 + k`` under the table's seed, so any row
can be recomputed exactly): a row is the mean over its class's members.  ``hard`` breaks its ties by
card index, so the members do not play exactly alike; :data:`~belot_sim.engine.atlas_table.MEMBER_SD`
is their measured spread.  ``scripts/bid_atlas.py`` computes the table as a resumable, partitioned
job; docs/bidding.md gives its cost, samples per class, interval widths and its check against fresh
estimates.

>>> import belot_sim as bs
>>> atlas = bs.bid_atlas()
>>> len(atlas), sorted(atlas["contract"].unique())
(239680, ['AT', 'NT', 'S'])
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.atlas_table import (KINDS, MEMBER_SD, POSITIONS, RAW_SCALE, SCORE_SCALE, atlas_players, atlas_rows,
                                   load_table, row_of)
from ..engine.checks import check_int
from ..engine.registry import PLAYER_CODES, player_codes
from ..game.cards import format_cards, popcount, to_mask
from ..game.rules import Contract

def plays_as_atlas(players) -> bool:
    """``players`` (one name or four, any case) are the atlas's own: its player (``hard``) in every seat."""
    return set(player_codes(players)) == {PLAYER_CODES[atlas_players()]}


def bid_atlas() -> pd.DataFrame:
    """Load the shipped bid atlas as a DataFrame, one row per (hand class, contract, position).

    The function takes no arguments.

    Returns
    -------
    pandas.DataFrame
        Columns: ``hand`` (uint32 mask of the class's representative: for a suit contract the trump
        suit is spades), ``cards`` (its text), ``contract`` (``S`` = a suit contract, trump as spades;
        ``NT``; ``AT``), ``position`` (0..3 after the dealer; 0 speaks first and leads), ``players``
        (the player of every seat, ``hard``), ``samples``, ``p_made`` with ``p_made_low``/``p_made_high``
        (Wilson 95 %), ``p_hanging``, ``ev`` (mean match points of the bidding team minus the
        defenders'), ``mean_score_bidding``, ``mean_score_defenders``, ``mean_raw_bidding``,
        ``mean_raw_defenders``.  ``frame.attrs`` holds :func:`~belot_sim.engine.atlas_table.atlas_meta`
        and ``member_sd`` (per contract kind, the spread of P(made) among a class's members).

    Raises
    ------
    FileNotFoundError
        If the atlas's data file is missing.
    """
    table = load_table()
    samples = int(table["meta"]["samples"])
    masks, kinds, positions = atlas_rows()
    made = table["made"].astype(np.int64)
    low, high = wilson_arrays(made, samples)
    frame = pd.DataFrame({
        "hand": masks.astype(np.uint32),
        "cards": [format_cards(int(m)) for m in masks],
        "contract": pd.Categorical.from_codes(kinds, categories=list(KINDS)),
        "position": positions,
        "players": pd.Categorical.from_codes(np.zeros(len(masks), dtype=np.int8), categories=[atlas_players()]),
        "samples": np.full(len(masks), samples, dtype=np.int32),
        "p_made": made / samples, "p_made_low": low, "p_made_high": high,
        "p_hanging": table["hanging"] / samples,
        "ev": (table["score_b"].astype(np.float64) - table["score_d"]) / SCORE_SCALE,
        "mean_score_bidding": table["score_b"] / SCORE_SCALE, "mean_score_defenders": table["score_d"] / SCORE_SCALE,
        "mean_raw_bidding": table["raw_b"] / RAW_SCALE, "mean_raw_defenders": table["raw_d"] / RAW_SCALE,
    })
    frame.attrs.update(table["meta"])
    frame.attrs["member_sd"] = dict(MEMBER_SD)
    return frame


def wilson_arrays(successes: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Wilson 95 % bounds of many proportions out of ``n`` (vectorised :func:`belot_sim.wilson_interval`:
    they hold the estimate)."""
    from ..engine.stats import Z95

    p = successes / n
    denominator = 1 + Z95 * Z95 / n
    centre = (p + Z95 * Z95 / (2 * n)) / denominator
    half = Z95 * np.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / denominator
    return np.maximum(0.0, np.minimum(centre - half, p)), np.minimum(1.0, np.maximum(centre + half, p))


def with_member_spread(p: float, low: float, high: float, sd: float) -> tuple[float, float]:
    """A 95 % interval for one member's P(made) from its class's (``low``, ``high`` around ``p``): each
    side widened in quadrature by 1.96 times the members' standard deviation ``sd``, within [0, 1]."""
    from ..engine.stats import Z95

    spread = (Z95 * sd) ** 2
    below, above = float(np.sqrt((p - low) ** 2 + spread)), float(np.sqrt((high - p) ** 2 + spread))
    return max(0.0, p - below), min(1.0, p + above)


def atlas_counts(hand, contract: Contract, seat: int, dealer: int | None) -> dict:
    """The atlas's figures for ``hand`` (5 cards) declaring ``contract`` from ``seat``: the row of its
    position after ``dealer``, or the four positions pooled when ``dealer`` is None.  Returns
    ``samples``, ``made``, ``hanging``, ``inside`` counts, the four means and ``member_sd`` (the spread of
    P(made) among the members of the hand's class, :data:`~belot_sim.engine.atlas_table.MEMBER_SD`)."""
    mask = to_mask(hand, "hand")
    if popcount(mask) != 5:
        raise ValueError(f"the bid atlas answers for 5-card hands (auction time), got {popcount(mask)} cards: "
                         f"{format_cards(mask)}")
    table = load_table()
    samples = int(table["meta"]["samples"])
    if dealer is None:
        rows = [row_of(mask, int(contract), p) for p in range(POSITIONS)]
    else:
        rows = [row_of(mask, int(contract), (check_int(seat, "seat", 0, 3) - dealer - 1) % 4)]
    made = int(table["made"][rows].sum())
    hanging = int(table["hanging"][rows].sum())
    total = samples * len(rows)
    means = {name: float(table[column][rows].mean()) / scale for name, column, scale in (
        ("score_bidding", "score_b", SCORE_SCALE), ("score_defenders", "score_d", SCORE_SCALE),
        ("raw_bidding", "raw_b", RAW_SCALE), ("raw_defenders", "raw_d", RAW_SCALE))}
    return {"samples": total, "made": made, "hanging": hanging, "inside": total - made - hanging, **means,
            "member_sd": MEMBER_SD[KINDS[max(0, int(contract) - 3)]]}
