package zerosum.adapter;

import java.util.concurrent.Callable;

import connectx.CXBoard;
import connectx.CXPlayer;

/**
 * A {@code CXPlayer} and a board of the player's own framework. Like the course referee, it gives
 * {@code selectColumn} a fresh copy of the board for every move. Moves are zerosum's 1-based
 * column numbers: course column c is {@code c + 1}.
 */
final class CxCourseSession implements CourseSession {
    private final CXPlayer player;
    private CXBoard board;

    /**
     * @throws ClassCastException when {@code player} is not a {@code CXPlayer}
     */
    CxCourseSession(Object player) {
        this.player = (CXPlayer) player;
    }

    @Override
    public void newGame(int m, int n, int k) {
        board = new CXBoard(m, n, k);
    }

    @Override
    public void play(String move) {
        int column;
        try {
            column = Integer.parseInt(move.trim()) - 1;
        } catch (NumberFormatException notANumber) {
            throw new IllegalArgumentException("not a column: " + move);
        }
        if (board.fullColumn(column)) {
            throw new IllegalArgumentException("column " + move + " is full or off the board");
        }
        try {
            board.markColumn(column);
        } catch (RuntimeException over) {
            throw new IllegalArgumentException("cannot play " + move + ": " + over.getMessage());
        }
    }

    @Override
    public Callable<Void> initCall(boolean first, int timeoutSecs) {
        int m = board.M, n = board.N, x = board.X;
        return () -> {
            player.initPlayer(m, n, x, first, timeoutSecs);
            return null;
        };
    }

    @Override
    public Callable<String> selectCall() {
        CXBoard copy = board.copy();
        return () -> Integer.toString(player.selectColumn(copy) + 1);
    }

    @Override
    public String chooseMethod() {
        return "selectColumn";
    }

    @Override
    public String playerName() {
        return player.playerName();
    }
}
