"""Faults injected into dataset writes and files: a failed write at every writer and moment, flipped
bytes in every region of a part, truncation, a deleted manifest, writers killed at random moments.
After each, either the data read back equals ``simulate()`` or an error names the part (or the
manifest) and the remedy; never different data.  A resume then completes the dataset to exactly
``simulate()``'s rows."""

from __future__ import annotations

import errno
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import textwrap
import time

import pandas as pd
import pyarrow.parquet as pq
import pytest

import belot_sim as bs
from belot_sim.datasets import writing as datasets
from belot_sim.simulation import matches
from belot_sim.simulation import deals as simulation
from belot_sim.cli import main
from belot_sim.datasets.manifest import MANIFEST
from belot_sim.datasets.storage import Store
from helpers import assert_same_frames
from test_datasets import manifest_of, record_written_parts

DEALS = dict(seed=5, bidders="heuristic", plays=True, calls=True)
DEAL_FRAMES = ("deals", "plays", "calls")
MATCHES = dict(seed=5, plays=True)
MATCH_FRAMES = ("matches", "deals", "plays")


@pytest.fixture
def small_blocks(monkeypatch):
    """Several blocks to a part (the first block of a run is 16,384 deals otherwise), so a fault can
    strike a part's first, middle or last block."""
    monkeypatch.setattr(simulation, "FIRST_BLOCK", 150)
    monkeypatch.setattr(matches, "FIRST_BLOCK", 3)


def write_deals(path, **kwargs):
    return bs.simulate_to_parquet(path, 3000, partition_size=1000, progress=False, **DEALS, **kwargs)


def write_matches(path, **kwargs):
    return bs.simulate_matches_to_parquet(path, 30, partition_size=10, progress=False, **MATCHES, **kwargs)


def expected_deals():
    return bs.simulate(3000, **DEALS)


def expected_matches():
    return bs.simulate_matches(30, **MATCHES)


def temporary_files(root) -> list[str]:
    return [os.path.join(folder, n) for folder, _, names in os.walk(root) for n in names if n.endswith(".tmp")]


class Fault:
    """Makes ``owner.name`` raise ``OSError(ENOSPC)`` at its ``nth`` call (from 1) among the calls
    ``when(*args)`` selects, once; ``calls`` counts the selected calls."""

    def __init__(self, monkeypatch, owner, name, nth, when=lambda *args: True):
        self.real, self.nth, self.when, self.calls, self.struck = getattr(owner, name), nth, when, 0, False
        fault = self

        def faulty(*args, **kwargs):
            if not fault.struck and fault.when(*args):
                fault.calls += 1
                if fault.calls == fault.nth:
                    fault.struck = True
                    raise OSError(errno.ENOSPC, "No space left on device (injected)")
            return fault.real(*args, **kwargs)

        monkeypatch.setattr(owner, name, faulty)


def table_frame(frame: str):
    """Selects ``ParquetWriter.write_table(writer, table)`` calls for blocks of ``frame`` (a column
    only that frame has)."""
    column = {"deals": "hand0", "plays": "trick", "calls": "call", "matches": "winner"}[frame]
    return lambda _writer, table, *a: column in table.schema.names


def inner_block(frame: str, part_size: int):
    """Selects write_table calls for a block of ``frame`` that neither starts nor ends a part."""
    def select(writer, table, *a):
        if not table_frame(frame)(writer, table) or not table.num_rows:
            return False
        column = "match_id" if "match_id" in table.schema.names else "deal_id"
        first, last = table.column(column)[0].as_py(), table.column(column)[table.num_rows - 1].as_py()
        return first % part_size != 0 and (last + 1) % part_size != 0
    return select


def ids_end(frame_ids: int):
    """Selects write_table calls whose table ends with id ``frame_ids`` (the last block of a part)."""
    def select(_writer, table, *a):
        column = "match_id" if "match_id" in table.schema.names else "deal_id"
        return table.num_rows and table.column(column)[table.num_rows - 1].as_py() == frame_ids
    return select


