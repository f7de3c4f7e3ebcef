"""Confidence intervals the summaries report (95 % by default)."""

from __future__ import annotations

import math

import numpy as np

#: The two-sided 95 % quantile of the normal distribution.
Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Compute the Wilson score interval of a binomial proportion (95% by default).

    The interval always holds the estimate ``successes / n`` (rounding would otherwise put the low
    end of ``0 / n`` a hair above 0, or the high end of ``n / n`` a hair below 1), within [0, 1].

    Parameters
    ----------
    successes : int
        The successes, 0..``n``.
    n : int
        The trials; NaN bounds for ``n <= 0``.
    z : float, default ``Z95``
        The normal quantile of the interval's confidence (``Z95`` = 1.959963984540054: 95%).

    Returns
    -------
    tuple of (float, float)
        ``(low, high)``.

    Raises
    ------
    ValueError
        If ``n > 0`` and ``successes`` is not within 0..``n``.

    Examples
    --------
    >>> wilson_interval(0, 10)[0], round(wilson_interval(5, 10)[1], 3), wilson_interval(10, 10)[1]
    (0.0, 0.763, 1.0)
    """
    if n <= 0:
        return (math.nan, math.nan)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n={n}, got {successes}")
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p)))


def mean_interval(values: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean of ``values`` with its normal ``z`` interval (NaN bounds for
    fewer than two values).

    >>> mean_interval(np.array([1.0, 3.0]))[0]
    2.0
    """
    count = len(values)
    mean = float(values.mean()) if count else math.nan
    if count < 2:
        return mean, math.nan, math.nan
    half = z * float(values.std(ddof=1)) / math.sqrt(count)
    return mean, mean - half, mean + half


def sums_interval(count: int, total: int, squares: int, scale: int = 1, z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)`` as :func:`mean_interval` gives them, of ``count`` values ``x / scale``
    from the exact integer sums of the ``x`` and of their squares (Python ints: sums of any blocks
    of a run add up exactly, and only the last division rounds).

    >>> sums_interval(2, 1 + 3, 1 + 9)[0]
    2.0
    """
    mean = total / (scale * count)
    if count < 2:
        return mean, math.nan, math.nan
    variance = (count * squares - total * total) / (scale * scale * count * (count - 1))  # exact until here
    half = z * math.sqrt(variance) / math.sqrt(count)
    return mean, mean - half, mean + half


def format_interval(low: float, high: float, spec: str = "+.2f") -> str:
    """``[low, high]`` written with the format ``spec``, or ``n/a`` where the interval is undefined
    (NaN bounds: it needs at least two values).

    >>> format_interval(-1.5, 2.0), format_interval(math.nan, math.nan)
    ('[-1.50, +2.00]', 'n/a')
    """
    if math.isnan(low) or math.isnan(high):
        return "n/a"
    return f"[{low:{spec}}, {high:{spec}}]"


def side_names(a: str, b: str) -> tuple[str, str]:
    """How a printed table names the two sides of a duplicate comparison: their names, marked
    ``(A)`` and ``(B)`` when they are the same (``hard`` against ``hard``).

    >>> side_names("hard", "normal"), side_names("hard", "hard")
    (('hard', 'normal'), ('hard (A)', 'hard (B)'))
    """
    return (a, b) if a != b else (f"{a} (A)", f"{b} (B)")


#: The note under a printed table with an undefined interval.
NA_NOTE = "n/a: an interval needs at least two {what}"


def duplicate_lines(table, n: int | None, a: str, b: str, what: str, more_heading: str = "",
                    more=lambda row: "") -> list[str]:
    """The lines both duplicate tables print (``tournament``'s and ``match_tournament``'s): the title with
    ``n`` duplicate ``what`` (``"deals"``, ``"matches"``; ``?`` when ``n`` is unknown), the heading and one
    line per contract with its edge and 95 % interval, each line followed by ``more_heading`` and
    ``more(row)`` (the table's own columns)."""
    lines = [f"{a} vs {b}: {'?' if n is None else f'{n:,}'} duplicate {what} (each played twice, seats swapped)",
             f"{'contract':>8} {'deals':>8} {'edge':>8} {'95% CI':>18}" + more_heading]
    for contract, row in table.iterrows():
        lines.append(f"{contract:>8} {int(row.deals):>8,} {row.mean_edge:>+8.2f} "
                     f"{format_interval(row.ci_low, row.ci_high):>18}" + more(row))
    return lines
