"""``simulate``: many deals through the compiled kernels, returned as pandas DataFrames."""

from __future__ import annotations

import sys
from collections.abc import Iterable

import numba
import numpy as np
import pandas as pd

from .kernels.rollout import rollout
from .kernels.scoring import OUTCOME_NAMES
from .players import SEARCH_PLAYERS, POLICY_CODES, policy_codes
from .rules import CONTRACT_CODES, Contract, Rules
from .scoring import check_multiplier

#: Deals per kernel call: bounds the temporary arrays and paces the progress display.
BLOCK = 1 << 20
#: The same with a searching player (dd/pimc take milliseconds to seconds per deal).
SEARCH_BLOCK = 64
DEFAULT_WORLDS = 20
RESULT_COLUMNS = ("trick_points0", "trick_points1", "declared0", "declared1", "belot0", "belot1", "valat",
                  "raw0", "raw1", "outcome", "score0", "score1", "hanging")
DEAL_COLUMNS = ("deal_id", "dealer", "contract", "declarer", "multiplier", "hand0", "hand1", "hand2", "hand3",
                *RESULT_COLUMNS)
PLAY_COLUMNS = ("deal_id", "trick", "pos", "seat", "card")
CONTRACT_DTYPE = pd.CategoricalDtype(list(CONTRACT_CODES))
OUTCOME_DTYPE = pd.CategoricalDtype(list(OUTCOME_NAMES))
POINT_COLUMNS = ("trick_points0", "trick_points1", "declared0", "declared1", "belot0", "belot1", "raw0", "raw1",
                 "score0", "score1", "hanging")


