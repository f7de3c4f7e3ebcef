"""Numba kernels: arrays and scalars in, arrays and scalars out; never pandas.

Layers, each importing only the ones above it:

* :mod:`.core` — rule primitives: bits, random streams, tables, layouts of the flat state
  arrays, legal play, declarations, scoring, dealing, the auction's rules;
* :mod:`.solver` — the exact double-dummy search;
* :mod:`.players` — card players (the public view, knowledge, tactics, the searching players, the
  per-seat dispatch, decisions at a recorded position);
* :mod:`.play_loop` — one deal's play;
* :mod:`.bidding` — the bidders and the auction loop;
* :mod:`.batch` — many deals, matches, bid layouts and perft counts at once.
"""
