"""A PettingZoo AEC environment for every game of zerosum (an optional extra: `pip install
pettingzoo`). Agents `player_0` (moves first) and `player_1`; actions are action ids; each
observation is a dict of `observation` (float32, `(3, rows, cols)`: the first player's stones,
the second player's, the side to move; see `zerosum.Game.observation`) and `action_mask`
(int8, 1 at the legal actions of the agent to move, all 0 for the other). Rewards are +1/-1
at a win, 0 at a draw.

    from zerosum.pettingzoo import env
    e = env("connect4")
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else int(observation["action_mask"].argmax())
        e.step(action)
"""

import json

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import zerosum


def _observation_high(game):
    """The largest value an observation holds: 1 (a stone), or no bound on Unstable, whose
    counts may pass the critical mass when a chain reaction wins the game mid-way."""
    board = json.loads(game.to_json())["board"]
    return np.inf if "critical" in board else 1.0


class ZerosumEnv(AECEnv):
    """One game of `spec` (`"connect4"`, `"hex:11"`, `"mnk:15x15x5"`...) as an AEC env."""

    metadata = {"render_modes": ["ansi", "human"], "name": "zerosum_v0", "is_parallelizable": False}

    def __init__(self, spec="connect4", render_mode=None):
        super().__init__()
        self.spec = spec
        self.game = zerosum.Game(spec)
        self.render_mode = render_mode
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        shape = self.game.observation_shape
        high = _observation_high(self.game)
        count = self.game.action_count
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, high, shape, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (count,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        mask = np.zeros(self.game.action_count, dtype=np.int8)
        if agent == self.possible_agents[self.game.to_move] and not self.game.is_terminal():
            mask[self.game.legal_mask()] = 1
        return {"observation": self.game.observation(), "action_mask": mask}

    def reset(self, seed=None, options=None):
        self.game = zerosum.Game(self.spec)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]

    def step(self, action):
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0
        self.game.play(int(action))
        if self.game.is_terminal():
            returns = self.game.returns()
            for index, name in enumerate(self.possible_agents):
                self.rewards[name] = returns[index]
                self.terminations[name] = True
            self.agent_selection = self.possible_agents[1 - self.possible_agents.index(agent)]
        else:
            self.agent_selection = self.possible_agents[self.game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = self.game.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def env(spec="connect4", render_mode=None):
    """The AEC environment of `spec`, wrapped as PettingZoo's classic games are (an illegal
    action ends the game with a loss for its agent; actions are checked)."""
    from pettingzoo.utils import wrappers

    wrapped = ZerosumEnv(spec, render_mode=render_mode)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
