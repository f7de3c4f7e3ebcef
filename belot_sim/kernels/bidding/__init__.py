"""The bidders that run in the auction: random (:mod:`.random_bidder`) and Monte Carlo (:mod:`.mc`), the
dispatch of every bidder by code (:mod:`.choose`), a bidder's view of the auction (:mod:`.position`)
and the auction loop (:mod:`.auction_loop`).  What a bidder calls with given cards (the heuristic, the
atlas bidder) is a model below the solver: :mod:`belot_sim.kernels.bid_models`."""
