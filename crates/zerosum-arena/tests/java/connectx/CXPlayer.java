package connectx;

/** Stand-in: the course's Connect-X player interface. */
public interface CXPlayer {
    void initPlayer(int M, int N, int X, boolean first, int timeout_in_secs);

    int selectColumn(CXBoard B);

    String playerName();
}
