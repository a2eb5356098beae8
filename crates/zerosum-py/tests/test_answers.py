"""solve, search and analyze answer as the command line does."""

import re

import pytest

import zerosum
from conftest import ROOT


def fields(text):
    """`key value` lines as a dict (the command line's `solve` output)."""
    return dict(line.split(" ", 1) for line in text.splitlines())


@pytest.mark.parametrize(
    "spec, moves",
    [
        ("connect4", "4453"),  # the opening book
        ("connectx:5x4x4", "1"),  # the Connect-X solver
        ("tictactoe", "a1"),  # the generic solver
        ("mnk:4x4x3", ""),
        ("hex:3", "a1"),  # proof numbers
        ("hex:3:swap-pieces", "b2"),  # the generic solver under the swap rule
        ("unstable:3x3", ""),
    ],
)
def test_solve_equals_the_command_line(spec, moves, cli):
    solution = zerosum.solve(spec, moves)
    expected = fields(cli("solve", spec, "--moves", moves))
    assert solution.solved and solution.proof is None
    assert solution.score == expected["score"]
    assert solution.meaning == expected["value"]
    assert " ".join(solution.best_moves) == expected["best"]
    weak = zerosum.solve(spec, moves, weak=True)
    assert weak.score == fields(cli("solve", spec, "--moves", moves, "--weak"))["score"]


def test_a_limited_solve_says_what_it_proved(cli):
    solution = zerosum.solve("mnk:5x5x4", nodes=2000)
    line = cli("solve", "mnk:5x5x4", "--nodes", 2000).strip()
    assert not solution.solved and solution.score is None and solution.best_moves == []
    timeless = lambda text: re.sub(r"\d+\.\d s", "T s", text)  # noqa: E731
    assert timeless(solution.proof) == timeless(line)
    assert "nodes" in solution.proof


@pytest.mark.parametrize(
    "spec, moves, depth",
    [("connect4", "44", 8), ("gomoku", "h8", 3), ("hex:7", "d4", 3), ("unstable:6x6", "", 4)],
)
def test_search_equals_the_command_line(spec, moves, depth, cli):
    result = zerosum.search(spec, moves, depth=depth)
    lines = cli("search", spec, "--moves", moves, "--depth", depth).splitlines()
    best = lines[-1].split()
    assert best[0:2] == ["bestmove", result.move]
    assert best[3] == result.score and int(best[5]) == result.depth
    assert int(best[7]) == result.nodes
    infos = [line for line in lines if line.startswith("depth ")]
    drop_timing = lambda line: re.sub(r" (nps|time) \S+", "", line)  # noqa: E731
    assert list(map(drop_timing, result.iterations)) == list(map(drop_timing, infos))
    assert result.pv and result.pv[0] in zerosum.Game(spec, moves).legal_moves()
    if result.proof is not None:
        assert lines[0] == result.proof


def test_search_with_a_weights_file_equals_the_command_line(cli, tmp_path):
    weights = str(ROOT / "weights" / "gomoku.txt")
    result = zerosum.search("gomoku", "h8 h9", depth=3, eval="patterns", weights=weights)
    line = cli(
        "search", "gomoku", "--moves", "h8 h9", "--depth", 3, "--eval", "patterns", "--weights", weights
    ).splitlines()[-1]
    best = line.split()
    assert best[1] == result.move and int(best[7]) == result.nodes
    builtin = zerosum.search("gomoku", "h8 h9", depth=3, eval="patterns")
    assert builtin.nodes != result.nodes, "the weights file made no difference"
    corrupt = tmp_path / "corrupt.txt"
    corrupt.write_text("zerosum pattern weights 1\nnot a weight\n")
    with pytest.raises(zerosum.ZerosumError, match="corrupt.txt"):
        zerosum.search("gomoku", depth=2, eval="patterns", weights=str(corrupt))


def test_analyze_equals_the_command_line(cli):
    values = zerosum.analyze("tictactoe", "a1", depth=9)
    lines = cli("analyze", "tictactoe", "--moves", "a1", "--depth", 9).splitlines()
    assert [f"{v.move} {v.score}" for v in values] == lines
    assert all(v.solved for v in values)


def test_bad_arguments_raise():
    with pytest.raises(zerosum.GameSpecError):
        zerosum.solve("connectx:99x99x0")
    with pytest.raises(zerosum.IllegalMoveError, match="illegal move"):
        zerosum.solve("tictactoe", "a1 a1")
    with pytest.raises(zerosum.ZerosumError, match="the game is over .*nothing to solve"):
        zerosum.solve("tictactoe", "a1 b1 a2 b2 a3")
    with pytest.raises(zerosum.ZerosumError, match="nothing to search"):
        zerosum.search("tictactoe", "a1 b1 a2 b2 a3")
    with pytest.raises(ValueError, match="time must be a positive number"):
        zerosum.search("connect4", time=-1)
    with pytest.raises(ValueError, match="depth must be between 1 and 250"):
        zerosum.search("connect4", depth=0)
    with pytest.raises(ValueError, match="unknown search algorithm `best`"):
        zerosum.search("connect4", algo="best")
    with pytest.raises(ValueError, match="hash_mb"):
        zerosum.solve("connect4", hash_mb=10**9)
    with pytest.raises(zerosum.ZerosumError, match="no evaluation named"):
        zerosum.search("connect4", depth=2, eval="nosuch")
