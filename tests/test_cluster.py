"""More than one machine, tested on a real ``distributed.LocalCluster`` of two worker processes:
``simulate_dask`` equals ``simulate`` row for row (and in an aggregate), dataset parts written by the
workers equal ``simulate``, a cluster run resumes, and the long calls with ``client=`` give the tables
they give here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import belot_sim as bs
from belot_sim.datasets import writing as datasets
from belot_sim.datasets.manifest import MANIFEST
from helpers import assert_same_frames

distributed = pytest.importorskip("distributed")  # the test extra installs it: this runs in CI


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def as_dask_text(frame: pd.DataFrame, ddf) -> pd.DataFrame:
    """``frame`` with its text columns in the string dtype Dask gives them."""
    text = [c for c in frame.columns if c in ddf.columns and frame[c].dtype != ddf.dtypes[c]]
    return frame.astype({c: ddf.dtypes[c] for c in text})


def test_the_cluster_has_two_worker_processes(client):
    workers = client.scheduler_info()["workers"]
    assert len(workers) == 2
    assert len({info["pid"] if "pid" in info else info["id"] for info in workers.values()}) == 2
    assert len(set(client.run(os.getpid).values()) | {os.getpid()}) == 3  # two processes besides this one


def test_simulate_dask_is_lazy_with_known_divisions_and_meta():
    ddf = bs.simulate_dask(25_000, partition_size=10_000, start=5, bidders="heuristic", seed=2)
    assert ddf.npartitions == 3 and ddf.known_divisions
    assert ddf.divisions == (5, 10_005, 20_005, 25_004)
    expected = bs.simulate(3, bidders="heuristic")
    assert ddf.index.name == "deal_id"
    assert list(ddf.columns) == [c for c in expected.columns if c != "deal_id"]
    dtypes = expected.drop(columns="deal_id").dtypes.to_dict()
    dtypes["auction"] = ddf.dtypes["auction"]  # text follows Dask's own string setting (dataframe.convert-string)
    assert ddf.dtypes.to_dict() == dtypes


@pytest.mark.parametrize("kwargs", [dict(contract="H", seed=5), dict(bidders="heuristic", players="hard", seed=1)])
def test_simulate_dask_equals_simulate_row_for_row(client, kwargs):
    ddf = bs.simulate_dask(25_000, partition_size=7_000, **kwargs)
    expected = as_dask_text(bs.simulate(25_000, **kwargs), ddf)
    pd.testing.assert_frame_equal(ddf.compute().reset_index(), expected)
    middle = ddf.loc[13_990:14_009].compute().reset_index()  # two partitions, found by the divisions
    pd.testing.assert_frame_equal(middle, expected.iloc[13_990:14_010].reset_index(drop=True))


def test_a_groupby_aggregate_on_the_cluster(client):
    ddf = bs.simulate_dask(40_000, partition_size=10_000, seed=3)
    got = ddf.groupby("contract", observed=True)["raw0"].agg(["mean", "count"]).compute().sort_index()
    deals = bs.simulate(40_000, seed=3)
    expected = deals.groupby("contract", observed=True)["raw0"].agg(["mean", "count"]).sort_index()
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)


def test_workers_write_the_parts_and_a_cluster_run_resumes(client, tmp_path):
    kwargs = dict(seed=7, bidders="heuristic", plays=True, calls=True)
    path = tmp_path / "run"
    bs.simulate_to_parquet(path, 9_000, partition_size=2_000, client=client, **kwargs)
    expected = bs.simulate(9_000, **kwargs)
    assert_same_frames(tuple(bs.read_parquet(path, frame=f) for f in ("deals", "plays", "calls")), expected)
    for k in (1, 4):
        (path / "deals" / datasets.part_name(k)).unlink()
    bs.simulate_to_parquet(path, 9_000, partition_size=2_000, client=client, resume=True, **kwargs)
    assert_same_frames(tuple(bs.read_parquet(path, frame=f) for f in ("deals", "plays", "calls")), expected)
    record = json.loads((path / MANIFEST).read_text())
    del record["parts"]["0"]  # a task that ran to its end after Ctrl-C: its part is there, not listed
    (path / MANIFEST).write_text(json.dumps(record))
    inode = (path / "deals" / datasets.part_name(0)).stat().st_ino
    bs.simulate_to_parquet(path, 9_000, partition_size=2_000, client=client, resume=True, **kwargs)
    assert (path / "deals" / datasets.part_name(0)).stat().st_ino == inode  # kept, not written again
    assert "0" in json.loads((path / MANIFEST).read_text())["parts"]
    matches = tmp_path / "matches"
    bs.simulate_matches_to_parquet(matches, 30, partition_size=8, client=client, seed=2)
    assert_same_frames((bs.read_parquet(matches), bs.read_parquet(matches, frame="deals")),
                       bs.simulate_matches(30, seed=2))


def test_long_calls_with_a_client_give_the_same_tables(client):
    local = bs.tournament("hard", "normal", 3_000, seed=2)
    remote = bs.tournament("hard", "normal", 3_000, seed=2, client=client, partition_size=700)
    pd.testing.assert_frame_equal(remote.table, local.table)
    assert remote.metadata() == local.metadata()
    assert_same_frames(bs.simulate_matches(40, seed=3, client=client, partition_size=15, plays=True),
                       bs.simulate_matches(40, seed=3, plays=True))
    hands = ["JH 9H AH KS 7C", "AS TS KS QS 7D", "7C 8C 9D TD JS"]
    pd.testing.assert_frame_equal(bs.bid_tables(hands, samples=200, players="hard", client=client),
                                  bs.bid_tables(hands, samples=200, players="hard"))
    after = dict(samples=40, players="hard", seat=2, dealer=3, auction="PC")
    pd.testing.assert_frame_equal(bs.bid_tables(hands[:2], client=client, **after), bs.bid_tables(hands[:2], **after))


def test_a_bad_client_or_partition_size_is_refused():
    with pytest.raises(TypeError, match="distributed.Client"):
        bs.tournament("hard", "normal", 10, client="tcp://scheduler:8786")
    with pytest.raises(ValueError, match="partition_size"):
        bs.simulate_dask(10, partition_size=0)
    with pytest.raises(ValueError, match="plays"):
        bs.simulate_dask(10, plays=True)
    with pytest.raises(TypeError, match="unknown argument"):
        bs.simulate_dask(10, fancy=1)


def test_the_atlas_job_on_the_cluster_gives_the_local_table(client, tmp_path):
    """scripts/bid_atlas.py --scheduler: the workers compute the partitions; the assembled table is
    the one a local run of the same arguments assembles."""
    script = Path(__file__).resolve().parent.parent / "scripts" / "bid_atlas.py"
    tables = {}
    for where, extra in (("cluster", ["--scheduler", client.scheduler.address]), ("local", ["--threads", "1"])):
        tables[where] = tmp_path / f"{where}.npz"
        done = subprocess.run([sys.executable, str(script), "--out", str(tmp_path / where), "--table",
                               str(tables[where]), "--samples", "2", "--parts", "4", *extra],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
    cluster, local = np.load(tables["cluster"]), np.load(tables["local"])
    assert sorted(cluster.files) == sorted(local.files)
    for name in local.files:
        if name != "meta":  # its run time differs
            assert np.array_equal(cluster[name], local[name]), name


def test_void_deals_leave_a_dask_groupby_with_dropna_as_they_leave_pandas():
    """The recipe simulate_dask's docstring gives: Dask keeps a NaN group for the void deals (no contract)
    unless ``dropna=True``; with it the groups are pandas' own."""
    ddf = bs.simulate_dask(3_000, partition_size=1_000, bidders="heuristic", seed=4)
    deals = bs.simulate(3_000, bidders="heuristic", seed=4)
    assert (deals["outcome"] == "void").any()
    expected = deals.groupby("contract", observed=True)["raw0"].mean()
    got = ddf.groupby("contract", observed=True, dropna=True)["raw0"].mean().compute()
    pd.testing.assert_series_equal(got.sort_index(), expected.sort_index())
