"""How well the card-ownership model and the layout samplers know where the unseen cards are: the
log-loss of the true holder of each hidden card, trick by trick (the card-ownership model's report,
``scripts/train_owners.py``).

At every decision with a choice of recorded deals, for the seat to move and each card it cannot see and
does not know the place of (the sampler's pool: not its own, not played, not shown), the predictors'
probability of the seat that truly holds it:

* ``model``: the card-ownership model's probabilities (:func:`~belot_sim.kernels.players.owners.probabilities_of`);
* the layout samplers of :func:`~belot_sim.kernels.players.pimc.draw_layout`: ``uniform layouts``
  (``pimc``'s), ``auction layouts`` (uniform draws on which the auction replays with ``heuristic``
  models), ``model layouts`` (``hybrid``'s), ``model + auction layouts`` (``expert``'s): each sampler's
  frequencies over ``samples`` layouts of the decision, smoothed as ``(count + 1/2) / (samples + seats / 2)``
  over the seats that may hold the card (so a seat never drawn keeps a finite loss).

The log-loss is in nats per hidden card; uniform guessing over three seats is ln 3 = 1.10.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from numba import njit, prange

from ..engine.bidder_options import bidder_params
from ..engine.frames import CALL_LETTERS
from ..kernels.bid_models.codes import HEURISTIC
from ..kernels.core.bits import popcount
from ..kernels.core.layouts import H_INITIAL, H_SIZE, MAX_AUCTION_CALLS, SCRATCH_SIZE, SW_HANDS, SW_RNG, V_SIZE
from ..kernels.core.rng import WORLD_STREAM, stream_start
from ..kernels.players.inference import start_auction
from ..kernels.players.owners import may_hold, odds_of, probabilities_of
from ..kernels.players.pimc import draw_layout
from ..kernels.players.sampling import unseen_cards
from .data import recorded_deals
from .labels import decision_at, fill_finished_record

#: ``model``, then the samplers by their code (:data:`belot_sim.kernels.players.pimc.UNIFORM_LAYOUTS` ...).
PREDICTORS = ("model", "uniform layouts", "auction layouts", "model layouts", "model + auction layouts")


@njit(cache=True)
def _sampled(view, seat, hand, family, scratch, sampler, samples, pool, n, counts):
    """``counts[4 * card + s]``: layouts of ``samples`` in which seat ``s`` holds ``card`` (pool cards)."""
    for i in range(128):
        counts[i] = 0
    for _ in range(samples):
        draw_layout(sampler, view, seat, hand, family, scratch)
        for idx in range(n):
            card = pool[idx]
            for s in range(4):
                if (scratch[SW_HANDS + s] >> card) & 1:
                    counts[4 * card + s] += 1


@njit(cache=True)
def _deal_losses(record, hands, family, samples, view, scratch, sums, cards):
    """Add the deal's log-losses to ``sums[trick, predictor]`` and its hidden cards to ``cards[trick]``."""
    p = np.empty(128, dtype=np.float64)
    counts = np.empty(128, dtype=np.int64)
    pool = np.empty(32, dtype=np.int64)
    others = np.empty(3, dtype=np.int64)
    need = np.empty(3, dtype=np.int64)
    excluded = np.empty(3, dtype=np.int64)
    known = np.empty(3, dtype=np.int64)
    for k in range(32):
        seat, hand, legal = decision_at(record, hands, view, k)
        if popcount(legal) < 2:
            continue
        n = unseen_cards(view, seat, hand, pool, others, need, excluded, known)
        trick = k >> 2
        probabilities_of(view, seat, hand, pool, n, others, need, excluded, p)
        odds_of(p, pool, n, others, need, scratch)  # the model's samplers draw with these
        for idx in range(n):
            card = pool[idx]
            for s in range(4):
                if (hands[s] >> card) & 1:
                    sums[trick, 0] -= math.log(max(p[4 * card + s], 1e-12))
            cards[trick] += 1
        for sampler in range(len(PREDICTORS) - 1):
            _sampled(view, seat, hand, family, scratch, sampler, samples, pool, n, counts)
            for idx in range(n):
                card = pool[idx]
                seats = 0
                for i in range(3):
                    seats += may_hold(need, excluded, i, card)
                for s in range(4):
                    if (hands[s] >> card) & 1:
                        sums[trick, 1 + sampler] -= math.log((counts[4 * card + s] + 0.5) / (samples + 0.5 * seats))


