"""The tutorial notebook (docs/tutorial.ipynb) runs from top to bottom in a Jupyter kernel of this
interpreter, importing this checkout's belot_sim, and shows what it says: tables, a figure, SVG pictures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parent.parent
NOTEBOOK = REPO / "docs" / "tutorial.ipynb"


def kernel_of_this_interpreter(folder: Path) -> str:
    """A kernel spec under ``folder`` that starts ``sys.executable`` (not whatever ``python3`` kernel the
    machine has), found through ``JUPYTER_PATH``; returns its name."""
    spec = folder / "kernels" / "belot-sim-tests"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "belot_sim tests", "language": "python",
        "env": {"PYTHONPATH": str(REPO), "MPLBACKEND": "module://matplotlib_inline.backend_inline"}}))
    return spec.name


def outputs_of(cell) -> set[str]:
    """The kinds of output a cell left: MIME types of its results and displays, 'stream' for prints."""
    kinds = set()
    for output in cell.get("outputs", []):
        kinds |= set(output.get("data", {})) if "data" in output else {output["output_type"]}
    return kinds


def test_the_tutorial_notebook_runs_and_shows_its_pictures(tmp_path, monkeypatch):
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), \
        "commit the notebook without outputs"
    check = nbformat.v4.new_code_cell("import belot_sim\nprint(belot_sim.__file__)")
    notebook.cells.append(check)
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    work = tmp_path / "work"
    work.mkdir()
    client = NotebookClient(notebook, kernel_name=kernel_of_this_interpreter(tmp_path / "jupyter"), timeout=900,
                            resources={"metadata": {"path": str(work)}})
    client.execute()
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    printed = "".join(o.get("text", "") for o in check.outputs)
    assert Path(printed.strip()) == REPO / "belot_sim" / "__init__.py"
    kinds = [outputs_of(cell) for cell in code]
    assert "image/png" in set().union(*kinds)  # the figure
    assert sum("text/html" in k for k in kinds) >= 3  # the frames and the bid table
    svg = [cell for cell, k in zip(code, kinds) if "image/svg+xml" in k]
    assert len(svg) == 2  # the position and the deal
    assert 'data-card="9D" data-seat="2" data-place="trick"' in svg[0].outputs[0]["data"]["image/svg+xml"]
    assert (work / "deal.svg").read_text(encoding="utf-8").startswith("<svg")
