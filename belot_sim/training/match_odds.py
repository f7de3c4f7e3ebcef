"""The match's odds: what a deal's points are worth in matches won — the ``neural`` bidder's labels at a score.

A call's label in the shards is one deal's points (:mod:`.call_labels`); a match is won by reaching 151
first, so the same points are worth more at 140 : 145 than at 0 : 0. :func:`win_table` gives, for every
score before a deal, the chance that the team holding the first score wins the match, from the points
deals give (:func:`deal_points`, both teams' points of deals played by the engine); :func:`relabel` draws
a score before each labelled call (from the scores matches reach, :func:`start_scores`), writes it into
the call's inputs (``SCORE`` of :data:`belot_sim.kernels.core.layouts.CALL_OBSERVATION`) and replaces each
call's points by the match-winning chance they lead to, in percentage points.

The table assumes what the scores alone tell: a deal's points drawn from the same distribution whoever
deals, points a deal leaves hanging lost (they go to a later deal's winner), no target raised by a valat
(docs/rules.md §9) — the exact rules decide the matches the bidder is measured in.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.bid_models.neural_bidder import INPUTS, encode_score
from ..kernels.core.layouts import B_SIZE, SCORE_TARGET
from .call_labels import NOT_LEGAL_CALL
from .labels import pack_bits

#: Labels are the match-winning chance in these units (percentage points).
PERCENT = 100.0


def deal_points(n: int, seed: int, players="neural", bidders="heuristic") -> np.ndarray:
    """Both teams' match points of ``n`` bulgarian deals (int64[2 n, 2]: each deal seen from either team,
    so the table is the same for both; a void deal is 0 : 0)."""
    from ..simulation.deals import simulate

    deals = simulate(n, players=players, bidders=bidders, seed=seed, progress=False)
    points = deals[["score0", "score1"]].to_numpy(np.int64)
    return np.concatenate([points, points[:, ::-1]])


def start_scores(n_matches: int, seed: int, players="neural", bidders="heuristic") -> np.ndarray:
    """The scores (int64[deals, 2]) matches to 151 stand at before each of their deals (0 : 0 first)."""
    from ..simulation.matches import simulate_matches

    _, deals = simulate_matches(n_matches, players=players, bidders=bidders, seed=seed, progress=False)
    totals = deals[["total0", "total1"]].to_numpy(np.int64)
    before = np.zeros_like(totals)
    before[1:] = totals[:-1]
    before[deals["deal"].to_numpy() == 0] = 0
    return before


def win_table(points: np.ndarray, target: int = SCORE_TARGET) -> np.ndarray:
    """``table[a, b]`` (float64[target, target]): the chance that a team holding ``a`` points before a deal
    wins a match to ``target`` against a team holding ``b``, deals scoring as ``points`` (int64[n, 2], each
    row equally likely)."""
    pairs, counts = np.unique(points, axis=0, return_counts=True)
    return _win_table(pairs, counts / counts.sum(), target)


@njit(cache=True)
def _after(table, a, b, target):
    """The match-winning chance of the team with ``a`` once a deal leaves the score at ``a`` : ``b``."""
    if a >= target or b >= target:
        if a == b:
            return 0.5  # a tie above the target: the match goes on, even
        return 1.0 if a > b else 0.0
    return table[a, b]


@njit(cache=True)
def _win_table(pairs, p, target):
    table = np.zeros((target, target))
    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            won = 0.0
            stay = 0.0
            for k in range(len(pairs)):
                if pairs[k, 0] == 0 and pairs[k, 1] == 0:
                    stay += p[k]  # a deal that changes nothing (void) is dealt again
                else:
                    won += p[k] * _after(table, a + pairs[k, 0], b + pairs[k, 1], target)
            table[a, b] = won / (1.0 - stay)
    return table


@njit(cache=True)
def _with_scores(bits, scores, out):
    """``out`` = the packed observations ``bits`` with ``scores`` written in by the kernels' own encoder."""
    obs = np.zeros(B_SIZE, dtype=np.int8)
    for i in range(len(bits)):
        for k in range(INPUTS):
            obs[k] = (bits[i, k >> 6] >> np.uint64(k & 63)) & np.uint64(1)
        encode_score(obs, scores[i, 0], scores[i, 1])
        pack_bits(obs, INPUTS, out[i])


@njit(cache=True)
def _match_values(own, values, scores, table, target, out):
    for i in range(len(own)):
        for c in range(own.shape[1]):
            if values[i, c] == NOT_LEGAL_CALL:
                out[i, c] = NOT_LEGAL_CALL
            else:
                ours = scores[i, 0] + own[i, c]
                theirs = scores[i, 1] + own[i, c] - values[i, c]
                out[i, c] = PERCENT * _after(table, ours, theirs, target)


def relabel(data: dict, table: np.ndarray, scores: np.ndarray, seed) -> dict:
    """``data`` (a calls shard, :func:`.data.read_shard`) at a score drawn for each call from ``scores``
    (caller's team first, either team's view equally likely): the score written into the inputs and the
    values replaced by the chance of winning the match after the call, in percentage points (float32)."""
    rng = np.random.default_rng(seed)
    n = len(data["bits"])
    drawn = scores[rng.integers(0, len(scores), n)]
    swap = rng.random(n) < 0.5
    drawn[swap] = drawn[swap, ::-1]
    bits = np.empty_like(data["bits"])
    _with_scores(data["bits"], drawn, bits)
    values = np.empty(data["values"].shape, dtype=np.float32)
    _match_values(data["own"].astype(np.int64), data["values"].astype(np.int64), drawn, table, len(table), values)
    return {**data, "bits": bits, "values": values, "score": drawn}