@njit(cache=True, parallel=True)
def owner_log_losses(dealer, contract, declarer, multiplier, hands, cards, family, flags, calls, n_calls, hands5,
                     bid_weights, samples, seed, n_threads, sums, hidden):
    """Per thread ``t``: ``sums[t, trick, predictor]`` (log-losses) and ``hidden[t, trick]`` (hidden cards) over
    the deals (arguments as :func:`belot_sim.training.labels.label_deals`'s; ``calls[i, :n_calls[i]]`` the
    auction's codes, ``hands5[i]`` the 5-card hands, every seat bidding ``heuristic``)."""
    n = len(dealer)
    models = np.full(4, HEURISTIC, dtype=np.int64)
    for t in prange(n_threads):
        record = np.zeros(H_SIZE, dtype=np.int64)
        view = np.zeros(V_SIZE, dtype=np.int64)
        scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
        deal_hands = record[H_INITIAL:H_INITIAL + 4]  # the dealt hands, as each record is filled
        for i in range(t * n // n_threads, (t + 1) * n // n_threads):
            fill_finished_record(record, dealer[i], contract[i], declarer[i], multiplier[i], family, flags, hands[i],
                                 cards[i])
            scratch[SW_RNG] = np.int64(stream_start(np.uint64(seed), i, WORLD_STREAM))
            start_auction(scratch, calls[i], n_calls[i], dealer[i], flags, models, hands5[i], bid_weights)
            _deal_losses(record, deal_hands, family, samples, view, scratch, sums[t], hidden[t])


def ownership_report(deals: pd.DataFrame, plays: pd.DataFrame, samples: int = 200, seed: int = 0,
                     threads: int = 2) -> pd.DataFrame:
    """The log-loss (nats per hidden card) of each predictor (:data:`PREDICTORS`), per trick and ``all``
    (module docstring), over ``simulate(..., bidders="heuristic", plays=True)``'s two frames (bulgarian
    rules).  Columns: ``hidden cards`` and one per predictor; index ``trick`` (1..8, ``all``)."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    recorded = recorded_deals(deals, plays, "bulgarian")
    played = deals[deals["contract"].notna()]
    if "auction" not in played:
        raise ValueError("the deals have no auction: simulate them with bidders='heuristic'")
    n = len(played)
    calls = np.zeros((n, MAX_AUCTION_CALLS), dtype=np.int64)
    n_calls = np.zeros(n, dtype=np.int64)
    for i, text in enumerate(played["auction"]):
        n_calls[i] = len(text)
        calls[i, :len(text)] = [CALL_LETTERS.index(c) for c in text]
    hands5 = played[[f"auction_hand{s}" for s in range(4)]].to_numpy(np.int64)
    _, weights = bidder_params("bulgarian")
    sums = np.zeros((threads, 8, len(PREDICTORS)))
    hidden = np.zeros((threads, 8), dtype=np.int64)
    owner_log_losses(*recorded, calls, n_calls, hands5, weights, samples, seed, threads, sums, hidden)
    sums, hidden = sums.sum(axis=0), hidden.sum(axis=0)
    table = pd.DataFrame(sums / np.maximum(hidden, 1)[:, None], columns=list(PREDICTORS),
                         index=pd.Index([str(t) for t in range(1, 9)], name="trick"))
    table.insert(0, "hidden cards", hidden)
    table.loc["all"] = [hidden.sum(), *(sums.sum(axis=0) / max(hidden.sum(), 1))]
    return table[table["hidden cards"] > 0]
