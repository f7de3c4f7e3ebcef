"""Rule primitives on card masks: bits, random streams, tables, state layouts, legal play,
declarations, scoring, dealing and the auction's rules (``docs/rules.md``); mlp, the forward pass of the
learned players' and bidder's small networks."""
