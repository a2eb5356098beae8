#!/usr/bin/env python3
"""The best score any player can reach against `quasi` on a small board.

    python3 contrib/strength/quasi-bound.py ROWS COLS K [--gravity]

`quasi` as crates/zerosum-arena/src/players/quasi.rs plays it. On m,n,k boards, R4nd0m++: a
win in one if it has one; else a uniformly random move, replaced by the cell where the
opponent could then win (the first in cell order) when there is one. With `--gravity`
(Connect-X, stones drop to the lowest free cell of a column), L1: a win in one if it has one;
else a random move after which the opponent cannot win at once; else any random move.
Against that fixed random strategy this computes, by exhaustive expectimax, the play that
maximises the expected points of the course's scoring (`mnk`: a win 2 as first, 3 as second,
a draw 1; `cx` with `--gravity`: a win 3, a draw 1) and prints that best expected score as a
share of the maximum for each colour and for an equal number of games with each (the course
presets' `Score%`). No strategy, however strong, scores more on average. Boards up to 12
cells take seconds, 16 cells with gravity a minute; larger ones are out of reach.
"""
import sys
from functools import lru_cache

DRAW_POINTS = 1


def main():
    rows, cols, k = map(int, sys.argv[1:4])
    gravity = "--gravity" in sys.argv[4:]
    # A win as first player, as second: mnk scoring, or cx with gravity.
    win_points_of = {1: 3, 2: 3} if gravity else {1: 2, 2: 3}
    cells = rows * cols
    lines = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                line = [(r + dr * i, c + dc * i) for i in range(k)]
                if all(0 <= a < rows and 0 <= b < cols for a, b in line):
                    lines.append([a * cols + b for a, b in line])
    lines_of = [[line for line in lines if cell in line] for cell in range(cells)]

    def wins_at(board, cell, side):
        """Whether `side` playing the empty `cell` completes a line."""
        return any(all(x == cell or board[x] == side for x in line) for line in lines_of[cell])

    def playable(board):
        """The cells a move may take: every empty cell, or with gravity each column's lowest
        empty cell (row 0 is the top row)."""
        if not gravity:
            return [x for x in range(cells) if board[x] == 0]
        moves = []
        for c in range(cols):
            free = [r for r in range(rows) if board[r * cols + c] == 0]
            if free:
                moves.append(max(free) * cols + c)
        return moves

    def winning_cells(board, side):
        return [x for x in playable(board) if wins_at(board, x, side)]

    def place(board, cell, side):
        return board[:cell] + (side,) + board[cell + 1:]

    def best_score(engine):
        win_points = win_points_of[engine]

        @lru_cache(maxsize=None)
        def value(board, to_move):
            """The engine's best expected points from `board`."""
            empty = playable(board)
            if not empty:
                return DRAW_POINTS
            if to_move == engine:
                return max(
                    win_points if wins_at(board, x, to_move) else value(place(board, x, to_move), 3 - to_move)
                    for x in empty
                )
            if winning_cells(board, to_move):
                return 0  # quasi wins in one
            if gravity:
                safe = [x for x in empty if not winning_cells(place(board, x, to_move), engine)]
                choices = safe or empty
                return sum(value(place(board, x, to_move), engine) for x in choices) / len(choices)
            total = 0.0
            for x in empty:
                threats = winning_cells(place(board, x, to_move), engine)
                cell = threats[0] if threats else x
                total += value(place(board, cell, to_move), engine)
            return total / len(empty)

        return value(tuple([0] * cells), 1) / win_points

    first, second = best_score(1), best_score(2)
    both = (win_points_of[1] * first + win_points_of[2] * second) / (
        win_points_of[1] + win_points_of[2]
    )
    family = "connectx" if gravity else "mnk"
    print(
        f"{family}:{rows}x{cols}x{k} against quasi, best possible Score%: as first {100 * first:.1f}, "
        f"as second {100 * second:.1f}, both colours equally {100 * both:.1f}"
    )


if __name__ == "__main__":
    main()
