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
