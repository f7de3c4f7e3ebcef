"""Every public path of 2210215 (2026-12-07, before the package was grouped into rooms) still
imports: the names of ``belot_sim`` and of its public modules, and every module path of that commit
(a moved one with a DeprecationWarning naming its new path, as the same module object)."""

from __future__ import annotations

import importlib
import sys
import warnings

import pytest

import belot_sim as bs
from belot_sim._moved import MOVED

#: ``belot_sim.__all__`` at 2210215.
PUBLIC_NAMES = [
    "format_card", "format_cards", "parse_card", "parse_cards", "IllegalActionError", "DatasetMismatchError",
    "BULGARIAN", "CLASSIC", "BRIDGE_BELOT_2001", "Contract", "Rules", "DealScore", "MatchProgress", "score_deal",
    "simulate", "simulate_matches", "simulate_to_parquet", "tournament", "format_tournament",
    "simulate_matches_to_parquet", "read_parquet", "simulate_dask", "bid_tables", "warmup",
    "solve", "solve_moves", "solve_position", "solve_state",
    "BidEstimate", "bid_table", "estimate_bid", "format_bid_table", "wilson_interval", "bid_atlas",
    "calibration", "Calibration", "match_tournament", "format_match_tournament",
    "PLAYERS", "BIDDERS", "Bot", "analyze", "__version__",
]
#: The public modules the README names, and names users take from them.
PUBLIC_MODULES = {
    "belot_sim.env": ["env", "raw_env", "OBSERVATION", "N_ACTIONS"],
    "belot_sim.options": ["BIDDER_OPTIONS"],
    "belot_sim.reference": ["DealState", "FullDealState", "MatchState", "AuctionState", "perft", "perft_divide",
                            "legal_cards", "trick_winner", "state_from_text"],
    "belot_sim.cli": ["main"],
}
#: Every module of 2210215.
MODULES_2210215 = [
    'belot_sim', 'belot_sim._cache', 'belot_sim._version', 'belot_sim.analysis', 'belot_sim.atlas',
    'belot_sim.bots', 'belot_sim.calibration', 'belot_sim.cards', 'belot_sim.checks', 'belot_sim.cli',
    'belot_sim.cli.analyze', 'belot_sim.cli.bid', 'belot_sim.cli.common', 'belot_sim.cli.simulate',
    'belot_sim.cli.tournament', 'belot_sim.cli.warmup', 'belot_sim.cluster', 'belot_sim.compiling',
    'belot_sim.conditional', 'belot_sim.datasets', 'belot_sim.env', 'belot_sim.errors', 'belot_sim.estimate',
    'belot_sim.frames', 'belot_sim.io', 'belot_sim.kernels', 'belot_sim.kernels.batch',
    'belot_sim.kernels.batch.atlas', 'belot_sim.kernels.batch.deal', 'belot_sim.kernels.batch.estimate',
    'belot_sim.kernels.batch.match', 'belot_sim.kernels.batch.perft', 'belot_sim.kernels.batch.rollout',
    'belot_sim.kernels.bidding', 'belot_sim.kernels.bidding.atlas_bidder',
    'belot_sim.kernels.bidding.auction_loop', 'belot_sim.kernels.bidding.choose',
    'belot_sim.kernels.bidding.codes', 'belot_sim.kernels.bidding.consistent',
    'belot_sim.kernels.bidding.heuristic', 'belot_sim.kernels.bidding.mc', 'belot_sim.kernels.bidding.position',
    'belot_sim.kernels.bidding.random_bidder', 'belot_sim.kernels.core', 'belot_sim.kernels.core.auction_rules',
    'belot_sim.kernels.core.bits', 'belot_sim.kernels.core.dealing', 'belot_sim.kernels.core.declarations',
    'belot_sim.kernels.core.layouts', 'belot_sim.kernels.core.options', 'belot_sim.kernels.core.play',
    'belot_sim.kernels.core.rng', 'belot_sim.kernels.core.scoring', 'belot_sim.kernels.core.tables',
    'belot_sim.kernels.core.work', 'belot_sim.kernels.play_loop', 'belot_sim.kernels.policies',
    'belot_sim.kernels.policies.all_dd', 'belot_sim.kernels.policies.decide',
    'belot_sim.kernels.policies.dispatch', 'belot_sim.kernels.policies.inference',
    'belot_sim.kernels.policies.judge', 'belot_sim.kernels.policies.knowledge', 'belot_sim.kernels.policies.pimc',
    'belot_sim.kernels.policies.position', 'belot_sim.kernels.policies.sampling',
    'belot_sim.kernels.policies.scratch', 'belot_sim.kernels.policies.search',
    'belot_sim.kernels.policies.tactics', 'belot_sim.kernels.policies.view', 'belot_sim.kernels.policies.worlds',
    'belot_sim.kernels.solver', 'belot_sim.kernels.solver.api', 'belot_sim.kernels.solver.bounds',
    'belot_sim.kernels.solver.context', 'belot_sim.kernels.solver.endgame', 'belot_sim.kernels.solver.ordering',
    'belot_sim.kernels.solver.search', 'belot_sim.kernels.solver.table', 'belot_sim.manifest',
    'belot_sim.match_tournament', 'belot_sim.matches', 'belot_sim.notation', 'belot_sim.options',
    'belot_sim.parts', 'belot_sim.progress', 'belot_sim.reference', 'belot_sim.reference.auction',
    'belot_sim.reference.deal', 'belot_sim.reference.dealing', 'belot_sim.reference.declarations',
    'belot_sim.reference.game', 'belot_sim.reference.match', 'belot_sim.reference.perft',
    'belot_sim.reference.play', 'belot_sim.reference.players', 'belot_sim.reference.unknown',
    'belot_sim.registry', 'belot_sim.rules', 'belot_sim.runs', 'belot_sim.scoring', 'belot_sim.simulation',
    'belot_sim.solve', 'belot_sim.stats', 'belot_sim.storage', 'belot_sim.tournament', 'belot_sim.warmup',
]


