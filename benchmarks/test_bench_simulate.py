"""pytest-benchmark suite: ``pytest benchmarks/ --benchmark-only`` (not part of the test run)."""

import pytest

from belot_sim.simulation.deals import simulate

N = 200_000


@pytest.fixture(scope="module", autouse=True)
def warm_up():
    simulate(1000, contract="H", plays=True)
    simulate(1000, contract="H")
    simulate(1000, players="hard")


@pytest.mark.parametrize("contract", ["H", "AT", "NT"])
@pytest.mark.parametrize("threads", [1, 2])
def test_simulate_random_play(benchmark, contract, threads):
    deals = benchmark(simulate, N, contract=contract, threads=threads)
    assert len(deals) == N
    benchmark.extra_info["deals_per_second"] = N / benchmark.stats["mean"]


def test_simulate_with_plays(benchmark):
    deals, plays = benchmark(simulate, N, contract="H", plays=True)
    assert len(plays) == 32 * N
    benchmark.extra_info["deals_per_second"] = N / benchmark.stats["mean"]


@pytest.mark.parametrize("player", ["easy", "normal", "hard"])
def test_simulate_players(benchmark, player):
    n = N // 4
    deals = benchmark(simulate, n, players=player, threads=2)
    assert len(deals) == n
    benchmark.extra_info["deals_per_second"] = n / benchmark.stats["mean"]
