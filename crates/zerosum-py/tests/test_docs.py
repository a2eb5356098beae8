"""Every Python example of the README and of docs/python.md runs as pasted, from the
repository's root."""

import os
import pathlib
import re

import pytest

from conftest import ROOT


def python_blocks(document):
    text = (ROOT / document).read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


EXAMPLES = [
    pytest.param(code, id=f"{document}#{index + 1}")
    for document in ["README.md", "docs/python.md"]
    for index, code in enumerate(python_blocks(document))
]


def test_the_documents_have_their_examples():
    assert len(python_blocks("docs/python.md")) == 3
    assert len(python_blocks("README.md")) == 1


@pytest.mark.parametrize("code", EXAMPLES)
def test_example_runs_as_pasted(code, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(code, "<example>", "exec"), {"__name__": "__example__"})
