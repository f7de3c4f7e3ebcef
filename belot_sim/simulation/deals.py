"""``simulate``: many deals through the compiled kernels, returned as pandas DataFrames.

The arguments are checked once into a :class:`DealPlan`; :func:`run_deals` plays any range of
deal ids of a plan (the dataset writers play a plan part by part).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd

from ..engine.bidder_options import bidder_params
from ..engine.checks import (check_bool, check_fits_in_memory, check_int, check_seed, check_threads, numba_threads,
                             planned_arguments)
from ..engine.compiling import announce
from ..engine.frames import call_frame, categorize, deal_columns, play_frame
from ..engine.progress import Progress, check_progress
from ..engine.registry import SeatedPlan, bidder_codes, player_codes
from ..engine.runs import blocks
from ..engine.searching import DEFAULT_WORLDS, MAX_WORLDS, search_token
from ..game.rules import Contract, Rules
from ..game.scoring import check_multiplier
from ..kernels.batch.rollout import SEARCH_CHUNK, rollout
from ..kernels.core.auction_rules import MAX_CALLS
from ..kernels.core.layouts import AH_SIZE, D_CALLS, D_DEALER, D_OUTCOME, D_SIZE, P_SIZE
from ..kernels.core.rule_flags import flags_of
from ..kernels.core.scoring import VOID

#: Deals per kernel call at most: bounds the temporary arrays (blocks are sized to about half a
#: second of work, :mod:`belot_sim.engine.runs`).
BLOCK = 1 << 20
#: The first block of fast deals (its time includes loading the kernel).
FIRST_BLOCK = 1 << 14
#: Deals per kernel call at most when a deal takes milliseconds (dd/pimc players, mc bidders).
SLOW_BLOCK = 1 << 16
MAX_DEALS = 2**40


@dataclass(frozen=True)
class DealPlan(SeatedPlan):
    """Everything :func:`run_deals` needs, checked: the kernels' arguments for one kind of deal."""

    rules: Rules
    seed: int
    contracts: np.ndarray  # contract codes cycled by deal id (ignored when random_contract)
    random_contract: bool
    declarer: int  # -1: uniform per deal
    multiplier: int
    players: np.ndarray  # int64[4] player codes
    bidders: np.ndarray | None  # int64[4] bidder codes, None without an auction
    bid_ints: np.ndarray
    bid_weights: np.ndarray
    worlds: int
    plays: bool
    calls: bool

    @property
    def family(self) -> str:
        """The kernel family that plays these deals (:mod:`belot_sim.engine.compiling`)."""
        return ("search-" if self.searching else "") + ("deals" if self.bidders is None else "auctions")

    def search_token(self) -> np.ndarray | None:
        return search_token() if self.searching else None


def contract_plan(contract, rules: Rules) -> tuple[np.ndarray, bool]:
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


def plan_deals(*, rules, contract, declarer, players, bidders, seed, plays, multiplier, worlds, calls,
               bidder_options) -> DealPlan:
    """Check ``simulate``'s arguments (a clear error names the first bad one) into a plan."""
    rules = Rules.coerce(rules)
    seed = check_seed(seed)
    auction = bidders is not None
    if auction and (contract is not None or declarer is not None or multiplier != 1):
        raise ValueError("with bidders the auction decides contract, declarer and multiplier: "
                         "leave contract=, declarer= and multiplier= unset")
    bidder_array = np.array(bidder_codes(bidders), dtype=np.int64) if auction else None
    bid_ints, bid_weights = bidder_params(rules, bidder_options, () if bidder_array is None else bidder_array)
    calls = check_bool(calls, "calls")
    if calls and not auction:
        raise ValueError("calls=True needs bidders= (there is no auction without bidders)")
    if bidder_options and not auction:
        raise ValueError("bidder_options= tunes the bidders: give bidders= too (there is no auction without bidders)")
    contracts, random_contract = contract_plan(contract, rules)
    fixed_declarer = -1 if declarer is None else check_int(declarer, "declarer", 0, 3)
    multiplier = check_multiplier(multiplier, rules)
    player_array = np.array(player_codes(players), dtype=np.int64)
    worlds = check_int(worlds, "worlds", 1, MAX_WORLDS)
    plays = check_bool(plays, "plays")
    return DealPlan(rules, seed, contracts, random_contract, fixed_declarer, multiplier, player_array, bidder_array,
                    bid_ints, bid_weights, worlds, plays, calls)


