"""Partitioned, resumable Parquet datasets: row i of a dataset is row i of ``simulate(n, ...)`` for any
partition size, resume history and threads; the manifest guards resumes; interrupted and killed
writers leave only complete parts; the folder reads back with plain pyarrow, pandas and DuckDB."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time
import zlib

import pandas as pd
import pyarrow.parquet as pq
import pytest

import belot_sim as bs
from belot_sim.datasets import writing as datasets
from belot_sim.datasets.manifest import MANIFEST
from belot_sim.engine.searching import DEFAULT_WORLDS
from helpers import assert_same_frames

AUCTION = dict(seed=3, bidders="heuristic", plays=True, calls=True)


def files(root) -> dict[str, bytes]:
    """Every file under ``root`` (relative path → contents)."""
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                out[os.path.relpath(path, root)] = handle.read()
    return out


def manifest_of(path) -> dict:
    return json.loads((path / MANIFEST).read_text())


def record_written_parts(monkeypatch) -> list[int]:
    """The part numbers the dataset writer computes from now on, in order (it still writes them)."""
    written = []
    real = datasets._write_parts
    monkeypatch.setattr(datasets, "_write_parts", lambda store, spec, plan, parts, *a: written.extend(
        k for k, _, _ in parts) or real(store, spec, plan, parts, *a))
    return written


# --- what a dataset holds --------------------------------------------------------------------

@pytest.mark.parametrize("partition_size, threads, compression", [(1000, 1, "lz4"), (999, 2, "zstd"),
                                                                  (2500, None, "none"), (10**6, 2, "snappy")])
def test_dataset_rows_equal_simulate_for_any_partition_size_and_threads(tmp_path, partition_size, threads,
                                                                        compression):
    path = bs.simulate_to_parquet(tmp_path / "run", 2500, partition_size=partition_size, threads=threads, start=11,
                                  compression=compression, **AUCTION)
    expected = bs.simulate(2500, start=11, **AUCTION)
    got = tuple(bs.read_parquet(path, frame=f) for f in ("deals", "plays", "calls"))
    assert_same_frames(got, expected, f"partition_size={partition_size}")
    parts = -(-2500 // partition_size)
    for frame in ("deals", "plays", "calls"):
        assert sorted(os.listdir(tmp_path / "run" / frame)) == [datasets.part_name(k) for k in range(parts)]


def test_the_manifest_records_every_argument_the_rules_and_the_parts(tmp_path):
    rules = bs.BULGARIAN.replace(undertrump="required")
    bs.simulate_to_parquet(tmp_path / "run", 300, partition_size=100, rules=rules, players=("hard", "random") * 2,
                           contract=["H", "nt"], declarer=2, seed=9)
    m = manifest_of(tmp_path / "run")
    assert m["belot_sim_version"] == bs.__version__ and m["kind"] == "deals" and m["frames"] == ["deals"]
    assert (m["n"], m["start"], m["partition_size"], m["n_parts"], m["complete"]) == (300, 0, 100, 3, True)
    args = m["arguments"]
    assert args["rules"] == {"name": rules.name, **rules.options()}
    assert args["players"] == ["hard", "random", "hard", "random"] and args["contract"] == ["H", "NT"]
    assert (args["declarer"], args["seed"], args["bidders"], args["plays"]) == (2, 9, None, False)
    assert sorted(m["parts"]) == ["0", "1", "2"] and m["format_version"] == 2
    for k, files in m["parts"].items():
        data = (tmp_path / "run" / "deals" / datasets.part_name(int(k))).read_bytes()
        assert files == {"deals": {"rows": 100, "bytes": len(data), "crc32": zlib.crc32(data)}}


def test_match_datasets_have_match_aligned_parts(tmp_path):
    kwargs = dict(seed=4, plays=True, calls=True)
    path = bs.simulate_matches_to_parquet(tmp_path / "matches", 25, partition_size=10, **kwargs)
    expected = bs.simulate_matches(25, **kwargs)
    got = tuple(bs.read_parquet(path, frame=f) for f in ("matches", "deals", "plays", "calls"))
    assert_same_frames(got, expected, "matches")
    assert_same_frames(bs.read_parquet(path), expected[0])  # the first frame is the default
    for k in range(3):  # part k holds matches 10k .. 10k+9 and exactly their deals
        matches = pq.read_table(tmp_path / "matches" / "matches" / datasets.part_name(k)).to_pandas()
        deals = pq.read_table(tmp_path / "matches" / "deals" / datasets.part_name(k)).to_pandas()
        assert matches["match_id"].tolist() == list(range(10 * k, min(25, 10 * k + 10)))
        assert set(deals["match_id"]) == set(matches["match_id"])


def test_read_parquet_columns_filters_and_dtypes(tmp_path):
    path = bs.simulate_to_parquet(tmp_path / "run", 3000, partition_size=1000, seed=2)
    whole = bs.simulate(3000, seed=2)
    hearts = bs.read_parquet(path, columns=["deal_id", "contract", "raw0"], filters=[("contract", "==", "H")])
    expected = whole.loc[whole["contract"] == "H", ["deal_id", "contract", "raw0"]].reset_index(drop=True)
    pd.testing.assert_frame_equal(hearts, expected)
    assert hearts["contract"].dtype == whole["contract"].dtype  # all six categories, in order
    late = bs.read_parquet(path, filters=[("deal_id", ">=", 2500)])
    pd.testing.assert_frame_equal(late, whole[whole["deal_id"] >= 2500].reset_index(drop=True))
    with pytest.raises(ValueError, match="unknown column"):
        bs.read_parquet(path, columns=["deal_id", "nope"])
    for filters in ([("nope", "==", 1)], [[("deal_id", ">", 1), ("nope", "==", 1)], [("contract", "==", "H")]]):
        with pytest.raises(ValueError, match=r"filters name unknown column\(s\) \['nope'\] in deals: the columns"):
            bs.read_parquet(path, filters=filters)
    either = bs.read_parquet(path, filters=[[("deal_id", "<", 10)], [("deal_id", ">=", 2990)]])  # DNF: or
    assert either["deal_id"].tolist() == [*range(10), *range(2990, 3000)]
    with pytest.raises(ValueError, match="frame must be one of"):
        bs.read_parquet(path, frame="plays")
    with pytest.raises(ValueError, match="not a belot_sim dataset"):
        bs.read_parquet(tmp_path)
    with pytest.raises(FileNotFoundError, match=f"{tmp_path}/typo does not exist"):
        bs.read_parquet(tmp_path / "typo")


def test_reading_a_damaged_dataset_names_the_part_and_the_cure(tmp_path):
    path = bs.simulate_to_parquet(tmp_path / "run", 3000, partition_size=1000, seed=2)
    with pytest.raises(ValueError, match="bad filters"):
        bs.read_parquet(path, filters=[("contract", "==", 3)])  # a category compared with a number
    with pytest.raises(TypeError, match="columns must be a list"):
        bs.read_parquet(path, columns=5)
    with pytest.raises(TypeError, match="partial"):
        bs.read_parquet(path, partial="yes")
    (tmp_path / "run" / "deals" / datasets.part_name(2)).write_bytes(b"not parquet")
    for kwargs in ({}, {"partial": True}, {"filters": [("deal_id", ">=", 0)]}):
        with pytest.raises(ValueError, match=rf"damaged: its part .*{datasets.part_name(2)}.*resume=True"):
            bs.read_parquet(path, **kwargs)
    (tmp_path / "run" / "deals" / datasets.part_name(0)).unlink()
    with pytest.raises(ValueError, match=rf"damaged: its part .*{datasets.part_name(0)}"):
        bs.read_parquet(path)
    bs.simulate_to_parquet(path, 3000, partition_size=1000, seed=2, resume=True)
    pd.testing.assert_frame_equal(bs.read_parquet(path), bs.simulate(3000, seed=2))


@pytest.mark.parametrize("kind", ["deals", "matches"])
def test_a_part_copied_from_another_part_is_found_and_recomputed(tmp_path, kind, monkeypatch):
    """Row counts alone would accept it: the id statistics in its footer name the wrong range."""
    path = tmp_path / "run"
    write, n, kwargs = ((bs.simulate_to_parquet, 400, dict(partition_size=100, plays=True)) if kind == "deals"
                        else (bs.simulate_matches_to_parquet, 8, dict(partition_size=2, plays=True)))
    write(path, n, seed=4, **kwargs)
    expected = [bs.read_parquet(path, frame=f) for f in manifest_of(path)["frames"]]
    first, column = manifest_of(path)["frames"][0], "deal_id" if kind == "deals" else "match_id"
    copied = (first, "plays") if kind == "deals" else (first,)  # frames whose parts have equal row counts
    for frame in copied:
        (path / frame / datasets.part_name(1)).write_bytes((path / frame / datasets.part_name(3)).read_bytes())
    parts = manifest_of(path)["parts"]
    assert all(parts["1"][f]["rows"] == parts["3"][f]["rows"] for f in copied)
    for frame in copied:
        with pytest.raises(ValueError, match=rf"damaged: its part .*{datasets.part_name(1)} holds .*, part 1 is"):
            bs.read_parquet(path, frame=frame)
    written = record_written_parts(monkeypatch)
    write(path, n, seed=4, resume=True, **kwargs)
    assert written == [1]
    for frame, frame_expected in zip(manifest_of(path)["frames"], expected):
        pd.testing.assert_frame_equal(bs.read_parquet(path, frame=frame), frame_expected)
    assert bs.read_parquet(path, frame=first)[column].is_unique


BAD_MANIFESTS = [
    ("partition_size", 0, "partition_size must be an integer >= 1"),
    ("partition_size", "100", "partition_size must be an integer"),
    ("n", -3, "n must be an integer >= 0"),
    ("start", 1.5, "start must be an integer"),
    ("kind", "hands", "kind must be one of"),
    ("frames", ["plays", "deals"], "frames of a deals dataset"),
    ("frames", ["deals", "deals"], "frames of a deals dataset"),
    ("parts", {"7": {"deals": 100}}, "part 7 is listed, the dataset has parts 0..1"),
    ("parts", {"0": {"deals": -1}}, "part 0: rows must be an integer >= 0"),
    ("parts", {"0": {"deals": {"rows": 5, "bytes": -1, "crc32": 0}}}, "part 0: bytes must be an integer >= 0"),
    ("parts", {"0": {"deals": {"rows": 5, "md5": "x"}}}, r"part 0: .*unknown keys \['md5'\]"),
    ("parts", {"0": {"deals": {"rows": 5, "crc32": 7}}}, "part 0: .*needs both bytes and crc32 or neither"),
    ("parts", {"0": {"plays": 100}}, "part 0 lists the files"),
    ("arguments", [1, 2], "arguments must be a mapping"),
]


@pytest.mark.parametrize("key, value, pattern", BAD_MANIFESTS, ids=[f"{k}={v!r}" for k, v, _ in BAD_MANIFESTS])
def test_a_manifest_with_impossible_values_is_refused_by_name(tmp_path, key, value, pattern):
    path = tmp_path / "run"
    bs.simulate_to_parquet(path, 200, partition_size=100)
    record = manifest_of(path)
    record[key] = value
    (path / MANIFEST).write_text(json.dumps(record))
    before = files(path)
    for call in (lambda: bs.read_parquet(path), lambda: bs.simulate_to_parquet(path, 200, partition_size=100,
                                                                                resume=True)):
        with pytest.raises(ValueError, match=f"unreadable manifest.*{pattern}.*new folder"):
            call()
    assert files(path) == before


def test_plain_pyarrow_pandas_duckdb_and_dask_read_the_folders(tmp_path):
    import dask.dataframe as dd
    import duckdb
    import pyarrow.dataset as ds

    bs.simulate_to_parquet(tmp_path / "run", 2500, partition_size=1000, **AUCTION)
    deals, plays, _ = bs.simulate(2500, **AUCTION)
    by_pandas = pd.read_parquet(tmp_path / "run" / "deals")
    pd.testing.assert_frame_equal(by_pandas, deals)  # in order, the same dtypes
    by_arrow = ds.dataset(tmp_path / "run" / "plays").to_table().to_pandas()
    pd.testing.assert_frame_equal(by_arrow, plays)
    counts = duckdb.sql(f"select contract, count(*) as n, sum(raw0) as raw0, sum(hand2) as hand2 "
                        f"from '{tmp_path}/run/deals/*.parquet' "
                        "where contract is not null group by contract").df()  # (void deals have none)
    expected = deals.groupby("contract", observed=True).agg(n=("raw0", "size"), raw0=("raw0", "sum"),
                                                            hand2=("hand2", "sum"))
    for column in ("n", "raw0", "hand2"):  # delta-encoded, plain uncompressed, and the counts
        got = dict(zip(counts["contract"], counts[column].astype("int64")))
        assert got == {str(k): int(v) for k, v in expected[column].items()}, column
    cards = duckdb.sql(f"select sum(card) as s from '{tmp_path}/run/plays/*.parquet'").df()
    assert int(cards["s"][0]) == int(plays["card"].astype("int64").sum())
    by_dask = dd.read_parquet(tmp_path / "run" / "deals").compute(scheduler="sync").reset_index(drop=True)
    for column in ("deal_id", "raw0", "contract", "auction"):  # (text in Dask's own string dtype)
        assert by_dask[column].astype(object).tolist() == deals[column].astype(object).tolist(), column


def test_lz4_files_use_the_per_column_encodings(tmp_path):
    """The fast default: delta-encoded uncompressed small numbers, plain uncompressed card masks, lz4
    elsewhere; other codecs apply to every column."""
    bs.simulate_to_parquet(tmp_path / "fast", 100, partition_size=100, progress=False)
    bs.simulate_to_parquet(tmp_path / "small", 100, partition_size=100, progress=False, compression="zstd")
    fast = pq.ParquetFile(tmp_path / "fast" / "deals" / datasets.part_name(0)).metadata.row_group(0)
    small = pq.ParquetFile(tmp_path / "small" / "deals" / datasets.part_name(0)).metadata.row_group(0)
    layout = {fast.column(i).path_in_schema: fast.column(i) for i in range(fast.num_columns)}
    assert "DELTA_BINARY_PACKED" in layout["raw0"].encodings and layout["raw0"].compression == "UNCOMPRESSED"
    assert "DELTA_BINARY_PACKED" not in layout["hand0"].encodings and layout["hand0"].compression == "UNCOMPRESSED"
    assert layout["valat"].compression == "LZ4" and "DELTA_BINARY_PACKED" not in layout["valat"].encodings
    assert {small.column(i).compression for i in range(small.num_columns)} == {"ZSTD"}


@pytest.mark.skipif(not hasattr(os, "posix_fadvise"), reason="no page-cache advice on this system")
def test_parts_beyond_the_cache_budget_leave_the_page_cache_behind_the_writer(tmp_path, monkeypatch):
    """A part that no longer fits in ``CACHE_BYTES`` (the newest parts do) is advised once, which
    starts its writeback, and again ``DRAIN_LAG`` parts later, which drops it; a dataset within the
    budget is not advised at all, and URL stores never are."""
    from belot_sim.datasets import storage

    drop = storage._drop_cached
    advised = []
    monkeypatch.setattr(storage, "_drop_cached", advised.append)
    monkeypatch.setattr(storage, "_write_behind", storage._WriteBehind())
    arguments = dict(partition_size=100, bidders="random", calls=True, progress=False)
    bs.simulate_to_parquet(tmp_path / "probe", 600, **arguments)
    assert advised == []
    sizes = [sum(os.path.getsize(tmp_path / "probe" / f / datasets.part_name(k)) for f in ("deals", "calls"))
             for k in range(6)]
    budget = max(a + b for a, b in zip(sizes, sizes[1:]))  # the newest two parts fit, three do not
    assert budget < min(a + b + c for a, b, c in zip(sizes, sizes[1:], sizes[2:]))
    monkeypatch.setattr(storage, "CACHE_BYTES", budget)
    monkeypatch.setattr(storage, "_write_behind", storage._WriteBehind())
    bs.simulate_to_parquet(tmp_path / "run", 600, **arguments)
    part = [[str(tmp_path / "run" / f / datasets.part_name(k)) for f in ("deals", "calls")] for k in range(6)]
    # part k leaves the cache when part k + 2 is written, and is dropped two parts after that
    assert advised == [*part[0], *part[1], *part[2], *part[0], *part[3], *part[1]]
    advised.clear()
    monkeypatch.setattr(storage, "CACHE_BYTES", 0)
    bs.simulate_to_parquet("memory://belot/cache", 300, partition_size=100, progress=False)
    assert advised == []
    drop(part[0][0])  # the advice itself: an existing file, and one that is gone, raise nothing
    drop(str(tmp_path / "gone.parquet"))
    pd.testing.assert_frame_equal(bs.read_parquet(tmp_path / "run"), bs.read_parquet(tmp_path / "probe"))


def test_output_files_respect_the_umask(tmp_path):
    previous = os.umask(0o027)
    try:
        bs.simulate_to_parquet(tmp_path / "run", 10, partition_size=5)
        from belot_sim.engine.io import write_csv_atomically

        write_csv_atomically(pd.DataFrame({"x": [1]}), tmp_path / "t.csv")
    finally:
        os.umask(previous)
    for path in [tmp_path / "run" / MANIFEST, tmp_path / "run" / "deals" / datasets.part_name(1), tmp_path / "t.csv"]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o640, path
    assert stat.S_IMODE((tmp_path / "run" / "deals").stat().st_mode) == 0o750


def test_zero_deals_is_a_dataset_with_one_empty_part(tmp_path):
    path = bs.simulate_to_parquet(tmp_path / "run", 0, bidders="random", calls=True)
    assert_same_frames((bs.read_parquet(path), bs.read_parquet(path, frame="calls")),
                       bs.simulate(0, bidders="random", calls=True))


# --- resuming ------------------------------------------------------------------------------

def test_resume_computes_only_missing_and_unreadable_parts(tmp_path, monkeypatch):
    path = tmp_path / "run"
    bs.simulate_to_parquet(path, 5000, partition_size=1000, **AUCTION)
    before = files(path)
    (path / "deals" / datasets.part_name(1)).unlink()  # lost
    (path / "plays" / datasets.part_name(3)).write_bytes(b"not parquet")  # damaged
    written = record_written_parts(monkeypatch)
    bs.simulate_to_parquet(path, 5000, partition_size=1000, resume=True, **AUCTION)
    assert written == [1, 3]
    after = files(path)
    kept = [f"{f}/{datasets.part_name(k)}" for f in ("deals", "plays", "calls") for k in (0, 2, 4)]
    assert all(after[name] == before[name] for name in kept) and sorted(after) == sorted(before)
    assert_same_frames(tuple(bs.read_parquet(path, frame=f) for f in ("deals", "plays", "calls")),
                       bs.simulate(5000, **AUCTION), "resumed")
    written.clear()
    bs.simulate_to_parquet(path, 5000, partition_size=1000, resume=True, **AUCTION)  # complete: nothing to do
    assert written == []


def test_each_part_file_records_the_run_that_wrote_it(tmp_path):
    path = bs.simulate_matches_to_parquet(tmp_path / "run", 12, partition_size=5, seed=2, plays=True)
    identity = json.loads((tmp_path / "run" / MANIFEST).read_text())
    for frame in ("matches", "deals", "plays"):
        for k in range(3):
            recorded = pq.read_metadata(os.path.join(path, frame, datasets.part_name(k))).metadata
            assert recorded[b"belot_sim.part"] == str(k).encode()
            stamp = json.loads(recorded[b"belot_sim.identity"])
            assert stamp["seed"] == identity["arguments"]["seed"] == 2 and stamp["n"] == 12
            assert stamp["partition_size"] == 5 and stamp["kind"] == "matches"


def test_a_deleted_manifest_is_rebuilt_by_a_resume_keeping_the_parts_its_arguments_wrote(tmp_path, monkeypatch):
    path = tmp_path / "run"
    bs.simulate_to_parquet(path, 5000, partition_size=1000, **AUCTION)
    before = files(path)
    (path / MANIFEST).unlink()
    (path / "calls" / datasets.part_name(3)).unlink()  # part 3 incomplete: recomputed
    for frame in ("deals", "plays", "calls"):  # part 0's files copied over part 1's: recorded as part 0
        shutil.copy(path / frame / datasets.part_name(0), path / frame / datasets.part_name(1))
    with pytest.raises(ValueError, match="no _belot_sim.json; if it was deleted, resume=True"):
        bs.read_parquet(path)
    with pytest.raises(ValueError, match="frames but no manifest.*resume=True"):
        bs.simulate_to_parquet(path, 5000, partition_size=1000, **AUCTION)
    written = record_written_parts(monkeypatch)
    bs.simulate_to_parquet(path, 5000, partition_size=1000, resume=True, **AUCTION)
    assert written == [1, 3]
    after = files(path)
    assert all(after[f"{f}/{datasets.part_name(k)}"] == before[f"{f}/{datasets.part_name(k)}"]
               for f in ("deals", "plays", "calls") for k in (0, 2, 4))
    assert sorted(manifest_of(path)["parts"]) == ["0", "1", "2", "3", "4"]
    assert_same_frames(tuple(bs.read_parquet(path, frame=f) for f in ("deals", "plays", "calls")),
                       bs.simulate(5000, **AUCTION), "rebuilt")


def test_parts_of_other_arguments_are_never_kept_nor_overwritten(tmp_path, monkeypatch):
    """Without its manifest, a folder resumed with other arguments (a seed, a rule, the frames) is
    refused, the first difference named, nothing changed; a listed part made by another run or for
    another frame is recomputed (read_parquet refuses it); an unlisted part of the same arguments is
    kept (a cluster task that ended after Ctrl-C)."""
    path, other = tmp_path / "run", tmp_path / "other"
    bs.simulate_to_parquet(path, 3000, partition_size=1000, seed=1, bidders="heuristic", calls=True)
    bs.simulate_to_parquet(other, 3000, partition_size=1000, seed=2, bidders="heuristic", calls=True)
    record, before = manifest_of(path), files(path)
    (path / MANIFEST).unlink()
    auction = dict(bidders="heuristic", calls=True)
    for arguments, pattern in [(dict(seed=2, **auction), "seed=1, this call has seed=2"),
                               (dict(seed=1, rules=bs.BULGARIAN.replace(declarations=False), **auction),
                                "rules.declarations=True, this call has rules.declarations=False"),
                               (dict(seed=1), "calls frame, which this call does not write")]:
        with pytest.raises(ValueError, match=f"no manifest _belot_sim.json and .*{pattern}.*nothing was changed"):
            bs.simulate_to_parquet(path, 3000, partition_size=1000, resume=True, **arguments)
        assert files(path) == {k: v for k, v in before.items() if k != MANIFEST}
    kwargs = dict(partition_size=1000, seed=1, bidders="heuristic", calls=True)
    unlisted = json.loads(json.dumps(record))
    del unlisted["parts"]["2"]
    (path / MANIFEST).write_text(json.dumps(unlisted))
    shutil.copy(other / "deals" / datasets.part_name(1), path / "deals" / datasets.part_name(1))  # same ids
    shutil.copy(path / "deals" / datasets.part_name(2), path / "calls" / datasets.part_name(2))  # another frame
    with pytest.raises(ValueError, match=rf"damaged: its part .*{datasets.part_name(1)} was written with seed=2"):
        bs.read_parquet(path, partial=True)
    written = record_written_parts(monkeypatch)
    bs.simulate_to_parquet(path, 3000, resume=True, **kwargs)
    assert written == [1, 2]
    (path / MANIFEST).write_text(json.dumps(unlisted))
    written.clear()
    bs.simulate_to_parquet(path, 3000, resume=True, **kwargs)
    assert written == [] and sorted(manifest_of(path)["parts"]) == ["0", "1", "2"]
    expected = bs.simulate(3000, seed=1, bidders="heuristic", calls=True)
    assert_same_frames((bs.read_parquet(path), bs.read_parquet(path, frame="calls")), expected)


def test_a_manifest_less_folder_with_unrecorded_parts_is_refused_and_junk_replaced(tmp_path):
    """A part that records no arguments (an older belot_sim) is nobody's to overwrite; an unreadable
    one is no data: a resume replaces it."""
    path = tmp_path / "run"
    (path / "deals").mkdir(parents=True)
    bs.simulate(100, seed=3).to_parquet(path / "deals" / datasets.part_name(0))
    with pytest.raises(ValueError, match="part-00000.parquet does not record the arguments.*nothing was changed"):
        bs.simulate_to_parquet(path, 100, partition_size=50, seed=3, resume=True)
    (path / "deals" / datasets.part_name(0)).write_bytes(b"half a file")
    bs.simulate_to_parquet(path, 100, partition_size=50, seed=3, resume=True)
    pd.testing.assert_frame_equal(bs.read_parquet(path), bs.simulate(100, seed=3))


def test_an_interrupted_run_keeps_its_complete_parts_and_resumes(tmp_path, monkeypatch):
    path = tmp_path / "run"
    real = datasets.DealArrays.play

    def stopping(arrays, start, first, last):
        if start + first >= 2000:
            raise KeyboardInterrupt  # Ctrl-C during part 2
        return real(arrays, start, first, last)

    monkeypatch.setattr(datasets.DealArrays, "play", stopping)
    with pytest.raises(KeyboardInterrupt):
        bs.simulate_to_parquet(path, 4000, partition_size=1000, seed=8)
    assert sorted(os.listdir(path / "deals")) == [datasets.part_name(0), datasets.part_name(1)]  # no temporary file
    m = manifest_of(path)
    assert sorted(m["parts"]) == ["0", "1"] and not m["complete"]
    with pytest.raises(ValueError, match="unfinished"):
        bs.read_parquet(path)
    pd.testing.assert_frame_equal(bs.read_parquet(path, partial=True), bs.simulate(2000, seed=8))
    monkeypatch.setattr(datasets.DealArrays, "play", real)
    bs.simulate_to_parquet(path, 4000, partition_size=1000, seed=8, resume=True)
    pd.testing.assert_frame_equal(bs.read_parquet(path), bs.simulate(4000, seed=8))


WRITER = """
import sys
import belot_sim as bs
bs.simulate_to_parquet(sys.argv[1], 80, partition_size=4, players="pimc", seed=5, progress=False)
"""


def test_a_writer_killed_mid_run_leaves_complete_parts_and_resumes_to_the_same_rows(tmp_path):
    """SIGKILL (no clean-up at all) while parts are being written; the resumed dataset equals
    simulate."""
    path = tmp_path / "run"
    writer = subprocess.Popen([sys.executable, "-c", textwrap.dedent(WRITER), str(path)], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    try:
        while not (path / MANIFEST).exists() or len(manifest_of(path)["parts"]) < 2:
            assert writer.poll() is None, writer.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "the writer wrote no part"
            time.sleep(0.02)
        # a second writer on the same folder is refused at once, and removes none of the first one's files
        with pytest.raises(ValueError, match="being written by another process"):
            bs.simulate_to_parquet(path, 80, partition_size=4, players="pimc", seed=5, resume=True)
        assert writer.poll() is None
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    done = manifest_of(path)["parts"]
    assert 2 <= len(done) < 20, "killed too late to test anything"
    bs.simulate_to_parquet(path, 80, partition_size=4, players="pimc", seed=5, resume=True)
    assert not [n for n in os.listdir(path / "deals") if n.endswith(".tmp")]
    pd.testing.assert_frame_equal(bs.read_parquet(path), bs.simulate(80, players="pimc", seed=5))


# --- refusals: before any work, nothing written is damaged ---------------------------------------

BAD = [
    (dict(n=-1), r"\bn\b"),
    (dict(partition_size=0), "partition_size"),
    (dict(partition_size=-5), "partition_size"),
    (dict(partition_size=2.5), "partition_size"),
    (dict(players="genius"), "genius"),
    (dict(fancy=True), "unknown argument"),
    (dict(resume="yes"), "resume"),
    (dict(progress="yes"), "progress"),
    (dict(threads=0), "threads"),
    (dict(client="tcp://scheduler:8786"), "distributed.Client"),
    (dict(calls=True), "calls=True needs bidders"),
    (dict(compression="brotli9"), "compression"),
]


@pytest.mark.parametrize("kwargs, pattern", BAD, ids=[repr(k) for k, _ in BAD])
def test_bad_arguments_are_refused_before_any_work(tmp_path, monkeypatch, kwargs, pattern):
    def no_work(*args, **kw):
        raise AssertionError("a part was computed before the arguments were checked")

    monkeypatch.setattr(datasets, "_write_parts", no_work)
    kwargs = {"n": 10, **kwargs}
    with pytest.raises((ValueError, TypeError), match=pattern):
        bs.simulate_to_parquet(tmp_path / "run", kwargs.pop("n"), **kwargs)
    assert not (tmp_path / "run").exists()


def test_refusals_leave_an_existing_dataset_untouched(tmp_path):
    path = tmp_path / "run"
    bs.simulate_to_parquet(path, 200, partition_size=100, seed=1)
    before = files(path)
    refusals = [
        (dict(seed=1), "already holds a dataset"),  # no resume=True
        (dict(seed=2, resume=True), "seed=1.*seed=2"),
        (dict(seed=1, resume=True, players="hard"), "players"),
        (dict(seed=1, resume=True, partition_size=50), "partition_size"),
        (dict(seed=1, resume=True, n=100), "holds n=200, this call has n=100"),  # a larger n grows it
        (dict(seed=1, resume=True, contract="H"), "contract"),
        (dict(seed=1, resume=True, rules=bs.BULGARIAN.replace(declarations=False)),
         "rules.declarations=True, this call has rules.declarations=False"),
    ]
    for kwargs, pattern in refusals:
        kwargs = {"n": 200, "partition_size": 100, **kwargs}
        with pytest.raises(ValueError, match=pattern):
            bs.simulate_to_parquet(path, kwargs.pop("n"), **kwargs)
        assert files(path) == before, kwargs
    # random players never read worlds=, so another value is the same run (complete: nothing to do)
    bs.simulate_to_parquet(path, 200, partition_size=100, seed=1, resume=True, worlds=7)
    after = files(path)
    assert {k: v for k, v in after.items() if k != MANIFEST} == {k: v for k, v in before.items() if k != MANIFEST}
    assert json.loads(after[MANIFEST])["arguments"]["worlds"] == DEFAULT_WORLDS


def test_a_refused_resume_says_what_differs_in_its_own_error(tmp_path):
    path = tmp_path / "run"
    bs.simulate_to_parquet(path, 20, partition_size=10, seed=1)
    with pytest.raises(bs.DatasetMismatchError) as refused:
        bs.simulate_to_parquet(path, 20, partition_size=10, seed=2, resume=True)
    assert isinstance(refused.value, ValueError) and refused.value.path == str(path)
    assert refused.value.reason == "was made with seed=1, this call has seed=2"
    copied = pickle.loads(pickle.dumps(refused.value))  # as a Dask task or a process pool passes it back
    assert (type(copied), str(copied), copied.path, copied.reason) == (
        bs.DatasetMismatchError, str(refused.value), refused.value.path, refused.value.reason)
    (path / MANIFEST).unlink()  # without the manifest the parts' own records refuse it
    with pytest.raises(bs.DatasetMismatchError, match="was written with seed=1, this call has seed=2") as refused:
        bs.simulate_to_parquet(path, 20, partition_size=10, seed=2, resume=True)
    assert refused.value.reason.startswith(f"has no manifest {MANIFEST} and its part ")
    with pytest.raises(ValueError) as other:  # other refusals stay plain ValueErrors
        bs.simulate_to_parquet(path, 20, partition_size=10, seed=1, compression="zip")
    assert not isinstance(other.value, bs.DatasetMismatchError)


def test_a_sampling_players_dataset_resumes_only_with_its_worlds(tmp_path):
    path = tmp_path / "pimc"
    bs.simulate_to_parquet(path, 4, partition_size=2, players="pimc", worlds=2, seed=1)
    with pytest.raises(ValueError, match="worlds=2, this call has worlds=3"):
        bs.simulate_to_parquet(path, 4, partition_size=2, players="pimc", worlds=3, seed=1, resume=True)
    bs.simulate_to_parquet(path, 4, partition_size=2, players="pimc", worlds=2, seed=1, resume=True)


def test_a_manifest_from_another_version_is_refused(tmp_path):
    path = tmp_path / "run"
    bs.simulate_to_parquet(path, 100, partition_size=50)
    record = manifest_of(path)
    record["belot_sim_version"] = "0.0.1"
    (path / MANIFEST).write_text(json.dumps(record))
    before = files(path)
    with pytest.raises(ValueError, match="belot_sim_version='0.0.1'"):
        bs.simulate_to_parquet(path, 100, partition_size=50, resume=True)
    assert files(path) == before
    (path / MANIFEST).write_text("{not json")
    before = files(path)
    with pytest.raises(ValueError, match="unreadable manifest"):
        bs.simulate_to_parquet(path, 100, partition_size=50, resume=True)
    with pytest.raises(ValueError, match="unreadable manifest"):
        bs.read_parquet(path)
    assert files(path) == before


def test_unusable_paths_are_refused(tmp_path):
    (tmp_path / "a_file").write_text("x")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    for path, pattern in [(tmp_path / "a_file", "is a file"), (tmp_path / "a_file" / "run", "a_file is a file"),
                          (tmp_path / "missing" / "run", "does not exist"), (tmp_path / "full", "not empty"),
                          (42, "path must be")]:
        with pytest.raises((ValueError, TypeError), match=pattern):
            bs.simulate_to_parquet(path, 10)
    assert (tmp_path / "full" / "notes.txt").read_text() == "mine" and sorted(os.listdir(tmp_path / "full")) == [
        "notes.txt"]


def test_a_writer_stopped_before_its_first_manifest_leaves_a_usable_folder(tmp_path):
    """The lock file alone (a writer killed at once) does not make the folder someone else's; a frame's
    name taken by a file is refused by name, before anything is written."""
    path = tmp_path / "run"
    path.mkdir()
    (path / "_belot_sim.lock").write_text("")
    bs.simulate_to_parquet(path, 100, partition_size=50, seed=3)
    pd.testing.assert_frame_equal(bs.read_parquet(path), bs.simulate(100, seed=3))
    shutil.rmtree(path / "deals")
    (path / "deals").write_text("mine")
    with pytest.raises(ValueError, match="deals is a file"):
        bs.simulate_to_parquet(path, 100, partition_size=50, seed=3, resume=True)
    assert (path / "deals").read_text() == "mine"


def test_a_url_path_goes_through_fsspec(tmp_path):
    """``memory://`` is not an Arrow file system: fsspec serves it (as it would s3://, gs://...)."""
    bs.simulate_to_parquet("memory://belot/run", 300, partition_size=100, seed=6)
    pd.testing.assert_frame_equal(bs.read_parquet("memory://belot/run"), bs.simulate(300, seed=6))
    bs.simulate_to_parquet(f"file://{tmp_path}/run", 300, partition_size=100, seed=6)
    pd.testing.assert_frame_equal(bs.read_parquet(tmp_path / "run"), bs.simulate(300, seed=6))


