"""Card players: what a seat may know (:mod:`.view`, :mod:`.knowledge`), the judging players
(:mod:`.tactics`, :mod:`.judge`), their dispatch by code (:mod:`.dispatch`) and the searching
players ``dd`` and ``pimc`` (:mod:`.search`, :mod:`.all_dd`)."""
