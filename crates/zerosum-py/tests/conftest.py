"""Shared fixtures of the Python suite: the command line (`zerosum`), to compare answers with.

The binary is `$ZEROSUM_BIN` when set, else the release build of this repository
(`target/release/zerosum`, built here with cargo if it is missing).
"""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def cli():
    """A function running `zerosum ARGS...` and returning its standard output."""
    binary = os.environ.get("ZEROSUM_BIN")
    if binary is None:
        binary = ROOT / "target" / "release" / "zerosum"
        if not binary.exists():
            subprocess.run(
                ["cargo", "build", "--release", "--locked", "-p", "zerosum"],
                cwd=ROOT,
                check=True,
            )

    def run(*args, stdin=None):
        done = subprocess.run(
            [str(binary), *map(str, args)],
            cwd=ROOT,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


def example_specs():
    """Every family's example specs, as `zerosum.games()` lists them."""
    import zerosum

    return [spec for family in zerosum.games() for spec in family["examples"]]
