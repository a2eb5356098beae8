"""zerosum's games as OpenSpiel games (an optional extra: `pip install open_spiel`), so that
OpenSpiel's algorithms (MCTS, AlphaZero, evaluation bots) run on them. Importing this module
registers the game `python_zerosum` with the parameter `spec`:

    import pyspiel
    import zerosum.openspiel
    game = pyspiel.load_game("python_zerosum", {"spec": "connect4"})

Actions are zerosum's action ids; the observation tensor is `zerosum.Game.observation()`
flattened (3 planes over the board); returns are +1/-1 at a win, 0 at a draw.
"""

import numpy as np
import pyspiel

import zerosum

_DEFAULT_SPEC = "connect4"

_GAME_TYPE = pyspiel.GameType(
    short_name="python_zerosum",
    long_name="zerosum game (m,n,k, Connect-X, Hex, Atoll, Unstable)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"spec": _DEFAULT_SPEC},
)


class ZerosumGame(pyspiel.Game):
    """A zerosum game spec as an OpenSpiel game."""

    def __init__(self, params=None):
        params = params or {}
        self.spec = params.get("spec", _DEFAULT_SPEC)
        start = zerosum.Game(self.spec)
        self.action_count = start.action_count
        self.shape = start.observation_shape
        info = pyspiel.GameInfo(
            num_distinct_actions=start.action_count,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=start.max_plies,
        )
        super().__init__(_GAME_TYPE, info, {"spec": self.spec})

    def new_initial_state(self):
        return ZerosumState(self, zerosum.Game(self.spec))

    def make_py_observer(self, iig_obs_type=None, params=None):
        return ZerosumObserver(self)

    def observation_tensor_shape(self):
        return list(self.shape)

    def observation_tensor_size(self):
        return int(np.prod(self.shape))


class ZerosumState(pyspiel.State):
    """A position of a zerosum game."""

    def __init__(self, game, position):
        super().__init__(game)
        self.position = position

    def current_player(self):
        if self.position.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.position.to_move

    def _legal_actions(self, player):
        return sorted(self.position.legal_actions())

    def _apply_action(self, action):
        self.position.play(int(action))

    def _action_to_string(self, player, action):
        return self.position.action_text(int(action))

    def is_terminal(self):
        return self.position.is_terminal()

    def returns(self):
        return list(self.position.returns())

    def __str__(self):
        return self.position.render()

    def clone(self):
        copy = super().clone()
        copy.position = self.position.clone()
        return copy


class ZerosumObserver:
    """The observation tensor and string of a position (perfect information: both players see
    the same)."""

    def __init__(self, game):
        self.tensor = np.zeros(int(np.prod(game.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(game.shape)}

    def set_from(self, state, player):
        self.tensor[:] = state.position.observation().reshape(-1)

    def string_from(self, state, player):
        return " ".join(state.position.history)


pyspiel.register_game(_GAME_TYPE, ZerosumGame)
