"""The shape of the package, read from its source: imports point one way, kernels never see
pandas, functions and modules stay small, nothing points outside the repository."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "belot_sim"
REPO = PACKAGE.parent
MAX_FUNCTION_LINES = 150
MAX_MODULE_LINES = 1000
#: Layers from the bottom up: a module may import only from its own layer or the ones below
#: (docs/layout.md draws the same picture).
LAYERS = (
    # the package's leaves and the rules' vocabulary in Python
    ("belot_sim._cache", "belot_sim._version", "belot_sim.errors", "belot_sim.game"),
    ("belot_sim.kernels.core",),
    # The bidder models: what a bidder calls with given cards, functions of the cards and the
    # auction only (the expert player replays them to read an auction).
    ("belot_sim.kernels.bid_models",),
    ("belot_sim.kernels.solver",),
    ("belot_sim.kernels.players",),
    ("belot_sim.kernels.play_loop",),
    ("belot_sim.kernels.bidding",),
    ("belot_sim.kernels.batch",),
    ("belot_sim.reference",),
    ("belot_sim.engine",),  # the Python edge over the kernels
    ("belot_sim.simulation",),
    ("belot_sim.positions",),
    ("belot_sim.estimates",),
    ("belot_sim.datasets",),
    ("belot_sim.training",),  # the neural player's training: data generation and fitting, above the pandas layer
    ("belot_sim.env", "belot_sim.warmup", "belot_sim.options", "belot_sim._moved"),
    ("belot_sim.cli",),
    ("belot_sim",),  # the front door, belot_sim/__init__.py (and anything not named above)
)


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = [package.name, *path.relative_to(package).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def import_graph(package: Path) -> tuple[dict[str, Path], dict[str, ast.Module], dict[str, set[str]]]:
    """The modules of the package in the folder ``package``, their syntax trees, and what each imports."""
    modules = {module_name(p, package): p for p in sorted(package.rglob("*.py"))}
    trees = {name: ast.parse(path.read_text(), filename=str(path)) for name, path in modules.items()}
    return modules, trees, {name: imported_modules(name, modules, trees) for name in modules}


def imported_modules(name: str, modules: dict, trees: dict) -> set[str]:
    """Every module of the package ``name`` imports, at any depth of its code (function-level
    imports included), resolved to the longest existing module name."""
    is_package = modules[name].name == "__init__.py"
    found = set()
    for node in ast.walk(trees[name]):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[:len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            targets = [prefix] + [f"{prefix}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


MODULES, TREES, GRAPH = import_graph(PACKAGE)


def layer_of(name: str) -> int:
    for level, prefixes in enumerate(LAYERS[:-1]):
        if any(name == p or name.startswith(p + ".") for p in prefixes):
            return level
    return len(LAYERS) - 1


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return [f"{name} (layer {layer_of(name)}) imports {target} (layer {layer_of(target)})"
            for name, targets in graph.items() for target in targets if layer_of(target) > layer_of(name)]


def test_the_import_graph_has_no_cycle():
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(GRAPH[node]):
            if state.get(target) == 1:
                cycle = stack[stack.index(target):] + [target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if not state.get(target):
                visit(target)
        stack.pop()
        state[node] = 2

    for name in sorted(GRAPH):
        if not state.get(name):
            visit(name)


def test_every_import_points_down_the_layers():
    upward = upward_imports(GRAPH)
    assert not upward, "\n".join(upward)


@pytest.mark.parametrize("where, line", [
    ("game/cards.py", "from ..simulation import deals"),  # the rules' vocabulary reaching up to a room
    ("engine/checks.py", "    from ..estimates.bid import estimate_bid"),  # inside a function, at any depth
    ("kernels/core/bits.py", "from ..players import pimc"),
    ("datasets/parts.py", "from .. import cli"),
])
def test_an_upward_import_in_a_scratch_copy_fails_the_layer_check(tmp_path, where, line):
    copy = tmp_path / "belot_sim"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "data"))
    target = copy / where
    text = target.read_text()
    body = f"def scratch():\n{line}\n" if line.startswith(" ") else f"{line}\n"
    target.write_text(text + "\n\n" + body)
    upward = upward_imports(import_graph(copy)[2])
    module = module_name(target, copy)
    assert [u for u in upward if u.startswith(f"{module} ")], upward


def test_the_cycle_check_sees_function_level_imports():
    # the dispatch reaches the searching players only inside an overload, at typing time
    assert "belot_sim.kernels.players.dd_player" in GRAPH["belot_sim.kernels.players.decide"]
    assert "belot_sim.kernels.players.all_dd" in GRAPH["belot_sim.kernels.play_loop"]


def test_no_kernel_module_imports_pandas():
    offenders = []
    for name, tree in TREES.items():
        if not name.startswith("belot_sim.kernels"):
            continue
        for node in ast.walk(tree):
            modules = ([a.name for a in node.names] if isinstance(node, ast.Import)
                       else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            if any(m == "pandas" or m.startswith("pandas.") for m in modules):
                offenders.append(name)
    assert not offenders, offenders


@pytest.mark.parametrize("name", sorted(MODULES))
def test_functions_and_modules_stay_small(name):
    lines = MODULES[name].read_text().count("\n")
    assert lines <= MAX_MODULE_LINES, f"{name} has {lines} lines"
    long = [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)" for node in ast.walk(TREES[name])
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, f"{name}: {long}"


def shipped_text_files():
    yield from sorted(PACKAGE.rglob("*.py"))
    yield from sorted((REPO / "tests").rglob("*.py"))
    yield from sorted((REPO / "docs").rglob("*.md"))
    yield REPO / "README.md"


def test_nothing_points_outside_the_repository():
    outside = re.compile(r"\.\./shared|DESIGN\.md|(?<![\w/])RULES\.md|seeds/")
    hits = [f"{path.relative_to(REPO)}:{n}: {line.strip()}"
            for path in shipped_text_files() if path.exists() and path != Path(__file__)
            for n, line in enumerate(path.read_text().splitlines(), 1) if outside.search(line)]
    assert not hits, "\n".join(hits[:20])


def test_every_public_function_says_what_it_returns():
    import inspect

    import belot_sim as bs

    bare = [name for name in bs.__all__ if inspect.isfunction(getattr(bs, name))
            and inspect.signature(getattr(bs, name)).return_annotation is inspect.Signature.empty]
    assert not bare, bare
