"""zerosum: two-player zero-sum board games (m,n,k, Connect-X, Hex, Atoll, Unstable) from
Rust: rules, a batched environment stepped in Rust, the exact solver, the engine and the arena.

The API and examples: docs/python.md of the repository.
"""

from zerosum._zerosum import (
    Game,
    GameSpecError,
    IllegalMoveError,
    InternalError,
    MoveValue,
    RandomPlayer,
    SearchResult,
    Solution,
    VectorEnv,
    ZerosumError,
    analyze,
    games,
    perft,
    search,
    solve,
)
from zerosum.arena import Results, match, tournament

__all__ = [
    "Game",
    "GameSpecError",
    "IllegalMoveError",
    "InternalError",
    "MoveValue",
    "RandomPlayer",
    "Results",
    "SearchResult",
    "Solution",
    "VectorEnv",
    "ZerosumError",
    "analyze",
    "games",
    "match",
    "perft",
    "search",
    "solve",
    "tournament",
]
