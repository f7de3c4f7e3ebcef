"""Progress bars for long runs: done / total, rate and time left (``tqdm.auto``: a widget in a Jupyter
notebook, a bar on stderr in a terminal)."""

from __future__ import annotations

import sys

from tqdm.auto import tqdm

#: Totals from this size on are shown in k / M units.
SCALED = 100_000


class Progress:
    """A bar ``label: percent | done/total [elapsed<left, rate]`` on stderr while the block runs,
    silent unless ``shown``.  Counts go up with :meth:`advance`."""

    def __init__(self, shown: bool, label: str, total: int, unit: str, done: int = 0):
        self.shown = bool(shown)
        # counts in k/M only where they are large (small counts stay exact: "23/23"); ``done``:
        # already done before this run (a resumed dataset), left out of the rate
        self._bar = tqdm(total=total, initial=done, desc=label, unit=f" {unit}", unit_scale=total >= SCALED,
                         file=sys.stderr, disable=not self.shown, dynamic_ncols=True, mininterval=0.5, smoothing=0.1)

    def advance(self, count: int) -> None:
        self._bar.update(count)

    def close(self) -> None:
        self._bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