def _check_int(value, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {value}")
    return int(value)


def _contract_plan(contract, rules: Rules) -> tuple[np.ndarray, bool]:
    """``(contracts to cycle, random?)`` from the ``contract=`` argument."""
    if contract is None or (isinstance(contract, str) and contract.lower() == "random"):
        return np.zeros(1, dtype=np.int64), True
    if isinstance(contract, (str, Contract, int, np.integer)):
        items = [contract]
    elif isinstance(contract, Iterable) and not isinstance(contract, (bytes, dict)):
        items = list(contract)
        if not items:
            raise ValueError("contract= list is empty")
    else:
        raise TypeError(f"contract must be a contract, a list of contracts or 'random', got {contract!r}")
    return np.array([rules.check_contract(c) for c in items], dtype=np.int64), False


def simulate(n: int, *, rules: Rules | str = "bulgarian", contract=None, declarer: int | None = None,
             players="random", bidders=None, seed: int = 0, start: int = 0, threads: int | None = None,
             plays: bool = False, multiplier: int = 1, progress: bool = False, worlds: int = DEFAULT_WORLDS):
    """Play ``n`` deals (ids ``start .. start+n-1``) and return one row per deal.

    Parameters
    ----------
    rules : a :class:`Rules` or preset name.
    contract : one contract (``"H"``), a list to cycle by deal id, or ``None``/``"random"``
        for a uniformly random contract per deal (the rules' playable contracts).
    declarer : seat 0..3, or ``None`` for a uniformly random declarer per deal.
    players : one player name for all seats or a 4-tuple (seats 0..3): ``"random"``, ``"easy"``,
        ``"normal"``, ``"hard"``, ``"pimc"`` (samples the unseen cards and solves them), ``"dd"``
        (perfect information: sees every hand).  The last two are thousands of times slower.
    bidders : auctions are not available yet; must be ``None``.
    seed, start : deal ``d`` depends only on ``(seed, d)``, so any ``start``/``n`` split and
        any ``threads`` give identical rows, and different players meet the same cards.
    threads : Numba threads (default: all).
    plays : also return the per-card frame ``(deal_id, trick, pos, seat, card)``.
    multiplier : 1, 2 (doubled) or 4 (redoubled); classic only 1.
    progress : print progress to stderr (useful for runs of many millions, or with pimc).
    worlds : layouts of the unseen cards a ``pimc`` player solves per decision (default 20).

    Returns a DataFrame with the columns of DESIGN.md (``deals``) or ``(deals, plays)``.
    """
    rules = Rules.coerce(rules)
    n = _check_int(n, "n", 0, 2**40)
    seed = _check_int(seed, "seed", 0, 2**64 - 1)
    start = _check_int(start, "start", 0, 2**62 - n)
    if bidders is not None:
        raise ValueError("bidders are not available in this version: give contract= (and declarer=) instead")
    contracts, random_contract = _contract_plan(contract, rules)
    fixed_declarer = -1 if declarer is None else _check_int(declarer, "declarer", 0, 3)
    check_multiplier(multiplier, rules)
    policies = np.array(policy_codes(players), dtype=np.int64)
    worlds = _check_int(worlds, "worlds", 1, 100_000)
    search_codes = {POLICY_CODES[name] for name in SEARCH_PLAYERS}
    searching = any(int(code) in search_codes for code in policies)
    block = SEARCH_BLOCK if searching else BLOCK
    if threads is not None:
        threads = _check_int(threads, "threads", 1, numba.config.NUMBA_NUM_THREADS)
    if not isinstance(plays, bool):
        raise TypeError(f"plays must be True or False, got {plays!r}")

    params = (random_contract, len(rules.contracts), fixed_declarer, multiplier, int(rules.is_classic),
              rules.undertrump == "required", rules.at_overtake_partner, rules.declarations)
    previous_threads = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        blocks = []
        for offset in range(0, max(n, 1), block):
            size = min(block, n - offset)
            blocks.append(_run_block(seed, start + offset, size, contracts, params, policies, worlds, plays))
            if progress:
                print(f"\rsimulate: {offset + size:,}/{n:,} deals", end="", file=sys.stderr, flush=True)
        if progress:
            print(file=sys.stderr)
    finally:
        numba.set_num_threads(previous_threads)
    deals = pd.concat([b[0] for b in blocks], ignore_index=True) if len(blocks) > 1 else blocks[0][0]
    deals["contract"] = pd.Categorical.from_codes(deals["contract"].to_numpy(), dtype=CONTRACT_DTYPE)
    deals["outcome"] = pd.Categorical.from_codes(deals["outcome"].to_numpy(), dtype=OUTCOME_DTYPE)
    if not plays:
        return deals
    play_frame = pd.concat([b[1] for b in blocks], ignore_index=True) if len(blocks) > 1 else blocks[0][1]
    return deals, play_frame


def _run_block(seed, start, n, contracts, params, policies, worlds, record):
    (random_contract, n_contracts, fixed_declarer, multiplier, family, undertrump_required, at_overtake_partner,
     declarations_on) = params
    small = np.empty((5, n), dtype=np.int8)
    hands = np.empty((4, n), dtype=np.uint32)
    points = np.empty((11, n), dtype=np.int16)
    shape = (n, 32) if record else (0, 32)
    play_seat = np.empty(shape, dtype=np.int8)
    play_card = np.empty(shape, dtype=np.int8)
    rollout(np.uint64(seed), start, n, contracts, random_contract, n_contracts, fixed_declarer, multiplier, family,
            undertrump_required, at_overtake_partner, declarations_on, policies, worlds, record,
            small, hands, points, play_seat, play_card)
    deal_id = np.arange(start, start + n, dtype=np.int64)
    columns = {"deal_id": deal_id, "dealer": small[0], "contract": small[1], "declarer": small[2],
               "multiplier": np.full(n, multiplier, dtype=np.int8)}
    for s in range(4):
        columns[f"hand{s}"] = hands[s]
    for k, name in enumerate(POINT_COLUMNS):
        columns[name] = points[k]
    columns["valat"] = small[3]
    columns["outcome"] = small[4]
    # copy=False: the columns are fresh arrays owned by this frame; copying them would cost
    # more than the whole simulation at these sizes.
    deals = pd.DataFrame({name: columns[name] for name in DEAL_COLUMNS}, copy=False)
    if not record:
        return deals, None
    index = np.arange(32)
    play_frame = pd.DataFrame({
        "deal_id": np.repeat(deal_id, 32),
        "trick": np.tile((index // 4).astype(np.int8), n),
        "pos": np.tile((index % 4).astype(np.int8), n),
        "seat": play_seat.reshape(-1),
        "card": play_card.reshape(-1),
    }, copy=False)
    return deals, play_frame
