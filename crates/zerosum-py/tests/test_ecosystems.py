"""The optional extras: a PettingZoo AEC environment of every family passes PettingZoo's
api_test; the OpenSpiel wrapper passes OpenSpiel's random simulation test and its MCTS bot
plays our games."""

import numpy as np
import pytest

# One spec of every family (and Hex with the swap), small enough for quick tests.
FAMILY_SPECS = ["tictactoe", "connect4", "hex:5", "hex:4:swap-pieces", "atoll:standard", "unstable:4x4"]


@pytest.mark.parametrize("spec", FAMILY_SPECS)
def test_pettingzoo_api_test(spec):
    pytest.importorskip("pettingzoo", reason="pip install pettingzoo")
    from pettingzoo.test import api_test

    from zerosum.pettingzoo import env

    api_test(env(spec), num_cycles=200, verbose_progress=False)


def test_pettingzoo_plays_a_game_to_the_end():
    pytest.importorskip("pettingzoo", reason="pip install pettingzoo")
    from zerosum.pettingzoo import env

    e = env("tictactoe")
    e.reset(seed=1)
    rewards = {"player_0": 0, "player_1": 0}
    moves = iter([0, 3, 1, 4, 2])  # the first player completes the top row
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        rewards[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        action = next(moves)
        assert observation["action_mask"][action] == 1
        e.step(action)
    assert rewards == {"player_0": 1, "player_1": -1}


@pytest.mark.parametrize("spec", FAMILY_SPECS)
def test_openspiel_random_simulations(spec):
    pyspiel = pytest.importorskip("pyspiel", reason="pip install open_spiel")
    import zerosum.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_zerosum", {"spec": spec})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    state = game.new_initial_state()
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_openspiel_mcts_beats_random_on_tictactoe():
    pyspiel = pytest.importorskip("pyspiel", reason="pip install open_spiel")
    from open_spiel.python.algorithms import evaluate_bots, mcts

    import zerosum.openspiel  # noqa: F401

    game = pyspiel.load_game("python_zerosum", {"spec": "tictactoe"})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = mcts.MCTSBot(game, 1.4, 300, evaluator, random_state=rng, solve=True)
    random = pyspiel.make_uniform_random_bot(1, 7)
    scores = [evaluate_bots.evaluate_bots(game.new_initial_state(), [bot, random], rng)[0] for _ in range(6)]
    assert sum(scores) >= 4, scores
