"""The README's Python blocks run, and print what the README says (they are doctests), and the
README stays a page for users."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_the_readme_has_python_blocks_and_stays_short():
    assert len(BLOCKS) >= 4
    assert README.read_text().count("\n") <= 300


def test_readme_blocks_run_as_shown():
    """The blocks in reading order, in one namespace (later blocks use earlier names)."""
    namespace: dict = {}
    failures = []
    for k, block in enumerate(BLOCKS):
        test = doctest.DocTestParser().get_doctest(block, namespace, f"README block {k}", str(README), 0)
        assert test.examples, f"README block {k} has no >>> examples"
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
        runner.run(test, clear_globs=False)
        namespace.update(test.globs)  # a DocTest runs in a copy of the names it was given
        result = runner.summarize(verbose=False)
        if result.failed:
            failures.append(f"block {k}: {result.failed} of {result.attempted} examples failed")
    assert not failures, failures


def test_the_dask_block_tells_scripts_to_guard_the_cluster():
    """``LocalCluster`` starts processes that import the script: a script without the guard starts
    clusters without end, so the paragraph before the block says so."""
    text = README.read_text()
    block = text.index(">>> cluster = LocalCluster(")
    opening = text.rindex("```python", 0, block)
    paragraph = text[text.rindex("```", 0, opening) + 3:opening]  # the prose between the blocks
    assert 'if __name__ == "__main__":' in paragraph
