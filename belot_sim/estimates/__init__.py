""""With these cards, which contract should I bid, and how likely is it to make?": estimates and bid
tables (:mod:`.bid`, their result :mod:`.tables`; after an auction, layouts consistent with its
calls: :mod:`.conditional`), the bid atlas (:mod:`.atlas`, computed by the job of
:mod:`.atlas_build`) and the estimates' calibration on played deals (:mod:`.calibration`)."""

from .atlas import bid_atlas
from .bid import BidEstimate, bid_table, bid_tables, estimate_bid
from .tables import BidTable, format_bid_table
from .calibration import Calibration, calibration

__all__ = ["BidEstimate", "BidTable", "bid_table", "bid_tables", "estimate_bid", "format_bid_table", "bid_atlas",
           "Calibration", "calibration"]
