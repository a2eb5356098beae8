package mnkgame;

/** Stand-in: the course's m,n,k player interface. */
public interface MNKPlayer {
    void initPlayer(int M, int N, int K, boolean first, int timeout_in_secs);

    MNKCell selectCell(MNKCell[] FC, MNKCell[] MC);

    String playerName();
}
