"""Progress on stderr for long runs."""

from __future__ import annotations

import sys


class Progress:
    """Counts on one stderr line (``label: done/total unit``), ended by a newline when the block
    ends; silent unless ``shown``."""

    def __init__(self, shown: bool, label: str, total: int, unit: str):
        self.shown, self.label, self.total, self.unit = shown, label, total, unit

    def update(self, done: int) -> None:
        if self.shown:
            print(f"\r{self.label}: {done:,}/{self.total:,} {self.unit}", end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.shown:
            print(file=sys.stderr)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
