package toys;

import mnkgame.MNKCell;
import mnkgame.MNKPlayer;

/** Sleeps three times its limit before answering. */
public class MnkSleeper implements MNKPlayer {
    private int timeout;

    public void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs) {
        timeout = timeout_in_secs;
    }

    public MNKCell selectCell(MNKCell[] FC, MNKCell[] MC) {
        try {
            Thread.sleep(3000L * timeout);
        } catch (InterruptedException ignored) {
            // answer anyway
        }
        return FC[0];
    }

    public String playerName() {
        return "MnkSleeper";
    }
}
