"""Fit the ``heuristic`` bidder's weights, thresholds and margins on simulated deals (docs/bidding.md).

Run: ``python scripts/tune_heuristic.py [--deals 100000] [--seed 7]``.  Prints the fitted
parameters as ``BIDDER_WEIGHTS`` rows to paste into belot_sim/kernels/core/layouts.py, and checks
that the kernels' heuristic, given them, computes the fitted values.

1. **Data.**  The same ``--deals`` bulgarian deals are played with ``hard`` players 12 times: each
   contract declared by seat 0 and by seat 2 (``simulate(contract=c, declarer=d)``; the cards depend
   only on the deal id).  For each play: the declarer's 5 cards at auction time (from the deal's
   pack), and the bidding team's match points minus the defenders' (``ev``).
2. **Weights and thresholds.**  Least squares of ``ev`` on the heuristic's features of the
   declarer's 5 cards (trump jack, nine, ..., declarations: one column per weight of
   ``suit_value``/``nt_value``/``at_value``) plus a constant, separately for suit contracts (the four
   suits pooled), NT and AT.  The weights are the coefficients and each threshold is minus the
   constant, so a contract's heuristic margin is its predicted ``ev``: the heuristic bids what it
   expects to gain on.
3. **Margins**, each the cut that maximises the summed gain over the simulated plays it would
   change (undoubled vs doubled scores of the same play, from the raw points):
   * ``double_margin``: plays whose declarer's margin is >= 0 (the heuristic would have bid), the
     defenders' best margin for the declarer's contract against the defenders' gain from doubling;
   * ``redouble_margin``: of those, plays a defender doubles; the bidding team's best margin
     against its gain from redoubling (x4 instead of x2);
   * ``over_partner``: seat 2 holds a contract it would bid (margin >= 0), seat 0's best higher
     contract: seat 0's margin for it against the gain of seat 0 declaring it instead.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from numba import njit, prange

import belot_sim as bs
from belot_sim.kernels.batch.estimate import bulgarian_scores
from belot_sim.kernels.bid_models.heuristic import contract_margin, declaration_points
from belot_sim.kernels.core.dealing import deal_pack
from belot_sim.kernels.core.layouts import BIDDER_WEIGHTS
from belot_sim.simulation.deals import MAX_DEALS

from gallery_common import at_most, run, seed_int

SUIT_WEIGHTS = ("TRUMP_J", "TRUMP_9", "TRUMP_A", "TRUMP_T", "TRUMP_KQ", "TRUMP_LEN", "SIDE_A", "SIDE_T",
                "SIDE_T_BARE", "BELOT", "DECL")
NT_WEIGHTS = ("NT_A", "NT_T", "NT_T_BARE", "NT_LONG")
AT_WEIGHTS = ("AT_J", "AT_9", "AT_9_BARE", "AT_A", "AT_BELOT", "AT_DECL")
R7, R8, R9, RT, RJ, RQ, RK, RA = range(8)


@njit(cache=True, parallel=True)
def auction_hands_of(seed, deal_ids, seats, out):
    """``out[i]``: the 5-card hand of ``seats[i]`` in deal ``deal_ids[i]`` (simulate's dealing)."""
    for i in prange(len(deal_ids)):
        pack = np.empty(32, dtype=np.int64)
        dealer = deal_pack(seed, deal_ids[i], pack)
        order = (seats[i] - dealer - 1) & 3
        mask = 0
        for k in range(5):
            mask |= np.int64(1) << pack[5 * order + k]
        out[i] = mask


@njit(cache=True)
def declarations_of(hands, out):
    for i in range(len(hands)):
        out[i] = declaration_points(hands[i])


def bit(hands, suit, rank):
    return (hands >> (8 * suit + rank)) & 1


def suit_length(hands, suit):
    return np.unpackbits(((hands >> (8 * suit)) & 0xFF).astype(np.uint8)[:, None], axis=1).sum(axis=1).astype(np.int64)


def features(hands: np.ndarray, contract: int) -> np.ndarray:
    """The heuristic's features of each hand for ``contract``, in the order of its weights."""
    decl = np.empty(len(hands), dtype=np.int64)
    declarations_of(hands, decl)
    if contract < 4:
        t = contract
        length = suit_length(hands, t)
        side = [s for s in range(4) if s != t]
        side_a = sum(bit(hands, s, RA) for s in side)
        side_t = sum(bit(hands, s, RT) & bit(hands, s, RA) for s in side)
        side_t_bare = sum(bit(hands, s, RT) & (1 - bit(hands, s, RA)) for s in side)
        columns = [bit(hands, t, RJ), bit(hands, t, R9), bit(hands, t, RA), bit(hands, t, RT),
                   bit(hands, t, RK) + bit(hands, t, RQ), length, side_a, side_t, side_t_bare,
                   bit(hands, t, RK) & bit(hands, t, RQ), decl / 100.0]
    elif contract == 4:
        aces = [bit(hands, s, RA) for s in range(4)]
        lengths = [suit_length(hands, s) for s in range(4)]
        columns = [sum(aces), sum(bit(hands, s, RT) & aces[s] for s in range(4)),
                   sum(bit(hands, s, RT) & (1 - aces[s]) for s in range(4)),
                   sum(aces[s] * np.maximum(lengths[s] - 2, 0) for s in range(4))]
    else:
        jacks = [bit(hands, s, RJ) for s in range(4)]
        columns = [sum(jacks), sum(bit(hands, s, R9) & jacks[s] for s in range(4)),
                   sum(bit(hands, s, R9) & (1 - jacks[s]) for s in range(4)), sum(bit(hands, s, RA) for s in range(4)),
                   sum(bit(hands, s, RK) & bit(hands, s, RQ) for s in range(4)), decl / 100.0]
    return np.stack([np.asarray(c, dtype=np.float64) for c in columns], axis=1)


def play_all(n: int, seed: int) -> dict:
    """``plays[(contract, declarer)]``: the deals with that contract declared by seat 0 or 2, as
    arrays (ev, raw points of both teams, 5-card hands of all four seats)."""
    ids = np.arange(n, dtype=np.int64)
    hands5 = {}
    for seat in range(4):
        out = np.empty(n, dtype=np.int64)
        auction_hands_of(np.uint64(seed), ids, np.full(n, seat, dtype=np.int64), out)
        hands5[seat] = out
    plays = {}
    for contract in range(6):
        for declarer in (0, 2):
            deals = bs.simulate(n, contract=str(bs.Contract(contract)), declarer=declarer, players="hard", seed=seed)
            team = declarer % 2
            plays[contract, declarer] = {
                "ev": (deals[f"score{team}"].to_numpy(np.int64) - deals[f"score{1 - team}"].to_numpy(np.int64)),
                "raw_b": deals[f"raw{team}"].to_numpy(np.int64), "raw_d": deals[f"raw{1 - team}"].to_numpy(np.int64)}
    return {"plays": plays, "hands5": hands5}


def fit(data: dict) -> dict[str, float]:
    """Step 2 of the module docstring: ``{weight name: value}`` with the thresholds."""
    fitted = {}
    for kind, contracts, names, threshold in (("suit", range(4), SUIT_WEIGHTS, "THR_SUIT"),
                                              ("NT", [4], NT_WEIGHTS, "THR_NT"), ("AT", [5], AT_WEIGHTS, "THR_AT")):
        x, y = [], []
        for c in contracts:
            for declarer in (0, 2):
                x.append(features(data["hands5"][declarer], c))
                y.append(data["plays"][c, declarer]["ev"])
        x, y = np.concatenate(x), np.concatenate(y).astype(np.float64)
        design = np.column_stack([np.ones(len(x)), x])
        coef, *_ = np.linalg.lstsq(design, y, rcond=None)
        residual = y - design @ coef
        print(f"{kind}: {len(y):,} plays, R^2 {1 - residual.var() / y.var():.3f}, residual sd {residual.std():.2f}")
        fitted[threshold] = -coef[0]
        fitted.update(zip(names, coef[1:]))
    return {name: round(float(value), 2) for name, value in fitted.items()}


def margins_of(weights: np.ndarray, hands: np.ndarray, contract: int) -> np.ndarray:
    return np.array([contract_margin(np.int64(h), contract, True, weights) for h in hands])


def best_cut(margin: np.ndarray, gain: np.ndarray) -> tuple[float, float, int]:
    """The cut ``t`` maximising the summed ``gain`` of the plays with ``margin >= t`` (on a 0.25 grid)."""
    best = (np.inf, 0.0, 0)
    for t in np.arange(-10, 30.01, 0.25):
        chosen = margin >= t
        total = float(gain[chosen].sum())
        if total > best[1]:
            best = (round(float(t), 2), total, int(chosen.sum()))
    return best


def rescore(contract: int, raw_b, raw_d, multiplier: int) -> np.ndarray:
    out = np.empty((3, len(raw_b)), dtype=np.int64)
    bulgarian_scores(np.full(len(raw_b), contract, dtype=np.int64), raw_b, raw_d, multiplier, False, out)
    return out[0] - out[1]


def fit_margins(data: dict, weights: np.ndarray) -> dict[str, float]:
    """Step 3 of the module docstring (``weights``: the fitted weights and thresholds)."""
    hands5, plays = data["hands5"], data["plays"]
    margin = {(s, c): margins_of(weights, hands5[s], c) for s in range(4) for c in range(6)}
    bid, defenders, bidders, gain1, gain2 = [], [], [], [], []
    for c in range(6):
        for declarer in (0, 2):
            play = plays[c, declarer]
            bid.append(margin[declarer, c] >= 0)
            defenders.append(np.maximum(margin[(declarer + 1) % 4, c], margin[(declarer + 3) % 4, c]))
            bidders.append(np.maximum(margin[declarer, c], margin[(declarer + 2) % 4, c]))
            single, double, redouble = (rescore(c, play["raw_b"], play["raw_d"], m) for m in (1, 2, 4))
            gain1.append(single - double)  # the defenders' gain from doubling is the bidders' loss
            gain2.append(redouble - double)
    bid, defenders, bidders, gain1, gain2 = map(np.concatenate, (bid, defenders, bidders, gain1, gain2))
    cut = {"DOUBLE_MARGIN": best_cut(defenders[bid], gain1[bid])}
    doubled = bid & (defenders >= cut["DOUBLE_MARGIN"][0])
    cut["REDOUBLE_MARGIN"] = best_cut(bidders[doubled], gain2[doubled])
    over_margin, over_gain = [], []
    for c1 in range(5):  # seat 2 holds c1, seat 0 bids its best contract above it
        holds = margin[2, c1] >= 0
        above = np.stack([margin[0, c] for c in range(c1 + 1, 6)], axis=1)
        ev_over = np.choose(above.argmax(axis=1), [plays[c, 0]["ev"] for c in range(c1 + 1, 6)])
        over_margin.append(above.max(axis=1)[holds])
        over_gain.append((ev_over - plays[c1, 2]["ev"])[holds])
    cut["OVER_PARTNER"] = best_cut(np.concatenate(over_margin), np.concatenate(over_gain))
    for name, (t, total, count) in cut.items():
        print(f"{name}: cut {t:+.2f}, summed gain {total:+,.0f} match points over the {count:,} plays it changes")
    return {name: t for name, (t, _, _) in cut.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=at_most(MAX_DEALS), default=100_000,
                        help="deals, each played under 12 contracts")
    parser.add_argument("--seed", type=seed_int, default=0, help="random seed (default 0; the shipped weights: 7)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    data = play_all(args.deals, args.seed)
    print(f"{12 * args.deals:,} plays in {time.perf_counter() - start:.1f} s")
    fitted = fit(data)
    weights = BIDDER_WEIGHTS.defaults()
    for name, value in fitted.items():
        weights[BIDDER_WEIGHTS[name].offset] = value
    fitted.update(fit_margins(data, weights))
    for name, value in fitted.items():
        weights[BIDDER_WEIGHTS[name].offset] = value
    # The kernels' heuristic with these weights computes the fitted predictions.
    hands = data["hands5"][0][:200]
    for c, names, threshold in ((2, SUIT_WEIGHTS, "THR_SUIT"), (4, NT_WEIGHTS, "THR_NT"), (5, AT_WEIGHTS, "THR_AT")):
        predicted = features(hands, c) @ np.array([fitted[n] for n in names]) - fitted[threshold]
        assert np.allclose(margins_of(weights, hands, c), predicted), c
    print("\nfitted BIDDER_WEIGHTS defaults:")
    for slot in BIDDER_WEIGHTS.slots:
        if slot.name in fitted:
            print(f'    ("{slot.name}", 1, "{slot.meaning}", {fitted[slot.name]}),')
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
