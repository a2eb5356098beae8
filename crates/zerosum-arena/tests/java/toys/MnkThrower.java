package toys;

import mnkgame.MNKCell;
import mnkgame.MNKPlayer;

/** Throws on its first move. */
public class MnkThrower implements MNKPlayer {
    public void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs) {}

    public MNKCell selectCell(MNKCell[] FC, MNKCell[] MC) {
        throw new IllegalStateException("boom");
    }

    public String playerName() {
        return "MnkThrower";
    }
}
