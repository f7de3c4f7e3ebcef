"""belot_sim — high-throughput simulation of Belot (Bulgarian Bridge-Belote and classic Belote).

>>> import belot_sim as bs
>>> bs.format_cards(bs.parse_cards("JH 9H TS"))
'TS 9H JH'
>>> bs.Cards("JH 9H TS"), bs.Card("JH") == 20
(Cards('TS 9H JH'), True)
>>> str(bs.Contract.from_str("at"))
'AT'
>>> bs.score_deal("H", 106, 56)
DealScore(outcome='made', bidding=10, defenders=6, hanging=0)
"""

from . import _cache  # noqa: F401  (first: sets Numba's cache directory before any kernel exists)
from . import _moved
from ._version import __version__
from .datasets import read_parquet, simulate_matches_to_parquet, simulate_to_parquet
from .engine.registry import BIDDERS, PLAYERS
from .engine.stats import wilson_interval
from .errors import DatasetMismatchError, DatasetWriteError, IllegalActionError
from .estimates import (BidEstimate, BidTable, Calibration, bid_atlas, bid_table, bid_tables, calibration,
                        estimate_bid, format_bid_table)
from .game.card_types import Card, Cards
from .game.cards import format_card, format_cards, parse_card, parse_cards
from .game.rules import BRIDGE_BELOT_2001, BULGARIAN, CLASSIC, Contract, Rules
from .game.scoring import DealScore, MatchProgress, score_deal
from .positions import Analysis, Bot, analyze, solve, solve_moves, solve_position, solve_state
from .reference import AuctionState, DealState, FullDealState, MatchState
from .simulation import (MatchTournament, Simulation, Tournament, format_match_tournament, format_tournament,
                         match_tournament, simulate, simulate_dask, simulate_matches, tournament, write_svg)
from .warmup import warmup

_moved.install()  # the module paths of the flat layout, for one release (belot_sim/_moved.py)

__all__ = [
    "format_card", "format_cards", "parse_card", "parse_cards", "IllegalActionError", "DatasetMismatchError",
    "DatasetWriteError",
    "BULGARIAN", "CLASSIC", "BRIDGE_BELOT_2001", "Contract", "Rules", "DealScore", "MatchProgress", "score_deal",
    "simulate", "simulate_matches", "simulate_to_parquet", "tournament", "format_tournament",
    "simulate_matches_to_parquet", "read_parquet", "simulate_dask", "bid_tables", "warmup",
    "solve", "solve_moves", "solve_position", "solve_state",
    "BidEstimate", "bid_table", "estimate_bid", "format_bid_table", "wilson_interval", "bid_atlas",
    "calibration", "Calibration", "match_tournament", "format_match_tournament",
    "Simulation", "Tournament", "MatchTournament", "BidTable", "Analysis",
    "PLAYERS", "BIDDERS", "Bot", "analyze", "__version__",
    "Card", "Cards", "DealState", "FullDealState", "MatchState", "AuctionState", "write_svg",
]
