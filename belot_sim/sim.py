"""``simulate``: many deals through the compiled kernels, returned as pandas DataFrames."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from contextlib import contextmanager

import numba
import numpy as np
import pandas as pd

from .kernels.auction import CALL_NAMES, MAX_CALLS
from .kernels.rollout import rollout
from .kernels.scoring import OUTCOME_NAMES, VOID
from .players import SEARCH_PLAYERS, POLICY_CODES, policy_codes
from .players.bidders import bidder_codes, make_params
from .rules import CONTRACT_CODES, Contract, Rules
from .scoring import check_multiplier

#: Deals per kernel call: bounds the temporary arrays and paces the progress display.
BLOCK = 1 << 20
#: The same with a searching player (dd/pimc take milliseconds to seconds per deal) when progress
#: is shown; otherwise one call: each call waits for its slowest deal (measured: 64-deal calls kept
#: two threads 173 % busy on dd deals).
SEARCH_BLOCK = 64
DEFAULT_WORLDS = 20
RESULT_COLUMNS = ("trick_points0", "trick_points1", "declared0", "declared1", "belot0", "belot1", "valat",
                  "raw0", "raw1", "outcome", "score0", "score1", "hanging")
DEAL_COLUMNS = ("deal_id", "dealer", "contract", "declarer", "multiplier", "hand0", "hand1", "hand2", "hand3",
                *RESULT_COLUMNS)
CALL_COLUMNS = ("deal_id", "index", "seat", "call")
#: One letter per call in the ``auction`` column: pass, the six contracts, double, redouble.
CALL_LETTERS = "PCDHSNAXR"
CALL_DTYPE = pd.CategoricalDtype(list(CALL_NAMES))
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


@contextmanager
def _numba_threads(threads: int | None):
    """Run the block with ``threads`` Numba threads (None: as set), then restore the setting."""
    previous = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(previous)


class _Progress:
    """Counts on one stderr line (``label: done/total unit``), ended by a newline when the block
    ends; silent unless ``shown``."""

    def __init__(self, shown: bool, label: str, total: int, unit: str):
        self.shown, self.label, self.total, self.unit = shown, label, total, unit

    def update(self, done: int) -> None:
        if self.shown:
            print(f"\r{self.label}: {done:,}/{self.total:,} {self.unit}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.shown:
            print(file=sys.stderr)

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _join_blocks(blocks: list, wanted: Iterable[int]) -> list[pd.DataFrame]:
    """Frame ``k`` of every block, concatenated, for each ``k`` in ``wanted``."""
    return [pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
            for parts in ([b[k] for b in blocks] for k in wanted)]


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
             plays: bool = False, multiplier: int = 1, progress: bool = False, worlds: int = DEFAULT_WORLDS,
             calls: bool = False, bidder_options: dict | None = None):
    """Play ``n`` deals (ids ``start .. start+n-1``) and return one row per deal.

    Parameters
    ----------
    rules : a :class:`Rules` or preset name.
    contract : one contract (``"H"``), a list to cycle by deal id, or ``None``/``"random"``
        for a uniformly random contract per deal (the rules' playable contracts).
    declarer : seat 0..3, or ``None`` for a uniformly random declarer per deal.
    players : one player name for all seats or a 4-tuple (seats 0..3): ``"random"``, ``"easy"``,
        ``"normal"``, ``"hard"``, ``"pimc"`` (samples the unseen cards and solves them), ``"dd"``
        (perfect information: sees every hand).  The last two are thousands of times slower.  With
        ``"dd"`` in all four seats and ``plays=False`` a deal is usually one exact minimax solve,
        with the same row as playing its cards (:mod:`belot_sim.kernels.dd_deal`).
    bidders : ``None`` (contracts from ``contract``/``declarer``/``multiplier``), or one bidder
        name for all seats or a 4-tuple: ``"random"``, ``"heuristic"``, ``"mc"``.  Then every deal
        starts with an auction on the 5-card hands (RULES.md §4): contract, declarer and
        multiplier come from it, a deal where everybody passes is a row with ``outcome="void"``
        (no contract, zero points, ``hand0..3`` the 5-card hands), and the ``auction`` column
        holds the calls in order, one letter each: ``P`` pass, ``C D H S N A`` the contracts
        (``N`` = NT, ``A`` = AT), ``X`` double, ``R`` redouble — e.g. ``"HPXPPP"``.
    bidder_options : tunes the bidders, e.g. ``{"pass_prob": 0.8}`` or the heuristic's weights and
        thresholds, ``mc``'s ``mc_samples`` / ``mc_threshold``
        (:data:`belot_sim.players.bidders.PARAM_SLOTS` lists them).
    seed, start : deal ``d`` depends only on ``(seed, d)``, so any ``start``/``n`` split and
        any ``threads`` give identical rows, and different players meet the same cards.
    threads : Numba threads (default: all).
    plays : also return the per-card frame ``(deal_id, trick, pos, seat, card)`` (void deals have none).
    multiplier : 1, 2 (doubled) or 4 (redoubled); classic only 1.
    progress : print progress to stderr (useful for runs of many millions, or with pimc).
    worlds : layouts of the unseen cards a ``pimc`` player solves per decision (default 20).
    calls : with bidders, also return the per-call frame ``(deal_id, index, seat, call)``.

    Returns a DataFrame with the columns of DESIGN.md (``deals``; plus ``auction`` with bidders),
    or a tuple ``(deals, plays)``, ``(deals, calls)`` or ``(deals, plays, calls)`` as requested.
    """
    rules = Rules.coerce(rules)
    n = _check_int(n, "n", 0, 2**40)
    seed = _check_int(seed, "seed", 0, 2**64 - 1)
    start = _check_int(start, "start", 0, 2**62 - n)
    auction = bidders is not None
    if auction and (contract is not None or declarer is not None or multiplier != 1):
        raise ValueError("with bidders the auction decides contract, declarer and multiplier: "
                         "leave contract=, declarer= and multiplier= unset")
    bidder_array = np.array(bidder_codes(bidders) if auction else (0, 0, 0, 0), dtype=np.int64)
    if bidder_options is not None and not isinstance(bidder_options, dict):
        raise TypeError(f"bidder_options must be a dict, got {type(bidder_options).__name__}")
    bid_params = make_params(rules, **(bidder_options or {}))
    if not isinstance(calls, bool):
        raise TypeError(f"calls must be True or False, got {calls!r}")
    if calls and not auction:
        raise ValueError("calls=True needs bidders= (there is no auction without bidders)")
    contracts, random_contract = _contract_plan(contract, rules)
    fixed_declarer = -1 if declarer is None else _check_int(declarer, "declarer", 0, 3)
    check_multiplier(multiplier, rules)
    policies = np.array(policy_codes(players), dtype=np.int64)
    worlds = _check_int(worlds, "worlds", 1, 100_000)
    block = (SEARCH_BLOCK if progress else max(n, 1)) if _searching(policies) else BLOCK
    if threads is not None:
        threads = _check_int(threads, "threads", 1, numba.config.NUMBA_NUM_THREADS)
    if not isinstance(plays, bool):
        raise TypeError(f"plays must be True or False, got {plays!r}")

    params = (random_contract, len(rules.contracts), fixed_declarer, multiplier, int(rules.is_classic),
              rules.undertrump == "required", rules.at_overtake_partner, rules.declarations,
              auction, bidder_array, bid_params, rules.all_no_trumps)
    with _numba_threads(threads), _Progress(progress, "simulate", n, "deals") as shown:
        blocks = []
        for offset in range(0, max(n, 1), block):
            size = min(block, n - offset)
            blocks.append(_run_block(seed, start + offset, size, contracts, params, policies, worlds, plays, calls))
            shown.update(offset + size)
    frames = _join_blocks(blocks, [k for k, asked in enumerate((True, plays, calls)) if asked])
    deals = frames[0]
    _categorize(deals)
    return tuple(frames) if len(frames) > 1 else deals


def _run_block(seed, start, n, contracts, params, policies, worlds, record, record_calls):
    """One kernel call: ``(deals, plays or None, calls or None)`` frames of deals ``start..start+n-1``."""
    (random_contract, n_contracts, fixed_declarer, multiplier, family, undertrump_required, at_overtake_partner,
     declarations_on, auction, bidders, bid_params, all_no_trumps) = params
    small = np.empty((7, n), dtype=np.int8)
    hands = np.empty((4, n), dtype=np.uint32)
    points = np.empty((11, n), dtype=np.int16)
    shape = (n, 32) if record else (0, 32)
    play_seat = np.empty(shape, dtype=np.int8)
    play_card = np.empty(shape, dtype=np.int8)
    call_codes = np.zeros((n if auction else 0, MAX_CALLS), dtype=np.int8)
    rollout(np.uint64(seed), start, n, contracts, random_contract, n_contracts, fixed_declarer, multiplier, family,
            undertrump_required, at_overtake_partner, declarations_on, policies, worlds, record,
            bidders if auction else None, bid_params, all_no_trumps,
            small, hands, points, play_seat, play_card, call_codes, _search_token(policies))
    deal_id = np.arange(start, start + n, dtype=np.int64)
    # copy=False: the columns are fresh arrays owned by this frame; copying them would cost
    # more than the whole simulation at these sizes.
    deals = pd.DataFrame(_deal_columns(deal_id, small, hands, points, call_codes if auction else None), copy=False)
    # A void deal has no play: its rows of the play arrays were never written.
    play_frame = _play_frame(deal_id, play_seat, play_card, small[4] != VOID if auction else None) if record else None
    call_frame = _call_frame(deal_id, call_codes, small[6], small[0]) if record_calls else None
    return deals, play_frame, call_frame


def _deal_columns(deal_id, small, hands, points, call_codes=None) -> dict:
    """The ``simulate`` deal columns, in order, from the kernel outputs (layout of
    :func:`belot_sim.kernels.rollout.rollout`); with ``call_codes`` also ``auction``.
    ``contract`` and ``outcome`` stay codes (see :func:`_categorize`)."""
    columns = {"deal_id": deal_id, "dealer": small[0], "contract": small[1], "declarer": small[2],
               "multiplier": small[5]}
    for s in range(4):
        columns[f"hand{s}"] = hands[s]
    for k, name in enumerate(POINT_COLUMNS):
        columns[name] = points[k]
    columns["valat"] = small[3]
    columns["outcome"] = small[4]
    names = DEAL_COLUMNS if call_codes is None else (*DEAL_COLUMNS, "auction")
    if call_codes is not None:
        columns["auction"] = _auction_text(call_codes, small[6])
    return {name: columns[name] for name in names}


def _categorize(deals: pd.DataFrame) -> None:
    """Turn the ``contract`` and ``outcome`` codes of a deal frame into categoricals, in place."""
    deals["contract"] = pd.Categorical.from_codes(deals["contract"].to_numpy(), dtype=CONTRACT_DTYPE)
    deals["outcome"] = pd.Categorical.from_codes(deals["outcome"].to_numpy(), dtype=OUTCOME_DTYPE)


def _searching(policies: np.ndarray) -> bool:
    """Does a seat play ``dd``/``pimc``?"""
    search_codes = {POLICY_CODES[name] for name in SEARCH_PLAYERS}
    return any(int(code) in search_codes for code in policies)


#: What the kernels get as ``search`` when a seat searches (they only look at its type: ``None``
#: compiles a kernel without the solver).
SEARCH_TOKEN = np.zeros(1, dtype=np.int64)


def _search_token(policies: np.ndarray):
    return SEARCH_TOKEN if _searching(policies) else None


def _auction_text(codes: np.ndarray, n_calls: np.ndarray) -> np.ndarray:
    """Each deal's calls as one string of :data:`CALL_LETTERS`."""
    width = max(int(n_calls.max(initial=0)), 1)
    letters = np.frombuffer(CALL_LETTERS.encode(), dtype=np.uint8)[codes[:, :width]]
    letters[np.arange(width)[None, :] >= n_calls[:, None]] = 0  # NUL bytes end a shorter auction
    return np.ascontiguousarray(letters).view(f"S{width}").ravel().astype(str)


def _play_frame(deal_id, play_seat, play_card, played=None) -> pd.DataFrame:
    """32 rows per deal; only the deals where ``played`` (a boolean mask) is true when given."""
    if played is not None:
        deal_id, play_seat, play_card = deal_id[played], play_seat[played], play_card[played]
    n = len(deal_id)
    index = np.arange(32)
    return pd.DataFrame({
        "deal_id": np.repeat(deal_id, 32),
        "trick": np.tile((index // 4).astype(np.int8), n),
        "pos": np.tile((index % 4).astype(np.int8), n),
        "seat": play_seat.reshape(-1),
        "card": play_card.reshape(-1),
    }, copy=False)


def _call_frame(deal_id, codes, n_calls, dealer) -> pd.DataFrame:
    """One row per call: ``deal_id, index`` (0.. within the auction), ``seat``, ``call``."""
    counts = n_calls.astype(np.int64)
    rows = np.repeat(np.arange(len(deal_id)), counts)
    index = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    seat = (dealer.astype(np.int64)[rows] + 1 + index) % 4
    return pd.DataFrame({
        "deal_id": deal_id[rows],
        "index": index.astype(np.int8),
        "seat": seat.astype(np.int8),
        "call": pd.Categorical.from_codes(codes[rows, index].astype(np.int64), dtype=CALL_DTYPE),
    })
