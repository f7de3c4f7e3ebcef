"""``simulate_matches``: whole matches (docs/rules.md §9) through the compiled kernels, as DataFrames.

Every match is a pure function of ``(seed, match id)`` (see :mod:`belot_sim.kernels.batch.match`):
its first dealer comes from the match's own random stream, the dealer then rotates, and deal
``k`` of match ``m`` has the deal id ``m * DEAL_ID_STRIDE + k`` (``DEAL_ID_STRIDE`` = 2**20),
which fixes its cards (:func:`belot_sim.kernels.core.dealing.deal_pack`), auction and play.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd

from ..engine.bidder_options import bidder_params
from ..engine.checks import (check_bool, check_fits_in_memory, check_int, check_seed, check_threads, numba_threads,
                             planned_arguments)
from ..engine.compiling import announce
from ..engine.frames import call_frame, categorize, deal_columns, join_blocks, play_frame
from ..engine.progress import Progress, check_progress
from ..engine.registry import SeatedPlan, bidder_codes, is_searching, player_codes
from ..engine.runs import blocks, interruptible
from ..engine.searching import DEFAULT_WORLDS, MAX_WORLDS, search_token
from ..game.rules import Rules
from ..kernels.batch.match import DEAL_ID_STRIDE, MATCH_CHUNK, MAX_MATCH_ID, play_matches
from ..kernels.core.auction_rules import MAX_CALLS
from ..kernels.core.layouts import (AH_SIZE, D_CALLS, D_DEALER, D_OUTCOME, D_SIZE, M_DEALER, M_DEALS, M_SCORE0,
                                    M_SCORE1, M_SIZE, M_TARGET, M_WINNER, MT_SIZE, P_SIZE)
from ..kernels.core.rule_flags import flags_of
from ..kernels.core.scoring import VOID
from .dask import check_partition_size

MATCH_COLUMNS = ("match_id", "first_dealer", "winner", "score0", "score1", "deals", "target")
#: Columns of the ``deals`` frame besides ``match_id, deal`` and the ``simulate`` deal columns.
TOTAL_COLUMNS = ("total0", "total1", "carried")
#: Deal slots per kernel call at most (bounds the temporary arrays; blocks are sized to about half
#: a second of work, belot_sim/engine/runs.py).
BLOCK_SLOTS = 1 << 18
#: The first block of fast matches (its time includes loading the kernel).
FIRST_BLOCK = 256
#: Deal slots a match gets at first; an undecided match is played again with 4x the room.
FIRST_CAP = 64
DEFAULT_MAX_DEALS = 10_000
#: The frames of a match take at least this many bytes: its row (27) and one deal's (106; a match of
#: 151 has about 14, measured on 200 ``heuristic`` matches).
MATCH_BYTES_AT_LEAST = 133
#: Matches per task on a Dask client.
CLIENT_PARTITION = 10_000


def simulate_matches(n: int, *, rules: Rules | str = "bulgarian", players="random", bidders="heuristic",
                     seed: int = 0, start: int = 0, threads: int | None = None, worlds: int = DEFAULT_WORLDS,
                     bidder_options: dict | None = None, progress: bool | None = None,
                     max_deals: int = DEFAULT_MAX_DEALS, plays: bool = False, calls: bool = False, client=None,
                     partition_size: int = CLIENT_PARTITION) -> tuple[pd.DataFrame, ...]:
    """Play ``n`` whole matches (ids ``start .. start+n-1``) to the rules' ``match_target``.

    Each deal starts with an auction between ``bidders`` on the 5-card hands, as in
    :func:`belot_sim.simulate` with ``bidders=``; a deal where everybody passes is void and
    only counts.  The match follows docs/rules.md §9 like :class:`belot_sim.MatchProgress`: hanging
    points wait for the next deal that has a winner; a team at or over the target after a
    deal, ahead of the other, wins; bulgarian: no match ends on a valat deal, whose target
    becomes ``max(target, leader + 1)``.

    Parameters
    ----------
    rules : a :class:`Rules` or preset name; the target is ``rules.match_target``
        (``bs.CLASSIC.replace(match_target=501)`` for a 501 classic match).
    players, bidders, bidder_options, worlds, threads : as in :func:`belot_sim.simulate`
        (``bidders`` is required: one name or a 4-tuple, default ``"heuristic"``).
    seed, start : match ``m`` depends only on ``(seed, m)``: any ``start``/``n`` split and any
        ``threads`` give identical rows.  Match ids go up to ``2**42 - 1``.
    max_deals : a match not decided after this many deals (e.g. bidders that always pass)
        raises ``RuntimeError``; at most ``2**20``.
    plays, calls : also return the per-card frame ``(deal_id, trick, pos, seat, card)`` of every
        played deal (32 rows each; void deals have none) and the per-call frame
        ``(deal_id, index, seat, call)`` of every deal, as ``simulate`` does.
    progress : show a progress bar on stderr (Ctrl-C stops a run within about a second).
    client, partition_size : a Dask ``distributed.Client`` whose workers play partitions of
        ``partition_size`` matches (:mod:`belot_sim.simulation.dask`); the frames are the same.

    Returns ``(matches, deals)``, then ``plays`` and ``calls`` if asked, in that order.

    * ``matches``: one row per match: ``match_id, first_dealer, winner, score0, score1,
      deals`` (played, void ones included), ``target`` (final: valat deals may raise it).
    * ``deals``: one row per deal: ``match_id, deal`` (0.. within the match), the ``simulate``
      columns ``deal_id, dealer, contract, ..., hanging, auction, auction_hand0..3, [turned_card,]
      bidding_team`` and the match after the deal: ``total0, total1`` (running scores),
      ``carried`` (hanging points waiting).  ``score0``/``score1`` are the deal's own points: the
      hanging points it collects are in ``total0``/``total1`` only.
    """
    plan = plan_matches(rules=rules, players=players, bidders=bidders, seed=seed, worlds=worlds,
                        bidder_options=bidder_options, max_deals=max_deals, plays=plays, calls=calls)
    n = check_int(n, "n", 0, MAX_MATCH_ID + 1)
    start = check_int(start, "start", 0, MAX_MATCH_ID + 1 - n)
    check_fits_in_memory(n, MATCH_BYTES_AT_LEAST, f"{n:,} matches",
                         "simulate_matches_to_parquet writes any number in bounded memory")
    threads = check_threads(threads)
    progress = check_progress(progress)
    partition_size = check_partition_size(partition_size)  # also without a client
    with Progress(progress, "simulate_matches", n, "matches") as bar:
        if client is None:
            with numba_threads(threads):
                return tuple(run_matches(plan, start, n, bar))
        from ..engine.distributed import check_client, partitions, run_partitions

        client = check_client(client, "simulate_matches")
        tasks = [(plan, start + offset, size, threads)
                 for offset, size in partitions(n, partition_size)]
        parts = run_partitions(client, _matches_on_worker, tasks, progress=bar, weights=[t[2] for t in tasks])
    return tuple(join_blocks(parts, range(len(parts[0]))))


def plan_arguments(kwargs: dict) -> dict:
    """The arguments of :func:`plan_matches` from ``simulate_matches``-style keywords, its defaults for
    those not given; an unknown keyword is a TypeError naming it."""
    return planned_arguments(kwargs, plan_matches, simulate_matches, "match")


@dataclass(frozen=True)
class MatchPlan(SeatedPlan):
    """Everything :func:`run_matches` needs, checked: the kernel's arguments for one kind of match."""

    rules: Rules
    seed: int
    bidders: np.ndarray  # int64[4] bidder codes
    bid_ints: np.ndarray
    bid_weights: np.ndarray
    players: np.ndarray  # int64[4] player codes
    worlds: int
    max_deals: int
    plays: bool
    calls: bool


