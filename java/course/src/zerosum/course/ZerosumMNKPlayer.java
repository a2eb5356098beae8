package zerosum.course;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import mnkgame.MNKCell;
import mnkgame.MNKPlayer;

/**
 * zerosum's engine as a course m,n,k player: {@code selectCell} asks a {@code zerosum gtp}
 * process (see {@link GtpBridge}) and answers within 95 % of the course limit; if the engine has
 * no answer by then, it plays a random free cell instead.
 */
public class ZerosumMNKPlayer implements MNKPlayer {
    private final Random random = new Random();
    private GtpBridge engine;

    /** The constructor without arguments the course frameworks call. */
    public ZerosumMNKPlayer() {}

    @Override
    public void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs) {
        if (engine != null) {
            engine.stop();
        }
        engine = GtpBridge.newGame("mnk:" + M + "x" + N + "x" + K, timeout_in_secs);
    }

    @Override
    public MNKCell selectCell(MNKCell[] FC, MNKCell[] MC) {
        long start = System.nanoTime();
        List<String> moves = new ArrayList<>(MC.length);
        for (MNKCell cell : MC) {
            moves.add(cellName(cell.i, cell.j));
        }
        String answer = engine.move(moves, engine.deadlineFrom(start));
        if (answer != null) {
            for (MNKCell cell : FC) {
                if (cellName(cell.i, cell.j).equalsIgnoreCase(answer)) {
                    return cell;
                }
            }
            engine.stop();
        }
        return FC[random.nextInt(FC.length)];
    }

    @Override
    public String playerName() {
        return "zerosum";
    }

    /** zerosum's name of cell (i, j): column letters ({@code a}, ..., {@code z}, {@code aa}, ...)
     * and the row from 1 at the top. */
    static String cellName(int i, int j) {
        StringBuilder letters = new StringBuilder();
        for (int rest = j + 1; rest > 0; rest = (rest - 1) / 26) {
            letters.append((char) ('a' + (rest - 1) % 26));
        }
        return letters.reverse().toString() + (i + 1);
    }
}
