package zerosum.course;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import connectx.CXBoard;
import connectx.CXCell;
import connectx.CXPlayer;

/**
 * zerosum's engine as a course Connect-X player: {@code selectColumn} asks a {@code zerosum gtp}
 * process (see {@link GtpBridge}) and answers within 95 % of the course limit; if the engine has
 * no answer by then, it plays a random column that is not full instead.
 */
public class ZerosumCXPlayer implements CXPlayer {
    private final Random random = new Random();
    private GtpBridge engine;

    /** The constructor without arguments the course frameworks call. */
    public ZerosumCXPlayer() {}

    @Override
    public void initPlayer(int M, int N, int X, boolean first, int timeout_in_secs) {
        if (engine != null) {
            engine.stop();
        }
        engine = GtpBridge.newGame("connectx:" + M + "x" + N + "x" + X, timeout_in_secs);
    }

    @Override
    public int selectColumn(CXBoard B) {
        long start = System.nanoTime();
        List<String> moves = new ArrayList<>();
        for (CXCell cell : B.getMarkedCells()) {
            moves.add(Integer.toString(cell.j + 1));
        }
        String answer = engine.move(moves, engine.deadlineFrom(start));
        if (answer != null) {
            try {
                int column = Integer.parseInt(answer) - 1;
                if (!B.fullColumn(column)) {
                    return column;
                }
            } catch (NumberFormatException notAColumn) {
                // Fall back below.
            }
            engine.stop();
        }
        Integer[] open = B.getAvailableColumns();
        return open[random.nextInt(open.length)];
    }

    @Override
    public String playerName() {
        return "zerosum";
    }
}
