package toys;

import mnkgame.MNKCell;
import mnkgame.MNKPlayer;

/**
 * Plays the first free cell it is given. Misbehaves harmlessly like real course players: prints
 * many lines to System.out, starts a thread that never ends, and keeps static state. Throws if
 * the cells it is given do not add up to the board.
 */
public class FirstFreeCell implements MNKPlayer {
    private static int gamesInThisJvm;
    private int cells;

    public void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs) {
        gamesInThisJvm++;
        cells = M * N;
        Thread forever = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException ignored) {
                    // keep running
                }
            }
        });
        forever.start();
    }

    public MNKCell selectCell(MNKCell[] FC, MNKCell[] MC) {
        for (int line = 0; line < 50; line++) {
            System.out.println("= thinking hard, line " + line);
        }
        if (FC.length + MC.length != cells) {
            throw new IllegalStateException(FC.length + " free + " + MC.length + " marked");
        }
        return FC[0];
    }

    public String playerName() {
        return "FirstFreeCell";
    }
}
