"""Deals, matches and duplicate tournaments played by the kernels, into DataFrames: :func:`simulate`
(:mod:`.deals`), :func:`simulate_matches` (:mod:`.matches`), :func:`tournament` (:mod:`.tournament`),
:func:`match_tournament` (:mod:`.match_tournament`) and :func:`simulate_dask` (:mod:`.dask`); the frames'
``.belot`` accessor (:mod:`.accessor`) and their pictures (:mod:`.pictures`, :func:`write_svg`)."""

from . import accessor  # noqa: F401  (registers the frames' .belot accessor)
from .dask import simulate_dask
from .deals import Simulation, simulate
from .match_tournament import MatchTournament, format_match_tournament, match_tournament
from .matches import simulate_matches
from .pictures import write_svg
from .tournament import Tournament, format_tournament, tournament

__all__ = ["simulate", "Simulation", "simulate_matches", "tournament", "Tournament", "format_tournament",
           "match_tournament", "MatchTournament", "format_match_tournament", "simulate_dask", "write_svg"]