def simulate_arguments(kwargs: dict) -> dict:
    """The arguments of :func:`plan_deals` from ``simulate``-style keywords, ``simulate``'s defaults
    for those not given; an unknown keyword is a TypeError naming it."""
    return planned_arguments(kwargs, plan_deals, simulate, "deal")


def simulate(n: int, *, rules: Rules | str = "bulgarian", contract=None, declarer: int | None = None,
             players="random", bidders=None, seed: int = 0, start: int = 0, threads: int | None = None,
             plays: bool = False, multiplier: int = 1, progress: bool | None = None, worlds: int = DEFAULT_WORLDS,
             calls: bool = False, bidder_options: dict | None = None
             ) -> pd.DataFrame | Simulation:
    """Play ``n`` deals (ids ``start .. start+n-1``) and return one row per deal.

    Parameters
    ----------
    rules : a :class:`Rules` or preset name (``docs/rules.md``).
    contract : one contract (``"H"``), a list to cycle by deal id, or ``None``/``"random"``
        for a uniformly random contract per deal (the rules' playable contracts).
    declarer : seat 0..3, or ``None`` for a uniformly random declarer per deal.
    players : one player name for all seats or four (seats 0..3), see :data:`belot_sim.PLAYERS`:
        ``"random"``, ``"easy"``, ``"normal"``, ``"hard"``, ``"neural"`` (a network's card values),
        ``"pimc"`` (samples the unseen cards and solves them; ``"pimc-exact"`` without its shortcuts;
        ``"expert"`` on a card-ownership model's layouts that also replay the auction), ``"hybrid"``
        (``neural`` in the first three tricks, then ``expert``'s search), ``"dd"`` (perfect
        information: sees every hand).  The searching ones are hundreds to thousands of times
        slower.  With ``"dd"`` in all four seats and ``plays=False`` a deal is usually one exact
        minimax solve, with the same row as playing its cards.
    bidders : ``None`` (contracts from ``contract``/``declarer``/``multiplier``), or one bidder
        name for all seats or four (:data:`belot_sim.BIDDERS`).  Then every deal starts with an
        auction on the 5-card hands: contract, declarer and multiplier come from it, a deal where
        everybody passes is a row with ``outcome="void"`` (no contract, zero points, ``hand0..3``
        the 5-card hands), and the ``auction`` column holds the calls in order, one letter each:
        ``P`` pass, ``C D H S N A`` the contracts (``N`` = NT, ``A`` = AT), ``X`` double, ``R``
        redouble — e.g. ``"HPXPPP"``; ``auction_hand0..3`` hold the 5-card hands the auction was
        held on (classic: before the turned card is taken; ``turned_card`` is its index) and
        ``bidding_team`` the declarer's team (-1 for a void deal).
    bidder_options : tunes the bidders, e.g. ``{"pass_prob": 0.8}``, the heuristic's weights and
        thresholds, ``mc``'s ``mc_samples`` / ``mc_z`` (:data:`belot_sim.engine.bidder_options.BIDDER_OPTIONS`).
    seed, start : deal ``d`` depends only on ``(seed, d)``, so any ``start``/``n`` split and
        any ``threads`` give identical rows, and different players meet the same cards.
    threads : Numba threads (default: Numba's current setting - all cores unless changed with
        ``numba.set_num_threads`` or ``NUMBA_NUM_THREADS``); the setting is restored afterwards.
    plays : also return the per-card frame (void deals have none).
    multiplier : 1, 2 (doubled) or 4 (redoubled); classic only 1.
    progress : show a progress bar on stderr (done, rate, time left): useful for runs of many
        millions, or with pimc.  A run stops within about a second of Ctrl-C
        (``KeyboardInterrupt``) whatever the players: the deals are played in blocks of about half a
        second.
    worlds : layouts of the unseen cards a ``pimc`` player solves per decision.
    calls : with bidders, also return the per-call frame.

    Returns the deals frame, or with ``plays`` or ``calls`` a :class:`Simulation`: the frames by name
    (``.deals``, ``.plays``, ``.calls``) that unpacks as the tuple ``(deals, plays)``, ``(deals,
    calls)`` or ``(deals, plays, calls)``, as requested.

    * deals: ``deal_id, dealer, contract, declarer, multiplier, hand0..hand3`` (final 8-card
      masks), ``trick_points0/1`` (cards + last trick, NT doubled), ``declared0/1`` (resolved
      sequences + carrés), ``belot0/1``, ``valat`` (team with all tricks or -1), ``raw0/1``,
      ``outcome`` (made/hanging/inside/void), ``score0/1`` (match points), ``hanging`` (points
      carried out of the deal); with bidders also ``auction``, ``auction_hand0..3`` (5-card masks),
      in classic ``turned_card``, and ``bidding_team`` (0/1, -1 when void).  Team columns end in 0/1.
    * plays: ``deal_id, trick (0..7), pos (0..3 within the trick), seat, card`` (card index).
    * calls: ``deal_id, index (0.. within the auction), seat, call`` (categorical).
    """
    plan = plan_deals(rules=rules, contract=contract, declarer=declarer, players=players, bidders=bidders,
                      seed=seed, plays=plays, multiplier=multiplier, worlds=worlds, calls=calls,
                      bidder_options=bidder_options)
    n = check_int(n, "n", 0, MAX_DEALS)
    start = check_int(start, "start", 0, 2**62 - n)
    threads = check_threads(threads)
    progress = check_progress(progress)
    out = DealArrays(plan, n)  # every block writes its deals into these: no frames to join at the end
    with numba_threads(threads), Progress(progress, "simulate", n, "deals") as bar:
        for offset, size in deal_blocks(plan, n, bar):
            out.play(start, offset, offset + size)
    return _result(plan, out.frames(start))