# (name, what to break: owner, attribute, nth call, selector); the part counts assume 3 parts of 1000 deals
DEAL_FAULTS = [
    *[(f"{f}-first-block", pq.ParquetWriter, "write_table", 1, table_frame(f)) for f in DEAL_FRAMES],
    *[(f"{f}-middle-block", pq.ParquetWriter, "write_table", 1, inner_block(f, 1000)) for f in DEAL_FRAMES],
    ("plays-last-block-of-part-1", pq.ParquetWriter, "write_table", 1,
     lambda w, t, *a: "trick" in t.schema.names and ids_end(1999)(w, t)),
    ("open-a-file", datasets._PartFiles, "_open", 4, lambda *a: True),
    ("bytes-early", datasets._ChecksummedSink, "write", 3, lambda *a: True),
    ("bytes-late", datasets._ChecksummedSink, "write", 60, lambda *a: True),
    ("parquet-close", pq.ParquetWriter, "close", 5, lambda *a: True),
    ("file-close", datasets._ChecksummedSink, "close", 2, lambda *a: True),
    *[(f"rename-{f}", Store, "move", 2, lambda s, src, dst, f=f: dst.startswith(f + "/")) for f in DEAL_FRAMES],
    ("first-manifest", Store, "write_bytes", 1, lambda *a: True),
    ("manifest-after-part-1", Store, "write_bytes", 3, lambda *a: True),
]


@pytest.mark.parametrize("name, owner, attribute, nth, when", DEAL_FAULTS, ids=[f[0] for f in DEAL_FAULTS])
def test_a_failed_write_is_raised_nothing_is_recorded_and_a_resume_completes(tmp_path, monkeypatch, small_blocks,
                                                                             name, owner, attribute, nth, when):
    path = tmp_path / "run"
    fault = Fault(monkeypatch, owner, attribute, nth, when)
    with pytest.raises(bs.DatasetWriteError) as raised:
        write_deals(path)
    assert fault.struck, "the fault never struck: the test would test nothing"
    message = str(raised.value)
    assert raised.value.errno == errno.ENOSPC and "resume=True" in message
    assert ("manifest" in message) if "manifest" in name else ("writing part" in message and ".parquet" in message)
    assert temporary_files(path) == []
    monkeypatch.setattr(owner, attribute, fault.real)
    expected = expected_deals()
    if (path / MANIFEST).exists():  # what is listed is right; the failed part is not listed
        listed = sorted(int(k) for k in manifest_of(path)["parts"])
        if "manifest" not in name:
            failed = int(message.split("writing part ")[1].split()[0])
            assert failed not in listed
        if listed:
            ids = [i for k in listed for i in range(k * 1000, k * 1000 + 1000)]
            got = bs.read_parquet(path, partial=True)
            pd.testing.assert_frame_equal(got, expected[0].iloc[ids].reset_index(drop=True))
    write_deals(path, resume=True)
    assert_same_frames(tuple(bs.read_parquet(path, frame=f) for f in DEAL_FRAMES), expected, name)
    assert temporary_files(path) == []


MATCH_FAULTS = [
    *[(f"{f}-first-block", pq.ParquetWriter, "write_table", 1, table_frame(f)) for f in MATCH_FRAMES],
    ("plays-second-block", pq.ParquetWriter, "write_table", 2, table_frame("plays")),
    *[(f"rename-{f}", Store, "move", 2, lambda s, src, dst, f=f: dst.startswith(f + "/")) for f in MATCH_FRAMES],
]


@pytest.mark.parametrize("name, owner, attribute, nth, when", MATCH_FAULTS, ids=[f[0] for f in MATCH_FAULTS])
def test_a_failed_write_of_a_match_dataset_is_raised_and_a_resume_completes(tmp_path, monkeypatch, small_blocks,
                                                                            name, owner, attribute, nth, when):
    path = tmp_path / "run"
    fault = Fault(monkeypatch, owner, attribute, nth, when)
    with pytest.raises(bs.DatasetWriteError, match=r"writing part \d+ .*parquet.*resume=True"):
        write_matches(path)
    assert fault.struck and temporary_files(path) == []
    monkeypatch.setattr(owner, attribute, fault.real)
    write_matches(path, resume=True)
    assert_same_frames(tuple(bs.read_parquet(path, frame=f) for f in MATCH_FRAMES), expected_matches(), name)


