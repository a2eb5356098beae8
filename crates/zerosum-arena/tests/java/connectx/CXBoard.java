package connectx;

import java.util.ArrayList;
import java.util.List;

/** Stand-in: a Connect-X board with the course board's public methods. Row 0 is the top. */
public class CXBoard {
    public final int M;
    public final int N;
    public final int X;
    private final CXCellState[][] cells;
    /** Lowest free row of each column, -1 when full. */
    private final int[] free;
    private final List<CXCell> moves = new ArrayList<>();
    private CXGameState state = CXGameState.OPEN;

    public CXBoard(int M, int N, int X) {
        this.M = M;
        this.N = N;
        this.X = X;
        cells = new CXCellState[M][N];
        free = new int[N];
        reset();
    }

    public void reset() {
        for (CXCellState[] row : cells) {
            java.util.Arrays.fill(row, CXCellState.FREE);
        }
        java.util.Arrays.fill(free, M - 1);
        moves.clear();
        state = CXGameState.OPEN;
    }

    public CXCellState cellState(int i, int j) {
        if (i < 0 || i >= M || j < 0 || j >= N) {
            throw new IndexOutOfBoundsException(i + "," + j);
        }
        return cells[i][j];
    }

    public boolean fullColumn(int col) {
        return col < 0 || col >= N || free[col] < 0;
    }

    public CXCell getLastMove() {
        return moves.isEmpty() ? null : moves.get(moves.size() - 1);
    }

    public CXGameState gameState() {
        return state;
    }

    public int currentPlayer() {
        return moves.size() % 2;
    }

    public int numOfMarkedCells() {
        return moves.size();
    }

    public int numOfFreeCells() {
        return M * N - moves.size();
    }

    public CXGameState markColumn(int col) {
        if (state != CXGameState.OPEN) {
            throw new IllegalStateException("game over");
        }
        if (col < 0 || col >= N) {
            throw new IndexOutOfBoundsException("column " + col);
        }
        if (free[col] < 0) {
            throw new IllegalStateException("column " + col + " is full");
        }
        CXCellState owner = currentPlayer() == 0 ? CXCellState.P1 : CXCellState.P2;
        int row = free[col]--;
        cells[row][col] = owner;
        moves.add(new CXCell(row, col, owner));
        if (aligned(row, col)) {
            state = owner == CXCellState.P1 ? CXGameState.WINP1 : CXGameState.WINP2;
        } else if (moves.size() == M * N) {
            state = CXGameState.DRAW;
        }
        return state;
    }

    public void unmarkColumn() {
        if (moves.isEmpty()) {
            throw new IllegalStateException("no move to undo");
        }
        CXCell last = moves.remove(moves.size() - 1);
        cells[last.i][last.j] = CXCellState.FREE;
        free[last.j]++;
        state = CXGameState.OPEN;
    }

    public CXCell[] getMarkedCells() {
        return moves.toArray(new CXCell[0]);
    }

    public Integer[] getAvailableColumns() {
        List<Integer> open = new ArrayList<>();
        for (int j = 0; j < N; j++) {
            if (free[j] >= 0) {
                open.add(j);
            }
        }
        return open.toArray(new Integer[0]);
    }

    public CXCellState[][] getBoard() {
        CXCellState[][] copy = new CXCellState[M][];
        for (int i = 0; i < M; i++) {
            copy[i] = cells[i].clone();
        }
        return copy;
    }

    public CXBoard copy() {
        CXBoard copy = new CXBoard(M, N, X);
        for (CXCell move : moves) {
            copy.markColumn(move.j);
        }
        return copy;
    }

    private boolean aligned(int row, int col) {
        int[][] directions = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
        for (int[] d : directions) {
            int run = 1 + count(row, col, d[0], d[1]) + count(row, col, -d[0], -d[1]);
            if (run >= X) {
                return true;
            }
        }
        return false;
    }

    private int count(int row, int col, int di, int dj) {
        int n = 0;
        for (int i = row + di, j = col + dj; i >= 0 && i < M && j >= 0 && j < N
                && cells[i][j] == cells[row][col]; i += di, j += dj) {
            n++;
        }
        return n;
    }
}
