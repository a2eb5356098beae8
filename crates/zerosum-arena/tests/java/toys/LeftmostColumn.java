package toys;

import connectx.CXBoard;
import connectx.CXPlayer;

/** Plays the leftmost column that is not full; prints a line to System.out on every move. */
public class LeftmostColumn implements CXPlayer {
    public void initPlayer(int M, int N, int X, boolean first, int timeout_in_secs) {}

    public int selectColumn(CXBoard B) {
        System.out.println("= 1");
        return B.getAvailableColumns()[0];
    }

    public String playerName() {
        return "LeftmostColumn";
    }
}
