"""The pandas layer: column names, dtypes, and DataFrames built from the kernels' output arrays.

Every frame-producing API (``simulate``, ``simulate_matches``, ``estimate_bid``…) builds its
frames here, so the columns and dtypes are the same everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from ..game.rules import CONTRACT_CODES
from ..kernels.core.auction_rules import CALL_NAMES, MAX_CALLS
from ..kernels.core.layouts import AH_HAND, AH_TURNED, DEAL_AUCTION, DEAL_POINTS, DEAL_SMALL
from ..kernels.core.scoring import OUTCOME_NAMES

#: The result columns of a deal (after its cards and contract).
RESULT_COLUMNS = ("trick_points0", "trick_points1", "declared0", "declared1", "belot0", "belot1", "valat",
                  "raw0", "raw1", "outcome", "score0", "score1", "hanging")
#: One row per deal (``simulate``); with an auction the ``auction`` column follows.
DEAL_COLUMNS = ("deal_id", "dealer", "contract", "declarer", "multiplier", "hand0", "hand1", "hand2", "hand3",
                *RESULT_COLUMNS)
#: With an auction, after ``auction``: the 5-card hands it was held on (classic: then the turned card,
#: ``turned_card``) and the bidding team (0/1, -1 for a void deal).
AUCTION_HAND_COLUMNS = ("auction_hand0", "auction_hand1", "auction_hand2", "auction_hand3")
#: One row per call (``calls=True``).
CALL_COLUMNS = ("deal_id", "index", "seat", "call")
#: One row per card played (``plays=True``).
PLAY_COLUMNS = ("deal_id", "trick", "pos", "seat", "card")
#: One letter per call in the ``auction`` column: pass, the six contracts, double, redouble.
CALL_LETTERS = "PCDHSNAXR"
CALL_DTYPE = pd.CategoricalDtype(list(CALL_NAMES))
CONTRACT_DTYPE = pd.CategoricalDtype(list(CONTRACT_CODES))
OUTCOME_DTYPE = pd.CategoricalDtype(list(OUTCOME_NAMES))
#: ``points`` output rows → column names (order of :data:`~belot_sim.kernels.core.layouts.DEAL_POINTS`).
POINT_COLUMNS = tuple(s.name.lower() for s in DEAL_POINTS.slots)
_SMALL = {s.name: s.offset for s in DEAL_SMALL.slots}


def deal_columns(deal_id, small, hands, points, call_codes=None, auction=None, classic: bool = False) -> dict:
    """The deal columns, in order, from the kernel outputs (``small``: rows of ``DEAL_SMALL``,
    ``points``: rows of ``DEAL_POINTS``); with ``call_codes`` also ``auction``, with ``auction`` (rows
    of ``DEAL_AUCTION``) also :func:`auction_columns`.  ``contract`` and ``outcome`` stay codes (see
    :func:`categorize`)."""
    columns = {"deal_id": deal_id, "dealer": small[_SMALL["DEALER"]], "contract": small[_SMALL["CONTRACT"]],
               "declarer": small[_SMALL["DECLARER"]], "multiplier": small[_SMALL["MULTIPLIER"]]}
    for s in range(4):
        columns[f"hand{s}"] = hands[s]
    for k, name in enumerate(POINT_COLUMNS):
        columns[name] = points[k]
    columns["valat"] = small[_SMALL["VALAT"]]
    columns["outcome"] = small[_SMALL["OUTCOME"]]
    names = DEAL_COLUMNS if call_codes is None else (*DEAL_COLUMNS, "auction")
    if call_codes is not None:
        columns["auction"] = auction_text(call_codes, small[_SMALL["CALLS"]])
    out = {name: columns[name] for name in names}
    if auction is not None:
        out.update(auction_columns(auction, small[_SMALL["DECLARER"]], classic))
    return out


def auction_columns(auction, declarer, classic: bool) -> dict:
    """``auction_hand0..3`` (uint32 masks), in classic ``turned_card`` (int8 index), and
    ``bidding_team``: the declarer's team, -1 for a void deal (never ``declarer % 2``, which would
    put void deals in team 1)."""
    columns = {name: auction[AH_HAND + s] for s, name in enumerate(AUCTION_HAND_COLUMNS)}
    if classic:
        columns["turned_card"] = auction[AH_TURNED].astype(np.int8)
    columns["bidding_team"] = bidding_team(declarer)
    return columns


def bidding_team(declarer) -> np.ndarray:
    """The team of each declarer, -1 where there is none (a void deal): int8."""
    declarer = np.asarray(declarer)
    return np.where(declarer >= 0, declarer & 1, -1).astype(np.int8)


def empty_deals(auction: bool, classic: bool = False) -> pd.DataFrame:
    """A deals frame without rows: the columns and dtypes of ``simulate``'s (``auction`` with bidders,
    ``classic`` for the classic family's ``turned_card``)."""
    small = np.empty((DEAL_SMALL.size, 0), dtype=np.int8)
    points = np.empty((DEAL_POINTS.size, 0), dtype=np.int16)
    calls = np.zeros((0, MAX_CALLS), dtype=np.int8) if auction else None
    cards = np.zeros((DEAL_AUCTION.size, 0), dtype=np.uint32) if auction else None
    frame = pd.DataFrame(deal_columns(np.empty(0, dtype=np.int64), small, np.empty((4, 0), dtype=np.uint32), points,
                                      calls, cards, classic))
    categorize(frame)
    return frame


def categorize(deals: pd.DataFrame) -> None:
    """Turn the ``contract`` and ``outcome`` codes of a deal frame into categoricals, in place."""
    deals["contract"] = pd.Categorical.from_codes(deals["contract"].to_numpy(), dtype=CONTRACT_DTYPE)
    deals["outcome"] = pd.Categorical.from_codes(deals["outcome"].to_numpy(), dtype=OUTCOME_DTYPE)


def auction_text(codes: np.ndarray, n_calls: np.ndarray) -> np.ndarray:
    """Each deal's calls as one string of :data:`CALL_LETTERS`."""
    width = max(int(n_calls.max(initial=0)), 1)
    letters = np.frombuffer(CALL_LETTERS.encode(), dtype=np.uint8)[codes[:, :width]]
    letters[np.arange(width)[None, :] >= n_calls[:, None]] = 0  # NUL bytes end a shorter auction
    return np.ascontiguousarray(letters).view(f"S{width}").ravel().astype(str)


def play_frame(deal_id, play_seat, play_card, played=None) -> pd.DataFrame:
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


def call_frame(deal_id, codes, n_calls, dealer) -> pd.DataFrame:
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


def join_arrays(blocks: list) -> list[np.ndarray]:
    """Array ``k`` of every block (a tuple of kernel outputs, one column per row), joined along the
    rows, for every ``k``."""
    return [np.concatenate(parts, axis=1) if len(parts) > 1 else parts[0] for parts in zip(*blocks)]


def join_blocks(blocks: list, wanted: Iterable[int]) -> list[pd.DataFrame]:
    """Frame ``k`` of every block, concatenated, for each ``k`` in ``wanted``."""
    return [pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
            for parts in ([b[k] for b in blocks] for k in wanted)]
