"""The vector environment: its games equal games played one at a time with the same seeds,
on one thread and several; auto-reset; bad actions raise and move no game."""

import numpy as np
import pytest

import zerosum
from conftest import example_specs

SPECS = [
    "tictactoe",
    "connect4",
    "hex:5",
    "hex:5:swap-pieces",
    "hex:9",
    "gomoku",
    "atoll:standard",
    "unstable:4x4",
]


def one_at_a_time(spec, seed, steps):
    """A game played with RandomPlayer(seed), restarted when it ends: per step the action,
    the mover's reward, the done flag, the next observation and mask."""
    game, player = zerosum.Game(spec), zerosum.RandomPlayer(seed)
    for _ in range(steps):
        action = player.choose(game)
        mover = game.to_move
        game.play(action)
        done = game.is_terminal()
        reward = game.returns()[mover]
        if done:
            game = zerosum.Game(spec)
        yield action, reward, done, game.observation(), game.legal_mask()


@pytest.mark.parametrize("threads", [1, 3])
@pytest.mark.parametrize("spec", SPECS)
def test_vector_games_equal_games_played_one_at_a_time(spec, threads):
    games, steps, seed = 5, 200, 11
    env = zerosum.VectorEnv(spec, games, seed=seed, threads=threads)
    observations, masks = env.reset()
    assert observations.shape == (games, *env.observation_shape)
    assert masks.shape == (games, env.action_count)
    expected = [list(one_at_a_time(spec, seed + i, steps)) for i in range(games)]
    for step in range(steps):
        actions = env.sample_actions()
        observations, rewards, dones, masks = env.step(actions)
        assert observations.dtype == np.float32 and rewards.dtype == np.float32
        assert dones.dtype == np.bool_ and masks.dtype == np.bool_
        for i in range(games):
            action, reward, done, observation, mask = expected[i][step]
            assert actions[i] == action
            assert rewards[i] == reward and dones[i] == done
            np.testing.assert_array_equal(observations[i], observation)
            np.testing.assert_array_equal(masks[i], mask)
    assert any(e[2] for lane in expected for e in lane), "no game ended: the test saw no reset"


def test_every_example_spec_steps():
    for spec in example_specs():
        env = zerosum.VectorEnv(spec, 2, seed=1)
        env.reset()
        for _ in range(3):
            env.step(env.sample_actions())
        assert env.game(0).ply == 3


def test_auto_reset_and_to_move():
    env = zerosum.VectorEnv("tictactoe", 1)
    env.reset()
    for action in [0, 3, 1, 4]:
        _, rewards, dones, _ = env.step([action])
        assert not dones[0] and rewards[0] == 0
    assert env.to_move.tolist() == [0]
    observations, rewards, dones, masks = env.step(np.array([2]))
    assert dones[0] and rewards[0] == 1.0
    assert observations[0, :2].sum() == 0 and masks[0].all()
    assert env.game(0).ply == 0


def test_bad_arguments_raise_and_move_no_game():
    env = zerosum.VectorEnv("connect4", 3)
    env.reset()
    with pytest.raises(ValueError, match=r"actions must have shape \(3,\), not \[2\]"):
        env.step(np.array([0, 1]))
    with pytest.raises(ValueError, match=r"actions must have shape \(3,\), not \[3, 1\]"):
        env.step(np.zeros((3, 1), dtype=np.int64))
    with pytest.raises(ValueError, match="actions must be integers"):
        env.step(np.array([0.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match="game 1: action 7 is out of range"):
        env.step([0, 7, 0])
    for _ in range(6):
        env.step([0, 1, 2])
    with pytest.raises(ValueError, match="game 0: action 0 is not legal: column full"):
        env.step([0, 1, 2])
    assert [env.game(i).ply for i in range(3)] == [6, 6, 6]
    with pytest.raises(ValueError, match="actions must be a sequence of ints"):
        env.step("abc")
    with pytest.raises(zerosum.GameSpecError):
        zerosum.VectorEnv("connectx:0x0x0", 2)
    with pytest.raises(ValueError, match="num_games must be between 1"):
        zerosum.VectorEnv("connect4", 0)
    with pytest.raises(ValueError, match="threads must be between 1"):
        zerosum.VectorEnv("connect4", 2, threads=0)
    with pytest.raises(ValueError, match="game 3 is out of range"):
        env.game(3)


def test_actions_of_any_integer_dtype_and_layout_play_alike():
    """int64 arrays are read as they are; other integer dtypes, strided views and lists give
    the same games."""
    envs = [zerosum.VectorEnv("hex:5", 3, seed=2) for _ in range(4)]
    for env in envs:
        env.reset()
    for _ in range(30):
        actions = envs[0].sample_actions()
        spaced = np.zeros(6, dtype=np.int64)
        spaced[::2] = actions
        results = [
            envs[0].step(actions),
            envs[1].step(actions.astype(np.int32)),
            envs[2].step(spaced[::2]),
            envs[3].step(actions.tolist()),
        ]
        for other in results[1:]:
            for mine, theirs in zip(results[0], other):
                np.testing.assert_array_equal(mine, theirs)
    assert len({tuple(env.game(0).history) for env in envs}) == 1


@pytest.mark.parametrize("spec", ["connect4", "hex:5:swap-pieces", "unstable:4x4"])
def test_without_observations_the_games_are_the_same(spec):
    observing = zerosum.VectorEnv(spec, 4, seed=5, threads=2)
    bare = zerosum.VectorEnv(spec, 4, seed=5, threads=2, observations=False)
    assert observing.observations and not bare.observations
    (observations, masks), (nothing, bare_masks) = observing.reset(), bare.reset()
    assert observations.shape == (4, *observing.observation_shape) and nothing is None
    np.testing.assert_array_equal(masks, bare_masks)
    ended = 0
    for _ in range(100):
        actions = observing.sample_actions()
        np.testing.assert_array_equal(actions, bare.sample_actions())
        _, rewards, dones, masks = observing.step(actions)
        nothing, bare_rewards, bare_dones, bare_masks = bare.step(actions)
        assert nothing is None
        np.testing.assert_array_equal(rewards, bare_rewards)
        np.testing.assert_array_equal(dones, bare_dones)
        np.testing.assert_array_equal(masks, bare_masks)
        ended += int(dones.sum())
    assert ended > 0, "no game ended: the test saw no reset"
    assert observing.game(0).history == bare.game(0).history


def os_threads():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("Threads:"))


def test_an_environment_keeps_its_threads_and_ends_them_when_dropped():
    before = os_threads()
    env = zerosum.VectorEnv("connect4", 8, threads=4)
    assert os_threads() == before + 3  # the caller's thread steps the first chunk
    env.reset()
    for _ in range(20):
        env.step(env.sample_actions())
    assert os_threads() == before + 3
    del env
    assert os_threads() == before
    for _ in range(50):
        zerosum.VectorEnv("hex:5", 4, threads=4).reset()
    assert os_threads() == before
