"""Card players: what a seat may know (:mod:`.view`, :mod:`.knowledge`), the judging players
(:mod:`.tactics`, :mod:`.judge`), their dispatch by code (:mod:`.judging`), the searching
players ``dd`` and ``pimc`` (:mod:`.dd_player`, :mod:`.pimc`, :mod:`.all_dd`), the one dispatch of every player the
play loop and the bots share (:mod:`.decide`), a decision at a recorded position (:mod:`.position`)
and the values of every card over sampled layouts (:mod:`.worlds`)."""
