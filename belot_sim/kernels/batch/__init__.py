"""Many deals at once: a whole deal from a pack (:mod:`.deal`), batch rollouts (:mod:`.rollout`),
matches (:mod:`.match`), bid-estimate layouts (:mod:`.estimate`) and perft counts (:mod:`.perft`)."""