def test_the_issue_reproduction_a_failed_plays_block_is_raised_not_lost(tmp_path, monkeypatch):
    """One transient error on the plays block that ends part 0 (issue 48): the write raised nothing
    and the dataset lost plays rows for good; now it raises and a resume completes it."""
    path = tmp_path / "run"
    fault = Fault(monkeypatch, pq.ParquetWriter, "write_table", 1,
                  lambda w, t, *a: "trick" in t.schema.names and ids_end(19_999)(w, t))
    kwargs = dict(partition_size=20_000, seed=1, plays=True, progress=False)
    with pytest.raises(bs.DatasetWriteError, match=r"writing part 0 .*plays/part-00000\.parquet.*resume=True"):
        bs.simulate_to_parquet(path, 40_000, **kwargs)
    assert fault.struck and "0" not in manifest_of(path)["parts"]
    monkeypatch.setattr(pq.ParquetWriter, "write_table", fault.real)
    bs.simulate_to_parquet(path, 40_000, resume=True, **kwargs)
    plays = bs.read_parquet(path, frame="plays")
    assert len(plays) == 40_000 * 32
    assert_same_frames((bs.read_parquet(path), plays), bs.simulate(40_000, seed=1, plays=True), "reproduction")


def test_the_command_line_reports_a_failed_write_and_resumes(tmp_path, monkeypatch, capsys, small_blocks):
    out = tmp_path / "run"
    args = ["simulate", "-n", "3000", "--out", str(out), "--partition-size", "1000", "--seed", "5", "--bidders",
            "heuristic", "--plays", "--calls", "--no-progress"]
    fault = Fault(monkeypatch, pq.ParquetWriter, "write_table", 2, table_frame("calls"))
    assert main(args) == 1
    err = capsys.readouterr().err
    assert fault.struck and "writing part" in err and "calls/part-0000" in err and "resume" in err
    monkeypatch.setattr(pq.ParquetWriter, "write_table", fault.real)
    assert main([*args, "--resume"]) == 0
    assert_same_frames(tuple(bs.read_parquet(out, frame=f) for f in DEAL_FRAMES), expected_deals(), "cli")


