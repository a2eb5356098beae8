"""The state API: rules agree with the Rust perft counts for every family; moves as text and
as action ids; clone, undo, returns, observation and mask; errors as exceptions."""

import copy

import numpy as np
import pytest

import zerosum
from conftest import example_specs

SPECS = example_specs()


def python_perft(game, depth):
    """Perft through the Python API: play and undo every legal action."""
    if depth == 0:
        return 1
    total = 0
    for action in game.legal_actions():
        game.play(action)
        total += python_perft(game, depth - 1)
        game.undo()
    return total


def test_every_family_has_examples():
    families = {family["name"] for family in zerosum.games()}
    assert {"mnk", "connectx", "hex", "atoll", "unstable"} <= families
    assert len(SPECS) >= len(families)


@pytest.mark.parametrize("spec", SPECS)
def test_perft_through_python_equals_the_command_lines(spec, cli):
    depth = 3
    lines = cli("perft", spec, depth).splitlines()
    counts = [int(line.split()[1]) for line in lines]
    game = zerosum.Game(spec)
    # Through Python, one depth less on large boards (15x15: 11 million leaves at depth 3).
    python_depth = depth if game.action_count <= 64 else depth - 1
    assert [python_perft(game, d) for d in range(1, python_depth + 1)] == counts[:python_depth]
    assert [zerosum.perft(spec, d) for d in range(1, depth + 1)] == counts
    assert game.ply == 0


def test_known_perft_counts():
    assert [zerosum.perft("tictactoe", d) for d in range(1, 5)] == [9, 72, 504, 3024]
    assert zerosum.perft("connect4", 4) == 2401
    # Games that last all nine plies: 81,792 won by X on the last move and 46,080 drawn.
    assert zerosum.perft("tictactoe", 9) == 127872
    assert zerosum.Game("tictactoe", "b2").perft(2) == 56


@pytest.mark.parametrize("spec", SPECS)
def test_actions_and_text_name_the_same_moves(spec):
    game = zerosum.Game(spec)
    rng = np.random.default_rng(7)
    for _ in range(30):
        if game.is_terminal():
            break
        texts, actions = game.legal_moves(), game.legal_actions()
        mask = game.legal_mask()
        assert mask.dtype == np.bool_ and mask.shape == (game.action_count,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(actions)
        assert [game.action_text(a) for a in actions] == texts
        assert [game.action_of(t) for t in texts] == actions
        obs = game.observation()
        assert obs.dtype == np.float32 and obs.shape == game.observation_shape
        assert np.all(obs[2] == (1.0 if game.to_move == 0 else 0.0))
        game.play(int(rng.choice(actions)))


def test_play_undo_clone_and_returns():
    game = zerosum.Game("tictactoe")
    assert game.play("a1") == "a1"
    assert game.play(4) == "b2"
    copied = game.clone()
    also = copy.deepcopy(game)
    game.play_list("a2 b1 a3")
    assert game.history == ["a1", "b2", "a2", "b1", "a3"]
    assert game.is_terminal() and game.status == "first" and game.winner == 0
    assert game.returns() == (1.0, -1.0)
    assert copied.ply == 2 and also.ply == 2 and not copied.is_terminal()
    assert copied.returns() == (0.0, 0.0) and copied.winner is None
    assert game.undo() and game.ply == 4 and not game.is_terminal()
    assert zerosum.Game("tictactoe").undo() is False
    assert "X" in str(copied) and copied.render() == str(copied)
    assert repr(copied) == 'Game("mnk:3x3x3", "a1 b2")'
    assert '"to_move":"first"' in copied.to_json()


def test_observation_planes_hold_each_sides_stones():
    game = zerosum.Game("connect4", "4 4 3")
    obs = game.observation()
    assert obs.shape == (3, 6, 7)
    assert obs[0].sum() == 2 and obs[1].sum() == 1
    assert obs[0, 5, 3] == 1 and obs[0, 5, 2] == 1 and obs[1, 4, 3] == 1
    assert np.all(obs[2] == 0.0)  # the second player moves


def test_errors_are_exceptions_with_our_messages():
    with pytest.raises(zerosum.GameSpecError, match="unknown game `nosuchgame`"):
        zerosum.Game("nosuchgame")
    with pytest.raises(zerosum.GameSpecError, match="bad game spec"):
        zerosum.Game("mnk:3x3x9")
    game = zerosum.Game("tictactoe", "b2")
    with pytest.raises(zerosum.IllegalMoveError, match="illegal move `b2`: occupied"):
        game.play("b2")
    with pytest.raises(zerosum.IllegalMoveError, match="cannot read move"):
        game.play("zz")
    with pytest.raises(ValueError, match="action 9 is out of range"):
        game.play(9)
    with pytest.raises(ValueError, match="action -1 is out of range"):
        game.play(-1)
    with pytest.raises(ValueError, match="a move is a string or an action id"):
        game.play(1.5)
    with pytest.raises(zerosum.IllegalMoveError, match="move 2 of the list"):
        zerosum.Game("tictactoe", "a1 a1")
    assert game.history == ["b2"]
    assert issubclass(zerosum.IllegalMoveError, zerosum.ZerosumError)
    finished = zerosum.Game("tictactoe", "a1 b1 a2 b2 a3")
    with pytest.raises(zerosum.IllegalMoveError, match="after the end of the game"):
        finished.play("c3")