def plan_matches(*, rules, players, bidders, seed, worlds, bidder_options, max_deals, plays, calls) -> MatchPlan:
    """Check ``simulate_matches``' arguments (a clear error names the first bad one) into a plan."""
    rules = Rules.coerce(rules)
    seed = check_seed(seed)
    if bidders is None:
        raise ValueError("simulate_matches needs bidders= (every deal of a match starts with an auction)")
    bidder_array = np.array(bidder_codes(bidders), dtype=np.int64)
    bid_ints, bid_weights = bidder_params(rules, bidder_options, bidder_array)
    player_array = np.array(player_codes(players), dtype=np.int64)
    worlds = check_int(worlds, "worlds", 1, MAX_WORLDS)
    max_deals = check_int(max_deals, "max_deals", 1, DEAL_ID_STRIDE)
    plays, calls = check_bool(plays, "plays"), check_bool(calls, "calls")
    return MatchPlan(rules, seed, bidder_array, bid_ints, bid_weights, player_array, worlds, max_deals, plays, calls)


def run_matches(plan: MatchPlan, start: int, n: int, progress: Progress | None = None) -> list[pd.DataFrame]:
    """Matches ``start .. start+n-1`` of ``plan``: ``[matches, deals]``, then the plays and calls
    frames when the plan asks for them."""
    parts = list(match_blocks(plan, start, n, progress))
    return join_blocks(parts, range(len(parts[0])))


