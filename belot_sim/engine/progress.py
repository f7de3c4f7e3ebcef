"""Progress for long runs: done / total, rate and time left (``tqdm.auto``): a widget in a Jupyter
notebook, a bar on stderr in a terminal, and when stderr is neither (a log file, a pipe, a batch job)
whole lines, one every :data:`LOG_INTERVAL` seconds and one at the end, instead of a bar redrawn with
carriage returns."""

from __future__ import annotations

import sys

import numpy as np
from tqdm.auto import tqdm

#: Totals from this size on are shown in k / M units.
SCALED = 100_000
#: Seconds between two progress lines when stderr is not a terminal.
LOG_INTERVAL = 30.0
#: Seconds a run whose ``progress`` is ``None`` (the default: "when it is long") works before its bar
#: appears; when stderr is not a terminal the first line waits :data:`LOG_INTERVAL` instead.
AUTO_DELAY = 3.0


def check_progress(progress) -> bool | None:
    """``progress=``: True (a bar from the start), False (none) or None (a bar once the run has taken
    :data:`AUTO_DELAY` seconds: short calls stay silent); a TypeError names anything else."""
    if progress is None or isinstance(progress, bool | np.bool_):
        return None if progress is None else bool(progress)
    raise TypeError(f"progress must be True, False or None (shown when the run is long), got "
                    f"{type(progress).__name__} {progress!r}")


class _Lines:
    """A file for tqdm that writes each refresh of the bar as one line of ``stream`` (no carriage returns)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> None:
        line = text.replace("\r", "").strip()
        if line:
            self._stream.write(line + "\n")

    def flush(self) -> None:
        self._stream.flush()


def _in_notebook() -> bool:
    """Did ``tqdm.auto`` pick the notebook widget (a Jupyter kernel)?"""
    return any(cls.__module__ == "tqdm.notebook" for cls in tqdm.__mro__)


def _writes_lines(stream) -> bool:
    isatty = getattr(stream, "isatty", None)
    return not _in_notebook() and not (callable(isatty) and isatty())


class Progress:
    """A bar ``label: percent | done/total [elapsed<left, rate]`` on stderr while the block runs (whole
    lines when stderr is not a terminal: module docstring): from the start if ``shown`` is True, never
    if False, once the run has lasted :data:`AUTO_DELAY` seconds if None.  Counts go up with
    :meth:`advance`."""

    def __init__(self, shown: bool | None, label: str, total: int, unit: str, done: int = 0):
        shown = check_progress(shown)
        self.shown = shown is not False
        lines = _writes_lines(sys.stderr)
        delay = 0.0 if shown else LOG_INTERVAL if lines else AUTO_DELAY
        # counts in k/M only where they are large (small counts stay exact: "23/23"); ``done``:
        # already done before this run (a resumed dataset), left out of the rate
        self._bar = tqdm(total=total, initial=done, desc=label, unit=f" {unit}", unit_scale=total >= SCALED,
                         file=_Lines(sys.stderr) if lines else sys.stderr, disable=not self.shown,
                         dynamic_ncols=not lines, ncols=100 if lines else None,
                         mininterval=LOG_INTERVAL if lines else 0.5, smoothing=0.1, delay=delay)

    def advance(self, count: int) -> None:
        self._bar.update(count)

    def close(self) -> None:
        self._bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
