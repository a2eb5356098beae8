package zerosum.adapter;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import mnkgame.MNKCell;
import mnkgame.MNKCellState;
import mnkgame.MNKPlayer;

/**
 * An {@code MNKPlayer} and its board. Like the course referee, it gives {@code selectCell} fresh
 * arrays: the free cells (row by row) and the marked cells in move order with their owners.
 * Moves are zerosum cell names: column letters then the row from 1, {@code a1} top-left, so
 * course cell (i, j) is {@code letters(j) + (i + 1)}.
 */
final class MnkCourseSession implements CourseSession {
    private final MNKPlayer player;
    private int rows;
    private int columns;
    private int toAlign;
    /** Owner of each cell, {@code FREE} when empty; indexed [row][column]. */
    private MNKCellState[][] cells = new MNKCellState[0][0];
    /** The moves so far, in order. */
    private final List<MNKCell> marked = new ArrayList<>();

    /**
     * @throws ClassCastException when {@code player} is not an {@code MNKPlayer}
     */
    MnkCourseSession(Object player) {
        this.player = (MNKPlayer) player;
    }

    @Override
    public void newGame(int m, int n, int k) {
        rows = m;
        columns = n;
        toAlign = k;
        cells = new MNKCellState[m][n];
        for (MNKCellState[] row : cells) {
            java.util.Arrays.fill(row, MNKCellState.FREE);
        }
        marked.clear();
    }

    @Override
    public void play(String move) {
        int[] cell = CellNames.parse(move);
        if (cell == null || !isFree(cell[0], cell[1])) {
            throw new IllegalArgumentException("not a free cell: " + move);
        }
        MNKCellState owner = marked.size() % 2 == 0 ? MNKCellState.P1 : MNKCellState.P2;
        cells[cell[0]][cell[1]] = owner;
        marked.add(new MNKCell(cell[0], cell[1], owner));
    }

    private boolean isFree(int i, int j) {
        return i >= 0 && i < rows && j >= 0 && j < columns && cells[i][j] == MNKCellState.FREE;
    }

    @Override
    public Callable<Void> initCall(boolean first, int timeoutSecs) {
        int m = rows, n = columns, k = toAlign;
        return () -> {
            player.initPlayer(m, n, k, first, timeoutSecs);
            return null;
        };
    }

    @Override
    public Callable<String> selectCall() {
        MNKCell[] free = new MNKCell[rows * columns - marked.size()];
        int next = 0;
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < columns; j++) {
                if (cells[i][j] == MNKCellState.FREE) {
                    free[next++] = new MNKCell(i, j);
                }
            }
        }
        MNKCell[] moves = marked.toArray(new MNKCell[0]);
        return () -> {
            MNKCell choice = player.selectCell(free, moves);
            return choice == null ? "none" : CellNames.name(choice.i, choice.j);
        };
    }

    @Override
    public String chooseMethod() {
        return "selectCell";
    }

    @Override
    public String playerName() {
        return player.playerName();
    }
}