def test_without_the_dask_extra_a_client_is_a_clear_import_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    with pytest.raises(ImportError, match=r"belot-sim\[dask\]"):
        bs.simulate_to_parquet(tmp_path / "run", 10, client=object())
    with pytest.raises(ImportError, match=r"belot-sim\[dask\]"):
        bs.simulate_dask(10)
    assert not (tmp_path / "run").exists()


# --- resuming from the manifest, growing ---------------------------------------------------------

def test_a_resume_takes_every_argument_it_is_not_given_from_the_manifest(tmp_path, monkeypatch):
    path = tmp_path / "run"
    kwargs = dict(rules=bs.BULGARIAN.replace(undertrump="required"), players=("hard", "random") * 2,
                  contract=["H", "nt"], declarer=2, seed=9, plays=True, start=7)
    real = datasets.DealArrays.play

    def stopping(arrays, start, first, last):
        if start + first >= 7 + 2000:
            raise KeyboardInterrupt
        return real(arrays, start, first, last)

    monkeypatch.setattr(datasets.DealArrays, "play", stopping)
    with pytest.raises(KeyboardInterrupt):
        bs.simulate_to_parquet(path, 3000, partition_size=1000, **kwargs)
    monkeypatch.setattr(datasets.DealArrays, "play", real)
    written = record_written_parts(monkeypatch)
    bs.simulate_to_parquet(path, resume=True)  # nothing but the folder
    assert written == [2]
    expected = bs.simulate(3000, **kwargs)
    assert_same_frames((bs.read_parquet(path), bs.read_parquet(path, frame="plays")), expected, "from the manifest")
    with pytest.raises(ValueError, match="seed=9, this call has seed=1"):
        bs.simulate_to_parquet(path, resume=True, seed=1)  # an argument given must agree
    with pytest.raises(TypeError, match="n .* is needed, unless resume=True finds a dataset"):
        bs.simulate_to_parquet(tmp_path / "other")


