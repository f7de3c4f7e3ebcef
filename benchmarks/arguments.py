"""Argument types of the benchmarks: a count that is not a positive integer is a usage error naming it,
before any warm-up (not an IndexError or a division by zero at the end)."""

from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """An integer >= 1 (deals, layouts, repeats, rounds)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def count_or_zero(text: str) -> int:
    """An integer >= 0 (0: the optional part is not run)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {value}")
    return value