def deal_blocks(plan: DealPlan, n: int, progress: Progress | None = None, first: int | None = None):
    """``(offset, size)`` blocks of ``n`` deals of ``plan`` (:func:`belot_sim.engine.runs.blocks`): about half a
    second each, slow deals in whole work items for every Numba thread; ``first``: the first block's
    size when a run before measured it."""
    if plan.slow:
        items = numba.get_num_threads() * SEARCH_CHUNK
        return blocks(n, first=first or items, cap=SLOW_BLOCK, multiple=items, progress=progress)
    return blocks(n, first=first or FIRST_BLOCK, cap=BLOCK, progress=progress)


class Simulation(tuple):
    """What :func:`simulate` returns when ``plays`` or ``calls`` is asked: the frames by name,
    ``.deals``, ``.plays``, ``.calls``, and a tuple of the ones asked for in that order, so
    ``deals, plays = simulate(n, plays=True)`` unpacks them."""

    def __new__(cls, deals: pd.DataFrame, plays: pd.DataFrame | None = None, calls: pd.DataFrame | None = None):
        result = super().__new__(cls, [f for f in (deals, plays, calls) if f is not None])
        result._frames = {"plays": plays, "calls": calls}
        return result

    def __getnewargs__(self):  # pickling rebuilds it from its frames by name
        return self[0], self._frames["plays"], self._frames["calls"]

    @property
    def deals(self) -> pd.DataFrame:
        """One row per deal (the columns: :func:`simulate`)."""
        return self[0]

    @property
    def plays(self) -> pd.DataFrame:
        """One row per card played; asked with ``plays=True``."""
        return self._asked("plays")

    @property
    def calls(self) -> pd.DataFrame:
        """One row per call; asked with ``calls=True`` (with bidders)."""
        return self._asked("calls")

    def _asked(self, name: str) -> pd.DataFrame:
        if self._frames[name] is None:
            raise AttributeError(f"this simulation has no {name} frame: simulate(..., {name}=True) keeps them")
        return self._frames[name]

    def __repr__(self) -> str:
        sizes = ", ".join(f"{name}: {len(frame):,} rows" for name, frame in
                          (("deals", self[0]), *self._frames.items()) if frame is not None)
        return f"Simulation({sizes})"


def _result(plan: DealPlan, frames: list[pd.DataFrame]) -> pd.DataFrame | Simulation:
    """The deals frame, or a :class:`Simulation` of the frames ``plan`` asks for."""
    if len(frames) == 1:
        return frames[0]
    frames = iter(frames)
    deals = next(frames)
    return Simulation(deals, next(frames) if plan.plays else None, next(frames) if plan.calls else None)


def run_deals(plan: DealPlan, start: int, n: int) -> list[pd.DataFrame]:
    """Deals ``start .. start+n-1`` of ``plan`` in one kernel call: ``[deals]``, plus the plays
    and calls frames when the plan asks for them (contract and outcome as categoricals)."""
    out = DealArrays(plan, n)
    out.play(start, 0, n)
    return out.frames(start)


