"""The bidder models: what a bidder calls with given cards — the call codes (:mod:`.codes`), the
heuristic's point count (:mod:`.heuristic`), the atlas bidder's lookup (:mod:`.atlas_bidder`), and
whether a hand is consistent with the calls a model would make (:mod:`.consistent`).  Functions of
the cards and the auction only, below the solver: the ``expert`` player replays them to read an
auction; the bidders that play (``mc``) and the auction loop are in :mod:`..bidding`."""
