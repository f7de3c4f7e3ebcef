"""Module paths of earlier releases, kept for one release: importing one gives the module under its
new name (the same object) with a ``DeprecationWarning`` naming it (docs/layout.md has the rooms)."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings
from pathlib import Path

#: Each module of the flat layout (release 0.1.0 up to 2026-12-07) and where it lives now.  The old
#: ``belot_sim.simulation`` and ``belot_sim.datasets`` are the packages of their rooms now, which
#: export what users called there; ``belot_sim.options``, ``belot_sim.env`` and ``belot_sim.reference``
#: did not move.
MOVED = {f"belot_sim.{old}": f"belot_sim.{new}" for old, new in {
    "cards": "game.cards", "rules": "game.rules", "scoring": "game.scoring", "notation": "game.notation",
    "registry": "engine.registry", "checks": "engine.checks", "frames": "engine.frames",
    "progress": "engine.progress", "runs": "engine.runs", "compiling": "engine.compiling", "stats": "engine.stats",
    "io": "engine.io", "matches": "simulation.matches", "tournament": "simulation.tournament",
    "match_tournament": "simulation.match_tournament", "cluster": "simulation.dask", "bots": "positions.bots",
    "analysis": "positions.analysis", "solve": "positions.solve", "estimate": "estimates.bid",
    "conditional": "estimates.conditional", "atlas": "estimates.atlas", "calibration": "estimates.calibration",
    "manifest": "datasets.manifest", "parts": "datasets.parts", "storage": "datasets.storage",
    "kernels.bidding.codes": "kernels.bid_models.codes", "kernels.bidding.heuristic": "kernels.bid_models.heuristic",
    "kernels.bidding.atlas_bidder": "kernels.bid_models.atlas_bidder",
    "kernels.bidding.consistent": "kernels.bid_models.consistent",
    "kernels.policies.search": "kernels.players.dd_player",
    "kernels.policies.dispatch": "kernels.players.judging", "kernels.core.options": "kernels.core.rule_flags",
    "kernels.policies": "kernels.players",
}.items()}
#: The card players' kernels were ``kernels/policies`` up to 2026-12-08 (one name per concept: player): every
#: module of the folder, listed from the folder itself, so that no old name of a module can reach the path
#: finder (which would load the file a second time, as a second copy of its kernels).
MOVED.update({f"belot_sim.kernels.policies.{path.stem}": f"belot_sim.kernels.players.{path.stem}"
              for path in sorted((Path(__file__).parent / "kernels" / "players").glob("*.py"))
              if path.stem != "__init__"})


class _Moved(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path and loads it as the module at its new one."""

    def find_spec(self, name, path=None, target=None):
        return importlib.util.spec_from_loader(name, self) if name in MOVED else None

    def create_module(self, spec):
        warnings.warn(f"{spec.name} is now {MOVED[spec.name]}: import it from there (the old path goes in the "
                      "next release)", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(MOVED[spec.name])
        spec.loader_state = module.__spec__  # the import system now sets the old spec on it: exec_module undoes it
        return module

    def exec_module(self, module):
        # The module at the new path is already executed; it keeps its own spec, so that reload, relative imports
        # and importlib.resources go on seeing its real name and location.
        module.__spec__ = module.__spec__.loader_state


class _FrontDoor(types.ModuleType):
    """``belot_sim`` itself: importing an old path such as ``belot_sim.solve`` makes Python set the
    package's attribute ``solve`` to that module, which would hide the function ``bs.solve``; the
    functions of the front door keep their names (the docs' "Customizing module attribute access")."""

    def __setattr__(self, name, value):
        if isinstance(value, types.ModuleType) and callable(getattr(self, name, None)):
            return
        super().__setattr__(name, value)


def install() -> None:
    """The old paths importable; ``belot_sim``'s functions never replaced by a module of the same name."""
    if not any(isinstance(finder, _Moved) for finder in sys.meta_path):
        # First: a moved package's old name must not let the path finder load its new folder's files a
        # second time under old names (two copies of every kernel).
        sys.meta_path.insert(0, _Moved())
    sys.modules[__package__].__class__ = _FrontDoor  # the package under any name (a baseline copy too)
