"""Rule primitives on card masks: bits, random streams, tables, state layouts, legal play,
declarations, scoring, dealing and the auction's rules (``docs/rules.md``)."""
