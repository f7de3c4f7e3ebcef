"""The shape of the package, read from its source: imports point one way, kernels never see
pandas, functions and modules stay small, nothing points outside the repository."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "belot_sim"
REPO = PACKAGE.parent
MAX_FUNCTION_LINES = 150
MAX_MODULE_LINES = 1000
#: Layers from the bottom up: a module may import only from its own layer or the ones below.
LAYERS = (
    ("belot_sim._cache", "belot_sim.errors", "belot_sim.cards", "belot_sim.rules", "belot_sim.scoring",
     "belot_sim.notation"),
    ("belot_sim.kernels.core",),
    # The bidder models: what a bidder calls with given cards, functions of the cards and the
    # auction only (the expert player replays them to read an auction).
    ("belot_sim.kernels.bidding.codes", "belot_sim.kernels.bidding.heuristic", "belot_sim.kernels.bidding.atlas_bidder",
     "belot_sim.kernels.bidding.consistent"),
    ("belot_sim.kernels.solver",),
    ("belot_sim.kernels.policies",),
    ("belot_sim.kernels.play_loop",),
    ("belot_sim.kernels.bidding",),
    ("belot_sim.kernels.batch",),
    ("belot_sim.reference",),
    ("belot_sim",),  # the Python edge: everything else
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(), filename=str(path)) for name, path in MODULES.items()}


def imported_modules(name: str) -> set[str]:
    """Every module of the package ``name`` imports, at any depth of its code (function-level
    imports included), resolved to the longest existing module name."""
    is_package = MODULES[name].name == "__init__.py"
    found = set()
    for node in ast.walk(TREES[name]):
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
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


GRAPH = {name: imported_modules(name) for name in MODULES}


def layer_of(name: str) -> int:
    for level, prefixes in enumerate(LAYERS[:-1]):
        if any(name == p or name.startswith(p + ".") for p in prefixes):
            return level
    return len(LAYERS) - 1


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
    upward = [f"{name} (layer {layer_of(name)}) imports {target} (layer {layer_of(target)})"
              for name, targets in GRAPH.items() for target in targets if layer_of(target) > layer_of(name)]
    assert not upward, "\n".join(upward)


def test_the_cycle_check_sees_function_level_imports():
    # the dispatch reaches the searching players only inside an overload, at typing time
    assert "belot_sim.kernels.policies.search" in GRAPH["belot_sim.kernels.policies.decide"]
    assert "belot_sim.kernels.policies.all_dd" in GRAPH["belot_sim.kernels.play_loop"]


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