def match_blocks(plan: MatchPlan, start: int, n: int, progress: Progress | None = None):
    """The frames of :func:`run_matches` block by block, each block of matches about half a second of
    work (belot_sim/engine/runs.py)."""
    rules = plan.rules
    args = (rules.match_target, int(rules.is_classic), flags_of(rules), plan.bidders, plan.bid_ints, plan.bid_weights,
            plan.players, plan.worlds, 1 if plan.slow else MATCH_CHUNK)
    cap = min(FIRST_CAP, plan.max_deals)
    threads = numba.get_num_threads()
    first, multiple = (threads, threads) if plan.slow else (FIRST_BLOCK, 1)
    for offset, size in blocks(n, first=first, cap=BLOCK_SLOTS // FIRST_CAP, multiple=multiple, progress=progress):
        ids = np.arange(start + offset, start + offset + size, dtype=np.int64)
        with announce("search-matches" if plan.searching else "matches"):
            frames, cap = _play_block(plan.seed, ids, cap, plan.max_deals, args, plan.plays, plan.calls)
        categorize(frames[1])
        yield frames


def _matches_on_worker(plan: MatchPlan, start: int, n: int, threads: int | None) -> list[pd.DataFrame]:
    with numba_threads(threads if threads is not None else 1):
        return run_matches(plan, start, n)


def _play_block(seed, ids, cap, max_deals, args, plays, calls):
    """The frames of matches ``ids``, and the deal room that sufficed (the next block starts there).

    Matches undecided within ``cap`` deals are played again, alone, with 4x the room (a match
    depends only on its id, so this changes nothing but the work done)."""
    match_out, parts = _run_kernel(seed, ids, np.arange(len(ids)), cap, args, plays)
    pending = np.flatnonzero(match_out[M_WINNER] < 0)
    while len(pending):
        if cap >= max_deals:
            raise RuntimeError(f"match {ids[pending[0]]} (seed {seed}) not decided after {max_deals} deals: "
                               f"raise max_deals= if the match is expected to be that long")
        cap = min(max_deals, 4 * cap)
        again, part = _run_kernel(seed, ids[pending], pending, cap, args, plays)
        match_out[:, pending] = again
        parts.extend(part)
        pending = pending[again[M_WINNER] < 0]
    rows = {name: np.concatenate([p[name] for p in parts], axis=-1 if name in _COLUMN_MAJOR else 0)
            for name in parts[0]}
    if len(parts) > 1:  # replayed matches were appended: back to match order (deals stay in order)
        order = np.argsort(rows["pos"], kind="stable")
        rows = {name: a[..., order] if name in _COLUMN_MAJOR else a[order] for name, a in rows.items()}
    return _frames(ids, match_out, rows, plays, calls, classic=args[1] == 1), cap


_COLUMN_MAJOR = ("small", "hands", "points", "totals", "auction")


def _run_kernel(seed, ids, positions, cap, args, record):
    """One kernel call: ``(match_out, [rows])`` where ``rows`` holds the deals of the decided
    matches only (``pos``: their ``positions`` in the block, ``deal``: number in the match)."""
    target, family, flags, bidders, bid_ints, bid_weights, players, worlds, chunk_size = args
    n = len(ids)
    slots = n * cap
    match_out = np.empty((M_SIZE, n), dtype=np.int64)
    small = np.empty((D_SIZE, slots), dtype=np.int8)
    hands = np.empty((4, slots), dtype=np.uint32)
    points = np.empty((P_SIZE, slots), dtype=np.int16)
    totals = np.empty((MT_SIZE, slots), dtype=np.int32)
    codes = np.zeros((slots, MAX_CALLS), dtype=np.int8)
    auction = np.zeros((AH_SIZE, slots), dtype=np.uint32)
    shape = (slots, 32) if record else (0, 32)
    seats = np.empty(shape, dtype=np.int8)
    cards = np.empty(shape, dtype=np.int8)
    search = search_token() if is_searching(players) else None
    stop = np.zeros(1, dtype=np.int64)
    interruptible(lambda: play_matches(
        np.uint64(seed), ids, cap, chunk_size, target, family, flags, bidders, bid_ints, bid_weights, players, worlds,
        record, match_out, small, hands, points, totals, codes, seats, cards, numba.get_num_threads(), search, auction,
        stop), stop)
    count = np.where(match_out[M_WINNER] >= 0, match_out[M_DEALS], 0)
    keep = (np.arange(cap)[None, :] < count[:, None]).ravel()
    rows = {"small": small[:, keep], "hands": hands[:, keep], "points": points[:, keep], "totals": totals[:, keep],
            "auction": auction[:, keep],
            "codes": codes[keep], "pos": np.repeat(positions, cap)[keep],
            "deal": np.tile(np.arange(cap, dtype=np.int32), n)[keep]}
    if record:
        rows["seats"] = seats[keep]
        rows["cards"] = cards[keep]
    return match_out, [rows]


def _frames(ids, match_out, rows, plays, calls, classic: bool) -> list[pd.DataFrame]:
    """``[matches, deals]`` (+ plays, calls as asked) of one block; ``contract``/``outcome`` still codes."""
    matches = pd.DataFrame({
        "match_id": ids,
        "first_dealer": match_out[M_DEALER].astype(np.int8),
        "winner": match_out[M_WINNER].astype(np.int8),
        "score0": match_out[M_SCORE0].astype(np.int32),
        "score1": match_out[M_SCORE1].astype(np.int32),
        "deals": match_out[M_DEALS].astype(np.int32),
        "target": match_out[M_TARGET].astype(np.int32),
    })
    match_id = ids[rows["pos"]]
    deal_id = match_id * DEAL_ID_STRIDE + rows["deal"]
    small = rows["small"]
    columns = {"match_id": match_id, "deal": rows["deal"]}
    columns.update(deal_columns(deal_id, small, rows["hands"], rows["points"], rows["codes"], rows["auction"],
                                classic=classic))
    for k, name in enumerate(TOTAL_COLUMNS):
        columns[name] = rows["totals"][k]
    frames = [matches, pd.DataFrame(columns, copy=False)]
    if plays:
        frames.append(play_frame(deal_id, rows["seats"], rows["cards"], small[D_OUTCOME] != VOID))  # void: no plays
    if calls:
        frames.append(call_frame(deal_id, rows["codes"], small[D_CALLS], small[D_DEALER]))
    return frames
