"""Argument types of the benchmarks: a count that is not a positive integer is a usage error naming it,
before any warm-up (not an IndexError or a division by zero at the end)."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def at_least(low: int, words: str) -> Callable[[str], int]:
    """An argparse type: an integer >= ``low``, else an error saying it must be ``words``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {words}, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be {words}, got {value}")
        return value

    return parse


#: Deals, layouts, repeats, rounds.
positive_int = at_least(1, "a positive integer")
#: 0: the optional part is not run.
count_or_zero = at_least(0, "an integer >= 0")
