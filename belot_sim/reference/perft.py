"""Perft: count legal play sequences from a deal state (as python-chess does for chess).

Later engines must reproduce these counts from the same positions.
"""

from __future__ import annotations

from ..game.rules import is_integer
from .deal import DealState


def perft(state: DealState, depth: int) -> int:
    """Number of distinct sequences of ``depth`` cards that can be played from ``state``.

    A sequence that reaches the end of the deal earlier counts once.
    """
    if not is_integer(depth):
        raise TypeError(f"depth must be an integer >= 0, got {depth!r}")
    if depth < 0:
        raise ValueError(f"depth must be an integer >= 0, got {depth!r}")
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for card in state.legal_actions():
        state.play(card)
        total += perft(state, depth - 1)
        state.undo()
    return total


def perft_divide(state: DealState, depth: int) -> dict[int, int]:
    """Perft per first card: ``{card: count}`` (handy to find where two engines disagree)."""
    counts = {}
    for card in state.legal_actions():
        state.play(card)
        counts[card] = perft(state, depth - 1)
        state.undo()
    return counts
