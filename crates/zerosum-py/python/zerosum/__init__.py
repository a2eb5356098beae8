"""zerosum: two-player zero-sum board games (m,n,k, Connect-X, Hex, Atoll, Unstable) from
Rust: rules, a batched environment stepped in Rust, the exact solver, the engine and the arena.

The API and examples: docs/python.md of the repository.
"""

from zerosum._zerosum import (
    Game,
    MoveValue,
    SearchResult,
    Solution,
    analyze,
    search,
    solve,
    GameSpecError,
    IllegalMoveError,
    InternalError,
    RandomPlayer,
    VectorEnv,
    ZerosumError,
    games,
    perft,
)

__all__ = [
    "Game",
    "MoveValue",
    "SearchResult",
    "Solution",
    "analyze",
    "search",
    "solve",
    "GameSpecError",
    "IllegalMoveError",
    "InternalError",
    "RandomPlayer",
    "VectorEnv",
    "ZerosumError",
    "games",
    "perft",
]