def output_arrays(plan: DealPlan, n: int) -> tuple:
    """``(name, shape, dtype, zeroed)`` of each output array of the kernel for ``n`` deals of ``plan``:
    the one place their shapes are written (every shape is linear in ``n``).  The play arrays are
    empty without ``plays``, the auction's without bidders; the auction's start zeroed (a call slot
    left 0 after the last call)."""
    plays = n if plan.plays else 0
    auctions = n if plan.bidders is not None else 0
    return (("small", (D_SIZE, n), np.int8, False),
            ("hands", (4, n), np.uint32, False),
            ("points", (P_SIZE, n), np.int16, False),
            ("play_seat", (plays, 32), np.int8, False),
            ("play_card", (plays, 32), np.int8, False),
            ("call_codes", (auctions, MAX_CALLS), np.int8, True),
            ("auction_cards", (AH_SIZE, auctions), np.uint32, True))


class DealArrays:
    """The kernel's output arrays for ``n`` deals of ``plan`` (column-major, as :func:`rollout` writes
    them; their shapes: :func:`output_arrays`), filled range by range with :meth:`play`, turned into
    frames by :meth:`frames`."""

    small: np.ndarray
    hands: np.ndarray
    points: np.ndarray
    play_seat: np.ndarray
    play_card: np.ndarray
    call_codes: np.ndarray
    auction_cards: np.ndarray

    def __init__(self, plan: DealPlan, n: int):
        self.plan, self.n = plan, n
        check_fits_in_memory(n, self.bytes_per_deal(plan), f"{n:,} deals",
                             "write a dataset instead, which takes any number in bounded memory "
                             "(simulate_to_parquet; on the command line, --out FOLDER), or make smaller calls")
        for name, shape, dtype, zeroed in output_arrays(plan, n):
            setattr(self, name, (np.zeros if zeroed else np.empty)(shape, dtype=dtype))

    @staticmethod
    def array_bytes_per_deal(plan: DealPlan) -> int:
        """The bytes of :func:`output_arrays` a deal takes."""
        return sum(int(np.prod(shape)) * np.dtype(dtype).itemsize for _, shape, dtype, _ in output_arrays(plan, 1))

    @staticmethod
    def bytes_per_deal(plan: DealPlan) -> int:
        """A lower bound of the memory a deal takes: its arrays, and what the plays and calls frames add
        to them (32 rows of a deal id and two int8 columns; 4 calls at least, 11 bytes each).  Peaks
        measured with ``tracemalloc``, bytes a deal (bound): plain 55 (45), plays 439 (429), an auction 250
        (123), plays and calls 844 (551)."""
        frames = (32 * 10 if plan.plays else 0) + (4 * 11 if plan.calls else 0)
        return DealArrays.array_bytes_per_deal(plan) + frames

    def play(self, start: int, first: int, last: int) -> None:
        """Play deals ``start + first .. start + last - 1`` into rows ``first .. last - 1``."""
        plan, rules = self.plan, self.plan.rules
        with announce(plan.family):
            rollout(np.uint64(plan.seed), start, first, last, plan.contracts, plan.random_contract,
                    len(rules.contracts), plan.declarer, plan.multiplier, int(rules.is_classic), flags_of(rules),
                    plan.players, plan.worlds, plan.plays, plan.bidders, plan.bid_ints, plan.bid_weights, self.small,
                    self.hands, self.points, self.play_seat, self.play_card, self.call_codes, numba.get_num_threads(),
                    plan.search_token(), self.auction_cards)

    def frames(self, start: int, n: int | None = None) -> list[pd.DataFrame]:
        """``[deals]``, plus the plays and calls frames when the plan asks for them, of the first ``n``
        rows (all by default), which hold deals ``start .. start + n - 1``.  The deals frame uses the
        arrays without copying them."""
        plan = self.plan
        n = self.n if n is None else n
        auction = plan.bidders is not None
        small, hands, points = self.small[:, :n], self.hands[:, :n], self.points[:, :n]
        codes = self.call_codes[:n]
        deal_id = np.arange(start, start + n, dtype=np.int64)
        # copy=False: the columns are fresh arrays owned by this frame; copying them would cost
        # more than the whole simulation at these sizes.
        columns = (deal_columns(deal_id, small, hands, points, codes, self.auction_cards[:, :n], plan.rules.is_classic)
                   if auction else deal_columns(deal_id, small, hands, points))
        deals = pd.DataFrame(columns, copy=False)
        categorize(deals)
        frames = [deals]
        if plan.plays:  # a void deal has no play: its rows of the play arrays were never written
            frames.append(play_frame(deal_id, self.play_seat[:n], self.play_card[:n],
                                     small[D_OUTCOME] != VOID if auction else None))
        if plan.calls:
            frames.append(call_frame(deal_id, codes, small[D_CALLS], small[D_DEALER]))
        return frames
