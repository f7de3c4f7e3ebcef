"""One position at a time: bots that play or bid as the kernels do (:mod:`.bots`), the analysis of
every legal card (:mod:`.analysis`), exact double-dummy values (:mod:`.solve`)."""

from .analysis import Analysis, analyze
from .bots import Bot
from .solve import solve, solve_moves, solve_position, solve_state

__all__ = ["Analysis", "Bot", "analyze", "solve", "solve_moves", "solve_position", "solve_state"]
