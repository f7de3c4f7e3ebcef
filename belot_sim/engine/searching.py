"""What every caller of a searching player shares: the compiled search the kernels are handed, and
the layouts a ``pimc``-like player deals per decision (``worlds=``)."""

from __future__ import annotations

import numpy as np

from .compiling import announce

#: Layouts per decision of the searching players (``worlds=``) unless a call says otherwise.
DEFAULT_WORLDS = 20
#: The most layouts a call may ask for.
MAX_WORLDS = 100_000


def search_token() -> np.ndarray:
    """What the kernels get as ``search`` when a seat searches: the addresses of the compiled search
    (``None`` in its place compiles a kernel without the solver).  Loads the solver on first use."""
    with announce("solver"):
        from ..kernels.solver.api import search_entries

        return search_entries()
