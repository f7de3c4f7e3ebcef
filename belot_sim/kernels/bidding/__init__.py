"""Bidders (:mod:`.random`, :mod:`.heuristic`, :mod:`.mc`), their dispatch by code
(:mod:`.choose`) and the auction loop (:mod:`.auction_loop`)."""
