"""No leak: resident memory stays flat (within 10%) over 10^6 steps of the vector environment
and 10^5 of the single-game API; the benchmark runs."""

import subprocess
import sys

from zerosum.bench import memory


def test_resident_memory_stays_flat_over_a_million_steps():
    before, after, before_single, after_single = memory()
    assert after <= before * 1.10, (before, after)
    assert after_single <= before_single * 1.10, (before_single, after_single)


def test_the_benchmark_runs():
    done = subprocess.run(
        [sys.executable, "-m", "zerosum.bench", "--games", "connect4", "--batch", "64", "--seconds", "0.2"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "(a) zerosum VectorEnv, 1 thread" in done.stdout
    assert "(a) ... no observations, 1 thread" in done.stdout
    assert "(c) OpenSpiel pyspiel" in done.stdout and "(d) pgx" in done.stdout