@pytest.mark.parametrize("kind", ["deals", "matches"])
def test_a_resume_with_a_larger_n_grows_the_dataset_to_the_bigger_run(tmp_path, monkeypatch, kind):
    """Rows stay rows 0..n-1 of the bigger run: the finished parts are kept, the last one (fewer ids
    than its part now holds) is computed again, new parts appended; a smaller n is refused."""
    path = tmp_path / "run"
    if kind == "deals":
        write, run, n, grown, size = bs.simulate_to_parquet, bs.simulate, 2500, 4200, 1000
        kwargs = dict(seed=4, bidders="heuristic", calls=True)
    else:
        write, run, n, grown, size = bs.simulate_matches_to_parquet, bs.simulate_matches, 25, 42, 10
        kwargs = dict(seed=4, plays=True)
    write(path, n, partition_size=size, **kwargs)
    before = files(path)
    written = record_written_parts(monkeypatch)
    write(path, grown, resume=True)
    assert written == [2, 3, 4]
    after = files(path)
    assert all(after[name] == before[name] for name in before if "part-00000" in name or "part-00001" in name)
    frames = manifest_of(path)["frames"]
    assert manifest_of(path)["n"] == grown and manifest_of(path)["complete"]
    assert_same_frames(tuple(bs.read_parquet(path, frame=f) for f in frames), run(grown, **kwargs), "grown")
    with pytest.raises(ValueError, match=f"holds n={grown}, this call has n={n}.*never shrinks"):
        write(path, n, resume=True)
    written.clear()
    write(path, resume=True)
    assert written == []


def test_without_pyarrow_the_dataset_calls_name_the_extra_before_any_work(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if not installed
    for call in (lambda: bs.simulate_to_parquet(tmp_path / "run", 10), lambda: bs.read_parquet(tmp_path),
                 lambda: bs.simulate_matches_to_parquet(tmp_path / "m", 2)):
        with pytest.raises(ImportError, match=r"needs pyarrow: pip install 'belot-sim\[parquet\]'"):
            call()
    assert sorted(tmp_path.iterdir()) == []
