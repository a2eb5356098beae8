package toys;

import mnkgame.MNKCell;
import mnkgame.MNKPlayer;

/**
 * Uses 90 % of its limit on every move (the rest absorbs a busy machine), then plays the first
 * free cell.
 */
public class MnkNearLimit implements MNKPlayer {
    private int timeout;

    public void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs) {
        timeout = timeout_in_secs;
    }

    public MNKCell selectCell(MNKCell[] FC, MNKCell[] MC) {
        long until = System.currentTimeMillis() + timeout * 900L;
        while (System.currentTimeMillis() < until) {
            Thread.onSpinWait();
        }
        return FC[0];
    }

    public String playerName() {
        return "MnkNearLimit";
    }
}