def test_a_failed_write_on_a_dask_worker_reaches_the_caller(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    path = tmp_path / "run"
    fault = Fault(monkeypatch, pq.ParquetWriter, "write_table", 1,
                  lambda w, t, *a: "trick" in t.schema.names and t.column("deal_id")[0].as_py() == 1000)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        with pytest.raises(bs.DatasetWriteError, match=r"writing part 1 .*plays/part-00001.*resume=True"):
            write_deals(path, client=client)
        deadline = time.monotonic() + 60  # a task already running when the error came runs to its end
        while temporary_files(path) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert fault.struck and temporary_files(path) == []
        assert "1" not in manifest_of(path)["parts"]
        monkeypatch.setattr(pq.ParquetWriter, "write_table", fault.real)
        write_deals(path, client=client, resume=True)
    assert_same_frames(tuple(bs.read_parquet(path, frame=f) for f in DEAL_FRAMES), expected_deals(), "dask")


# --- damaged files ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """A finished deal dataset to damage (each test copies it)."""
    path = tmp_path_factory.mktemp("written") / "run"
    write_deals(path)
    return path


def regions(data: bytes) -> dict[str, tuple[int, int]]:
    """Byte ranges of a Parquet file: the leading magic, the pages, the footer (metadata, its length,
    the trailing magic)."""
    footer = struct.unpack("<i", data[-8:-4])[0]
    return {"header": (0, 4), "data": (4, len(data) - 8 - footer), "footer": (len(data) - 8 - footer, len(data))}


def flip(path, region: str, count: int, seed: int) -> list[int]:
    """XOR ``count`` distinct bytes of ``region`` with non-zero values; the offsets flipped."""
    data = bytearray(path.read_bytes())
    low, high = regions(bytes(data))[region]
    rng = random.Random(seed)
    offsets = rng.sample(range(low, high), min(count, high - low))
    for offset in offsets:
        data[offset] ^= rng.randrange(1, 256)
    path.write_bytes(bytes(data))
    return offsets


FLIPS = [(region, count, frame) for region in ("header", "data", "footer") for count in (1, 3, 20)
         for frame in ("deals", "plays")]


@pytest.mark.parametrize("region, count, frame", FLIPS, ids=[f"{r}-{c}-{f}" for r, c, f in FLIPS])
def test_flipped_bytes_are_an_error_naming_the_part_and_a_resume_repairs_them(tmp_path, monkeypatch, written,
                                                                              region, count, frame):
    path = tmp_path / "run"
    shutil.copytree(written, path)
    expected = expected_deals()
    k = {"header": 0, "data": 1, "footer": 2}[region]
    offsets = flip(path / frame / datasets.part_name(k), region, count, seed=count * 31 + k)
    for read_frame in (frame, *(["deals"] if frame != "deals" else [])):
        try:
            got = bs.read_parquet(path, frame=read_frame)
        except ValueError as error:
            assert read_frame == frame, f"an intact frame was refused: {error}"
            assert f"damaged: its part {path}/{frame}/{datasets.part_name(k)}" in str(error)
            assert "resume=True" in str(error)
        else:
            assert read_frame != frame, f"flipped bytes at {offsets} were read as data"
            pd.testing.assert_frame_equal(got, expected[DEAL_FRAMES.index(read_frame)])
    written_parts = record_written_parts(monkeypatch)
    write_deals(path, resume=True)
    assert written_parts == [k]
    assert_same_frames(tuple(bs.read_parquet(path, frame=f) for f in DEAL_FRAMES), expected, f"{region} {offsets}")


@pytest.mark.parametrize("keep", [0, 1, 100, -1])
def test_a_truncated_part_is_an_error_and_a_resume_repairs_it(tmp_path, monkeypatch, written, keep):
    path = tmp_path / "run"
    shutil.copytree(written, path)
    part = path / "calls" / datasets.part_name(1)
    data = part.read_bytes()
    part.write_bytes(data[:keep] if keep >= 0 else data[:-1])
    with pytest.raises(ValueError, match=rf"damaged: its part .*calls/{datasets.part_name(1)}.*resume=True"):
        bs.read_parquet(path, frame="calls")
    pd.testing.assert_frame_equal(bs.read_parquet(path), expected_deals()[0])  # the other frames are intact
    written_parts = record_written_parts(monkeypatch)
    write_deals(path, resume=True)
    assert written_parts == [1]
    assert_same_frames(tuple(bs.read_parquet(path, frame=f) for f in DEAL_FRAMES), expected_deals(), "truncated")


UNLISTED_FLIPS = [(region, count, seed) for region in ("data", "footer") for count in (1, 3) for seed in range(4)]


@pytest.mark.parametrize("region, count, seed", UNLISTED_FLIPS, ids=[f"{r}-{c}-{s}" for r, c, s in UNLISTED_FLIPS])
def test_a_part_no_manifest_lists_is_kept_only_if_it_reads_back_as_written(tmp_path, monkeypatch, written, region,
                                                                            count, seed):
    """Without a manifest there is no CRC-32 of the files: a resume reads each part whole with its pages'
    checksums verified and its columns as it records them (page checksums do not cover the footer), and
    recomputes a part that fails; a footer flip that hits the recorded arguments makes the folder
    someone else's: refused, naming the part.  Never different data."""
    path = tmp_path / "run"
    shutil.copytree(written, path)
    (path / MANIFEST).unlink()
    offsets = flip(path / "plays" / datasets.part_name(2), region, count, seed=seed)
    written_parts = record_written_parts(monkeypatch)
    try:
        write_deals(path, resume=True)
    except ValueError as error:
        assert region == "footer" and f"part {path}/plays/{datasets.part_name(2)}" in str(error), str(error)
        return
    assert written_parts in ([2], []), offsets
    assert_same_frames(tuple(bs.read_parquet(path, frame=f) for f in DEAL_FRAMES), expected_deals(), f"{offsets}")


def test_a_resume_verifies_every_byte_of_every_listed_part(tmp_path, monkeypatch, written):
    """A change the footer checks cannot see (a value inside a page of a listed part) is found by the
    part's CRC-32 and the part recomputed; the manifest records size and CRC-32 of each file."""
    path = tmp_path / "run"
    shutil.copytree(written, path)
    flip(path / "deals" / datasets.part_name(0), "data", 1, seed=3)
    written_parts = record_written_parts(monkeypatch)
    write_deals(path, resume=True)
    assert written_parts == [0]
    written_parts.clear()
    write_deals(path, resume=True)
    assert written_parts == []


def test_temporary_files_left_by_a_killed_writer_are_ignored_and_removed(tmp_path, written):
    path = tmp_path / "run"
    shutil.copytree(written, path)
    leftovers = [path / "._belot_sim.json.0123456789ab.tmp", path / "plays" / ".part-00001.parquet.ba9876543210.tmp"]
    for leftover in leftovers:
        leftover.write_bytes(b"half a file")
    assert_same_frames(tuple(bs.read_parquet(path, frame=f) for f in DEAL_FRAMES), expected_deals(), "read")
    write_deals(path, resume=True)
    assert temporary_files(path) == []


# --- killed writers ----------------------------------------------------------------------------

KILLED = """
import sys
import belot_sim as bs
bs.simulate_to_parquet(sys.argv[1], 120, partition_size=3, players="pimc", worlds=4, plays=True, seed=9,
                       progress=False, resume=sys.argv[2] == "resume")
"""
KILLED_KWARGS = dict(partition_size=3, players="pimc", worlds=4, plays=True, seed=9, progress=False)


def listed_parts(path) -> int:
    try:
        return len(manifest_of(path)["parts"])
    except (OSError, ValueError):  # no manifest yet
        return 0


def kill_after(writer, path, parts: int, delay: float) -> None:
    """SIGKILL ``writer`` ``delay`` seconds after the manifest lists ``parts`` parts (or it ended)."""
    deadline = time.monotonic() + 300
    while listed_parts(path) < parts and writer.poll() is None:
        assert time.monotonic() < deadline, "the writer made no progress"
        time.sleep(0.005)
    time.sleep(delay)
    writer.send_signal(signal.SIGKILL)
    writer.wait()


def test_writers_killed_at_random_moments_leave_a_dataset_a_resume_completes(tmp_path):
    """SIGKILL at seeded random moments of a first write and of resumes: right after the start (before
    the first manifest, or while kernels load), and a few milliseconds after a given part was recorded
    (inside the next part's blocks, its renames, the manifest's write); each following resume completes
    the dataset to simulate's rows and leaves no temporary file."""
    path = tmp_path / "run"
    rng = random.Random(48)
    kills = [(0, rng.uniform(0.0, 0.5))] + [(rng.randrange(1, 8), rng.uniform(0.0, 0.08)) for _ in range(4)]
    for more, delay in kills:  # at most 1 + 4 * 7 = 29 of the 40 parts asked for, plus what the delays let through
        before = listed_parts(path)
        writer = subprocess.Popen([sys.executable, "-c", textwrap.dedent(KILLED), str(path),
                                   "resume" if path.exists() else "new"], stderr=subprocess.PIPE)
        kill_after(writer, path, before + more, delay)
        assert writer.returncode in (-signal.SIGKILL, 0), writer.stderr.read().decode()[-2000:]
    assert 0 < listed_parts(path) < 40, "every kill came too early or too late to test anything"
    bs.simulate_to_parquet(path, 120, resume=True, **KILLED_KWARGS)
    assert temporary_files(path) == []
    expected = bs.simulate(120, players="pimc", worlds=4, plays=True, seed=9)
    assert_same_frames((bs.read_parquet(path), bs.read_parquet(path, frame="plays")), expected, "killed")
