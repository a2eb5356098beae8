package toys;

import mnkgame.MNKCell;
import mnkgame.MNKPlayer;

/** Plays the first cell already marked (the first free cell when none is). */
public class MnkOccupier implements MNKPlayer {
    public void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs) {}

    public MNKCell selectCell(MNKCell[] FC, MNKCell[] MC) {
        return MC.length > 0 ? MC[0] : FC[0];
    }

    public String playerName() {
        return "MnkOccupier";
    }
}