def test_every_public_name_of_2210215_is_there():
    assert [name for name in PUBLIC_NAMES if not hasattr(bs, name)] == []


@pytest.mark.parametrize("module", sorted(PUBLIC_MODULES))
def test_the_public_modules_keep_their_names(module):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a public module imports without a deprecation
        imported = importlib.import_module(module)
    assert [name for name in PUBLIC_MODULES[module] if not hasattr(imported, name)] == []


@pytest.mark.parametrize("module", MODULES_2210215)
def test_every_module_path_of_2210215_imports(module):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        importlib.import_module(module)


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_moved_module_is_its_new_module_with_a_deprecation_warning(old):
    sys.modules.pop(old, None)  # imported by an earlier test: the warning comes with the first import
    with pytest.warns(DeprecationWarning, match=f"{old} is now {MOVED[old]}"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old])
    assert module.__spec__.name == MOVED[old] and module.__name__ == MOVED[old]  # its own spec, kept
    parent, _, leaf = old.rpartition(".")
    attribute = getattr(importlib.import_module(parent), leaf)
    assert attribute is module or attribute is getattr(bs, leaf)  # bs.solve stays the function


def test_importing_an_old_module_path_leaves_the_functions_of_the_same_name():
    for name in ("solve", "tournament", "match_tournament", "calibration"):
        sys.modules.pop(f"belot_sim.{name}", None)
        with pytest.warns(DeprecationWarning):
            importlib.import_module(f"belot_sim.{name}")
        assert callable(getattr(bs, name)) and not isinstance(getattr(bs, name), type(sys)), name


def test_the_old_simulation_and_datasets_paths_give_what_users_called_there():
    from belot_sim.datasets import read_parquet, simulate_matches_to_parquet, simulate_to_parquet
    from belot_sim.simulation import simulate, simulate_dask, simulate_matches

    assert (simulate, simulate_matches, simulate_dask) == (bs.simulate, bs.simulate_matches, bs.simulate_dask)
    assert (read_parquet, simulate_to_parquet, simulate_matches_to_parquet) == (
        bs.read_parquet, bs.simulate_to_parquet, bs.simulate_matches_to_parquet)


@pytest.mark.parametrize("old, new", [("POLICY_CODES", "PLAYER_CODES"), ("policy_codes", "player_codes")])
def test_a_former_registry_name_is_its_new_one_with_a_deprecation_warning(old, new):
    from belot_sim.engine import registry

    with pytest.warns(DeprecationWarning, match=f"{old} is now {new}"):
        assert getattr(registry, old) is getattr(registry, new)
    with pytest.raises(AttributeError, match="no attribute 'policy'"):
        registry.policy  # noqa: B018  (no other name answers)


def test_a_moved_package_keeps_its_spec_for_reload_and_resources():
    import importlib.resources

    sys.modules.pop("belot_sim.kernels.policies", None)
    with pytest.warns(DeprecationWarning):
        old = importlib.import_module("belot_sim.kernels.policies")
    assert old.__spec__.name == "belot_sim.kernels.players"
    assert importlib.resources.files(old).joinpath("judging.py").is_file()
    sys.modules.pop("belot_sim.stats", None)
    with pytest.warns(DeprecationWarning):
        stats = importlib.import_module("belot_sim.stats")  # pure Python: reloading it disturbs no kernel
    assert importlib.reload(stats).__name__ == "belot_sim.engine.stats"
