"""The bidders' options (``bidder_options=``): a public path, kept; the module is
:mod:`belot_sim.engine.bidder_options`.

>>> from belot_sim.options import BIDDER_OPTIONS
>>> "pass_prob" in BIDDER_OPTIONS and "mc_samples" in BIDDER_OPTIONS
True
"""

from .engine.bidder_options import BIDDER_OPTIONS, bidder_options_of, bidder_params

__all__ = ["BIDDER_OPTIONS", "bidder_options_of", "bidder_params"]
