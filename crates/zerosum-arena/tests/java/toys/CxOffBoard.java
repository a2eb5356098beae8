package toys;

import connectx.CXBoard;
import connectx.CXPlayer;

/** Plays column N, just right of the board. */
public class CxOffBoard implements CXPlayer {
    public void initPlayer(int M, int N, int X, boolean first, int timeout_in_secs) {}

    public int selectColumn(CXBoard B) {
        return B.N;
    }

    public String playerName() {
        return "CxOffBoard";
    }
}
