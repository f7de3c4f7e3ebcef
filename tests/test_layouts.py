"""Every flat state array's layout (kernels/core/layouts.py): slots distinct, in bounds, exported
as the constants the kernels import, and the arrays the kernels allocate sized from them."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from belot_sim.kernels.core import layouts as L
from belot_sim.kernels.core.auction_rules import auction_start
from belot_sim.kernels.players.view import new_view


@pytest.mark.parametrize("layout", L.LAYOUTS, ids=[layout.title for layout in L.LAYOUTS])
def test_slots_are_distinct_and_in_bounds(layout):
    covered = np.zeros(layout.size, dtype=np.int64)
    for slot in layout.slots:
        assert slot.size > 0 and layout.start <= slot.offset and slot.end <= layout.end, slot
        covered[slot.offset - layout.start:slot.end - layout.start] += 1
    assert (covered == 1).all(), f"{layout.title}: slots overlap or leave gaps"
    assert len({s.name for s in layout.slots}) == len(layout.slots)


@pytest.mark.parametrize("layout", L.LAYOUTS, ids=[layout.title for layout in L.LAYOUTS])
def test_the_module_exports_each_slot_as_its_offset(layout):
    for slot in layout.slots:
        assert getattr(L, layout.prefix + slot.name) == slot.offset
    if layout.is_section:  # a section's size is not its array's: no <prefix>SIZE to mistake for it
        assert getattr(L, layout.prefix + "END") == layout.end and not hasattr(L, layout.prefix + "SIZE")
    else:
        assert getattr(L, layout.prefix + "SIZE") == layout.size


def test_prefixes_do_not_collide():
    names = [name for layout in L.LAYOUTS for name in layout.constants()]
    assert len(names) == len(set(names))


def test_defaults_fill_their_slots_and_keep_integers_integers():
    ints = L.BIDDER_INTS.defaults()
    assert ints.dtype == np.int64 and ints[L.BI_MC_SAMPLES] == 32
    weights = L.BIDDER_WEIGHTS.defaults()
    assert weights.dtype == np.float64 and weights[L.BW_PASS_PROB] == 0.6
    assert all(s.default is not None for s in L.BIDDER_INTS.slots + L.BIDDER_WEIGHTS.slots)


def test_the_kernels_state_arrays_have_the_layout_sizes():
    state = np.full(L.A_SIZE, -7, dtype=np.int64)
    auction_start(state, 2, 0, -1)
    assert state[L.A_DEALER] == 2 and state[L.A_TO_MOVE] == 3 and state[L.A_TURNED] == -1
    assert len(new_view()) == L.V_SIZE


def test_a_layout_refuses_empty_or_repeated_slots():
    with pytest.raises(ValueError, match="size"):
        L.Layout("X_", np.int64, "bad", (("A", 0, "empty"),))
    with pytest.raises(ValueError, match="repeats"):
        L.Layout("X_", np.int64, "bad", (("A", 1, "a"), ("A", 1, "again")))


def test_describe_lists_every_slot():
    text = L.SOLVER_CTX.describe()
    assert all(f"C_{s.name}" in text for s in L.SOLVER_CTX.slots)


def test_the_explicit_constants_are_the_ones_the_tables_generate():
    """layouts.py ends with every slot's constant written out (no globals().update): regenerate the
    block from the tables and compare; after a change to a table, run the file to write it again."""
    source = Path(L.__file__).read_text()
    start = source.index("\n" + L.GENERATED_START) + 1
    assert source[start:] == L.generated_constants(), "run: python belot_sim/kernels/core/layouts.py"
    for layout in L.LAYOUTS:
        for name, value in layout.constants().items():
            assert getattr(L, name) == value, name


def test_the_scratch_sections_tile_one_array():
    ends = [0] + [section.end for section in L.SCRATCH]
    assert [section.start for section in L.SCRATCH] == ends[:-1]
    assert L.SCRATCH_SIZE == ends[-1] == sum(section.size for section in L.SCRATCH)
    assert all(section.is_section for section in L.SCRATCH)
    assert "[2:6] of the array" in L.DD_SCRATCH.describe() and "SD_FINAL" in L.DD_SCRATCH.describe()


#: The package's modules that may use each section of ``scratch`` (by its prefix): the owner named in the
#: section's title, and the callers that fill or read it.  A new user is declared here, on purpose.
SCRATCH_USERS = {
    "SS_": {"kernels/players/scratch.py", "kernels/players/position.py", "kernels/players/inference.py",
            "kernels/play_loop.py", "kernels/bidding/mc.py", "kernels/batch/deal.py", "kernels/batch/endings.py",
            "kernels/batch/estimate.py"},
    "SD_": {"kernels/players/dd_player.py", "kernels/players/scratch.py", "kernels/players/position.py"},
    "SW_": {"kernels/players/sampling.py", "kernels/players/worlds.py", "kernels/players/owners.py",
            "kernels/players/inference.py", "kernels/players/pimc.py", "kernels/players/scratch.py",
            "positions/bots.py", "training/ownership.py"},
    "SP_": {"kernels/players/pimc.py", "kernels/play_loop.py"},
    "SX_": {"kernels/players/inference.py", "kernels/players/pimc.py", "positions/bots.py"},
}


@pytest.mark.parametrize("prefix", sorted(SCRATCH_USERS))
def test_each_scratch_section_is_used_by_its_owner_and_declared_callers_only(prefix):
    assert {section.prefix for section in L.SCRATCH} == set(SCRATCH_USERS)
    package = Path(L.__file__).parents[2]
    name = re.compile(rf"\b{prefix}[A-Z]")
    users = {path.relative_to(package).as_posix() for path in package.rglob("*.py")
             if path.name != "layouts.py" and name.search(path.read_text())}
    assert users == SCRATCH_USERS[prefix]
